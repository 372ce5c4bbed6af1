//! Model registry (`models.json`) and credentials (`auth.json`, environment).

use std::path::Path;

use pi::ai::auth::{AuthStorage, Credential, OAuthCredential};
use pi::ai::registry::ModelRegistry;
use pi::config::Env;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn registry(agent: &Path) -> ModelRegistry {
    ModelRegistry::load(agent).0
}

fn auth(agent: &Path, env: &[(&str, &str)]) -> AuthStorage {
    let (auth, warnings) = AuthStorage::load_with_env(agent, Env::from_pairs(env));
    assert!(warnings.is_empty(), "{warnings:?}");
    auth
}

// ---------------------------------------------------------------- models.json

#[test]
fn custom_provider_models_get_defaults_and_resolved_auth() {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join("models.json"),
        r#"{
          // local server
          "providers": {
            "ollama": {
              "baseUrl": "http://localhost:11434/v1",
              "api": "openai-completions",
              "apiKey": "OLLAMA_KEY_VAR",
              "authHeader": true,
              "headers": { "x-team": "TEAM_VAR", "x-secret": "!printf ' s3cret '" },
              "compat": { "supportsDeveloperRole": false },
              "models": [
                { "id": "llama3.1:8b" },
                { "id": "qwen", "name": "Qwen", "reasoning": true, "input": ["text", "image"],
                  "contextWindow": 32000, "maxTokens": 4096, "headers": { "x-model": "m" },
                  "compat": { "maxTokensField": "max_tokens" } },
              ]
            }
          }
        }"#,
    );
    let (registry, warnings) = ModelRegistry::load(dir.path());
    assert!(warnings.is_empty(), "{warnings:?}");
    let llama = registry.find("ollama", "llama3.1:8b").unwrap();
    assert_eq!(llama.name, "llama3.1:8b");
    assert_eq!(llama.api, "openai-completions");
    assert_eq!(llama.base_url, "http://localhost:11434/v1");
    assert!(!llama.reasoning);
    assert_eq!(llama.input, vec!["text"]);
    assert_eq!(llama.context_window, 128_000);
    assert_eq!(llama.max_tokens, 16_384);
    assert_eq!(llama.cost.output, 0.0);
    assert_eq!(llama.compat_bool("supportsDeveloperRole"), Some(false));
    let qwen = registry.find("ollama", "qwen").unwrap();
    assert!(qwen.reasoning && qwen.supports_images());
    assert_eq!(qwen.compat_bool("supportsDeveloperRole"), Some(false));
    assert_eq!(qwen.compat_str("maxTokensField"), Some("max_tokens"));
    assert!(registry.providers().contains(&"ollama".to_string()));

    // Available without running the header command; values resolved per request.
    let auth = auth(
        dir.path(),
        &[("OLLAMA_KEY_VAR", "key-from-env"), ("TEAM_VAR", "core")],
    );
    assert!(registry.has_configured_auth(qwen, &auth));
    let (key, headers) = registry.request_auth(qwen, &auth, None).unwrap();
    assert_eq!(key.as_deref(), Some("key-from-env"));
    assert_eq!(headers["x-team"], "core");
    assert_eq!(headers["x-secret"], "s3cret");
    assert_eq!(headers["x-model"], "m");
    assert_eq!(headers["Authorization"], "Bearer key-from-env");
    // A literal key when the variable is not set.
    let bare = AuthStorage::in_memory(serde_json::json!({}), Env::empty());
    let (key, headers) = registry.request_auth(llama, &bare, None).unwrap();
    assert_eq!(key.as_deref(), Some("OLLAMA_KEY_VAR"));
    assert_eq!(headers["x-team"], "TEAM_VAR");
    assert!(!headers.contains_key("x-model"));
}

#[test]
fn failing_header_command_is_a_request_error() {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join("models.json"),
        r#"{"providers": {"p": {"baseUrl": "http://x", "api": "openai-completions", "apiKey": "!exit 1",
            "models": [{"id": "m"}]}}}"#,
    );
    let registry = registry(dir.path());
    let model = registry.find("p", "m").unwrap();
    let err = registry
        .request_auth(model, &auth(dir.path(), &[]), None)
        .unwrap_err();
    assert!(
        matches!(&err, pi::ai::auth_error::RequestAuthError::Unresolved { command: Some(c), .. } if c == "exit 1"),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "Failed to resolve API key for provider \"p\" from shell command: exit 1"
    );
}

