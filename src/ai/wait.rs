//! Bounded waits for a provider's reply: how long the first byte and a silent stream
//! may take (settings `retry.provider.firstByteTimeoutMs` and `idleTimeoutMs`), and the
//! errors that name the wait that ran out.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::ai::stream::ProviderError;

/// How long a streaming response may send nothing before it is given up
/// (`retry.provider.idleTimeoutMs`), unless configured otherwise.
pub const DEFAULT_IDLE_TIMEOUT_MS: u64 = 60_000;

/// How long a request may wait for its response headers and the first bytes of its
/// body (`retry.provider.firstByteTimeoutMs`), unless configured otherwise.
pub const DEFAULT_FIRST_BYTE_TIMEOUT_MS: u64 = 60_000;

static IDLE_TIMEOUT_MS: AtomicU64 = AtomicU64::new(DEFAULT_IDLE_TIMEOUT_MS);
static FIRST_BYTE_TIMEOUT_MS: AtomicU64 = AtomicU64::new(DEFAULT_FIRST_BYTE_TIMEOUT_MS);

/// Set how long a stream may stay silent before it fails (0 waits forever).
pub fn set_idle_timeout_ms(ms: u64) {
    IDLE_TIMEOUT_MS.store(ms, Ordering::Relaxed);
}

/// Set how long a request may wait for its first byte (0 waits forever).
pub fn set_first_byte_timeout_ms(ms: u64) {
    FIRST_BYTE_TIMEOUT_MS.store(ms, Ordering::Relaxed);
}

fn millis(ms: u64) -> Option<Duration> {
    (ms > 0).then(|| Duration::from_millis(ms))
}

/// The configured idle timeout, `None` when streams may stay silent forever.
pub fn idle_timeout() -> Option<Duration> {
    millis(IDLE_TIMEOUT_MS.load(Ordering::Relaxed))
}

/// The configured first-byte timeout, `None` when requests may wait forever.
pub fn first_byte_timeout() -> Option<Duration> {
    millis(FIRST_BYTE_TIMEOUT_MS.load(Ordering::Relaxed))
}

/// `2` or `0.4`: seconds as the error messages write them.
pub fn seconds_text(d: Duration) -> String {
    let secs = d.as_secs_f64();
    if secs.fract() == 0.0 {
        format!("{secs:.0}")
    } else {
        format!("{secs:.1}")
    }
}

/// When a request's first byte must have arrived, and which setting said so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FirstByteDeadline {
    /// The instant the wait ends.
    pub at: Instant,
    /// How long the request has waited by then.
    pub waited: Duration,
    /// True when the retries' total time (`retry.totalTimeoutMs`) ends it, not the
    /// first-byte timeout.
    pub total_bound: bool,
}

impl FirstByteDeadline {
    /// The deadline of a request sent now: the first-byte timeout, cut short by
    /// `overall` (the end of a retried request's total time). `None` waits forever.
    pub fn for_request(overall: Option<Instant>) -> Option<Self> {
        let now = Instant::now();
        let own = first_byte_timeout().map(|limit| now + limit);
        let (at, total_bound) = match (own, overall) {
            (Some(own), Some(overall)) if overall < own => (overall, true),
            (Some(own), _) => (own, false),
            (None, Some(overall)) => (overall, true),
            (None, None) => return None,
        };
        Some(FirstByteDeadline {
            at,
            waited: at.saturating_duration_since(now),
            total_bound,
        })
    }

    /// Time left until the deadline (zero once past).
    pub fn remaining(&self) -> Duration {
        self.at.saturating_duration_since(Instant::now())
    }

    /// The (retryable) error for a request whose first byte did not come in time.
    pub fn error(&self, provider: &str) -> ProviderError {
        let key = if self.total_bound {
            "pi.ai.first_byte_total"
        } else {
            "pi.ai.first_byte_timeout"
        };
        ProviderError::timed_out(crate::i18n::t(
            key,
            &[
                ("provider", provider.into()),
                ("seconds", seconds_text(self.waited).into()),
            ],
        ))
    }
}

/// The (retryable) error for a stream silent for `limit`.
pub fn stalled_error(provider: &str, limit: Duration) -> ProviderError {
    ProviderError::timed_out(crate::t!(
        "pi.ai.stream_stalled",
        provider = provider,
        seconds = seconds_text(limit)
    ))
}

/// Wait for `work` until `deadline` (forever without one); past it, the deadline's error.
pub async fn until_first_byte<T>(
    deadline: Option<FirstByteDeadline>,
    provider: &str,
    work: impl std::future::Future<Output = Result<T, ProviderError>>,
) -> Result<T, ProviderError> {
    match deadline {
        Some(d) => tokio::time::timeout(d.remaining(), work)
            .await
            .map_err(|_| d.error(provider))?,
        None => work.await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_total_bound_cuts_the_first_byte_wait_short() {
        set_first_byte_timeout_ms(DEFAULT_FIRST_BYTE_TIMEOUT_MS);
        let own = FirstByteDeadline::for_request(None).unwrap();
        assert!(!own.total_bound);
        assert_eq!(own.waited, Duration::from_secs(60));
        let soon = Instant::now() + Duration::from_secs(5);
        let cut = FirstByteDeadline::for_request(Some(soon)).unwrap();
        assert!(cut.total_bound);
        assert!(cut.waited <= Duration::from_secs(5));
        let late = Instant::now() + Duration::from_secs(500);
        assert!(!FirstByteDeadline::for_request(Some(late)).unwrap().total_bound);
        assert_eq!(seconds_text(Duration::from_millis(400)), "0.4");
        assert_eq!(seconds_text(Duration::from_secs(60)), "60");
    }
}
