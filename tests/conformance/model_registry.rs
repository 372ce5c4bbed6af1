//! `models.json`: provider overrides, custom models merged with built-ins, per-model
//! overrides, reloading, and API key resolution.
//! orig-file: packages/coding-agent/test/model-registry.test.ts

use std::path::{Path, PathBuf};

use pi::ai::auth::AuthStorage;
use pi::ai::model::Model;
use pi::ai::registry::ModelRegistry;
use pi::config::Env;
use serde_json::{Value, json};

struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Fixture {
        Fixture {
            dir: tempfile::tempdir().unwrap(),
        }
    }
    fn path(&self) -> PathBuf {
        self.dir.path().join("models.json")
    }
    fn write(&self, providers: Value) {
        std::fs::write(self.path(), json!({"providers": providers}).to_string()).unwrap();
    }
    fn registry(&self, providers: Value) -> ModelRegistry {
        self.write(providers);
        let (registry, _) = ModelRegistry::load_from(&self.path());
        registry
    }
}

fn provider_config(base_url: &str, ids: &[&str], api: &str) -> Value {
    json!({
        "baseUrl": base_url, "apiKey": "TEST_KEY", "api": api,
        "models": ids.iter().map(|id| json!({
            "id": id, "name": id, "reasoning": false, "input": ["text"],
            "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
            "contextWindow": 100000, "maxTokens": 8000
        })).collect::<Vec<_>>()
    })
}

fn of(registry: &ModelRegistry, provider: &str) -> Vec<Model> {
    registry
        .all()
        .iter()
        .filter(|m| m.provider == provider)
        .cloned()
        .collect()
}

fn find(registry: &ModelRegistry, provider: &str, id: &str) -> Model {
    registry.find(provider, id).cloned().unwrap()
}

/// Headers a request to `model` would carry.
fn headers(registry: &ModelRegistry, model: &Model) -> std::collections::BTreeMap<String, String> {
    let auth = AuthStorage::in_memory(json!({}), Env::empty());
    registry.request_auth(model, &auth, Some("k")).unwrap().1
}

const PROXY: &str = "https://my-proxy.example.com/v1";

/// orig: ModelRegistry › baseUrl override (no custom models) › overriding baseUrl keeps all built-in models
#[test]
fn base_url_override_keeps_builtins() {
    let r = Fixture::new().registry(json!({"anthropic": {"baseUrl": PROXY}}));
    let models = of(&r, "anthropic");
    assert!(models.len() > 1);
    assert!(models.iter().any(|m| m.id.contains("claude")));
}

/// orig: ModelRegistry › baseUrl override (no custom models) › overriding baseUrl changes URL on all built-in models
#[test]
fn base_url_override_applies_to_all() {
    let r = Fixture::new().registry(json!({"anthropic": {"baseUrl": PROXY}}));
    assert!(of(&r, "anthropic").iter().all(|m| m.base_url == PROXY));
}

/// orig: ModelRegistry › baseUrl override (no custom models) › overriding headers merges with model headers
#[test]
fn header_override_applies() {
    let r = Fixture::new().registry(
        json!({"anthropic": {"baseUrl": PROXY, "headers": {"X-Custom-Header": "custom-value"}}}),
    );
    for m in of(&r, "anthropic") {
        assert_eq!(
            headers(&r, &m).get("X-Custom-Header").map(String::as_str),
            Some("custom-value")
        );
    }
}

/// orig: ModelRegistry › baseUrl override (no custom models) › baseUrl-only override does not affect other providers
#[test]
fn base_url_override_is_per_provider() {
    let r = Fixture::new().registry(json!({"anthropic": {"baseUrl": PROXY}}));
    let google = of(&r, "google");
    assert!(!google.is_empty());
    assert_ne!(google[0].base_url, PROXY);
}

/// orig: ModelRegistry › baseUrl override (no custom models) › can mix baseUrl override and models merge
#[test]
fn override_and_merge_together() {
    let r = Fixture::new().registry(json!({
        "anthropic": {"baseUrl": "https://anthropic-proxy.example.com/v1"},
        "google": provider_config("https://google-proxy.example.com/v1", &["gemini-custom"], "google-generative-ai"),
    }));
    let anthropic = of(&r, "anthropic");
    assert!(anthropic.len() > 1);
    assert_eq!(
        anthropic[0].base_url,
        "https://anthropic-proxy.example.com/v1"
    );
    let google = of(&r, "google");
    assert!(google.len() > 1);
    assert!(google.iter().any(|m| m.id == "gemini-custom"));
}

