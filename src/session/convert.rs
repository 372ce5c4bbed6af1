//! Turning session-only message roles into plain user messages for the
//! model (pi's `convertToLlm`).

use std::borrow::Cow;

use crate::agent::conversation::Conversation;
use crate::ai::types::{BashExecutionMessage, ContentBlock, Message, UserContent, UserMessage};

/// Text placed before a compaction summary.
pub const COMPACTION_SUMMARY_PREFIX: &str = "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
/// Text placed after a compaction summary.
pub const COMPACTION_SUMMARY_SUFFIX: &str = "\n</summary>";
/// Text placed before a branch summary.
pub const BRANCH_SUMMARY_PREFIX: &str =
    "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";
/// Text placed after a branch summary.
pub const BRANCH_SUMMARY_SUFFIX: &str = "</summary>";

/// The text the model sees for a user `!command`.
pub fn bash_execution_to_text(message: &BashExecutionMessage) -> String {
    let mut text = format!("Ran `{}`\n", message.command);
    if message.output.is_empty() {
        text.push_str("(no output)");
    } else {
        text.push_str(&format!("```\n{}\n```", message.output));
    }
    if message.cancelled {
        text.push_str("\n\n(command cancelled)");
    } else if let Some(code) = message.exit_code.filter(|&code| code != 0) {
        text.push_str(&format!("\n\nCommand exited with code {code}"));
    }
    if message.truncated
        && let Some(path) = &message.full_output_path
    {
        text.push_str(&format!("\n\n[Output truncated. Full output: {path}]"));
    }
    text
}

/// Messages as the model receives them: user, assistant and toolResult pass
/// through; bash executions, custom messages and summaries become user
/// messages; `!!` bash executions are dropped.
pub fn convert_to_llm(messages: &[Message]) -> Vec<Message> {
    messages.iter().filter_map(convert_one).collect()
}

/// [`convert_to_llm`] over a conversation: a message read back from the session
/// file is converted without a second copy.
pub fn convert_conversation(messages: &Conversation) -> Vec<Message> {
    messages.iter().filter_map(convert_cow).collect()
}

/// One message as the model receives it (`None`: it is not sent); one read back from
/// the session file is converted without a second copy.
pub fn convert_cow(message: Cow<'_, Message>) -> Option<Message> {
    match message {
        Cow::Borrowed(message) => convert_one(message),
        Cow::Owned(message) => convert_owned(message),
    }
}

fn convert_owned(message: Message) -> Option<Message> {
    match message {
        Message::User(_) | Message::Assistant(_) | Message::ToolResult(_) => Some(message),
        other => convert_one(&other),
    }
}

fn convert_one(message: &Message) -> Option<Message> {
    let user = |content: Vec<ContentBlock>, timestamp: i64| {
        Some(Message::User(UserMessage {
            content: UserContent::Blocks(content),
            timestamp,
        }))
    };
    match message {
        Message::User(_) | Message::Assistant(_) | Message::ToolResult(_) => Some(message.clone()),
        Message::BashExecution(bash) => {
            if bash.exclude_from_context == Some(true) {
                return None;
            }
            user(
                vec![ContentBlock::text(bash_execution_to_text(bash))],
                bash.timestamp,
            )
        }
        Message::Custom(custom) => user(custom.content.to_blocks(), custom.timestamp),
        Message::BranchSummary(summary) => user(
            vec![ContentBlock::text(format!(
                "{BRANCH_SUMMARY_PREFIX}{}{BRANCH_SUMMARY_SUFFIX}",
                summary.summary
            ))],
            summary.timestamp,
        ),
        Message::CompactionSummary(summary) => user(
            vec![ContentBlock::text(format!(
                "{COMPACTION_SUMMARY_PREFIX}{}{COMPACTION_SUMMARY_SUFFIX}",
                summary.summary
            ))],
            summary.timestamp,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::types::{BranchSummaryMessage, CompactionSummaryMessage, CustomMessage};

    fn bash(output: &str, exit: Option<i32>) -> BashExecutionMessage {
        BashExecutionMessage {
            command: "ls".into(),
            output: output.into(),
            exit_code: exit,
            cancelled: false,
            truncated: false,
            full_output_path: None,
            exclude_from_context: None,
            timestamp: 7,
        }
    }

    fn only_text(message: &Message) -> String {
        match message {
            Message::User(user) => user.content.text(),
            other => panic!("expected user message, got {}", other.role()),
        }
    }

    #[test]
    fn bash_text_matches_pi_wording() {
        assert_eq!(
            bash_execution_to_text(&bash("a\nb", Some(0))),
            "Ran `ls`\n```\na\nb\n```"
        );
        assert_eq!(
            bash_execution_to_text(&bash("", Some(2))),
            "Ran `ls`\n(no output)\n\nCommand exited with code 2"
        );
        let mut cancelled = bash("x", Some(1));
        cancelled.cancelled = true;
        cancelled.truncated = true;
        cancelled.full_output_path = Some("/tmp/o".into());
        assert_eq!(
            bash_execution_to_text(&cancelled),
            "Ran `ls`\n```\nx\n```\n\n(command cancelled)\n\n[Output truncated. Full output: /tmp/o]"
        );
    }

    #[test]
    fn converts_every_role() {
        let mut excluded = bash("x", None);
        excluded.exclude_from_context = Some(true);
        let messages = vec![
            Message::User(UserMessage::text("hi")),
            Message::BashExecution(bash("out", None)),
            Message::BashExecution(excluded),
            Message::Custom(CustomMessage {
                custom_type: "ext".into(),
                content: UserContent::Text("injected".into()),
                display: true,
                details: None,
                timestamp: 1,
            }),
            Message::BranchSummary(BranchSummaryMessage {
                summary: "went left".into(),
                from_id: "abc".into(),
                timestamp: 2,
            }),
            Message::CompactionSummary(CompactionSummaryMessage {
                summary: "earlier".into(),
                tokens_before: 10,
                timestamp: 3,
            }),
        ];
        let out = convert_to_llm(&messages);
        assert_eq!(out.len(), 5);
        assert_eq!(out[0], messages[0]);
        assert_eq!(only_text(&out[1]), "Ran `ls`\n```\nout\n```");
        assert_eq!(only_text(&out[2]), "injected");
        assert!(
            matches!(&out[2], Message::User(u) if matches!(u.content, UserContent::Blocks(_)) && u.timestamp == 1)
        );
        assert_eq!(
            only_text(&out[3]),
            "The following is a summary of a branch that this conversation came back from:\n\n<summary>\nwent left</summary>"
        );
        assert_eq!(
            only_text(&out[4]),
            "The conversation history before this point was compacted into the following summary:\n\n<summary>\nearlier\n</summary>"
        );
    }
}
