//! The kinds of provider failure pi acts on differently, and how to tell them from an
//! HTTP status or an error text.

use std::sync::LazyLock;

use regex::RegexSet;

/// What kind of failure a provider reported, as far as pi's behaviour depends on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ProviderErrorKind {
    /// The prompt did not fit the model's context window: compact, then try again.
    ContextOverflow,
    /// Too many requests: wait, then try again.
    RateLimit,
    /// The credentials were rejected: only the user can fix that.
    Auth,
    /// The connection could not be made, was cut or timed out: try again (how often
    /// depends on the cause).
    Network(NetworkCause),
    /// Any other HTTP error status.
    Http(u16),
    /// Anything else (a malformed stream, a bad configuration, an error event).
    #[default]
    Other,
}

impl ProviderErrorKind {
    /// The kind of an error response with this status and message.
    pub fn from_status(status: u16, message: &str) -> Self {
        match status {
            401 | 403 => ProviderErrorKind::Auth,
            429 => ProviderErrorKind::RateLimit,
            413 => ProviderErrorKind::ContextOverflow,
            _ if is_overflow_text(message) => ProviderErrorKind::ContextOverflow,
            _ => ProviderErrorKind::Http(status),
        }
    }

    /// The kind an error's text implies, for errors that carry no status.
    pub fn from_message(message: &str) -> Self {
        if is_overflow_text(message) {
            ProviderErrorKind::ContextOverflow
        } else {
            ProviderErrorKind::Other
        }
    }

    /// `Some(answer)` when the kind alone decides whether a retry may succeed; `None`
    /// when the message has to tell.
    pub fn retryable(self) -> Option<bool> {
        match self {
            ProviderErrorKind::ContextOverflow | ProviderErrorKind::Auth => Some(false),
            ProviderErrorKind::RateLimit | ProviderErrorKind::Network(_) => Some(true),
            ProviderErrorKind::Http(status) if status >= 500 => Some(true),
            ProviderErrorKind::Http(_) | ProviderErrorKind::Other => None,
        }
    }
}

/// Why a transport failed, as far as the user is told and retries differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NetworkCause {
    /// Nothing listens at the address.
    Refused,
    /// The host name could not be resolved.
    Dns,
    /// The TLS handshake or the certificate check failed.
    Tls,
    /// The connection was closed or reset before the reply was complete.
    Closed,
    /// Nothing arrived within a time limit.
    TimedOut,
    /// Another transport failure.
    #[default]
    Other,
}

impl NetworkCause {
    /// The cause a transport error's text (its whole source chain) names.
    pub fn from_text(text: &str) -> Self {
        let text = text.to_ascii_lowercase();
        let has = |needles: &[&str]| needles.iter().any(|n| text.contains(n));
        if has(&[
            "connection refused",
            "econnrefused",
            "os error 111",
            "os error 10061",
        ]) {
            NetworkCause::Refused
        } else if has(&[
            "dns error",
            "failed to lookup address",
            "name or service not known",
            "nodename nor servname",
            "no such host",
            "enotfound",
            "eai_again",
        ]) {
            NetworkCause::Dns
        } else if has(&["certificate", "tls", "ssl", "handshake"]) {
            NetworkCause::Tls
        } else if has(&["timed out", "timeout", "no data from", "no response from"]) {
            NetworkCause::TimedOut
        } else if has(&[
            "connection closed",
            "connection reset",
            "connection aborted",
            "broken pipe",
            "unexpected eof",
            "incomplete message",
            "other side closed",
            "socket hang up",
            "econnreset",
            "error decoding response body",
            "error reading a body",
        ]) {
            NetworkCause::Closed
        } else {
            NetworkCause::Other
        }
    }

    /// Waiting does not fix it (a refused connection, an unknown host, a failed TLS
    /// handshake): retried at most once, at once.
    pub fn is_persistent(self) -> bool {
        matches!(
            self,
            NetworkCause::Refused | NetworkCause::Dns | NetworkCause::Tls
        )
    }
}

/// The kind of a failed reply: the one recorded in this run, else the one its text implies
/// (a message loaded from a session file keeps only its text).
pub fn kind_of(kind: Option<ProviderErrorKind>, message: &str) -> ProviderErrorKind {
    if let Some(kind) = kind {
        return kind;
    }
    if let Some(status) = leading_status(message) {
        return ProviderErrorKind::from_status(status, message);
    }
    let lower = message.to_ascii_lowercase();
    if lower.starts_with("network error") {
        return ProviderErrorKind::Network(NetworkCause::from_text(message));
    }
    ProviderErrorKind::from_message(message)
}