/// orig: ModelRegistry › baseUrl override (no custom models) › refresh() picks up baseUrl override changes
#[test]
fn reload_picks_up_base_url() {
    let f = Fixture::new();
    let mut r = f.registry(json!({"anthropic": {"baseUrl": "https://first-proxy.example.com/v1"}}));
    assert_eq!(
        of(&r, "anthropic")[0].base_url,
        "https://first-proxy.example.com/v1"
    );
    f.write(json!({"anthropic": {"baseUrl": "https://second-proxy.example.com/v1"}}));
    r.reload();
    assert_eq!(
        of(&r, "anthropic")[0].base_url,
        "https://second-proxy.example.com/v1"
    );
}

/// orig: ModelRegistry › custom models merge behavior › custom provider with same name as built-in merges with built-in models
#[test]
fn custom_models_merge_with_builtins() {
    let r = Fixture::new().registry(
        json!({"anthropic": provider_config(PROXY, &["claude-custom"], "anthropic-messages")}),
    );
    let models = of(&r, "anthropic");
    assert!(models.len() > 1);
    assert!(models.iter().any(|m| m.id == "claude-custom"));
    assert!(
        models
            .iter()
            .any(|m| m.id != "claude-custom" && m.id.contains("claude"))
    );
}

/// orig: ModelRegistry › custom models merge behavior › custom model with same id replaces built-in model by id
#[test]
fn custom_model_replaces_builtin_id() {
    let r = Fixture::new().registry(json!({"openrouter": provider_config(PROXY, &["anthropic/claude-sonnet-4"], "openai-completions")}));
    let same: Vec<Model> = of(&r, "openrouter")
        .into_iter()
        .filter(|m| m.id == "anthropic/claude-sonnet-4")
        .collect();
    assert_eq!(same.len(), 1);
    assert_eq!(same[0].base_url, PROXY);
}

/// orig: ModelRegistry › custom models merge behavior › custom provider with same name as built-in does not affect other built-in providers
#[test]
fn custom_models_leave_other_providers() {
    let r = Fixture::new().registry(
        json!({"anthropic": provider_config(PROXY, &["claude-custom"], "anthropic-messages")}),
    );
    assert!(!of(&r, "google").is_empty());
    assert!(!of(&r, "openai").is_empty());
}

/// orig: ModelRegistry › custom models merge behavior › provider-level baseUrl applies to both built-in and custom models
#[test]
fn provider_base_url_applies_to_all() {
    let url = "https://merged-proxy.example.com/v1";
    let r = Fixture::new().registry(
        json!({"anthropic": provider_config(url, &["claude-custom"], "anthropic-messages")}),
    );
    assert!(of(&r, "anthropic").iter().all(|m| m.base_url == url));
}

fn demo(compat: Option<Value>, model_compat: Option<Value>) -> Value {
    let mut model = json!({"id": "demo-model", "reasoning": false, "input": ["text"],
        "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
        "contextWindow": 1000, "maxTokens": 100});
    if let Some(c) = model_compat {
        model["compat"] = c;
    }
    let mut provider = json!({"baseUrl": "https://example.com/v1", "apiKey": "DEMO_KEY",
        "api": "openai-completions", "models": [model]});
    if let Some(c) = compat {
        provider["compat"] = c;
    }
    json!({"demo": provider})
}

/// orig: ModelRegistry › custom models merge behavior › provider-level compat applies to custom models
#[test]
fn provider_compat_on_custom_models() {
    let r = Fixture::new().registry(demo(
        Some(json!({"supportsUsageInStreaming": false, "maxTokensField": "max_tokens"})),
        None,
    ));
    let compat = find(&r, "demo", "demo-model").compat.unwrap();
    assert_eq!(compat["supportsUsageInStreaming"], false);
    assert_eq!(compat["maxTokensField"], "max_tokens");
}

