//! The `models.json` format: custom providers, custom models and overrides
//! of built-in models, with pi's validation rules.

use std::collections::BTreeMap;
use std::path::Path;

use indexmap::IndexMap;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::models_json_error::{DefinitionProblem, ModelsJsonError};
use crate::ai::catalog;
use crate::config::json_file::strip_comments_and_trailing_commas;

/// The whole file.
#[derive(Debug, Clone, Deserialize)]
pub struct ModelsConfig {
    /// Provider name → configuration, in file order.
    pub providers: IndexMap<String, ProviderConfig>,
    /// One line per key the schema rejected (the key was ignored).
    #[serde(skip)]
    pub warnings: Vec<String>,
}

/// Input kinds a model accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InputKind {
    /// Text.
    Text,
    /// Images.
    Image,
}

impl InputKind {
    fn as_str(self) -> &'static str {
        match self {
            InputKind::Text => "text",
            InputKind::Image => "image",
        }
    }
}

/// Input kinds as the model type stores them.
pub fn input_names(kinds: &[InputKind]) -> Vec<String> {
    kinds.iter().map(|k| k.as_str().to_string()).collect()
}

/// A complete price table (all four fields required).
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FullCost {
    /// Input price per million tokens.
    pub input: f64,
    /// Output price per million tokens.
    pub output: f64,
    /// Cache-read price per million tokens.
    pub cache_read: f64,
    /// Cache-write price per million tokens.
    pub cache_write: f64,
}

/// A partial price table (only given fields replace built-in ones).
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PartialCost {
    /// Input price per million tokens.
    pub input: Option<f64>,
    /// Output price per million tokens.
    pub output: Option<f64>,
    /// Cache-read price per million tokens.
    pub cache_read: Option<f64>,
    /// Cache-write price per million tokens.
    pub cache_write: Option<f64>,
}

/// Thinking level → provider value (`null` = level unsupported).
pub type ThinkingLevelMap = BTreeMap<String, Option<String>>;

/// One provider's entry.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProviderConfig {
    /// Display name.
    pub name: Option<String>,
    /// Endpoint for all models of the provider.
    pub base_url: Option<String>,
    /// API key (literal, env var name or `!command`).
    pub api_key: Option<String>,
    /// Default wire API of the provider's models.
    pub api: Option<String>,
    /// Extra request headers (values resolved like `apiKey`).
    pub headers: Option<IndexMap<String, String>>,
    /// Compatibility flags for all models of the provider.
    pub compat: Option<Map<String, Value>>,
    /// Send `Authorization: Bearer <apiKey>`.
    pub auth_header: Option<bool>,
    /// Custom models (upserted by id).
    pub models: Option<Vec<ModelDefinition>>,
    /// Per-model changes to built-in models.
    pub model_overrides: Option<IndexMap<String, ModelOverride>>,
}

/// A custom model.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelDefinition {
    /// Model id passed to the API.
    pub id: String,
    /// Display name (defaults to the id).
    pub name: Option<String>,
    /// Wire API (defaults to the provider's).
    pub api: Option<String>,
    /// Endpoint (defaults to the provider's).
    pub base_url: Option<String>,
    /// Supports thinking (default false).
    pub reasoning: Option<bool>,
    /// Thinking level mapping.
    pub thinking_level_map: Option<ThinkingLevelMap>,
    /// Input kinds (default text only).
    pub input: Option<Vec<InputKind>>,
    /// Prices (default all zero).
    pub cost: Option<FullCost>,
    /// Context window (default 128000).
    pub context_window: Option<f64>,
    /// Output token limit (default 16384).
    pub max_tokens: Option<f64>,
    /// Extra request headers.
    pub headers: Option<IndexMap<String, String>>,
    /// Compatibility flags (merged over the provider's).
    pub compat: Option<Map<String, Value>>,
}

/// Changes to one built-in model.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelOverride {
    /// Display name.
    pub name: Option<String>,
    /// Supports thinking.
    pub reasoning: Option<bool>,
    /// Thinking level mapping (merged over the built-in one).
    pub thinking_level_map: Option<ThinkingLevelMap>,
    /// Input kinds.
    pub input: Option<Vec<InputKind>>,
    /// Prices (merged field by field).
    pub cost: Option<PartialCost>,
    /// Context window.
    pub context_window: Option<f64>,
    /// Output token limit.
    pub max_tokens: Option<f64>,
    /// Extra request headers.
    pub headers: Option<IndexMap<String, String>>,
    /// Compatibility flags (merged over the built-in ones).
    pub compat: Option<Map<String, Value>>,
}

