//! Model patterns (`sonnet:high`, OpenRouter ids with colons), `--model`/`--provider`
//! resolution and the default model per provider.
//! orig-file: packages/coding-agent/test/model-resolver.test.ts

use pi::ai::auth::AuthStorage;
use pi::ai::catalog::default_model_id;
use pi::ai::model::{Model, ThinkingLevel};
use pi::ai::registry::ModelRegistry;
use pi::ai::resolve::{
    InitialModelRequest, parse_model_pattern, resolve_cli_model, select_initial_model,
};
use serde_json::json;

fn model(id: &str, provider: &str, reasoning: bool) -> Model {
    serde_json::from_value(json!({
        "id": id, "name": id, "api": "anthropic-messages", "provider": provider,
        "baseUrl": "https://example.invalid", "reasoning": reasoning, "input": ["text", "image"],
        "cost": {"input": 1, "output": 2, "cacheRead": 0.1, "cacheWrite": 1},
        "contextWindow": 128000, "maxTokens": 8192
    }))
    .unwrap()
}

fn all_models() -> Vec<Model> {
    vec![
        model("claude-sonnet-4-5", "anthropic", true),
        model("gpt-4o", "openai", false),
        model("qwen/qwen3-coder:exacto", "openrouter", true),
        model("openai/gpt-4o:extended", "openrouter", false),
    ]
}

