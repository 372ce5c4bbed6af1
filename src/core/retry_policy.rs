//! When a failed reply is tried again, and after how long: the settings `retry.*`, the
//! delay a server asks for, the cause of the failure and the total time one request may
//! take over all its attempts.

use std::time::{Duration, Instant};

use crate::ai::error_kind::ProviderErrorKind;
use crate::config::settings_keys::{DEFAULT_TOTAL_TIMEOUT_MS, RetrySettings};

/// The pause before the one retry of a failure that waiting does not fix (a refused
/// connection, an unknown host, a failed TLS handshake).
pub const PERSISTENT_RETRY_DELAY_MS: u64 = 250;

/// Automatic retry of transient provider errors: settings `retry.*` plus the
/// longest server-requested delay honoured (`retry.provider.maxRetryDelayMs`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryPolicy {
    /// `retry.enabled`, `retry.maxRetries`, `retry.baseDelayMs`, `retry.totalTimeoutMs`.
    pub settings: RetrySettings,
    /// Cap on a server's `retry-after` (0 = no cap).
    pub max_delay_ms: u64,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            settings: RetrySettings {
                enabled: true,
                max_retries: 3,
                base_delay_ms: 2000,
                total_timeout_ms: DEFAULT_TOTAL_TIMEOUT_MS,
            },
            max_delay_ms: 60_000,
        }
    }
}

/// Waiting does not fix this failure: it is retried at most once, at once.
fn persistent(kind: ProviderErrorKind) -> bool {
    matches!(kind, ProviderErrorKind::Network(cause) if cause.is_persistent())
}

impl RetryPolicy {
    /// The most retries a failure of `kind` gets.
    pub fn max_retries_for(&self, kind: ProviderErrorKind) -> u32 {
        if persistent(kind) {
            self.settings.max_retries.min(1)
        } else {
            self.settings.max_retries
        }
    }

    /// The pause before retry number `retry` (from 1) of a failure of `kind`: the
    /// server's `retry-after` (capped), else a backoff doubling from `retry.baseDelayMs`,
    /// and only a short pause for failures that waiting does not fix.
    pub fn delay_ms(
        &self,
        retry: u32,
        kind: ProviderErrorKind,
        retry_after_ms: Option<u64>,
    ) -> u64 {
        if persistent(kind) {
            return PERSISTENT_RETRY_DELAY_MS.min(self.settings.base_delay_ms);
        }
        let backoff = self
            .settings
            .base_delay_ms
            .saturating_mul(1 << retry.saturating_sub(1).min(16));
        match retry_after_ms {
            Some(d) if self.max_delay_ms == 0 => d,
            Some(d) => d.min(self.max_delay_ms),
            None => backoff,
        }
    }

    /// After `done` retries of a request whose attempts began `elapsed` ago, the pause
    /// before the next one; `None` gives up (retries off, none left for this kind, or
    /// the pause would end past `retry.totalTimeoutMs`).
    pub fn next_retry(
        &self,
        done: u32,
        kind: ProviderErrorKind,
        retry_after_ms: Option<u64>,
        elapsed: Duration,
    ) -> Option<u64> {
        if !self.settings.enabled || done >= self.max_retries_for(kind) {
            return None;
        }
        let delay = self.delay_ms(done + 1, kind, retry_after_ms);
        let total = self.settings.total_timeout_ms;
        let after_pause = elapsed.saturating_add(Duration::from_millis(delay));
        if total > 0 && after_pause >= Duration::from_millis(total) {
            return None;
        }
        Some(delay)
    }

