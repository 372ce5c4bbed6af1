//! Request bodies and headers for the Anthropic Messages API.

use serde_json::{Map, Value, json};

use crate::ai::model::Model;
use crate::ai::model::ThinkingLevel;
use crate::ai::stream::StreamOptions;
use crate::ai::thinking::{base_max_tokens, budget_for, effective_level, mapped_value};
use crate::ai::transform::transform_borrowed;
use crate::ai::types::{ContentBlock, Context, Message, ThinkingContent, ToolSpec, UserContent};

/// Version sent in `anthropic-version`.
pub const ANTHROPIC_VERSION: &str = "2023-06-01";
const FINE_GRAINED_TOOL_STREAMING_BETA: &str = "fine-grained-tool-streaming-2025-05-14";
const INTERLEAVED_THINKING_BETA: &str = "interleaved-thinking-2025-05-14";
const OAUTH_BETAS: [&str; 2] = ["claude-code-20250219", "oauth-2025-04-20"];
const CLAUDE_CODE_VERSION: &str = "2.1.75";
const CLAUDE_CODE_IDENTITY: &str = "You are Claude Code, Anthropic's official CLI for Claude.";

/// Tool names as Claude Code spells them (used with subscription tokens).
const CLAUDE_CODE_TOOLS: [&str; 17] = [
    "Read",
    "Write",
    "Edit",
    "Bash",
    "Grep",
    "Glob",
    "AskUserQuestion",
    "EnterPlanMode",
    "ExitPlanMode",
    "KillShell",
    "NotebookEdit",
    "Skill",
    "Task",
    "TaskOutput",
    "TodoWrite",
    "WebFetch",
    "WebSearch",
];

/// True for Claude subscription (OAuth) tokens, which authenticate as Claude Code.
pub fn is_oauth_token(api_key: &str) -> bool {
    api_key.contains("sk-ant-oat")
}

/// Models that think adaptively with an effort level instead of a token budget.
pub fn supports_adaptive_thinking(model_id: &str) -> bool {
    [
        "opus-4-6",
        "opus-4.6",
        "opus-4-7",
        "opus-4.7",
        "sonnet-4-6",
        "sonnet-4.6",
    ]
    .iter()
    .any(|p| model_id.contains(p))
}

/// Claude Code's spelling of a tool name, when it is one of its tools.
pub fn to_claude_code_name(name: &str) -> String {
    CLAUDE_CODE_TOOLS
        .iter()
        .find(|t| t.eq_ignore_ascii_case(name))
        .map_or_else(|| name.to_string(), |t| t.to_string())
}

/// Map a tool name from the response back to the caller's tool of that name.
pub fn from_claude_code_name(name: &str, tools: &[ToolSpec]) -> String {
    tools
        .iter()
        .find(|t| t.name.eq_ignore_ascii_case(name))
        .map_or_else(|| name.to_string(), |t| t.name.clone())
}

/// Anthropic tool-call ids allow `[a-zA-Z0-9_-]`, at most 64 characters.
pub fn normalize_tool_call_id(id: &str) -> String {
    id.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect()
}

fn compat_flag(model: &Model, key: &str) -> bool {
    model.compat_bool(key).unwrap_or(true)
}

/// The `cache_control` marker: ephemeral, one hour when `PI_CACHE_RETENTION=long`.
pub(super) fn cache_control(model: &Model) -> Value {
    let long = std::env::var("PI_CACHE_RETENTION").is_ok_and(|v| v == "long");
    if long && compat_flag(model, "supportsLongCacheRetention") {
        json!({"type": "ephemeral", "ttl": "1h"})
    } else {
        json!({"type": "ephemeral"})
    }
}

/// Request headers before `model.headers` and `options.headers` are applied.
pub fn base_headers(
    model: &Model,
    context: &Context,
    api_key: &str,
) -> Vec<(&'static str, String)> {
    let mut betas: Vec<&str> = Vec::new();
    if !context.tools.is_empty() && !compat_flag(model, "supportsEagerToolInputStreaming") {
        betas.push(FINE_GRAINED_TOOL_STREAMING_BETA);
    }
    if !supports_adaptive_thinking(&model.id) {
        betas.push(INTERLEAVED_THINKING_BETA);
    }
    let mut headers = vec![
        ("accept", "application/json".to_string()),
        ("anthropic-version", ANTHROPIC_VERSION.to_string()),
        ("anthropic-dangerous-direct-browser-access", "true".into()),
    ];
    if is_oauth_token(api_key) {
        let all: Vec<&str> = OAUTH_BETAS.iter().copied().chain(betas).collect();
        headers.push(("authorization", format!("Bearer {api_key}")));
        headers.push(("anthropic-beta", all.join(",")));
        headers.push(("user-agent", format!("claude-cli/{CLAUDE_CODE_VERSION}")));
        headers.push(("x-app", "cli".into()));
    } else {
        headers.push(("x-api-key", api_key.to_string()));
        if !betas.is_empty() {
            headers.push(("anthropic-beta", betas.join(",")));
        }
    }
    headers
}

