//! The conversation runs in its own task; the UI talks to it with commands
//! and hears back through agent events and snapshots, so the keyboard never
//! waits on the model.

use crate::core::session_command::{Outcome, SessionCommand as Shared};
use crate::t;

use std::path::PathBuf;

use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::agent::events::AgentEvent;
use crate::ai::model::{Model, ThinkingLevel};
use crate::core::agent_session::AgentSession;
use crate::tui::app::reload::{ReloadOutcome, reload_all};
use crate::tui::transcript::Transcript;

/// A request from the UI to the conversation.
#[derive(Debug)]
pub enum SessionCommand {
    /// Run a prompt; `signal` aborts it.
    Prompt {
        /// Message text.
        text: String,
        /// Attached images.
        images: Vec<crate::ai::types::ContentBlock>,
        /// Abort signal for this run.
        signal: CancellationToken,
    },
    /// Start a fresh session (`/new`).
    NewSession,
    /// Name the session (`/name`).
    SetName(String),
    /// Switch model (chosen, or the next of the cycle).
    SetModel(Box<Model>, crate::core::session_command::ModelSource),
    /// Change the thinking level.
    SetThinking(ThinkingLevel),
    /// Keep images from being sent (`images.blockImages`).
    SetBlockImages(bool),
    /// Compact automatically when the context fills up (`compaction.enabled`).
    SetAutoCompact(bool),
    /// Offer and expand `/skill:name` commands (`enableSkillCommands`).
    SetSkillCommands(bool),
    /// Continue another session file (`/resume`), restoring its model (one
    /// of `models`) and thinking level.
    Resume {
        /// The session file.
        path: PathBuf,
        /// Models the session's model may be one of.
        models: Vec<Model>,
    },
    /// Reload extensions (`/reload`).
    Reload,
    /// Carry out what extensions queued while pi was idle.
    ExtensionActions {
        /// Aborts a turn the actions start.
        signal: CancellationToken,
    },
    /// Run an extension's command `/name args`.
    ExtensionCommand {
        /// Command name (without `/`).
        name: String,
        /// Everything after the name.
        args: String,
        /// Aborts a turn the command starts.
        signal: CancellationToken,
    },
    /// `/tree`, `/fork`, `/clone`, `/compact`.
    Tree(crate::tui::app::session_tree_task::TreeCommand),
    /// Write the session as HTML, or as JSONL when the file name ends in `.jsonl`
    /// (`/export [file]`), or upload it as a secret gist (`/share`).
    Export {
        /// Output file (default: `pi-session-<file>.html`).
        path: Option<PathBuf>,
        /// Upload the page as a secret gist with `gh` instead.
        share: bool,
        /// The page's colours: the current theme as JSON (default: dark).
        theme: Option<String>,
    },
    /// Show the notice this task yields, if any, once it finishes (the update check).
    NoticeWhenReady(JoinHandle<Option<String>>),
    /// Copy a session file into the session folder and continue it (`/import`).
    Import {
        /// The session file to import.
        path: PathBuf,
        /// Models the session's model may be one of.
        models: Vec<Model>,
    },
    /// `/permissions [args]`: list the rules or remove a session rule.
    Permissions(String),
    /// `/extensions`: ask the host for every extension's profile.
    Extensions,
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
    /// Extension commands as (name, description).
    pub extension_commands: Vec<(String, String)>,
    /// `/skill:name` and prompt template commands: (name, description).
    pub resource_commands: Vec<(String, String)>,
    /// Automatic compaction is on (`compaction.enabled`).
    pub auto_compact: bool,
}

/// Why the conversation shown was replaced, which decides what the user is told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResetKind {
    /// `/new`.
    New,
    /// `/resume` opened another session.
    Resumed,
    /// `/tree` moved to another point of the same session.
    Navigated,
    /// `/fork` started a new session from an earlier message.
    Forked,
    /// `/clone` copied the path into a new session.
    Cloned,
}

