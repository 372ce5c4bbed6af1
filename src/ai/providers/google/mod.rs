//! The `google-generative-ai` wire protocol (Gemini API): POST
//! `models/{id}:streamGenerateContent?alt=sse` and turn each streamed
//! `GenerateContentResponse` into message events. `google-vertex` shares the
//! stream handling ([`run_gemini`]).

pub mod auth;
pub mod gemini_cli;
pub mod request;
pub mod vertex;

use std::sync::atomic::{AtomicU64, Ordering};

use async_trait::async_trait;
use serde_json::Value;

use crate::ai::cost::apply_cost;
use crate::ai::events::MessageBuilder;
use crate::ai::http::{
    configured_headers, decode_events, header_map, join_url, post_stream, resolve_api_key,
};
use crate::ai::model::Model;
use crate::ai::providers::google::request::build_body;
use crate::ai::sse::SseEvent;
use crate::ai::stream::{ApiProvider, ProviderError, StreamRequest};
use crate::ai::types::{ContentBlock, StopReason, Usage};

/// Gemini API (`generativelanguage.googleapis.com`) over SSE.
#[derive(Default)]
pub struct GoogleGenerativeAi;

#[async_trait]
impl ApiProvider for GoogleGenerativeAi {
    fn api(&self) -> &str {
        "google-generative-ai"
    }

    async fn stream(
        &self,
        req: &StreamRequest,
        out: &mut MessageBuilder,
    ) -> Result<(), ProviderError> {
        let api_key = resolve_api_key(&req.model, &req.options)?;
        let url = join_url(
            &req.model.base_url,
            &format!("models/{}:streamGenerateContent?alt=sse", req.model.id),
        );
        run_gemini(req, out, &url, vec![("x-goog-api-key".into(), api_key)]).await
    }
}

/// POST the Gemini body for `req` to `url` with `auth` headers first, then
/// the model's and the request's headers, and stream the reply into `out`.
pub async fn run_gemini(
    req: &StreamRequest,
    out: &mut MessageBuilder,
    url: &str,
    auth: Vec<(String, String)>,
) -> Result<(), ProviderError> {
    let model = &req.model;
    let body = build_body(model, &req.context, &req.options);
    let mut ordered: Vec<(&str, &str)> =
        auth.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    ordered.extend(configured_headers(model, &req.options));
    let headers = header_map(ordered)?;
    let mut sse = post_stream(url, headers, &body, req).await?;
    out.start();
    let mut state = GeminiStreamState::new(model);
    decode_events(&mut sse, |event| state.handle(event, out).map(|_| true)).await?;
    state.finish(out)
}

/// Source of generated tool-call ids when the API sends none.
static CALL_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Turns streamed `GenerateContentResponse` chunks into [`MessageBuilder`] calls.
pub struct GeminiStreamState<'a> {
    model: &'a Model,
    finish: Option<(StopReason, String)>,
}

impl<'a> GeminiStreamState<'a> {
    /// State for one reply to `model`.
    pub fn new(model: &'a Model) -> Self {
        GeminiStreamState {
            model,
            finish: None,
        }
    }

    /// Apply one SSE event (one JSON chunk).
    pub fn handle(
        &mut self,
        sse: &SseEvent,
        out: &mut MessageBuilder,
    ) -> Result<(), ProviderError> {
        let data = sse.data.trim();
        if data.is_empty() || data == "[DONE]" {
            return Ok(());
        }
        let chunk: Value = serde_json::from_str(data).map_err(|e| {
            ProviderError::new(format!("Could not parse streaming event: {e}; data={data}"))
        })?;
        if let Some(err) = chunk.get("error") {
            let message = err["message"].as_str().unwrap_or("Unknown stream error");
            let message = match err["status"].as_str().or(err["code"].as_str()) {
                Some(status) => format!("{status}: {message}"),
                None => match err["code"].as_u64() {
                    Some(code) => format!("{code} {message}"),
                    None => message.to_string(),
                },
            };
            return Err(ProviderError::new(message));
        }
        if out.partial().response_id.is_none()
            && let Some(id) = chunk["responseId"].as_str()
        {
            out.partial_mut().response_id = Some(id.to_string());
        }
        let candidate = &chunk["candidates"][0];
        for part in candidate["content"]["parts"]
            .as_array()
            .into_iter()
            .flatten()
        {
            apply_part(part, out);
        }
        if let Some(reason) = candidate["finishReason"].as_str() {
            self.finish = Some(map_finish_reason(reason));
        }
        if chunk["usageMetadata"].is_object() {
            out.set_usage(parse_usage(&chunk["usageMetadata"], self.model));
        }
        Ok(())
    }

