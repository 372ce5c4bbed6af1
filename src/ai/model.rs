//! Model descriptions and thinking levels.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use crate::protocol::ThinkingLevel;

/// Price per million tokens.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ModelCost {
    /// Input price.
    #[serde(serialize_with = "crate::ai::types::js_number")]
    pub input: f64,
    /// Output price.
    #[serde(serialize_with = "crate::ai::types::js_number")]
    pub output: f64,
    /// Cache-read price.
    #[serde(serialize_with = "crate::ai::types::js_number")]
    pub cache_read: f64,
    /// Cache-write price.
    #[serde(serialize_with = "crate::ai::types::js_number")]
    pub cache_write: f64,
}

/// A model reachable through one provider and wire API.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Model {
    /// Id passed to the API.
    pub id: String,
    /// Human-readable name.
    pub name: String,
    /// Wire API (`anthropic-messages`, `openai-completions`, ...).
    pub api: String,
    /// Provider name (`anthropic`, `openai`, ...).
    pub provider: String,
    /// Endpoint base URL.
    pub base_url: String,
    /// Whether the model supports thinking.
    #[serde(default)]
    pub reasoning: bool,
    /// Per-level provider values; `null` marks a level unsupported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thinking_level_map: Option<BTreeMap<String, Option<String>>>,
    /// Input kinds: `text`, `image`.
    #[serde(default = "default_input")]
    pub input: Vec<String>,
    /// Price per million tokens.
    #[serde(default)]
    pub cost: ModelCost,
    /// Context window in tokens.
    #[serde(default = "default_context_window")]
    pub context_window: u64,
    /// Maximum output tokens.
    #[serde(default = "default_max_tokens")]
    pub max_tokens: u64,
    /// Extra request headers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headers: Option<BTreeMap<String, String>>,
    /// Compatibility flags for OpenAI/Anthropic-compatible servers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compat: Option<Value>,
}

fn default_input() -> Vec<String> {
    vec!["text".to_string()]
}

fn default_context_window() -> u64 {
    128_000
}

fn default_max_tokens() -> u64 {
    16_384
}

impl Model {
    /// True when the model accepts image input.
    pub fn supports_images(&self) -> bool {
        self.input.iter().any(|i| i == "image")
    }

    /// A boolean compat flag, if set.
    pub fn compat_bool(&self, key: &str) -> Option<bool> {
        self.compat.as_ref()?.get(key)?.as_bool()
    }

    /// A string compat flag, if set.
    pub fn compat_str(&self, key: &str) -> Option<&str> {
        self.compat.as_ref()?.get(key)?.as_str()
    }

    /// Whether the model offers `xhigh` thinking.
    pub fn supports_xhigh(&self) -> bool {
        if let Some(map) = &self.thinking_level_map
            && let Some(v) = map.get("xhigh")
        {
            return v.is_some();
        }
        [
            "gpt-5.2", "gpt-5.3", "gpt-5.4", "gpt-5.5", "opus-4-6", "opus-4.6", "opus-4-7",
        ]
        .iter()
        .any(|p| self.id.contains(p))
    }

    /// Whether a thinking level is available on this model.
    pub fn supports_level(&self, level: ThinkingLevel) -> bool {
        if !self.reasoning {
            return level == ThinkingLevel::Off;
        }
        if let Some(map) = &self.thinking_level_map
            && let Some(v) = map.get(level.as_str())
        {
            return v.is_some();
        }
        level != ThinkingLevel::Xhigh || self.supports_xhigh()
    }

    /// Clamp a requested level to what the model offers: the nearest higher
    /// available level, else the nearest lower one.
    pub fn clamp_thinking(&self, level: ThinkingLevel) -> ThinkingLevel {
        if !self.reasoning {
            return ThinkingLevel::Off;
        }
        if self.supports_level(level) {
            return level;
        }
        let all = ThinkingLevel::ALL;
        let idx = all.iter().position(|l| *l == level).unwrap_or(0);
        all[idx..]
            .iter()
            .chain(all[..idx].iter().rev())
            .copied()
            .find(|l| self.supports_level(*l))
            .unwrap_or(ThinkingLevel::Off)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(id: &str, reasoning: bool) -> Model {
        serde_json::from_value(serde_json::json!({
            "id": id, "name": id, "api": "anthropic-messages", "provider": "anthropic",
            "baseUrl": "http://x", "reasoning": reasoning
        }))
        .unwrap()
    }

    #[test]
    fn clamps_to_model_capabilities() {
        assert_eq!(
            model("m", false).clamp_thinking(ThinkingLevel::High),
            ThinkingLevel::Off
        );
        assert_eq!(
            model("m", true).clamp_thinking(ThinkingLevel::Xhigh),
            ThinkingLevel::High
        );
        assert_eq!(
            model("claude-opus-4-6", true).clamp_thinking(ThinkingLevel::Xhigh),
            ThinkingLevel::Xhigh
        );
    }

    #[test]
    fn off_can_be_unavailable() {
        let mut m = model("gpt-x", true);
        m.thinking_level_map = Some(BTreeMap::from([("off".to_string(), None)]));
        assert!(!m.supports_level(ThinkingLevel::Off));
        assert_eq!(m.clamp_thinking(ThinkingLevel::Off), ThinkingLevel::Minimal);
        assert!(model("m", false).supports_level(ThinkingLevel::Off));
        assert!(model("m", true).supports_level(ThinkingLevel::Off));
    }

    #[test]
    fn defaults_fill_missing_fields() {
        let m = model("m", false);
        assert_eq!(m.context_window, 128_000);
        assert_eq!(m.max_tokens, 16_384);
        assert_eq!(m.input, vec!["text"]);
    }
}
