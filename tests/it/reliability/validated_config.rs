//! Validated configuration: settings.json and models.json are checked against
//! the schemas in `schemas/`; each wrong-typed or unknown key is named once
//! (file, key, expected type) and the rest of the file applies.

use super::*;

#[test]
fn wrong_typed_settings_are_named_and_the_rest_applies() {
    let server = MockServer::start();
    server.set_handler(|_| MockReply::openai_text("from the default model"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    sandbox.write_agent_file(
        "settings.json",
        r#"{"theme": 42, "defaultThinkingLevel": ["x"], "defaultProvider": "mock",
            "defaultModel": "mock-model", "retry": {"enabled": "yes"}, "shellPth": "/bin/sh"}"#,
    );
    // No --model: the start-up model comes from the valid keys of the file.
    let out = sandbox.run(&["-p", "hi"], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "from the default model\n"
    );
    let file = sandbox
        .agent_dir
        .join("settings.json")
        .display()
        .to_string();
    let warnings: Vec<&str> = stderr.lines().filter(|l| l.contains(&file)).collect();
    assert_eq!(warnings.len(), 4, "one line per key: {stderr}");
    for expected in [
        "\"theme\" should be a string, not 42",
        "\"defaultThinkingLevel\" should be one of \"off\", \"minimal\", \"low\", \"medium\", \"high\", \"xhigh\", not [\"x\"]",
        "\"retry.enabled\" should be true or false, not \"yes\"",
        "unknown key \"shellPth\"",
    ] {
        assert!(stderr.contains(expected), "{expected}: {stderr}");
    }
    // The file itself is never rewritten by the check.
    assert!(
        std::fs::read_to_string(sandbox.agent_dir.join("settings.json"))
            .unwrap()
            .contains("\"theme\": 42")
    );
}

#[test]
fn a_valid_settings_file_gives_no_warning() {
    let server = MockServer::start();
    server.set_handler(|_| MockReply::openai_text("ok"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    sandbox.write_agent_file(
        "settings.json",
        r#"{"$schema": "https://example.invalid/settings.schema.json", "theme": "dark",
            "defaultThinkingLevel": "high", "compaction": {"reserveTokens": 8192},
            "retry": {"maxRetries": 1, "provider": {"idleTimeoutMs": 30000}},
            "packages": [{"source": "npm:x", "skills": []}], "extensions.memoryLimitMb": 128,
            "queueMode": "all"}"#,
    );
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "hi"], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("settings.json"), "{stderr}");
}
