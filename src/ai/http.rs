//! HTTP plumbing shared by the wire protocols: one lazily built client,
//! POSTing a JSON body, turning error responses into [`ProviderError`]s and
//! reading a streaming body as SSE events.

use std::collections::VecDeque;
use std::sync::LazyLock;
use std::time::Duration;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use serde_json::Value;

use crate::ai::errors::auth_hint;
use crate::ai::model::Model;
use crate::ai::sse::{SseEvent, SseParser};
use crate::ai::stream::{ProviderError, StreamOptions};
use crate::ai::wait::{
    FirstByteDeadline, ProgressGuard, idle_timeout, stalled_error, until_first_byte,
};

/// Longest error body quoted in a message.
const MAX_ERROR_BODY_CHARS: usize = 2000;

static CLIENT: LazyLock<reqwest::Client> = LazyLock::new(|| {
    build_client(|builder| {
        builder
            .user_agent(concat!("pi/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(Duration::from_secs(30))
            .read_timeout(Duration::from_secs(600))
            .connector_layer(crate::ai::connect_progress::MarkConnecting)
    })
});

/// Why the system's certificates could not be used, when they could not.
static TLS_PROBLEM: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Build an HTTP client. When the system's certificate store cannot be
/// loaded (empty, unreadable, `SSL_CERT_FILE` pointing nowhere), the client
/// is built without trusted certificates instead of failing: plain `http://`
/// providers (local models, proxies) keep working, and an `https://` request
/// fails with an error that says why (see [`network_error`]).
#[expect(
    clippy::expect_used,
    reason = "without system certificates the builder has nothing left that can fail"
)]
pub fn build_client(
    configure: impl Fn(reqwest::ClientBuilder) -> reqwest::ClientBuilder,
) -> reqwest::Client {
    // Several crates may race to install a provider; losing the race is fine.
    let _ = rustls::crypto::ring::default_provider().install_default();
    // Root certificates are read on the first https:// handshake, not here.
    let builder = || match crate::ai::tls::client_config() {
        Ok(tls) => reqwest::Client::builder().tls_backend_preconfigured(tls),
        Err(_) => reqwest::Client::builder(),
    };
    match configure(builder()).build() {
        Ok(client) => client,
        Err(e) => {
            let mut why = e.to_string();
            if let Some(source) = std::error::Error::source(&e) {
                why = format!("{why}: {source}");
            }
            let _ = TLS_PROBLEM.set(why);
            configure(reqwest::Client::builder())
                .tls_certs_only(Vec::new())
                .build()
                .expect("a client without system certificates can be built")
        }
    }
}

/// The process-wide HTTP client (TLS via rustls with the ring provider; the
/// system's root certificates are read on the first `https://` request).
pub fn client() -> &'static reqwest::Client {
    &CLIENT
}

/// `base` and `path` joined with exactly one slash.
pub fn join_url(base: &str, path: &str) -> String {
    format!(
        "{}/{}",
        base.trim_end_matches('/'),
        path.trim_start_matches('/')
    )
}

/// The API key from the options, else from the provider's environment variables.
pub fn resolve_api_key(model: &Model, options: &StreamOptions) -> Result<String, ProviderError> {
    options
        .api_key
        .clone()
        .filter(|k| !k.is_empty())
        .or_else(|| {
            crate::ai::catalog::env_api_key(
                &model.provider,
                &crate::config::config_value::Env::system(),
            )
        })
        .ok_or_else(|| {
            ProviderError::new(format!(
                "{}\n{}",
                crate::t!("pi.error.auth.no_key", provider = model.provider.as_str()),
                auth_hint(&model.provider)
            ))
        })
}

/// Header list applied in order, later entries replacing earlier ones
/// (names compare case-insensitively).
pub fn header_map<'a>(
    headers: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<HeaderMap, ProviderError> {
    let mut map = HeaderMap::new();
    for (name, value) in headers {
        let name = HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| ProviderError::new(format!("Invalid header name: {name}")))?;
        let value = HeaderValue::from_str(value)
            .map_err(|_| ProviderError::new(format!("Invalid value for header {name}")))?;
        map.insert(name, value);
    }
    Ok(map)
}

