//! File checkpoints of the conversation: the session's [`CheckpointStore`], opened for
//! the session and folder in use, what a list of them shows, and rewinding — the files,
//! the conversation, or both — to before a user message.

use serde::Serialize;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::checkpoint::{Checkpoint, CheckpointKind, CheckpointStore, RestorePlan, RestoreReport};
use crate::core::agent_session::AgentSession;
use crate::core::error::CoreError;
use crate::core::session_switch::{BranchOutcome, BranchPosition};
use crate::core::tree_navigation::{NavigateOptions, NavigateOutcome};
use crate::session::entries::SessionEntry;

/// What to bring back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RewindOptions {
    /// Put the files back as they were.
    pub code: bool,
    /// Move the conversation back to before the message.
    pub conversation: bool,
}

/// What a rewind did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RewindOutcome {
    /// The files restored and the conflicts kept (empty when code was not asked for).
    pub files: RestoreReport,
    /// The user message's text, for the editor (when the conversation moved).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub editor_text: Option<String>,
    /// A `session_before_tree` handler cancelled the conversation part.
    pub cancelled: bool,
}

/// A checkpoint as extensions, RPC clients and programs see it.
pub fn checkpoint_json(cp: &Checkpoint) -> Value {
    cp.to_json()
}

/// When an entry was written, in ms since the epoch.
fn entry_ms(entry: &SessionEntry) -> Option<i64> {
    chrono::DateTime::parse_from_rfc3339(entry.timestamp())
        .ok()
        .map(|t| t.timestamp_millis())
}

impl AgentSession {
    /// The session's checkpoint store, opened (or reopened after a session switch) on
    /// first use; `None` when checkpoints are off or the session is not stored.
    pub fn checkpoint_store(&mut self) -> Option<&mut CheckpointStore> {
        let settings = self.checkpoint_settings?;
        let dir = self.session.session_dir()?.to_path_buf();
        let id = self.session.session_id().to_string();
        let cwd = self.config.cwd.clone();
        let stale = self
            .checkpoints
            .as_ref()
            .is_none_or(|s| !s.belongs_to(&dir, &id, &cwd));
        if stale {
            self.checkpoints = Some(CheckpointStore::open(&dir, &id, &cwd, settings));
        } else if let Some(store) = self.checkpoints.as_mut() {
            // An extension may have restored one meanwhile.
            store.reload();
        }
        self.checkpoints.as_mut()
    }

    /// The checkpoints of prompts and `!` commands, newest first.
    pub fn checkpoint_list(&mut self) -> Vec<Checkpoint> {
        let Some(store) = self.checkpoint_store() else {
            return Vec::new();
        };
        let mut list: Vec<Checkpoint> = store
            .checkpoints()
            .iter()
            .filter(|c| c.kind != CheckpointKind::Restore)
            .cloned()
            .collect();
        list.reverse();
        list
    }

    /// The checkpoint that restoring `target` (a checkpoint id or a user message's entry
    /// id) starts from: the message's own, else the first made after it.
    pub fn checkpoint_for(&mut self, target: &str) -> Option<Checkpoint> {
        let since = self.session.entry(target).and_then(entry_ms);
        let store = self.checkpoint_store()?;
        if let Some(cp) = store.checkpoints().iter().find(|c| c.id == target) {
            return Some(cp.clone());
        }
        store
            .for_entry(target)
            .or_else(|| since.and_then(|ms| store.first_since(ms)))
            .cloned()
    }

    /// The files restoring `target` would change (`None`: nothing recorded after it).
    pub fn rewind_plan(&mut self, target: &str) -> Option<RestorePlan> {
        let cp = self.checkpoint_for(target)?;
        self.checkpoint_store()?.plan(&cp.id)
    }