    /// When the attempts of a request that began at `began` must stop waiting for a
    /// first byte (`None` without a total bound).
    pub fn deadline(&self, began: Instant) -> Option<Instant> {
        let total = self.settings.total_timeout_ms;
        (total > 0).then(|| began + Duration::from_millis(total))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::error_kind::NetworkCause;

    const TIMED_OUT: ProviderErrorKind = ProviderErrorKind::Network(NetworkCause::TimedOut);

    /// How long pi takes to report a provider that never sends a byte: each attempt
    /// waits out the first-byte timeout or the rest of the total time, whichever ends
    /// first, and the policy decides whether another one follows.
    fn silent_provider_report_time(policy: &RetryPolicy, first_byte: Duration) -> (Duration, u32) {
        let total = Duration::from_millis(policy.settings.total_timeout_ms);
        let mut now = Duration::ZERO;
        let mut attempts = 0;
        loop {
            attempts += 1;
            let left = total.saturating_sub(now);
            now += if attempts == 1 || policy.settings.total_timeout_ms == 0 {
                first_byte
            } else {
                first_byte.min(left)
            };
            match policy.next_retry(attempts - 1, TIMED_OUT, None, now) {
                Some(delay) => now += Duration::from_millis(delay),
                None => return (now, attempts),
            }
        }
    }

    #[test]
    fn by_default_a_provider_that_never_answers_is_reported_within_two_minutes() {
        let first_byte = Duration::from_millis(crate::ai::wait::DEFAULT_FIRST_BYTE_TIMEOUT_MS);
        let policy = RetryPolicy::default();
        let (reported, attempts) = silent_provider_report_time(&policy, first_byte);
        assert!(reported <= Duration::from_secs(120), "{reported:?}");
        assert_eq!(attempts, 2, "the wait is tried once more, within the bound");
        // Without the total bound the same provider would take over four minutes.
        let mut unbounded = policy;
        unbounded.settings.total_timeout_ms = 0;
        let (reported, attempts) = silent_provider_report_time(&unbounded, first_byte);
        assert_eq!(attempts, 4);
        assert!(reported > Duration::from_secs(240), "{reported:?}");
    }

    #[test]
    fn refused_connections_get_one_quick_retry_and_rate_limits_keep_their_backoff() {
        let policy = RetryPolicy::default();
        let refused = ProviderErrorKind::Network(NetworkCause::Refused);
        assert_eq!(
            policy.next_retry(0, refused, None, Duration::ZERO),
            Some(250)
        );
        assert_eq!(policy.next_retry(1, refused, None, Duration::ZERO), None);
        for cause in [NetworkCause::Dns, NetworkCause::Tls] {
            assert_eq!(policy.max_retries_for(ProviderErrorKind::Network(cause)), 1);
        }
        let closed = ProviderErrorKind::Network(NetworkCause::Closed);
        assert_eq!(policy.max_retries_for(closed), 3);
        let rate = ProviderErrorKind::RateLimit;
        let delays: Vec<_> = (0..3)
            .map(|done| policy.next_retry(done, rate, None, Duration::ZERO))
            .collect();
        assert_eq!(delays, [Some(2000), Some(4000), Some(8000)]);
        assert_eq!(policy.next_retry(3, rate, None, Duration::ZERO), None);
        assert_eq!(
            policy.next_retry(0, rate, Some(5000), Duration::ZERO),
            Some(5000),
            "retry-after is honoured"
        );
        assert_eq!(
            policy.next_retry(
                0,
                ProviderErrorKind::Http(503),
                Some(90_000),
                Duration::ZERO
            ),
            Some(60_000),
            "and capped by maxRetryDelayMs"
        );
    }

    #[test]
    fn no_retry_starts_past_the_total_time() {
        let policy = RetryPolicy::default();
        let http = ProviderErrorKind::Http(502);
        assert_eq!(
            policy.next_retry(0, http, None, Duration::from_secs(100)),
            Some(2000)
        );
        assert_eq!(
            policy.next_retry(0, http, None, Duration::from_secs(109)),
            None
        );
        let mut off = policy;
        off.settings.enabled = false;
        assert_eq!(off.next_retry(0, http, None, Duration::ZERO), None);
        let began = Instant::now();
        assert_eq!(
            policy.deadline(began),
            Some(began + Duration::from_secs(110))
        );
        off.settings.total_timeout_ms = 0;
        assert_eq!(off.deadline(began), None);
    }
}
