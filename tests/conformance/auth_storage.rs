//! `auth.json` credentials: key resolution (literal, environment variable, `!command`),
//! command caching, saving around external edits, and runtime keys.
//! orig-file: packages/coding-agent/test/auth-storage.test.ts

use std::path::Path;

use pi::ai::auth::{AuthStorage, Credential};
use pi::config::Env;
use serde_json::{Value, json};

fn key_with(raw: &str, env: Env) -> Option<String> {
    AuthStorage::in_memory(json!({"anthropic": {"type": "api_key", "key": raw}}), env)
        .api_key("anthropic")
}

/// `name: configured key => resolved key;` rows.
macro_rules! keys {
    ($($(#[$m:meta])* $name:ident: $raw:expr => $want:expr;)*) => {$(
        $(#[$m])*
        #[test]
        fn $name() {
            let want: Option<&str> = $want;
            assert_eq!(key_with($raw, Env::empty()).as_deref(), want);
        }
    )*};
}

keys! {
    /// orig: AuthStorage › API key resolution › literal API key is returned directly
    literal: "sk-ant-literal-key" => Some("sk-ant-literal-key");
    /// orig: AuthStorage › API key resolution › apiKey with ! prefix executes command and uses stdout
    command: "!echo test-api-key-from-command" => Some("test-api-key-from-command");
    /// orig: AuthStorage › API key resolution › apiKey with ! prefix trims whitespace from command output
    command_trimmed: "!echo '  spaced-key  '" => Some("spaced-key");
    /// orig: AuthStorage › API key resolution › apiKey with ! prefix handles multiline output (uses trimmed result)
    command_multiline: "!printf 'line1\\nline2'" => Some("line1\nline2");
    /// orig: AuthStorage › API key resolution › apiKey with ! prefix returns undefined on command failure
    command_failure: "!exit 1" => None;
    /// orig: AuthStorage › API key resolution › apiKey with ! prefix returns undefined on nonexistent command
    command_missing: "!nonexistent-command-12345" => None;
    /// orig: AuthStorage › API key resolution › apiKey with ! prefix returns undefined on empty output
    command_empty: "!printf ''" => None;
    /// orig: AuthStorage › API key resolution › apiKey as literal value is used directly when not an env var
    literal_not_env: "literal_api_key_value" => Some("literal_api_key_value");
    /// orig: AuthStorage › API key resolution › apiKey command can use shell features like pipes
    command_pipe: "!echo 'hello world' | tr ' ' '-'" => Some("hello-world");
}

/// orig: AuthStorage › API key resolution › apiKey as environment variable name resolves to env value
#[test]
fn env_var_name() {
    let env = Env::from_pairs(&[("TEST_AUTH_API_KEY_12345", "env-api-key-value")]);
    assert_eq!(
        key_with("TEST_AUTH_API_KEY_12345", env).as_deref(),
        Some("env-api-key-value")
    );
}

fn counter_command(dir: &Path, body: &str) -> (String, std::path::PathBuf) {
    let counter = dir.join("counter");
    std::fs::write(&counter, "0").unwrap();
    let command = format!(
        "!sh -c 'count=$(cat \"{p}\"); echo $((count + 1)) > \"{p}\"; {body}'",
        p = counter.display()
    );
    (command, counter)
}

fn count(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap().trim().to_string()
}

/// orig: AuthStorage › API key resolution › caching › command is only executed once per process
#[test]
fn command_runs_once() {
    let dir = tempfile::tempdir().unwrap();
    let (command, counter) = counter_command(dir.path(), "echo key-value");
    let auth = AuthStorage::in_memory(
        json!({"anthropic": {"type": "api_key", "key": command}}),
        Env::empty(),
    );
    for _ in 0..3 {
        assert_eq!(auth.api_key("anthropic").as_deref(), Some("key-value"));
    }
    assert_eq!(count(&counter), "1");
}

/// orig: AuthStorage › API key resolution › caching › different commands are cached separately
#[test]
fn commands_cached_separately() {
    let auth = AuthStorage::in_memory(
        json!({"anthropic": {"type": "api_key", "key": "!echo key-anthropic"},
               "openai": {"type": "api_key", "key": "!echo key-openai"}}),
        Env::empty(),
    );
    assert_eq!(auth.api_key("anthropic").as_deref(), Some("key-anthropic"));
    assert_eq!(auth.api_key("openai").as_deref(), Some("key-openai"));
}

/// orig: AuthStorage › API key resolution › caching › failed commands are cached (not retried)
#[test]
fn failed_command_not_retried() {
    let dir = tempfile::tempdir().unwrap();
    let (command, counter) = counter_command(dir.path(), "exit 1");
    let auth = AuthStorage::in_memory(
        json!({"anthropic": {"type": "api_key", "key": command}}),
        Env::empty(),
    );
    assert_eq!(auth.api_key("anthropic"), None);
    assert_eq!(auth.api_key("anthropic"), None);
    assert_eq!(count(&counter), "1");
}

/// orig: AuthStorage › API key resolution › caching › environment variables are not cached (changes are picked up)
#[test]
fn env_values_not_cached() {
    assert_eq!(
        key_with("MY_AUTH_KEY", Env::from_pairs(&[("MY_AUTH_KEY", "first")])).as_deref(),
        Some("first")
    );
    assert_eq!(
        key_with("MY_AUTH_KEY", Env::from_pairs(&[("MY_AUTH_KEY", "second")])).as_deref(),
        Some("second")
    );
}

fn write_auth(path: &Path, value: Value) {
    std::fs::write(path, value.to_string()).unwrap();
}

fn read_auth(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn two_keys() -> Value {
    json!({"anthropic": {"type": "api_key", "key": "old-anthropic"}, "openai": {"type": "api_key", "key": "openai-key"}})
}

/// orig: AuthStorage › persistence semantics › set preserves unrelated external edits
#[test]
fn set_keeps_external_edits() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("auth.json");
    write_auth(&file, two_keys());
    let (mut auth, _) = AuthStorage::load_with_env(dir.path(), Env::empty());
    let mut edited = two_keys();
    edited["google"] = json!({"type": "api_key", "key": "google-key"});
    write_auth(&file, edited);
    auth.set(
        "anthropic",
        &Credential::ApiKey {
            key: "new-anthropic".into(),
        },
    )
    .unwrap();
    let saved = read_auth(&file);
    assert_eq!(saved["anthropic"]["key"], "new-anthropic");
    assert_eq!(saved["openai"]["key"], "openai-key");
    assert_eq!(saved["google"]["key"], "google-key");
}

/// orig: AuthStorage › persistence semantics › remove preserves unrelated external edits
#[test]
fn remove_keeps_external_edits() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("auth.json");
    write_auth(&file, two_keys());
    let (mut auth, _) = AuthStorage::load_with_env(dir.path(), Env::empty());
    let mut edited = two_keys();
    edited["google"] = json!({"type": "api_key", "key": "google-key"});
    write_auth(&file, edited);
    auth.remove("anthropic").unwrap();
    let saved = read_auth(&file);
    assert!(saved.get("anthropic").is_none());
    assert_eq!(saved["openai"]["key"], "openai-key");
    assert_eq!(saved["google"]["key"], "google-key");
}

/// orig: AuthStorage › persistence semantics › does not overwrite malformed auth file after load error
#[test]
fn malformed_file_not_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("auth.json");
    write_auth(
        &file,
        json!({"anthropic": {"type": "api_key", "key": "anthropic-key"}}),
    );
    let (mut auth, _) = AuthStorage::load_with_env(dir.path(), Env::empty());
    std::fs::write(&file, "{invalid-json").unwrap();
    auth.reload_stored();
    let _ = auth.set(
        "openai",
        &Credential::ApiKey {
            key: "openai-key".into(),
        },
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "{invalid-json");
}

/// orig: AuthStorage › runtime overrides › runtime override takes priority over auth.json
#[test]
fn runtime_key_wins() {
    let mut auth = AuthStorage::in_memory(
        json!({"anthropic": {"type": "api_key", "key": "stored-key"}}),
        Env::empty(),
    );
    auth.set_runtime_api_key("anthropic", "runtime-key");
    assert_eq!(auth.api_key("anthropic").as_deref(), Some("runtime-key"));
}

/// orig: AuthStorage › runtime overrides › removing runtime override falls back to auth.json
#[test]
fn removing_runtime_key_falls_back() {
    let mut auth = AuthStorage::in_memory(
        json!({"anthropic": {"type": "api_key", "key": "stored-key"}}),
        Env::empty(),
    );
    auth.set_runtime_api_key("anthropic", "runtime-key");
    auth.remove_runtime_api_key("anthropic");
    assert_eq!(auth.api_key("anthropic").as_deref(), Some("stored-key"));
}