#[test]
fn built_in_provider_overrides_and_upserts() {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join("models.json"),
        r#"{"providers": {
            "anthropic": {
              "baseUrl": "https://proxy.example/v1",
              "modelOverrides": {
                "claude-sonnet-4-5": { "name": "Sonnet via proxy", "cost": { "input": 1 } },
                "no-such-model": { "name": "ignored" }
              },
              "models": [
                { "id": "claude-opus-4-7", "name": "Replaced Opus", "contextWindow": 1000 },
                { "id": "claude-new" }
              ]
            }
        }}"#,
    );
    let (registry, warnings) = ModelRegistry::load(dir.path());
    assert!(warnings.is_empty(), "{warnings:?}");
    let anthropic: Vec<_> = registry
        .all()
        .iter()
        .filter(|m| m.provider == "anthropic")
        .collect();
    assert!(anthropic.len() > 10);
    assert!(
        anthropic
            .iter()
            .all(|m| m.base_url == "https://proxy.example/v1")
    );
    let sonnet = registry.find("anthropic", "claude-sonnet-4-5").unwrap();
    assert_eq!(sonnet.name, "Sonnet via proxy");
    assert_eq!(sonnet.cost.input, 1.0);
    assert_eq!(sonnet.cost.output, 15.0, "untouched cost fields stay");
    let opus = registry.find("anthropic", "claude-opus-4-7").unwrap();
    assert_eq!(opus.name, "Replaced Opus");
    assert_eq!(opus.context_window, 1000);
    assert_eq!(
        opus.api, "anthropic-messages",
        "api inherited from built-ins"
    );
    assert_eq!(
        anthropic
            .iter()
            .filter(|m| m.id == "claude-opus-4-7")
            .count(),
        1
    );
    let new = registry.find("anthropic", "claude-new").unwrap();
    assert_eq!(new.base_url, "https://proxy.example/v1");
    assert_eq!(registry.all().last().unwrap().id, "claude-new");
    assert!(registry.find("anthropic", "no-such-model").is_none());
}

#[test]
fn malformed_models_json_keeps_built_ins() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("models.json");
    write(
        &path,
        "{\n  \"providers\": {\n    \"x\": { \"baseUrl\": }\n  }\n}",
    );
    let (registry, warnings) = ModelRegistry::load(dir.path());
    assert_eq!(warnings.len(), 1);
    let err = registry.error().unwrap();
    assert!(err.starts_with("Failed to parse models.json: "), "{err}");
    assert!(err.contains("line 3, column"), "{err}");
    assert!(err.contains(&path.display().to_string()), "{err}");
    assert!(registry.find("anthropic", "claude-sonnet-4-5").is_some());
    assert!(registry.all().iter().all(|m| m.provider != "x"));
}

#[test]
fn invalid_models_json_contents_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("models.json");
    write(&path, "{\"providers\": [\n 1]}");
    let registry = registry(dir.path());
    let err = registry.error().unwrap();
    assert!(err.starts_with("Invalid models.json schema:"), "{err}");
    assert!(err.contains("line 1"), "{err}");

    write(
        &path,
        r#"{"providers": {"p": {"api": "a", "apiKey": "k", "models": [{"id": "m"}]}}}"#,
    );
    let mut registry = registry;
    registry.reload();
    assert_eq!(
        registry.error().unwrap(),
        format!(
            "Failed to load models.json: Provider p: \"baseUrl\" is required when defining custom models.\n\nFile: {}",
            path.display()
        )
    );
    std::fs::remove_file(&path).unwrap();
    registry.reload();
    assert_eq!(registry.error(), None);
}

#[test]
fn a_wrong_typed_model_field_is_named_and_the_rest_of_models_json_applies() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("models.json");
    write(
        &path,
        r#"{"providers": {"p": {"baseUrl": "u", "apiKey": "k", "api": "openai-completions",
             "models": [{"id": "m", "contextWindow": "big", "maxTokens": 777}, {"name": "no id"}],
             "tpyo": true}}}"#,
    );
    let (registry, warnings) = ModelRegistry::load(dir.path());
    assert_eq!(registry.error(), None);
    let all = warnings.join("\n");
    assert_eq!(warnings.len(), 3, "{all}");
    assert!(
        all.contains(&format!(
            "{}: \"providers.p.models[0].contextWindow\" should be a number, not \"big\"",
            path.display()
        )),
        "{all}"
    );
    assert!(
        all.contains("\"providers.p.models[1]\" is missing \"id\""),
        "{all}"
    );
    assert!(all.contains("unknown key \"providers.p.tpyo\""), "{all}");
    let model = registry.find("p", "m").expect("the valid model is kept");
    assert_eq!(model.max_tokens, 777);
    assert_eq!(model.context_window, 128_000);
}

// ------------------------------------------------------------------ auth.json

