//! Classification of failed replies: context overflow, retryable failures,
//! and the hint shown when a provider rejects the credentials.

use std::sync::LazyLock;

use regex::Regex;

use crate::ai::error_kind::is_overflow_text;
pub use crate::ai::error_kind::{NetworkCause, ProviderErrorKind};
use crate::ai::types::{AssistantMessage, StopReason};

/// Transient failures worth retrying: overload, rate limits, 5xx, network trouble.
#[expect(
    clippy::expect_used,
    reason = "a constant pattern, compiled by the unit tests"
)]
static RETRYABLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)overloaded|provider.?returned.?error|rate.?limit|too many requests|429|500|502|503|504|service.?unavailable|server.?error|internal.?error|network.?error|connection.?error|connection.?refused|connection.?lost|websocket.?closed|websocket.?error|other side closed|fetch failed|upstream.?connect|reset before headers|socket hang up|ended without|http2 request did not get a response|timed? out|timeout|terminated|retry delay",
    )
    .expect("retryable pattern compiles")
});

/// A failure inside a provider, turned into a terminal `error` event by the provider
/// registry. The message is what the user sees; the kind is what pi acts on.
#[derive(Debug, Clone)]
pub struct ProviderError {
    /// Human-readable message (HTTP status first when there is one, e.g. `429 ...`).
    pub message: String,
    /// Seconds the server asked us to wait (`retry-after`).
    pub retry_after: Option<f64>,
    /// What kind of failure it is.
    pub kind: ProviderErrorKind,
}

impl ProviderError {
    /// An error known by its message only (its kind is read from the text).
    pub fn new(message: impl Into<String>) -> Self {
        let message = message.into();
        ProviderError {
            kind: ProviderErrorKind::from_message(&message),
            message,
            retry_after: None,
        }
    }

    /// An error response with an HTTP status.
    pub fn http(status: u16, message: impl Into<String>, retry_after: Option<f64>) -> Self {
        let message = message.into();
        ProviderError {
            kind: ProviderErrorKind::from_status(status, &message),
            message,
            retry_after,
        }
    }

    /// A transport failure: the connection could not be made, was cut or timed out
    /// (the cause is read from the text, which holds the whole error chain).
    pub fn network(message: impl Into<String>) -> Self {
        let message = message.into();
        ProviderError {
            kind: ProviderErrorKind::Network(NetworkCause::from_text(&message)),
            message,
            retry_after: None,
        }
    }

    /// A wait pi bounds ran out (no first byte, or a silent stream).
    pub fn timed_out(message: impl Into<String>) -> Self {
        ProviderError {
            message: message.into(),
            retry_after: None,
            kind: ProviderErrorKind::Network(NetworkCause::TimedOut),
        }
    }
}

impl std::fmt::Display for ProviderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl<E: std::error::Error> From<E> for ProviderError {
    fn from(e: E) -> Self {
        let mut msg = e.to_string();
        let mut src = e.source();
        while let Some(s) = src {
            msg.push_str(": ");
            msg.push_str(&s.to_string());
            src = s.source();
        }
        ProviderError::new(msg)
    }
}

/// True when `msg` failed because the prompt exceeded the context window.
///
/// Recognises provider error texts, and — given `context_window` — silent
/// overflow (a successful reply whose input exceeds the window) and
/// truncating servers (a `length` stop with no output and a full window).
pub fn is_context_overflow(msg: &AssistantMessage, context_window: Option<u64>) -> bool {
    if msg.stop_reason == StopReason::Error
        && (msg.error_kind == Some(ProviderErrorKind::ContextOverflow)
            || msg.error_message.as_deref().is_some_and(is_overflow_text))
    {
        return true;
    }
    let Some(window) = context_window.filter(|w| *w > 0) else {
        return false;
    };
    let input = msg.usage.input + msg.usage.cache_read;
    match msg.stop_reason {
        StopReason::Stop => input > window,
        StopReason::Length => msg.usage.output == 0 && input as f64 >= window as f64 * 0.99,
        _ => false,
    }
}

/// True when `msg` failed in a way that a later identical request may not
/// (rate limits, overload, 5xx, network errors). Context overflow is not
/// retryable: it needs compaction instead.
pub fn is_retryable(msg: &AssistantMessage) -> bool {
    if msg.stop_reason != StopReason::Error {
        return false;
    }
    if let Some(decided) = msg.error_kind.and_then(ProviderErrorKind::retryable) {
        return decided;
    }
    let Some(err) = msg.error_message.as_deref().filter(|e| !e.is_empty()) else {
        return false;
    };
    !is_context_overflow(msg, None) && RETRYABLE.is_match(err)
}

