//! A retried request as one transcript line: the failed try's cause in a short
//! sentence and the countdown to the next try, updated in place (so at most one such
//! line is ever shown), then one line with the outcome. The full error text is shown
//! only when tool output is expanded (`app.tools.expand`).

use crate::t;

use std::time::{Duration, Instant};

use ratatui::text::{Line, Span};

use crate::ai::error_kind::{ProviderErrorKind, short_cause, verdict};
use crate::ai::errors::is_retryable;
use crate::ai::types::{AssistantMessage, StopReason};
use crate::core::agent_session::RETRY_CANCELLED;
use crate::tui::transcript::render::RenderOptions;
use crate::tui::transcript::{Item, Transcript};
use crate::ui_kit::text::{sanitize, wrap_line, wrap_runs};
use crate::ui_kit::theme::Theme;

/// What the retried request is doing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RetryState {
    /// A try failed in a way that may be retried; whether it will be is not known yet.
    Pending,
    /// Retry `attempt` of `max` starts in `seconds`.
    Waiting {
        /// Which retry.
        attempt: u32,
        /// Retries allowed for this failure.
        max: u32,
        /// Seconds left before it starts.
        seconds: u64,
    },
    /// Retry `attempt` of `max` is under way.
    Running {
        /// Which retry.
        attempt: u32,
        /// Retries allowed for this failure.
        max: u32,
    },
    /// The retries gave up: attempts, cause and what to check, in one sentence.
    GaveUp {
        /// The sentence.
        verdict: String,
    },
    /// Replaced by a later line, or the retry answered: nothing is shown.
    Hidden,
}

/// One retry line of the transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryRow {
    /// Where the request stands.
    pub state: RetryState,
    /// The latest failure, as a short sentence.
    pub cause: String,
    /// The latest failure's full error text.
    pub error: String,
}

impl RetryRow {
    /// The line will not change any more.
    pub fn is_settled(&self) -> bool {
        matches!(self.state, RetryState::GaveUp { .. } | RetryState::Hidden)
    }
}

/// The retry sequence under way in a live transcript.
#[derive(Debug, Default, Clone)]
pub(super) struct RetryTracker {
    /// The row that shows the sequence.
    row: Option<usize>,
    /// The row of a failed try whose retry is still to be decided.
    pending: Option<usize>,
    /// Tries that failed so far.
    failures: u32,
    /// When the next try starts.
    until: Option<Instant>,
    /// The latest failure's kind, error text and provider.
    kind: Option<ProviderErrorKind>,
    error: String,
    provider: String,
}

impl Transcript {
    /// A live reply failed: note it, and show one that may be retried (and has nothing
    /// else to show) as a pending retry line instead of its raw error.
    pub(super) fn note_failed_reply(&mut self, a: &AssistantMessage) {
        if a.stop_reason != StopReason::Error {
            return;
        }
        let error = a.error_message.clone().unwrap_or_default();
        self.retry.failures += 1;
        self.retry.kind = a.error_kind;
        self.retry.error = error.clone();
        self.retry.provider = a.provider.clone();
        if !is_retryable(a) {
            return;
        }
        let Some(index) = self.last_assistant_index() else {
            return;
        };
        if let Item::Assistant { text, thinking, .. } = &self.items[index]
            && text.trim().is_empty()
            && thinking.trim().is_empty()
        {
            let cause = short_cause(a.error_kind, &error);
            self.set_retry_row(index, RetryState::Pending, cause, error);
            self.retry.pending = Some(index);
        }
    }

    /// A retry will start after `delay_ms`: the sequence's one line shows it.
    pub(super) fn retry_started(&mut self, attempt: u32, max: u32, delay_ms: u64, error: &str) {
        let cause = short_cause(self.retry.kind, error);
        let seconds = delay_ms.div_ceil(1000);
        let index = self.retry_row_for_update();
        self.set_retry_row(
            index,
            RetryState::Waiting {
                attempt,
                max,
                seconds,
            },
            cause,
            error.to_string(),
        );
        self.retry.until = Some(Instant::now() + Duration::from_millis(delay_ms));
    }

    /// The retries ended: nothing is left on success, else one line with the verdict.
    pub(super) fn retry_ended(&mut self, success: bool, final_error: Option<&str>) {
        let tracker = std::mem::take(&mut self.retry);
        if success {
            if let Some(row) = tracker.row {
                self.hide_retry_row(row);
            }
            return;
        }
        let cancelled = final_error == Some(RETRY_CANCELLED);
        // The last try was stopped by the user, or failed in a way shown on its own.
        let stopped = cancelled || tracker.pending.is_none();
        let error = match final_error {
            Some(e) if !cancelled => e.to_string(),
            _ => tracker.error.clone(),
        };
        let text = verdict(
            tracker.failures.max(1),
            tracker.kind,
            &error,
            &tracker.provider,
            &self.base_url,
            stopped,
        );
        let cause = short_cause(tracker.kind, &error);
        let index = match tracker.pending {
            Some(pending) => {
                if let Some(row) = tracker.row.filter(|r| *r != pending) {
                    self.hide_retry_row(row);
                }
                pending
            }
            None => match tracker.row {
                Some(row) => row,
                None => self.items.len(),
            },
        };
        self.set_retry_row(index, RetryState::GaveUp { verdict: text }, cause, error);
    }

