//! The conversation-task side of `/tree`, `/fork`, `/clone` and `/compact`:
//! moving the leaf (optionally summarizing the branch left behind), writing
//! forked or cloned session files, and compacting.

use crate::t;

use crate::core::session_command::{Outcome, SessionCommand};
use crate::core::session_switch::BranchOutcome;
use tokio::sync::mpsc::UnboundedSender;
use tokio_util::sync::CancellationToken;

use crate::ai::types::Message;
use crate::core::agent_session::AgentSession;
use crate::core::tree_navigation::{NavigateOptions, NavigateOutcome, user_text};
use crate::session::entries::SessionEntry;
use crate::tui::app::session_task::{ResetKind, UiEvent};
use crate::tui::panels::tree_rows::flatten;

/// A tree, fork, clone or compaction request from the UI.
#[derive(Debug)]
pub enum TreeCommand {
    /// Send the flattened tree (`/tree`).
    Open,
    /// Move to an entry; `summarize` writes a branch summary of what is left.
    Navigate {
        /// The chosen entry.
        target: String,
        /// Summarize the abandoned branch with the model.
        summarize: bool,
        /// Extra focus for that summary.
        instructions: Option<String>,
        /// `branchSummary.reserveTokens`.
        reserve_tokens: u64,
        /// Aborts the summary.
        signal: CancellationToken,
    },
    /// Set (or clear, when empty) an entry's label.
    Label {
        /// Entry id.
        id: String,
        /// Label text.
        label: String,
    },
    /// `/rewind`: ask what to bring back (code, conversation or both) to before this user
    /// message (`None`: ask which message first), list the files, ask about conflicts.
    Rewind(Option<String>),
    /// Send the user messages of the whole session file (`/fork`).
    ForkList,
    /// Start a new session file from before this user message.
    Fork(String),
    /// Copy the current path into a new session file (`/clone`).
    Clone,
    /// Compact now (`/compact [instructions]`).
    Compact {
        /// Extra focus for the summary.
        instructions: String,
        /// Aborts the summary.
        signal: CancellationToken,
    },
}

fn reset(agent: &mut AgentSession, ui: &UnboundedSender<UiEvent>, kind: ResetKind) {
    agent.state.messages = agent.session.take_conversation().1;
    let _ = ui.send(UiEvent::Reset(super::session_task::restored(agent), kind));
}