/// `name: pattern => id, level, warning-substring;` rows for lenient pattern parsing.
macro_rules! patterns {
    ($($(#[$m:meta])* $name:ident: $pattern:expr => $id:expr, $level:expr, $warn:expr;)*) => {$(
        $(#[$m])*
        #[test]
        fn $name() {
            let models = all_models();
            let got = parse_model_pattern($pattern, &models, false);
            let want_id: Option<&str> = $id;
            assert_eq!(got.model.map(|m| m.id.as_str()), want_id, "pattern {:?}", $pattern);
            let want_level: Option<ThinkingLevel> = $level;
            assert_eq!(got.thinking_level, want_level);
            let want_warning: Option<&str> = $warn;
            match want_warning {
                None => assert_eq!(got.warning, None),
                Some(part) => {
                    let w = got.warning.unwrap_or_default();
                    assert!(w.contains("Invalid thinking level") && w.contains(part), "{w}");
                }
            }
        }
    )*};
}

patterns! {
    /// orig: parseModelPattern › simple patterns without colons › exact match returns model with undefined thinking level
    exact_id: "claude-sonnet-4-5" => Some("claude-sonnet-4-5"), None, None;
    /// orig: parseModelPattern › simple patterns without colons › partial match returns best model with undefined thinking level
    partial_id: "sonnet" => Some("claude-sonnet-4-5"), None, None;
    /// orig: parseModelPattern › simple patterns without colons › no match returns undefined model and thinking level
    no_match: "nonexistent" => None, None, None;
    /// orig: parseModelPattern › patterns with valid thinking levels › sonnet:high returns sonnet with high thinking level
    sonnet_high: "sonnet:high" => Some("claude-sonnet-4-5"), Some(ThinkingLevel::High), None;
    /// orig: parseModelPattern › patterns with valid thinking levels › gpt-4o:medium returns gpt-4o with medium thinking level
    gpt_medium: "gpt-4o:medium" => Some("gpt-4o"), Some(ThinkingLevel::Medium), None;
    /// orig: parseModelPattern › patterns with invalid thinking levels › sonnet:random returns sonnet with undefined thinking level and warning
    sonnet_random: "sonnet:random" => Some("claude-sonnet-4-5"), None, Some("random");
    /// orig: parseModelPattern › patterns with invalid thinking levels › gpt-4o:invalid returns gpt-4o with undefined thinking level and warning
    gpt_invalid: "gpt-4o:invalid" => Some("gpt-4o"), None, Some("invalid");
    /// orig: parseModelPattern › OpenRouter models with colons in IDs › qwen3-coder:exacto matches the model with undefined thinking level
    colon_id: "qwen/qwen3-coder:exacto" => Some("qwen/qwen3-coder:exacto"), None, None;
    /// orig: parseModelPattern › OpenRouter models with colons in IDs › qwen3-coder:exacto:high matches model with high thinking level
    colon_id_high: "qwen/qwen3-coder:exacto:high" => Some("qwen/qwen3-coder:exacto"), Some(ThinkingLevel::High), None;
    /// orig: parseModelPattern › OpenRouter models with colons in IDs › gpt-4o:extended matches the extended model with undefined thinking level
    extended_id: "openai/gpt-4o:extended" => Some("openai/gpt-4o:extended"), None, None;
    /// orig: parseModelPattern › invalid thinking levels with OpenRouter models › qwen3-coder:exacto:random returns model with undefined thinking level and warning
    colon_id_random: "qwen/qwen3-coder:exacto:random" => Some("qwen/qwen3-coder:exacto"), None, Some("random");
    /// orig: parseModelPattern › invalid thinking levels with OpenRouter models › qwen3-coder:exacto:high:random returns model with undefined thinking level and warning
    colon_id_high_random: "qwen/qwen3-coder:exacto:high:random" => Some("qwen/qwen3-coder:exacto"), None, Some("random");
    /// orig: parseModelPattern › edge cases › pattern ending with colon treats empty suffix as invalid
    trailing_colon: "sonnet:" => Some("claude-sonnet-4-5"), None, Some("");
}

/// orig: parseModelPattern › patterns with valid thinking levels › all valid thinking levels work
#[test]
fn every_level_suffix() {
    let models = all_models();
    for level in ThinkingLevel::ALL {
        let got = parse_model_pattern(&format!("sonnet:{}", level.as_str()), &models, false);
        assert_eq!(got.model.map(|m| m.id.as_str()), Some("claude-sonnet-4-5"));
        assert_eq!(got.thinking_level, Some(level));
        assert_eq!(got.warning, None);
    }
}

/// orig: parseModelPattern › OpenRouter models with colons in IDs › openrouter/qwen/qwen3-coder:exacto matches with provider prefix
#[test]
fn provider_prefixed_colon_id() {
    let models = all_models();
    let got = parse_model_pattern("openrouter/qwen/qwen3-coder:exacto", &models, false);
    let m = got.model.unwrap();
    assert_eq!(
        (m.provider.as_str(), m.id.as_str()),
        ("openrouter", "qwen/qwen3-coder:exacto")
    );
    assert_eq!(got.thinking_level, None);
    assert_eq!(got.warning, None);
}

/// orig: parseModelPattern › OpenRouter models with colons in IDs › openrouter/qwen/qwen3-coder:exacto:high matches with provider and thinking level
#[test]
fn provider_prefixed_colon_id_high() {
    let models = all_models();
    let got = parse_model_pattern("openrouter/qwen/qwen3-coder:exacto:high", &models, false);
    let m = got.model.unwrap();
    assert_eq!(
        (m.provider.as_str(), m.id.as_str()),
        ("openrouter", "qwen/qwen3-coder:exacto")
    );
    assert_eq!(got.thinking_level, Some(ThinkingLevel::High));
    assert_eq!(got.warning, None);
}

/// orig: parseModelPattern › edge cases › empty pattern matches via partial matching
#[test]
fn empty_pattern() {
    let models = all_models();
    let got = parse_model_pattern("", &models, false);
    assert!(got.model.is_some());
    assert_eq!(got.thinking_level, None);
}

fn cli(
    provider: Option<&str>,
    pattern: &str,
    models: Vec<Model>,
) -> Result<(String, String, Option<ThinkingLevel>), String> {
    let registry = ModelRegistry::from_models(models);
    resolve_cli_model(&registry, provider, pattern)
        .map(|r| (r.model.provider, r.model.id, r.thinking_level))
        .map_err(|e| e.to_string())
}

fn pair(provider: &str, id: &str) -> (String, String) {
    (provider.to_string(), id.to_string())
}

fn first_two<T>(r: (String, String, T)) -> (String, String) {
    (r.0, r.1)
}

/// orig: resolveCliModel › resolves --model provider/id without --provider
#[test]
fn cli_provider_slash_id() {
    assert_eq!(
        first_two(cli(None, "openai/gpt-4o", all_models()).unwrap()),
        pair("openai", "gpt-4o")
    );
}

/// orig: resolveCliModel › resolves fuzzy patterns within an explicit provider
#[test]
fn cli_fuzzy_within_provider() {
    assert_eq!(
        first_two(cli(Some("openai"), "4o", all_models()).unwrap()),
        pair("openai", "gpt-4o")
    );
}

/// orig: resolveCliModel › supports --model <pattern>:<thinking> (without explicit --thinking)
#[test]
fn cli_pattern_with_level() {
    let got = cli(None, "sonnet:high", all_models()).unwrap();
    assert_eq!(got.1, "claude-sonnet-4-5");
    assert_eq!(got.2, Some(ThinkingLevel::High));
}

/// orig: resolveCliModel › prefers exact model id match over provider inference (OpenRouter-style ids)
#[test]
fn cli_exact_id_over_provider_split() {
    assert_eq!(
        first_two(cli(None, "openai/gpt-4o:extended", all_models()).unwrap()),
        pair("openrouter", "openai/gpt-4o:extended")
    );
}

/// orig: resolveCliModel › does not strip invalid :suffix as thinking level in --model (treat as raw id)
#[test]
fn cli_invalid_suffix_is_part_of_id() {
    assert_eq!(
        first_two(cli(Some("openai"), "gpt-4o:extended", all_models()).unwrap()),
        pair("openai", "gpt-4o:extended")
    );
}

/// orig: resolveCliModel › allows custom model ids for explicit providers without double prefixing
#[test]
fn cli_custom_id_not_double_prefixed() {
    assert_eq!(
        first_two(
            cli(
                Some("openrouter"),
                "openrouter/openai/ghost-model",
                all_models()
            )
            .unwrap()
        ),
        pair("openrouter", "openai/ghost-model")
    );
}

/// orig: resolveCliModel › returns a clear error when there are no models
#[test]
fn cli_no_models() {
    let err = cli(Some("openai"), "gpt-4o", Vec::new()).unwrap_err();
    assert!(err.contains("No models available"), "{err}");
}

/// orig: resolveCliModel › prefers provider/model split over gateway model with matching id
#[test]
fn cli_provider_split_over_gateway_id() {
    let mut models = all_models();
    models.push(model("glm-5", "zai", true));
    models.push(model("zai/glm-5", "vercel-ai-gateway", true));
    assert_eq!(
        first_two(cli(None, "zai/glm-5", models).unwrap()),
        pair("zai", "glm-5")
    );
}

/// orig: resolveCliModel › resolves provider-prefixed fuzzy patterns (openrouter/qwen -> openrouter model)
#[test]
fn cli_provider_prefixed_fuzzy() {
    assert_eq!(
        first_two(cli(None, "openrouter/qwen", all_models()).unwrap()),
        pair("openrouter", "qwen/qwen3-coder:exacto")
    );
}

/// orig: default model selection › openai defaults are gpt-5.4
#[test]
fn openai_defaults() {
    // 0.73.1 moved openai-codex to gpt-5.5 (the 0.58.3 test says gpt-5.4); the installed
    // program decides.
    assert_eq!(default_model_id("openai"), Some("gpt-5.4"));
    assert_eq!(default_model_id("openai-codex"), Some("gpt-5.5"));
}

/// orig: default model selection › ai-gateway default is opus 4.6
#[test]
fn gateway_default() {
    // 0.73.1's default for vercel-ai-gateway is zai/glm-5.1.
    assert_eq!(default_model_id("vercel-ai-gateway"), Some("zai/glm-5.1"));
}

fn no_auth() -> AuthStorage {
    AuthStorage::in_memory(json!({}), pi::config::Env::empty())
}

/// orig: default model selection › findInitialModel accepts explicit provider custom model ids
#[test]
fn initial_model_custom_id() {
    let registry = ModelRegistry::from_models(all_models());
    let auth = no_auth();
    let got = select_initial_model(InitialModelRequest {
        cli_provider: Some("openrouter"),
        cli_model: Some("openrouter/openai/ghost-model"),
        cli_thinking: None,
        scoped_models: &[],
        has_existing_session: false,
        default_provider: None,
        default_model: None,
        registry: &registry,
        auth: &auth,
    })
    .unwrap();
    assert_eq!(
        (got.model.provider.as_str(), got.model.id.as_str()),
        ("openrouter", "openai/ghost-model")
    );
}

/// orig: default model selection › findInitialModel selects ai-gateway default when available
#[test]
fn initial_model_provider_default() {
    let registry = ModelRegistry::from_models(vec![
        model("some-other-model", "vercel-ai-gateway", true),
        model("zai/glm-5.1", "vercel-ai-gateway", true),
    ]);
    let auth = AuthStorage::in_memory(
        json!({"vercel-ai-gateway": {"type": "api_key", "key": "k"}}),
        pi::config::Env::empty(),
    );
    let got = select_initial_model(InitialModelRequest {
        cli_provider: None,
        cli_model: None,
        cli_thinking: None,
        scoped_models: &[],
        has_existing_session: false,
        default_provider: None,
        default_model: None,
        registry: &registry,
        auth: &auth,
    })
    .unwrap();
    assert_eq!(got.model.id, "zai/glm-5.1");
}