/// Something the UI should react to.
#[derive(Debug, Clone)]
pub enum UiEvent {
    /// An event of the running turn.
    Agent(Box<AgentEvent>),
    /// A command finished; the conversation is idle with this state.
    Idle(Box<SessionSnapshot>),
    /// The conversation was replaced (`/new`, `/resume`, `/tree`, `/fork`):
    /// show this transcript, built from its messages on the conversation task
    /// (only the last ones become rows; the messages themselves stay there).
    Reset(Box<Transcript>, ResetKind),
    /// A command finished with something to tell the user.
    Info(String),
    /// `/reload` (or a watched file's change) finished.
    Reloaded(Box<ReloadOutcome>),
    /// A command failed.
    Failed(String),
    /// Something to tell the user.
    Notice(String),
    /// An extension asked pi to quit.
    Quit,
    /// The session tree for `/tree`.
    Tree(Box<crate::tui::panels::tree_rows::TreeData>),
    /// User messages of the current path for `/fork`: (entry id, text).
    ForkMessages(Vec<(String, String)>),
    /// Put this text into the editor.
    EditorText(String),
    /// An extension queued work (a message, a turn) while nothing ran.
    ExtensionActionsQueued,
    /// A resumed session moved the conversation to another folder: its path and
    /// the session folder it is stored in.
    FolderChanged(PathBuf, Option<PathBuf>),
    /// The models with credentials changed (a reload added or removed a provider).
    Models(Vec<Model>),
    /// The streaming message changed: its newest state waits in the slot.
    Streaming(LatestUpdate),
    /// The extensions' profile for the `/extensions` panel.
    Extensions(Box<crate::lua::profile::Profile>),
}

/// The newest `message_update` the UI has not taken yet. Updates replace each
/// other here instead of queueing, so a UI busy drawing a long answer holds one
/// copy of it, not one per delta; any other event takes the held update out and
/// sends it first, so the order of events never changes.
#[derive(Debug, Clone, Default)]
pub struct LatestUpdate(std::sync::Arc<std::sync::Mutex<Option<Box<AgentEvent>>>>);

impl LatestUpdate {
    /// Take the held update, if any.
    pub fn take(&self) -> Option<Box<AgentEvent>> {
        crate::sync::LockExt::locked(&*self.0).take()
    }

    /// Hold `event`; true when the slot was empty (the UI must be told).
    fn hold(&self, event: &AgentEvent) -> bool {
        crate::sync::LockExt::locked(&*self.0)
            .replace(Box::new(event.clone()))
            .is_none()
    }
}

/// Switch to the model and thinking level recorded in a resumed session;
/// returns a note when its model is not available.
fn restore_model(
    agent: &mut AgentSession,
    context: &crate::session::context::SessionContext,
    models: &[Model],
) -> Option<String> {
    let mut note = None;
    if let Some((provider, id)) = &context.model {
        match models
            .iter()
            .find(|m| &m.provider == provider && &m.id == id)
        {
            Some(model) => agent.config.model = model.clone(),
            None => {
                let current = agent.config.model.clone();
                agent
                    .session
                    .append_model_change(&current.provider, &current.id);
                note = Some(t!(
                    "pi.tui.session.model_unavailable",
                    provider = provider,
                    id = id,
                    current_provider = &agent.config.model.provider,
                    current_id = &agent.config.model.id
                ))
            }
        }
    }
    if let Some(level) = context.thinking() {
        agent.config.thinking = agent.config.model.clamp_thinking(level);
    }
    note
}

/// Move the process to the folder `agent` now works in (so what extensions and
/// commands start without a folder of their own runs there too) and tell the UI.
fn follow_folder(agent: &AgentSession, ui: &UnboundedSender<UiEvent>) {
    let cwd = agent.config.cwd.clone();
    if let Err(e) = std::env::set_current_dir(&cwd) {
        let _ = ui.send(UiEvent::Failed(t!(
            "pi.tui.session.chdir_failed",
            cwd = cwd.display().to_string(),
            error = e.to_string()
        )));
    }
    let session_dir = agent.session.session_dir().map(PathBuf::from);
    let _ = ui.send(UiEvent::FolderChanged(cwd, session_dir));
}

