//! The settled part of a conversation, serialised once: the `messages` entries of
//! everything before the last user message are kept after a request, and the next
//! request of the same conversation sends them as they are, converting only what came
//! after them.
//!
//! Kept only while nothing before that point changed: the same model and system
//! prompt, the same earlier messages (compared in full), and a user message still at
//! the point itself. Conversations whose tool-call ids are renamed for the model, and
//! bodies with cache markers (which land near the end), are converted whole.
//!
//! The settled part may also come from an earlier process (`StreamOptions::settled`,
//! kept on disk by the agent): its entries are sent as they are and only the messages
//! after it are converted.

use std::borrow::Cow;
use std::sync::{Arc, Mutex};

use crate::ai::model::Model;
use crate::ai::providers::openai_completions::compat::OpenAiCompat;
use crate::ai::providers::openai_completions::messages::{Converted, convert_messages};
use crate::ai::providers::openai_completions::request::{
    has_tool_history, normalize_tool_call_id, wire_body,
};
use crate::ai::settled::{SettledExchange, WrittenSettled};
use crate::ai::stream::StreamOptions;
use crate::ai::transform::{renames_tool_calls, transform_borrowed};
use crate::ai::types::{Context, Message};
use crate::ai::wire_json::WireJson;

/// One conversation's serialised settled part (one slot: the latest request's).
#[derive(Default)]
pub struct PrefixCache {
    slot: Mutex<Option<Prefix>>,
}

struct Prefix {
    /// The model the entries were made for.
    model: Model,
    /// The request they were made for: its first `upto` messages are covered.
    context: Arc<Context>,
    upto: usize,
    /// The entries (the system prompt's first), comma-separated JSON.
    bytes: Vec<u8>,
    /// The covered entries end in tool results.
    after_tool_result: bool,
    /// How many of the covered messages were taken from the request before.
    reused: usize,
}

/// Where the settled part ends: the last user message (not the first message).
fn settled_end(messages: &[Message]) -> Option<usize> {
    messages
        .iter()
        .rposition(|m| matches!(m, Message::User(_)))
        .filter(|&at| at > 0)
}

impl Prefix {
    /// Whether these entries are the start of `context`'s for `model`.
    fn starts(&self, model: &Model, context: &Arc<Context>, end: usize) -> bool {
        self.upto <= end
            && self.model == *model
            && self.context.system_prompt == context.system_prompt
            && matches!(context.messages.get(self.upto), Some(Message::User(_)))
            && (Arc::ptr_eq(&self.context, context)
                || self.context.messages[..self.upto] == context.messages[..self.upto])
    }
}

impl PrefixCache {
    /// The request body for `context`: as [`super::request::body_bytes`] writes it, the
    /// settled part taken from the previous request's when it is unchanged, or from the
    /// part `options.settled` gives (then the context's messages are those after it).
    /// The settled part written is reported to `options.settled`.
    pub fn body_bytes(
        &self,
        model: &Model,
        context: &Arc<Context>,
        options: &StreamOptions,
        compat: &OpenAiCompat,
    ) -> Vec<u8> {
        let exchange = options.settled.as_deref();
        let Some(exchange) = exchange.filter(|e| e.given.is_some()) else {
            return self.build(model, context, options, compat, exchange);
        };
        // The kept entries were made for whole conversations, these messages are not one.
        crate::sync::LockExt::locked(&self.slot).take();
        if let Some(body) = with_given(model, context, options, compat, exchange) {
            return body;
        }
        let whole = Arc::new(Context {
            system_prompt: context.system_prompt.clone(),
            messages: exchange.whole(&context.messages),
            tools: context.tools.clone(),
        });
        let body = self.build(model, &whole, options, compat, Some(exchange));
        crate::sync::LockExt::locked(&self.slot).take();
        body
    }

