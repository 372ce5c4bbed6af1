//! End to end: the built-in offline `demo` provider runs real tools without
//! any credentials or network.

use crate::support::pi_cli;

use pi_cli::{PiSandbox, json_lines};

#[test]
fn demo_provider_lists_and_reads_the_project_without_credentials() {
    let sandbox = PiSandbox::new();
    std::fs::write(
        sandbox.project.join("README.md"),
        "# Demo\nreadme-marker-line\n",
    )
    .unwrap();
    let out = sandbox.run(&["--provider", "demo", "-p", "hello"], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("scripted"), "{stdout}");
    assert!(stdout.contains("ANTHROPIC_API_KEY"), "{stdout}");

    let files = sandbox.session_files();
    assert_eq!(files.len(), 1);
    let entries = json_lines(&std::fs::read_to_string(&files[0]).unwrap());
    let results: Vec<(String, String)> = entries
        .iter()
        .filter(|e| e["message"]["role"] == "toolResult")
        .map(|e| {
            (
                e["message"]["toolName"].as_str().unwrap().to_string(),
                e["message"]["content"][0]["text"]
                    .as_str()
                    .unwrap()
                    .to_string(),
            )
        })
        .collect();
    assert_eq!(results.len(), 2, "{results:?}");
    assert_eq!(
        results[0].0, "bash",
        "the listing runs `ls -p` (no ls tool by default)"
    );
    assert!(results[0].1.contains("README.md"), "{results:?}");
    assert_eq!(results[1].0, "read");
    assert!(results[1].1.contains("readme-marker-line"), "{results:?}");
    let model = entries
        .iter()
        .find(|e| e["type"] == "model_change")
        .unwrap();
    assert_eq!(model["provider"], "demo");
}

#[test]
fn print_mode_without_credentials_still_fails_with_advice() {
    let sandbox = PiSandbox::new();
    let out = sandbox.run(&["-p", "hello"], None);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("API key") || stderr.contains("auth"),
        "{stderr}"
    );
}
