//! Conversation messages the screen tests put on screen.

use pi::ai::types::{AssistantMessage, ContentBlock, Message, UserContent, UserMessage};

/// A user message of plain text.
pub fn user(text: &str) -> Message {
    Message::User(UserMessage {
        content: UserContent::Text(text.into()),
        timestamp: 0,
    })
}

/// An assistant answer of one text block.
pub fn assistant(text: &str) -> Message {
    let mut a = AssistantMessage::empty("anthropic-messages", "anthropic", "m");
    a.content.push(ContentBlock::text(text));
    Message::Assistant(a)
}