/// orig: ModelRegistry › custom models merge behavior › model-level compat overrides provider-level compat for custom models
#[test]
fn model_compat_wins() {
    let r = Fixture::new().registry(demo(
        Some(json!({"supportsUsageInStreaming": false, "maxTokensField": "max_tokens"})),
        Some(json!({"supportsUsageInStreaming": true, "maxTokensField": "max_completion_tokens"})),
    ));
    let compat = find(&r, "demo", "demo-model").compat.unwrap();
    assert_eq!(compat["supportsUsageInStreaming"], true);
    assert_eq!(compat["maxTokensField"], "max_completion_tokens");
}

/// orig: ModelRegistry › custom models merge behavior › provider-level compat applies to built-in models
#[test]
fn provider_compat_on_builtins() {
    let r = Fixture::new().registry(json!({"openrouter": {"compat": {"supportsUsageInStreaming": false, "supportsStrictMode": false}}}));
    let models = of(&r, "openrouter");
    assert!(!models.is_empty());
    for m in models {
        let compat = m.compat.unwrap();
        assert_eq!(compat["supportsUsageInStreaming"], false);
        assert_eq!(compat["supportsStrictMode"], false);
    }
}

/// orig: ModelRegistry › custom models merge behavior › compat schema accepts reasoningEffortMap and supportsStrictMode
#[test]
fn compat_reasoning_effort_map() {
    let r = Fixture::new().registry(demo(
        None,
        Some(json!({"reasoningEffortMap": {"minimal": "default", "high": "max"}, "supportsStrictMode": false})),
    ));
    assert_eq!(r.error(), None);
    let compat = find(&r, "demo", "demo-model").compat.unwrap();
    assert_eq!(
        compat["reasoningEffortMap"],
        json!({"minimal": "default", "high": "max"})
    );
    assert_eq!(compat["supportsStrictMode"], false);
}

/// orig: ModelRegistry › custom models merge behavior › model-level baseUrl overrides provider-level baseUrl for custom models
#[test]
fn model_base_url_wins() {
    let r = Fixture::new().registry(json!({"opencode-go": {
        "baseUrl": "https://opencode.ai/zen/go/v1", "apiKey": "TEST_KEY",
        "models": [
            {"id": "minimax-m2.5", "api": "anthropic-messages", "baseUrl": "https://opencode.ai/zen/go",
             "reasoning": true, "input": ["text"], "cost": {"input": 0.3, "output": 1.2, "cacheRead": 0.03, "cacheWrite": 0},
             "contextWindow": 204800, "maxTokens": 131072},
            {"id": "glm-5", "api": "openai-completions", "reasoning": true, "input": ["text"],
             "cost": {"input": 1, "output": 3.2, "cacheRead": 0.2, "cacheWrite": 0},
             "contextWindow": 204800, "maxTokens": 131072}
        ]}}));
    assert_eq!(
        find(&r, "opencode-go", "minimax-m2.5").base_url,
        "https://opencode.ai/zen/go"
    );
    assert_eq!(
        find(&r, "opencode-go", "glm-5").base_url,
        "https://opencode.ai/zen/go/v1"
    );
}

const SONNET: &str = "anthropic/claude-sonnet-4";
const OPUS: &str = "anthropic/claude-opus-4";

/// orig: ModelRegistry › custom models merge behavior › modelOverrides still apply when provider also defines models
#[test]
fn overrides_with_custom_models() {
    let mut provider = provider_config(PROXY, &["custom/openrouter-model"], "openai-completions");
    provider["modelOverrides"] = json!({SONNET: {"name": "Overridden Built-in Sonnet"}});
    let r = Fixture::new().registry(json!({"openrouter": provider}));
    let models = of(&r, "openrouter");
    assert!(models.iter().any(|m| m.id == "custom/openrouter-model"));
    assert!(
        models
            .iter()
            .any(|m| m.id == SONNET && m.name == "Overridden Built-in Sonnet")
    );
}