/// Take a snapshot of `agent`.
pub fn snapshot(agent: &AgentSession) -> SessionSnapshot {
    SessionSnapshot {
        name: agent.session.session_name().map(str::to_string),
        file: agent.session.session_file().map(PathBuf::from),
        id: agent.session.session_id().to_string(),
        message_count: agent.state.messages.len(),
        auto_compact: agent.compaction.enabled,
        model: agent.config.model.clone(),
        thinking: agent.config.thinking,
        resource_commands: agent.resource_commands(),
        extension_commands: agent
            .extensions()
            .map(|e| {
                e.registrations
                    .commands
                    .iter()
                    .map(|c| (c.name.clone(), c.description.clone().unwrap_or_default()))
                    .collect()
            })
            .unwrap_or_default(),
    }
}

/// Show what the extension host reported (errors, warnings, `pi.log`
/// lines) in the transcript instead of on the terminal under the UI.
fn forward_messages(view: &crate::lua::SharedView, ui: &UnboundedSender<UiEvent>) {
    use crate::lua::messages::{MessageKind, localize};
    for message in view.take_messages() {
        let (kind, text) = localize(&message);
        let _ = ui.send(match kind {
            MessageKind::Error => UiEvent::Failed(text),
            MessageKind::Warning | MessageKind::Info => UiEvent::Notice(text),
        });
    }
}

/// Where the conversation was before an extension ran: its session and leaf.
struct SessionPlace {
    session_id: String,
    leaf: Option<String>,
}

impl SessionPlace {
    fn of(agent: &AgentSession) -> Self {
        SessionPlace {
            session_id: agent.session.session_id().to_string(),
            leaf: agent.session.leaf_id().map(str::to_string),
        }
    }

    /// Redraw the transcript when an extension switched sessions or moved off the path
    /// (`ctx.newSession`, `ctx.fork`, `ctx.switchSession`, `ctx.navigateTree`); entries
    /// appended to the same path are drawn as they arrive.
    fn reset_if_moved(&self, agent: &AgentSession, ui: &UnboundedSender<UiEvent>) {
        let same_session = agent.session.session_id() == self.session_id;
        let on_path = match &self.leaf {
            None => true,
            Some(leaf) => agent.session.branch_ids(None).contains(&leaf.as_str()),
        };
        if !(same_session && on_path) {
            // Another session is announced as such; a move within this one says nothing.
            let kind = if same_session {
                ResetKind::Navigated
            } else if agent.state.messages.is_empty() {
                ResetKind::New
            } else {
                ResetKind::Resumed
            };
            let _ = ui.send(UiEvent::Reset(restored(agent), kind));
        }
    }
}

/// The transcript of the conversation `agent` now holds, for [`UiEvent::Reset`]:
/// built here so that the messages are not copied to the UI.
pub(super) fn restored(agent: &AgentSession) -> Box<Transcript> {
    Box::new(Transcript::from_messages(&agent.state.messages))
}

