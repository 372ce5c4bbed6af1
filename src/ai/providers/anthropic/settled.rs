//! The settled part of an Anthropic Messages conversation, serialised once: the
//! `messages` entries of everything before the last user message are kept after a
//! request, and the next request of the same conversation sends them as they are,
//! converting only the messages after them.
//!
//! The body is the one a whole conversion writes. The cache marker goes on the last
//! entry only when it is a user message, and that entry is never settled: when the
//! messages from the last user message on convert to no entry at all (a blank
//! message), the body is converted whole. Tool calls renamed for the API (their
//! results follow the new id) make a conversation convert whole every time. OAuth
//! requests spell tool names as Claude Code does: their entries are kept within the
//! process only, apart from those of API-key requests, and a part given by an earlier
//! process (always written for an API key) is not used for them.

use std::borrow::Cow;
use std::sync::Arc;

use serde_json::Value;

use crate::ai::model::Model;
use crate::ai::providers::anthropic::request::{
    body_around, build_body, cache_control, mark_last_user_message, message_entries,
    normalize_tool_call_id,
};
use crate::ai::providers::settled_slot::{
    KeptPart, SettledSlot, append_entries, given_fits, has_tool_history, settled_end,
};
use crate::ai::settled::{SettledExchange, WrittenSettled};
use crate::ai::stream::StreamOptions;
use crate::ai::transform::renames_tool_calls;
use crate::ai::types::{Context, Message};
use crate::ai::wire_json::{WireJson, WireObject};

/// The format of the settled parts this provider takes and reports (changes when the
/// entries it writes change).
pub const SETTLED_FORMAT: &str = "anthropic-messages/1";

/// One conversation's serialised settled part (one slot: the latest request's); its
/// key is whether the request authenticated with OAuth.
#[derive(Default)]
pub struct SettledCache {
    slot: SettledSlot<bool>,
}

/// The entries of the settled messages, and those after them (marked).
struct Split<'a> {
    bytes: Cow<'a, [u8]>,
    after_tool_result: bool,
    tail: Vec<Value>,
}

impl SettledCache {
    /// The request body for `context`: `build_body`'s, serialised, the settled part taken
    /// from the previous request's when it is unchanged, or from the part
    /// `options.settled` gives (then the context's messages are those after it). The
    /// settled part written is reported to `options.settled` (not for OAuth requests).
    pub fn body_bytes(
        &self,
        model: &Model,
        context: &Arc<Context>,
        options: &StreamOptions,
        oauth: bool,
    ) -> Vec<u8> {
        self.slot.body_bytes(
            context,
            options,
            |given| with_given(model, context, options, oauth, given),
            |context, report| self.build(model, context, options, oauth, report),
        )
    }

    fn build(
        &self,
        model: &Model,
        context: &Arc<Context>,
        options: &StreamOptions,
        oauth: bool,
        report: Option<&SettledExchange>,
    ) -> Vec<u8> {
        let end = settled_end(&context.messages);
        let kept = self.slot.take_start(model, &oauth, context, end);
        let Some(end) = end else {
            return whole_body(model, context, options, oauth);
        };
        let (start, bytes, after_tool_result) = match kept {
            Some(p) => (p.upto, p.bytes, p.after_tool_result),
            None => (0, Vec::new(), false),
        };
        let messages = &context.messages[start..];
        let bytes = Cow::Owned(bytes);
        let Some(split) = split(
            model,
            messages,
            end - start,
            oauth,
            bytes,
            after_tool_result,
        ) else {
            return whole_body(model, context, options, oauth);
        };
        let out = write_body(model, context, options, oauth, &split);
        if let Some(exchange) = report.filter(|_| !oauth) {
            exchange.set_written(WrittenSettled {
                count: end,
                bytes: split.bytes.to_vec(),
                after_tool_result: split.after_tool_result,
                tool_history: has_tool_history(&context.messages[..end]),
            });
        }
        self.slot.put(KeptPart {
            model: model.clone(),
            key: oauth,
            context: Arc::clone(context),
            upto: end,
            bytes: split.bytes.into_owned(),
            after_tool_result: split.after_tool_result,
            reused: start,
        });
        out
    }

