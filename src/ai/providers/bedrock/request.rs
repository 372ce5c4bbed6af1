//! Request bodies for Amazon Bedrock's ConverseStream
//! (`api: "bedrock-converse-stream"`): `system` blocks, `messages` with
//! text/image/reasoning/toolUse/toolResult content, `toolConfig`, prompt-cache
//! points for Claude, and Claude thinking in `additionalModelRequestFields`.

use serde_json::{Map, Value, json};

use crate::ai::model::{Model, ThinkingLevel};
use crate::ai::stream::StreamOptions;
use crate::ai::thinking::{base_max_tokens, budget_for, effective_level, mapped_value};
use crate::ai::transform::transform_borrowed;
use crate::ai::types::{ContentBlock, Context, Message, UserContent};

/// Lower-cased id and name, also with separators turned into `-`.
fn candidates(model: &Model) -> Vec<String> {
    [&model.id, &model.name]
        .iter()
        .flat_map(|v| {
            let lower = v.to_lowercase();
            let dashed: String = lower
                .chars()
                .map(|c| if " _.:".contains(c) { '-' } else { c })
                .collect();
            [lower, dashed]
        })
        .collect()
}

/// Anthropic Claude served by Bedrock.
pub fn is_claude(model: &Model) -> bool {
    let id = model.id.to_lowercase();
    id.contains("anthropic.claude")
        || id.contains("anthropic/claude")
        || model.name.to_lowercase().contains("claude")
}

fn adaptive_thinking(model: &Model) -> bool {
    candidates(model)
        .iter()
        .any(|s| s.contains("opus-4-6") || s.contains("opus-4-7") || s.contains("sonnet-4-6"))
}

/// Claude models that accept explicit cache points.
pub fn supports_cache_points(model: &Model) -> bool {
    let c = candidates(model);
    c.iter().any(|s| s.contains("claude"))
        && c.iter().any(|s| {
            s.contains("-4-") || s.contains("claude-3-7-sonnet") || s.contains("claude-3-5-haiku")
        })
}

fn cache_point() -> Value {
    json!({"cachePoint": {"type": "default"}})
}

/// Bedrock tool ids: letters, digits, `_`, `-`, at most 64 characters.
pub fn normalize_call_id(id: &str) -> String {
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

/// The streaming request body for `context` (the model id goes in the URL).
pub fn build_body(model: &Model, context: &Context, options: &StreamOptions) -> Value {
    let mut body = Map::new();
    let caching = supports_cache_points(model);
    let mut messages = convert_messages(model, context);
    if caching
        && let Some(last) = messages.last_mut()
        && last["role"] == "user"
        && let Some(content) = last["content"].as_array_mut()
    {
        content.push(cache_point());
    }
    body.insert("messages".into(), Value::Array(messages));
    if let Some(prompt) = context.system_prompt.as_deref().filter(|p| !p.is_empty()) {
        let mut system = vec![json!({"text": prompt})];
        if caching {
            system.push(cache_point());
        }
        body.insert("system".into(), Value::Array(system));
    }
    let level = effective_level(model, options).filter(|_| model.reasoning && is_claude(model));
    let mut max_tokens = base_max_tokens(model, options);
    let mut extra = None;
    if let Some(level) = level {
        if adaptive_thinking(model) {
            let effort = match level {
                ThinkingLevel::Xhigh
                    if candidates(model).iter().any(|s| s.contains("opus-4-7")) =>
                {
                    "xhigh".to_string()
                }
                _ => mapped_value(model, level).unwrap_or_else(|| {
                    match level {
                        ThinkingLevel::Minimal | ThinkingLevel::Low => "low",
                        ThinkingLevel::Medium => "medium",
                        _ => "high",
                    }
                    .to_string()
                }),
            };
            extra = Some(
                json!({"thinking": {"type": "adaptive", "display": "summarized"},
                                "output_config": {"effort": effort}}),
            );
        } else {
            let (max, budget) = budget_for(max_tokens, model.max_tokens, level);
            max_tokens = max;
            extra = Some(json!({
                "thinking": {"type": "enabled", "budget_tokens": budget, "display": "summarized"},
                "anthropic_beta": ["interleaved-thinking-2025-05-14"],
            }));
        }
    }
    let mut inference = Map::new();
    if max_tokens > 0 {
        inference.insert("maxTokens".into(), json!(max_tokens));
    }
    if let Some(t) = options.temperature {
        inference.insert("temperature".into(), json!(t));
    }
    body.insert("inferenceConfig".into(), Value::Object(inference));
    if !context.tools.is_empty() {
        let tools: Vec<Value> = context
            .tools
            .iter()
            .map(|t| {
                json!({"toolSpec": {"name": t.name, "description": t.description,
                                    "inputSchema": {"json": t.parameters}}})
            })
            .collect();
        body.insert("toolConfig".into(), json!({"tools": tools}));
    }
    if let Some(extra) = extra {
        body.insert("additionalModelRequestFields".into(), extra);
    }
    Value::Object(body)
}

/// A Bedrock image block; `None` for formats Bedrock does not take.
fn image_block(mime_type: &str, data: &str) -> Option<Value> {
    let format = match mime_type {
        "image/jpeg" | "image/jpg" => "jpeg",
        "image/png" => "png",
        "image/gif" => "gif",
        "image/webp" => "webp",
        _ => return None,
    };
    Some(json!({"image": {"format": format, "source": {"bytes": data}}}))
}

fn blocks_content(blocks: &[ContentBlock]) -> Vec<Value> {
    blocks
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Text(t) => Some(json!({"text": t.text})),
            ContentBlock::Image(i) => image_block(&i.mime_type, &i.data).or_else(|| {
                Some(
                    json!({"text": format!("(image omitted: unsupported format {})", i.mime_type)}),
                )
            }),
            _ => None,
        })
        .collect()
}