/// The streaming request body for `context`, shaped as pi sends it.
pub fn build_body(model: &Model, context: &Context, options: &StreamOptions, oauth: bool) -> Value {
    let cache = cache_control(model);
    let messages = convert_messages(&context.messages, model, oauth, &cache);
    body_around(model, context, options, oauth, Value::Array(messages))
}

/// The request body with `messages` in its place, the rest built for `context`.
pub(super) fn body_around(
    model: &Model,
    context: &Context,
    options: &StreamOptions,
    oauth: bool,
    messages: Value,
) -> Value {
    let cache = cache_control(model);
    let level = effective_level(model, options);
    let mut max_tokens = base_max_tokens(model, options);
    let mut thinking = None;
    let mut effort = None;
    if model.reasoning {
        thinking = Some(match level {
            None => json!({"type": "disabled"}),
            Some(level) if supports_adaptive_thinking(&model.id) => {
                effort = Some(adaptive_effort(model, level));
                json!({"type": "adaptive", "display": "summarized"})
            }
            Some(level) => {
                let (max, budget) = budget_for(max_tokens, model.max_tokens, level);
                max_tokens = max;
                let budget = if budget == 0 { 1024 } else { budget };
                json!({"type": "enabled", "budget_tokens": budget, "display": "summarized"})
            }
        });
    }

    let mut body = Map::new();
    body.insert("model".into(), json!(model.id));
    body.insert("messages".into(), messages);
    body.insert("max_tokens".into(), json!(max_tokens));
    body.insert("stream".into(), json!(true));
    let mut system = Vec::new();
    if oauth {
        system.push(json!({"type": "text", "text": CLAUDE_CODE_IDENTITY, "cache_control": cache}));
    }
    if let Some(prompt) = context.system_prompt.as_deref().filter(|p| !p.is_empty()) {
        system.push(json!({"type": "text", "text": prompt, "cache_control": cache}));
    }
    if !system.is_empty() {
        body.insert("system".into(), Value::Array(system));
    }
    if let Some(t) = options.temperature
        && level.is_none()
    {
        body.insert("temperature".into(), json!(t));
    }
    if !context.tools.is_empty() {
        body.insert(
            "tools".into(),
            convert_tools(
                &context.tools,
                oauth,
                compat_flag(model, "supportsEagerToolInputStreaming"),
                &cache,
            ),
        );
    }
    if let Some(thinking) = thinking {
        body.insert("thinking".into(), thinking);
    }
    if let Some(effort) = effort {
        body.insert("output_config".into(), json!({ "effort": effort }));
    }
    Value::Object(body)
}

/// Effort for adaptive-thinking models: the model's own mapping, else the level name.
fn adaptive_effort(model: &Model, level: ThinkingLevel) -> String {
    if let Some(v) = mapped_value(model, level) {
        return v;
    }
    match level {
        ThinkingLevel::Minimal | ThinkingLevel::Low => "low",
        ThinkingLevel::Medium => "medium",
        _ => "high",
    }
    .to_string()
}

fn convert_tools(tools: &[ToolSpec], oauth: bool, eager: bool, cache: &Value) -> Value {
    let last = tools.len().saturating_sub(1);
    let converted = tools.iter().enumerate().map(|(i, tool)| {
        let mut t = Map::new();
        let name = if oauth {
            to_claude_code_name(&tool.name)
        } else {
            tool.name.clone()
        };
        t.insert("name".into(), json!(name));
        t.insert("description".into(), json!(tool.description));
        if eager {
            t.insert("eager_input_streaming".into(), json!(true));
        }
        let properties = tool
            .parameters
            .get("properties")
            .cloned()
            .unwrap_or_else(|| json!({}));
        let required = tool
            .parameters
            .get("required")
            .cloned()
            .unwrap_or_else(|| json!([]));
        t.insert(
            "input_schema".into(),
            json!({"type": "object", "properties": properties, "required": required}),
        );
        if i == last {
            t.insert("cache_control".into(), cache.clone());
        }
        Value::Object(t)
    });
    Value::Array(converted.collect())
}

/// Convert the conversation to Anthropic `messages`.
pub fn convert_messages(
    messages: &[Message],
    model: &Model,
    oauth: bool,
    cache: &Value,
) -> Vec<Value> {
    let mut out = message_entries(messages, model, oauth);
    mark_last_user_message(&mut out, cache);
    out
}

