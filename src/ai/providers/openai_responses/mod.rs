//! The `openai-responses` wire protocol: POST `/responses` with `stream: true`
//! and turn the typed SSE events into message events.

pub mod azure;
pub mod codex;
pub mod request;

use std::collections::HashMap;

use async_trait::async_trait;
use serde_json::Value;

use crate::ai::cost::apply_cost;
use crate::ai::events::MessageBuilder;
use crate::ai::http::SseBody;
use crate::ai::http::{
    configured_headers, decode_events, header_map, join_url, post_stream, resolve_api_key,
};
use crate::ai::model::Model;
use crate::ai::providers::openai_completions::request::base_headers;
use crate::ai::providers::openai_responses::request::build_body;
use crate::ai::sse::SseEvent;
use crate::ai::stream::{ApiProvider, ProviderError, StreamRequest};
use crate::ai::types::{ContentBlock, StopReason, Usage};

/// OpenAI Responses API over SSE.
#[derive(Default)]
pub struct OpenAiResponses;

#[async_trait]
impl ApiProvider for OpenAiResponses {
    fn api(&self) -> &str {
        "openai-responses"
    }

    async fn stream(
        &self,
        req: &StreamRequest,
        out: &mut MessageBuilder,
    ) -> Result<(), ProviderError> {
        let model = &req.model;
        let api_key = resolve_api_key(model, &req.options)?;
        let body = build_body(model, &req.context, &req.options);
        let base = super::cloudflare::auth_headers(model, base_headers(&api_key), &api_key);
        let mut ordered: Vec<(&str, &str)> = base.iter().map(|(k, v)| (*k, v.as_str())).collect();
        ordered.extend(configured_headers(model, &req.options));
        let headers = header_map(ordered)?;
        let url = join_url(&super::cloudflare::base_url(model)?, "responses");
        let mut sse = post_stream(&url, headers, &body, req).await?;
        decode_responses(&mut sse, model, out, |event| event, ENDED_EARLY).await
    }
}

/// The error of a stream that ends before `response.completed`.
pub const ENDED_EARLY: &str = "Stream ended before response.completed";

/// Decode a Responses stream up to its `response.completed` (each event passed through
/// `adapt` first); `ended_early` is the error when the body ends before it.
pub async fn decode_responses(
    sse: &mut SseBody,
    model: &Model,
    out: &mut MessageBuilder,
    adapt: fn(SseEvent) -> SseEvent,
    ended_early: &str,
) -> Result<(), ProviderError> {
    out.start();
    let mut state = ResponsesStreamState::new(model);
    match decode_events(sse, |event| state.handle(&adapt(event.clone()), out)).await? {
        true => Ok(()),
        false => Err(ProviderError::new(ended_early)),
    }
}

/// Turns Responses API events into [`MessageBuilder`] calls.
pub struct ResponsesStreamState<'a> {
    model: &'a Model,
    /// `output_index` -> content index.
    blocks: HashMap<u64, usize>,
}

impl<'a> ResponsesStreamState<'a> {
    /// State for one reply to `model`.
    pub fn new(model: &'a Model) -> Self {
        ResponsesStreamState {
            model,
            blocks: HashMap::new(),
        }
    }

