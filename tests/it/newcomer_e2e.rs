//! A newcomer's first hour, with the real binary against a 127.0.0.1 mock: the
//! documentation the system prompt names exists wherever the binary was copied to,
//! and the commands of README's quick start run as written.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use serde_json::json;

use crate::support::mock_server::{MockReply, MockServer};
use crate::support::pi_cli::PiSandbox;
use crate::support::tui_harness::{Tmux, quote, tmux_available};

/// The folder the system prompt gives as "Additional docs".
fn docs_folder(system_prompt: &str) -> String {
    system_prompt
        .lines()
        .find_map(|l| l.strip_prefix("- Additional docs: "))
        .expect("the system prompt names a docs folder")
        .trim()
        .to_string()
}

fn system_prompt_of(request: &serde_json::Value) -> String {
    request["messages"]
        .as_array()
        .and_then(|m| m.iter().find(|m| m["role"] == "system"))
        .map(|m| m["content"].as_str().unwrap_or_default().to_string())
        .expect("a system message")
}

/// Run a binary that was just written. While another test's child is between fork
/// and exec it holds every open descriptor, the copy's write end included, and
/// exec answers "text file busy" until that child has moved on.
fn output_of_fresh_copy(command: &mut Command) -> std::process::Output {
    for _ in 0..50 {
        match command.output() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            other => return other.unwrap(),
        }
    }
    command.output().unwrap()
}

