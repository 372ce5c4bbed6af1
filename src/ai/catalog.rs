//! The built-in model catalog, default models per provider, and the
//! environment variables that carry each provider's API key.
//!
//! The catalog data lives in `catalog.json`; the build splits it into one
//! section per provider (embedded in the binary), and a provider's section is
//! parsed the first time that provider's models are asked for.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::Value;

use crate::ai::model::{Model, ModelCost};
use crate::config::Env;

include!(concat!(env!("OUT_DIR"), "/catalog_sections.rs"));

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CatalogModel {
    id: String,
    name: String,
    api: Option<String>,
    base_url: Option<String>,
    reasoning: bool,
    thinking_level_map: Option<BTreeMap<String, Option<String>>>,
    input: Vec<String>,
    /// `[input, output, cacheRead, cacheWrite]` per million tokens.
    cost: [f64; 4],
    context_window: u64,
    max_tokens: u64,
    headers: Option<BTreeMap<String, String>>,
    compat: Option<Value>,
}

/// The models of section `index`, parsed on first use.
#[expect(
    clippy::expect_used,
    reason = "the data is embedded at build time and a unit test parses every section"
)]
fn section(index: usize) -> &'static [Model] {
    static PARSED: [OnceLock<Vec<Model>>; SECTION_COUNT] =
        [const { OnceLock::new() }; SECTION_COUNT];
    PARSED[index].get_or_init(|| {
        let (provider, api, base_url, json) = SECTIONS[index];
        let models: Vec<CatalogModel> =
            serde_json::from_str(json).expect("embedded catalog section is valid");
        models
            .into_iter()
            .map(|m| {
                let [input, output, cache_read, cache_write] = m.cost;
                Model {
                    id: m.id,
                    name: m.name,
                    api: m.api.unwrap_or_else(|| api.to_string()),
                    provider: provider.to_string(),
                    base_url: m.base_url.unwrap_or_else(|| base_url.to_string()),
                    reasoning: m.reasoning,
                    thinking_level_map: m.thinking_level_map,
                    input: m.input,
                    cost: ModelCost {
                        input,
                        output,
                        cache_read,
                        cache_write,
                    },
                    context_window: m.context_window,
                    max_tokens: m.max_tokens,
                    headers: m.headers,
                    compat: m.compat,
                }
            })
            .collect()
    })
}

/// The built-in provider names, in catalog order (alphabetical).
pub fn builtin_providers() -> impl Iterator<Item = &'static str> {
    SECTIONS.iter().map(|(name, ..)| *name)
}

/// The position of `provider` among [`builtin_providers`], if it is one.
pub fn builtin_provider_index(provider: &str) -> Option<usize> {
    SECTIONS.iter().position(|(name, ..)| *name == provider)
}

/// Whether `provider` has built-in models.
pub fn is_builtin_provider(provider: &str) -> bool {
    builtin_provider_index(provider).is_some()
}

/// The built-in models of the provider at `index` of [`builtin_providers`].
pub fn builtin_models_at(index: usize) -> &'static [Model] {
    section(index)
}

/// The built-in models of one provider.
pub fn builtin_models_for(provider: &str) -> impl Iterator<Item = &'static Model> + use<> {
    builtin_provider_index(provider)
        .map(section)
        .unwrap_or_default()
        .iter()
}

/// Every built-in model, grouped by provider (providers alphabetical). Parses every
/// section: for listings only.
pub fn builtin_models() -> impl Iterator<Item = &'static Model> {
    (0..SECTIONS.len()).flat_map(|i| section(i).iter())
}

/// A built-in model by provider and id.
pub fn builtin_model(provider: &str, id: &str) -> Option<&'static Model> {
    builtin_models_for(provider).find(|m| m.id == id)
}

