//! The `google-gemini-cli` wire protocol: Gemini through Google Cloud Code
//! Assist, used with a Google login (`/login google-gemini-cli`). POST
//! `<base>/v1internal:streamGenerateContent?alt=sse` with the Gemini request
//! wrapped as `{project, model, request, userAgent, requestId}`; every
//! streamed chunk wraps a Gemini response as `{"response": ...}`. The key is
//! the JSON `{"token", "projectId"}` the login provides.

use async_trait::async_trait;
use serde_json::{Value, json};

use super::events::MessageBuilder;
use super::google::GeminiStreamState;
use super::google_request::build_body;
use super::http::{header_map, post_sse_with_hooks};
use super::oauth::google_gemini_cli::{CODE_ASSIST_URL, code_assist_headers};
use super::sse::SseEvent;
use super::stream::{ApiProvider, ProviderError, StreamRequest};

/// Cloud Code Assist over SSE.
#[derive(Default)]
pub struct GoogleGeminiCli;

/// Access token and project from the key; an error asking for `/login`.
pub fn parse_key(key: Option<&str>) -> Result<(String, String), ProviderError> {
    let login = "run /login google-gemini-cli to sign in with your Google account";
    let key = key.filter(|k| !k.is_empty()).ok_or_else(|| {
        ProviderError::new(format!("Google Cloud Code Assist needs a login: {login}."))
    })?;
    let parsed: Value = serde_json::from_str(key).map_err(|_| {
        ProviderError::new(format!(
            "Google Cloud Code Assist takes a login, not an API key: {login}."
        ))
    })?;
    match (parsed["token"].as_str(), parsed["projectId"].as_str()) {
        (Some(token), Some(project)) if !token.is_empty() && !project.is_empty() => {
            Ok((token.to_string(), project.to_string()))
        }
        _ => Err(ProviderError::new(format!(
            "The Google login has no access token or Cloud project; {login} again."
        ))),
    }
}

/// A chunk's Gemini response, unwrapped from `{"response": ...}`.
fn unwrap_chunk(event: SseEvent) -> SseEvent {
    match serde_json::from_str::<Value>(event.data.trim()) {
        Ok(mut v) if v.get("response").is_some_and(Value::is_object) => SseEvent {
            event: event.event,
            data: v["response"].take().to_string(),
        },
        _ => event,
    }
}

#[async_trait]
impl ApiProvider for GoogleGeminiCli {
    fn api(&self) -> &str {
        "google-gemini-cli"
    }

    async fn stream(
        &self,
        req: &StreamRequest,
        out: &mut MessageBuilder,
    ) -> Result<(), ProviderError> {
        let model = &req.model;
        let (token, project) = parse_key(req.options.api_key.as_deref())?;
        let request_id = format!("pi-{}", uuid::Uuid::new_v4().simple());
        let mut request = build_body(model, &req.context, &req.options);
        if let Some(session) = &req.options.session_id {
            request["sessionId"] = json!(session);
        }
        let body = json!({
            "project": project, "model": model.id, "request": request,
            "userAgent": "pi-coding-agent", "requestId": request_id,
        });
        let auth = code_assist_headers(&token);
        let mut ordered: Vec<(&str, &str)> = auth.iter().map(|(k, v)| (*k, v.as_str())).collect();
        ordered.push(("accept", "text/event-stream"));
        ordered.extend(
            model
                .headers
                .iter()
                .flatten()
                .map(|(k, v)| (k.as_str(), v.as_str())),
        );
        ordered.extend(
            req.options
                .headers
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str())),
        );
        let headers = header_map(ordered)?;
        let base = match model.base_url.trim() {
            "" => CODE_ASSIST_URL,
            b => b,
        };
        let url = format!(
            "{}/v1internal:streamGenerateContent?alt=sse",
            base.trim_end_matches('/')
        );
        let mut sse = post_sse_with_hooks(
            &url,
            headers,
            &body,
            &model.provider,
            req.options.hooks.as_ref(),
        )
        .await?;
        out.start();
        let mut state = GeminiStreamState::new(model);
        while let Some(event) = sse.next_event().await? {
            state.handle(&unwrap_chunk(event), out)?;
        }
        state.finish(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_must_be_a_login() {
        let (t, p) = parse_key(Some(r#"{"token":"ya29","projectId":"proj-1"}"#)).unwrap();
        assert_eq!((t.as_str(), p.as_str()), ("ya29", "proj-1"));
        for bad in [None, Some("AIza-plain-key"), Some(r#"{"token":"x"}"#)] {
            let e = parse_key(bad).unwrap_err().message;
            assert!(e.contains("/login google-gemini-cli"), "{e}");
        }
    }

    #[test]
    fn chunks_are_unwrapped() {
        let e = unwrap_chunk(SseEvent {
            event: None,
            data: r#"{"response":{"candidates":[]},"traceId":"t"}"#.into(),
        });
        assert_eq!(e.data, r#"{"candidates":[]}"#);
    }
}
