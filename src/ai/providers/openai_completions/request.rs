//! Request bodies and headers for OpenAI Chat Completions (and compatible servers).

use std::borrow::Cow;

use serde_json::{Map, Value, json};

use crate::ai::model::{Model, ThinkingLevel};
use crate::ai::providers::openai_completions::compat::{OpenAiCompat, ThinkingFormat};
use crate::ai::providers::openai_completions::messages::{self, replayed};
use crate::ai::providers::settled_slot::has_tool_history;
use crate::ai::stream::StreamOptions;
use crate::ai::thinking::{base_max_tokens, effective_level, mapped_value};
use crate::ai::types::{Context, Message, ToolSpec};
use crate::ai::wire_json::{WireJson, WireObject};

/// Request headers before `model.headers` and `options.headers` are applied.
pub fn base_headers(api_key: &str) -> Vec<(&'static str, String)> {
    vec![
        ("accept", "application/json".to_string()),
        ("authorization", format!("Bearer {api_key}")),
    ]
}

/// Session-affinity headers some gateways use to keep a conversation on one backend.
pub fn session_headers(
    compat: &OpenAiCompat,
    options: &StreamOptions,
) -> Vec<(&'static str, String)> {
    match &options.session_id {
        Some(id) if compat.send_session_affinity_headers => vec![
            ("session_id", id.clone()),
            ("x-client-request-id", id.clone()),
            ("x-session-affinity", id.clone()),
        ],
        _ => Vec::new(),
    }
}

/// Prompt-cache retention requested through `PI_CACHE_RETENTION`.
fn long_retention() -> bool {
    std::env::var("PI_CACHE_RETENTION").is_ok_and(|v| v == "long")
}

/// Tool-call ids: keep the call part of `call|item` ids (OpenAI Responses) and
/// respect OpenAI's 40-character limit.
pub fn normalize_tool_call_id(model: &Model, id: &str) -> String {
    if let Some((call_id, _)) = id.split_once('|') {
        return call_id
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .take(40)
            .collect();
    }
    if model.provider == "openai" && id.chars().count() > 40 {
        return id.chars().take(40).collect();
    }
    id.to_string()
}

/// The streaming request body for `context`, shaped as pi sends it.
pub fn build_body(
    model: &Model,
    context: &Context,
    options: &StreamOptions,
    compat: &OpenAiCompat,
) -> Value {
    let transformed = replayed(model, context);
    let messages = all_messages(model, context, &transformed, compat);
    wire_body(model, context, messages, options, compat, false).to_value()
}

/// [`build_body`] serialised, written straight from the conversation (no `Value` copy).
pub fn body_bytes(
    model: &Model,
    context: &Context,
    options: &StreamOptions,
    compat: &OpenAiCompat,
) -> Vec<u8> {
    let transformed = replayed(model, context);
    let messages = all_messages(model, context, &transformed, compat);
    let mut out = Vec::new();
    wire_body(model, context, messages, options, compat, false).write_to(&mut out);
    out
}

/// The Chat Completions `messages` for `context` (system prompt first).
pub fn convert_messages(model: &Model, context: &Context, compat: &OpenAiCompat) -> Vec<Value> {
    let transformed = replayed(model, context);
    all_messages(model, context, &transformed, compat)
        .iter()
        .map(WireJson::to_value)
        .collect()
}

fn all_messages<'a>(
    model: &Model,
    context: &'a Context,
    transformed: &'a [Cow<'_, Message>],
    compat: &OpenAiCompat,
) -> Vec<WireJson<'a>> {
    let system = context.system_prompt.as_deref();
    messages::convert_messages(model, system, transformed, compat, false).entries
}

fn owned(value: Value) -> WireJson<'static> {
    WireJson::OwnedJson(value)
}

