//! Compaction of an [`AgentSession`]: manual (`/compact`), automatic past
//! the threshold, and recovery from a context-overflow error (compact, then
//! retry the turn once). Extensions may cancel or supply the summary.

use crate::t;

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::agent::events::AgentEvent;
use crate::ai::errors::is_context_overflow;
use crate::ai::types::{Message, StopReason};
use crate::compaction::error::CompactionError;
use crate::compaction::tokens::{calculate_context_tokens, last_usage_index};
use crate::compaction::{CompactionPreparation, CompactionResult, compact, prepare_compaction};
use crate::core::agent_session::AgentSession;
use crate::core::extension_bridge::BeforeCompact;

/// Why a compaction runs (pi's `reason` field).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompactionReason {
    /// `/compact` or the RPC `compact` command.
    Manual,
    /// The context passed `contextWindow - reserveTokens`.
    Threshold,
    /// The provider rejected the request as too long.
    Overflow,
}

impl CompactionReason {
    /// The name used in events.
    pub fn as_str(self) -> &'static str {
        match self {
            CompactionReason::Manual => "manual",
            CompactionReason::Threshold => "threshold",
            CompactionReason::Overflow => "overflow",
        }
    }
}

fn preparation_json(p: &CompactionPreparation) -> Value {
    json!({
        "firstKeptEntryId": p.first_kept_entry_id,
        "messagesToSummarize": p.messages_to_summarize,
        "turnPrefixMessages": p.turn_prefix_messages,
        "isSplitTurn": p.is_split_turn,
        "tokensBefore": p.tokens_before,
        "previousSummary": p.previous_summary,
        "fileOps": {"read": p.file_ops.read, "written": p.file_ops.written, "edited": p.file_ops.edited},
        "settings": {
            "enabled": p.settings.enabled,
            "reserveTokens": p.settings.reserve_tokens,
            "keepRecentTokens": p.settings.keep_recent_tokens,
        },
    })
}

impl AgentSession {
    /// Summarize older messages into a `compaction` entry (appended; the
    /// file is never rewritten) and reload the context from the session.
    /// On failure the session is unchanged and the error says why.
    pub async fn compact(
        &mut self,
        custom_instructions: Option<&str>,
        reason: CompactionReason,
        will_retry: bool,
        signal: &CancellationToken,
    ) -> Result<CompactionResult, CompactionError> {
        self.emit(&AgentEvent::CompactionStart {
            reason: reason.as_str().to_string(),
        });
        let outcome = self.run_compaction(custom_instructions, signal).await;
        let (result, aborted, error) = match &outcome {
            Ok(r) => (Some(r.to_json()), false, None),
            Err(e) => (
                None,
                signal.is_cancelled() || *e == CompactionError::Cancelled,
                Some(e.to_string()),
            ),
        };
        self.emit(&AgentEvent::CompactionEnd {
            reason: reason.as_str().to_string(),
            will_retry: will_retry && result.is_some(),
            result,
            aborted,
            error_message: error.filter(|_| !aborted),
        });
        outcome
    }

    async fn run_compaction(
        &mut self,
        custom_instructions: Option<&str>,
        signal: &CancellationToken,
    ) -> Result<CompactionResult, CompactionError> {
        self.sync_extensions();
        let path = self.session.get_branch(None);
        let preparation =
            prepare_compaction(&path, self.compaction).ok_or(CompactionError::Nothing)?;
        let mut from_hook = false;
        let mut result = None;
        if let Some(ext) = &self.extensions {
            let payload = json!({
                "type": "session_before_compact",
                "preparation": preparation_json(&preparation),
                "branchEntries": path,
                "customInstructions": custom_instructions,
            });
            match ext.before_compact(payload).await {
                BeforeCompact::Cancel => return Err(CompactionError::Cancelled),
                BeforeCompact::Supplied(c) => {
                    from_hook = true;
                    result = Some(CompactionResult {
                        summary: c
                            .get("summary")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_string(),
                        first_kept_entry_id: c
                            .get("firstKeptEntryId")
                            .and_then(Value::as_str)
                            .unwrap_or(&preparation.first_kept_entry_id)
                            .to_string(),
                        tokens_before: c
                            .get("tokensBefore")
                            .and_then(Value::as_u64)
                            .unwrap_or(preparation.tokens_before),
                        details: c.get("details").filter(|d| !d.is_null()).cloned(),
                    });
                }
                BeforeCompact::Default => {}
            }
        }
        let result = match result {
            Some(r) => r,
            None => compact(&preparation, &self.config, custom_instructions, signal).await?,
        };
        if signal.is_cancelled() {
            return Err(CompactionError::Cancelled);
        }
        let id = self.session.append_compaction(
            &result.summary,
            &result.first_kept_entry_id,
            result.tokens_before,
            result.details.clone(),
            from_hook.then_some(true),
        );
        if let Err(e) = self.session.sync() {
            eprintln!("{}", t!("pi.session.save_failed", error = e.to_string()));
        }
        self.state.messages = self.session.take_conversation().1;
        self.sync_extensions();
        if let Some(ext) = &self.extensions {
            let entry = self
                .session
                .entry(&id)
                .and_then(|e| serde_json::to_value(e).ok())
                .unwrap_or(Value::Null);
            ext.compacted(entry, from_hook).await;
            ext.apply_session_actions(&mut self.session);
        }
        Ok(result)
    }

