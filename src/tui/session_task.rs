//! The conversation runs in its own task; the UI talks to it with commands
//! and hears back through agent events and snapshots, so the keyboard never
//! waits on the model.

use std::path::PathBuf;

use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::agent::events::AgentEvent;
use crate::ai::model::{Model, ThinkingLevel};
use crate::ai::types::Message;
use crate::app::agent_session::AgentSession;
use crate::session::manager::SessionManager;

/// A request from the UI to the conversation.
#[derive(Debug)]
pub enum SessionCommand {
    /// Run a prompt; `signal` aborts it.
    Prompt {
        /// Message text.
        text: String,
        /// Abort signal for this run.
        signal: CancellationToken,
    },
    /// Start a fresh session (`/new`).
    NewSession,
    /// Name the session (`/name`).
    SetName(String),
    /// Switch model.
    SetModel(Box<Model>),
    /// Change the thinking level.
    SetThinking(ThinkingLevel),
    /// Continue another session file (`/resume`).
    Resume(PathBuf),
    /// Write the session as HTML (`/export [file]`, `/share`).
    Export {
        /// Output file (default: `pi-session-<file>.html`; `/share`: a temp file).
        path: Option<PathBuf>,
        /// Say how to share the file as a gist.
        share: bool,
    },
    /// Run a user shell command (`!cmd`, `!!cmd` excluded from context).
    Bash {
        /// The command.
        command: String,
        /// Keep it out of the model's context.
        exclude: bool,
        /// Aborts the command.
        signal: CancellationToken,
    },
}

/// The state the UI mirrors after each command.
#[derive(Debug, Clone)]
pub struct SessionSnapshot {
    /// Session name.
    pub name: Option<String>,
    /// Session file, when persisted.
    pub file: Option<PathBuf>,
    /// Session id.
    pub id: String,
    /// Messages in the context.
    pub message_count: usize,
    /// Current model.
    pub model: Model,
    /// Current thinking level.
    pub thinking: ThinkingLevel,
}

/// Something the UI should react to.
#[derive(Debug, Clone)]
pub enum UiEvent {
    /// An event of the running turn.
    Agent(Box<AgentEvent>),
    /// A command finished; the conversation is idle with this state.
    Idle(Box<SessionSnapshot>),
    /// The session was replaced (`/new`, `/resume`): show these messages.
    Reset(Vec<Message>),
    /// A command finished with something to tell the user.
    Info(String),
    /// A command failed.
    Failed(String),
}

/// Take a snapshot of `agent`.
pub fn snapshot(agent: &AgentSession) -> SessionSnapshot {
    SessionSnapshot {
        name: agent.session.session_name().map(str::to_string),
        file: agent.session.session_file().map(PathBuf::from),
        id: agent.session.session_id().to_string(),
        message_count: agent.state.messages.len(),
        model: agent.config.model.clone(),
        thinking: agent.config.thinking,
    }
}

/// Export the session and describe the outcome.
fn export_event(agent: &AgentSession, path: Option<PathBuf>, share: bool) -> UiEvent {
    let path = match (path, share) {
        (Some(path), _) => Some(path),
        (None, true) => {
            Some(std::env::temp_dir().join(crate::export::default_output_path(&agent.session)))
        }
        (None, false) => None,
    };
    match crate::export::export_session(&agent.session, path.as_deref(), None) {
        Ok(path) if share => UiEvent::Info(format!(
            "Session written to {}\nTo share it as a secret gist: gh gist create --secret {}",
            path.display(),
            path.display()
        )),
        Ok(path) => UiEvent::Info(format!("Session exported to: {}", path.display())),
        Err(e) => UiEvent::Failed(format!("Export failed: {e}")),
    }
}

/// Move `agent` into a task; returns the command sender, the UI event
/// receiver and the task (which ends, saving the session, when the sender
/// is dropped).
pub fn spawn_session(
    mut agent: AgentSession,
) -> (
    UnboundedSender<SessionCommand>,
    UnboundedReceiver<UiEvent>,
    JoinHandle<()>,
) {
    let (command_tx, mut command_rx) = unbounded_channel::<SessionCommand>();
    let (ui_tx, ui_rx) = unbounded_channel::<UiEvent>();
    let listener_tx = ui_tx.clone();
    agent.subscribe(Box::new(move |event| {
        let _ = listener_tx.send(UiEvent::Agent(Box::new(event.clone())));
    }));
    let task = tokio::spawn(async move {
        while let Some(command) = command_rx.recv().await {
            match command {
                SessionCommand::Prompt { text, signal } => {
                    agent.prompt(text, Vec::new(), &signal).await;
                }
                SessionCommand::NewSession => {
                    agent.session.new_session(None);
                    agent.state.messages.clear();
                    let model = agent.config.model.clone();
                    agent
                        .session
                        .append_model_change(&model.provider, &model.id);
                    agent
                        .session
                        .append_thinking_level_change(agent.config.thinking);
                    let _ = ui_tx.send(UiEvent::Reset(Vec::new()));
                }
                SessionCommand::SetName(name) => {
                    agent.session.append_session_info(&name);
                }
                SessionCommand::SetModel(model) => {
                    agent
                        .session
                        .append_model_change(&model.provider, &model.id);
                    let thinking = model.clamp_thinking(agent.config.thinking);
                    agent.config.model = *model;
                    if thinking != agent.config.thinking {
                        agent.config.thinking = thinking;
                        agent.session.append_thinking_level_change(thinking);
                    }
                }
                SessionCommand::SetThinking(level) => {
                    let level = agent.config.model.clamp_thinking(level);
                    agent.config.thinking = level;
                    agent.session.append_thinking_level_change(level);
                }
                SessionCommand::Bash {
                    command,
                    exclude,
                    signal,
                } => {
                    let sink = ui_tx.clone();
                    let on_event = std::sync::Arc::new(move |event: AgentEvent| {
                        let _ = sink.send(UiEvent::Agent(Box::new(event)));
                    });
                    super::user_bash::run_user_bash(&mut agent, command, exclude, signal, on_event)
                        .await;
                }
                SessionCommand::Export { path, share } => {
                    let _ = ui_tx.send(export_event(&agent, path, share));
                }
                SessionCommand::Resume(path) => {
                    let _ = agent.session.sync();
                    let dir = agent.session.session_dir().map(PathBuf::from);
                    match SessionManager::open_with(&path, dir.as_deref(), None) {
                        Ok(session) => {
                            agent.session = session;
                            agent.state.messages = agent.session.build_context().messages;
                            let _ = ui_tx.send(UiEvent::Reset(agent.state.messages.clone()));
                        }
                        Err(e) => {
                            let _ = ui_tx.send(UiEvent::Failed(format!(
                                "Could not open {}: {e}",
                                path.display()
                            )));
                        }
                    }
                }
            }
            let _ = ui_tx.send(UiEvent::Idle(Box::new(snapshot(&agent))));
        }
        if let Err(e) = agent.session.sync() {
            eprintln!("Warning: could not save the session: {e}");
        }
    });
    (command_tx, ui_rx, task)
}
