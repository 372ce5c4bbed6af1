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
use std::sync::Arc;

use crate::ai::model::Model;
use crate::ai::providers::openai_completions::compat::OpenAiCompat;
use crate::ai::providers::openai_completions::messages::{Converted, convert_messages};
use crate::ai::providers::openai_completions::request::{normalize_tool_call_id, wire_body};
use crate::ai::providers::settled_slot::{
    KeptPart, SettledSlot, append_entries, given_fits, has_tool_history, settled_end,
};
use crate::ai::settled::{SettledExchange, WrittenSettled};
use crate::ai::stream::StreamOptions;
use crate::ai::transform::{renames_tool_calls, transform_borrowed};
use crate::ai::types::{Context, Message};
use crate::ai::wire_json::WireJson;

/// One conversation's serialised settled part (one slot: the latest request's).
#[derive(Default)]
pub struct PrefixCache {
    slot: SettledSlot<()>,
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
        self.slot.body_bytes(
            context,
            options,
            |given| with_given(model, context, options, compat, given),
            |context, report| self.build(model, context, options, compat, report),
        )
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
        let kept = self.slot.take_start(model, &(), context, end);
        let Some(end) = end else {
            return super::request::body_bytes(model, context, options, compat);
        };
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
        append_entries(&mut bytes, entries);
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
        self.slot.put(KeptPart {
            model: model.clone(),
            key: (),
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
        self.slot.covered()
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
    let fits = given_fits(given, super::SETTLED_FORMAT, model, context)
        && compat.cache_control_format.as_deref() != Some("anthropic");
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
            append_entries(&mut grown, entries);
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