/// The model's `headers` (from models.json), in order.
pub fn model_headers(model: &Model) -> impl Iterator<Item = (&str, &str)> {
    model
        .headers
        .iter()
        .flatten()
        .map(|(k, v)| (k.as_str(), v.as_str()))
}

/// The caller's own headers for one request, in order.
pub fn option_headers(options: &StreamOptions) -> impl Iterator<Item = (&str, &str)> {
    options
        .headers
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
}

/// The headers every request carries after the protocol's own: the model's, then the
/// caller's (so a caller's header replaces a model's of the same name).
pub fn configured_headers<'a>(
    model: &'a Model,
    options: &'a StreamOptions,
) -> impl Iterator<Item = (&'a str, &'a str)> {
    model_headers(model).chain(option_headers(options))
}

/// POST one provider request (`req` gives the provider name for error hints and the
/// extensions' request hooks) and return the streaming body.
pub async fn post_stream(
    url: &str,
    headers: HeaderMap,
    body: &Value,
    req: &crate::ai::stream::StreamRequest,
) -> Result<SseBody, ProviderError> {
    post_stream_body(url, headers, RequestBody::Value(body), req).await
}

/// A request body: a JSON value, or the JSON already serialised (read back into a value
/// only when request hooks want to see it).
pub enum RequestBody<'a> {
    /// A value, serialised when sent.
    Value(&'a Value),
    /// Serialised JSON, sent as it is.
    Serialized(Vec<u8>),
}

/// [`post_stream`] with a body that may be serialised already.
pub async fn post_stream_body(
    url: &str,
    headers: HeaderMap,
    body: RequestBody<'_>,
    req: &crate::ai::stream::StreamRequest,
) -> Result<SseBody, ProviderError> {
    let first_byte = FirstByteDeadline::for_request(req.options.deadline);
    post_sse_until(
        url,
        headers,
        body,
        &req.model.provider,
        req.options.hooks.as_ref(),
        first_byte,
    )
    .await
}

/// Feed the events of `sse` to `handle` until it returns `false` (the protocol's final
/// event). Returns whether that happened, rather than the body just ending.
pub async fn decode_events(
    sse: &mut SseBody,
    mut handle: impl FnMut(&SseEvent) -> Result<bool, ProviderError>,
) -> Result<bool, ProviderError> {
    while let Some(event) = sse.next_event().await? {
        if !handle(&event)? {
            sse.release_connection();
            return Ok(true);
        }
    }
    Ok(false)
}

/// POST `body` as JSON and return the streaming body of a 2xx response.
/// Other statuses become a [`ProviderError`] naming the status, the
/// provider's message, the server's retry delay and, for 401/403, how to
/// fix the credentials of `provider`.
pub async fn post_sse(
    url: &str,
    headers: HeaderMap,
    body: &Value,
    provider: &str,
) -> Result<SseBody, ProviderError> {
    post_sse_with_hooks(url, headers, body, provider, None).await
}

/// [`post_sse`] with request hooks: `hooks` may replace the body before it
/// is sent and sees the response status and headers.
pub async fn post_sse_with_hooks(
    url: &str,
    headers: HeaderMap,
    body: &Value,
    provider: &str,
    hooks: Option<&std::sync::Arc<dyn crate::ai::stream::RequestHooks>>,
) -> Result<SseBody, ProviderError> {
    let first_byte = FirstByteDeadline::for_request(None);
    let body = RequestBody::Value(body);
    post_sse_until(url, headers, body, provider, hooks, first_byte).await
}

