//! Request bodies for the Gemini `generateContent` family
//! (`google-generative-ai` and `google-vertex`): contents, system
//! instruction, function declarations and thinking configuration.

use serde_json::{Map, Value, json};

use crate::ai::model::{Model, ThinkingLevel};
use crate::ai::stream::StreamOptions;
use crate::ai::thinking::{base_max_tokens, effective_level};
use crate::ai::transform::transform_borrowed;
use crate::ai::types::{ContentBlock, Context, Message, UserContent};

/// The streaming request body for `context`.
pub fn build_body(model: &Model, context: &Context, options: &StreamOptions) -> Value {
    let mut body = Map::new();
    body.insert(
        "contents".into(),
        Value::Array(convert_contents(model, context)),
    );
    if let Some(prompt) = context.system_prompt.as_deref().filter(|p| !p.is_empty()) {
        body.insert(
            "systemInstruction".into(),
            json!({"parts": [{"text": prompt}]}),
        );
    }
    if !context.tools.is_empty() {
        let declarations: Vec<Value> = context
            .tools
            .iter()
            .map(|t| {
                json!({"name": t.name, "description": t.description,
                       "parametersJsonSchema": t.parameters})
            })
            .collect();
        body.insert(
            "tools".into(),
            json!([{"functionDeclarations": declarations}]),
        );
    }
    let mut config = Map::new();
    if let Some(t) = options.temperature {
        config.insert("temperature".into(), json!(t));
    }
    let max_tokens = base_max_tokens(model, options);
    if max_tokens > 0 {
        config.insert("maxOutputTokens".into(), json!(max_tokens));
    }
    if let Some(thinking) = thinking_config(model, options) {
        config.insert("thinkingConfig".into(), thinking);
    }
    if !config.is_empty() {
        body.insert("generationConfig".into(), Value::Object(config));
    }
    Value::Object(body)
}

fn is_gemini3_pro(id: &str) -> bool {
    regex_match(id, "gemini-3", "-pro")
}

fn is_gemini3_flash(id: &str) -> bool {
    regex_match(id, "gemini-3", "-flash")
}

fn is_gemma4(id: &str) -> bool {
    let id = id.to_lowercase();
    id.contains("gemma-4") || id.contains("gemma4")
}

/// `id` contains `prefix`, an optional `.N` minor version, then `suffix`.
fn regex_match(id: &str, prefix: &str, suffix: &str) -> bool {
    let id = id.to_lowercase();
    let Some(pos) = id.find(prefix) else {
        return false;
    };
    let rest = &id[pos + prefix.len()..];
    let rest = match rest.strip_prefix('.') {
        Some(r) => r.trim_start_matches(|c: char| c.is_ascii_digit()),
        None => rest,
    };
    rest.starts_with(suffix)
}

/// `thinkingConfig`: a level for Gemini 3 / Gemma 4, a token budget for
/// Gemini 2.5, and the lowest setting when thinking is off.
pub fn thinking_config(model: &Model, options: &StreamOptions) -> Option<Value> {
    if !model.reasoning {
        return None;
    }
    let id = model.id.as_str();
    let level_based = is_gemini3_pro(id) || is_gemini3_flash(id) || is_gemma4(id);
    let Some(level) = effective_level(model, options) else {
        return Some(if is_gemini3_pro(id) {
            json!({"thinkingLevel": "LOW"})
        } else if level_based {
            json!({"thinkingLevel": "MINIMAL"})
        } else {
            json!({"thinkingBudget": 0})
        });
    };
    let level = if level == ThinkingLevel::Xhigh {
        ThinkingLevel::High
    } else {
        level
    };
    if level_based {
        let name = match (level, is_gemini3_pro(id), is_gemma4(id)) {
            (ThinkingLevel::Minimal | ThinkingLevel::Low, true, _) => "LOW",
            (_, true, _) => "HIGH",
            (ThinkingLevel::Minimal | ThinkingLevel::Low, _, true) => "MINIMAL",
            (_, _, true) => "HIGH",
            (ThinkingLevel::Minimal, ..) => "MINIMAL",
            (ThinkingLevel::Low, ..) => "LOW",
            (ThinkingLevel::Medium, ..) => "MEDIUM",
            _ => "HIGH",
        };
        return Some(json!({"includeThoughts": true, "thinkingLevel": name}));
    }
    Some(json!({"includeThoughts": true, "thinkingBudget": thinking_budget(id, level)}))
}

/// Thinking tokens per level for Gemini 2.5 models; `-1` lets the model decide.
fn thinking_budget(id: &str, level: ThinkingLevel) -> i64 {
    let table: [i64; 4] = if id.contains("2.5-pro") {
        [128, 2048, 8192, 32768]
    } else if id.contains("2.5-flash-lite") {
        [512, 2048, 8192, 24576]
    } else if id.contains("2.5-flash") {
        [128, 2048, 8192, 24576]
    } else {
        return -1;
    };
    match level {
        ThinkingLevel::Minimal => table[0],
        ThinkingLevel::Low => table[1],
        ThinkingLevel::Medium => table[2],
        _ => table[3],
    }
}

/// Models behind Google APIs that need explicit ids on function calls.
pub fn requires_call_id(model_id: &str) -> bool {
    model_id.starts_with("claude-") || model_id.starts_with("gpt-oss-")
}

