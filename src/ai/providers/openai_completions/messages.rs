//! The system prompt and conversation as Chat Completions `messages`, built from
//! borrowed parts of the conversation (see [`crate::ai::wire_json`]).

use std::borrow::Cow;

use serde_json::Value;

use crate::ai::model::Model;
use crate::ai::providers::openai_completions::compat::OpenAiCompat;
use crate::ai::providers::openai_completions::request::normalize_tool_call_id;
use crate::ai::transform::transform_borrowed;
use crate::ai::types::{ContentBlock, Context, Message, UserContent};
use crate::ai::wire_json::{WireJson, WireObject};

pub(super) const ASSISTANT_BRIDGE: &str = "I have processed the tool results.";

fn object<'a>(entries: impl IntoIterator<Item = (&'a str, WireJson<'a>)>) -> WireJson<'a> {
    WireJson::Object(WireObject::from_entries(entries))
}

fn text_part<'a>(text: impl Into<Cow<'a, str>>) -> WireJson<'a> {
    object([
        ("type", WireJson::str("text")),
        ("text", WireJson::Str(text.into())),
    ])
}

fn image_url<'a>(mime_type: &'a str, data: &'a str) -> WireJson<'a> {
    object([
        ("type", WireJson::str("image_url")),
        (
            "image_url",
            object([("url", WireJson::DataUrl { mime_type, data })]),
        ),
    ])
}

fn role_message<'a>(role: &'a str, content: WireJson<'a>) -> WireJson<'a> {
    object([("role", WireJson::str(role)), ("content", content)])
}

/// The context's messages rewritten for `model` (what [`convert_messages`] reads).
pub fn replayed<'a>(model: &Model, context: &'a Context) -> Vec<Cow<'a, Message>> {
    transform_borrowed(&context.messages, model, &|id| {
        normalize_tool_call_id(model, id)
    })
}

/// Chat Completions `messages` entries, and whether they end in tool results (a user
/// message next may need a bridge).
pub struct Converted<'a> {
    /// The entries.
    pub entries: Vec<WireJson<'a>>,
    /// The last entries are tool results.
    pub after_tool_result: bool,
}

