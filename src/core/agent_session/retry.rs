//! Retrying a run that failed with a transient provider error, as the retry policy allows.

use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

use super::{AgentSession, RETRY_CANCELLED};
use crate::agent::events::AgentEvent;
use crate::ai::error_kind::kind_of;
use crate::ai::errors::{is_context_overflow, is_retryable};
use crate::ai::types::{AssistantMessage, StopReason, now_ms};

impl AgentSession {
    /// After a failed run, retry while the error is transient and the policy allows
    /// another attempt; every attempt after the first stops waiting for its first byte
    /// when the request's total time (`retry.totalTimeoutMs`) is up.
    pub(super) async fn retry_transient_errors(&mut self, signal: &CancellationToken) {
        self.last_attempts = 1;
        let mut attempt = 0u32;
        let mut began: Option<Instant> = None;
        loop {
            // A run a limit stopped is over: retrying would only go past the limit.
            if let Some(stop) = &self.state.run.stopped {
                if attempt > 0 {
                    let final_error = Some(stop.message.clone());
                    self.emit(&AgentEvent::AutoRetryEnd {
                        success: false,
                        attempt,
                        final_error,
                    });
                }
                return;
            }
            let Some(last) = self
                .state
                .messages
                .last()
                .and_then(|m| m.as_assistant().cloned())
            else {
                break;
            };
            let failed = last.stop_reason == StopReason::Error;
            let transient = failed
                && !is_context_overflow(&last, Some(self.config.model.context_window))
                && is_retryable(&last);
            if !self.retry.settings.enabled || !transient {
                if attempt > 0 {
                    let final_error = if failed {
                        last.error_message.clone()
                    } else {
                        None
                    };
                    self.emit(&AgentEvent::AutoRetryEnd {
                        success: !failed && last.stop_reason != StopReason::Aborted,
                        attempt,
                        final_error,
                    });
                }
                break;
            }
            let error = last.error_message.clone().unwrap_or_default();
            let kind = kind_of(last.error_kind, &error);
            let began = *began.get_or_insert_with(|| request_began(&last));
            let Some(delay_ms) =
                self.retry
                    .next_retry(attempt, kind, last.retry_after_ms, began.elapsed())
            else {
                self.emit(&AgentEvent::AutoRetryEnd {
                    success: false,
                    attempt,
                    final_error: last.error_message.clone(),
                });
                break;
            };
            attempt += 1;
            self.emit(&AgentEvent::AutoRetryStart {
                attempt,
                max_attempts: self.retry.max_retries_for(kind),
                delay_ms,
                error_message: error,
            });
            self.state.messages.pop();
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_millis(delay_ms)) => {}
                _ = signal.cancelled() => {
                    self.emit(&AgentEvent::AutoRetryEnd { success: false, attempt, final_error: Some(RETRY_CANCELLED.into()) });
                    break;
                }
            }
            self.retry_deadline = self.retry.deadline(began);
            self.last_attempts = attempt + 1;
            self.run_loop(None, signal).await;
        }
        self.retry_deadline = None;
    }
}

/// When the request that ended in `failed` began: when it was sent if nothing came
/// back, else now (a reply cut off after streaming for minutes gets its full retries).
fn request_began(failed: &AssistantMessage) -> Instant {
    let now = Instant::now();
    if !failed.content.is_empty() {
        return now;
    }
    let ago = now_ms().saturating_sub(failed.timestamp).max(0) as u64;
    now.checked_sub(Duration::from_millis(ago)).unwrap_or(now)
}