/// The `messages` entries of `messages`, without the cache marker (as a whole
/// conversion writes them when the last of them is not the conversation's last).
pub(super) fn message_entries(messages: &[Message], model: &Model, oauth: bool) -> Vec<Value> {
    let transformed = transform_borrowed(messages, model, &normalize_tool_call_id);
    let mut out: Vec<Value> = Vec::new();
    let mut i = 0;
    while i < transformed.len() {
        match &*transformed[i] {
            Message::User(u) => {
                if let Some(content) = user_content(&u.content) {
                    out.push(json!({"role": "user", "content": content}));
                }
            }
            Message::Assistant(a) => {
                let blocks: Vec<Value> = a
                    .content
                    .iter()
                    .filter_map(|b| assistant_block(b, oauth))
                    .collect();
                if !blocks.is_empty() {
                    out.push(json!({"role": "assistant", "content": blocks}));
                }
            }
            Message::ToolResult(_) => {
                let mut results = Vec::new();
                while let Some(Message::ToolResult(r)) = transformed.get(i).map(|m| &**m) {
                    results.push(json!({
                        "type": "tool_result",
                        "tool_use_id": r.tool_call_id,
                        "content": tool_result_content(&r.content),
                        "is_error": r.is_error,
                    }));
                    i += 1;
                }
                out.push(json!({"role": "user", "content": results}));
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

fn user_content(content: &UserContent) -> Option<Value> {
    match content {
        UserContent::Text(s) => (!s.trim().is_empty()).then(|| json!(s)),
        UserContent::Blocks(blocks) => {
            let converted: Vec<Value> = blocks
                .iter()
                .filter_map(|b| match b {
                    ContentBlock::Text(t) if t.text.trim().is_empty() => None,
                    ContentBlock::Text(t) => Some(json!({"type": "text", "text": t.text})),
                    ContentBlock::Image(img) => Some(image_block(&img.mime_type, &img.data)),
                    _ => None,
                })
                .collect();
            (!converted.is_empty()).then_some(Value::Array(converted))
        }
    }
}

fn image_block(mime_type: &str, data: &str) -> Value {
    json!({"type": "image", "source": {"type": "base64", "media_type": mime_type, "data": data}})
}

fn assistant_block(block: &ContentBlock, oauth: bool) -> Option<Value> {
    match block {
        ContentBlock::Text(t) if t.text.trim().is_empty() => None,
        ContentBlock::Text(t) => Some(json!({"type": "text", "text": t.text})),
        ContentBlock::Thinking(ThinkingContent {
            thinking,
            thinking_signature,
            redacted,
        }) => {
            if *redacted == Some(true) {
                return Some(json!({"type": "redacted_thinking", "data": thinking_signature}));
            }
            if thinking.trim().is_empty() {
                return None;
            }
            match thinking_signature
                .as_deref()
                .filter(|s| !s.trim().is_empty())
            {
                Some(sig) => {
                    Some(json!({"type": "thinking", "thinking": thinking, "signature": sig}))
                }
                None => Some(json!({"type": "text", "text": thinking})),
            }
        }
        ContentBlock::ToolCall(c) => {
            let name = if oauth {
                to_claude_code_name(&c.name)
            } else {
                c.name.clone()
            };
            Some(json!({"type": "tool_use", "id": c.id, "name": name, "input": c.arguments}))
        }
        ContentBlock::Image(_) => None,
    }
}

/// Tool output: a string when it is text only, blocks when it has images.
fn tool_result_content(content: &[ContentBlock]) -> Value {
    let has_images = content.iter().any(|c| matches!(c, ContentBlock::Image(_)));
    if !has_images {
        let text: Vec<&str> = content.iter().filter_map(ContentBlock::as_text).collect();
        return json!(text.join("\n"));
    }
    let mut blocks: Vec<Value> = content
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Text(t) => Some(json!({"type": "text", "text": t.text})),
            ContentBlock::Image(img) => Some(image_block(&img.mime_type, &img.data)),
            _ => None,
        })
        .collect();
    if !blocks.iter().any(|b| b["type"] == "text") {
        blocks.insert(0, json!({"type": "text", "text": "(see attached image)"}));
    }
    Value::Array(blocks)
}

/// Put the cache marker on the last block of a trailing user message.
pub(super) fn mark_last_user_message(messages: &mut [Value], cache: &Value) {
    let Some(last) = messages.last_mut() else {
        return;
    };
    if last["role"] != "user" {
        return;
    }
    let content = &mut last["content"];
    if let Some(text) = content.as_str() {
        *content = json!([{"type": "text", "text": text, "cache_control": cache}]);
    } else if let Some(block) = content.as_array_mut().and_then(|a| a.last_mut())
        && matches!(
            block["type"].as_str(),
            Some("text" | "image" | "tool_result")
        )
    {
        block["cache_control"] = cache.clone();
    }
}

#[cfg(test)]
#[path = "request_tests.rs"]
mod tests;