/// Gemini 3+ (and non-Gemini models) accept images inside a function response.
fn multimodal_function_response(model_id: &str) -> bool {
    let lower = model_id.to_lowercase();
    let rest = lower
        .strip_prefix("gemini-live-")
        .or_else(|| lower.strip_prefix("gemini-"));
    match rest {
        Some(r) => {
            let major: String = r.chars().take_while(char::is_ascii_digit).collect();
            major.parse::<u32>().map_or(true, |m| m >= 3)
        }
        None => true,
    }
}

/// Thought signatures are base64 (`TYPE_BYTES`); anything else is dropped.
fn valid_signature(sig: Option<&str>) -> Option<&str> {
    sig.filter(|s| {
        !s.is_empty()
            && s.len() % 4 == 0
            && s.trim_end_matches('=')
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '+' || c == '/')
    })
}

fn inline_data(mime_type: &str, data: &str) -> Value {
    json!({"inlineData": {"mimeType": mime_type, "data": data}})
}

/// Convert the conversation to Gemini `contents` (roles `user` and `model`).
pub fn convert_contents(model: &Model, context: &Context) -> Vec<Value> {
    let needs_id = requires_call_id(&model.id);
    let normalize = move |id: &str| -> String {
        if !needs_id {
            return id.to_string();
        }
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
    };
    let messages = transform_borrowed(&context.messages, model, &normalize);
    let mut contents: Vec<Value> = Vec::new();
    for msg in messages.iter().map(|m| &**m) {
        match msg {
            Message::User(u) => {
                let parts: Vec<Value> = match &u.content {
                    UserContent::Text(s) => vec![json!({"text": s})],
                    UserContent::Blocks(blocks) => blocks
                        .iter()
                        .filter_map(|b| match b {
                            ContentBlock::Text(t) => Some(json!({"text": t.text})),
                            ContentBlock::Image(i) => Some(inline_data(&i.mime_type, &i.data)),
                            _ => None,
                        })
                        .collect(),
                };
                if !parts.is_empty() {
                    contents.push(json!({"role": "user", "parts": parts}));
                }
            }
            Message::Assistant(a) => {
                let same = a.provider == model.provider && a.model == model.id;
                let sig = |s: Option<&'_ str>| -> Option<String> {
                    if same {
                        valid_signature(s).map(str::to_string)
                    } else {
                        None
                    }
                };
                let mut parts = Vec::new();
                for block in &a.content {
                    let part = match block {
                        ContentBlock::Text(t) if !t.text.trim().is_empty() => with_signature(
                            json!({"text": t.text}),
                            sig(t.text_signature.as_deref()),
                        ),
                        ContentBlock::Thinking(t) if !t.thinking.trim().is_empty() => {
                            if same {
                                with_signature(
                                    json!({"thought": true, "text": t.thinking}),
                                    sig(t.thinking_signature.as_deref()),
                                )
                            } else {
                                json!({"text": t.thinking})
                            }
                        }
                        ContentBlock::ToolCall(c) => {
                            let mut call = json!({"name": c.name, "args": c.arguments});
                            if needs_id {
                                call["id"] = json!(c.id);
                            }
                            with_signature(
                                json!({"functionCall": call}),
                                sig(c.thought_signature.as_deref()),
                            )
                        }
                        _ => continue,
                    };
                    parts.push(part);
                }
                if !parts.is_empty() {
                    contents.push(json!({"role": "model", "parts": parts}));
                }
            }
            Message::ToolResult(r) => {
                let text: Vec<&str> = r.content.iter().filter_map(ContentBlock::as_text).collect();
                let text = text.join("\n");
                let images: Vec<Value> = r
                    .content
                    .iter()
                    .filter_map(|b| match b {
                        ContentBlock::Image(i) if model.supports_images() => {
                            Some(inline_data(&i.mime_type, &i.data))
                        }
                        _ => None,
                    })
                    .collect();
                let value = if !text.is_empty() {
                    text
                } else if !images.is_empty() {
                    "(see attached image)".to_string()
                } else {
                    String::new()
                };
                let key = if r.is_error { "error" } else { "output" };
                let nested = multimodal_function_response(&model.id);
                let mut response = json!({"name": r.tool_name, "response": {key: value}});
                if !images.is_empty() && nested {
                    response["parts"] = Value::Array(images.clone());
                }
                if needs_id {
                    response["id"] = json!(r.tool_call_id);
                }
                let part = json!({"functionResponse": response});
                // All function responses of one turn travel in a single user turn.
                let merged = contents.last_mut().is_some_and(|last| {
                    let joinable = last["role"] == "user"
                        && last["parts"]
                            .as_array()
                            .is_some_and(|p| p.iter().any(|p| p.get("functionResponse").is_some()));
                    if joinable && let Some(parts) = last["parts"].as_array_mut() {
                        parts.push(part.clone());
                    }
                    joinable
                });
                if !merged {
                    contents.push(json!({"role": "user", "parts": [part]}));
                }
                if !images.is_empty() && !nested {
                    let mut parts = vec![json!({"text": "Tool result image:"})];
                    parts.extend(images);
                    contents.push(json!({"role": "user", "parts": parts}));
                }
            }
            _ => {}
        }
    }
    contents
}

fn with_signature(mut part: Value, sig: Option<String>) -> Value {
    if let Some(sig) = sig {
        part["thoughtSignature"] = json!(sig);
    }
    part
}

#[cfg(test)]
#[path = "request_tests.rs"]
mod tests;