/// orig: ModelRegistry › custom models merge behavior › refresh() reloads merged custom models from disk
#[test]
fn reload_custom_models() {
    let f = Fixture::new();
    let mut r = f.registry(json!({"anthropic": provider_config("https://first-proxy.example.com/v1", &["claude-custom"], "anthropic-messages")}));
    assert!(of(&r, "anthropic").iter().any(|m| m.id == "claude-custom"));
    f.write(json!({"anthropic": provider_config("https://second-proxy.example.com/v1", &["claude-custom-2"], "anthropic-messages")}));
    r.reload();
    let models = of(&r, "anthropic");
    assert!(!models.iter().any(|m| m.id == "claude-custom"));
    assert!(models.iter().any(|m| m.id == "claude-custom-2"));
    assert!(
        models
            .iter()
            .any(|m| m.id.contains("claude") && !m.id.starts_with("claude-custom"))
    );
}

/// orig: ModelRegistry › custom models merge behavior › removing custom models from models.json keeps built-in provider models
#[test]
fn removing_custom_models_keeps_builtins() {
    let f = Fixture::new();
    let mut r = f.registry(json!({"anthropic": provider_config("https://proxy.example.com/v1", &["claude-custom"], "anthropic-messages")}));
    f.write(json!({}));
    r.reload();
    let models = of(&r, "anthropic");
    assert!(!models.iter().any(|m| m.id == "claude-custom"));
    assert!(models.iter().any(|m| m.id.contains("claude")));
}

fn with_overrides(overrides: Value) -> ModelRegistry {
    Fixture::new().registry(json!({"openrouter": {"modelOverrides": overrides}}))
}

/// orig: ModelRegistry › modelOverrides (per-model customization) › model override applies to a single built-in model
#[test]
fn override_one_model() {
    let r = with_overrides(json!({SONNET: {"name": "Custom Sonnet Name"}}));
    assert_eq!(find(&r, "openrouter", SONNET).name, "Custom Sonnet Name");
    assert_ne!(find(&r, "openrouter", OPUS).name, "Custom Sonnet Name");
}

/// orig: ModelRegistry › modelOverrides (per-model customization) › model override with compat.openRouterRouting
#[test]
fn override_routing() {
    let r = with_overrides(
        json!({SONNET: {"compat": {"openRouterRouting": {"only": ["amazon-bedrock"]}}}}),
    );
    assert_eq!(
        find(&r, "openrouter", SONNET).compat.unwrap()["openRouterRouting"],
        json!({"only": ["amazon-bedrock"]})
    );
}

/// orig: ModelRegistry › modelOverrides (per-model customization) › model override deep merges compat settings
#[test]
fn override_compat_merges() {
    let r = with_overrides(
        json!({SONNET: {"compat": {"openRouterRouting": {"order": ["anthropic", "together"]}}}}),
    );
    assert_eq!(
        find(&r, "openrouter", SONNET).compat.unwrap()["openRouterRouting"],
        json!({"order": ["anthropic", "together"]})
    );
}

/// orig: ModelRegistry › modelOverrides (per-model customization) › multiple model overrides on same provider
#[test]
fn several_overrides() {
    let r = with_overrides(json!({
        SONNET: {"compat": {"openRouterRouting": {"only": ["amazon-bedrock"]}}},
        OPUS: {"compat": {"openRouterRouting": {"only": ["anthropic"]}}},
    }));
    assert_eq!(
        find(&r, "openrouter", SONNET).compat.unwrap()["openRouterRouting"],
        json!({"only": ["amazon-bedrock"]})
    );
    assert_eq!(
        find(&r, "openrouter", OPUS).compat.unwrap()["openRouterRouting"],
        json!({"only": ["anthropic"]})
    );
}

/// orig: ModelRegistry › modelOverrides (per-model customization) › model override combined with baseUrl override
#[test]
fn override_with_base_url() {
    let r = Fixture::new().registry(json!({"openrouter": {"baseUrl": PROXY, "modelOverrides": {SONNET: {"name": "Proxied Sonnet"}}}}));
    let sonnet = find(&r, "openrouter", SONNET);
    assert_eq!(sonnet.base_url, PROXY);
    assert_eq!(sonnet.name, "Proxied Sonnet");
    let opus = find(&r, "openrouter", OPUS);
    assert_eq!(opus.base_url, PROXY);
    assert_ne!(opus.name, "Proxied Sonnet");
}

