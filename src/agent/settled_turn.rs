//! One request's use of the settled parts kept on disk ([`super::settled_store`]): the
//! kept part is handed to the provider when it matches the conversation's first
//! messages (only the messages after it are converted), and the part the provider
//! wrote is kept when it reaches further.

use std::borrow::Cow;
use std::sync::Arc;

use super::conversation::Conversation;
use super::settled_store::{PartKey, SettledStore};
use crate::ai::model::Model;
use crate::ai::settled::{SettledExchange, SettledPart};
use crate::ai::types::Message;

/// Converts one message of the conversation into what the model sees (`None`: it is
/// not sent); must agree with the loop's `convert_to_llm`.
pub type ConvertOne = fn(Cow<'_, Message>) -> Option<Message>;

/// Settled parts kept between processes for the session of a run.
#[derive(Debug, Clone)]
pub struct SettledConfig {
    /// Where they are kept.
    pub store: SettledStore,
    /// The conversion of one message, as `convert_to_llm` does it.
    pub convert_one: ConvertOne,
}

/// A request prepared with the kept part (or ready to keep one).
pub struct SettledTurn {
    /// Handed to the provider.
    pub exchange: Arc<SettledExchange>,
    /// The model messages after the kept part (all of them without one).
    pub messages: Vec<Message>,
    /// The conversation message each of `messages` comes from.
    slot_of: Vec<usize>,
    /// Conversation messages the kept part covers.
    covered: usize,
    format: &'static str,
    model: Model,
    system_prompt: Option<String>,
}

impl SettledTurn {
    /// Prepare a request of `conversation` to `model` with `system_prompt` in wire
    /// `format`: the kept part is used when it matches.
    pub fn prepare(
        config: &SettledConfig,
        format: &'static str,
        model: &Model,
        system_prompt: Option<&str>,
        conversation: &Conversation,
    ) -> Self {
        let key = PartKey {
            format,
            model,
            system_prompt,
        };
        let kept = config.store.load(key, conversation);
        let covered = kept.as_ref().map_or(0, |k| k.slots);
        let mut messages = Vec::with_capacity(conversation.len() - covered);
        let mut slot_of = Vec::with_capacity(conversation.len() - covered);
        for (index, message) in conversation.iter().enumerate().skip(covered) {
            if let Some(converted) = (config.convert_one)(message) {
                messages.push(converted);
                slot_of.push(index);
            }
        }
        let given = kept.map(|kept| {
            let mut earlier = conversation.clone();
            earlier.truncate(kept.slots);
            let convert = config.convert_one;
            SettledPart {
                format: format.to_string(),
                model: model.clone(),
                system_prompt: system_prompt.map(str::to_string),
                count: kept.written.count,
                bytes: kept.written.bytes,
                after_tool_result: kept.written.after_tool_result,
                tool_history: kept.written.tool_history,
                messages: Arc::new(move || earlier.iter().filter_map(convert).collect()),
            }
        });
        SettledTurn {
            exchange: Arc::new(SettledExchange::new(given)),
            messages,
            slot_of,
            covered,
            format,
            model: model.clone(),
            system_prompt: system_prompt.map(str::to_string),
        }
    }

    /// After the request: keep the part the provider wrote when it covers more of
    /// `conversation` than the kept one did.
    pub fn keep(self, config: &SettledConfig, conversation: &Conversation) {
        let Some(written) = self.exchange.take_written() else {
            return;
        };
        let given = self.exchange.given_count();
        let slots = match written.count.checked_sub(given) {
            Some(after) => self.slot_of.get(after).copied(),
            None => None,
        };
        let Some(slots) = slots.filter(|&s| s > self.covered || self.covered == 0) else {
            return;
        };
        let key = PartKey {
            format: self.format,
            model: &self.model,
            system_prompt: self.system_prompt.as_deref(),
        };
        config.store.save(key, conversation, slots, &written);
    }
}

#[cfg(test)]
#[path = "settled_turn_tests.rs"]
mod tests;
