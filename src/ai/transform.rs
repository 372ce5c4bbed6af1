//! Prepare a conversation for replay to a (possibly different) model.
//!
//! - images become placeholders when the model cannot see them;
//! - thinking from another model becomes plain text, signatures are dropped;
//! - tool-call ids are normalised to what the target API accepts;
//! - errored or aborted assistant turns are dropped;
//! - tool calls left without a result get a synthetic error result.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use crate::ai::model::Model;
use crate::ai::types::{
    AssistantMessage, ContentBlock, Message, TextContent, ToolCall, ToolResultMessage, UserContent,
    now_ms,
};

const USER_IMAGE_PLACEHOLDER: &str = "(image omitted: model does not support images)";
const TOOL_IMAGE_PLACEHOLDER: &str = "(tool image omitted: model does not support images)";

/// Text of the synthetic result given to a tool call that never got one.
pub const MISSING_TOOL_RESULT: &str = "No result provided";

/// What replaces an image when images are blocked (`images.blockImages`).
pub const BLOCKED_IMAGE_TEXT: &str = "Image reading is disabled.";

/// Replace every image in user and tool-result messages with [`BLOCKED_IMAGE_TEXT`]
/// (neighbouring replacements merged into one), so no image leaves the machine.
pub fn block_images(messages: &mut [Message]) {
    let strip = |blocks: Vec<ContentBlock>| -> Vec<ContentBlock> {
        let mut out: Vec<ContentBlock> = Vec::with_capacity(blocks.len());
        for block in blocks {
            let block = match block {
                ContentBlock::Image(_) => ContentBlock::text(BLOCKED_IMAGE_TEXT),
                other => other,
            };
            let repeated = matches!((&block, out.last()),
                (ContentBlock::Text(a), Some(ContentBlock::Text(b)))
                    if a.text == BLOCKED_IMAGE_TEXT && b.text == BLOCKED_IMAGE_TEXT);
            if !repeated {
                out.push(block);
            }
        }
        out
    };
    for message in messages.iter_mut() {
        match message {
            Message::User(u) => {
                if let UserContent::Blocks(blocks) = &mut u.content {
                    *blocks = strip(std::mem::take(blocks));
                }
            }
            Message::ToolResult(r) => r.content = strip(std::mem::take(&mut r.content)),
            _ => {}
        }
    }
}

/// Rewrite `messages` for `model`. `normalize_id` maps a foreign tool-call id
/// to one the target API accepts (applied only to other models' calls).
pub fn transform_messages(
    messages: &[Message],
    model: &Model,
    normalize_id: &dyn Fn(&str) -> String,
) -> Vec<Message> {
    transform_borrowed(messages, model, normalize_id)
        .into_iter()
        .map(Cow::into_owned)
        .collect()
}

/// [`transform_messages`] without copying: a message the rewrite leaves as it is
/// is borrowed from `messages`, only changed or added ones are owned.
pub fn transform_borrowed<'a>(
    messages: &'a [Message],
    model: &Model,
    normalize_id: &dyn Fn(&str) -> String,
) -> Vec<Cow<'a, Message>> {
    let mut id_map: HashMap<String, String> = HashMap::new();
    let supports_images = model.supports_images();
    let transformed = messages.iter().map(|msg| match msg {
        Message::User(u) if !supports_images && has_image_blocks(&u.content) => {
            let mut u = u.clone();
            if let UserContent::Blocks(blocks) = &mut u.content {
                *blocks = replace_images(std::mem::take(blocks), USER_IMAGE_PLACEHOLDER);
            }
            Cow::Owned(Message::User(u))
        }
        Message::ToolResult(r) => {
            let mapped = id_map.get(&r.tool_call_id);
            let strip = !supports_images && r.content.iter().any(is_image);
            if mapped.is_none() && !strip {
                return Cow::Borrowed(msg);
            }
            let mut r = r.clone();
            if let Some(mapped) = mapped {
                r.tool_call_id = mapped.clone();
            }
            if strip {
                r.content = replace_images(std::mem::take(&mut r.content), TOOL_IMAGE_PLACEHOLDER);
            }
            Cow::Owned(Message::ToolResult(r))
        }
        Message::Assistant(a) => match transform_assistant(a, model, normalize_id, &mut id_map) {
            Some(changed) => Cow::Owned(Message::Assistant(changed)),
            None => Cow::Borrowed(msg),
        },
        other => Cow::Borrowed(other),
    });

    let mut result: Vec<Cow<'a, Message>> = Vec::with_capacity(messages.len());
    let mut pending: Vec<&'a ToolCall> = Vec::new();
    let mut pending_owned: Vec<ToolCall> = Vec::new();
    let mut answered: HashSet<String> = HashSet::new();
    for msg in transformed {
        match &*msg {
            Message::Assistant(a) => {
                flush(&mut result, &mut pending, &mut pending_owned, &mut answered);
                if matches!(
                    a.stop_reason,
                    crate::ai::types::StopReason::Error | crate::ai::types::StopReason::Aborted
                ) {
                    continue;
                }
                match msg {
                    Cow::Borrowed(Message::Assistant(original)) => pending = original.tool_calls(),
                    _ => pending_owned = a.tool_calls().into_iter().cloned().collect(),
                }
                result.push(msg);
            }
            Message::ToolResult(r) => {
                answered.insert(r.tool_call_id.clone());
                result.push(msg);
            }
            Message::User(_) => {
                flush(&mut result, &mut pending, &mut pending_owned, &mut answered);
                result.push(msg);
            }
            _ => result.push(msg),
        }
    }
    flush(&mut result, &mut pending, &mut pending_owned, &mut answered);
    result
}

