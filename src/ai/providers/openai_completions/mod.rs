//! The `openai-completions` wire protocol: POST `/chat/completions` with
//! `stream: true` and turn the SSE chunks into message events.

pub mod compat;
pub mod messages;
pub mod prefix;
pub mod request;

use std::collections::HashMap;

use async_trait::async_trait;
use serde_json::Value;

use crate::ai::cost::apply_cost;
use crate::ai::events::MessageBuilder;
use crate::ai::http::{
    RequestBody, decode_events, describe_error_value, header_map, join_url, model_headers,
    option_headers, post_stream_body, resolve_api_key,
};
use crate::ai::model::Model;
use crate::ai::providers::openai_completions::compat::OpenAiCompat;
use crate::ai::providers::openai_completions::request::{base_headers, session_headers};
use crate::ai::sse::SseEvent;
use crate::ai::stream::{ApiProvider, ProviderError, StreamRequest};
use crate::ai::types::{ContentBlock, StopReason, ThinkingContent, Usage};

/// The format of the settled parts this provider takes and reports (changes when the
/// entries it writes change).
pub const SETTLED_FORMAT: &str = "openai-completions/1";

/// OpenAI Chat Completions API over SSE.
#[derive(Default)]
pub struct OpenAiCompletions {
    /// The latest conversation's settled part, serialised.
    prefix: prefix::PrefixCache,
}

#[async_trait]
impl ApiProvider for OpenAiCompletions {
    fn api(&self) -> &str {
        "openai-completions"
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
        let compat = OpenAiCompat::for_model(model);
        let body = self
            .prefix
            .body_bytes(model, &req.context, &req.options, &compat);
        let body = RequestBody::Serialized(body);
        let base = super::cloudflare::auth_headers(model, base_headers(&api_key), &api_key);
        let session = session_headers(&compat, &req.options);
        // Order: defaults, model headers, session affinity, per-request headers.
        let mut ordered: Vec<(&str, &str)> = base.iter().map(|(k, v)| (*k, v.as_str())).collect();
        ordered.extend(model_headers(model));
        ordered.extend(session.iter().map(|(k, v)| (*k, v.as_str())));
        ordered.extend(option_headers(&req.options));
        let headers = header_map(ordered)?;
        let url = join_url(&super::cloudflare::base_url(model)?, "chat/completions");
        let mut sse = post_stream_body(&url, headers, body, req).await?;
        out.keep_blocks_open();
        out.start();
        let mut state = OpenAiStreamState::new(model);
        decode_events(&mut sse, |event| state.handle(event, out)).await?;
        state.finish(out)
    }
}

/// Turns Chat Completions chunks into [`MessageBuilder`] calls.
pub struct OpenAiStreamState<'a> {
    model: &'a Model,
    /// Stream `tool_calls[].index` -> content index.
    calls_by_index: HashMap<u64, usize>,
    /// Tool-call id -> content index.
    calls_by_id: HashMap<String, usize>,
    stop_reason: StopReason,
    error_message: Option<String>,
    /// A `finish_reason` or the `[DONE]` sentinel arrived.
    terminated: bool,
    /// Some chunk other than `[DONE]` arrived.
    received: bool,
}

impl<'a> OpenAiStreamState<'a> {
    /// State for one reply to `model`.
    pub fn new(model: &'a Model) -> Self {
        OpenAiStreamState {
            model,
            calls_by_index: HashMap::new(),
            calls_by_id: HashMap::new(),
            stop_reason: StopReason::Stop,
            error_message: None,
            terminated: false,
            received: false,
        }
    }