/// orig: ModelRegistry › modelOverrides (per-model customization) › model override for non-existent model ID is ignored
#[test]
fn override_of_unknown_model_ignored() {
    let r = with_overrides(json!({"nonexistent/model-id": {"name": "This should not appear"}}));
    assert!(r.find("openrouter", "nonexistent/model-id").is_none());
    assert_eq!(r.error(), None);
}

/// orig: ModelRegistry › modelOverrides (per-model customization) › model override can change cost fields partially
#[test]
fn override_cost_partially() {
    let r = with_overrides(json!({SONNET: {"cost": {"input": 99}}}));
    let sonnet = find(&r, "openrouter", SONNET);
    assert_eq!(sonnet.cost.input, 99.0);
    assert!(sonnet.cost.output > 0.0);
}

/// orig: ModelRegistry › modelOverrides (per-model customization) › model override can add headers
#[test]
fn override_headers() {
    let r = with_overrides(json!({SONNET: {"headers": {"X-Custom-Model-Header": "value"}}}));
    let sonnet = find(&r, "openrouter", SONNET);
    assert_eq!(
        headers(&r, &sonnet)
            .get("X-Custom-Model-Header")
            .map(String::as_str),
        Some("value")
    );
}

/// orig: ModelRegistry › modelOverrides (per-model customization) › refresh() picks up model override changes
#[test]
fn reload_overrides() {
    let f = Fixture::new();
    let mut r =
        f.registry(json!({"openrouter": {"modelOverrides": {SONNET: {"name": "First Name"}}}}));
    assert_eq!(find(&r, "openrouter", SONNET).name, "First Name");
    f.write(json!({"openrouter": {"modelOverrides": {SONNET: {"name": "Second Name"}}}}));
    r.reload();
    assert_eq!(find(&r, "openrouter", SONNET).name, "Second Name");
}

/// orig: ModelRegistry › modelOverrides (per-model customization) › removing model override restores built-in values
#[test]
fn removing_override_restores() {
    let f = Fixture::new();
    let mut r =
        f.registry(json!({"openrouter": {"modelOverrides": {SONNET: {"name": "Custom Name"}}}}));
    assert_eq!(find(&r, "openrouter", SONNET).name, "Custom Name");
    f.write(json!({}));
    r.reload();
    assert_ne!(find(&r, "openrouter", SONNET).name, "Custom Name");
}

/// The key a request to the custom provider would use (`None` when it cannot be resolved).
fn key_for(api_key: &str, env: Env) -> Option<String> {
    let f = Fixture::new();
    let r = f.registry(json!({"custom-provider": {
        "baseUrl": "https://example.com/v1", "apiKey": api_key, "api": "anthropic-messages",
        "models": [{"id": "test-model", "name": "Test Model", "reasoning": false, "input": ["text"],
                    "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
                    "contextWindow": 100000, "maxTokens": 8000}]}}));
    let model = find(&r, "custom-provider", "test-model");
    let auth = AuthStorage::in_memory(json!({}), env);
    r.request_auth(&model, &auth, None)
        .ok()
        .and_then(|(key, _)| key)
}