#[test]
fn api_key_precedence() {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join("models.json"),
        r#"{"providers": {"openai": {"apiKey": "models-json-key", "baseUrl": "https://api.openai.com/v1"}}}"#,
    );
    write(
        &dir.path().join("auth.json"),
        r#"{"openai": {"type": "api_key", "key": "stored-key"},
            "anthropic": {"type": "oauth", "access": "oauth-token", "refresh": "r", "expires": 99999999999999},
            "groq": {"type": "api_key", "key": "GROQ_FROM_VAR"},
            "xai": {"type": "api_key", "key": "!echo from-command"}}"#,
    );
    let registry = registry(dir.path());
    let env = [
        ("OPENAI_API_KEY", "env-key"),
        ("ANTHROPIC_API_KEY", "env-anthropic"),
        ("GROQ_FROM_VAR", "groq-value"),
        ("MISTRAL_API_KEY", "mistral-env"),
    ];
    let mut auth = auth(dir.path(), &env);
    let key = |auth: &AuthStorage, provider: &str, id: &str, runtime: Option<&str>| {
        let model = registry.find(provider, id).unwrap();
        registry
            .request_auth(model, auth, runtime)
            .unwrap()
            .0
            .unwrap()
    };
    assert_eq!(key(&auth, "openai", "gpt-5.4", Some("cli-key")), "cli-key");
    assert_eq!(key(&auth, "openai", "gpt-5.4", None), "stored-key");
    assert_eq!(
        key(&auth, "anthropic", "claude-opus-4-7", None),
        "oauth-token"
    );
    assert_eq!(
        key(&auth, "groq", "openai/gpt-oss-120b", None),
        "groq-value"
    );
    assert_eq!(key(&auth, "xai", "grok-4.3", None), "from-command");
    assert_eq!(
        key(&auth, "mistral", "mistral-medium-latest", None),
        "mistral-env"
    );
    auth.set_runtime_api_key("openai", "runtime-key");
    assert_eq!(key(&auth, "openai", "gpt-5.4", None), "runtime-key");

    // Without auth.json and env the models.json key is the last resort.
    let bare = AuthStorage::in_memory(serde_json::json!({}), Env::empty());
    assert_eq!(key(&bare, "openai", "gpt-5.4", None), "models-json-key");
    let no_env = AuthStorage::in_memory(serde_json::json!({}), Env::from_pairs(&env));
    assert_eq!(key(&no_env, "openai", "gpt-5.4", None), "env-key");
}

#[test]
fn missing_credentials_explain_how_to_fix() {
    let dir = tempfile::tempdir().unwrap();
    let registry = registry(dir.path());
    let auth = auth(dir.path(), &[]);
    let model = registry.find("zai", "glm-5.1").unwrap();
    assert!(!registry.has_configured_auth(model, &auth));
    let err = registry.request_auth(model, &auth, None).unwrap_err();
    assert!(err.wants_login(), "{err:?}");
    let err = err.to_string();
    assert!(err.starts_with("No API key found for zai."), "{err}");
    assert!(err.contains("ZAI_API_KEY"), "{err}");
    assert!(err.contains("/login"), "{err}");
    assert!(err.contains("models.json"), "{err}");

    let expired = AuthStorage::in_memory(
        serde_json::json!({"anthropic": {"type": "oauth", "access": "a", "refresh": "r", "expires": 1}}),
        Env::empty(),
    );
    let claude = registry.find("anthropic", "claude-opus-4-7").unwrap();
    let err = registry
        .request_auth(claude, &expired, None)
        .unwrap_err()
        .to_string();
    assert!(err.contains("Run '/login anthropic'"), "{err}");
}

#[test]
fn auth_file_is_created_private_and_merged() {
    let dir = tempfile::tempdir().unwrap();
    let agent = dir.path().join("agent");
    let path = agent.join("auth.json");
    let mut auth = auth(&agent, &[]);
    assert!(!path.exists(), "not created until written");
    auth.set("openai", &Credential::ApiKey { key: "sk-1".into() })
        .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    // Another process adds a provider; our next write keeps it.
    let mut on_disk: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    on_disk["groq"] = serde_json::json!({"type": "api_key", "key": "g"});
    std::fs::write(&path, serde_json::to_string(&on_disk).unwrap()).unwrap();
    auth.set(
        "anthropic",
        &Credential::OAuth(OAuthCredential {
            access: "a".into(),
            refresh: "r".into(),
            expires: 5,
            extra: Default::default(),
        }),
    )
    .unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("\n  \"openai\": {\n    \"type\": \"api_key\""),
        "{text}"
    );
    let saved: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(saved["groq"]["key"], "g");
    assert_eq!(saved["anthropic"]["type"], "oauth");
    assert_eq!(saved["openai"]["key"], "sk-1");
}

#[test]
fn malformed_auth_file_is_ignored_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("auth.json");
    let broken = "{\"openai\": {\"type\": \"api_key\", \"key\": \"sk\"}";
    write(&path, broken);
    let (mut auth, warnings) =
        AuthStorage::load_with_env(dir.path(), Env::from_pairs(&[("OPENAI_API_KEY", "env")]));
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0].contains(&path.display().to_string()),
        "{warnings:?}"
    );
    assert!(warnings[0].contains("line 1"), "{warnings:?}");
    assert_eq!(auth.api_key("openai").as_deref(), Some("env"));
    assert!(
        auth.set("groq", &Credential::ApiKey { key: "k".into() })
            .is_err()
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), broken);
}