/// The HTTP status an error text starts with (`"503 upstream is down"`).
fn leading_status(message: &str) -> Option<u16> {
    let head = message.split_whitespace().next()?;
    let status = head.parse::<u16>().ok()?;
    (head.len() == 3 && (400..600).contains(&status)).then_some(status)
}

/// Longest provider message quoted in a short cause.
const SHORT_MESSAGE_CHARS: usize = 120;

/// The first line of `text`, cut to [`SHORT_MESSAGE_CHARS`].
fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default().trim();
    if line.chars().count() > SHORT_MESSAGE_CHARS {
        let cut: String = line.chars().take(SHORT_MESSAGE_CHARS).collect();
        format!("{cut}…")
    } else {
        line.to_string()
    }
}

/// One short translated sentence naming why a reply failed: "connection refused",
/// "HTTP 503: upstream is down", or the wait that ran out.
pub fn short_cause(kind: Option<ProviderErrorKind>, message: &str) -> String {
    match kind_of(kind, message) {
        ProviderErrorKind::Network(cause) => match cause {
            NetworkCause::Refused => crate::t!("pi.ai.cause.refused"),
            NetworkCause::Dns => crate::t!("pi.ai.cause.dns"),
            NetworkCause::Tls => crate::t!("pi.ai.cause.tls"),
            NetworkCause::Closed => crate::t!("pi.ai.cause.closed"),
            // pi's own timeouts name the wait and its setting; the client's do not.
            NetworkCause::TimedOut if !message.starts_with("Network error") => {
                crate::t!("pi.ai.cause.timed_out_after", wait = first_line(message))
            }
            NetworkCause::TimedOut => crate::t!("pi.ai.cause.timed_out"),
            NetworkCause::Other => crate::t!("pi.ai.cause.network"),
        },
        _ => match leading_status(message) {
            Some(status) => {
                let said = message.trim_start()[3..].trim_start();
                crate::t!(
                    "pi.ai.cause.http",
                    status = status,
                    message = first_line(said)
                )
            }
            None => first_line(message),
        },
    }
}

/// What the user can check after retries gave up: the base URL and the network, the
/// key, or (for overload and rate limits) nothing but time; `None` when nothing helps.
pub fn what_to_check(
    kind: Option<ProviderErrorKind>,
    message: &str,
    provider: &str,
    base_url: &str,
) -> Option<String> {
    match kind_of(kind, message) {
        ProviderErrorKind::Network(_) => Some(crate::t!("pi.ai.check.network", url = base_url)),
        ProviderErrorKind::Auth => Some(crate::t!("pi.ai.check.key", provider = provider)),
        ProviderErrorKind::RateLimit => Some(crate::t!("pi.ai.check.later")),
        ProviderErrorKind::Http(status) if status >= 500 => Some(crate::t!("pi.ai.check.later")),
        _ => None,
    }
}

/// The one line that ends a request whose retries gave up: how many attempts failed,
/// why, and what to check (`stopped` when the user ended the retries).
pub fn verdict(
    attempts: u32,
    kind: Option<ProviderErrorKind>,
    message: &str,
    provider: &str,
    base_url: &str,
    stopped: bool,
) -> String {
    let key = if stopped {
        "pi.ai.verdict_stopped"
    } else {
        "pi.ai.verdict"
    };
    let cause = short_cause(kind, message);
    let verdict = crate::t!(key, count = attempts, cause = cause);
    match what_to_check(kind, message, provider, base_url) {
        Some(check) => crate::t!("pi.ai.verdict_check", verdict = verdict, check = check),
        None => verdict,
    }
}

/// Error texts that mean the prompt did not fit the model's context window.
#[expect(
    clippy::expect_used,
    reason = "a constant pattern, compiled by the unit tests"
)]
static OVERFLOW_PATTERNS: LazyLock<RegexSet> = LazyLock::new(|| {
    RegexSet::new([
        r"(?i)prompt is too long",                     // Anthropic tokens
        r"(?i)request_too_large",                      // Anthropic bytes (413)
        r"(?i)input is too long for requested model",  // Amazon Bedrock
        r"(?i)exceeds the context window",             // OpenAI
        r"(?i)input token count.*exceeds the maximum", // Google Gemini
        r"(?i)maximum prompt length is \d+",           // xAI
        r"(?i)reduce the length of the messages",      // Groq
        r"(?i)maximum context length is \d+ tokens",   // OpenRouter
        r"(?i)exceeds the limit of \d+",               // GitHub Copilot
        r"(?i)exceeds the available context size",     // llama.cpp
        r"(?i)greater than the context length",        // LM Studio
        r"(?i)context window exceeds limit",           // MiniMax
        r"(?i)exceeded model token limit",             // Kimi
        r"(?i)too large for model with \d+ maximum context length", // Mistral
        r"(?i)model_context_window_exceeded",          // z.ai
        r"(?i)prompt too long; exceeded (?:max )?context length", // Ollama
        r"(?i)context[_ ]length[_ ]exceeded",
        r"(?i)too many tokens",
        r"(?i)token limit exceeded",
        r"(?i)^4(?:00|13)\s*(?:status code)?\s*\(no body\)", // Cerebras
    ])
    .expect("overflow patterns compile")
});