/// The model pi picks for each provider when nothing else is configured, in
/// the order providers are tried.
pub const DEFAULT_MODEL_PER_PROVIDER: &[(&str, &str)] = &[
    ("amazon-bedrock", "us.anthropic.claude-opus-4-6-v1"),
    ("anthropic", "claude-opus-4-7"),
    ("openai", "gpt-5.4"),
    ("azure-openai-responses", "gpt-5.4"),
    ("openai-codex", "gpt-5.5"),
    ("deepseek", "deepseek-v4-pro"),
    ("google", "gemini-3.1-pro-preview"),
    ("google-vertex", "gemini-3.1-pro-preview"),
    ("google-gemini-cli", "gemini-2.5-pro"),
    ("google-antigravity", "gemini-3.1-pro-high"),
    ("github-copilot", "gpt-5.4"),
    ("openrouter", "moonshotai/kimi-k2.6"),
    ("vercel-ai-gateway", "zai/glm-5.1"),
    ("xai", "grok-4.20-0309-reasoning"),
    ("groq", "openai/gpt-oss-120b"),
    ("cerebras", "zai-glm-4.7"),
    ("zai", "glm-5.1"),
    ("mistral", "mistral-medium-latest"),
    ("together", "moonshotai/Kimi-K2.6"),
    ("minimax", "MiniMax-M2.7"),
    ("minimax-cn", "MiniMax-M2.7"),
    ("moonshotai", "kimi-k2.6"),
    ("moonshotai-cn", "kimi-k2.6"),
    ("huggingface", "moonshotai/Kimi-K2.6"),
    ("fireworks", "accounts/fireworks/models/kimi-k2p6"),
    ("opencode", "kimi-k2.6"),
    ("opencode-go", "kimi-k2.6"),
    ("kimi-coding", "k2p6"),
    ("cloudflare-workers-ai", "@cf/moonshotai/kimi-k2.6"),
    (
        "cloudflare-ai-gateway",
        "workers-ai/@cf/moonshotai/kimi-k2.6",
    ),
    ("xiaomi", "mimo-v2.5-pro"),
    ("xiaomi-token-plan-cn", "mimo-v2.5-pro"),
    ("xiaomi-token-plan-ams", "mimo-v2.5-pro"),
    ("xiaomi-token-plan-sgp", "mimo-v2.5-pro"),
];

/// The default model id for a provider.
pub fn default_model_id(provider: &str) -> Option<&'static str> {
    DEFAULT_MODEL_PER_PROVIDER
        .iter()
        .find(|(p, _)| *p == provider)
        .map(|(_, id)| *id)
}

/// Environment variables holding a provider's API key, in priority order
/// (empty for providers without one).
pub fn env_api_key_vars(provider: &str) -> &'static [&'static str] {
    match provider {
        "github-copilot" => &["COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN"],
        "anthropic" => &["ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"],
        "openai" => &["OPENAI_API_KEY"],
        "azure-openai-responses" => &["AZURE_OPENAI_API_KEY"],
        "deepseek" => &["DEEPSEEK_API_KEY"],
        "google" => &["GEMINI_API_KEY"],
        "google-vertex" => &["GOOGLE_CLOUD_API_KEY"],
        "groq" => &["GROQ_API_KEY"],
        "cerebras" => &["CEREBRAS_API_KEY"],
        "xai" => &["XAI_API_KEY"],
        "openrouter" => &["OPENROUTER_API_KEY"],
        "vercel-ai-gateway" => &["AI_GATEWAY_API_KEY"],
        "zai" => &["ZAI_API_KEY"],
        "together" => &["TOGETHER_API_KEY"],
        "mistral" => &["MISTRAL_API_KEY"],
        "minimax" => &["MINIMAX_API_KEY"],
        "minimax-cn" => &["MINIMAX_CN_API_KEY"],
        "moonshotai" | "moonshotai-cn" => &["MOONSHOT_API_KEY"],
        "huggingface" => &["HF_TOKEN"],
        "fireworks" => &["FIREWORKS_API_KEY"],
        "opencode" | "opencode-go" => &["OPENCODE_API_KEY"],
        "kimi-coding" => &["KIMI_API_KEY"],
        "cloudflare-workers-ai" | "cloudflare-ai-gateway" => &["CLOUDFLARE_API_KEY"],
        "xiaomi" => &["XIAOMI_API_KEY"],
        "xiaomi-token-plan-cn" => &["XIAOMI_TOKEN_PLAN_CN_API_KEY"],
        "xiaomi-token-plan-ams" => &["XIAOMI_TOKEN_PLAN_AMS_API_KEY"],
        "xiaomi-token-plan-sgp" => &["XIAOMI_TOKEN_PLAN_SGP_API_KEY"],
        _ => &[],
    }
}

/// Marker returned for providers authenticated by ambient cloud credentials.
pub const AMBIENT_CREDENTIALS: &str = "<authenticated>";

