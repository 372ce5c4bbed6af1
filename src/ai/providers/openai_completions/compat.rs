//! Compatibility settings for OpenAI-compatible Chat Completions servers:
//! detected from the provider name and base URL, overridable by `model.compat`.

use serde_json::Value;

use crate::ai::model::Model;

/// How reasoning is requested from the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThinkingFormat {
    /// `reasoning_effort` (OpenAI).
    OpenAi,
    /// `thinking: {type}` plus `reasoning_effort` (DeepSeek).
    DeepSeek,
    /// Top-level `enable_thinking` (z.ai).
    Zai,
    /// Top-level `enable_thinking` (Qwen).
    Qwen,
    /// `chat_template_kwargs.enable_thinking` (local Qwen servers).
    QwenChatTemplate,
    /// Nested `reasoning: {effort}` (OpenRouter).
    OpenRouter,
}

impl ThinkingFormat {
    fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "openai" => Self::OpenAi,
            "deepseek" => Self::DeepSeek,
            "zai" => Self::Zai,
            "qwen" => Self::Qwen,
            "qwen-chat-template" => Self::QwenChatTemplate,
            "openrouter" => Self::OpenRouter,
            _ => return None,
        })
    }
}

/// Fully resolved compatibility flags (see `compat` in models.json).
#[derive(Debug, Clone, PartialEq)]
pub struct OpenAiCompat {
    /// Send `store: false`.
    pub supports_store: bool,
    /// Send the system prompt as `developer` for reasoning models.
    pub supports_developer_role: bool,
    /// Send `reasoning_effort`.
    pub supports_reasoning_effort: bool,
    /// Send `stream_options.include_usage`.
    pub supports_usage_in_streaming: bool,
    /// `max_completion_tokens` or `max_tokens`.
    pub max_tokens_field: String,
    /// Add `name` to tool results.
    pub requires_tool_result_name: bool,
    /// Insert an assistant message between tool results and a user message.
    pub requires_assistant_after_tool_result: bool,
    /// Replay thinking as plain text.
    pub requires_thinking_as_text: bool,
    /// Add empty `reasoning_content` to replayed assistant messages.
    pub requires_reasoning_content_on_assistant_messages: bool,
    /// How to request reasoning.
    pub thinking_format: ThinkingFormat,
    /// Send `tool_stream: true` (z.ai).
    pub zai_tool_stream: bool,
    /// Send `strict: false` in tool definitions.
    pub supports_strict_mode: bool,
    /// `Some("anthropic")` to add Anthropic-style `cache_control` markers.
    pub cache_control_format: Option<String>,
    /// Send session-affinity headers.
    pub send_session_affinity_headers: bool,
    /// Accept long prompt-cache retention.
    pub supports_long_cache_retention: bool,
    /// Legacy per-level effort mapping (`reasoningEffortMap`).
    pub reasoning_effort_map: Option<Value>,
}

impl OpenAiCompat {
    /// Detect settings for `model`, then apply its explicit `compat` overrides.
    pub fn for_model(model: &Model) -> Self {
        let mut c = Self::detect(model);
        let flag = |key: &str, default: bool| model.compat_bool(key).unwrap_or(default);
        c.supports_store = flag("supportsStore", c.supports_store);
        c.supports_developer_role = flag("supportsDeveloperRole", c.supports_developer_role);
        c.supports_reasoning_effort = flag("supportsReasoningEffort", c.supports_reasoning_effort);
        c.supports_usage_in_streaming =
            flag("supportsUsageInStreaming", c.supports_usage_in_streaming);
        c.requires_tool_result_name = flag("requiresToolResultName", c.requires_tool_result_name);
        c.requires_assistant_after_tool_result = flag(
            "requiresAssistantAfterToolResult",
            c.requires_assistant_after_tool_result,
        );
        c.requires_thinking_as_text = flag("requiresThinkingAsText", c.requires_thinking_as_text);
        c.requires_reasoning_content_on_assistant_messages = flag(
            "requiresReasoningContentOnAssistantMessages",
            c.requires_reasoning_content_on_assistant_messages,
        );
        c.zai_tool_stream = flag("zaiToolStream", c.zai_tool_stream);
        c.supports_strict_mode = flag("supportsStrictMode", c.supports_strict_mode);
        c.send_session_affinity_headers = flag(
            "sendSessionAffinityHeaders",
            c.send_session_affinity_headers,
        );
        c.supports_long_cache_retention = flag(
            "supportsLongCacheRetention",
            c.supports_long_cache_retention,
        );
        if let Some(field) = model.compat_str("maxTokensField") {
            c.max_tokens_field = field.to_string();
        }
        if let Some(format) = model
            .compat_str("thinkingFormat")
            .and_then(ThinkingFormat::parse)
        {
            c.thinking_format = format;
        }
        if let Some(format) = model.compat_str("cacheControlFormat") {
            c.cache_control_format = Some(format.to_string());
        }
        c.reasoning_effort_map = model
            .compat
            .as_ref()
            .and_then(|v| v.get("reasoningEffortMap"))
            .filter(|v| v.is_object())
            .cloned();
        c
    }