/// `name: apiKey config => expected key;` rows.
macro_rules! api_keys {
    ($($(#[$m:meta])* $name:ident: $raw:expr => $want:expr;)*) => {$(
        $(#[$m])*
        #[test]
        fn $name() {
            let want: Option<&str> = $want;
            assert_eq!(key_for($raw, Env::empty()).as_deref(), want);
        }
    )*};
}

api_keys! {
    /// orig: ModelRegistry › API key resolution › apiKey with ! prefix executes command and uses stdout
    command_key: "!echo test-api-key-from-command" => Some("test-api-key-from-command");
    /// orig: ModelRegistry › API key resolution › apiKey with ! prefix trims whitespace from command output
    command_key_trimmed: "!echo '  spaced-key  '" => Some("spaced-key");
    /// orig: ModelRegistry › API key resolution › apiKey with ! prefix handles multiline output (uses trimmed result)
    command_key_multiline: "!printf 'line1\\nline2'" => Some("line1\nline2");
    /// orig: ModelRegistry › API key resolution › apiKey with ! prefix returns undefined on command failure
    command_key_failure: "!exit 1" => None;
    /// orig: ModelRegistry › API key resolution › apiKey with ! prefix returns undefined on nonexistent command
    command_key_missing_program: "!nonexistent-command-12345" => None;
    /// orig: ModelRegistry › API key resolution › apiKey with ! prefix returns undefined on empty output
    command_key_empty: "!printf ''" => None;
    /// orig: ModelRegistry › API key resolution › apiKey as literal value is used directly when not an env var
    literal_key: "literal_api_key_value" => Some("literal_api_key_value");
    /// orig: ModelRegistry › API key resolution › apiKey command can use shell features like pipes
    command_key_pipe: "!echo 'hello world' | tr ' ' '-'" => Some("hello-world");
}

/// orig: ModelRegistry › API key resolution › apiKey as environment variable name resolves to env value
#[test]
fn env_var_key() {
    let env = Env::from_pairs(&[("TEST_API_KEY_12345", "env-api-key-value")]);
    assert_eq!(
        key_for("TEST_API_KEY_12345", env).as_deref(),
        Some("env-api-key-value")
    );
}

fn counting_command(dir: &Path) -> (String, PathBuf) {
    let counter = dir.join("counter");
    std::fs::write(&counter, "0").unwrap();
    let command = format!(
        "!sh -c 'count=$(cat \"{p}\"); echo $((count + 1)) > \"{p}\"; echo key-value'",
        p = counter.display()
    );
    (command, counter)
}

/// orig: ModelRegistry › API key resolution › caching › command is only executed once per process
#[test]
fn models_json_key_command_runs_per_request() {
    // 0.73.1 resolves a models.json apiKey command on every request (uncached), unlike the
    // 0.58.3 test; the installed program decides.
    let f = Fixture::new();
    let (command, counter) = counting_command(f.dir.path());
    let r = f.registry(json!({"custom-provider": {"baseUrl": "https://e.x/v1", "apiKey": command, "api": "anthropic-messages",
        "models": [{"id": "m", "name": "m", "input": ["text"], "contextWindow": 1000, "maxTokens": 100}]}}));
    let model = find(&r, "custom-provider", "m");
    let auth = AuthStorage::in_memory(json!({}), Env::empty());
    for _ in 0..3 {
        assert_eq!(
            r.request_auth(&model, &auth, None).unwrap().0.as_deref(),
            Some("key-value")
        );
    }
    assert_eq!(std::fs::read_to_string(counter).unwrap().trim(), "3");
}

/// orig: ModelRegistry › API key resolution › caching › environment variables are not cached (changes are picked up)
#[test]
fn env_key_changes_picked_up() {
    assert_eq!(
        key_for("MY_KEY", Env::from_pairs(&[("MY_KEY", "first")])).as_deref(),
        Some("first")
    );
    assert_eq!(
        key_for("MY_KEY", Env::from_pairs(&[("MY_KEY", "second")])).as_deref(),
        Some("second")
    );
}

/// orig: ModelRegistry › API key resolution › caching › failed commands are cached (not retried)
#[test]
fn failed_key_command_retried() {
    // 0.73.1 does not cache models.json key commands, so a failed command runs again.
    let f = Fixture::new();
    let counter = f.dir.path().join("counter");
    std::fs::write(&counter, "0").unwrap();
    let command = format!(
        "!sh -c 'count=$(cat \"{p}\"); echo $((count + 1)) > \"{p}\"; exit 1'",
        p = counter.display()
    );
    let r = f.registry(json!({"custom-provider": {"baseUrl": "https://e.x/v1", "apiKey": command, "api": "anthropic-messages",
        "models": [{"id": "m", "name": "m", "input": ["text"], "contextWindow": 1000, "maxTokens": 100}]}}));
    let model = find(&r, "custom-provider", "m");
    let auth = AuthStorage::in_memory(json!({}), Env::empty());
    assert!(r.request_auth(&model, &auth, None).is_err());
    assert!(r.request_auth(&model, &auth, None).is_err());
    assert_eq!(std::fs::read_to_string(counter).unwrap().trim(), "2");
}