    /// Apply one SSE event; `false` once the response finished (`done` was sent).
    pub fn handle(
        &mut self,
        sse: &SseEvent,
        out: &mut MessageBuilder,
    ) -> Result<bool, ProviderError> {
        let data = sse.data.trim();
        if data.is_empty() || data == "[DONE]" {
            return Ok(true);
        }
        let ev: Value = serde_json::from_str(data).map_err(|e| {
            ProviderError::new(format!("Could not parse streaming event: {e}; data={data}"))
        })?;
        let kind = ev["type"]
            .as_str()
            .or(sse.event.as_deref())
            .unwrap_or_default();
        let block = ev["output_index"]
            .as_u64()
            .and_then(|i| self.blocks.get(&i).copied());
        match kind {
            "response.created" => {
                if let Some(id) = ev["response"]["id"].as_str() {
                    out.partial_mut().response_id = Some(id.to_string());
                }
            }
            "response.output_item.added" => self.item_added(&ev, out),
            "response.reasoning_summary_part.added" => {
                if let Some(ContentBlock::Thinking(t)) =
                    block.and_then(|i| out.partial().content.get(i))
                    && !t.thinking.is_empty()
                {
                    out.thinking_delta("\n\n");
                }
            }
            "response.reasoning_summary_text.delta" | "response.reasoning_text.delta" => {
                out.thinking_delta(ev["delta"].as_str().unwrap_or_default());
            }
            "response.output_text.delta" | "response.refusal.delta" => {
                out.text_delta(ev["delta"].as_str().unwrap_or_default());
            }
            "response.function_call_arguments.delta" => {
                if let Some(idx) = block {
                    out.toolcall_delta(idx, ev["delta"].as_str().unwrap_or_default());
                }
            }
            "response.output_item.done" => {
                if let Some(idx) = block {
                    item_done(&ev["item"], idx, out);
                }
            }
            "response.completed" | "response.incomplete" => {
                let response = &ev["response"];
                if response["usage"].is_object() {
                    out.partial_mut().usage = parse_usage(&response["usage"], self.model);
                }
                let reason = if kind == "response.incomplete" {
                    StopReason::Length
                } else {
                    StopReason::Stop
                };
                out.done(reason);
                return Ok(false);
            }
            "response.failed" => {
                let err = &ev["response"]["error"];
                let message = err["message"]
                    .as_str()
                    .map(|m| with_code(err, m))
                    .unwrap_or_else(|| "Response failed without an error message".to_string());
                return Err(ProviderError::new(message));
            }
            "error" => {
                let message = ev["message"].as_str().unwrap_or("Unknown stream error");
                return Err(ProviderError::new(with_code(&ev, message)));
            }
            _ => {}
        }
        Ok(true)
    }

    fn item_added(&mut self, ev: &Value, out: &mut MessageBuilder) {
        let item = &ev["item"];
        let idx = match item["type"].as_str() {
            Some("reasoning") => out.thinking_start(),
            Some("message") => out.text_start(),
            Some("function_call") => {
                let id = format!(
                    "{}|{}",
                    item["call_id"].as_str().unwrap_or_default(),
                    item["id"].as_str().unwrap_or_default()
                );
                out.toolcall_start(&id, item["name"].as_str().unwrap_or_default())
            }
            _ => return,
        };
        if let Some(i) = ev["output_index"].as_u64() {
            self.blocks.insert(i, idx);
        }
    }
}

/// Finish block `idx` from its completed item.
fn item_done(item: &Value, idx: usize, out: &mut MessageBuilder) {
    match item["type"].as_str() {
        Some("reasoning") => {
            if let Some(ContentBlock::Thinking(t)) = out.partial_mut().content.get_mut(idx) {
                if t.thinking.is_empty() {
                    let parts: Vec<&str> = item["summary"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|p| p["text"].as_str())
                        .collect();
                    t.thinking = parts.join("\n\n");
                }
                // The whole item is replayed on the next turn.
                t.thinking_signature = Some(item.to_string());
            }
        }
        Some("function_call") => {
            let empty = matches!(
                out.partial().content.get(idx),
                Some(ContentBlock::ToolCall(_))
            ) && out
                .toolcall_arguments(idx)
                .as_object()
                .is_some_and(|o| o.is_empty());
            if let Some(args) = item["arguments"].as_str().filter(|_| empty) {
                out.toolcall_delta(idx, args);
            }
        }
        _ => {}
    }
    out.end_block_at(idx);
}

fn with_code(err: &Value, message: &str) -> String {
    match err["code"].as_str() {
        Some(code) if !code.is_empty() => format!("{code}: {message}"),
        _ => message.to_string(),
    }
}

/// Usage normalised to pi's categories: `input` excludes cached tokens.
pub fn parse_usage(raw: &Value, model: &Model) -> Usage {
    let n = |v: &Value| v.as_u64().unwrap_or(0);
    let cache_read = n(&raw["input_tokens_details"]["cached_tokens"]);
    let input = n(&raw["input_tokens"]).saturating_sub(cache_read);
    let output = n(&raw["output_tokens"]);
    let mut usage = Usage {
        input,
        output,
        cache_read,
        total_tokens: input + output + cache_read,
        ..Usage::default()
    };
    apply_cost(model, &mut usage);
    usage
}