/// Carry out one request.
pub async fn run_tree_command(
    agent: &mut AgentSession,
    command: TreeCommand,
    ui: &UnboundedSender<UiEvent>,
) {
    let failed = |message: String| {
        let _ = ui.send(UiEvent::Failed(message));
    };
    match command {
        TreeCommand::Open => {
            let mut data = flatten(&agent.session);
            let counts = agent.changed_file_counts();
            for row in &mut data.rows {
                row.files = counts.get(&row.id).copied().unwrap_or(0);
            }
            let _ = ui.send(UiEvent::Tree(Box::new(data)));
        }
        TreeCommand::Label { id, label } => {
            let label = Some(label.as_str()).filter(|l| !l.is_empty());
            if let Err(e) = agent.session.append_label_change(&id, label) {
                failed(t!("pi.tui.tree.label_failed", error = e.to_string()));
            }
        }
        TreeCommand::Navigate {
            target,
            summarize,
            instructions,
            reserve_tokens,
            signal,
        } => {
            let options = NavigateOptions {
                summarize,
                custom_instructions: instructions,
                reserve_tokens,
                ..NavigateOptions::default()
            };
            match agent.navigate_tree(&target, &options, &signal).await {
                Ok(NavigateOutcome::Moved { editor_text }) => {
                    reset(agent, ui, ResetKind::Navigated);
                    if let Some(text) = editor_text {
                        let _ = ui.send(UiEvent::EditorText(text));
                    }
                }
                Ok(NavigateOutcome::Cancelled) => failed(t!("pi.tui.tree.cancelled")),
                Err(e) => failed(e.to_string()),
            }
        }
        TreeCommand::Rewind(target) => match super::rewind_task::run_rewind(agent, target).await {
            Ok(Some(outcome)) => {
                if outcome.conversation {
                    reset(agent, ui, ResetKind::Navigated);
                }
                if let Some(text) = outcome.editor_text {
                    let _ = ui.send(UiEvent::EditorText(text));
                }
                let _ = ui.send(UiEvent::Notice(outcome.notice));
            }
            Ok(None) => {}
            Err(e) => failed(e.to_string()),
        },
        TreeCommand::ForkList => {
            // Every user message of the file, on any branch, in the order written (as pi),
            // marked as in the tree when its run changed files.
            let counts = agent.changed_file_counts();
            let messages = agent
                .session
                .user_messages()
                .filter_map(|e| match e.as_ref() {
                    SessionEntry::Message(m) if matches!(m.message, Message::User(_)) => {
                        let mut text = user_text(&e).unwrap_or_default();
                        if let Some(n) = counts.get(e.id()).filter(|n| **n > 0) {
                            let mark = t!("pi.tui.tree.files", count = *n);
                            text = format!("{} {mark}", text.trim_end());
                        }
                        Some((e.id().to_string(), text))
                    }
                    _ => None,
                })
                .collect();
            let _ = ui.send(UiEvent::ForkMessages(messages));
        }
        TreeCommand::Fork(id) => {
            if agent.session.entry(&id).is_none() {
                return failed(t!("pi.tui.fork.gone"));
            }
            // Cancelled by the user: nothing happens, as with `/rewind`.
            let Some(files) = super::rewind_task::ask_fork_files(agent, &id).await else {
                return;
            };
            if let Some(overwrite) = files {
                return match agent.fork_with_files(&id, &|_| overwrite).await {
                    Ok((BranchOutcome::Branched { text }, report)) => {
                        reset(agent, ui, ResetKind::Forked);
                        let _ = ui.send(UiEvent::EditorText(text.unwrap_or_default()));
                        let _ = ui.send(UiEvent::Notice(super::rewind_task::files_done(
                            report.restored.len(),
                            report.kept.len(),
                        )));
                    }
                    Ok((BranchOutcome::Cancelled, _)) => {
                        let _ = ui.send(UiEvent::Notice(t!("pi.tui.fork.cancelled")));
                    }
                    Err(e) => failed(t!("pi.tui.fork.failed", error = e.to_string())),
                };
            }
            match agent.execute(SessionCommand::Fork(id)).await {
                Ok(Outcome::Forked(BranchOutcome::Branched { text })) => {
                    reset(agent, ui, ResetKind::Forked);
                    let _ = ui.send(UiEvent::EditorText(text.unwrap_or_default()));
                }
                Ok(_) => {
                    let _ = ui.send(UiEvent::Notice(t!("pi.tui.fork.cancelled")));
                }
                Err(e) => failed(t!("pi.tui.fork.failed", error = e.to_string())),
            }
        }
        TreeCommand::Clone => {
            if agent.session.leaf_id().is_none() {
                return failed(t!("pi.cmd.clone.empty"));
            }
            match agent.execute(SessionCommand::Clone).await {
                Ok(Outcome::Switched { cancelled: false }) => {
                    reset(agent, ui, ResetKind::Cloned);
                    let place = agent
                        .session
                        .session_file()
                        .map(|f| f.display().to_string())
                        .unwrap_or_else(|| t!("pi.cmd.clone.memory"));
                    let _ = ui.send(UiEvent::Notice(t!("pi.cmd.clone.done", place = place)));
                }
                Ok(_) => {
                    let _ = ui.send(UiEvent::Notice(t!("pi.cmd.clone.cancelled")));
                }
                Err(e) => failed(t!("pi.cmd.clone.failed", error = e.to_string())),
            }
        }
        TreeCommand::Compact {
            instructions,
            signal,
        } => {
            // Success and failure both reach the transcript as events.
            let instructions = Some(instructions).filter(|s| !s.trim().is_empty());
            let command = SessionCommand::Compact {
                instructions,
                signal,
            };
            let _ = agent.execute(command).await;
        }
    }
}
