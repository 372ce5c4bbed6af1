//! The `google-gemini-cli` wire protocol: Gemini through Google Cloud Code
//! Assist, used with a Google login (`/login google-gemini-cli`). POST
//! `<base>/v1internal:streamGenerateContent?alt=sse` with the Gemini request
//! wrapped as `{project, model, request, userAgent, requestId}`; every
//! streamed chunk wraps a Gemini response as `{"response": ...}`. The key is
//! the JSON `{"token", "projectId"}` the login provides. The same protocol
//! serves `google-antigravity` (`/login google-antigravity`) with
//! Antigravity's endpoint, User-Agent and request markers. A stream that
//! ends without content or error is asked for again (twice at most).
//! Antigravity without a `baseUrl` tries its endpoints in turn while they
//! answer 403 or 404.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use serde_json::{Value, json};

use crate::ai::events::MessageBuilder;
use crate::ai::http::{SseBody, configured_headers, header_map, post_sse_with_hooks};
use crate::ai::model::Model;
use crate::ai::oauth::google_antigravity::{AUTOPUSH_URL, SANDBOX_URL, request_headers};
use crate::ai::oauth::google_gemini_cli::{CODE_ASSIST_URL, code_assist_headers};
use crate::ai::providers::google::GeminiStreamState;
use crate::ai::providers::google::request::build_body;
use crate::ai::sse::SseEvent;
use crate::ai::stream::{ApiProvider, ProviderError, RequestHooks, StreamRequest};

/// Provider id of Antigravity logins.
pub const ANTIGRAVITY: &str = "google-antigravity";
/// Further requests after a stream that ended with nothing in it.
const EMPTY_STREAM_RETRIES: u32 = 2;
/// Pause before the first of those; doubled for each one after.
const EMPTY_STREAM_DELAY: Duration = Duration::from_millis(500);
/// Beta flag Claude thinking models need behind Cloud Code Assist.
const CLAUDE_THINKING_BETA: &str = "interleaved-thinking-2025-05-14";
/// System text Antigravity requests start with.
const ANTIGRAVITY_SYSTEM: &str = "You are Antigravity, a powerful agentic AI coding assistant \
designed by the Google Deepmind team working on Advanced Agentic Coding.You are pair programming \
with a USER to solve their coding task. The task may require creating a new codebase, modifying or \
debugging an existing codebase, or simply answering a question.**Absolute paths only****Proactiveness**";

/// Antigravity's Code Assist endpoints in the order they are tried.
const ANTIGRAVITY_ENDPOINTS: [&str; 3] = [SANDBOX_URL, AUTOPUSH_URL, CODE_ASSIST_URL];

/// Cloud Code Assist over SSE.
#[derive(Default)]
pub struct GoogleGeminiCli;