    /// Rewind to before `target` (a user message's entry id, or a checkpoint id whose
    /// message is used for the conversation). Conflicting files are overwritten only
    /// where `overwrite` says so.
    pub async fn rewind(
        &mut self,
        target: &str,
        options: RewindOptions,
        overwrite: &(dyn Fn(&str) -> bool + Send + Sync),
        signal: &CancellationToken,
    ) -> Result<RewindOutcome, CoreError> {
        let cp = self.checkpoint_for(target);
        let entry = match self.session.entry(target) {
            Some(_) => Some(target.to_string()),
            None => cp.as_ref().and_then(|c| c.entry_id.clone()),
        };
        let mut outcome = RewindOutcome::default();
        if options.conversation {
            let entry = entry.ok_or(CoreError::CheckpointWithoutMessage)?;
            match self
                .navigate_tree(&entry, &NavigateOptions::default(), signal)
                .await?
            {
                NavigateOutcome::Moved { editor_text } => outcome.editor_text = editor_text,
                NavigateOutcome::Cancelled => {
                    outcome.cancelled = true;
                    return Ok(outcome);
                }
            }
        }
        if options.code {
            let Some(cp) = cp else {
                return Ok(outcome);
            };
            let store = self.checkpoint_store().ok_or(CoreError::CheckpointsOff)?;
            let plan = store
                .plan(&cp.id)
                .ok_or_else(|| CoreError::CheckpointUnknown { id: cp.id.clone() })?;
            outcome.files =
                store
                    .apply(&plan, overwrite)
                    .map_err(|e| CoreError::RestoreFailed {
                        error: e.to_string(),
                    })?;
        }
        Ok(outcome)
    }

    /// Fork before user message `entry_id` (as `/fork`) and bring the files back to how
    /// they were before it; files changed by someone else since are overwritten only
    /// where `overwrite` says so.
    pub async fn fork_with_files(
        &mut self,
        entry_id: &str,
        overwrite: &(dyn Fn(&str) -> bool + Send + Sync),
    ) -> Result<(BranchOutcome, RestoreReport), CoreError> {
        let plan = self.rewind_plan(entry_id);
        // The store of the session forked from: the new session starts with none.
        let old = self.checkpoints.take();
        let outcome = self
            .branch_session(entry_id, BranchPosition::Before)
            .await?;
        let mut report = RestoreReport::default();
        if let (BranchOutcome::Branched { .. }, Some(plan), Some(mut store)) = (&outcome, plan, old)
        {
            report = store
                .apply(&plan, overwrite)
                .map_err(|e| CoreError::RestoreFailed {
                    error: e.to_string(),
                })?;
        }
        Ok((outcome, report))
    }

    /// Entries of the session whose run changed files, with how many.
    pub fn changed_file_counts(&mut self) -> std::collections::HashMap<String, usize> {
        let mut counts = std::collections::HashMap::new();
        if let Some(store) = self.checkpoint_store() {
            for cp in store.checkpoints() {
                if let Some(entry) = &cp.entry_id {
                    *counts.entry(entry.clone()).or_insert(0) += cp.after.len();
                }
            }
        }
        counts
    }
}

/// The run's part in checkpoints: what the tools are about to change, and the end.
pub(crate) trait RunCheckpoints {
    /// A tool call was allowed: keep what it may change first.
    fn before_change(&mut self, call: &crate::ai::types::ToolCall, args: &Value);
    /// The run is over: its checkpoint as an event, when it changed files.
    fn finish_checkpoint(&mut self) -> Option<crate::agent::events::AgentEvent>;
}

/// The entry id of the newest user message on the branch.
pub(crate) fn last_user_entry(session: &crate::session::manager::SessionManager) -> Option<String> {
    session
        .last_on_branch(&["message"], |e| {
            matches!(e, SessionEntry::Message(m) if matches!(m.message, crate::ai::types::Message::User(_)))
        })
        .map(|e| e.id().to_string())
}

/// Keep the pre-image of what `tool` with `args` may change (edit and write: their file;
/// bash: a snapshot of the workspace). Failing to keep it never stops the tool.
pub(crate) fn note_change(
    store: &mut CheckpointStore,
    session: &crate::session::manager::SessionManager,
    tool: &str,
    args: &Value,
) {
    if !store.recording() {
        return;
    }
    store.set_entry_if_missing(last_user_entry(session));
    let _ = match tool {
        "edit" | "write" => match args.get("path").and_then(Value::as_str) {
            Some(path) => {
                let path = crate::tools::paths::resolve_to_cwd(path, store.cwd());
                store.before_write(&path)
            }
            None => Ok(()),
        },
        "bash" => store.before_shell(),
        _ => Ok(()),
    };
}

/// Finish the run's checkpoint and prune to the limits; the `checkpoint` event for it.
pub(crate) fn finish(store: &mut CheckpointStore) -> Option<crate::agent::events::AgentEvent> {
    let cp = store.finish_run().ok()??;
    let pruned = store.prune();
    Some(crate::agent::events::AgentEvent::Checkpoint {
        id: cp.id.clone(),
        entry_id: cp.entry_id.clone(),
        files: cp.changed_files(),
        pruned,
    })
}
