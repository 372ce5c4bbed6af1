//! Decoded ConverseStream events (`messageStart`, `contentBlockStart`,
//! `contentBlockDelta`, `contentBlockStop`, `messageStop`, `metadata`, and
//! exceptions) turned into [`MessageBuilder`] calls.

use std::collections::HashMap;

use aws_smithy_types::event_stream::{HeaderValue, Message};
use serde_json::Value;

use crate::ai::cost::apply_cost;
use crate::ai::events::MessageBuilder;
use crate::ai::model::Model;
use crate::ai::stream::ProviderError;
use crate::ai::types::{StopReason, Usage};

/// A string header of an event-stream message.
pub fn header_str<'m>(message: &'m Message, name: &str) -> Option<&'m str> {
    message
        .headers()
        .iter()
        .find(|h| h.name().as_str() == name)
        .and_then(|h| match h.value() {
            HeaderValue::String(s) => Some(s.as_str()),
            _ => None,
        })
}

/// State of one ConverseStream reply.
pub struct ConverseStreamState<'a> {
    model: &'a Model,
    /// `contentBlockIndex` -> content index.
    blocks: HashMap<u64, usize>,
    stop: Option<(StopReason, String)>,
    events: usize,
}

impl<'a> ConverseStreamState<'a> {
    /// State for one reply to `model`.
    pub fn new(model: &'a Model) -> Self {
        ConverseStreamState {
            model,
            blocks: HashMap::new(),
            stop: None,
            events: 0,
        }
    }

    /// True before the first event arrived.
    pub fn is_fresh(&self) -> bool {
        self.events == 0
    }

    /// Apply one decoded frame.
    pub fn handle(
        &mut self,
        message: &Message,
        out: &mut MessageBuilder,
    ) -> Result<(), ProviderError> {
        self.events += 1;
        let payload: Value = serde_json::from_slice(message.payload()).unwrap_or(Value::Null);
        match header_str(message, ":message-type") {
            Some("exception") => {
                let kind = header_str(message, ":exception-type").unwrap_or("exception");
                let text = payload["message"]
                    .as_str()
                    .or(payload["Message"].as_str())
                    .unwrap_or("(no message)");
                return Err(ProviderError::new(format!("{kind}: {text}")));
            }
            Some("error") => {
                let code = header_str(message, ":error-code").unwrap_or("error");
                let text = header_str(message, ":error-message").unwrap_or("(no message)");
                return Err(ProviderError::new(format!("{code}: {text}")));
            }
            _ => {}
        }
        let index = payload["contentBlockIndex"].as_u64().unwrap_or(0);
        match header_str(message, ":event-type").unwrap_or_default() {
            "contentBlockStart" => {
                let tool = &payload["start"]["toolUse"];
                if tool.is_object() {
                    let idx = out.toolcall_start(
                        tool["toolUseId"].as_str().unwrap_or_default(),
                        tool["name"].as_str().unwrap_or_default(),
                    );
                    self.blocks.insert(index, idx);
                }
            }
            "contentBlockDelta" => self.delta(index, &payload["delta"], out),
            "contentBlockStop" => {
                if let Some(idx) = self.blocks.remove(&index) {
                    out.end_block_at(idx);
                }
            }
            "messageStop" => {
                let reason = payload["stopReason"].as_str().unwrap_or_default();
                self.stop = Some((map_stop_reason(reason), reason.to_string()));
            }
            "metadata" if payload["usage"].is_object() => {
                out.partial_mut().usage = parse_usage(&payload["usage"], self.model);
            }
            _ => {}
        }
        Ok(())
    }

    fn delta(&mut self, index: u64, delta: &Value, out: &mut MessageBuilder) {
        if let Some(text) = delta["text"].as_str() {
            out.text_delta(text);
            self.track(index, out);
        } else if let Some(reasoning) = delta.get("reasoningContent") {
            if let Some(text) = reasoning["text"].as_str() {
                out.thinking_delta(text);
                self.track(index, out);
            }
            if let Some(sig) = reasoning["signature"].as_str() {
                out.thinking_signature_delta(sig);
            }
            if let Some(data) = reasoning["redactedContent"].as_str() {
                out.redacted_thinking(data);
            }
        } else if let Some(input) = delta["toolUse"]["input"].as_str()
            && let Some(idx) = self.blocks.get(&index)
        {
            out.toolcall_delta(*idx, input);
        }
    }

    /// Remember which content block a text or thinking delta landed in.
    fn track(&mut self, index: u64, out: &MessageBuilder) {
        if let Some(last) = out.partial().content.len().checked_sub(1) {
            self.blocks.insert(index, last);
        }
    }

    /// End of stream: finish with the stop reason, or fail when none came.
    pub fn finish(self, out: &mut MessageBuilder) -> Result<(), ProviderError> {
        match self.stop {
            Some((StopReason::Error, raw)) => Err(ProviderError::new(format!(
                "Bedrock stopped the reply: stopReason {raw}"
            ))),
            Some((reason, _)) => {
                out.done(reason);
                Ok(())
            }
            None => Err(ProviderError::new("Stream ended before messageStop")),
        }
    }
}

/// Converse `stopReason` to a stop reason.
pub fn map_stop_reason(reason: &str) -> StopReason {
    match reason {
        "end_turn" | "stop_sequence" => StopReason::Stop,
        "max_tokens" | "model_context_window_exceeded" => StopReason::Length,
        "tool_use" => StopReason::ToolUse,
        _ => StopReason::Error,
    }
}

/// Usage including prompt-cache reads and writes.
pub fn parse_usage(raw: &Value, model: &Model) -> Usage {
    let n = |k: &str| raw[k].as_u64().unwrap_or(0);
    let (input, output) = (n("inputTokens"), n("outputTokens"));
    let (cache_read, cache_write) = (n("cacheReadInputTokens"), n("cacheWriteInputTokens"));
    let total = match n("totalTokens") {
        0 => input + output + cache_read + cache_write,
        t => t,
    };
    let mut usage = Usage {
        input,
        output,
        cache_read,
        cache_write,
        total_tokens: total,
        ..Usage::default()
    };
    apply_cost(model, &mut usage);
    usage
}