/// [`post_sse_with_hooks`] whose response headers and first body bytes must arrive
/// by `first_byte` (no limit when `None`).
async fn post_sse_until(
    url: &str,
    headers: HeaderMap,
    body: RequestBody<'_>,
    provider: &str,
    hooks: Option<&std::sync::Arc<dyn crate::ai::stream::RequestHooks>>,
    first_byte: Option<FirstByteDeadline>,
) -> Result<SseBody, ProviderError> {
    let to_bytes = |v: &Value| serde_json::to_vec(v).map_err(|e| ProviderError::new(e.to_string()));
    let payload = match (hooks, body) {
        (None, RequestBody::Serialized(bytes)) => bytes,
        (None, RequestBody::Value(value)) => to_bytes(value)?,
        (Some(h), RequestBody::Value(value)) => to_bytes(&h.before_request(value.clone()).await)?,
        (Some(h), RequestBody::Serialized(bytes)) => {
            let value =
                serde_json::from_slice(&bytes).map_err(|e| ProviderError::new(e.to_string()))?;
            to_bytes(&h.before_request(value).await)?
        }
    };
    let mut headers = headers;
    headers
        .entry(reqwest::header::CONTENT_TYPE)
        .or_insert(HeaderValue::from_static("application/json"));
    let progress = ProgressGuard::begin(url);
    let request = client().post(url).headers(headers).body(payload);
    let response = until_first_byte(first_byte, provider, async {
        request.send().await.map_err(network_error)
    })
    .await?;
    let status = response.status();
    if let Some(h) = hooks {
        let seen = response
            .headers()
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_lowercase(),
                    v.to_str().unwrap_or_default().to_string(),
                )
            })
            .collect();
        h.after_response(status.as_u16(), seen).await;
    }
    if !status.is_success() {
        let headers = response.headers().clone();
        let text = response.text().await.unwrap_or_default();
        return Err(status_error(status.as_u16(), &headers, &text, provider));
    }
    let content_type = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase();
    if content_type.contains("text/html") {
        let text = response.text().await.unwrap_or_default();
        return Err(html_error(status.as_u16(), &text));
    }
    Ok(SseBody {
        provider: provider.to_string(),
        status: status.as_u16(),
        response: Some(response),
        parser: SseParser::new(),
        queue: VecDeque::new(),
        ended: false,
        started: false,
        first_byte,
        progress: Some(progress),
    })
}

/// Longest excerpt of an unexpected HTML body quoted in an error.
const HTML_EXCERPT_CHARS: usize = 200;

/// The error for an HTML page where an event stream was expected (a proxy,
/// captive portal or wrong `baseUrl`).
pub fn html_error(status: u16, body: &str) -> ProviderError {
    let excerpt: String = body.trim().chars().take(HTML_EXCERPT_CHARS).collect();
    ProviderError::new(format!(
        "Expected an event stream but the server returned an HTML page (status {status}); \
         check the provider's baseUrl and any proxy in between. First bytes: {excerpt}"
    ))
}

/// True when a body starts like an HTML document.
fn looks_like_html(bytes: &[u8]) -> bool {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(64)]).to_ascii_lowercase();
    let head = head.trim_start();
    head.starts_with("<!doctype html") || head.starts_with("<html")
}

/// How long the rest of a finished stream's body is waited for before its connection is
/// given up rather than reused.
const RELEASE_WAIT: Duration = Duration::from_secs(2);

/// The largest single stream event pi holds (64 MiB); a sender that never
/// finishes a line or an event is stopped there, not followed into gigabytes.
pub const MAX_EVENT_BYTES: usize = 64 * 1024 * 1024;

/// A streaming response body decoded as SSE events.
pub struct SseBody {
    provider: String,
    status: u16,
    /// `None` once handed to [`SseBody::release_connection`].
    response: Option<reqwest::Response>,
    parser: SseParser,
    queue: VecDeque<SseEvent>,
    ended: bool,
    /// Something other than white space arrived.
    started: bool,
    /// Until `started`: when the first bytes must have come.
    first_byte: Option<FirstByteDeadline>,
    /// Until `started`: shows the request as waiting for its first byte.
    progress: Option<ProgressGuard>,
}

impl SseBody {
    /// After the protocol's final event: read what is left of the body (the end of
    /// the chunked encoding, usually already on its way) on a task of its own, so the
    /// connection goes back to the client's pool and the next request skips the TCP
    /// and TLS handshakes. A body that does not end soon is dropped, with its connection.
    fn release_connection(&mut self) {
        let Some(mut response) = self.response.take() else {
            return;
        };
        if tokio::runtime::Handle::try_current().is_err() {
            return;
        }
        tokio::spawn(async move {
            let rest = async { while let Ok(Some(_)) = response.chunk().await {} };
            let _ = tokio::time::timeout(RELEASE_WAIT, rest).await;
        });
    }