/// The API key for `provider` from the environment, if any. Bedrock and
/// Vertex also accept ambient cloud credentials ([`AMBIENT_CREDENTIALS`]).
pub fn env_api_key(provider: &str, env: &Env) -> Option<String> {
    if let Some(value) = env_api_key_vars(provider)
        .iter()
        .find_map(|name| env.var(name))
    {
        return Some(value);
    }
    let ambient = match provider {
        "google-vertex" => {
            let credentials = match env.var("GOOGLE_APPLICATION_CREDENTIALS") {
                Some(path) => PathBuf::from(path).exists(),
                None => dirs::home_dir()
                    .map(|h| h.join(".config/gcloud/application_default_credentials.json"))
                    .is_some_and(|p| p.exists()),
            };
            credentials
                && (env.is_set("GOOGLE_CLOUD_PROJECT") || env.is_set("GCLOUD_PROJECT"))
                && env.is_set("GOOGLE_CLOUD_LOCATION")
        }
        "amazon-bedrock" => {
            env.is_set("AWS_PROFILE")
                || (env.is_set("AWS_ACCESS_KEY_ID") && env.is_set("AWS_SECRET_ACCESS_KEY"))
                || env.is_set("AWS_BEARER_TOKEN_BEDROCK")
                || env.is_set("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI")
                || env.is_set("AWS_CONTAINER_CREDENTIALS_FULL_URI")
                || env.is_set("AWS_WEB_IDENTITY_TOKEN_FILE")
        }
        _ => false,
    };
    ambient.then(|| AMBIENT_CREDENTIALS.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_holds_the_expected_providers() {
        for p in [
            "anthropic",
            "openai",
            "google",
            "xai",
            "groq",
            "cerebras",
            "openrouter",
            "mistral",
            "deepseek",
            "zai",
        ] {
            assert!(builtin_models_for(p).count() > 0, "{p} missing");
        }
        let n = builtin_models_for("openrouter").count();
        assert!(n > 100, "{n}");
    }

    #[test]
    fn model_facts_are_carried_over() {
        let m = builtin_model("anthropic", "claude-sonnet-4-5").unwrap();
        assert_eq!(m.api, "anthropic-messages");
        assert_eq!(m.base_url, "https://api.anthropic.com");
        assert!(m.reasoning);
        assert_eq!(m.input, vec!["text", "image"]);
        assert_eq!(m.cost.input, 3.0);
        assert_eq!(m.cost.cache_write, 3.75);
        assert_eq!(m.context_window, 200_000);
        assert_eq!(m.max_tokens, 64_000);
        assert_eq!(
            builtin_model("openai", "gpt-5.4").unwrap().api,
            "openai-responses"
        );
        assert_eq!(
            builtin_model("google", "gemini-2.5-pro").unwrap().api,
            "google-generative-ai"
        );
        let glm = builtin_model("zai", "glm-5.1").unwrap();
        assert_eq!(glm.compat_str("thinkingFormat"), Some("zai"));
        let kimi = builtin_model("kimi-coding", "k2p6").unwrap();
        assert_eq!(kimi.headers.as_ref().unwrap()["User-Agent"], "KimiCLI/1.5");
    }

    #[test]
    fn default_models_exist_for_catalog_providers() {
        for provider in builtin_providers() {
            let id =
                default_model_id(provider).unwrap_or_else(|| panic!("no default for {provider}"));
            assert!(builtin_model(provider, id).is_some(), "{provider}/{id}");
        }
    }

    #[test]
    fn every_section_parses_and_holds_all_of_catalog_json() {
        let whole: Value = serde_json::from_str(include_str!("catalog.json")).unwrap();
        let providers = whole["providers"].as_array().unwrap();
        let expected: usize = providers
            .iter()
            .map(|p| p["models"].as_array().unwrap().len())
            .sum();
        assert!(expected > 900, "{expected}");
        assert_eq!(builtin_models().count(), expected);
        assert_eq!(builtin_providers().count(), providers.len());
        assert_eq!(
            builtin_provider_index("anthropic")
                .map(builtin_models_at)
                .unwrap()[0]
                .provider,
            "anthropic"
        );
    }

    #[test]
    fn env_keys_follow_priority() {
        let env = Env::from_pairs(&[
            ("ANTHROPIC_API_KEY", "api"),
            ("ANTHROPIC_OAUTH_TOKEN", "oauth"),
        ]);
        assert_eq!(env_api_key("anthropic", &env).unwrap(), "oauth");
        assert_eq!(env_api_key("openai", &env), None);
        let aws = Env::from_pairs(&[("AWS_PROFILE", "dev")]);
        assert_eq!(
            env_api_key("amazon-bedrock", &aws).unwrap(),
            AMBIENT_CREDENTIALS
        );
        assert_eq!(env_api_key_vars("zai"), &["ZAI_API_KEY"]);
    }
}
