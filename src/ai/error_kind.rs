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
    /// The connection could not be made, was cut or timed out: try again.
    Network,
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
            ProviderErrorKind::RateLimit | ProviderErrorKind::Network => Some(true),
            ProviderErrorKind::Http(status) if status >= 500 => Some(true),
            ProviderErrorKind::Http(_) | ProviderErrorKind::Other => None,
        }
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