/// Read and validate `models.json` against `schemas/models.schema.json` (keys of
/// the wrong type are left out and listed in [`ModelsConfig::warnings`]).
/// `Ok(None)` when the file does not exist;
/// `Err` carries pi's user-facing message (naming the file, and for parse
/// errors the line and column).
pub fn load_models_config(path: &Path) -> Result<Option<ModelsConfig>, ModelsJsonError> {
    let path_buf = || path.to_path_buf();
    let text = match crate::config::json_file::read_config_text(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(ModelsJsonError::Unreadable {
                path: path_buf(),
                reason: crate::i18n::config_words::io_reason(&e),
            });
        }
    };
    let cleaned = strip_comments_and_trailing_commas(&text);
    let describe = |e: serde_json::Error| match e.classify() {
        serde_json::error::Category::Data => ModelsJsonError::Schema {
            path: path_buf(),
            detail: crate::config::error::JsonProblem::from_serde(&e).to_string(),
        },
        _ => ModelsJsonError::Syntax {
            path: path_buf(),
            problem: crate::config::error::JsonProblem::from_serde(&e),
        },
    };
    let mut value: Value = serde_json::from_str(&cleaned).map_err(describe)?;
    // Wrong-typed keys are reported and left out; the rest of the file applies.
    let warnings: Vec<String> = crate::config::schema_check::MODELS
        .check_text(path, &cleaned, &mut value)
        .iter()
        .map(ToString::to_string)
        .collect();
    let mut config: ModelsConfig = match serde_json::from_value(value) {
        Ok(config) => config,
        // The line and column come from the text.
        Err(_) => serde_json::from_str(&cleaned).map_err(describe)?,
    };
    config.warnings = warnings;
    if let Some(problem) = check_non_empty_strings(&config) {
        return Err(ModelsJsonError::Schema {
            path: path_buf(),
            detail: problem,
        });
    }
    validate(&config).map_err(|problem| ModelsJsonError::Invalid {
        path: path_buf(),
        problem,
    })?;
    Ok(Some(config))
}

/// Fields the schema requires to be non-empty strings when present.
fn check_non_empty_strings(config: &ModelsConfig) -> Option<String> {
    let empty = |v: &Option<String>| v.as_deref().is_some_and(str::is_empty);
    for (provider, p) in &config.providers {
        for (field, value) in [
            ("name", &p.name),
            ("baseUrl", &p.base_url),
            ("apiKey", &p.api_key),
            ("api", &p.api),
        ] {
            if empty(value) {
                return Some(format!("providers.{provider}.{field}: must not be empty"));
            }
        }
        for (i, m) in p.models.iter().flatten().enumerate() {
            if m.id.is_empty() {
                return Some(format!(
                    "providers.{provider}.models.{i}.id: must not be empty"
                ));
            }
            for (field, value) in [("name", &m.name), ("api", &m.api), ("baseUrl", &m.base_url)] {
                if empty(value) {
                    return Some(format!(
                        "providers.{provider}.models.{i}.{field}: must not be empty"
                    ));
                }
            }
        }
        for (id, o) in p.model_overrides.iter().flatten() {
            if empty(&o.name) {
                return Some(format!(
                    "providers.{provider}.modelOverrides.{id}.name: must not be empty"
                ));
            }
        }
    }
    None
}

