//! Request bodies and headers for OpenAI Chat Completions (and compatible servers).

use serde_json::{Map, Value, json};

use crate::ai::model::{Model, ThinkingLevel};
use crate::ai::providers::openai_completions::compat::{OpenAiCompat, ThinkingFormat};
use crate::ai::stream::StreamOptions;
use crate::ai::thinking::{base_max_tokens, effective_level, mapped_value};
use crate::ai::transform::transform_messages;
use crate::ai::types::{ContentBlock, Context, Message, ToolSpec, UserContent};

const ASSISTANT_BRIDGE: &str = "I have processed the tool results.";

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
    let mut messages = convert_messages(model, context, compat);
    let long = long_retention();
    let mut body = Map::new();
    body.insert("model".into(), json!(model.id));
    // Filled in once tools and cache markers are known; the key keeps its place.
    body.insert("messages".into(), Value::Null);
    body.insert("stream".into(), json!(true));
    let wants_cache_key =
        model.base_url.contains("api.openai.com") || (long && compat.supports_long_cache_retention);
    if let Some(session) = options.session_id.as_ref().filter(|_| wants_cache_key) {
        body.insert("prompt_cache_key".into(), json!(session));
    }
    if long && compat.supports_long_cache_retention {
        body.insert("prompt_cache_retention".into(), json!("24h"));
    }
    if compat.supports_usage_in_streaming {
        body.insert("stream_options".into(), json!({"include_usage": true}));
    }
    if compat.supports_store {
        body.insert("store".into(), json!(false));
    }
    let max_tokens = base_max_tokens(model, options);
    if max_tokens > 0 {
        body.insert(compat.max_tokens_field.clone(), json!(max_tokens));
    }
    if let Some(t) = options.temperature {
        body.insert("temperature".into(), json!(t));
    }
    let mut tools = None;
    if !context.tools.is_empty() {
        tools = Some(convert_tools(&context.tools, compat));
        if compat.zai_tool_stream {
            body.insert("tool_stream".into(), json!(true));
        }
    } else if has_tool_history(&context.messages) {
        tools = Some(Vec::new());
    }
    if compat.cache_control_format.as_deref() == Some("anthropic") {
        let marker = if long && compat.supports_long_cache_retention {
            json!({"type": "ephemeral", "ttl": "1h"})
        } else {
            json!({"type": "ephemeral"})
        };
        apply_cache_control(&mut messages, tools.as_mut(), &marker);
    }
    body.insert("messages".into(), Value::Array(messages));
    if let Some(tools) = tools {
        body.insert("tools".into(), Value::Array(tools));
    }
    add_reasoning(&mut body, model, compat, effective_level(model, options));
    if model.base_url.contains("openrouter.ai")
        && let Some(routing) = model
            .compat
            .as_ref()
            .and_then(|c| c.get("openRouterRouting"))
    {
        body.insert("provider".into(), routing.clone());
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
            body.insert("providerOptions".into(), json!({ "gateway": gateway }));
        }
    }
    Value::Object(body)
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
    body: &mut Map<String, Value>,
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
            body.insert("enable_thinking".into(), json!(effort.is_some()));
        }
        ThinkingFormat::QwenChatTemplate => {
            body.insert(
                "chat_template_kwargs".into(),
                json!({"enable_thinking": effort.is_some(), "preserve_thinking": true}),
            );
        }
        ThinkingFormat::DeepSeek => {
            let kind = if effort.is_some() {
                "enabled"
            } else {
                "disabled"
            };
            body.insert("thinking".into(), json!({ "type": kind }));
            if let Some(effort) = effort {
                body.insert("reasoning_effort".into(), json!(effort));
            }
        }
        ThinkingFormat::OpenRouter => {
            let off = model.thinking_level_map.as_ref().and_then(|m| m.get("off"));
            match (effort, off) {
                (Some(effort), _) => {
                    body.insert("reasoning".into(), json!({ "effort": effort }));
                }
                (None, Some(None)) => {}
                (None, Some(Some(value))) => {
                    body.insert("reasoning".into(), json!({ "effort": value }));
                }
                (None, None) => {
                    body.insert("reasoning".into(), json!({"effort": "none"}));
                }
            }
        }
        ThinkingFormat::OpenAi if compat.supports_reasoning_effort => match effort {
            Some(effort) => {
                body.insert("reasoning_effort".into(), json!(effort));
            }
            None => {
                if let Some(off) = mapped_value(model, ThinkingLevel::Off) {
                    body.insert("reasoning_effort".into(), json!(off));
                }
            }
        },
        ThinkingFormat::OpenAi => {}
    }
}