    /// The run is over: a failed try still waiting for a retry decision shows its error
    /// as any failed answer does.
    pub fn settle_retries(&mut self) {
        let tracker = std::mem::take(&mut self.retry);
        if let Some(index) = tracker.pending
            && let Some(Item::Retry(row)) = self.items.get(index)
        {
            self.items[index] = Item::Assistant {
                text: String::new(),
                thinking: String::new(),
                streaming: false,
                error: Some(row.error.clone()),
                aborted: false,
            };
            self.touch(index);
        }
        if let Some(row) = tracker.row.filter(|r| Some(*r) != tracker.pending) {
            self.hide_retry_row(row);
        }
    }

    /// Count the retry line down to `now`; true when it changed.
    pub fn tick_retry(&mut self, now: Instant) -> bool {
        let (Some(index), Some(until)) = (self.retry.row, self.retry.until) else {
            return false;
        };
        let Some(Item::Retry(row)) = self.items.get_mut(index) else {
            return false;
        };
        let RetryState::Waiting { attempt, max, .. } = row.state else {
            return false;
        };
        let left = until.saturating_duration_since(now).as_millis() as u64;
        let next = match left.div_ceil(1000) {
            0 => RetryState::Running { attempt, max },
            seconds => RetryState::Waiting {
                attempt,
                max,
                seconds,
            },
        };
        if next == row.state {
            return false;
        }
        row.state = next;
        self.touch(index);
        true
    }

    /// Seconds until the next try starts, while a retry waits.
    pub fn retry_countdown(&self) -> Option<u64> {
        let index = self.retry.row?;
        match self.items.get(index) {
            Some(Item::Retry(RetryRow {
                state: RetryState::Waiting { seconds, .. },
                ..
            })) => Some(*seconds),
            _ => None,
        }
    }

    /// The row to show the next retry in: the pending failed try's (the earlier line
    /// is hidden), else the sequence's line, else a new one at the end.
    fn retry_row_for_update(&mut self) -> usize {
        let index = match (self.retry.pending.take(), self.retry.row) {
            (Some(pending), Some(row)) if pending != row => {
                self.hide_retry_row(row);
                pending
            }
            (Some(pending), _) => pending,
            (None, Some(row)) => row,
            (None, None) => self.items.len(),
        };
        self.retry.row = Some(index);
        index
    }

    fn set_retry_row(&mut self, index: usize, state: RetryState, cause: String, error: String) {
        crate::i18n::probe::observe(&cause);
        let item = Item::Retry(RetryRow {
            state,
            cause,
            error,
        });
        if index < self.items.len() {
            self.items[index] = item;
            self.touch(index);
        } else {
            self.push(item);
        }
    }

    fn hide_retry_row(&mut self, index: usize) {
        if let Some(Item::Retry(row)) = self.items.get_mut(index) {
            row.state = RetryState::Hidden;
            self.touch(index);
        }
    }
}

/// The lines of a retry row (none when hidden).
pub fn render_retry(row: &RetryRow, options: &RenderOptions, theme: &Theme) -> Vec<Line<'static>> {
    let inner = options.width.max(1).saturating_sub(2).max(1);
    let (text, style) = match &row.state {
        RetryState::Hidden => return Vec::new(),
        RetryState::Pending => (row.cause.clone(), theme.fg("warning")),
        RetryState::Waiting {
            attempt,
            max,
            seconds,
        } => (
            t!(
                "pi.tui.retrying",
                attempt = *attempt,
                max = *max,
                seconds = *seconds,
                error = row.cause.as_str()
            ),
            theme.fg("warning"),
        ),
        RetryState::Running { attempt, max } => (
            t!(
                "pi.tui.retry_running",
                attempt = *attempt,
                max = *max,
                error = row.cause.as_str()
            ),
            theme.fg("warning"),
        ),
        RetryState::GaveUp { verdict } => (verdict.clone(), theme.fg("error")),
    };
    let mut runs = vec![(sanitize(&text), style)];
    let gave_up = matches!(row.state, RetryState::GaveUp { .. });
    if gave_up && !options.tools_expanded {
        let hint = t!("pi.tui.summary.expand", key = &options.expand_key);
        runs.push((format!(" {hint}"), theme.fg("dim")));
    }
    let mut lines = vec![Line::default()];
    for row in wrap_runs(&runs, inner, inner) {
        let mut spans = vec![Span::raw(" ")];
        spans.extend(
            row.into_iter()
                .map(|(text, style)| Span::styled(text, style)),
        );
        lines.push(Line::from(spans));
    }
    if gave_up && options.tools_expanded {
        for raw in sanitize(&row.error).split('\n') {
            for piece in wrap_line(raw, inner) {
                lines.push(Line::from(vec![
                    Span::raw(" "),
                    Span::styled(piece, theme.fg("dim")),
                ]));
            }
        }
    }
    lines
}

#[cfg(test)]
#[path = "retry_rows_tests.rs"]
mod tests;