/// Tell the UI about the session it now shows after `/resume` or `/import`.
fn announce_switch(agent: &mut AgentSession, models: &[Model], ui_tx: &UnboundedSender<UiEvent>) {
    let _ = ui_tx.send(UiEvent::Reset(restored(agent), ResetKind::Resumed));
    let context = agent.session.build_context();
    if let Some(note) = restore_model(agent, &context, models) {
        let _ = ui_tx.send(UiEvent::Failed(note));
    }
    if let Some(warning) = agent.session.load_warning() {
        let _ = ui_tx.send(UiEvent::Failed(warning));
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
    let view = agent.extensions().map(|e| e.view.clone());
    if let Some(view) = &view {
        view.lock().capture_messages = true;
        forward_messages(view, &ui_tx);
    }
    let listener_view = view.clone();
    let latest = LatestUpdate::default();
    agent.subscribe(Box::new(move |event| {
        if matches!(event, AgentEvent::MessageUpdate { .. }) {
            if latest.hold(event) {
                let _ = listener_tx.send(UiEvent::Streaming(latest.clone()));
            }
        } else {
            if let Some(held) = latest.take() {
                let _ = listener_tx.send(UiEvent::Agent(held));
            }
            let _ = listener_tx.send(UiEvent::Agent(Box::new(event.clone())));
        }
        if let Some(view) = &listener_view {
            forward_messages(view, &listener_tx);
        }
    }));
    let queued = agent.extension_actions_queued();
    let task = tokio::spawn(async move {
        loop {
            let command = tokio::select! {
                _ = async {
                    match &queued {
                        Some(notify) => notify.notified().await,
                        None => std::future::pending().await,
                    }
                } => {
                    if agent.extension_actions_pending() {
                        let _ = ui_tx.send(UiEvent::ExtensionActionsQueued);
                    }
                    continue;
                }
                command = command_rx.recv() => match command {
                    Some(c) => c,
                    None => break,
                },
                // Commands (and the turns they run) finish before this is
                // polled again, so a watched change never reloads mid-turn.
                _ = agent.extension_change() => SessionCommand::Reload,
            };
            // Notes about the session file go to the transcript, not stderr.
            agent.session.hold_notices();
            if let SessionCommand::NoticeWhenReady(check) = command {
                let sink = ui_tx.clone();
                tokio::spawn(async move {
                    if let Ok(Some(text)) = check.await {
                        let _ = sink.send(UiEvent::Notice(text));
                    }
                });
                continue;
            }
            match command {
                SessionCommand::NoticeWhenReady(_) => {}
                SessionCommand::Prompt {
                    text,
                    images,
                    signal,
                } => {
                    agent.prompt(text, images, &signal).await;
                }
                SessionCommand::NewSession => {
                    let command = Shared::NewSession { parent: None };
                    if let Ok(Outcome::Switched { cancelled: false }) = agent.execute(command).await
                    {
                        let _ = ui_tx.send(UiEvent::Reset(Box::default(), ResetKind::New));
                    } else {
                        let _ = ui_tx.send(UiEvent::Notice(t!("pi.tui.session.new_cancelled")));
                    }
                }
                SessionCommand::Reload => {
                    let before = agent.resource_inventory();
                    let report = reload_all(&mut agent, &ui_tx).await;
                    let _ = ui_tx.send(UiEvent::Reloaded(Box::new(ReloadOutcome {
                        before,
                        after: agent.resource_inventory(),
                        report,
                    })));
                    let _ = ui_tx.send(UiEvent::Models(agent.available_models()));
                }
                SessionCommand::ExtensionActions { signal } => {
                    let place = SessionPlace::of(&agent);
                    agent.run_extension_actions(&signal).await;
                    place.reset_if_moved(&agent, &ui_tx);
                }
                SessionCommand::ExtensionCommand { name, args, signal } => {
                    let place = SessionPlace::of(&agent);
                    if let Err(e) = agent.run_extension_command(&name, &args, &signal).await {
                        let _ = ui_tx.send(UiEvent::Failed(e.to_string()));
                    }
                    place.reset_if_moved(&agent, &ui_tx);
                }
                // The changes every front end shares go through the session's typed commands.
                SessionCommand::SetName(name) => {
                    let _ = agent.execute(Shared::SetName(name)).await;
                }
                SessionCommand::SetModel(model, source) => {
                    let _ = agent.execute(Shared::SetModel { model, source }).await;
                }
                SessionCommand::SetThinking(level) => {
                    let _ = agent.execute(Shared::SetThinking(level)).await;
                }
                SessionCommand::SetBlockImages(block) => agent.config.block_images = block,
                SessionCommand::SetAutoCompact(on) => {
                    let _ = agent.execute(Shared::SetAutoCompaction(on)).await;
                }
                SessionCommand::SetSkillCommands(on) => agent.skill_commands = on,
                SessionCommand::Tree(command) => {
                    crate::tui::app::session_tree_task::run_tree_command(
                        &mut agent, command, &ui_tx,
                    )
                    .await;
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
                    crate::core::user_bash::run_user_bash(
                        &mut agent, command, exclude, signal, on_event,
                    )
                    .await;
                }
                SessionCommand::Export {
                    share: true, theme, ..
                } => {
                    let _ = ui_tx.send(
                        super::export_events::share_event(&agent.session, theme.as_deref()).await,
                    );
                }
                SessionCommand::Extensions => {
                    let handle = agent.extensions().map(|e| e.handle.clone());
                    let profile = match handle {
                        Some(handle) => handle.profile().await,
                        None => Default::default(),
                    };
                    let _ = ui_tx.send(UiEvent::Extensions(Box::new(profile)));
                }
                SessionCommand::Permissions(args) => {
                    let text = crate::core::permission_command::run(&mut agent, &args);
                    let _ = ui_tx.send(UiEvent::Info(text));
                }
                SessionCommand::Export { path, theme, .. } => {
                    let _ = ui_tx.send(super::export_events::export_event(
                        &agent,
                        path,
                        theme.as_deref(),
                    ));
                }
                SessionCommand::Import { path, models } => {
                    let folder = agent.config.cwd.clone();
                    match agent.import_session(&path).await {
                        Ok(Some(imported)) => {
                            if agent.config.cwd != folder {
                                follow_folder(&agent, &ui_tx);
                            }
                            announce_switch(&mut agent, &models, &ui_tx);
                            if let Some(missing) = imported.missing_folder {
                                let _ = ui_tx.send(UiEvent::Info(t!(
                                    "pi.cmd.import.folder_missing",
                                    cwd = missing.display().to_string(),
                                    current = folder.display().to_string()
                                )));
                            }
                            let _ = ui_tx.send(UiEvent::Info(t!(
                                "pi.cmd.import.done",
                                path = path.display().to_string()
                            )));
                        }
                        Ok(None) => {
                            let _ = ui_tx.send(UiEvent::Notice(t!("pi.cmd.import.cancelled")));
                        }
                        Err(e) => {
                            let _ = ui_tx.send(UiEvent::Failed(t!(
                                "pi.cmd.import.failed",
                                error = e.to_string()
                            )));
                        }
                    }
                }
                SessionCommand::Resume { path, models } => {
                    let folder = agent.config.cwd.clone();
                    match agent.resume_session(&path).await {
                        Ok(true) => {
                            if agent.config.cwd != folder {
                                follow_folder(&agent, &ui_tx);
                            }
                            announce_switch(&mut agent, &models, &ui_tx)
                        }
                        Ok(false) => {
                            let _ =
                                ui_tx.send(UiEvent::Notice(t!("pi.tui.session.switch_cancelled")));
                        }
                        Err(e) => {
                            let _ = ui_tx.send(UiEvent::Failed(e.to_string()));
                        }
                    }
                }
            }
            if agent.shutdown_requested() {
                let _ = ui_tx.send(UiEvent::Quit);
            }
            if let Some(view) = &view {
                forward_messages(view, &ui_tx);
            }
            if let Some(notice) = agent.session.take_notice() {
                let _ = ui_tx.send(UiEvent::Failed(notice));
            }
            let _ = ui_tx.send(UiEvent::Idle(Box::new(snapshot(&agent))));
        }
        agent.session_event("session_shutdown", "quit").await;
        if let Err(e) = agent.session.sync() {
            eprintln!("{}", t!("pi.session.save_failed", error = e.to_string()));
        }
        agent.session.keep_index();
    });
    (command_tx, ui_rx, task)
}