    /// Settings known for the provider or endpoint, without overrides.
    pub fn detect(model: &Model) -> Self {
        let provider = model.provider.as_str();
        let url = model.base_url.as_str();
        let is_zai = provider == "zai" || url.contains("api.z.ai");
        let is_moonshot =
            matches!(provider, "moonshotai" | "moonshotai-cn") || url.contains("api.moonshot.");
        let is_cf_workers =
            provider == "cloudflare-workers-ai" || url.contains("api.cloudflare.com");
        let is_cf_gateway =
            provider == "cloudflare-ai-gateway" || url.contains("gateway.ai.cloudflare.com");
        let is_grok = provider == "xai" || url.contains("api.x.ai");
        let is_deepseek = provider == "deepseek" || url.contains("deepseek.com");
        // Ollama and LM Studio, by provider or by their default ports.
        let is_local_server = matches!(provider, "ollama" | "lm-studio")
            || url.contains(":11434/")
            || url.contains(":1234/");
        let non_standard = provider == "cerebras"
            || url.contains("cerebras.ai")
            || is_grok
            || url.contains("chutes.ai")
            || url.contains("deepseek.com")
            || is_zai
            || is_moonshot
            || provider == "opencode"
            || url.contains("opencode.ai")
            || is_cf_workers
            || is_cf_gateway
            || is_local_server;
        let use_max_tokens =
            url.contains("chutes.ai") || is_moonshot || is_cf_gateway || is_local_server;
        let thinking_format = if is_deepseek {
            ThinkingFormat::DeepSeek
        } else if is_zai {
            ThinkingFormat::Zai
        } else if provider == "openrouter" || url.contains("openrouter.ai") {
            ThinkingFormat::OpenRouter
        } else {
            ThinkingFormat::OpenAi
        };
        OpenAiCompat {
            supports_store: !non_standard,
            supports_developer_role: !non_standard,
            supports_reasoning_effort: !is_grok && !is_zai && !is_moonshot && !is_cf_gateway,
            supports_usage_in_streaming: true,
            max_tokens_field: if use_max_tokens {
                "max_tokens"
            } else {
                "max_completion_tokens"
            }
            .to_string(),
            requires_tool_result_name: false,
            requires_assistant_after_tool_result: false,
            requires_thinking_as_text: false,
            requires_reasoning_content_on_assistant_messages: is_deepseek,
            thinking_format,
            zai_tool_stream: false,
            supports_strict_mode: !is_moonshot && !is_cf_gateway,
            cache_control_format: (provider == "openrouter" && model.id.starts_with("anthropic/"))
                .then(|| "anthropic".to_string()),
            send_session_affinity_headers: false,
            supports_long_cache_retention: !(is_cf_workers || is_cf_gateway),
            reasoning_effort_map: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn model(provider: &str, url: &str, compat: Option<Value>) -> Model {
        let mut v = json!({
            "id": "m", "name": "m", "api": "openai-completions", "provider": provider,
            "baseUrl": url,
        });
        if let Some(c) = compat {
            v["compat"] = c;
        }
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn detects_known_endpoints() {
        let openai = OpenAiCompat::for_model(&model("openai", "https://api.openai.com/v1", None));
        assert!(openai.supports_developer_role && openai.supports_store);
        assert_eq!(openai.max_tokens_field, "max_completion_tokens");
        assert_eq!(openai.thinking_format, ThinkingFormat::OpenAi);

        let grok = OpenAiCompat::for_model(&model("xai", "https://api.x.ai/v1", None));
        assert!(!grok.supports_reasoning_effort && !grok.supports_developer_role);

        let ds = OpenAiCompat::for_model(&model("x", "https://api.deepseek.com", None));
        assert_eq!(ds.thinking_format, ThinkingFormat::DeepSeek);
        assert!(ds.requires_reasoning_content_on_assistant_messages);

        for (provider, url) in [
            ("ollama", "http://10.0.0.2:8000/v1"),
            ("custom", "http://localhost:11434/v1"),
            ("custom", "http://127.0.0.1:1234/v1"),
        ] {
            let local = OpenAiCompat::for_model(&model(provider, url, None));
            assert!(
                !local.supports_developer_role && !local.supports_store,
                "{url}"
            );
            assert_eq!(local.max_tokens_field, "max_tokens", "{url}");
        }

        let moon =
            OpenAiCompat::for_model(&model("moonshotai", "https://api.moonshot.ai/v1", None));
        assert_eq!(moon.max_tokens_field, "max_tokens");
        assert!(!moon.supports_strict_mode);
    }

    #[test]
    fn explicit_compat_overrides_detection() {
        let c = OpenAiCompat::for_model(&model(
            "local",
            "http://localhost:8080/v1",
            Some(json!({
                "supportsDeveloperRole": false, "maxTokensField": "max_tokens",
                "supportsUsageInStreaming": false, "thinkingFormat": "qwen",
                "requiresToolResultName": true, "reasoningEffortMap": {"high": "max"}
            })),
        ));
        assert!(!c.supports_developer_role && !c.supports_usage_in_streaming);
        assert!(c.requires_tool_result_name);
        assert_eq!(c.max_tokens_field, "max_tokens");
        assert_eq!(c.thinking_format, ThinkingFormat::Qwen);
        assert_eq!(c.reasoning_effort_map, Some(json!({"high": "max"})));
    }
}