    /// End of body: finish with the last finish reason, or fail when none came.
    pub fn finish(self, out: &mut MessageBuilder) -> Result<(), ProviderError> {
        match self.finish {
            Some((StopReason::Error, reason)) => Err(ProviderError::new(format!(
                "Generation stopped: finishReason {reason}"
            ))),
            Some((reason, _)) => {
                out.done(reason);
                Ok(())
            }
            None => Err(ProviderError::new(
                "Stream ended before a chunk with finishReason",
            )),
        }
    }
}

/// Apply one content part: text, thought text or a function call.
fn apply_part(part: &Value, out: &mut MessageBuilder) {
    let signature = part["thoughtSignature"].as_str().filter(|s| !s.is_empty());
    if let Some(text) = part["text"].as_str() {
        let thought = part["thought"].as_bool() == Some(true);
        if thought {
            out.thinking_delta(text);
        } else {
            out.text_delta(text);
        }
        if let Some(sig) = signature {
            let last = out.partial().content.len().checked_sub(1);
            match last.and_then(|i| out.partial_mut().content.get_mut(i)) {
                Some(ContentBlock::Thinking(t)) if thought => {
                    t.thinking_signature = Some(sig.to_string())
                }
                Some(ContentBlock::Text(t)) if !thought => t.text_signature = Some(sig.to_string()),
                _ => {}
            }
        }
    }
    if let Some(call) = part.get("functionCall") {
        let name = call["name"].as_str().unwrap_or_default();
        let provided = call["id"].as_str().filter(|id| {
            !id.is_empty()
                && !out
                    .partial()
                    .tool_calls()
                    .iter()
                    .any(|c| c.id.as_str() == *id)
        });
        let id = match provided {
            Some(id) => id.to_string(),
            None => format!(
                "{name}_{}_{}",
                crate::ai::types::now_ms(),
                CALL_COUNTER.fetch_add(1, Ordering::Relaxed) + 1
            ),
        };
        let idx = out.toolcall_start(&id, name);
        let args = match &call["args"] {
            Value::Null => "{}".to_string(),
            v => v.to_string(),
        };
        out.toolcall_delta(idx, &args);
        if let (Some(sig), Some(ContentBlock::ToolCall(c))) =
            (signature, out.partial_mut().content.get_mut(idx))
        {
            c.thought_signature = Some(sig.to_string());
        }
        out.end_block_at(idx);
    }
}

/// Gemini `finishReason` to a stop reason (with the raw reason for errors).
pub fn map_finish_reason(reason: &str) -> (StopReason, String) {
    let stop = match reason {
        "STOP" => StopReason::Stop,
        "MAX_TOKENS" => StopReason::Length,
        _ => StopReason::Error,
    };
    (stop, reason.to_string())
}

/// Usage normalised to pi's categories: `input` excludes cached tokens,
/// `output` includes thought tokens.
pub fn parse_usage(raw: &Value, model: &Model) -> Usage {
    let n = |k: &str| raw[k].as_u64().unwrap_or(0);
    let cache_read = n("cachedContentTokenCount");
    let input = n("promptTokenCount").saturating_sub(cache_read);
    let output = n("candidatesTokenCount") + n("thoughtsTokenCount");
    let total = match n("totalTokenCount") {
        0 => input + output + cache_read,
        t => t,
    };
    let mut usage = Usage {
        input,
        output,
        cache_read,
        total_tokens: total,
        ..Usage::default()
    };
    apply_cost(model, &mut usage);
    usage
}