fn has_tool_history(messages: &[Message]) -> bool {
    messages.iter().any(|m| match m {
        Message::ToolResult(_) => true,
        Message::Assistant(a) => !a.tool_calls().is_empty(),
        _ => false,
    })
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

fn image_url(mime_type: &str, data: &str) -> Value {
    json!({"type": "image_url", "image_url": {"url": format!("data:{mime_type};base64,{data}")}})
}

/// Convert the system prompt and conversation to Chat Completions `messages`.
pub fn convert_messages(model: &Model, context: &Context, compat: &OpenAiCompat) -> Vec<Value> {
    let transformed = transform_messages(&context.messages, model, &|id| {
        normalize_tool_call_id(model, id)
    });
    let mut out = Vec::new();
    if let Some(prompt) = context.system_prompt.as_deref().filter(|p| !p.is_empty()) {
        let role = if model.reasoning && compat.supports_developer_role {
            "developer"
        } else {
            "system"
        };
        out.push(json!({"role": role, "content": prompt}));
    }
    let mut last_was_tool_result = false;
    let mut i = 0;
    while i < transformed.len() {
        let msg = &transformed[i];
        if compat.requires_assistant_after_tool_result
            && last_was_tool_result
            && matches!(msg, Message::User(_))
        {
            out.push(json!({"role": "assistant", "content": ASSISTANT_BRIDGE}));
        }
        match msg {
            Message::User(u) => {
                match &u.content {
                    UserContent::Text(s) => out.push(json!({"role": "user", "content": s})),
                    UserContent::Blocks(blocks) => {
                        let parts: Vec<Value> = blocks
                            .iter()
                            .filter_map(|b| match b {
                                ContentBlock::Text(t) => {
                                    Some(json!({"type": "text", "text": t.text}))
                                }
                                ContentBlock::Image(img) => {
                                    Some(image_url(&img.mime_type, &img.data))
                                }
                                _ => None,
                            })
                            .collect();
                        if !parts.is_empty() {
                            out.push(json!({"role": "user", "content": parts}));
                        }
                    }
                }
                last_was_tool_result = false;
            }
            Message::Assistant(a) => {
                if let Some(converted) = convert_assistant(model, compat, &a.content) {
                    out.push(converted);
                }
                last_was_tool_result = false;
            }
            Message::ToolResult(_) => {
                let mut images = Vec::new();
                while let Some(Message::ToolResult(r)) = transformed.get(i) {
                    let text: Vec<&str> =
                        r.content.iter().filter_map(ContentBlock::as_text).collect();
                    let text = text.join("\n");
                    let content = if text.is_empty() {
                        "(see attached image)".to_string()
                    } else {
                        text
                    };
                    let mut result = Map::new();
                    result.insert("role".into(), json!("tool"));
                    result.insert("content".into(), json!(content));
                    result.insert("tool_call_id".into(), json!(r.tool_call_id));
                    if compat.requires_tool_result_name && !r.tool_name.is_empty() {
                        result.insert("name".into(), json!(r.tool_name));
                    }
                    out.push(Value::Object(result));
                    if model.supports_images() {
                        images.extend(r.content.iter().filter_map(|b| match b {
                            ContentBlock::Image(img) => Some(image_url(&img.mime_type, &img.data)),
                            _ => None,
                        }));
                    }
                    i += 1;
                }
                last_was_tool_result = images.is_empty();
                if !images.is_empty() {
                    if compat.requires_assistant_after_tool_result {
                        out.push(json!({"role": "assistant", "content": ASSISTANT_BRIDGE}));
                    }
                    let mut parts = vec![
                        json!({"type": "text", "text": "Attached image(s) from tool result:"}),
                    ];
                    parts.extend(images);
                    out.push(json!({"role": "user", "content": parts}));
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

fn convert_assistant(
    model: &Model,
    compat: &OpenAiCompat,
    content: &[ContentBlock],
) -> Option<Value> {
    let mut msg = Map::new();
    msg.insert("role".into(), json!("assistant"));
    let empty = if compat.requires_assistant_after_tool_result {
        json!("")
    } else {
        Value::Null
    };
    msg.insert("content".into(), empty);
    let texts: Vec<&str> = content
        .iter()
        .filter_map(ContentBlock::as_text)
        .filter(|t| !t.trim().is_empty())
        .collect();
    let joined = texts.concat();
    let thinking: Vec<(&str, Option<&str>)> = content
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Thinking(t) if !t.thinking.trim().is_empty() => {
                Some((t.thinking.as_str(), t.thinking_signature.as_deref()))
            }
            _ => None,
        })
        .collect();
    if !thinking.is_empty() && compat.requires_thinking_as_text {
        let text: Vec<&str> = thinking.iter().map(|(t, _)| *t).collect();
        let mut parts = vec![json!({"type": "text", "text": text.join("\n\n")})];
        parts.extend(texts.iter().map(|t| json!({"type": "text", "text": t})));
        msg.insert("content".into(), Value::Array(parts));
    } else {
        if !joined.is_empty() {
            msg.insert("content".into(), json!(joined));
        }
        if let Some((_, Some(field))) = thinking
            .first()
            .filter(|(_, s)| s.is_some_and(|s| !s.is_empty()))
        {
            let all: Vec<&str> = thinking.iter().map(|(t, _)| *t).collect();
            msg.insert(field.to_string(), json!(all.join("\n")));
        }
    }
    let calls: Vec<_> = content
        .iter()
        .filter_map(|b| match b {
            ContentBlock::ToolCall(c) => Some(c),
            _ => None,
        })
        .collect();
    if !calls.is_empty() {
        let converted: Vec<Value> = calls
            .iter()
            .map(|c| {
                json!({"id": c.id, "type": "function", "function": {
                    "name": c.name,
                    "arguments": serde_json::to_string(&c.arguments).unwrap_or_default(),
                }})
            })
            .collect();
        msg.insert("tool_calls".into(), Value::Array(converted));
        let details: Vec<Value> = calls
            .iter()
            .filter_map(|c| serde_json::from_str(c.thought_signature.as_deref()?).ok())
            .collect();
        if !details.is_empty() {
            msg.insert("reasoning_details".into(), Value::Array(details));
        }
    }
    if compat.requires_reasoning_content_on_assistant_messages
        && model.reasoning
        && !msg.contains_key("reasoning_content")
    {
        msg.insert("reasoning_content".into(), json!(""));
    }
    let has_content = match &msg["content"] {
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        _ => false,
    };
    (has_content || msg.contains_key("tool_calls")).then_some(Value::Object(msg))
}

/// Anthropic-style cache markers: system prompt, last tool, last user/assistant text.
fn apply_cache_control(messages: &mut [Value], tools: Option<&mut Vec<Value>>, marker: &Value) {
    if let Some(system) = messages
        .iter_mut()
        .find(|m| matches!(m["role"].as_str(), Some("system" | "developer")))
    {
        mark_text(system, marker);
    }
    if let Some(last) = tools.and_then(|t| t.last_mut()) {
        last["cache_control"] = marker.clone();
    }
    for msg in messages.iter_mut().rev() {
        if matches!(msg["role"].as_str(), Some("user" | "assistant")) && mark_text(msg, marker) {
            return;
        }
    }
}

fn mark_text(message: &mut Value, marker: &Value) -> bool {
    let content = &mut message["content"];
    if let Some(text) = content.as_str() {
        if text.is_empty() {
            return false;
        }
        *content = json!([{"type": "text", "text": text, "cache_control": marker}]);
        return true;
    }
    let Some(parts) = content.as_array_mut() else {
        return false;
    };
    match parts.iter_mut().rev().find(|p| p["type"] == "text") {
        Some(part) => {
            part["cache_control"] = marker.clone();
            true
        }
        None => false,
    }
}

#[cfg(test)]
#[path = "request_tests.rs"]
mod tests;
