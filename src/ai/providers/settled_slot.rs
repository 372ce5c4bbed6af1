//! What the wire formats' settled parts share: where a conversation's settled part
//! ends (its last user message), the one slot keeping the latest request's part within
//! the process, the test a part given by an earlier process must pass, and joining
//! entries into a part's bytes.

use std::sync::{Arc, Mutex};

use crate::ai::model::Model;
use crate::ai::settled::{SettledExchange, SettledPart};
use crate::ai::stream::StreamOptions;
use crate::ai::types::{Context, Message};
use crate::ai::wire_json::WireJson;
use crate::sync::LockExt;

/// Where the settled part ends: the last user message (not the first message).
pub fn settled_end(messages: &[Message]) -> Option<usize> {
    messages
        .iter()
        .rposition(|m| matches!(m, Message::User(_)))
        .filter(|&at| at > 0)
}

/// Whether some message is a tool call or a tool result.
pub fn has_tool_history(messages: &[Message]) -> bool {
    messages.iter().any(|m| match m {
        Message::ToolResult(_) => true,
        Message::Assistant(a) => !a.tool_calls().is_empty(),
        _ => false,
    })
}

/// Append `entries` to `bytes`, comma-separated.
pub fn append_entries<'a>(bytes: &mut Vec<u8>, entries: impl IntoIterator<Item = WireJson<'a>>) {
    for entry in entries {
        if !bytes.is_empty() {
            bytes.push(b',');
        }
        entry.write_to(bytes);
    }
}

/// Whether `given` was written in `format` for this model and system prompt, and the
/// context's messages (those after it) start with a user message.
pub fn given_fits(given: &SettledPart, format: &str, model: &Model, context: &Context) -> bool {
    given.format == format
        && given.model == *model
        && given.system_prompt == context.system_prompt
        && !given.bytes.is_empty()
        && matches!(context.messages.first(), Some(Message::User(_)))
}

/// A conversation's serialised settled part, as the latest request wrote it.
pub struct KeptPart<K> {
    /// The model the entries were made for.
    pub model: Model,
    /// What else of the request decided the entries (the wire format's own).
    pub key: K,
    /// The request they were made for: its first `upto` messages are covered.
    pub context: Arc<Context>,
    /// How many messages of `context` are covered.
    pub upto: usize,
    /// The entries, comma-separated JSON.
    pub bytes: Vec<u8>,
    /// The covered entries end in tool results.
    pub after_tool_result: bool,
    /// How many of the covered messages were taken from the request before.
    pub reused: usize,
}

impl<K: PartialEq> KeptPart<K> {
    /// Whether these entries are the start of `context`'s, for `model` and `key`, when
    /// its settled part ends at `end`.
    fn starts(&self, model: &Model, key: &K, context: &Arc<Context>, end: usize) -> bool {
        self.upto <= end
            && self.model == *model
            && self.key == *key
            && self.context.system_prompt == context.system_prompt
            && matches!(context.messages.get(self.upto), Some(Message::User(_)))
            && (Arc::ptr_eq(&self.context, context)
                || self.context.messages[..self.upto] == context.messages[..self.upto])
    }
}

/// One conversation's settled part within the process (one slot: the latest request's).
pub struct SettledSlot<K> {
    slot: Mutex<Option<KeptPart<K>>>,
}

impl<K> Default for SettledSlot<K> {
    fn default() -> Self {
        SettledSlot {
            slot: Mutex::new(None),
        }
    }
}

impl<K: PartialEq> SettledSlot<K> {
    /// The kept part, taken out, when it is the start of `context`'s settled part
    /// (which ends at `end`; `None`: the conversation has none).
    pub fn take_start(
        &self,
        model: &Model,
        key: &K,
        context: &Arc<Context>,
        end: Option<usize>,
    ) -> Option<KeptPart<K>> {
        let kept = self.slot.locked().take();
        kept.filter(|k| end.is_some_and(|end| k.starts(model, key, context, end)))
    }

    /// Keep `part` for the next request.
    pub fn put(&self, part: KeptPart<K>) {
        *self.slot.locked() = Some(part);
    }

    /// Drop the kept part.
    pub fn clear(&self) {
        self.slot.locked().take();
    }

    /// How many messages the kept entries cover, and how many of them the latest
    /// request took from the one before ((0, 0): none kept).
    pub fn covered(&self) -> (usize, usize) {
        self.slot
            .locked()
            .as_ref()
            .map_or((0, 0), |p| (p.upto, p.reused))
    }

    /// A request body for `context` made with the part `options.settled` gives, when
    /// there is one: `with_given` sends it as it is (then the context's messages are
    /// those after it); when it cannot, the whole conversation is made by `build`.
    /// Without a given part, `build` makes the body of `context`. The slot is left
    /// empty whenever a part was given: its entries were made for whole conversations.
    pub fn body_bytes(
        &self,
        context: &Arc<Context>,
        options: &StreamOptions,
        with_given: impl FnOnce(&SettledExchange) -> Option<Vec<u8>>,
        build: impl FnOnce(&Arc<Context>, Option<&SettledExchange>) -> Vec<u8>,
    ) -> Vec<u8> {
        let exchange = options.settled.as_deref();
        let Some(exchange) = exchange.filter(|e| e.given.is_some()) else {
            return build(context, exchange);
        };
        self.clear();
        if let Some(body) = with_given(exchange) {
            return body;
        }
        let whole = Arc::new(Context {
            system_prompt: context.system_prompt.clone(),
            messages: exchange.whole(&context.messages),
            tools: context.tools.clone(),
        });
        let body = build(&whole, Some(exchange));
        self.clear();
        body
    }
}