    /// How many messages the kept entries cover, and how many of them the latest
    /// request took from the one before ((0, 0): none kept).
    pub fn covered(&self) -> (usize, usize) {
        self.slot.covered()
    }
}

/// The body converted whole, serialised.
fn whole_body(model: &Model, context: &Context, options: &StreamOptions, oauth: bool) -> Vec<u8> {
    serde_json::to_vec(&build_body(model, context, options, oauth)).unwrap_or_default()
}

/// `messages[..end]` converted after the entries `bytes` (which end in tool results
/// when `after_tool_result`), and the rest converted and marked; `None` when the
/// body must be converted whole instead.
fn split<'a>(
    model: &Model,
    messages: &[Message],
    end: usize,
    oauth: bool,
    mut bytes: Cow<'a, [u8]>,
    after_tool_result: bool,
) -> Option<Split<'a>> {
    // Renamed ids carry from a call to its result.
    if renames_tool_calls(&messages[..end], model, &normalize_tool_call_id) {
        return None;
    }
    let mut tail = message_entries(&messages[end..], model, oauth);
    // The marker would land on a settled entry.
    if tail.is_empty() {
        return None;
    }
    mark_last_user_message(&mut tail, &cache_control(model));
    let settled = message_entries(&messages[..end], model, oauth);
    let after_tool_result = match settled.last() {
        Some(last) => last["content"][0]["type"] == "tool_result",
        None => after_tool_result,
    };
    if !settled.is_empty() {
        append_entries(bytes.to_mut(), settled.iter().map(WireJson::Json));
    }
    Some(Split {
        bytes,
        after_tool_result,
        tail,
    })
}

/// The body around the split messages: what `build_body` writes for `context` whose
/// messages are those entries.
fn write_body(
    model: &Model,
    context: &Context,
    options: &StreamOptions,
    oauth: bool,
    split: &Split<'_>,
) -> Vec<u8> {
    let around = body_around(model, context, options, oauth, Value::Null);
    let mut messages = Vec::with_capacity(split.tail.len() + 1);
    if !split.bytes.is_empty() {
        messages.push(WireJson::Raw(&split.bytes));
    }
    messages.extend(split.tail.iter().map(WireJson::Json));
    let mut messages = Some(WireJson::Array(messages));
    let fields = around.as_object().into_iter().flatten();
    let body = WireObject::from_entries(fields.map(|(key, value)| match key.as_str() {
        "messages" => (key.as_str(), messages.take().unwrap_or(WireJson::Null)),
        _ => (key.as_str(), WireJson::Json(value)),
    }));
    let mut out = Vec::with_capacity(split.bytes.len() + 4096);
    WireJson::Object(body).write_to(&mut out);
    out
}

/// The body with the given settled part sent as is, when it was written for this
/// model and system prompt, the request is not OAuth's, and the messages after it
/// start with a user message; `None` when the whole conversation must be converted
/// instead.
fn with_given(
    model: &Model,
    context: &Context,
    options: &StreamOptions,
    oauth: bool,
    exchange: &SettledExchange,
) -> Option<Vec<u8>> {
    let given = exchange.given.as_ref()?;
    if oauth || !given_fits(given, SETTLED_FORMAT, model, context) {
        return None;
    }
    let end = context
        .messages
        .iter()
        .rposition(|m| matches!(m, Message::User(_)))?;
    let bytes = Cow::Borrowed(&given.bytes[..]);
    let messages = &context.messages;
    let split = split(model, messages, end, false, bytes, given.after_tool_result)?;
    let out = write_body(model, context, options, false, &split);
    if end > 0 {
        // Only a part reaching further than the given one is worth keeping.
        exchange.set_written(WrittenSettled {
            count: given.count + end,
            bytes: split.bytes.into_owned(),
            after_tool_result: split.after_tool_result,
            tool_history: given.tool_history || has_tool_history(&context.messages[..end]),
        });
    }
    Some(out)
}

#[cfg(test)]
#[path = "settled_tests.rs"]
mod tests;
