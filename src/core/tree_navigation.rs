//! Moving within the session tree (`/tree`, `ctx.navigateTree`): pi's rules for where the
//! leaf goes, the `session_before_tree` hook, an optional summary of the branch left
//! behind, a label, and the `session_tree` event.

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::ai::types::Message;
use crate::compaction::{collect_entries_for_branch_summary, generate_branch_summary};
use crate::core::agent_session::AgentSession;
use crate::core::error::CoreError;
use crate::session::entries::SessionEntry;

/// How to move.
#[derive(Debug, Clone, Default)]
pub struct NavigateOptions {
    /// Summarize the branch left behind with the model.
    pub summarize: bool,
    /// Extra instructions for that summary.
    pub custom_instructions: Option<String>,
    /// The instructions replace the default summary prompt instead of adding to it.
    pub replace_instructions: bool,
    /// A label for the summary entry (or the target when there is no summary).
    pub label: Option<String>,
    /// `branchSummary.reserveTokens`.
    pub reserve_tokens: u64,
}

/// What a move did.
#[derive(Debug, Clone, PartialEq)]
pub enum NavigateOutcome {
    /// The leaf moved; a user message chosen as the target gives its text back for the editor.
    Moved {
        /// The chosen user message's text.
        editor_text: Option<String>,
    },
    /// A `session_before_tree` handler cancelled.
    Cancelled,
}

/// The text of a user (or custom) message entry.
pub fn user_text(entry: &SessionEntry) -> Option<String> {
    match entry {
        SessionEntry::Message(m) => match &m.message {
            Message::User(u) => Some(u.content.text()),
            _ => None,
        },
        SessionEntry::CustomMessage(c) => Some(c.content.text()),
        _ => None,
    }
}

impl AgentSession {
    /// Move the leaf for the entry `target`: a user or custom message moves to its parent
    /// (its text comes back for the editor); anything else becomes the leaf. The context
    /// is rebuilt from the new path and extensions see `session_tree`.
    pub async fn navigate_tree(
        &mut self,
        target: &str,
        options: &NavigateOptions,
        signal: &CancellationToken,
    ) -> Result<NavigateOutcome, CoreError> {
        let entry = self
            .session
            .entry(target)
            .cloned()
            .ok_or(CoreError::TreeEntryGone)?;
        let editor_text = user_text(&entry);
        let new_leaf = match editor_text {
            Some(_) => entry.parent_id().map(str::to_string),
            None => Some(target.to_string()),
        };
        let old_leaf = self.session.leaf_id().map(str::to_string);
        let (entries, common) =
            collect_entries_for_branch_summary(&self.session, old_leaf.as_deref(), target);
        let instructions = options
            .custom_instructions
            .as_deref()
            .filter(|s| !s.trim().is_empty());
        let mut supplied = None;
        if let Some(ext) = self.extensions() {
            let payload = json!({
                "type": "session_before_tree",
                "preparation": {
                    "targetId": target, "oldLeafId": old_leaf, "commonAncestorId": common,
                    "entriesToSummarize": entries, "userWantsSummary": options.summarize,
                    "customInstructions": instructions,
                    "replaceInstructions": options.replace_instructions,
                    "label": options.label,
                },
            });
            for result in ext.before_tree(payload).await {
                if result.get("cancel").and_then(Value::as_bool) == Some(true) {
                    return Ok(NavigateOutcome::Cancelled);
                }
                if let Some(s) = result.get("summary").filter(|s| s.is_object()) {
                    supplied = Some(s.clone());
                }
            }
        }
        let mut summary_entry = None;
        let mut from_extension = false;
        if options.summarize && old_leaf.as_deref() != Some(target) && !entries.is_empty() {
            let (text, details, from_hook) = match supplied {
                Some(s) => (
                    s.get("summary")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string(),
                    s.get("details").filter(|d| !d.is_null()).cloned(),
                    Some(true),
                ),
                None => {
                    let summary = generate_branch_summary(
                        &entries,
                        &self.config,
                        options.reserve_tokens,
                        instructions,
                        options.replace_instructions,
                        signal,
                    )
                    .await
                    .map_err(CoreError::BranchSummary)?;
                    (summary.summary, Some(summary.details), None)
                }
            };
            from_extension = from_hook == Some(true);
            let id =
                self.session
                    .branch_with_summary(new_leaf.as_deref(), &text, details, from_hook)?;
            summary_entry = Some(id);
        } else {
            match &new_leaf {
                Some(id) => self.session.branch(id)?,
                None => self.session.reset_leaf(),
            }
        }
        if let Some(label) = options.label.as_deref().filter(|l| !l.trim().is_empty()) {
            let labelled = summary_entry.as_deref().unwrap_or(target);
            self.session.append_label_change(labelled, Some(label))?;
        }
        self.state.messages = self.session.take_conversation().1;
        self.sync_extensions();
        if let Some(ext) = self.extensions() {
            let summary = summary_entry
                .as_deref()
                .and_then(|id| self.session.entry(id))
                .and_then(|e| serde_json::to_value(e).ok());
            let payload = json!({
                "type": "session_tree",
                "newLeafId": self.session.leaf_id(),
                "oldLeafId": old_leaf,
                "summaryEntry": summary,
                "fromExtension": from_extension,
            });
            ext.handle.emit("session_tree", payload).await;
        }
        Ok(NavigateOutcome::Moved { editor_text })
    }
}
