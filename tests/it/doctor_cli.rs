//! `pi doctor`: a fresh agent folder passes; a broken `models.json` is named with its
//! file and fails the run; extensions are loaded one by one, a broken one named with its
//! line; `--json` says the same to tools. Nothing is changed on disk.

use std::process::Command;

use serde_json::Value;

use crate::support::pi_cli::PiSandbox;

fn doctor(sandbox: &PiSandbox, extra: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pi"))
        .arg("doctor")
        .args(extra)
        .current_dir(&sandbox.project)
        .env("PI_CODING_AGENT_DIR", &sandbox.agent_dir)
        .env("HOME", sandbox.root.path())
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("OPENAI_API_KEY")
        .env("PI_OFFLINE", "1")
        .output()
        .expect("pi runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn a_fresh_installation_passes_and_a_broken_models_json_fails_with_its_file() {
    let sandbox = PiSandbox::new();
    let (code, out, err) = doctor(&sandbox, &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("ok     program      bash"), "{out}");
    assert!(out.contains("no credentials for any provider"), "{out}");
    assert!(out.contains("errors: 0"), "{out}");

    // A provider of models.json with its own apiKey counts as a credential.
    sandbox.write_agent_file(
        "models.json",
        r#"{"providers": {"local": {"baseUrl": "http://127.0.0.1:9/v1", "api": "openai-completions",
            "apiKey": "k", "models": [{"id": "m"}]}}}"#,
    );
    let (code, out, _) = doctor(&sandbox, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("no credentials for any provider"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("ok") && l.contains("credentials") && l.contains("local")),
        "{out}"
    );

    let models = "{\n  \"providers\": {\n    \"x\": {\"baseUrl\": \"http://h\" \"oops\"}\n  }\n}\n";
    sandbox.write_agent_file("models.json", models);
    let (code, out, _) = doctor(&sandbox, &[]);
    assert_eq!(code, 1, "{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with("error"))
        .unwrap_or_else(|| panic!("an error line: {out}"));
    assert!(
        line.contains("models.json") && line.contains("line 3"),
        "{out}"
    );
    assert!(out.contains(&sandbox.agent_dir.join("models.json").display().to_string()));
    // Read, never written.
    let kept = std::fs::read_to_string(sandbox.agent_dir.join("models.json")).unwrap();
    assert_eq!(kept, models);
}

#[test]
fn each_extension_is_loaded_and_a_broken_one_is_named_with_its_line() {
    let sandbox = PiSandbox::new();
    let dir = sandbox.agent_dir.join("extensions");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("good.lua"),
        "return function(pi)\n  pi.registerCommand(\"hi\", {handler = function() end})\nend\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("broken.lua"),
        "return function(pi)\n  local x = (\nend\n",
    )
    .unwrap();
    let (code, out, err) = doctor(&sandbox, &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("ok") && l.contains("good.lua: loaded in")),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("error") && l.contains("broken.lua:3")),
        "{out}"
    );

    let (code, out, _) = doctor(&sandbox, &["--json"]);
    assert_eq!(code, 1);
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["ok"], false);
    let findings = report["findings"].as_array().unwrap();
    assert!(findings.iter().any(|f| f["area"] == "extension"
        && f["status"] == "error"
        && f["message"].as_str().unwrap().contains("broken.lua")));
    assert!(
        findings
            .iter()
            .any(|f| f["status"] == "ok" && f["message"].as_str().unwrap().contains("good.lua"))
    );
}

#[test]
fn an_unknown_argument_is_a_usage_error() {
    let sandbox = PiSandbox::new();
    let (code, _, err) = doctor(&sandbox, &["--frobnicate"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--frobnicate") && err.contains("pi doctor [--json] [--profile]"),
        "{err}"
    );
}

#[test]
fn an_extension_health_check_is_part_of_the_report() {
    let sandbox = PiSandbox::new();
    let dir = sandbox.agent_dir.join("extensions");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("needs-tools.lua"),
        "return function(pi)\n  pi.registerHealthCheck(function(h)\n    h.ok(\"the cache folder is writable\")\n    \
         h.warn(\"jq is missing: summaries are plain\")\n  end)\nend\n",
    )
    .unwrap();
    let (code, out, err) = doctor(&sandbox, &[]);
    assert_eq!(code, 0, "warnings alone pass: {out}{err}");
    assert!(
        out.lines().any(|l| l.starts_with("ok")
            && l.contains("health")
            && l.contains("needs-tools.lua: the cache folder is writable")),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("warn") && l.contains("jq is missing")),
        "{out}"
    );

    // A check that raises is an error naming what it said.
    std::fs::write(
        dir.join("strict.lua"),
        "return function(pi)\n  pi.registerHealthCheck(function(h) error(\"no license key\") end)\nend\n",
    )
    .unwrap();
    let (code, out, _) = doctor(&sandbox, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.lines().any(|l| l.starts_with("error")
            && l.contains("strict.lua: the health check failed")
            && l.contains("no license key")),
        "{out}"
    );
}
