//! Token estimation: a chars/4 heuristic per message, and the context size
//! from the last assistant usage plus estimates for what came after it.

use crate::agent::conversation::Conversation;
use crate::ai::types::{ContentBlock, Message, StopReason, Usage, UserContent};

/// Characters counted for one image block (≈1200 tokens).
const IMAGE_CHARS: usize = 4800;

/// Context tokens from a usage report: `totalTokens`, or the sum of its parts.
pub fn calculate_context_tokens(usage: &Usage) -> u64 {
    if usage.total_tokens > 0 {
        usage.total_tokens
    } else {
        usage.input + usage.output + usage.cache_read + usage.cache_write
    }
}

fn chars(text: &str) -> usize {
    text.encode_utf16().count()
}

fn ceil_div4(chars: usize) -> u64 {
    chars.div_ceil(4) as u64
}

fn content_chars(content: &UserContent, count_images: bool) -> usize {
    match content {
        UserContent::Text(text) => chars(text),
        UserContent::Blocks(blocks) => blocks_chars(blocks, count_images),
    }
}

fn blocks_chars(blocks: &[ContentBlock], count_images: bool) -> usize {
    blocks
        .iter()
        .map(|block| match block {
            ContentBlock::Text(t) => chars(&t.text),
            ContentBlock::Image(_) if count_images => IMAGE_CHARS,
            _ => 0,
        })
        .sum()
}

/// Estimated tokens of one message (characters / 4, rounded up). Errs on
/// the high side.
pub fn estimate_tokens(message: &Message) -> u64 {
    let count = match message {
        Message::User(user) => content_chars(&user.content, false),
        Message::Assistant(assistant) => assistant
            .content
            .iter()
            .map(|block| match block {
                ContentBlock::Text(t) => chars(&t.text),
                ContentBlock::Thinking(t) => chars(&t.thinking),
                ContentBlock::ToolCall(call) => {
                    chars(&call.name) + chars(&call.arguments.to_string())
                }
                ContentBlock::Image(_) => 0,
            })
            .sum(),
        Message::Custom(custom) => content_chars(&custom.content, true),
        Message::ToolResult(result) => blocks_chars(&result.content, true),
        Message::BashExecution(bash) => chars(&bash.command) + chars(&bash.output),
        Message::BranchSummary(summary) => chars(&summary.summary),
        Message::CompactionSummary(summary) => chars(&summary.summary),
    };
    ceil_div4(count)
}

/// The index of the last assistant message in `messages` that finished normally (whose
/// usage [`estimate_context_tokens`] starts from).
pub fn last_usage_index(messages: &Conversation) -> Option<usize> {
    messages.iter().rposition(|m| valid_usage(&m).is_some())
}

/// The usage of an assistant message that finished normally.
fn valid_usage(message: &Message) -> Option<&Usage> {
    match message {
        Message::Assistant(a)
            if a.stop_reason != StopReason::Aborted && a.stop_reason != StopReason::Error =>
        {
            Some(&a.usage)
        }
        _ => None,
    }
}

/// The current context size of `messages`: the last valid assistant usage
/// plus estimates for the messages after it (all estimated when there is
/// no usage yet).
pub fn estimate_context_tokens(messages: &Conversation) -> u64 {
    let mut after = 0;
    for message in messages.iter().rev() {
        if let Some(usage) = valid_usage(&message) {
            return calculate_context_tokens(usage) + after;
        }
        after += estimate_tokens(&message);
    }
    after
}

/// Whether the context is past the automatic compaction threshold
/// (`contextTokens > contextWindow - reserveTokens`).
pub fn should_compact(
    context_tokens: u64,
    context_window: u64,
    settings: &crate::config::settings_keys::CompactionSettings,
) -> bool {
    settings.enabled && context_tokens > context_window.saturating_sub(settings.reserve_tokens)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::types::{AssistantMessage, ToolCall, UserMessage};

    #[test]
    fn estimates_are_chars_over_four_rounded_up() {
        assert_eq!(
            estimate_tokens(&Message::User(UserMessage::text("abcde"))),
            2
        );
        let mut a = AssistantMessage::empty("x", "p", "m");
        a.content = vec![ContentBlock::ToolCall(ToolCall {
            id: "c".into(),
            name: "read".into(),
            arguments: serde_json::json!({"path": "a"}),
            thought_signature: None,
            raw_arguments: None,
        })];
        // "read" (4) + {"path":"a"} (12) = 16 chars
        assert_eq!(estimate_tokens(&Message::Assistant(a)), 4);
    }

    #[test]
    fn context_uses_last_valid_usage_plus_trailing_estimates() {
        let mut a = AssistantMessage::empty("x", "p", "m");
        a.usage.total_tokens = 1000;
        let mut failed = AssistantMessage::empty("x", "p", "m");
        failed.stop_reason = StopReason::Error;
        failed.usage.total_tokens = 99_999;
        let messages = vec![
            Message::User(UserMessage::text("x".repeat(400))),
            Message::Assistant(a),
            Message::User(UserMessage::text("y".repeat(40))),
            Message::Assistant(failed),
        ];
        assert_eq!(estimate_context_tokens(&messages.clone().into()), 1010);
        assert_eq!(estimate_context_tokens(&messages[..1].to_vec().into()), 100);
    }
}
