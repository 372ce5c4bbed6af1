//! Bounded waits for a provider's reply: how long the first byte and a silent stream
//! may take (settings `retry.provider.firstByteTimeoutMs` and `idleTimeoutMs`), the
//! errors that name the wait that ran out, and what the newest request is waiting for
//! (shown on the terminal UI's working line).

use std::sync::Mutex;
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

/// What a request is waiting for before its first byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waiting {
    /// The connection (TCP, then TLS) is being made.
    Connecting,
    /// The request is sent; the response has not begun.
    FirstByte,
}

/// What the newest provider request is waiting for, where, and since when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Progress {
    /// The wait.
    pub waiting: Waiting,
    /// `host:port` of the provider.
    pub host: String,
    /// When the request was sent.
    pub since: Instant,
}

static PROGRESS: Mutex<Option<(u64, Progress)>> = Mutex::new(None);
static NEXT_REQUEST: AtomicU64 = AtomicU64::new(1);

/// What the newest provider request still waits for (`None` once its first bytes came,
/// or it ended).
pub fn progress() -> Option<Progress> {
    PROGRESS
        .lock()
        .ok()
        .and_then(|p| p.as_ref().map(|(_, p)| p.clone()))
}

/// Marks one request as the newest and clears it when dropped (its first bytes came,
/// or it failed).
#[derive(Debug)]
pub struct ProgressGuard(u64);

impl ProgressGuard {
    /// A request to `url` was just sent.
    pub fn begin(url: &str) -> Self {
        let id = NEXT_REQUEST.fetch_add(1, Ordering::Relaxed);
        let host = reqwest::Url::parse(url)
            .ok()
            .and_then(|u| {
                let host = u.host_str()?.to_string();
                Some(match u.port() {
                    Some(port) => format!("{host}:{port}"),
                    None => host,
                })
            })
            .unwrap_or_default();
        let progress = Progress {
            waiting: Waiting::FirstByte,
            host,
            since: Instant::now(),
        };
        if let Ok(mut p) = PROGRESS.lock() {
            *p = Some((id, progress));
        }
        ProgressGuard(id)
    }
}

/// The newest request started or finished making its connection.
pub fn set_waiting(waiting: Waiting) {
    if let Ok(mut p) = PROGRESS.lock()
        && let Some((_, progress)) = p.as_mut()
    {
        progress.waiting = waiting;
    }
}

impl Drop for ProgressGuard {
    fn drop(&mut self) {
        if let Ok(mut p) = PROGRESS.lock()
            && p.as_ref().is_some_and(|(id, _)| *id == self.0)
        {
            *p = None;
        }
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
        assert!(
            !FirstByteDeadline::for_request(Some(late))
                .unwrap()
                .total_bound
        );
        assert_eq!(seconds_text(Duration::from_millis(400)), "0.4");
        assert_eq!(seconds_text(Duration::from_secs(60)), "60");
    }
}