/// Convert the conversation to Converse `messages`; consecutive tool results
/// share one user message.
pub fn convert_messages(model: &Model, context: &Context) -> Vec<Value> {
    let messages = transform_borrowed(&context.messages, model, &normalize_call_id);
    let claude = is_claude(model);
    let mut out: Vec<Value> = Vec::new();
    let mut results_open = false;
    for msg in messages.iter().map(|m| &**m) {
        let is_result = matches!(msg, Message::ToolResult(_));
        match msg {
            Message::User(u) => {
                let content = match &u.content {
                    UserContent::Text(s) => vec![json!({"text": s})],
                    UserContent::Blocks(b) => blocks_content(b),
                };
                if !content.is_empty() {
                    out.push(json!({"role": "user", "content": content}));
                }
            }
            Message::Assistant(a) => {
                let mut content = Vec::new();
                for block in &a.content {
                    match block {
                        ContentBlock::Text(t) if !t.text.trim().is_empty() => {
                            content.push(json!({"text": t.text}));
                        }
                        ContentBlock::ToolCall(c) => content.push(json!({"toolUse": {
                            "toolUseId": c.id, "name": c.name, "input": c.arguments}})),
                        ContentBlock::Thinking(t) if !t.thinking.trim().is_empty() => {
                            let signature = t
                                .thinking_signature
                                .as_deref()
                                .filter(|s| !s.trim().is_empty());
                            content.push(match (claude, signature) {
                                (true, Some(sig)) => json!({"reasoningContent": {"reasoningText":
                                    {"text": t.thinking, "signature": sig}}}),
                                (true, None) => json!({"text": t.thinking}),
                                (false, _) => json!({"reasoningContent": {"reasoningText":
                                    {"text": t.thinking}}}),
                            });
                        }
                        _ => {}
                    }
                }
                if !content.is_empty() {
                    out.push(json!({"role": "assistant", "content": content}));
                }
            }
            Message::ToolResult(r) => {
                let status = if r.is_error { "error" } else { "success" };
                let entry = json!({"toolResult": {"toolUseId": r.tool_call_id,
                    "content": blocks_content(&r.content), "status": status}});
                match out.last_mut() {
                    Some(last) if results_open => {
                        if let Some(c) = last["content"].as_array_mut() {
                            c.push(entry);
                        }
                    }
                    _ => out.push(json!({"role": "user", "content": [entry]})),
                }
            }
            _ => {}
        }
        results_open = is_result;
    }
    out
}

#[cfg(test)]
#[path = "request_tests.rs"]
mod tests;