    fn build(
        &self,
        model: &Model,
        context: &Arc<Context>,
        options: &StreamOptions,
        compat: &OpenAiCompat,
        report: Option<&SettledExchange>,
    ) -> Vec<u8> {
        let normalize = |id: &str| normalize_tool_call_id(model, id);
        let end = settled_end(&context.messages)
            .filter(|_| compat.cache_control_format.as_deref() != Some("anthropic"));
        let mut slot = crate::sync::LockExt::locked(&self.slot);
        let kept = slot.take();
        drop(slot);
        let Some(end) = end else {
            return super::request::body_bytes(model, context, options, compat);
        };
        let kept = kept.filter(|p| p.starts(model, context, end));
        let (start, mut bytes, after_tool_result) = match kept {
            Some(p) => (p.upto, p.bytes, p.after_tool_result),
            None => (0, Vec::new(), false),
        };
        // Renamed ids carry from a call to its result: such a conversation is converted
        // whole every time.
        if renames_tool_calls(&context.messages[start..end], model, &normalize) {
            return super::request::body_bytes(model, context, options, compat);
        }
        // The settled messages not yet serialised join the kept entries.
        let settled = transform_borrowed(&context.messages[start..end], model, &normalize);
        let system = context.system_prompt.as_deref().filter(|_| start == 0);
        let Converted {
            entries,
            after_tool_result,
        } = convert_messages(model, system, &settled, compat, after_tool_result);
        append_entries(&mut bytes, &entries);
        let rest = transform_borrowed(&context.messages[end..], model, &normalize);
        let tail = convert_messages(model, None, &rest, compat, after_tool_result).entries;
        let mut messages = Vec::with_capacity(tail.len() + 1);
        if !bytes.is_empty() {
            messages.push(WireJson::Raw(&bytes));
        }
        messages.extend(tail);
        let mut out = Vec::with_capacity(bytes.len() + 4096);
        wire_body(model, context, messages, options, compat, false).write_to(&mut out);
        if let Some(exchange) = report {
            exchange.set_written(WrittenSettled {
                count: end,
                bytes: bytes.clone(),
                after_tool_result,
                tool_history: has_tool_history(&context.messages[..end]),
            });
        }
        *crate::sync::LockExt::locked(&self.slot) = Some(Prefix {
            model: model.clone(),
            context: Arc::clone(context),
            upto: end,
            bytes,
            after_tool_result,
            reused: start,
        });
        out
    }

    /// How many messages the kept entries cover, and how many of them the latest
    /// request took from the one before ((0, 0): none kept).
    pub fn covered(&self) -> (usize, usize) {
        crate::sync::LockExt::locked(&self.slot)
            .as_ref()
            .map_or((0, 0), |p| (p.upto, p.reused))
    }
}

/// Entries after `bytes`, comma-separated.
fn append_entries(bytes: &mut Vec<u8>, entries: &[WireJson<'_>]) {
    for entry in entries {
        if !bytes.is_empty() {
            bytes.push(b',');
        }
        entry.write_to(bytes);
    }
}

/// The body with the given settled part sent as is, when it was written for this
/// model, system prompt and wire options and the messages after it start with a user
/// message; `None` when the whole conversation must be converted instead.
fn with_given(
    model: &Model,
    context: &Context,
    options: &StreamOptions,
    compat: &OpenAiCompat,
    exchange: &SettledExchange,
) -> Option<Vec<u8>> {
    let given = exchange.given.as_ref()?;
    let fits = given.format == super::SETTLED_FORMAT
        && given.model == *model
        && given.system_prompt == context.system_prompt
        && !given.bytes.is_empty()
        && compat.cache_control_format.as_deref() != Some("anthropic")
        && matches!(context.messages.first(), Some(Message::User(_)));
    if !fits {
        return None;
    }
    let normalize = |id: &str| normalize_tool_call_id(model, id);
    let end = context
        .messages
        .iter()
        .rposition(|m| matches!(m, Message::User(_)))?;
    if renames_tool_calls(&context.messages[..end], model, &normalize) {
        return None;
    }
    let settled = transform_borrowed(&context.messages[..end], model, &normalize);
    let Converted {
        entries,
        after_tool_result,
    } = convert_messages(model, None, &settled, compat, given.after_tool_result);
    // Copied only when it grows.
    let bytes = match entries.is_empty() {
        true => Cow::Borrowed(&given.bytes[..]),
        false => {
            let mut grown = given.bytes.clone();
            append_entries(&mut grown, &entries);
            Cow::Owned(grown)
        }
    };
    let rest = transform_borrowed(&context.messages[end..], model, &normalize);
    let tail = convert_messages(model, None, &rest, compat, after_tool_result).entries;
    let mut messages = Vec::with_capacity(tail.len() + 1);
    messages.push(WireJson::Raw(&bytes));
    messages.extend(tail);
    let mut out = Vec::with_capacity(bytes.len() + 4096);
    let body = wire_body(
        model,
        context,
        messages,
        options,
        compat,
        given.tool_history,
    );
    body.write_to(&mut out);
    if end > 0 {
        // Only a part reaching further than the given one is worth keeping.
        exchange.set_written(WrittenSettled {
            count: given.count + end,
            bytes: bytes.into_owned(),
            after_tool_result,
            tool_history: given.tool_history || has_tool_history(&context.messages[..end]),
        });
    }
    Some(out)
}

#[cfg(test)]
#[path = "prefix_tests.rs"]
mod tests;
