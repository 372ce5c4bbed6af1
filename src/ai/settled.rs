//! A request's settled part handed across processes: the first messages of a
//! conversation already written as one provider's wire entries (kept from an earlier
//! request), and what the provider wrote for the request it sent, to be kept for the
//! next one.

use std::sync::{Arc, Mutex};

use crate::ai::model::Model;
use crate::ai::types::Message;

/// The first messages of a request, already serialised for one wire format.
pub struct SettledPart {
    /// The wire format that wrote `bytes` (see [`crate::ai::stream::ApiProvider::settled_format`]).
    pub format: String,
    /// The model they were written for (base URL and compat included).
    pub model: Model,
    /// The system prompt they were written with (its entry leads `bytes`).
    pub system_prompt: Option<String>,
    /// How many messages `bytes` stands for; the context's messages come after them.
    pub count: usize,
    /// The entries, comma-separated JSON.
    pub bytes: Vec<u8>,
    /// The covered entries end in tool results.
    pub after_tool_result: bool,
    /// Some covered message is a tool call or a tool result.
    pub tool_history: bool,
    /// The covered messages themselves, for a request that cannot use `bytes`.
    pub messages: Arc<dyn Fn() -> Vec<Message> + Send + Sync>,
}

/// What a provider wrote as the settled part of the request it sent.
#[derive(Debug, Clone, PartialEq)]
pub struct WrittenSettled {
    /// How many messages of the whole conversation it covers (the given part's count
    /// included).
    pub count: usize,
    /// The entries, comma-separated JSON.
    pub bytes: Vec<u8>,
    /// They end in tool results.
    pub after_tool_result: bool,
    /// Some covered message is a tool call or a tool result.
    pub tool_history: bool,
}

/// One request's exchange of settled parts between the agent and a provider.
#[derive(Default)]
pub struct SettledExchange {
    /// The part kept from an earlier request, when it still holds.
    pub given: Option<SettledPart>,
    /// Filled by the provider when the request's settled part reaches further than
    /// `given`.
    written: Mutex<Option<WrittenSettled>>,
}

impl SettledExchange {
    /// An exchange handing `given` to the provider.
    pub fn new(given: Option<SettledPart>) -> Self {
        SettledExchange {
            given,
            written: Mutex::new(None),
        }
    }

    /// Record what the provider wrote.
    pub fn set_written(&self, written: WrittenSettled) {
        *crate::sync::LockExt::locked(&self.written) = Some(written);
    }

    /// What the provider wrote, taken.
    pub fn take_written(&self) -> Option<WrittenSettled> {
        crate::sync::LockExt::locked(&self.written).take()
    }

    /// How many messages the given part covers (0 without one).
    pub fn given_count(&self) -> usize {
        self.given.as_ref().map_or(0, |g| g.count)
    }

    /// Every message of the request: the given part's followed by `rest`.
    pub fn whole(&self, rest: &[Message]) -> Vec<Message> {
        let mut all = self
            .given
            .as_ref()
            .map(|g| (g.messages)())
            .unwrap_or_default();
        all.extend_from_slice(rest);
        all
    }
}