    /// Apply one SSE event; `false` once the `[DONE]` sentinel arrived.
    pub fn handle(
        &mut self,
        sse: &SseEvent,
        out: &mut MessageBuilder,
    ) -> Result<bool, ProviderError> {
        let data = sse.data.trim();
        if data == "[DONE]" {
            self.terminated = true;
            return Ok(false);
        }
        if sse.event.as_deref() == Some("error") {
            return Err(ProviderError::new(stream_error_text(data)));
        }
        if data.is_empty() {
            return Ok(true);
        }
        let chunk: Value = serde_json::from_str(data).map_err(|e| {
            ProviderError::new(format!("Could not parse streaming chunk: {e}; data={data}"))
        })?;
        if let Some(err) = chunk.get("error").filter(|e| !e.is_null()) {
            let text = describe_error_value(&serde_json::json!({ "error": err }))
                .unwrap_or_else(|| err.to_string());
            return Err(ProviderError::new(text));
        }
        self.received = true;
        self.apply_chunk(&chunk, out);
        Ok(true)
    }

    /// Finish after the body ended: `done`, or an error for error finish
    /// reasons and for a body cut off before any `finish_reason` or `[DONE]`.
    pub fn finish(self, out: &mut MessageBuilder) -> Result<(), ProviderError> {
        if !self.terminated {
            return Err(ProviderError::new(
                "The response stream ended before a finish_reason or [DONE]; \
                 the connection was cut off. Partial output was kept; retry the request.",
            ));
        }
        if !self.received {
            return Err(ProviderError::new(crate::t!(
                "pi.ai.stream_empty",
                provider = self.model.provider.as_str()
            )));
        }
        if self.stop_reason == StopReason::Error {
            return Err(ProviderError::new(self.error_message.unwrap_or_else(
                || "Provider returned an error stop reason".to_string(),
            )));
        }
        out.done(self.stop_reason);
        Ok(())
    }

    fn apply_chunk(&mut self, chunk: &Value, out: &mut MessageBuilder) {
        // Only real changes go through `partial_mut`: a change makes the next
        // delta carry the whole message.
        if out.partial().response_id.is_none()
            && let Some(id) = chunk["id"].as_str().filter(|s| !s.is_empty())
        {
            out.partial_mut().response_id = Some(id.to_string());
        }
        if out.partial().response_model.is_none()
            && let Some(m) = chunk["model"].as_str()
            && !m.is_empty()
            && m != self.model.id
        {
            out.partial_mut().response_model = Some(m.to_string());
        }
        if chunk["usage"].is_object() {
            out.set_usage(parse_usage(&chunk["usage"], self.model));
        }
        let Some(choice) = chunk["choices"].get(0) else {
            return;
        };
        if !chunk["usage"].is_object() && choice["usage"].is_object() {
            out.set_usage(parse_usage(&choice["usage"], self.model));
        }
        if let Some(reason) = choice["finish_reason"].as_str() {
            self.terminated = true;
            let (stop, error) = map_finish_reason(reason);
            self.stop_reason = stop;
            if error.is_some() {
                self.error_message = error;
            }
        }
        let delta = &choice["delta"];
        if !delta.is_object() {
            return;
        }
        if let Some(text) = delta["content"].as_str() {
            out.text_delta(text);
        }
        self.apply_reasoning(delta, out);
        if let Some(calls) = delta["tool_calls"].as_array() {
            for call in calls {
                self.apply_tool_call(call, out);
            }
        }
        if let Some(details) = delta["reasoning_details"].as_array() {
            for detail in details {
                attach_reasoning_detail(detail, out);
            }
        }
    }

    fn apply_reasoning(&mut self, delta: &Value, out: &mut MessageBuilder) {
        let Some((field, text)) = ["reasoning_content", "reasoning", "reasoning_text"]
            .into_iter()
            .find_map(|f| delta[f].as_str().filter(|s| !s.is_empty()).map(|s| (f, s)))
        else {
            return;
        };
        let before = out.partial().content.len();
        out.thinking_delta(text);
        // A new thinking block remembers which field carried it, for replay.
        if out.partial().content.len() > before
            && let Some(ContentBlock::Thinking(ThinkingContent {
                thinking_signature, ..
            })) = out.partial_mut().content.last_mut()
        {
            *thinking_signature = Some(field.to_string());
        }
    }