#[test]
fn a_copied_binary_names_its_docs_and_the_model_can_read_them() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    // Run a copy far from the source tree: the docs come from the binary itself.
    let bin_dir = sandbox.root.path().join("bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    let copy = bin_dir.join("pi");
    std::fs::copy(env!("CARGO_BIN_EXE_pi"), &copy).unwrap();
    server.push(MockReply::openai_text("looking"));
    let run = |prompt: &str| {
        let mut command = Command::new(&copy);
        command
            .args(["--model", "mock/mock-model", "-p", prompt])
            .current_dir(&sandbox.project)
            .env("PI_CODING_AGENT_DIR", &sandbox.agent_dir)
            .env("PI_OFFLINE", "1")
            .env_remove("PI_PACKAGE_DIR")
            .env_remove("OPENAI_API_KEY")
            .env_remove("ANTHROPIC_API_KEY");
        output_of_fresh_copy(&mut command)
    };
    let out = run("where are the docs?");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let prompt = system_prompt_of(server.requests()[0].json());
    let docs = docs_folder(&prompt);
    assert!(
        docs.starts_with(&sandbox.agent_dir.display().to_string()),
        "under the agent dir: {docs}"
    );
    assert!(
        docs.contains(env!("CARGO_PKG_VERSION")),
        "versioned: {docs}"
    );
    assert!(!prompt.contains(env!("CARGO_MANIFEST_DIR")), "{prompt}");
    // Every page and folder the prompt names exists.
    for word in prompt.split([' ', '(', ')', ',', '\n']) {
        if word.starts_with(&sandbox.agent_dir.display().to_string()) {
            assert!(Path::new(word).exists(), "named but missing: {word}");
        }
    }
    assert!(prompt.contains("extensions/examples"), "{prompt}");
    let page = Path::new(&docs).join("extensions.md");
    // The model reads it with the read tool.
    server.push(MockReply::openai_tool_calls(&[(
        "c1",
        "read",
        json!({"path": page.display().to_string(), "limit": 5}),
    )]));
    server.push(MockReply::openai_text("read it"));
    let out = run("read the extension docs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let requests = server.requests();
    let tool = requests[2].tool_message();
    let heading =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/extensions.md"))
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .to_string();
    assert!(tool.contains(&heading), "{tool}");
}

/// The commands of the README's first ```bash block.
fn quick_start() -> Vec<String> {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme.find("## Quick start").expect("a quick start");
    let block = &readme[start..];
    let block = &block[block.find("```bash\n").unwrap() + 8..];
    let block = &block[..block.find("```").unwrap()];
    block
        .lines()
        .map(|l| match l.find("  #") {
            Some(i) => l[..i].trim().to_string(),
            None => l.trim().to_string(),
        })
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn the_readme_quick_start_runs_against_a_mock_provider() {
    let server = MockServer::start();
    let sandbox = PiSandbox::new();
    // The quick start's Anthropic key, with Anthropic's endpoint on 127.0.0.1.
    sandbox.write_agent_file(
        "models.json",
        &json!({"providers": {"anthropic": {"baseUrl": server.anthropic_base_url()}}}).to_string(),
    );
    std::fs::create_dir_all(sandbox.project.join("src")).unwrap();
    std::fs::write(sandbox.project.join("src/main.rs"), "fn main() {}\n").unwrap();
    std::fs::write(sandbox.project.join("error.log"), "panic at line 3\n").unwrap();
    let bin = sandbox.root.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_pi"), bin.join("pi")).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let commands = quick_start();
    assert!(commands.len() >= 8, "{commands:?}");
    let mut ran = 0;
    for command in &commands {
        if let Some(assignment) = command.strip_prefix("export ") {
            assert!(assignment.starts_with("ANTHROPIC_API_KEY="), "{command}");
            continue;
        }
        // The interactive UI needs a terminal: run it in tmux, send one message, quit.
        if command == "pi" || command == "pi --provider demo" {
            if !tmux_available() {
                eprintln!("SKIPPED `{command}`: tmux is not installed");
                ran += 1;
                continue;
            }
            server.push(MockReply::anthropic_text("All good."));
            let shell = format!(
                "env PATH={} PI_CODING_AGENT_DIR={} PI_OFFLINE=1 ANTHROPIC_API_KEY=quick-start-key {command}; exec cat",
                quote(&path),
                quote(&sandbox.agent_dir.to_string_lossy()),
            );
            let tmux = Tmux::start(&format!("sh -c {}", quote(&shell)), &sandbox.project);
            let wait = Duration::from_secs(30);
            tmux.wait_for("the interactive UI", wait, |s| s.contains("pi v"));
            tmux.type_text("hello");
            tmux.key("Enter");
            let expected = if command == "pi" {
                "All good."
            } else {
                "[demo]"
            };
            tmux.wait_for("an answer", wait, |s| s.contains(expected));
            tmux.key("C-d");
            ran += 1;
            continue;
        }
        for _ in 0..3 {
            server.push(MockReply::anthropic_text("All good."));
        }
        let before = server.request_count();
        let out = Command::new("sh")
            .args(["-c", command])
            .current_dir(&sandbox.project)
            .env("PATH", &path)
            .env("PI_CODING_AGENT_DIR", &sandbox.agent_dir)
            .env("PI_OFFLINE", "1")
            .env("ANTHROPIC_API_KEY", "quick-start-key")
            .env_remove("OPENAI_API_KEY")
            .env_remove("PI_PACKAGE_DIR")
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{command}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        if command.contains("--list-models") {
            assert!(stdout.contains("anthropic"), "{command}: {stdout}");
            ran += 1;
            continue;
        }
        assert!(stdout.contains("All good."), "{command}: {stdout}");
        let request = server.requests()[before].clone();
        assert_eq!(request.header("x-api-key"), Some("quick-start-key"));
        let body = request.json().to_string();
        if command.contains("@src/main.rs") {
            assert!(body.contains("fn main()"), "{body}");
        }
        if command.contains("error.log") {
            assert!(body.contains("panic at line 3"), "{body}");
        }
        if command.starts_with("pi -c") {
            assert!(
                body.contains("error.log") || body.contains("panic at line 3"),
                "continued: {body}"
            );
        }
        ran += 1;
    }
    assert_eq!(ran, commands.len() - 1, "{commands:?}");
}
