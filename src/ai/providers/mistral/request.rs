//! Request bodies for Mistral's chat completions (`api: "mistral-conversations"`):
//! system message first, typed content chunks (text, thinking, image_url),
//! tool calls with 9-character ids, reasoning via `prompt_mode` or
//! `reasoning_effort`.

use std::cell::RefCell;
use std::collections::HashMap;

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::ai::model::Model;
use crate::ai::stream::StreamOptions;
use crate::ai::thinking::{base_max_tokens, effective_level, mapped_value};
use crate::ai::transform::transform_borrowed;
use crate::ai::types::{ContentBlock, Context, Message, UserContent};

/// Length of the tool-call ids Mistral accepts (`[a-zA-Z0-9]{9}`).
const CALL_ID_LEN: usize = 9;
const IMAGE_OMITTED: &str = "(image omitted: model does not support images)";

/// Models that take `reasoning_effort` instead of `prompt_mode: "reasoning"`.
fn uses_reasoning_effort(model: &Model) -> bool {
    matches!(
        model.id.as_str(),
        "mistral-small-2603" | "mistral-small-latest" | "mistral-medium-3.5"
    )
}

/// A Mistral-valid id derived from `id` (`attempt` > 0 after a collision).
pub fn derive_call_id(id: &str, attempt: u32) -> String {
    let alnum: String = id.chars().filter(char::is_ascii_alphanumeric).collect();
    if attempt == 0 && alnum.len() == CALL_ID_LEN {
        return alnum;
    }
    let seed = if alnum.is_empty() { id } else { alnum.as_str() };
    let seed = if attempt == 0 {
        seed.to_string()
    } else {
        format!("{seed}:{attempt}")
    };
    let digest = Sha256::digest(seed.as_bytes());
    digest
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<String>()
        .chars()
        .take(CALL_ID_LEN)
        .collect()
}

/// The streaming request body for `context`.
pub fn build_body(model: &Model, context: &Context, options: &StreamOptions) -> Value {
    let mut body = Map::new();
    body.insert("model".into(), json!(model.id));
    body.insert("stream".into(), json!(true));
    let mut messages = Vec::new();
    if let Some(prompt) = context.system_prompt.as_deref().filter(|p| !p.is_empty()) {
        messages.push(json!({"role": "system", "content": prompt}));
    }
    messages.extend(convert_messages(model, context));
    body.insert("messages".into(), Value::Array(messages));
    if !context.tools.is_empty() {
        let tools: Vec<Value> = context
            .tools
            .iter()
            .map(|t| {
                json!({"type": "function", "function": {"name": t.name,
                    "description": t.description, "parameters": t.parameters, "strict": false}})
            })
            .collect();
        body.insert("tools".into(), Value::Array(tools));
    }
    if let Some(t) = options.temperature {
        body.insert("temperature".into(), json!(t));
    }
    let max_tokens = base_max_tokens(model, options);
    if max_tokens > 0 {
        body.insert("max_tokens".into(), json!(max_tokens));
    }
    if model.reasoning
        && let Some(level) = effective_level(model, options)
    {
        if uses_reasoning_effort(model) {
            let effort = mapped_value(model, level).unwrap_or_else(|| "high".to_string());
            body.insert("reasoning_effort".into(), json!(effort));
        } else {
            body.insert("prompt_mode".into(), json!("reasoning"));
        }
    }
    Value::Object(body)
}

fn image_url(mime_type: &str, data: &str) -> Value {
    json!({"type": "image_url", "image_url": format!("data:{mime_type};base64,{data}")})
}