/// pi's semantic checks beyond the schema.
fn validate(config: &ModelsConfig) -> Result<(), DefinitionProblem> {
    for (name, p) in &config.providers {
        let builtin = catalog::is_builtin_provider(name);
        let models = p.models.as_deref().unwrap_or_default();
        let has_overrides = p.model_overrides.as_ref().is_some_and(|o| !o.is_empty());
        if models.is_empty() {
            if p.base_url.is_none() && p.headers.is_none() && p.compat.is_none() && !has_overrides {
                return Err(DefinitionProblem::Empty {
                    provider: name.clone(),
                });
            }
            continue;
        }
        if !builtin {
            if p.base_url.is_none() {
                return Err(DefinitionProblem::NoBaseUrl {
                    provider: name.clone(),
                });
            }
            if p.api_key.is_none() {
                return Err(DefinitionProblem::NoApiKey {
                    provider: name.clone(),
                });
            }
        }
        for m in models {
            if p.api.is_none() && m.api.is_none() && !builtin {
                return Err(DefinitionProblem::NoApi {
                    provider: name.clone(),
                    model: m.id.clone(),
                });
            }
            if m.context_window.is_some_and(|v| v <= 0.0) {
                return Err(DefinitionProblem::BadContextWindow {
                    provider: name.clone(),
                    model: m.id.clone(),
                });
            }
            if m.max_tokens.is_some_and(|v| v <= 0.0) {
                return Err(DefinitionProblem::BadMaxTokens {
                    provider: name.clone(),
                    model: m.id.clone(),
                });
            }
        }
    }
    Ok(())
}

/// Merge compat objects: override keys win; the routing objects
/// `openRouterRouting` and `vercelGatewayRouting` are merged key by key.
pub fn merge_compat(base: Option<&Value>, over: Option<&Map<String, Value>>) -> Option<Value> {
    let Some(over) = over else {
        return base.cloned();
    };
    let base_map = base.and_then(Value::as_object).cloned().unwrap_or_default();
    let mut merged = base_map.clone();
    for (k, v) in over {
        merged.insert(k.clone(), v.clone());
    }
    for key in ["openRouterRouting", "vercelGatewayRouting"] {
        let from_base = base_map.get(key).and_then(Value::as_object);
        let from_over = over.get(key).and_then(Value::as_object);
        if from_base.is_none() && from_over.is_none() {
            continue;
        }
        let mut routing = from_base.cloned().unwrap_or_default();
        for (k, v) in from_over.into_iter().flatten() {
            routing.insert(k.clone(), v.clone());
        }
        merged.insert(key.to_string(), Value::Object(routing));
    }
    Some(Value::Object(merged))
}

/// A positive token count from a JSON number.
pub fn token_count(v: f64) -> u64 {
    if v.is_finite() && v > 0.0 {
        v as u64
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn compat_routing_objects_merge() {
        let base = json!({"a": 1, "openRouterRouting": {"only": ["x"], "order": ["y"]}});
        let over = json!({"b": 2, "openRouterRouting": {"only": ["z"]}});
        let merged = merge_compat(Some(&base), over.as_object()).unwrap();
        assert_eq!(
            merged,
            json!({"a": 1, "b": 2, "openRouterRouting": {"only": ["z"], "order": ["y"]}})
        );
        assert_eq!(merge_compat(None, None), None);
    }

    #[test]
    fn override_only_provider_needs_something() {
        let config: ModelsConfig =
            serde_json::from_value(json!({"providers": {"anthropic": {}}})).unwrap();
        let err = validate(&config).unwrap_err();
        assert_eq!(
            err,
            DefinitionProblem::Empty {
                provider: "anthropic".into()
            }
        );
        let err = err.to_string();
        assert!(err.starts_with("Provider anthropic: must specify"), "{err}");
    }

    #[test]
    fn custom_provider_needs_base_url_key_and_api() {
        let check = |p: Value| {
            let c: ModelsConfig =
                serde_json::from_value(json!({"providers": {"local": p}})).unwrap();
            validate(&c).map_err(|e| e.to_string())
        };
        let m = json!([{"id": "m"}]);
        assert!(
            check(json!({"apiKey": "k", "api": "openai-completions", "models": m}))
                .unwrap_err()
                .contains("\"baseUrl\" is required")
        );
        assert!(
            check(json!({"baseUrl": "u", "api": "openai-completions", "models": m}))
                .unwrap_err()
                .contains("\"apiKey\" is required")
        );
        assert!(
            check(json!({"baseUrl": "u", "apiKey": "k", "models": m}))
                .unwrap_err()
                .contains("no \"api\" specified")
        );
        assert!(
            check(json!({"baseUrl": "u", "apiKey": "k", "api": "x",
                              "models": [{"id": "m", "contextWindow": 0}]}))
            .unwrap_err()
            .contains("invalid contextWindow")
        );
        assert!(check(json!({"baseUrl": "u", "apiKey": "k", "api": "x", "models": m})).is_ok());
    }
}