    /// After a run, as pi 0.73.1 checks its last answer: recover from a context overflow
    /// of this model (compact, then retry the turn once; a second overflow is reported,
    /// not compacted again), or compact when the context passed the threshold — for a
    /// failed answer, estimated from the last answer that finished. An answer from before
    /// the latest compaction does not count. Messages queued meanwhile are then delivered.
    pub(super) async fn compact_if_needed(&mut self, signal: &CancellationToken) {
        if signal.is_cancelled() || !self.compaction.enabled {
            return;
        }
        let Some(last) = self
            .state
            .messages
            .last()
            .and_then(|m| m.as_assistant().cloned())
        else {
            return;
        };
        if last.stop_reason == StopReason::Aborted {
            return;
        }
        let compacted_at = self.latest_compaction_ms();
        if compacted_at.is_some_and(|at| last.timestamp <= at) {
            return;
        }
        if self.is_own_overflow(&last) {
            if self
                .compact(None, CompactionReason::Overflow, true, signal)
                .await
                .is_err()
            {
                return;
            }
            // The rejected answer stays in the file but not in the retry.
            if matches!(
                self.state.messages.last().as_deref(),
                Some(Message::Assistant(_))
            ) {
                self.state.messages.pop();
            }
            self.run_loop(None, signal).await;
            let again = self
                .state
                .messages
                .last()
                .and_then(|m| m.as_assistant().cloned());
            if again.is_some_and(|a| self.is_own_overflow(&a)) {
                self.emit(&AgentEvent::CompactionEnd {
                    reason: CompactionReason::Overflow.as_str().into(),
                    result: None,
                    aborted: false,
                    will_retry: false,
                    error_message: Some(OVERFLOW_RECOVERY_FAILED.into()),
                });
            }
            return;
        }
        let tokens = if last.stop_reason == StopReason::Error {
            let messages = &self.state.messages;
            let Some(at) = last_usage_index(messages) else {
                return;
            };
            // Usage from before the compaction describes the old, larger context.
            let used_at = messages
                .get(at)
                .and_then(|m| m.as_assistant().map(|a| a.timestamp))
                .unwrap_or(0);
            if compacted_at.is_some_and(|c| used_at <= c) {
                return;
            }
            crate::compaction::estimate_context_tokens(messages)
        } else {
            calculate_context_tokens(&last.usage)
        };
        let window = self.config.model.context_window;
        if !crate::compaction::should_compact(tokens, window, &self.compaction) {
            return;
        }
        let compacted = self
            .compact(None, CompactionReason::Threshold, false, signal)
            .await
            .is_ok();
        let queued = !(self.queues.steering.is_empty() && self.queues.follow_up.is_empty());
        if compacted && queued && !signal.is_cancelled() {
            self.run_loop(None, signal).await;
            self.retry_transient_errors(signal).await;
        }
    }

    /// Whether `answer` is a context overflow of the model in use (an overflow another
    /// model reported says nothing about this one's window).
    fn is_own_overflow(&self, answer: &crate::ai::types::AssistantMessage) -> bool {
        let model = &self.config.model;
        answer.provider == model.provider
            && answer.model == model.id
            && is_context_overflow(answer, Some(model.context_window))
    }

    /// When the latest compaction on the current branch was made (ms since the epoch).
    fn latest_compaction_ms(&self) -> Option<i64> {
        self.session
            .last_on_branch(&["compaction"], |e| {
                matches!(e, crate::session::SessionEntry::Compaction(_))
            })
            .and_then(|e| crate::session::ids::iso_to_ms(e.timestamp()))
    }
}

impl AgentSession {
    /// Before a prompt goes out: compact first when the context is already past the
    /// threshold, as a resumed long session or an aborted last answer leaves it. An answer
    /// from before the latest compaction does not count (its usage describes the old,
    /// larger context).
    pub(super) async fn compact_before_prompt(&mut self, signal: &CancellationToken) {
        if !self.compaction.enabled || signal.is_cancelled() {
            return;
        }
        let Some(last) = self
            .state
            .messages
            .iter()
            .rev()
            .find_map(|m| m.as_assistant().cloned())
        else {
            return;
        };
        let compacted_at = self.latest_compaction_ms();
        if compacted_at.is_some_and(|at| last.timestamp <= at) {
            return;
        }
        let tokens = if last.stop_reason == StopReason::Error {
            crate::compaction::estimate_context_tokens(&self.state.messages)
        } else {
            calculate_context_tokens(&last.usage)
        };
        let window = self.config.model.context_window;
        if crate::compaction::should_compact(tokens, window, &self.compaction) {
            let _ = self
                .compact(None, CompactionReason::Threshold, false, signal)
                .await;
        }
    }
}

/// `errorMessage` of the `compaction_end` event when a retried turn overflowed again (the
/// value pi 0.73.1's RPC clients read).
pub const OVERFLOW_RECOVERY_FAILED: &str = "Context overflow recovery failed after one compact-and-retry attempt. Try reducing context or switching to a larger-context model.";