/// The system prompt and the `transformed` conversation as Chat Completions `messages`.
/// `after_tool_result`: the conversation continues one whose entries ended in tool results.
pub fn convert_messages<'a>(
    model: &Model,
    system_prompt: Option<&'a str>,
    transformed: &'a [Cow<'_, Message>],
    compat: &OpenAiCompat,
    after_tool_result: bool,
) -> Converted<'a> {
    let mut out = Vec::with_capacity(transformed.len() + 1);
    if let Some(prompt) = system_prompt.filter(|p| !p.is_empty()) {
        let role = if model.reasoning && compat.supports_developer_role {
            "developer"
        } else {
            "system"
        };
        out.push(role_message(role, WireJson::str(prompt)));
    }
    let mut last_was_tool_result = after_tool_result;
    let mut i = 0;
    while i < transformed.len() {
        let msg: &Message = &transformed[i];
        if compat.requires_assistant_after_tool_result
            && last_was_tool_result
            && matches!(msg, Message::User(_))
        {
            out.push(role_message("assistant", WireJson::str(ASSISTANT_BRIDGE)));
        }
        match msg {
            Message::User(u) => {
                match &u.content {
                    UserContent::Text(s) => out.push(role_message("user", WireJson::str(s))),
                    UserContent::Blocks(blocks) => {
                        let parts: Vec<WireJson> = blocks
                            .iter()
                            .filter_map(|b| match b {
                                ContentBlock::Text(t) => Some(text_part(t.text.as_str())),
                                ContentBlock::Image(img) => {
                                    Some(image_url(&img.mime_type, &img.data))
                                }
                                _ => None,
                            })
                            .collect();
                        if !parts.is_empty() {
                            out.push(role_message("user", WireJson::Array(parts)));
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
                while let Some(Message::ToolResult(r)) = transformed.get(i).map(|m| &**m) {
                    let texts: Vec<&str> =
                        r.content.iter().filter_map(ContentBlock::as_text).collect();
                    let content: Cow<str> = match texts.as_slice() {
                        [] => Cow::Borrowed("(see attached image)"),
                        [only] if !only.is_empty() => Cow::Borrowed(only),
                        _ => match texts.join("\n") {
                            joined if joined.is_empty() => Cow::Borrowed("(see attached image)"),
                            joined => Cow::Owned(joined),
                        },
                    };
                    let mut result = WireObject::new();
                    result.insert("role", WireJson::str("tool"));
                    result.insert("content", WireJson::Str(content));
                    result.insert("tool_call_id", WireJson::str(&r.tool_call_id));
                    if compat.requires_tool_result_name && !r.tool_name.is_empty() {
                        result.insert("name", WireJson::str(&r.tool_name));
                    }
                    out.push(WireJson::Object(result));
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
                        out.push(role_message("assistant", WireJson::str(ASSISTANT_BRIDGE)));
                    }
                    let mut parts = vec![text_part("Attached image(s) from tool result:")];
                    parts.extend(images);
                    out.push(role_message("user", WireJson::Array(parts)));
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    Converted {
        entries: out,
        after_tool_result: last_was_tool_result,
    }
}

fn convert_assistant<'a>(
    model: &Model,
    compat: &OpenAiCompat,
    content: &'a [ContentBlock],
) -> Option<WireJson<'a>> {
    let mut msg = WireObject::new();
    msg.insert("role", WireJson::str("assistant"));
    let empty = if compat.requires_assistant_after_tool_result {
        WireJson::str("")
    } else {
        WireJson::Null
    };
    msg.insert("content", empty);
    let texts: Vec<&str> = content
        .iter()
        .filter_map(ContentBlock::as_text)
        .filter(|t| !t.trim().is_empty())
        .collect();
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
        let mut parts = vec![text_part(text.join("\n\n"))];
        parts.extend(texts.iter().map(|t| text_part(*t)));
        msg.insert("content", WireJson::Array(parts));
    } else {
        let joined: Cow<str> = match texts.as_slice() {
            [only] => Cow::Borrowed(only),
            _ => Cow::Owned(texts.concat()),
        };
        if !joined.is_empty() {
            msg.insert("content", WireJson::Str(joined));
        }
        if let Some((_, Some(field))) = thinking
            .first()
            .filter(|(_, s)| s.is_some_and(|s| !s.is_empty()))
        {
            let all: Vec<&str> = thinking.iter().map(|(t, _)| *t).collect();
            msg.insert(*field, WireJson::Str(Cow::Owned(all.join("\n"))));
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
        let converted: Vec<WireJson> = calls
            .iter()
            .map(|c| {
                let arguments = crate::ai::json_text::value_to_string(&c.arguments);
                object([
                    ("id", WireJson::str(&c.id)),
                    ("type", WireJson::str("function")),
                    (
                        "function",
                        object([
                            ("name", WireJson::str(&c.name)),
                            ("arguments", WireJson::Str(Cow::Owned(arguments))),
                        ]),
                    ),
                ])
            })
            .collect();
        msg.insert("tool_calls", WireJson::Array(converted));
        let details: Vec<WireJson> = calls
            .iter()
            .filter_map(|c| serde_json::from_str::<Value>(c.thought_signature.as_deref()?).ok())
            .map(WireJson::OwnedJson)
            .collect();
        if !details.is_empty() {
            msg.insert("reasoning_details", WireJson::Array(details));
        }
    }
    if compat.requires_reasoning_content_on_assistant_messages
        && model.reasoning
        && !msg.contains_key("reasoning_content")
    {
        msg.insert("reasoning_content", WireJson::str(""));
    }
    let has_content = match msg.get("content") {
        Some(WireJson::Str(s)) => !s.is_empty(),
        Some(WireJson::Array(a)) => !a.is_empty(),
        _ => false,
    };
    (has_content || msg.contains_key("tool_calls")).then_some(WireJson::Object(msg))
}

/// Anthropic-style cache markers: system prompt, last tool, last user/assistant text.
pub fn apply_cache_control(
    messages: &mut [WireJson],
    tools: Option<&mut Vec<Value>>,
    marker: &Value,
) {
    let role = |m: &WireJson| match m {
        WireJson::Object(o) => o.get("role").and_then(WireJson::as_str).map(str::to_string),
        _ => None,
    };
    if let Some(system) = messages
        .iter_mut()
        .find(|m| matches!(role(m).as_deref(), Some("system" | "developer")))
    {
        mark_text(system, marker);
    }
    if let Some(last) = tools.and_then(|t| t.last_mut()) {
        last["cache_control"] = marker.clone();
    }
    for msg in messages.iter_mut().rev() {
        if matches!(role(msg).as_deref(), Some("user" | "assistant")) && mark_text(msg, marker) {
            return;
        }
    }
}

fn mark_text(message: &mut WireJson, marker: &Value) -> bool {
    let Some(content) = message.as_object_mut().and_then(|o| o.get_mut("content")) else {
        return false;
    };
    if let Some(text) = content.as_str() {
        if text.is_empty() {
            return false;
        }
        let text = match std::mem::replace(content, WireJson::Null) {
            WireJson::Str(text) => text,
            other => Cow::Owned(other.as_str().unwrap_or_default().to_string()),
        };
        let mut part = WireObject::new();
        part.insert("type", WireJson::str("text"));
        part.insert("text", WireJson::Str(text));
        part.insert("cache_control", WireJson::OwnedJson(marker.clone()));
        *content = WireJson::Array(vec![WireJson::Object(part)]);
        return true;
    }
    let WireJson::Array(parts) = content else {
        return false;
    };
    let is_text = |p: &WireJson| match p {
        WireJson::Object(o) => o.get("type").and_then(WireJson::as_str) == Some("text"),
        _ => false,
    };
    match parts.iter_mut().rev().find(|p| is_text(p)) {
        Some(WireJson::Object(part)) => {
            part.insert("cache_control", WireJson::OwnedJson(marker.clone()));
            true
        }
        _ => false,
    }
}
