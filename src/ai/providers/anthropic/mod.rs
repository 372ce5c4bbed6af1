//! The `anthropic-messages` wire protocol: POST `/v1/messages` with
//! `stream: true` and turn the SSE reply into message events.

pub mod request;
pub mod settled;

use std::collections::HashMap;

use async_trait::async_trait;
use serde_json::Value;

use crate::ai::cost::apply_cost;
use crate::ai::events::MessageBuilder;
use crate::ai::http::{
    RequestBody, describe_error_value, header_map, join_url, post_stream_body, resolve_api_key,
};
use crate::ai::model::Model;
use crate::ai::providers::anthropic::request::{
    base_headers, from_claude_code_name, is_oauth_token,
};
use crate::ai::providers::anthropic::settled::{SETTLED_FORMAT, SettledCache};
use crate::ai::sse::SseEvent;
use crate::ai::stream::{ApiProvider, ProviderError, StreamRequest};
use crate::ai::types::{StopReason, ToolSpec};

/// Anthropic Messages API over SSE.
#[derive(Default)]
pub struct AnthropicMessages {
    /// The latest conversation's settled part, serialised.
    settled: SettledCache,
}

#[async_trait]
impl ApiProvider for AnthropicMessages {
    fn api(&self) -> &str {
        "anthropic-messages"
    }

    fn settled_format(&self) -> Option<&'static str> {
        Some(SETTLED_FORMAT)
    }

    async fn stream(
        &self,
        req: &StreamRequest,
        out: &mut MessageBuilder,
    ) -> Result<(), ProviderError> {
        let model = &req.model;
        let api_key = resolve_api_key(model, &req.options)?;
        let oauth = is_oauth_token(&api_key);
        let body = self
            .settled
            .body_bytes(model, &req.context, &req.options, oauth);
        let body = RequestBody::Serialized(body);
        let base = super::cloudflare::auth_headers(
            model,
            base_headers(model, &req.context, &api_key),
            &api_key,
        );
        let extra = model.headers.iter().flatten().chain(&req.options.headers);
        let headers = header_map(
            base.iter()
                .map(|(k, v)| (*k, v.as_str()))
                .chain(extra.map(|(k, v)| (k.as_str(), v.as_str()))),
        )?;
        let url = join_url(&super::cloudflare::base_url(model)?, "v1/messages");
        let mut sse = post_stream_body(&url, headers, body, req).await?;
        let mut state = AnthropicStreamState::new(model, &req.context.tools, oauth);
        let mut started = false;
        while let Some(event) = sse.next_event().await? {
            // The start event carries the usage reported by `message_start`.
            let is_message_start = event.event.as_deref() == Some("message_start");
            if !started && !is_message_start {
                out.start();
                started = true;
            }
            state.handle(&event, out)?;
            if !started {
                out.start();
                started = true;
            }
        }
        if !started {
            out.start();
        }
        state.finish(out)
    }
}

/// Turns Anthropic stream events into [`MessageBuilder`] calls.
pub struct AnthropicStreamState<'a> {
    model: &'a Model,
    tools: &'a [ToolSpec],
    oauth: bool,
    /// Anthropic block index -> content index of the open block.
    blocks: HashMap<u64, usize>,
    saw_start: bool,
    saw_stop: bool,
    stop_reason: StopReason,
    refusal: Option<String>,
}

impl<'a> AnthropicStreamState<'a> {
    /// State for one reply; `tools` restore tool-name casing for OAuth requests.
    pub fn new(model: &'a Model, tools: &'a [ToolSpec], oauth: bool) -> Self {
        AnthropicStreamState {
            model,
            tools,
            oauth,
            blocks: HashMap::new(),
            saw_start: false,
            saw_stop: false,
            stop_reason: StopReason::Stop,
            refusal: None,
        }
    }

    /// Apply one SSE event.
    pub fn handle(
        &mut self,
        sse: &SseEvent,
        out: &mut MessageBuilder,
    ) -> Result<(), ProviderError> {
        let name = sse.event.as_deref().unwrap_or("");
        if name == "error" {
            return Err(ProviderError::new(describe_stream_error(&sse.data)));
        }
        if !matches!(
            name,
            "message_start"
                | "message_delta"
                | "message_stop"
                | "content_block_start"
                | "content_block_delta"
                | "content_block_stop"
        ) {
            return Ok(());
        }
        let ev: Value = serde_json::from_str(&sse.data).map_err(|e| {
            ProviderError::new(format!(
                "Could not parse Anthropic SSE event {name}: {e}; data={}",
                sse.data
            ))
        })?;
        match name {
            "message_start" => self.message_start(&ev, out),
            "content_block_start" => self.block_start(&ev, out),
            "content_block_delta" => self.block_delta(&ev, out),
            "content_block_stop" => {
                if let Some(idx) = index(&ev).and_then(|i| self.blocks.remove(&i)) {
                    out.end_block_at(idx);
                }
            }
            "message_delta" => self.message_delta(&ev, out)?,
            _ => self.saw_stop = true,
        }
        Ok(())
    }

