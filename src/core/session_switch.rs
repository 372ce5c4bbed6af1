//! Forking and cloning the conversation into a new session file, with the extension events
//! pi emits around it: `session_before_fork` (may cancel), `session_shutdown`, then
//! `session_start{reason="fork", previousSessionFile}`.

use crate::t;

use serde_json::json;

use crate::ai::types::Message;
use crate::core::agent_session::AgentSession;

/// Where the new session ends relative to the chosen entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BranchPosition {
    /// `/fork`: the new session ends just before the entry (a user message, restored to the
    /// editor).
    Before,
    /// `/clone`: the new session ends at the entry.
    At,
}

/// What a fork or clone did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BranchOutcome {
    /// An extension cancelled it; nothing changed.
    Cancelled,
    /// The conversation continues in a new session; for a fork, the text of the message
    /// forked from.
    Branched { text: Option<String> },
}

impl AgentSession {
    /// Fork (`Before` a user message) or clone (`At` an entry) into a new session file whose
    /// header names the current one as `parentSession`.
    pub async fn branch_session(
        &mut self,
        entry_id: &str,
        position: BranchPosition,
    ) -> Result<BranchOutcome, String> {
        let entry = self
            .session
            .entry(entry_id)
            .cloned()
            .ok_or_else(|| t!("pi.session.entry_missing", id = entry_id))?;
        let text = match (position, entry.as_message()) {
            (BranchPosition::Before, Some(Message::User(user))) => Some(user.content.text()),
            (BranchPosition::Before, _) => {
                return Err(t!("pi.session.fork_not_user", id = entry_id));
            }
            (BranchPosition::At, _) => None,
        };
        let position_name = match position {
            BranchPosition::Before => "before",
            BranchPosition::At => "at",
        };
        if self
            .session_before(
                "session_before_fork",
                json!({"entryId": entry_id, "position": position_name}),
            )
            .await
        {
            return Ok(BranchOutcome::Cancelled);
        }
        let previous = self.session.session_file().map(|p| p.display().to_string());
        let _ = self.session.sync();
        let leaf = match position {
            BranchPosition::Before => entry.parent_id().map(str::to_string),
            BranchPosition::At => Some(entry_id.to_string()),
        };
        match leaf {
            Some(leaf) => {
                self.session
                    .create_branched_session(&leaf)
                    .map_err(|e| t!("pi.session.create_failed", error = e.to_string()))?;
            }
            None => {
                self.session.new_session(previous.as_deref());
                let model = self.config.model.clone();
                self.session.append_model_change(&model.provider, &model.id);
                self.session
                    .append_thinking_level_change(self.config.thinking);
            }
        }
        self.session_event_with("session_shutdown", "fork", json!({}))
            .await;
        self.bind_session();
        self.session_event_with(
            "session_start",
            "fork",
            json!({"previousSessionFile": previous}),
        )
        .await;
        let _ = self.apply_idle_actions().await;
        Ok(BranchOutcome::Branched { text })
    }

    /// Bind the conversation to the session it now has: its context, its id, and no
    /// messages left queued for the old one.
    pub fn bind_session(&mut self) {
        self.queues.steering.drain();
        self.queues.follow_up.drain();
        self.state.messages = self.session.build_context().messages;
        self.config.session_id = Some(self.session.session_id().to_string());
    }
}