/// The body around `messages` (the converted conversation); `earlier_tool_history`:
/// messages before the context's (a settled part sent as is) hold tool calls or results.
pub(super) fn wire_body<'a>(
    model: &'a Model,
    context: &'a Context,
    mut messages: Vec<WireJson<'a>>,
    options: &StreamOptions,
    compat: &OpenAiCompat,
    earlier_tool_history: bool,
) -> WireJson<'a> {
    let long = long_retention();
    let mut body = WireObject::new();
    body.insert("model", WireJson::str(&model.id));
    // Filled in once tools and cache markers are known; the key keeps its place.
    body.insert("messages", WireJson::Null);
    body.insert("stream", owned(json!(true)));
    let wants_cache_key =
        model.base_url.contains("api.openai.com") || (long && compat.supports_long_cache_retention);
    if let Some(session) = options.session_id.as_ref().filter(|_| wants_cache_key) {
        body.insert("prompt_cache_key", owned(json!(session)));
    }
    if long && compat.supports_long_cache_retention {
        body.insert("prompt_cache_retention", owned(json!("24h")));
    }
    if compat.supports_usage_in_streaming {
        body.insert("stream_options", owned(json!({"include_usage": true})));
    }
    if compat.supports_store {
        body.insert("store", owned(json!(false)));
    }
    let max_tokens = base_max_tokens(model, options);
    if max_tokens > 0 {
        body.insert(compat.max_tokens_field.clone(), owned(json!(max_tokens)));
    }
    if let Some(t) = options.temperature {
        body.insert("temperature", owned(json!(t)));
    }
    let mut tools = None;
    if !context.tools.is_empty() {
        tools = Some(convert_tools(&context.tools, compat));
        if compat.zai_tool_stream {
            body.insert("tool_stream", owned(json!(true)));
        }
    } else if earlier_tool_history || has_tool_history(&context.messages) {
        tools = Some(Vec::new());
    }
    if compat.cache_control_format.as_deref() == Some("anthropic") {
        let marker = if long && compat.supports_long_cache_retention {
            json!({"type": "ephemeral", "ttl": "1h"})
        } else {
            json!({"type": "ephemeral"})
        };
        messages::apply_cache_control(&mut messages, tools.as_mut(), &marker);
    }
    body.insert("messages", WireJson::Array(messages));
    if let Some(tools) = tools {
        body.insert("tools", owned(Value::Array(tools)));
    }
    add_reasoning(&mut body, model, compat, effective_level(model, options));
    if model.base_url.contains("openrouter.ai")
        && let Some(routing) = model
            .compat
            .as_ref()
            .and_then(|c| c.get("openRouterRouting"))
    {
        body.insert("provider", WireJson::Json(routing));
    }
    if model.base_url.contains("ai-gateway.vercel.sh")
        && let Some(routing) = model
            .compat
            .as_ref()
            .and_then(|c| c.get("vercelGatewayRouting"))
    {
        let mut gateway = Map::new();
        for key in ["only", "order"] {
            if let Some(v) = routing.get(key).filter(|v| !v.is_null()) {
                gateway.insert(key.into(), v.clone());
            }
        }
        if !gateway.is_empty() {
            body.insert("providerOptions", owned(json!({ "gateway": gateway })));
        }
    }
    WireJson::Object(body)
}

/// The provider's value for a level: `thinkingLevelMap`, the legacy
/// `reasoningEffortMap`, else the level name.
fn effort_value(model: &Model, compat: &OpenAiCompat, level: ThinkingLevel) -> String {
    mapped_value(model, level)
        .or_else(|| {
            compat.reasoning_effort_map.as_ref()?[level.as_str()]
                .as_str()
                .map(str::to_string)
        })
        .unwrap_or_else(|| level.as_str().to_string())
}

fn add_reasoning(
    body: &mut WireObject<'_>,
    model: &Model,
    compat: &OpenAiCompat,
    level: Option<ThinkingLevel>,
) {
    if !model.reasoning {
        return;
    }
    let effort = level.map(|l| effort_value(model, compat, l));
    match compat.thinking_format {
        ThinkingFormat::Zai | ThinkingFormat::Qwen => {
            body.insert("enable_thinking", owned(json!(effort.is_some())));
        }
        ThinkingFormat::QwenChatTemplate => {
            body.insert(
                "chat_template_kwargs",
                owned(json!({"enable_thinking": effort.is_some(), "preserve_thinking": true})),
            );
        }
        ThinkingFormat::DeepSeek => {
            let kind = if effort.is_some() {
                "enabled"
            } else {
                "disabled"
            };
            body.insert("thinking", owned(json!({ "type": kind })));
            if let Some(effort) = effort {
                body.insert("reasoning_effort", owned(json!(effort)));
            }
        }
        ThinkingFormat::OpenRouter => {
            let off = model.thinking_level_map.as_ref().and_then(|m| m.get("off"));
            match (effort, off) {
                (Some(effort), _) => {
                    body.insert("reasoning", owned(json!({ "effort": effort })));
                }
                (None, Some(None)) => {}
                (None, Some(Some(value))) => {
                    body.insert("reasoning", owned(json!({ "effort": value })));
                }
                (None, None) => {
                    body.insert("reasoning", owned(json!({"effort": "none"})));
                }
            }
        }
        ThinkingFormat::OpenAi if compat.supports_reasoning_effort => match effort {
            Some(effort) => {
                body.insert("reasoning_effort", owned(json!(effort)));
            }
            None => {
                if let Some(off) = mapped_value(model, ThinkingLevel::Off) {
                    body.insert("reasoning_effort", owned(json!(off)));
                }
            }
        },
        ThinkingFormat::OpenAi => {}
    }
}

fn convert_tools(tools: &[ToolSpec], compat: &OpenAiCompat) -> Vec<Value> {
    tools
        .iter()
        .map(|tool| {
            let mut function = Map::new();
            function.insert("name".into(), json!(tool.name));
            function.insert("description".into(), json!(tool.description));
            function.insert("parameters".into(), tool.parameters.clone());
            if compat.supports_strict_mode {
                function.insert("strict".into(), json!(false));
            }
            json!({"type": "function", "function": function})
        })
        .collect()
}

#[cfg(test)]
#[path = "request_tests.rs"]
mod tests;
