//! How many messages of each kind the conversation holds, for `/session`.

use crate::agent::conversation::MessageFacts;
use crate::ai::types::Message;

/// Message counts of the whole conversation (not only the part on screen).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct MessageCounts {
    /// The user's messages.
    pub user: usize,
    /// The model's answers.
    pub assistant: usize,
    /// Tool calls inside the answers.
    pub tool_calls: usize,
    /// Tool results.
    pub tool_results: usize,
    /// Every message, of any kind.
    pub total: usize,
}

impl MessageCounts {
    /// Count in a message known by its facts.
    pub fn add_facts(&mut self, facts: &MessageFacts) {
        self.total += 1;
        match facts.role {
            "user" => self.user += 1,
            "toolResult" => self.tool_results += 1,
            "assistant" => {
                self.assistant += 1;
                self.tool_calls += facts.tool_calls;
            }
            _ => {}
        }
    }

    /// Count `message` in.
    pub fn add(&mut self, message: &Message) {
        self.add_facts(&MessageFacts::of(message));
    }
}
