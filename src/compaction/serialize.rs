//! Turning messages into plain text for a summarization request, so the
//! model reads a transcript instead of continuing a conversation.

use crate::ai::types::{ContentBlock, Message, UserContent};
use crate::session::convert_to_llm;

/// Longest tool result kept in a serialized transcript.
const TOOL_RESULT_MAX_CHARS: usize = 2000;

fn truncate_for_summary(text: &str, max_chars: usize) -> String {
    let total = text.chars().count();
    if total <= max_chars {
        return text.to_string();
    }
    let kept: String = text.chars().take(max_chars).collect();
    format!(
        "{kept}\n\n[... {} more characters truncated]",
        total - max_chars
    )
}

fn text_of_blocks(blocks: &[ContentBlock]) -> String {
    blocks
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Text(t) => Some(t.text.as_str()),
            _ => None,
        })
        .collect()
}

/// Serialize messages (converted for the model first) as
/// `[User]: ...`, `[Assistant thinking]: ...`, `[Assistant]: ...`,
/// `[Assistant tool calls]: name(k=v, ...)` and `[Tool result]: ...`
/// paragraphs; tool results are cut to 2000 characters.
pub fn serialize_conversation(messages: &[Message]) -> String {
    let mut parts = Vec::new();
    for message in convert_to_llm(messages) {
        match &message {
            Message::User(user) => {
                let text = match &user.content {
                    UserContent::Text(t) => t.clone(),
                    UserContent::Blocks(blocks) => text_of_blocks(blocks),
                };
                if !text.is_empty() {
                    parts.push(format!("[User]: {text}"));
                }
            }
            Message::Assistant(assistant) => {
                let mut texts = Vec::new();
                let mut thinking = Vec::new();
                let mut calls = Vec::new();
                for block in &assistant.content {
                    match block {
                        ContentBlock::Text(t) => texts.push(t.text.as_str()),
                        ContentBlock::Thinking(t) => thinking.push(t.thinking.as_str()),
                        ContentBlock::ToolCall(call) => {
                            let args = call
                                .arguments
                                .as_object()
                                .map(|map| {
                                    map.iter()
                                        .map(|(k, v)| format!("{k}={v}"))
                                        .collect::<Vec<_>>()
                                        .join(", ")
                                })
                                .unwrap_or_default();
                            calls.push(format!("{}({args})", call.name));
                        }
                        ContentBlock::Image(_) => {}
                    }
                }
                if !thinking.is_empty() {
                    parts.push(format!("[Assistant thinking]: {}", thinking.join("\n")));
                }
                if !texts.is_empty() {
                    parts.push(format!("[Assistant]: {}", texts.join("\n")));
                }
                if !calls.is_empty() {
                    parts.push(format!("[Assistant tool calls]: {}", calls.join("; ")));
                }
            }
            Message::ToolResult(result) => {
                let text = text_of_blocks(&result.content);
                if !text.is_empty() {
                    parts.push(format!(
                        "[Tool result]: {}",
                        truncate_for_summary(&text, TOOL_RESULT_MAX_CHARS)
                    ));
                }
            }
            _ => {}
        }
    }
    parts.join("\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::types::{AssistantMessage, ToolCall, ToolResultMessage, UserMessage};

    #[test]
    fn serializes_roles_tool_calls_and_truncates_results() {
        let mut a = AssistantMessage::empty("x", "p", "m");
        a.content = vec![
            ContentBlock::text("Reading."),
            ContentBlock::ToolCall(ToolCall {
                id: "c1".into(),
                name: "read".into(),
                arguments: serde_json::json!({"path": "src/a.rs", "limit": 5}),
                thought_signature: None,
                raw_arguments: None,
            }),
        ];
        let result = Message::ToolResult(ToolResultMessage {
            tool_call_id: "c1".into(),
            tool_name: "read".into(),
            content: vec![ContentBlock::text("z".repeat(2005))],
            details: None,
            is_error: false,
            timestamp: 0,
        });
        let text = serialize_conversation(&[
            Message::User(UserMessage::text("Fix it")),
            Message::Assistant(a),
            result,
        ]);
        let expected_tail = format!(
            "[Tool result]: {}\n\n[... 5 more characters truncated]",
            "z".repeat(2000)
        );
        assert_eq!(
            text,
            format!(
                "[User]: Fix it\n\n[Assistant]: Reading.\n\n[Assistant tool calls]: read(path=\"src/a.rs\", limit=5)\n\n{expected_tail}"
            )
        );
    }
}
