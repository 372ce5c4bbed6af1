//! Request bodies for the OpenAI Responses API (`api: "openai-responses"`).

use serde_json::{Map, Value, json};

use crate::ai::model::Model;
use crate::ai::stream::StreamOptions;
use crate::ai::thinking::{base_max_tokens, effective_level, mapped_value};
use crate::ai::transform::transform_borrowed;
use crate::ai::types::{ContentBlock, Context, Message, ToolSpec, UserContent};

/// The streaming request body for `context`: system prompt as `instructions`,
/// conversation as `input` items, tools, and reasoning settings.
pub fn build_body(model: &Model, context: &Context, options: &StreamOptions) -> Value {
    let mut body = Map::new();
    body.insert("model".into(), json!(model.id));
    if let Some(prompt) = context.system_prompt.as_deref().filter(|p| !p.is_empty()) {
        body.insert("instructions".into(), json!(prompt));
    }
    body.insert("input".into(), Value::Array(convert_input(model, context)));
    body.insert("stream".into(), json!(true));
    body.insert("store".into(), json!(false));
    let max_tokens = base_max_tokens(model, options);
    if max_tokens > 0 {
        body.insert("max_output_tokens".into(), json!(max_tokens));
    }
    if let Some(t) = options.temperature {
        body.insert("temperature".into(), json!(t));
    }
    if !context.tools.is_empty() {
        body.insert("tools".into(), Value::Array(convert_tools(&context.tools)));
    }
    if model.reasoning
        && let Some(level) = effective_level(model, options)
    {
        let effort = mapped_value(model, level).unwrap_or_else(|| level.as_str().to_string());
        body.insert(
            "reasoning".into(),
            json!({"effort": effort, "summary": "auto"}),
        );
        body.insert("include".into(), json!(["reasoning.encrypted_content"]));
    }
    Value::Object(body)
}

fn convert_tools(tools: &[ToolSpec]) -> Vec<Value> {
    tools
        .iter()
        .map(|tool| {
            json!({
                "type": "function",
                "name": tool.name,
                "description": tool.description,
                "parameters": tool.parameters,
            })
        })
        .collect()
}

fn input_image(mime_type: &str, data: &str) -> Value {
    json!({"type": "input_image", "detail": "auto",
           "image_url": format!("data:{mime_type};base64,{data}")})
}

/// The call id for the API: the call part of a `call_id|item_id` id, limited to
/// letters, digits, `_` and `-`, at most 64 characters.
pub fn call_id(id: &str) -> String {
    let call = id.split_once('|').map_or(id, |(call, _)| call);
    call.chars()
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

/// Convert the conversation to Responses `input` items.
pub fn convert_input(model: &Model, context: &Context) -> Vec<Value> {
    let transformed = transform_borrowed(&context.messages, model, &call_id);
    let mut out = Vec::new();
    for msg in transformed.iter().map(|m| &**m) {
        match msg {
            Message::User(u) => {
                let parts: Vec<Value> = match &u.content {
                    UserContent::Text(s) => vec![json!({"type": "input_text", "text": s})],
                    UserContent::Blocks(blocks) => blocks
                        .iter()
                        .filter_map(|b| match b {
                            ContentBlock::Text(t) => {
                                Some(json!({"type": "input_text", "text": t.text}))
                            }
                            ContentBlock::Image(img) => {
                                Some(input_image(&img.mime_type, &img.data))
                            }
                            _ => None,
                        })
                        .collect(),
                };
                if !parts.is_empty() {
                    out.push(json!({"role": "user", "content": parts}));
                }
            }
            Message::Assistant(a) => {
                for block in &a.content {
                    match block {
                        ContentBlock::Thinking(t) => {
                            // A replayable reasoning item is stored as JSON in the signature.
                            if let Some(item) = t
                                .thinking_signature
                                .as_deref()
                                .and_then(|s| serde_json::from_str::<Value>(s).ok())
                                .filter(|v| v["type"] == "reasoning")
                            {
                                out.push(item);
                            }
                        }
                        ContentBlock::Text(t) if !t.text.is_empty() => {
                            out.push(json!({
                                "type": "message",
                                "role": "assistant",
                                "status": "completed",
                                "content": [{"type": "output_text", "text": t.text, "annotations": []}],
                            }));
                        }
                        ContentBlock::ToolCall(c) => {
                            out.push(json!({
                                "type": "function_call",
                                "call_id": call_id(&c.id),
                                "name": c.name,
                                "arguments": serde_json::to_string(&c.arguments).unwrap_or_default(),
                            }));
                        }
                        _ => {}
                    }
                }
            }
            Message::ToolResult(r) => {
                let text: Vec<&str> = r.content.iter().filter_map(ContentBlock::as_text).collect();
                let text = text.join("\n");
                let output = if text.is_empty() {
                    "(see attached image)".to_string()
                } else {
                    text
                };
                out.push(json!({
                    "type": "function_call_output",
                    "call_id": call_id(&r.tool_call_id),
                    "output": output,
                }));
                let images: Vec<Value> = r
                    .content
                    .iter()
                    .filter_map(|b| match b {
                        ContentBlock::Image(img) if model.supports_images() => {
                            Some(input_image(&img.mime_type, &img.data))
                        }
                        _ => None,
                    })
                    .collect();
                if !images.is_empty() {
                    let mut parts = vec![json!({"type": "input_text",
                        "text": "Attached image(s) from tool result:"})];
                    parts.extend(images);
                    out.push(json!({"role": "user", "content": parts}));
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
#[path = "request_tests.rs"]
mod tests;