/// Access token and project from the key; an error asking for `/login <provider>`.
pub fn parse_key(key: Option<&str>, provider: &str) -> Result<(String, String), ProviderError> {
    let provider = if provider == ANTIGRAVITY {
        ANTIGRAVITY
    } else {
        "google-gemini-cli"
    };
    let login = format!("run /login {provider} to sign in with your Google account");
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

/// The Cloud Code Assist request around the Gemini request `request`.
fn wrap_request(model: &Model, project: &str, mut request: Value) -> Value {
    let antigravity = model.provider == ANTIGRAVITY;
    if model.id.starts_with("claude-") {
        // Claude behind Code Assist takes the older `parameters` schema field.
        for tool in request["tools"].as_array_mut().into_iter().flatten() {
            for decl in tool["functionDeclarations"]
                .as_array_mut()
                .into_iter()
                .flatten()
            {
                if let Some(schema) = decl
                    .as_object_mut()
                    .and_then(|d| d.remove("parametersJsonSchema"))
                {
                    decl["parameters"] = schema;
                }
            }
        }
    }
    if !antigravity {
        let request_id = format!("pi-{}", uuid::Uuid::new_v4().simple());
        return json!({
            "project": project, "model": model.id, "request": request,
            "userAgent": "pi-coding-agent", "requestId": request_id,
        });
    }
    let mut parts = vec![
        json!({"text": ANTIGRAVITY_SYSTEM}),
        json!({"text": format!("Please ignore following [ignore]{ANTIGRAVITY_SYSTEM}[/ignore]")}),
    ];
    parts.extend(
        request["systemInstruction"]["parts"]
            .as_array()
            .into_iter()
            .flatten()
            .cloned(),
    );
    request["systemInstruction"] = json!({"role": "user", "parts": parts});
    let request_id = format!("agent-{}", uuid::Uuid::new_v4().simple());
    json!({
        "project": project, "model": model.id, "request": request, "requestType": "agent",
        "userAgent": "antigravity", "requestId": request_id,
    })
}

/// The login's headers: Gemini CLI's, or Antigravity's User-Agent.
fn login_headers(model: &Model, token: &str) -> Vec<(&'static str, String)> {
    if model.provider != ANTIGRAVITY {
        return code_assist_headers(token);
    }
    let mut headers = request_headers(token);
    if model.id.starts_with("claude-") && model.reasoning {
        headers.push(("anthropic-beta", CLAUDE_THINKING_BETA.into()));
    }
    headers
}

/// Hooks that see every response but not the body again (it was already
/// replaced once before the first request).
struct ResponsesOnly(Arc<dyn RequestHooks>);

#[async_trait]
impl RequestHooks for ResponsesOnly {
    async fn before_request(&self, payload: Value) -> Value {
        payload
    }
    async fn after_response(&self, status: u16, headers: BTreeMap<String, String>) {
        self.0.after_response(status, headers).await;
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
        let (token, project) = parse_key(req.options.api_key.as_deref(), &model.provider)?;
        let mut request = build_body(model, &req.context, &req.options);
        if let Some(session) = &req.options.session_id {
            request["sessionId"] = json!(session);
        }
        let mut body = wrap_request(model, &project, request);
        let auth = login_headers(model, &token);
        let mut ordered: Vec<(&str, &str)> = auth.iter().map(|(k, v)| (*k, v.as_str())).collect();
        ordered.push(("accept", "text/event-stream"));
        ordered.extend(configured_headers(model, &req.options));
        let headers = header_map(ordered)?;
        let bases: Vec<&str> = match model.base_url.trim() {
            "" if model.provider == ANTIGRAVITY => ANTIGRAVITY_ENDPOINTS.to_vec(),
            "" => vec![CODE_ASSIST_URL],
            b => vec![b],
        };
        let hooks: Option<Arc<dyn RequestHooks>> = match &req.options.hooks {
            Some(h) => {
                body = h.before_request(body).await;
                Some(Arc::new(ResponsesOnly(h.clone())))
            }
            None => None,
        };
        let open = |base: &str| {
            let url = format!(
                "{}/v1internal:streamGenerateContent?alt=sse",
                base.trim_end_matches('/')
            );
            let (headers, body, hooks) = (headers.clone(), &body, hooks.as_ref());
            async move { post_sse_with_hooks(&url, headers, body, &model.provider, hooks).await }
        };
        let (base, mut sse) = open_first(&bases, open).await?;
        out.start();
        for retry in 1..=EMPTY_STREAM_RETRIES + 1 {
            if let Some(state) = read_stream(model, &mut sse, out).await? {
                return state.finish(out);
            }
            if retry > EMPTY_STREAM_RETRIES {
                break;
            }
            out.partial_mut().usage = Default::default();
            out.partial_mut().response_id = None;
            tokio::time::sleep(EMPTY_STREAM_DELAY * 2u32.pow(retry - 1)).await;
            sse = open(base).await?;
        }
        Err(ProviderError::new(
            "Cloud Code Assist API returned an empty response",
        ))
    }
}

/// The first endpoint of `bases` that accepts the request, with its stream;
/// an endpoint answering 403 or 404 hands over to the next one, and the last
/// one's error is returned.
async fn open_first<'b, T, F, Fut>(
    bases: &[&'b str],
    open: F,
) -> Result<(&'b str, T), ProviderError>
where
    F: Fn(&'b str) -> Fut,
    Fut: Future<Output = Result<T, ProviderError>>,
{
    let mut last = ProviderError::new("no Cloud Code Assist endpoint to try");
    for (i, base) in bases.iter().enumerate() {
        match open(base).await {
            Ok(stream) => return Ok((base, stream)),
            Err(e) if i + 1 < bases.len() && refused(&e) => last = e,
            Err(e) => return Err(e),
        }
    }
    Err(last)
}

/// True for a 403 or 404 answer, after which another endpoint may serve.
fn refused(error: &ProviderError) -> bool {
    matches!(error.message.split_whitespace().next(), Some("403" | "404"))
}
/// Read one streamed reply; `None` when it held no content.
async fn read_stream<'a>(
    model: &'a Model,
    sse: &mut SseBody,
    out: &mut MessageBuilder,
) -> Result<Option<GeminiStreamState<'a>>, ProviderError> {
    let mut state = GeminiStreamState::new(model);
    while let Some(event) = sse.next_event().await? {
        state.handle(&unwrap_chunk(event), out)?;
    }
    Ok((!out.partial().content.is_empty()).then_some(state))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_must_be_a_login() {
        let key = Some(r#"{"token":"ya29","projectId":"proj-1"}"#);
        let (t, p) = parse_key(key, "google-gemini-cli").unwrap();
        assert_eq!((t.as_str(), p.as_str()), ("ya29", "proj-1"));
        for bad in [None, Some("AIza-plain-key"), Some(r#"{"token":"x"}"#)] {
            let e = parse_key(bad, "google-gemini-cli").unwrap_err().message;
            assert!(e.contains("/login google-gemini-cli"), "{e}");
            let e = parse_key(bad, ANTIGRAVITY).unwrap_err().message;
            assert!(e.contains("/login google-antigravity"), "{e}");
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

    fn answer(base: &str) -> Result<&str, ProviderError> {
        match base {
            "a" => Err(ProviderError::new("403 forbidden")),
            "b" => Err(ProviderError::new("404 not found")),
            "bad" => Err(ProviderError::new("429 slow down")),
            ok => Ok(ok),
        }
    }

    #[tokio::test]
    async fn refusing_endpoints_hand_over_to_the_next() {
        let tried = std::sync::Mutex::new(Vec::new());
        let open = |b: &'static str| {
            tried.lock().unwrap().push(b);
            async move { answer(b) }
        };
        let (base, got) = open_first(&["a", "b", "c"], open).await.unwrap();
        assert_eq!((base, got), ("c", "c"));
        assert_eq!(*tried.lock().unwrap(), ["a", "b", "c"]);
    }

    #[tokio::test]
    async fn other_errors_and_the_last_refusal_are_returned() {
        let open = |b: &'static str| async move { answer(b) };
        let e = open_first(&["bad", "c"], open).await.unwrap_err();
        assert!(e.message.starts_with("429"), "{}", e.message);
        let e = open_first(&["a", "b"], open).await.unwrap_err();
        assert!(e.message.starts_with("404"), "{}", e.message);
    }
}