    fn apply_tool_call(&mut self, call: &Value, out: &mut MessageBuilder) {
        let stream_index = call["index"].as_u64();
        let id = call["id"].as_str().filter(|s| !s.is_empty());
        let name = call["function"]["name"].as_str().filter(|s| !s.is_empty());
        // A call with a stream index is found by it alone: two calls that
        // (wrongly) share an id stay two calls, and the agent reports the second.
        let known = match stream_index {
            Some(i) => self.calls_by_index.get(&i),
            None => id.and_then(|id| self.calls_by_id.get(id)),
        }
        .copied();
        let idx = match known {
            Some(idx) => {
                if let Some(ContentBlock::ToolCall(c)) = out.partial().content.get(idx) {
                    let set_id = id.filter(|_| c.id.is_empty());
                    let set_name = name.filter(|_| c.name.is_empty());
                    out.toolcall_patch(idx, set_id, set_name);
                }
                idx
            }
            None => out.toolcall_start(id.unwrap_or(""), name.unwrap_or("")),
        };
        if let Some(i) = stream_index {
            self.calls_by_index.entry(i).or_insert(idx);
        }
        if let Some(id) = id {
            self.calls_by_id.insert(id.to_string(), idx);
        }
        if let Some(args) = call["function"]["arguments"].as_str() {
            out.toolcall_delta(idx, args);
        }
    }
}

/// OpenRouter's encrypted reasoning for a tool call, kept as its signature.
fn attach_reasoning_detail(detail: &Value, out: &mut MessageBuilder) {
    if detail["type"] != "reasoning.encrypted" || detail["data"].is_null() {
        return;
    }
    let Some(id) = detail["id"].as_str() else {
        return;
    };
    for block in &mut out.partial_mut().content {
        if let ContentBlock::ToolCall(c) = block
            && c.id == id
        {
            c.thought_signature = Some(detail.to_string());
            return;
        }
    }
}

/// Usage normalised to pi's categories: `input` excludes cache reads and writes.
pub fn parse_usage(raw: &Value, model: &Model) -> Usage {
    let n = |v: &Value| v.as_u64().unwrap_or(0);
    let prompt = n(&raw["prompt_tokens"]);
    let cached = raw["prompt_tokens_details"]["cached_tokens"]
        .as_u64()
        .or_else(|| raw["prompt_cache_hit_tokens"].as_u64())
        .unwrap_or(0);
    let cache_write = n(&raw["prompt_tokens_details"]["cache_write_tokens"]);
    // Some gateways count this request's cache writes inside `cached_tokens`.
    let cache_read = if cache_write > 0 {
        cached.saturating_sub(cache_write)
    } else {
        cached
    };
    let input = prompt.saturating_sub(cache_read + cache_write);
    let output = n(&raw["completion_tokens"]);
    let mut usage = Usage {
        input,
        output,
        cache_read,
        cache_write,
        total_tokens: input + output + cache_read + cache_write,
        ..Usage::default()
    };
    apply_cost(model, &mut usage);
    usage
}

/// Map `finish_reason` to a stop reason, with an error text for failures.
pub fn map_finish_reason(reason: &str) -> (StopReason, Option<String>) {
    match reason {
        "stop" | "end" => (StopReason::Stop, None),
        "length" => (StopReason::Length, None),
        "function_call" | "tool_calls" => (StopReason::ToolUse, None),
        other => (
            StopReason::Error,
            Some(format!("Provider finish_reason: {other}")),
        ),
    }
}

fn stream_error_text(data: &str) -> String {
    serde_json::from_str::<Value>(data)
        .ok()
        .and_then(|v| describe_error_value(&v))
        .unwrap_or_else(|| data.to_string())
}

#[cfg(test)]
mod tests;