    /// The next event; `None` once the body ended.
    pub async fn next_event(&mut self) -> Result<Option<SseEvent>, ProviderError> {
        loop {
            if let Some(ev) = self.queue.pop_front() {
                return Ok(Some(ev));
            }
            let Some(response) = self.response.as_mut().filter(|_| !self.ended) else {
                return Ok(None);
            };
            // Before the first bytes, the first-byte deadline bounds the wait too.
            let first_byte = self.first_byte.filter(|_| !self.started);
            let chunk = match (first_byte, idle_timeout()) {
                (Some(deadline), idle) if idle.is_none_or(|i| deadline.remaining() < i) => {
                    tokio::time::timeout(deadline.remaining(), response.chunk())
                        .await
                        .map_err(|_| deadline.error(&self.provider))?
                }
                (_, Some(limit)) => tokio::time::timeout(limit, response.chunk())
                    .await
                    .map_err(|_| stalled_error(&self.provider, limit))?,
                (_, None) => response.chunk().await,
            };
            match chunk.map_err(network_error)? {
                Some(bytes) => {
                    if !self.started && looks_like_html(&bytes) {
                        return Err(html_error(self.status, &String::from_utf8_lossy(&bytes)));
                    }
                    self.started = self.started || !bytes.iter().all(u8::is_ascii_whitespace);
                    if self.started {
                        self.progress = None;
                    }
                    let queue = &mut self.queue;
                    self.parser.push_with(&bytes, |ev| queue.push_back(ev));
                    if self.parser.pending_bytes() > MAX_EVENT_BYTES {
                        return Err(ProviderError::new(format!(
                            "{} sent a stream event larger than {} MiB without ending it; \
                             the stream was given up",
                            self.provider,
                            MAX_EVENT_BYTES / (1024 * 1024)
                        )));
                    }
                }
                None => {
                    self.ended = true;
                    self.queue.extend(self.parser.finish());
                }
            }
        }
    }
}

/// A transport failure (connect, TLS, reset, timeout) with its cause chain.
/// A body whose content encoding (gzip, deflate) does not decode is named as such.
pub fn network_error(e: reqwest::Error) -> ProviderError {
    let mut msg = if e.is_decode() {
        "The response body could not be decoded (its Content-Encoding does not match it)"
            .to_string()
    } else {
        format!("Network error: {e}")
    };
    let mut source = std::error::Error::source(&e);
    while let Some(s) = source {
        msg.push_str(": ");
        msg.push_str(&s.to_string());
        source = s.source();
    }
    if let Some(problem) = TLS_PROBLEM.get()
        && e.url().is_some_and(|u| u.scheme() == "https")
    {
        msg.push_str(&format!(
            " (no trusted certificates: the system certificate store could not be loaded: \
             {problem}; point SSL_CERT_FILE at a CA bundle)"
        ));
    }
    ProviderError::network(msg)
}

/// The error for a non-2xx response: `"<status> <provider message>"`.
pub fn status_error(status: u16, headers: &HeaderMap, body: &str, provider: &str) -> ProviderError {
    let mut message = format!("{status} {}", describe_error_body(body));
    if status == 401 || status == 403 {
        message.push('\n');
        message.push_str(&auth_hint(provider));
    }
    ProviderError::http(status, message, retry_after_secs(headers))
}

/// The provider's error text from a JSON error body (`type: message`), the
/// raw body otherwise.
pub fn describe_error_body(body: &str) -> String {
    let body = body.trim();
    if body.is_empty() {
        return "status code (no body)".to_string();
    }
    if let Ok(json) = serde_json::from_str::<Value>(body)
        && let Some(text) = describe_error_value(&json)
    {
        return text;
    }
    if body.chars().count() > MAX_ERROR_BODY_CHARS {
        let cut: String = body.chars().take(MAX_ERROR_BODY_CHARS).collect();
        return format!("{cut}...");
    }
    body.to_string()
}