/// How to fix rejected credentials for `provider` (appended to 401/403 errors).
pub fn auth_hint(provider: &str) -> String {
    let vars = crate::ai::catalog::env_api_key_vars(provider);
    match vars {
        [] => crate::t!("pi.error.auth.check_key", provider = provider),
        [one] => crate::t!("pi.error.auth.set_var", var = *one),
        [rest @ .., last] => crate::t!(
            "pi.error.auth.set_vars",
            vars = rest.join(", "),
            last = *last
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failed(text: &str) -> AssistantMessage {
        let mut m = AssistantMessage::empty("a", "p", "m");
        m.stop_reason = StopReason::Error;
        m.error_message = Some(text.to_string());
        m
    }

    #[test]
    fn detects_overflow_messages_from_many_providers() {
        for text in [
            "400 invalid_request_error: prompt is too long: 213462 tokens > 200000 maximum",
            "413 request_too_large: Request exceeds the maximum size",
            "400 Your input exceeds the context window of this model",
            "This endpoint's maximum context length is 8192 tokens. However, you requested 9000",
            "the request exceeds the available context size, try increasing it",
            "413 status code (no body)",
        ] {
            assert!(is_context_overflow(&failed(text), None), "{text}");
        }
        assert!(!is_context_overflow(
            &failed("ThrottlingException: Too many tokens, rate limit"),
            None
        ));
        assert!(!is_context_overflow(&failed("500 internal error"), None));
    }

    #[test]
    fn detects_silent_and_truncating_overflow_with_window() {
        let mut m = AssistantMessage::empty("a", "p", "m");
        m.usage.input = 1000;
        m.usage.cache_read = 200;
        assert!(is_context_overflow(&m, Some(1100)));
        assert!(!is_context_overflow(&m, Some(2000)));
        assert!(!is_context_overflow(&m, None));
        m.stop_reason = StopReason::Length;
        assert!(is_context_overflow(&m, Some(1200)));
        m.usage.output = 5;
        assert!(!is_context_overflow(&m, Some(1200)));
    }

    #[test]
    fn classifies_retryable_errors() {
        assert!(is_retryable(&failed("429 rate_limit_error: slow down")));
        assert!(is_retryable(&failed("529 overloaded_error: Overloaded")));
        assert!(is_retryable(&failed(
            "Network error: connection refused (os error 111)"
        )));
        assert!(!is_retryable(&failed(
            "401 authentication_error: invalid x-api-key"
        )));
        assert!(!is_retryable(&failed(
            "400 prompt is too long: 300000 tokens > 200000 maximum"
        )));
        let mut ok = AssistantMessage::empty("a", "p", "m");
        ok.error_message = Some("429".into());
        assert!(!is_retryable(&ok));
    }

    #[test]
    fn auth_hint_names_env_vars() {
        assert!(auth_hint("openai").contains("OPENAI_API_KEY"));
        let a = auth_hint("anthropic");
        assert!(a.contains("ANTHROPIC_OAUTH_TOKEN") && a.contains("ANTHROPIC_API_KEY"));
        assert!(auth_hint("my-llm").contains("/login"));
    }

    #[test]
    fn error_kinds_follow_the_status_and_then_the_text() {
        assert_eq!(
            ProviderErrorKind::from_status(401, "bad key"),
            ProviderErrorKind::Auth
        );
        assert_eq!(
            ProviderErrorKind::from_status(429, "slow down"),
            ProviderErrorKind::RateLimit
        );
        assert_eq!(
            ProviderErrorKind::from_status(400, "400 prompt is too long: 213462 tokens"),
            ProviderErrorKind::ContextOverflow
        );
        assert_eq!(
            ProviderErrorKind::from_status(502, "bad gateway"),
            ProviderErrorKind::Http(502)
        );
        assert_eq!(
            ProviderError::network("reset").kind,
            ProviderErrorKind::Network(NetworkCause::Other)
        );
        assert_eq!(
            ProviderError::new("Your input exceeds the context window").kind,
            ProviderErrorKind::ContextOverflow
        );
    }

    #[test]
    fn a_known_kind_decides_retries_before_the_text() {
        // The text alone would look retryable ("500" and "timeout" appear in it).
        let mut auth = failed("401 invalid key (request 500, timeout 30s)");
        auth.error_kind = Some(ProviderErrorKind::Auth);
        assert!(!is_retryable(&auth));
        let mut cut = failed("the stream stopped");
        assert!(!is_retryable(&cut), "the text says nothing retryable");
        cut.error_kind = Some(ProviderErrorKind::Network(NetworkCause::Closed));
        assert!(is_retryable(&cut));
        let mut overflow = failed("400 request rejected");
        overflow.error_kind = Some(ProviderErrorKind::ContextOverflow);
        assert!(is_context_overflow(&overflow, None));
        assert!(!is_retryable(&overflow));
    }
}
