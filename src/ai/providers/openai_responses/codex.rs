//! The `openai-codex-responses` wire protocol: the Responses API of the
//! ChatGPT backend, used with a ChatGPT Plus/Pro (Codex) subscription login.
//! Differences from `openai-responses`: POST `<base>/codex/responses`
//! (default base `https://chatgpt.com/backend-api`), the account id from the
//! access token's JWT claim in `chatgpt-account-id`, `OpenAI-Beta:
//! responses=experimental` and `originator: pi` headers, the system prompt
//! always in `instructions`, `store: false`, no output-token cap, and the
//! encrypted reasoning content always requested. `response.done` ends a
//! response like `response.completed`.

use async_trait::async_trait;
use serde_json::{Value, json};

use crate::ai::events::MessageBuilder;
use crate::ai::http::{configured_headers, header_map, post_stream, resolve_api_key};
use crate::ai::model::Model;
use crate::ai::oauth::openai_codex::account_id;
use crate::ai::providers::openai_responses::decode_responses;
use crate::ai::providers::openai_responses::request::build_body;
use crate::ai::sse::SseEvent;
use crate::ai::stream::{ApiProvider, ProviderError, StreamOptions, StreamRequest};
use crate::ai::types::Context;

/// The ChatGPT backend's base URL.
pub const DEFAULT_BASE_URL: &str = "https://chatgpt.com/backend-api";
/// Instructions sent when the conversation has no system prompt.
const DEFAULT_INSTRUCTIONS: &str = "You are a helpful assistant.";

/// ChatGPT-backend Responses over SSE.
#[derive(Default)]
pub struct OpenAiCodexResponses;

/// The endpoint for a model's `baseUrl`: `<base>/codex/responses`, accepting
/// bases that already end in `/codex` or `/codex/responses`.
pub fn codex_url(base_url: &str) -> String {
    let base = base_url.trim();
    let base = if base.is_empty() {
        DEFAULT_BASE_URL
    } else {
        base
    };
    let base = base.trim_end_matches('/');
    if base.ends_with("/codex/responses") {
        base.to_string()
    } else if base.ends_with("/codex") {
        format!("{base}/responses")
    } else {
        format!("{base}/codex/responses")
    }
}

/// The request body: the Responses body with the backend's required fields.
pub fn build_codex_body(model: &Model, context: &Context, options: &StreamOptions) -> Value {
    let mut body = build_body(model, context, options);
    let instructions = context
        .system_prompt
        .as_deref()
        .filter(|p| !p.is_empty())
        .unwrap_or(DEFAULT_INSTRUCTIONS);
    body["instructions"] = json!(instructions);
    body["store"] = json!(false);
    body["include"] = json!(["reasoning.encrypted_content"]);
    body["text"] = json!({"verbosity": "low"});
    body["tool_choice"] = json!("auto");
    body["parallel_tool_calls"] = json!(true);
    if let Some(map) = body.as_object_mut() {
        map.remove("max_output_tokens");
    }
    if let Some(session) = &options.session_id {
        body["prompt_cache_key"] = json!(session);
    }
    body
}

/// The `User-Agent` the backend sees: `pi (<os> <arch>)`.
fn user_agent() -> String {
    format!("pi ({} {})", std::env::consts::OS, std::env::consts::ARCH)
}

/// `response.done` is the backend's name for `response.completed`.
fn normalise_event(event: SseEvent) -> SseEvent {
    let Ok(mut value) = serde_json::from_str::<Value>(event.data.trim()) else {
        return event;
    };
    if value["type"] != "response.done" {
        return event;
    }
    value["type"] = json!("response.completed");
    SseEvent {
        event: Some("response.completed".into()),
        data: value.to_string(),
    }
}

/// Adds what a usage-limit rejection means to its error message.
fn explain_limit(mut e: ProviderError) -> ProviderError {
    if e.message.contains("usage_limit_reached") || e.message.contains("usage_not_included") {
        e.message.push_str(
            "\nYou have hit your ChatGPT usage limit; wait for it to reset or pick another model.",
        );
    }
    e
}

#[async_trait]
impl ApiProvider for OpenAiCodexResponses {
    fn api(&self) -> &str {
        "openai-codex-responses"
    }

    async fn stream(
        &self,
        req: &StreamRequest,
        out: &mut MessageBuilder,
    ) -> Result<(), ProviderError> {
        let model = &req.model;
        let token = resolve_api_key(model, &req.options)?;
        let account = account_id(&token).ok_or_else(|| {
            ProviderError::new(format!(
                "The access token for {} carries no ChatGPT account id; \
                 run /login openai-codex to sign in with your ChatGPT account.",
                model.provider
            ))
        })?;
        let body = build_codex_body(model, &req.context, &req.options);
        let bearer = format!("Bearer {token}");
        let agent = user_agent();
        let mut ordered: Vec<(&str, &str)> = Vec::new();
        ordered.extend(configured_headers(model, &req.options));
        ordered.extend([
            ("authorization", bearer.as_str()),
            ("chatgpt-account-id", account.as_str()),
            ("originator", "pi"),
            ("user-agent", agent.as_str()),
            ("openai-beta", "responses=experimental"),
            ("accept", "text/event-stream"),
        ]);
        if let Some(session) = &req.options.session_id {
            ordered.push(("session_id", session.as_str()));
            ordered.push(("x-client-request-id", session.as_str()));
        }
        let headers = header_map(ordered)?;
        let mut sse = post_stream(&codex_url(&model.base_url), headers, &body, req)
            .await
            .map_err(explain_limit)?;
        decode_responses(
            &mut sse,
            model,
            out,
            normalise_event,
            "Stream ended before response.completed; the connection was cut off",
        )
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_accepts_bases_with_or_without_the_codex_path() {
        assert_eq!(
            codex_url(""),
            "https://chatgpt.com/backend-api/codex/responses"
        );
        for base in [
            "http://h/backend-api/",
            "http://h/backend-api/codex",
            "http://h/backend-api/codex/responses",
        ] {
            assert_eq!(codex_url(base), "http://h/backend-api/codex/responses");
        }
    }

    #[test]
    fn response_done_counts_as_completed() {
        let ev = normalise_event(SseEvent {
            event: None,
            data: r#"{"type":"response.done","response":{"id":"r"}}"#.into(),
        });
        let v: Value = serde_json::from_str(&ev.data).unwrap();
        assert_eq!(v["type"], "response.completed");
        assert_eq!(v["response"]["id"], "r");
    }
}