/// `type: message` of an error object (`{"error": {...}}` or the object
/// itself), with OpenRouter's `metadata.raw` appended on its own line.
pub fn describe_error_value(json: &Value) -> Option<String> {
    let err = json.get("error").unwrap_or(json);
    if let Some(s) = err.as_str() {
        return Some(s.to_string());
    }
    let message = match err.get("message") {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Null) | None => None,
        Some(other) => Some(other.to_string()),
    };
    let kind = err.get("type").and_then(Value::as_str);
    let mut text = match (kind, message) {
        (Some(k), Some(m)) => format!("{k}: {m}"),
        (None, Some(m)) => m,
        (Some(k), None) => k.to_string(),
        (None, None) => return None,
    };
    if let Some(raw) = err.pointer("/metadata/raw").and_then(Value::as_str) {
        text.push('\n');
        text.push_str(raw);
    }
    Some(text)
}

/// Seconds to wait before retrying, from `retry-after-ms` or `retry-after`
/// (delta seconds or an HTTP date).
pub fn retry_after_secs(headers: &HeaderMap) -> Option<f64> {
    let get = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::trim)
    };
    if let Some(ms) = get("retry-after-ms").and_then(|v| v.parse::<f64>().ok())
        && ms.is_finite()
        && ms >= 0.0
    {
        return Some(ms / 1000.0);
    }
    let value = get("retry-after")?;
    if let Ok(secs) = value.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0).then_some(secs);
    }
    let date = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    let delta = date.with_timezone(&chrono::Utc) - chrono::Utc::now();
    Some((delta.num_milliseconds().max(0) as f64) / 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        header_map(pairs.iter().copied()).unwrap()
    }

    #[test]
    fn formats_provider_error_bodies() {
        let anthropic =
            r#"{"type":"error","error":{"type":"rate_limit_error","message":"Slow down"}}"#;
        assert_eq!(
            status_error(429, &HeaderMap::new(), anthropic, "anthropic").message,
            "429 rate_limit_error: Slow down"
        );
        let openai = r#"{"error":{"message":"Bad key","code":"invalid_api_key"}}"#;
        let e = status_error(401, &HeaderMap::new(), openai, "openai");
        assert!(e.message.starts_with("401 Bad key\n"), "{}", e.message);
        assert!(e.message.contains("OPENAI_API_KEY"));
        assert_eq!(
            status_error(413, &HeaderMap::new(), "", "x").message,
            "413 status code (no body)"
        );
        assert_eq!(
            status_error(502, &HeaderMap::new(), "<html>bad gateway</html>", "x").message,
            "502 <html>bad gateway</html>"
        );
    }

    #[test]
    fn parses_retry_after_headers() {
        assert_eq!(
            retry_after_secs(&headers(&[("retry-after", "2")])),
            Some(2.0)
        );
        assert_eq!(
            retry_after_secs(&headers(&[
                ("retry-after", "1"),
                ("retry-after-ms", "1500")
            ])),
            Some(1.5)
        );
        let later = (chrono::Utc::now() + chrono::Duration::seconds(30)).to_rfc2822();
        let secs = retry_after_secs(&headers(&[("retry-after", &later)])).unwrap();
        assert!((28.0..=30.0).contains(&secs), "{secs}");
        assert_eq!(
            retry_after_secs(&headers(&[(
                "retry-after",
                "Wed, 21 Oct 2015 07:28:00 GMT"
            )])),
            Some(0.0)
        );
        assert_eq!(retry_after_secs(&headers(&[("retry-after", "soon")])), None);
    }

    #[test]
    fn later_headers_replace_earlier_ones_case_insensitively() {
        let map = header_map([("X-A", "1"), ("x-a", "2")]).unwrap();
        assert_eq!(map.get("x-a").unwrap(), "2");
        assert_eq!(map.len(), 1);
        assert_eq!(join_url("http://h/v1/", "/chat"), "http://h/v1/chat");
    }
}