/// Whether [`transform_messages`] gives any tool call in `messages` another id for
/// `model` (its results then follow the new id).
pub fn renames_tool_calls(
    messages: &[Message],
    model: &Model,
    normalize_id: &dyn Fn(&str) -> String,
) -> bool {
    messages.iter().any(|m| match m {
        Message::Assistant(a)
            if !(a.provider == model.provider && a.api == model.api && a.model == model.id) =>
        {
            a.tool_calls().iter().any(|c| normalize_id(&c.id) != c.id)
        }
        _ => false,
    })
}

/// A synthetic error result for each pending call that got no result.
fn flush(
    result: &mut Vec<Cow<'_, Message>>,
    pending: &mut Vec<&ToolCall>,
    pending_owned: &mut Vec<ToolCall>,
    answered: &mut HashSet<String>,
) {
    let calls = pending
        .drain(..)
        .map(|c| (c.id.as_str(), c.name.as_str()))
        .chain(
            pending_owned
                .iter()
                .map(|c| (c.id.as_str(), c.name.as_str())),
        );
    for (id, name) in calls {
        if !answered.contains(id) {
            result.push(Cow::Owned(Message::ToolResult(ToolResultMessage {
                tool_call_id: id.to_string(),
                tool_name: name.to_string(),
                content: vec![ContentBlock::text(MISSING_TOOL_RESULT)],
                details: None,
                is_error: true,
                timestamp: now_ms(),
            })));
        }
    }
    pending_owned.clear();
    answered.clear();
}

fn is_image(block: &ContentBlock) -> bool {
    matches!(block, ContentBlock::Image(_))
}

fn has_image_blocks(content: &UserContent) -> bool {
    matches!(content, UserContent::Blocks(blocks) if blocks.iter().any(is_image))
}

/// `msg` rewritten for `model`, or `None` when the rewrite would leave it as it is.
fn transform_assistant(
    msg: &AssistantMessage,
    model: &Model,
    normalize_id: &dyn Fn(&str) -> String,
    id_map: &mut HashMap<String, String>,
) -> Option<AssistantMessage> {
    let same_model =
        msg.provider == model.provider && msg.api == model.api && msg.model == model.id;
    let mut normalized_ids = Vec::new();
    let unchanged = msg.content.iter().all(|block| match block {
        ContentBlock::Thinking(t) => {
            let signed = t
                .thinking_signature
                .as_deref()
                .is_some_and(|s| !s.is_empty());
            same_model && (t.redacted == Some(true) || signed || !t.thinking.trim().is_empty())
        }
        ContentBlock::Text(t) => same_model || t.text_signature.is_none(),
        ContentBlock::ToolCall(c) if !same_model => {
            let normalized = normalize_id(&c.id);
            let same = c.thought_signature.is_none() && normalized == c.id;
            normalized_ids.push(normalized);
            same
        }
        _ => true,
    });
    if unchanged {
        return None;
    }
    let mut normalized_ids = normalized_ids.into_iter();
    let content = msg
        .content
        .iter()
        .filter_map(|block| match block {
            ContentBlock::Thinking(t) => {
                if t.redacted == Some(true) {
                    return same_model.then(|| block.clone());
                }
                let signed = t
                    .thinking_signature
                    .as_deref()
                    .is_some_and(|s| !s.is_empty());
                if same_model && signed {
                    return Some(block.clone());
                }
                if t.thinking.trim().is_empty() {
                    return None;
                }
                if same_model {
                    return Some(block.clone());
                }
                Some(ContentBlock::text(t.thinking.clone()))
            }
            ContentBlock::Text(t) if !same_model => Some(ContentBlock::Text(TextContent {
                text: t.text.clone(),
                text_signature: None,
            })),
            ContentBlock::ToolCall(c) if !same_model => {
                let mut c = c.clone();
                c.thought_signature = None;
                let normalized = normalized_ids.next().unwrap_or_else(|| normalize_id(&c.id));
                if normalized != c.id {
                    id_map.insert(c.id.clone(), normalized.clone());
                    c.id = normalized;
                }
                Some(ContentBlock::ToolCall(c))
            }
            other => Some(other.clone()),
        })
        .collect();
    Some(AssistantMessage {
        content,
        ..msg.clone()
    })
}