/// Convert the conversation to Mistral chat messages (without the system message).
pub fn convert_messages(model: &Model, context: &Context) -> Vec<Value> {
    let ids: RefCell<(HashMap<String, String>, HashMap<String, String>)> = RefCell::default();
    let normalize = |id: &str| -> String {
        let mut maps = ids.borrow_mut();
        if let Some(known) = maps.0.get(id) {
            return known.clone();
        }
        let mut attempt = 0;
        loop {
            let candidate = derive_call_id(id, attempt);
            match maps.1.get(&candidate) {
                Some(owner) if owner != id => attempt += 1,
                _ => {
                    maps.0.insert(id.to_string(), candidate.clone());
                    maps.1.insert(candidate.clone(), id.to_string());
                    return candidate;
                }
            }
        }
    };
    let images = model.supports_images();
    let messages = transform_borrowed(&context.messages, model, &normalize);
    let mut out = Vec::new();
    for msg in messages.iter().map(|m| &**m) {
        match msg {
            Message::User(u) => match &u.content {
                UserContent::Text(s) => out.push(json!({"role": "user", "content": s})),
                UserContent::Blocks(blocks) => {
                    let parts: Vec<Value> = blocks
                        .iter()
                        .filter_map(|b| match b {
                            ContentBlock::Text(t) => Some(json!({"type": "text", "text": t.text})),
                            ContentBlock::Image(i) if images => {
                                Some(image_url(&i.mime_type, &i.data))
                            }
                            _ => None,
                        })
                        .collect();
                    if !parts.is_empty() {
                        out.push(json!({"role": "user", "content": parts}));
                    } else if blocks.iter().any(|b| matches!(b, ContentBlock::Image(_))) {
                        out.push(json!({"role": "user", "content": IMAGE_OMITTED}));
                    }
                }
            },
            Message::Assistant(a) => {
                let mut content = Vec::new();
                let mut calls = Vec::new();
                for block in &a.content {
                    match block {
                        ContentBlock::Text(t) if !t.text.trim().is_empty() => {
                            content.push(json!({"type": "text", "text": t.text}));
                        }
                        ContentBlock::Thinking(t) if !t.thinking.trim().is_empty() => {
                            content.push(json!({"type": "thinking",
                                "thinking": [{"type": "text", "text": t.thinking}]}));
                        }
                        ContentBlock::ToolCall(c) => calls.push(json!({
                            "id": c.id, "type": "function",
                            "function": {"name": c.name,
                                "arguments": serde_json::to_string(&c.arguments).unwrap_or_default()},
                        })),
                        _ => {}
                    }
                }
                if content.is_empty() && calls.is_empty() {
                    continue;
                }
                let mut m = json!({"role": "assistant"});
                if !content.is_empty() {
                    m["content"] = Value::Array(content);
                }
                if !calls.is_empty() {
                    m["tool_calls"] = Value::Array(calls);
                }
                out.push(m);
            }
            Message::ToolResult(r) => {
                let text: Vec<&str> = r.content.iter().filter_map(ContentBlock::as_text).collect();
                let text = text.join("\n");
                let has_images = r
                    .content
                    .iter()
                    .any(|b| matches!(b, ContentBlock::Image(_)));
                let mut parts = vec![json!({"type": "text",
                    "text": tool_result_text(text.trim(), has_images, images, r.is_error)})];
                if images {
                    parts.extend(r.content.iter().filter_map(|b| match b {
                        ContentBlock::Image(i) => Some(image_url(&i.mime_type, &i.data)),
                        _ => None,
                    }));
                }
                out.push(json!({"role": "tool", "tool_call_id": r.tool_call_id,
                    "name": r.tool_name, "content": parts}));
            }
            _ => {}
        }
    }
    out
}

/// The text part of a tool result: errors are prefixed, empty results say so.
fn tool_result_text(text: &str, has_images: bool, supports_images: bool, is_error: bool) -> String {
    let prefix = if is_error { "[tool error] " } else { "" };
    let body = if !text.is_empty() {
        if has_images && !supports_images {
            format!("{text}\n[tool image omitted: model does not support images]")
        } else {
            text.to_string()
        }
    } else if has_images && supports_images {
        "(see attached image)".to_string()
    } else if has_images {
        IMAGE_OMITTED.to_string()
    } else {
        "(no tool output)".to_string()
    };
    format!("{prefix}{body}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::model::ThinkingLevel;
    use crate::ai::types::{
        AssistantMessage, StopReason, ToolCall, ToolResultMessage, UserMessage,
    };

    fn model(id: &str) -> Model {
        serde_json::from_value(json!({"id": id, "name": id, "api": "mistral-conversations",
            "provider": "mistral", "baseUrl": "http://x", "reasoning": true, "input": ["text"]}))
        .unwrap()
    }

    #[test]
    fn ids_are_nine_alphanumerics_and_stable() {
        assert_eq!(derive_call_id("abcDEF123", 0), "abcDEF123");
        let long = derive_call_id("call_abc|fc_0123456789", 0);
        assert_eq!(long.len(), 9);
        assert!(long.chars().all(|c| c.is_ascii_alphanumeric()));
        assert_eq!(long, derive_call_id("call_abc|fc_0123456789", 0));
        assert_ne!(long, derive_call_id("call_abc|fc_0123456789", 1));
    }

    #[test]
    fn body_shapes_system_tools_reasoning_and_results() {
        let mut a = AssistantMessage::empty("anthropic-messages", "anthropic", "claude");
        a.content = vec![ContentBlock::ToolCall(ToolCall {
            id: "toolu_01ABCDEFGHIJ".into(),
            name: "read".into(),
            arguments: json!({"path": "x"}),
            thought_signature: None,
            raw_arguments: None,
        })];
        a.stop_reason = StopReason::ToolUse;
        let ctx = Context {
            system_prompt: Some("sys".into()),
            messages: vec![
                Message::User(UserMessage::text("hi")),
                Message::Assistant(a),
                Message::ToolResult(ToolResultMessage {
                    tool_call_id: "toolu_01ABCDEFGHIJ".into(),
                    tool_name: "read".into(),
                    content: vec![ContentBlock::image("AAAA", "image/png")],
                    details: None,
                    is_error: true,
                    timestamp: 0,
                }),
            ],
            tools: vec![],
        };
        let opts = StreamOptions {
            reasoning: Some(ThinkingLevel::High),
            ..Default::default()
        };
        let body = build_body(&model("magistral-medium-latest"), &ctx, &opts);
        let msgs = body["messages"].as_array().unwrap();
        assert_eq!(msgs[0], json!({"role": "system", "content": "sys"}));
        let id = msgs[2]["tool_calls"][0]["id"].as_str().unwrap();
        assert_eq!(id.len(), 9);
        assert_eq!(msgs[3]["tool_call_id"], id);
        assert_eq!(
            msgs[3]["content"][0]["text"],
            "[tool error] (tool image omitted: model does not support images)"
        );
        assert_eq!(body["prompt_mode"], "reasoning");
        let effort = build_body(&model("mistral-small-latest"), &ctx, &opts);
        assert_eq!(effort["reasoning_effort"], "high");
        assert!(effort.get("prompt_mode").is_none());
    }
}
