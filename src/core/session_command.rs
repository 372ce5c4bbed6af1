//! The typed session commands every front end sends: the terminal UI, RPC mode, the SDK
//! and the extension actions name a change to the session with a [`SessionCommand`] and
//! [`AgentSession::execute`] carries it out, so a behaviour is fixed in one place for all.

use std::path::PathBuf;

use tokio_util::sync::CancellationToken;

use crate::ai::model::{Model, ThinkingLevel};
use crate::compaction::summarize::CompactionResult;
use crate::core::agent_session::{AgentSession, CompactionReason};
use crate::core::error::CoreError;
use crate::core::session_switch::{BranchOutcome, BranchPosition};

/// How a model change came about (the `source` of the `model_select` event).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelSource {
    /// Chosen by name (`/model`, RPC `set_model`, the SDK, `pi.setModel`).
    Set,
    /// The next model of the cycle (Ctrl+P, RPC `cycle_model`).
    Cycle,
}

impl ModelSource {
    /// The name extensions see.
    pub fn as_str(self) -> &'static str {
        match self {
            ModelSource::Set => "set",
            ModelSource::Cycle => "cycle",
        }
    }
}

/// One change to the session, as any front end asks for it.
#[derive(Debug, Clone)]
pub enum SessionCommand {
    /// Switch to `model`.
    SetModel {
        /// The model to use from now on.
        model: Box<Model>,
        /// Why (for `model_select`).
        source: ModelSource,
    },
    /// Set the thinking level (clamped to the model).
    SetThinking(ThinkingLevel),
    /// The next thinking level the model supports.
    CycleThinking,
    /// Name the session.
    SetName(String),
    /// Compact automatically when the context fills up.
    SetAutoCompaction(bool),
    /// Retry failed requests automatically.
    SetAutoRetry(bool),
    /// Start a fresh session, optionally recording the session it came from.
    NewSession {
        /// The parent session file.
        parent: Option<String>,
    },
    /// Continue another session file.
    SwitchSession(PathBuf),
    /// A new session ending just before the user message `entry`.
    Fork(String),
    /// A new session holding the current branch.
    Clone,
    /// Summarize older messages now.
    Compact {
        /// What the summary should focus on.
        instructions: Option<String>,
        /// Stops the summary.
        signal: CancellationToken,
    },
}

/// What a [`SessionCommand`] did.
#[derive(Debug)]
pub enum Outcome {
    /// Done, nothing to report.
    Done,
    /// The model or thinking level was set; whether the thinking level changed.
    Thinking {
        /// The thinking level differs from before.
        changed: bool,
    },
    /// A cycle of thinking levels: the new level, `None` when the model cannot think.
    Cycled(Option<ThinkingLevel>),
    /// A session switch, new session or clone; `true` when an extension cancelled it.
    Switched {
        /// An extension cancelled it.
        cancelled: bool,
    },
    /// A fork: the text of the message forked from, or cancelled.
    Forked(BranchOutcome),
    /// A compaction's result.
    Compacted(CompactionResult),
}

impl AgentSession {
    /// Carry out `command` on the idle session. Fails with a message for the user.
    pub async fn execute(&mut self, command: SessionCommand) -> Result<Outcome, CoreError> {
        match command {
            SessionCommand::SetModel { model, source } => {
                let changed = self.switch_model(*model, source).await;
                Ok(Outcome::Thinking { changed })
            }
            SessionCommand::SetThinking(level) => {
                let changed = self.change_thinking(level).await;
                Ok(Outcome::Thinking { changed })
            }
            SessionCommand::CycleThinking => Ok(Outcome::Cycled(self.cycle_thinking().await)),
            SessionCommand::SetName(name) => {
                let name = name.trim();
                if name.is_empty() {
                    return Err(CoreError::EmptyName);
                }
                self.session.append_session_info(name);
                Ok(Outcome::Done)
            }
            SessionCommand::SetAutoCompaction(on) => {
                self.compaction.enabled = on;
                Ok(Outcome::Done)
            }
            SessionCommand::SetAutoRetry(on) => {
                self.retry.settings.enabled = on;
                Ok(Outcome::Done)
            }
            SessionCommand::NewSession { parent } => {
                let cancelled = !self.new_session_with_parent(parent.as_deref()).await;
                Ok(Outcome::Switched { cancelled })
            }
            SessionCommand::SwitchSession(path) => {
                if !path.is_file() {
                    return Err(CoreError::SessionFileMissing { path });
                }
                let switched = self.resume_session(&path).await?;
                if switched {
                    self.bind_session();
                }
                Ok(Outcome::Switched {
                    cancelled: !switched,
                })
            }
            SessionCommand::Fork(entry) => {
                if self.session.entry(&entry).is_none() {
                    return Err(CoreError::EntryMissing { id: entry });
                }
                let outcome = self.branch_session(&entry, BranchPosition::Before).await?;
                Ok(Outcome::Forked(outcome))
            }
            SessionCommand::Clone => {
                let leaf = self
                    .session
                    .leaf_id()
                    .map(str::to_string)
                    .ok_or(CoreError::NothingToClone)?;
                let outcome = self.branch_session(&leaf, BranchPosition::At).await?;
                Ok(Outcome::Switched {
                    cancelled: outcome == BranchOutcome::Cancelled,
                })
            }
            SessionCommand::Compact {
                instructions,
                signal,
            } => {
                let result = self
                    .compact(
                        instructions.as_deref(),
                        CompactionReason::Manual,
                        false,
                        &signal,
                    )
                    .await?;
                Ok(Outcome::Compacted(result))
            }
        }
    }

    /// Switch models. Coming from a model that cannot think, the thinking level starts
    /// again from [`AgentSession::default_thinking`] when one is set; it is then clamped to
    /// the new model. Records the change and tells extensions (`thinking_level_select`
    /// when the level changed, then `model_select`). Returns whether the level changed.
    pub async fn switch_model(&mut self, model: Model, source: ModelSource) -> bool {
        let wanted = match self.default_thinking {
            Some(default) if !self.config.model.reasoning => default,
            _ => self.config.thinking,
        };
        let before = self.config.thinking;
        self.set_model(model, source.as_str()).await;
        if self.config.model.clamp_thinking(wanted) != self.config.thinking {
            self.set_thinking_level(wanted).await;
        }
        self.config.thinking != before
    }

    /// Set the thinking level (clamped); returns whether it changed.
    pub async fn change_thinking(&mut self, level: ThinkingLevel) -> bool {
        let before = self.config.thinking;
        self.set_thinking_level(level).await;
        self.config.thinking != before
    }

    /// The next level the model supports after the current one (`None`: it cannot think).
    async fn cycle_thinking(&mut self) -> Option<ThinkingLevel> {
        let model = &self.config.model;
        if !model.reasoning {
            return None;
        }
        let levels: Vec<ThinkingLevel> = ThinkingLevel::ALL
            .into_iter()
            .filter(|l| model.supports_level(*l))
            .collect();
        let at = levels.iter().position(|l| *l == self.config.thinking);
        let next = levels[at.map_or(0, |i| (i + 1) % levels.len())];
        self.set_thinking_level(next).await;
        Some(self.config.thinking)
    }
}