/// Replace images with one placeholder per run of consecutive images.
fn replace_images(blocks: Vec<ContentBlock>, placeholder: &str) -> Vec<ContentBlock> {
    let mut out = Vec::with_capacity(blocks.len());
    let mut previous_was_placeholder = false;
    for block in blocks {
        if matches!(block, ContentBlock::Image(_)) {
            if !previous_was_placeholder {
                out.push(ContentBlock::text(placeholder));
            }
            previous_was_placeholder = true;
            continue;
        }
        previous_was_placeholder = block.as_text() == Some(placeholder);
        out.push(block);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::types::{StopReason, ThinkingContent, UserMessage};
    use serde_json::json;

    fn model(input: &[&str]) -> Model {
        serde_json::from_value(json!({
            "id": "m1", "name": "m1", "api": "anthropic-messages", "provider": "anthropic",
            "baseUrl": "http://x", "input": input
        }))
        .unwrap()
    }

    fn assistant(model: &str, content: Vec<ContentBlock>, stop: StopReason) -> Message {
        let mut a = AssistantMessage::empty("anthropic-messages", "anthropic", model);
        a.content = content;
        a.stop_reason = stop;
        Message::Assistant(a)
    }

    fn call(id: &str) -> ContentBlock {
        ContentBlock::ToolCall(ToolCall {
            id: id.into(),
            name: "bash".into(),
            arguments: json!({}),
            thought_signature: Some("sig".into()),
            raw_arguments: None,
        })
    }

    fn thinking(text: &str, sig: Option<&str>) -> ContentBlock {
        ContentBlock::Thinking(ThinkingContent {
            thinking: text.into(),
            thinking_signature: sig.map(str::to_string),
            redacted: None,
        })
    }

    #[test]
    fn foreign_thinking_becomes_text_and_ids_are_normalised() {
        let msgs = vec![
            assistant(
                "other",
                vec![thinking("hmm", Some("s")), call("a|b")],
                StopReason::ToolUse,
            ),
            Message::ToolResult(ToolResultMessage {
                tool_call_id: "a|b".into(),
                tool_name: "bash".into(),
                content: vec![ContentBlock::text("ok")],
                details: None,
                is_error: false,
                timestamp: 0,
            }),
        ];
        let out = transform_messages(&msgs, &model(&["text"]), &|id| id.replace('|', "_"));
        let Message::Assistant(a) = &out[0] else {
            panic!()
        };
        assert_eq!(a.content[0], ContentBlock::text("hmm"));
        let ContentBlock::ToolCall(c) = &a.content[1] else {
            panic!()
        };
        assert_eq!(c.id, "a_b");
        assert_eq!(c.thought_signature, None);
        let Message::ToolResult(r) = &out[1] else {
            panic!()
        };
        assert_eq!(r.tool_call_id, "a_b");
        assert_eq!(out.len(), 2);
    }

    #[test]
    fn same_model_keeps_signed_thinking_and_drops_errored_turns() {
        let msgs = vec![
            assistant("m1", vec![thinking("", Some("sig"))], StopReason::Stop),
            assistant("m1", vec![ContentBlock::text("partial")], StopReason::Error),
            Message::User(UserMessage::text("next")),
        ];
        let out = transform_messages(&msgs, &model(&["text"]), &|id| id.to_string());
        assert_eq!(out.len(), 2);
        let Message::Assistant(a) = &out[0] else {
            panic!()
        };
        assert_eq!(a.content, vec![thinking("", Some("sig"))]);
    }

    #[test]
    fn orphan_tool_calls_get_synthetic_error_results() {
        let msgs = vec![
            assistant("m1", vec![call("c1"), call("c2")], StopReason::ToolUse),
            Message::ToolResult(ToolResultMessage {
                tool_call_id: "c2".into(),
                tool_name: "bash".into(),
                content: vec![],
                details: None,
                is_error: false,
                timestamp: 0,
            }),
            Message::User(UserMessage::text("stop")),
        ];
        let out = transform_messages(&msgs, &model(&["text"]), &|id| id.to_string());
        let roles: Vec<_> = out.iter().map(Message::role).collect();
        assert_eq!(roles, ["assistant", "toolResult", "toolResult", "user"]);
        let Message::ToolResult(r) = &out[2] else {
            panic!()
        };
        assert_eq!(r.tool_call_id, "c1");
        assert!(r.is_error);
        assert_eq!(r.content, vec![ContentBlock::text(MISSING_TOOL_RESULT)]);
    }

    #[test]
    fn images_become_placeholders_without_vision() {
        let img = ContentBlock::image("AAA", "image/png");
        let msgs = vec![Message::User(UserMessage {
            content: UserContent::Blocks(vec![img.clone(), img.clone(), ContentBlock::text("x")]),
            timestamp: 0,
        })];
        let out = transform_messages(&msgs, &model(&["text"]), &|id| id.to_string());
        let Message::User(u) = &out[0] else { panic!() };
        assert_eq!(
            u.content,
            UserContent::Blocks(vec![
                ContentBlock::text(USER_IMAGE_PLACEHOLDER),
                ContentBlock::text("x")
            ])
        );
        let kept = transform_messages(&msgs, &model(&["text", "image"]), &|id| id.to_string());
        assert_eq!(kept, msgs);
    }

    #[test]
    fn blocked_images_become_one_text_in_user_and_tool_messages() {
        let img = ContentBlock::image("AAA", "image/png");
        let mut msgs = vec![
            Message::User(UserMessage {
                content: UserContent::Blocks(vec![
                    ContentBlock::text("look"),
                    img.clone(),
                    img.clone(),
                ]),
                timestamp: 0,
            }),
            Message::ToolResult(ToolResultMessage {
                tool_call_id: "t".into(),
                tool_name: "read".into(),
                content: vec![img.clone()],
                details: None,
                is_error: false,
                timestamp: 0,
            }),
        ];
        block_images(&mut msgs);
        let Message::User(u) = &msgs[0] else { panic!() };
        assert_eq!(
            u.content,
            UserContent::Blocks(vec![
                ContentBlock::text("look"),
                ContentBlock::text(BLOCKED_IMAGE_TEXT)
            ])
        );
        let Message::ToolResult(r) = &msgs[1] else {
            panic!()
        };
        assert_eq!(r.content, vec![ContentBlock::text(BLOCKED_IMAGE_TEXT)]);
    }

    #[test]
    fn unchanged_messages_are_borrowed_and_changed_ones_owned() {
        let own = assistant(
            "m1",
            vec![ContentBlock::text("hi"), call("c1")],
            StopReason::ToolUse,
        );
        let mut foreign_plain = AssistantMessage::empty("openai-completions", "openai", "gpt");
        foreign_plain.content = vec![ContentBlock::text("plain")];
        let result = Message::ToolResult(ToolResultMessage {
            tool_call_id: "c1".into(),
            tool_name: "bash".into(),
            content: vec![ContentBlock::text("ok")],
            details: None,
            is_error: false,
            timestamp: 0,
        });
        let msgs = vec![
            Message::User(UserMessage::text("go")),
            own,
            result,
            Message::Assistant(foreign_plain),
            assistant("other", vec![thinking("hmm", Some("s"))], StopReason::Stop),
            assistant("other", vec![call("x|y")], StopReason::ToolUse),
        ];
        let normalize = |id: &str| id.replace('|', "_");
        let out = transform_borrowed(&msgs, &model(&["text"]), &normalize);
        let borrowed: Vec<bool> = out.iter().map(|m| matches!(m, Cow::Borrowed(_))).collect();
        // The last call got no result: a synthetic one is added (owned).
        assert_eq!(borrowed, [true, true, true, true, false, false, false]);
        let owned: Vec<Message> = out.into_iter().map(Cow::into_owned).collect();
        assert_eq!(owned[..4], msgs[..4]);
        let copied = transform_messages(&msgs, &model(&["text"]), &normalize);
        assert_eq!(owned[..6], copied[..6]);
        assert!(
            matches!(&owned[6], Message::ToolResult(r) if r.tool_call_id == "x_y" && r.is_error)
        );
        let Message::Assistant(a) = &owned[5] else {
            panic!()
        };
        assert!(matches!(&a.content[0], ContentBlock::ToolCall(c) if c.id == "x_y"));
    }
}
