//! Switching the conversation to another session file: a new one (`/new`), a stored one
//! (`/resume`), a fork or a clone, with the extension events pi emits around each
//! (`session_before_switch` / `session_before_fork` may cancel, then `session_shutdown` and
//! `session_start` with the reason and `previousSessionFile`).

use std::path::Path;

use serde_json::json;

use crate::ai::types::Message;
use crate::core::agent_session::AgentSession;
use crate::core::error::CoreError;
use crate::session::manager::SessionManager;

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
    /// Start a fresh session (`/new`): `session_before_switch` may cancel
    /// (returns `false`); then `session_shutdown`, the reset and
    /// `session_start{reason="new", previousSessionFile}`.
    pub async fn new_session(&mut self) -> bool {
        self.new_session_with_parent(None).await
    }

    /// [`Self::new_session`] with a `parentSession` recorded in the new header.
    pub async fn new_session_with_parent(&mut self, parent: Option<&str>) -> bool {
        if self
            .session_before("session_before_switch", json!({"reason": "new"}))
            .await
        {
            return false;
        }
        let previous = self.session.session_file().map(|p| p.display().to_string());
        self.session_event_with("session_shutdown", "new", json!({}))
            .await;
        self.session.new_session(parent);
        self.bind_session();
        let model = self.config.model.clone();
        self.session.append_model_change(&model.provider, &model.id);
        self.session
            .append_thinking_level_change(self.config.thinking);
        self.session_event_with(
            "session_start",
            "new",
            json!({"previousSessionFile": previous}),
        )
        .await;
        self.apply_idle_actions().await;
        true
    }

    /// Continue the session file at `path` (`/resume`):
    /// `session_before_switch` may cancel (`Ok(false)`). A session of another
    /// folder moves the conversation there (tools, context files, extension
    /// `cwd`); when that folder no longer exists nothing changes and the error
    /// says so.
    pub async fn resume_session(&mut self, path: &Path) -> Result<bool, CoreError> {
        let target = path.display().to_string();
        if self
            .session_before(
                "session_before_switch",
                json!({"reason": "resume", "targetSessionFile": target}),
            )
            .await
        {
            return Ok(false);
        }
        self.switch_session_file(path, None).await?;
        Ok(true)
    }

    /// Leave the current session for the file at `path` (its cwd replaced by `cwd` when
    /// given), with `session_shutdown` and `session_start{reason="resume"}` around it.
    /// The session is stored next to its file, as pi does.
    pub(crate) async fn switch_session_file(
        &mut self,
        path: &Path,
        cwd: Option<&Path>,
    ) -> Result<(), CoreError> {
        let target = path.display().to_string();
        let _ = self.session.sync();
        let session =
            SessionManager::open_with(path, None, cwd).map_err(|error| CoreError::OpenFailed {
                path: path.to_path_buf(),
                error,
            })?;
        let folder = session.cwd().to_path_buf();
        let moves = folder != self.config.cwd;
        if moves && !folder.is_dir() {
            return Err(CoreError::CwdMissing {
                cwd: folder,
                current: self.config.cwd.clone(),
            });
        }
        let previous = self.session.session_file().map(|p| p.display().to_string());
        self.session_event_with(
            "session_shutdown",
            "resume",
            json!({"targetSessionFile": target}),
        )
        .await;
        self.session = session;
        if moves {
            self.enter_folder(folder);
        }
        self.bind_session();
        self.session_event_with(
            "session_start",
            "resume",
            json!({"previousSessionFile": previous}),
        )
        .await;
        self.apply_idle_actions().await;
        Ok(())
    }

    /// Work in `folder` from now on: tools and user commands run there and the system
    /// prompt names it and holds its context files. The process's own working directory
    /// is the caller's to change.
    fn enter_folder(&mut self, folder: std::path::PathBuf) {
        if let Some(for_cwd) = &self.prompt_for_cwd {
            self.prompt_for_tools = Some(for_cwd(&folder));
        }
        self.config.cwd = folder;
        self.rebuild_system_prompt();
    }

    /// Fork (`Before` a user message) or clone (`At` an entry) into a new session file whose
    /// header names the current one as `parentSession`.
    pub async fn branch_session(
        &mut self,
        entry_id: &str,
        position: BranchPosition,
    ) -> Result<BranchOutcome, CoreError> {
        let entry =
            self.session
                .entry(entry_id)
                .cloned()
                .ok_or_else(|| CoreError::EntryMissing {
                    id: entry_id.to_string(),
                })?;
        let text = match (position, entry.as_message()) {
            (BranchPosition::Before, Some(Message::User(user))) => Some(user.content.text()),
            (BranchPosition::Before, _) => {
                return Err(CoreError::ForkNotUser {
                    id: entry_id.to_string(),
                });
            }
            (BranchPosition::At, _) => None,
        };
        let position_name = match position {
            BranchPosition::Before => "before",
            BranchPosition::At => "at",
        };
        let mut event = json!({"entryId": entry_id, "position": position_name});
        if let Some(files) = self.fork_files.take() {
            event["fileChoice"] = json!(files);
        }
        if self.session_before("session_before_fork", event).await {
            return Ok(BranchOutcome::Cancelled);
        }
        let previous = self.session.session_file().map(|p| p.display().to_string());
        let from_id = self.session.session_id().to_string();
        let _ = self.session.sync();
        let leaf = match position {
            BranchPosition::Before => entry.parent_id().map(str::to_string),
            BranchPosition::At => Some(entry_id.to_string()),
        };
        match leaf {
            Some(leaf) => {
                self.session
                    .create_branched_session(&leaf)
                    .map_err(CoreError::CreateFailed)?;
                self.carry_checkpoints(&from_id);
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

    /// The fork just made from session `from_id` keeps the checkpoints of the messages
    /// it kept, so `/rewind` in it reaches back past the branch point.
    fn carry_checkpoints(&mut self, from_id: &str) {
        if self.checkpoint_settings.is_none() {
            return;
        }
        let Some(dir) = self.session.session_dir().map(std::path::Path::to_path_buf) else {
            return;
        };
        let kept: std::collections::HashSet<String> =
            self.session.entry_ids().map(str::to_string).collect();
        let to = self.session.session_id().to_string();
        crate::checkpoint::prune::copy_to_fork(&dir, from_id, &to, &kept);
    }

    /// Bind the conversation to the session it now has: its context, its id, and no
    /// messages left queued for the old one.
    pub fn bind_session(&mut self) {
        self.queues.steering.drain();
        self.queues.follow_up.drain();
        self.state.messages = self.session.take_conversation().1;
        self.config.session_id = Some(self.session.session_id().to_string());
        // "Always" answers belong to their session; rules judge paths in its folder.
        self.permissions.load_session_rules(&self.session);
        self.permissions.policy.cwd = self.config.cwd.clone();
    }
}
