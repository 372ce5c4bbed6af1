//! The `mistral-conversations` wire protocol: Mistral's chat completions
//! (`POST /v1/chat/completions`, `stream: true`), whose deltas carry either a
//! string or typed chunks (`text`, `thinking`) plus complete tool calls.

pub mod request;

use std::collections::HashMap;

use async_trait::async_trait;
use serde_json::Value;

use crate::ai::cost::apply_cost;
use crate::ai::events::MessageBuilder;
use crate::ai::http::{
    configured_headers, decode_events, describe_error_value, header_map, join_url, post_stream,
    resolve_api_key,
};
use crate::ai::model::Model;
use crate::ai::providers::mistral::request::{build_body, derive_call_id};
use crate::ai::sse::SseEvent;
use crate::ai::stream::{ApiProvider, ProviderError, StreamRequest};
use crate::ai::types::{StopReason, Usage};

/// Mistral chat completions over SSE.
#[derive(Default)]
pub struct MistralConversations;

#[async_trait]
impl ApiProvider for MistralConversations {
    fn api(&self) -> &str {
        "mistral-conversations"
    }

    async fn stream(
        &self,
        req: &StreamRequest,
        out: &mut MessageBuilder,
    ) -> Result<(), ProviderError> {
        let model = &req.model;
        let api_key = resolve_api_key(model, &req.options)?;
        let body = build_body(model, &req.context, &req.options);
        let bearer = format!("Bearer {api_key}");
        let mut ordered: Vec<(&str, &str)> = vec![
            ("authorization", bearer.as_str()),
            ("accept", "text/event-stream"),
        ];
        ordered.extend(configured_headers(model, &req.options));
        let affinity_set = ordered
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("x-affinity"));
        if let (Some(session), false) = (&req.options.session_id, affinity_set) {
            ordered.push(("x-affinity", session.as_str()));
        }
        let headers = header_map(ordered)?;
        let url = join_url(&model.base_url, "v1/chat/completions");
        let mut sse = post_stream(&url, headers, &body, req).await?;
        out.start();
        let mut state = MistralStreamState::new(model);
        decode_events(&mut sse, |event| state.handle(event, out)).await?;
        state.finish(out)
    }
}

/// Turns Mistral chunks into [`MessageBuilder`] calls.
pub struct MistralStreamState<'a> {
    model: &'a Model,
    /// `id:index` of a streamed tool call -> content index.
    calls: HashMap<String, usize>,
    finish: Option<StopReason>,
}

impl<'a> MistralStreamState<'a> {
    /// State for one reply to `model`.
    pub fn new(model: &'a Model) -> Self {
        MistralStreamState {
            model,
            calls: HashMap::new(),
            finish: None,
        }
    }

    /// Apply one SSE event; `false` after `[DONE]`.
    pub fn handle(
        &mut self,
        sse: &SseEvent,
        out: &mut MessageBuilder,
    ) -> Result<bool, ProviderError> {
        let data = sse.data.trim();
        if data == "[DONE]" {
            return Ok(false);
        }
        if data.is_empty() {
            return Ok(true);
        }
        let chunk: Value = serde_json::from_str(data).map_err(|e| {
            ProviderError::new(format!("Could not parse streaming event: {e}; data={data}"))
        })?;
        if chunk.get("error").is_some() || chunk["object"] == "error" {
            let message = describe_error_value(&chunk).unwrap_or_else(|| data.to_string());
            return Err(ProviderError::new(message));
        }
        if out.partial().response_id.is_none()
            && let Some(id) = chunk["id"].as_str()
        {
            out.partial_mut().response_id = Some(id.to_string());
        }
        if chunk["usage"].is_object() {
            out.set_usage(parse_usage(&chunk["usage"], self.model));
        }
        let Some(choice) = chunk["choices"].get(0) else {
            return Ok(true);
        };
        if let Some(reason) = choice["finish_reason"].as_str() {
            self.finish = Some(map_finish_reason(reason));
        }
        let delta = &choice["delta"];
        match &delta["content"] {
            Value::String(s) => out.text_delta(s),
            Value::Array(items) => {
                for item in items {
                    match item["type"].as_str() {
                        Some("thinking") => {
                            let text: String = item["thinking"]
                                .as_array()
                                .into_iter()
                                .flatten()
                                .filter_map(|p| p["text"].as_str())
                                .collect();
                            out.thinking_delta(&text);
                        }
                        Some("text") => out.text_delta(item["text"].as_str().unwrap_or_default()),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        for call in delta["tool_calls"].as_array().into_iter().flatten() {
            let index = call["index"].as_u64().unwrap_or(0);
            let id = match call["id"].as_str() {
                Some(id) if !id.is_empty() && id != "null" => id.to_string(),
                _ => derive_call_id(&format!("toolcall:{index}"), 0),
            };
            let key = format!("{id}:{index}");
            let idx = match self.calls.get(&key) {
                Some(i) => *i,
                None => {
                    let i = out
                        .toolcall_start(&id, call["function"]["name"].as_str().unwrap_or_default());
                    self.calls.insert(key, i);
                    i
                }
            };
            let args = match &call["function"]["arguments"] {
                Value::String(s) => s.clone(),
                Value::Null => String::new(),
                other => other.to_string(),
            };
            out.toolcall_delta(idx, &args);
        }
        Ok(true)
    }

    /// End of stream: finish with the reported reason, or fail when none came.
    pub fn finish(self, out: &mut MessageBuilder) -> Result<(), ProviderError> {
        match self.finish {
            Some(StopReason::Error) => {
                Err(ProviderError::new("Mistral reported finish_reason error"))
            }
            Some(reason) => {
                out.done(reason);
                Ok(())
            }
            None => Err(ProviderError::new("Stream ended without a finish_reason")),
        }
    }
}

/// Mistral `finish_reason` to a stop reason.
pub fn map_finish_reason(reason: &str) -> StopReason {
    match reason {
        "length" | "model_length" => StopReason::Length,
        "tool_calls" => StopReason::ToolUse,
        "error" => StopReason::Error,
        _ => StopReason::Stop,
    }
}

/// Usage from `prompt_tokens` / `completion_tokens` (Mistral reports no cache).
pub fn parse_usage(raw: &Value, model: &Model) -> Usage {
    let input = raw["prompt_tokens"].as_u64().unwrap_or(0);
    let output = raw["completion_tokens"].as_u64().unwrap_or(0);
    let mut usage = Usage {
        input,
        output,
        total_tokens: raw["total_tokens"].as_u64().unwrap_or(input + output),
        ..Usage::default()
    };
    apply_cost(model, &mut usage);
    usage
}