/// Error texts that look like overflow but are throttling.
#[expect(
    clippy::expect_used,
    reason = "a constant pattern, compiled by the unit tests"
)]
static NON_OVERFLOW_PATTERNS: LazyLock<RegexSet> = LazyLock::new(|| {
    RegexSet::new([
        r"(?i)^(Throttling error|Service unavailable):",
        r"(?i)rate limit",
        r"(?i)too many requests",
    ])
    .expect("non-overflow patterns compile")
});

/// True when an error text says the prompt exceeded the context window.
pub fn is_overflow_text(text: &str) -> bool {
    !NON_OVERFLOW_PATTERNS.is_match(text) && OVERFLOW_PATTERNS.is_match(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transport_errors_are_told_by_their_cause() {
        for (text, cause) in [
            (
                "Network error: error sending request for url (http://127.0.0.1:9/v1): client error (Connect): tcp connect error: Connection refused (os error 111)",
                NetworkCause::Refused,
            ),
            (
                "Network error: error sending request for url (http://nowhere.invalid/v1): client error (Connect): dns error: failed to lookup address information: Name or service not known",
                NetworkCause::Dns,
            ),
            (
                "Network error: error sending request for url (https://h/v1): client error (Connect): invalid peer certificate: UnknownIssuer",
                NetworkCause::Tls,
            ),
            (
                "Network error: error sending request for url (http://h/v1): client error (SendRequest): connection closed before message completed",
                NetworkCause::Closed,
            ),
            (
                "Network error: error decoding response body: connection reset by peer",
                NetworkCause::Closed,
            ),
            ("Network error: operation timed out", NetworkCause::TimedOut),
            ("Network error: something new", NetworkCause::Other),
        ] {
            assert_eq!(NetworkCause::from_text(text), cause, "{text}");
            assert_eq!(
                kind_of(None, text),
                ProviderErrorKind::Network(cause),
                "{text}"
            );
        }
        assert!(NetworkCause::Refused.is_persistent() && NetworkCause::Tls.is_persistent());
        assert!(!NetworkCause::Closed.is_persistent() && !NetworkCause::TimedOut.is_persistent());
    }

    #[test]
    fn short_causes_are_one_short_sentence() {
        let refused = "Network error: error sending request for url (http://127.0.0.1:9/v1/chat/completions): client error (Connect): tcp connect error: Connection refused (os error 111)";
        assert_eq!(short_cause(None, refused), "connection refused");
        assert_eq!(
            short_cause(None, "503 upstream is down\nretry later"),
            "HTTP 503: upstream is down"
        );
        assert_eq!(
            short_cause(
                Some(ProviderErrorKind::Network(NetworkCause::TimedOut)),
                "no data from mock for 0.4 s (setting retry.provider.idleTimeoutMs)"
            ),
            "timed out: no data from mock for 0.4 s (setting retry.provider.idleTimeoutMs)"
        );
        let long = "x".repeat(500);
        assert!(short_cause(None, &long).chars().count() <= SHORT_MESSAGE_CHARS + 1);
        assert_eq!(kind_of(None, "429 slow down"), ProviderErrorKind::RateLimit);
        assert_eq!(kind_of(None, "2024 was a year"), ProviderErrorKind::Other);
    }

    #[test]
    fn the_verdict_counts_attempts_and_says_what_to_check() {
        let refused = "Network error: tcp connect error: Connection refused (os error 111)";
        assert_eq!(
            verdict(2, None, refused, "mock", "http://127.0.0.1:9/v1", false),
            "2 attempts failed: connection refused. Check the base URL (http://127.0.0.1:9/v1) and your network."
        );
        assert_eq!(
            verdict(
                4,
                Some(ProviderErrorKind::Auth),
                "401 bad key",
                "openai",
                "u",
                false
            ),
            "4 attempts failed: HTTP 401: bad key. Check the API key for openai."
        );
        assert_eq!(
            verdict(1, None, "the stream broke", "mock", "u", true),
            "Retrying stopped after 1 failed attempt: the stream broke."
        );
    }
}
