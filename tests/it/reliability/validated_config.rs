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

/// `models.json` sending the built-in provider groq to `server`: its key
/// comes from `auth.json`.
fn groq_at(sandbox: &PiSandbox, server: &MockServer) {
    sandbox.write_agent_file(
        "models.json",
        &serde_json::json!({"providers": {"groq": {"baseUrl": server.openai_base_url()}}})
            .to_string(),
    );
}

const AUTH_WITH_BAD_ENTRIES: &str = r#"{
  "anthropic": "sk-ant-secret-value",
  "openai": {"type": "api_key", "key": 5},
  "groq": {"type": "api_key", "key": "key-from-auth"}
}
"#;

#[test]
fn wrong_shaped_auth_entries_are_named_and_the_valid_one_works() {
    let server = MockServer::start();
    server.set_handler(|_| MockReply::openai_text("ok"));
    let sandbox = PiSandbox::new();
    groq_at(&sandbox, &server);
    sandbox.write_agent_file("auth.json", AUTH_WITH_BAD_ENTRIES);
    let out = sandbox.run(
        &[
            "--provider",
            "groq",
            "--model",
            "openai/gpt-oss-120b",
            "-p",
            "hi",
        ],
        None,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "ok\n");
    assert_eq!(
        server.requests()[0].header("authorization"),
        Some("Bearer key-from-auth")
    );
    for expected in [
        "\"anthropic\" should be an object",
        "\"openai.key\" should be a string, not a number",
    ] {
        assert!(stderr.contains(expected), "{expected}: {stderr}");
    }
    assert!(stderr.contains("auth.json"), "{stderr}");
    assert!(!stderr.contains("sk-ant-secret-value"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(sandbox.agent_dir.join("auth.json")).unwrap(),
        AUTH_WITH_BAD_ENTRIES
    );
}

#[test]
fn credentials_are_not_saved_over_an_entry_pi_cannot_use() {
    use pi::ai::auth::{AuthStorage, Credential};
    use pi::config::config_value::Env;
    let key = Credential::ApiKey {
        key: "sk-new".into(),
    };
    let bad = tempfile::tempdir().unwrap();
    let bad_file = bad.path().join("auth.json");
    std::fs::write(&bad_file, AUTH_WITH_BAD_ENTRIES).unwrap();
    let (mut auth, warnings) = AuthStorage::load_with_env(bad.path(), Env::from_pairs(&[]));
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert_eq!(auth.api_key("groq").as_deref(), Some("key-from-auth"));
    let err = auth.set("mistral", &key).unwrap_err();
    assert!(
        matches!(
            err,
            pi::ai::auth_error::AuthStoreError::NotSavedEntry { .. }
        ),
        "{err:?}"
    );
    let err = err.to_string();
    assert!(err.contains("Not saving credentials"), "{err}");
    assert!(err.contains("\"anthropic\""), "{err}");
    assert_eq!(
        std::fs::read_to_string(&bad_file).unwrap(),
        AUTH_WITH_BAD_ENTRIES
    );
    // The same save into a well-formed file goes through.
    let good = tempfile::tempdir().unwrap();
    std::fs::write(
        good.path().join("auth.json"),
        r#"{"mock": {"type": "api_key", "key": "k"}}"#,
    )
    .unwrap();
    let (mut auth, warnings) = AuthStorage::load_with_env(good.path(), Env::from_pairs(&[]));
    assert!(warnings.is_empty(), "{warnings:?}");
    auth.set("mistral", &key).unwrap();
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(good.path().join("auth.json")).unwrap())
            .unwrap();
    assert_eq!(saved["mistral"]["key"], "sk-new");
    assert_eq!(saved["mock"]["key"], "k");
}

#[test]
fn three_hundred_thousand_unknown_keys_are_checked_at_once_in_one_warning() {
    let keys: serde_json::Map<String, Value> = (0..300_000)
        .map(|i| (format!("unknownKey{i}"), Value::from(i)))
        .collect();
    let mut keys = Value::Object(keys);
    keys["theme"] = Value::from(42);
    let text = keys.to_string();
    let file = std::path::Path::new("/x/settings.json");
    // CPU time of this thread, not the clock: other tests running at once do not count.
    let started = thread_cpu_time();
    let found = pi::config::schema_check::SETTINGS.check(file, &mut keys);
    let took = thread_cpu_time() - started;
    assert!(matches!(
        &found[0],
        pi::config::schema_warning::SchemaWarning::ManyUnknown { count: 300_000, first, .. }
            if first[0] == "unknownKey0"
    ));
    let warnings: Vec<String> = found.iter().map(ToString::to_string).collect();
    eprintln!(
        "300,000 unknown keys checked in {:.3} s",
        took.as_secs_f64()
    );
    assert!(took < Duration::from_secs(1), "{took:?}");
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(
        warnings[0].starts_with("/x/settings.json: 300,000 unknown keys (\"unknownKey0\""),
        "{warnings:?}"
    );
    assert!(warnings[0].contains("and 299,997 more"), "{warnings:?}");
    assert!(
        warnings[1].contains("\"theme\" should be a string"),
        "{warnings:?}"
    );

    // The whole start-up with that file: one summarised line, and pi answers.
    let sandbox = PiSandbox::new();
    sandbox.write_agent_file("settings.json", &text);
    let started = Instant::now();
    let out = sandbox.run(&["--provider", "demo", "-p", "hello"], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("pi -p with it: {:.2} s", started.elapsed().as_secs_f64());
    assert!(out.status.success(), "{stderr}");
    let mentions = stderr
        .lines()
        .filter(|l| l.contains("settings.json"))
        .count();
    assert_eq!(mentions, 2, "{}", &stderr[..stderr.len().min(2000)]);
    assert!(stderr.contains("300,000 unknown keys"), "{stderr}");
}

/// CPU time this thread has used so far.
fn thread_cpu_time() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid timespec for the call to fill.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) } == 0;
    assert!(ok, "the thread's CPU clock is readable");
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

#[test]
fn a_few_unknown_keys_are_each_named() {
    let mut value = serde_json::json!({"a1": 1, "a2": 2, "a3": 3, "a4": 4, "a5": 5});
    let file = std::path::Path::new("/x/settings.json");
    let warnings: Vec<String> = pi::config::schema_check::SETTINGS
        .check(file, &mut value)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(warnings.len(), 5, "{warnings:?}");
    assert!(warnings[4].contains("unknown key \"a5\""), "{warnings:?}");
}

#[test]
fn a_settings_file_with_a_byte_order_mark_is_read() {
    let server = MockServer::start();
    server.set_handler(|_| MockReply::openai_text("from the default model"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    sandbox.write_agent_file(
        "settings.json",
        "\u{feff}{\"defaultProvider\": \"mock\", \"defaultModel\": \"mock-model\"}",
    );
    let out = sandbox.run(&["-p", "hi"], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("settings.json"), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "from the default model\n"
    );
}