    /// Finish after the body ended: `done`, or an error for truncated or refused replies.
    pub fn finish(self, out: &mut MessageBuilder) -> Result<(), ProviderError> {
        if self.saw_start && !self.saw_stop {
            return Err(ProviderError::new(
                "Anthropic stream ended before message_stop",
            ));
        }
        if let Some(reason) = self.refusal {
            return Err(ProviderError::new(format!(
                "The model stopped with reason: {reason}"
            )));
        }
        out.done(self.stop_reason);
        Ok(())
    }

    fn message_start(&mut self, ev: &Value, out: &mut MessageBuilder) {
        self.saw_start = true;
        let msg = &ev["message"];
        let partial = out.partial_mut();
        if let Some(id) = msg["id"].as_str() {
            partial.response_id = Some(id.to_string());
        }
        let usage = &msg["usage"];
        let u = &mut partial.usage;
        u.input = tokens(&usage["input_tokens"]).unwrap_or(0);
        u.output = tokens(&usage["output_tokens"]).unwrap_or(0);
        u.cache_read = tokens(&usage["cache_read_input_tokens"]).unwrap_or(0);
        u.cache_write = tokens(&usage["cache_creation_input_tokens"]).unwrap_or(0);
        self.update_totals(out);
    }

    fn block_start(&mut self, ev: &Value, out: &mut MessageBuilder) {
        let Some(i) = index(ev) else { return };
        let block = &ev["content_block"];
        let idx = match block["type"].as_str() {
            Some("text") => out.text_start(),
            Some("thinking") => out.thinking_start(),
            Some("redacted_thinking") => {
                out.redacted_thinking(block["data"].as_str().unwrap_or(""));
                out.partial().content.len() - 1
            }
            Some("tool_use") => {
                let raw_name = block["name"].as_str().unwrap_or("");
                let name = if self.oauth {
                    from_claude_code_name(raw_name, self.tools)
                } else {
                    raw_name.to_string()
                };
                out.toolcall_start(block["id"].as_str().unwrap_or(""), &name)
            }
            _ => return,
        };
        self.blocks.insert(i, idx);
    }

    fn block_delta(&mut self, ev: &Value, out: &mut MessageBuilder) {
        let Some(&idx) = index(ev).and_then(|i| self.blocks.get(&i)) else {
            return;
        };
        let delta = &ev["delta"];
        let text = |key: &str| delta[key].as_str().unwrap_or("");
        match delta["type"].as_str() {
            Some("text_delta") => out.text_delta(text("text")),
            Some("thinking_delta") => out.thinking_delta(text("thinking")),
            Some("signature_delta") => out.thinking_signature_delta(text("signature")),
            Some("input_json_delta") => out.toolcall_delta(idx, text("partial_json")),
            _ => {}
        }
    }

    fn message_delta(&mut self, ev: &Value, out: &mut MessageBuilder) -> Result<(), ProviderError> {
        if let Some(reason) = ev["delta"]["stop_reason"].as_str() {
            self.stop_reason = match reason {
                "end_turn" | "pause_turn" | "stop_sequence" => StopReason::Stop,
                "max_tokens" => StopReason::Length,
                "tool_use" => StopReason::ToolUse,
                "refusal" | "sensitive" => {
                    self.refusal = Some(reason.to_string());
                    StopReason::Error
                }
                other => {
                    return Err(ProviderError::new(format!(
                        "Unhandled stop reason: {other}"
                    )));
                }
            };
        }
        let usage = &ev["usage"];
        let u = &mut out.partial_mut().usage;
        if let Some(n) = tokens(&usage["input_tokens"]) {
            u.input = n;
        }
        if let Some(n) = tokens(&usage["output_tokens"]) {
            u.output = n;
        }
        if let Some(n) = tokens(&usage["cache_read_input_tokens"]) {
            u.cache_read = n;
        }
        if let Some(n) = tokens(&usage["cache_creation_input_tokens"]) {
            u.cache_write = n;
        }
        self.update_totals(out);
        Ok(())
    }

    fn update_totals(&self, out: &mut MessageBuilder) {
        let u = &mut out.partial_mut().usage;
        u.total_tokens = u.input + u.output + u.cache_read + u.cache_write;
        apply_cost(self.model, u);
    }
}

fn index(ev: &Value) -> Option<u64> {
    ev["index"].as_u64()
}

fn tokens(v: &Value) -> Option<u64> {
    v.as_u64()
}

/// Text of a mid-stream `error` event (`overloaded_error: Overloaded`).
fn describe_stream_error(data: &str) -> String {
    serde_json::from_str::<Value>(data)
        .ok()
        .and_then(|v| describe_error_value(&v))
        .unwrap_or_else(|| data.to_string())
}

#[cfg(test)]
mod tests;
