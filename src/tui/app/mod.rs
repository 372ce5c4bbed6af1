//! The application state and what keys, pastes, mouse wheels and agent
//! events do to it. Drawing lives in `view`.

mod commands;
mod completion;
mod export_events;
mod extension_ui;
pub mod extensions;
mod external_editor;
pub mod hotkeys;
mod keys;
mod lang;
pub mod login;
pub mod progress;
pub mod reload;
pub mod rewind_task;
pub mod runner;
mod sandbox;
pub mod session_task;
pub mod session_tree_task;
pub mod sessions;
pub mod settings;
mod tree;
mod warnings;
pub mod whats_new;

#[cfg(test)]
mod lang_tests;
#[cfg(test)]
mod settings_tests;
#[cfg(test)]
mod tests;

use crate::t;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crossterm::event::{Event, KeyEventKind, MouseEventKind};
use tokio::sync::mpsc::UnboundedSender;
use tokio_util::sync::CancellationToken;

use crate::agent::agent_loop::AgentQueues;
use crate::agent::events::AgentEvent;
use crate::ai::model::Model;
use crate::ai::types::{Message, UserMessage, now_ms};
use crate::core::user_bash::parse_user_bash;
use crate::tui::app::session_task::{SessionCommand, SessionSnapshot, UiEvent};
use crate::tui::chrome::FooterInfo;
use crate::tui::commands::parse_command;
use crate::tui::editor::Editor;
use crate::tui::panels::Panel;
use crate::tui::panels::selector::Selector;
use crate::tui::transcript::render::RenderCache;
use crate::tui::transcript::{NoticeKind, Transcript};
use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::theme::Theme;

/// Two Ctrl+C presses within this window quit.
pub(super) const DOUBLE_CTRL_C: Duration = Duration::from_millis(500);
/// Lines a mouse wheel notch scrolls.
const WHEEL_LINES: usize = 3;

/// The open overlay replacing the editor.
pub enum Overlay {
    /// `/model`: models in the same order as `App::models`.
    ModelSelector(Selector),
    /// `/login`: the method, the provider, the API key.
    Login(crate::tui::panels::login::LoginDialog),
    /// A panel such as `/settings`, `/scoped-models` or `/resume`.
    Panel(Box<dyn Panel>),
    /// `/tree`.
    Tree(crate::tui::panels::tree_selector::TreeSelector),
    /// `/fork`: user messages, entry ids in the selector's order.
    ForkSelector(crate::tui::panels::fork_selector::ForkSelector, Vec<String>),
    /// After picking a `/tree` entry: summarize the branch left? (target id)
    SummaryChoice(Selector, String),
    /// Typing the focus of a branch summary: (target id, text so far).
    SummaryFocus(String, String),
}

impl Overlay {
    /// Lines to draw at `width` columns.
    pub fn lines(&self, theme: &Theme, width: usize) -> Vec<ratatui::text::Line<'static>> {
        match self {
            Overlay::Login(d) => d.lines(theme, width),
            Overlay::ModelSelector(s) | Overlay::SummaryChoice(s, _) => s.lines(theme, width),
            Overlay::ForkSelector(s, _) => s.lines(theme, width),
            Overlay::Panel(p) => p.lines(theme, width),
            Overlay::Tree(t) => t.lines(theme, width),
            Overlay::SummaryFocus(_, text) => {
                crate::tui::app::tree::focus_lines(text, theme, width)
            }
        }
    }

    /// Whether the overlay draws its own rules (`/tree` and `/fork`, as in pi), so it
    /// is not put between the editor's.
    pub fn framed(&self) -> bool {
        matches!(self, Overlay::Tree(_) | Overlay::ForkSelector(..))
    }

    /// True while a panel's work in the background is still delivering.
    pub fn loading(&self) -> bool {
        matches!(self, Overlay::Panel(p) if p.loading())
    }

    /// Take in what a panel's background work delivered; true when there is news to draw.
    pub fn poll(&mut self) -> bool {
        match self {
            Overlay::Panel(p) => p.poll(),
            _ => false,
        }
    }
}

/// `/tree` settings: `treeFilterMode` and `branchSummary.*`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TreeOptions {
    /// The filter the tree opens with.
    pub filter: crate::tui::panels::tree_selector::TreeFilter,
    /// `branchSummary.skipPrompt`: never ask to summarize.
    pub skip_summary_prompt: bool,
    /// `branchSummary.reserveTokens`.
    pub summary_reserve_tokens: u64,
}

impl Default for TreeOptions {
    fn default() -> Self {
        TreeOptions {
            filter: crate::tui::panels::tree_selector::TreeFilter::Default,
            skip_summary_prompt: false,
            summary_reserve_tokens: 16384,
        }
    }
}

/// Something only the event loop can do, since it owns the terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TerminalRequest {
    /// Edit the message in `$VISUAL`/`$EDITOR`.
    ExternalEditor,
    /// Suspend to the shell (Ctrl+Z).
    Suspend,
}

/// Everything the interactive UI knows.
pub struct App {
    /// The conversation as shown.
    pub transcript: Transcript,
    /// Rendered transcript lines, per item.
    pub cache: RenderCache,
    /// The graphics protocol images are drawn with (`None`: as text).
    pub image_protocol: Option<crate::ui_kit::terminal_image::ImageProtocol>,
    /// The message editor.
    pub editor: Editor,
    /// Live keybindings.
    pub keys: Keybindings,
    /// Colours.
    pub theme: Theme,
    /// Footer contents.
    pub footer: FooterInfo,
    /// Models offered by `/model`.
    pub models: Vec<Model>,
    /// Models Ctrl+P cycles through (all of `models` when empty).
    pub cycle_models: Vec<Model>,
    /// Set while a turn runs.
    pub busy_since: Option<Instant>,
    /// Rows of the screen at the last draw (0 before the first).
    pub screen_rows: u16,
    /// The subscription billing warning was considered (it is given once per run).
    pub extra_usage_checked: bool,
    /// The theme files when `/reload` was asked for, to say what it found changed.
    pub themes_at_reload: Option<crate::core::resource_inventory::ResourceInventory>,
    /// Lines scrolled up from the bottom (0 = follow the end).
    pub scroll: usize,
    /// Lines the transcript area showed last frame (page size).
    pub page: usize,
    /// Tool output expanded.
    pub tools_expanded: bool,
    /// Thinking blocks expanded.
    pub thinking_expanded: bool,
    /// Selected `/` completion, when the list is open.
    pub completion: Option<usize>,
    /// The open list holds the entries Tab found for the path before the cursor.
    pub force_files: bool,
    /// The open overlay.
    pub overlay: Option<Overlay>,
    /// Something changed since the last frame.
    pub dirty: bool,
    /// The user asked to quit.
    pub quit: bool,
    /// Project files for `@` completion, indexed on first use.
    pub file_index: Option<Vec<String>>,
    /// `quietStartup`: no header.
    pub quiet_startup: bool,
    /// Skills, prompt templates and extensions listed under the header.
    pub resources: crate::tui::chrome::LoadedResources,
    /// A request that needs the real terminal (handled by the event loop).
    pub terminal_request: Option<TerminalRequest>,
    /// Shared steering/follow-up queues of the running turn.
    pub queues: AgentQueues,
    /// Folder of this project's sessions (`/resume`).
    pub session_dir: Option<PathBuf>,
    /// The current session file.
    pub session_file: Option<PathBuf>,
    /// The current session id.
    pub session_id: String,
    /// `/login` state.
    pub login: crate::tui::app::login::LoginState,
    /// Extension commands as (name, description), for `/` dispatch and completion.
    pub extension_commands: Vec<(String, String)>,
    /// Commands of skills and prompt templates, sent as prompts: (name, description).
    pub resource_commands: Vec<(String, String)>,
    /// Where sent messages are remembered across runs (`None`: not kept).
    pub history_file: Option<PathBuf>,
    /// Settings read and written by `/settings` and `/scoped-models`.
    pub ui_settings: crate::tui::app::settings::UiSettings,
    /// `/tree` settings.
    pub tree: TreeOptions,
    /// Dialogs, status slots, widgets and shortcuts from extensions.
    pub ext: crate::tui::chrome::extension::ExtensionChrome,
    /// Lua components' published lines and render requests.
    pub lua: crate::tui::chrome::lua_surfaces::LuaUi,
    pub(super) last_ctrl_c: Option<Instant>,
    /// When Escape last reached an idle, empty editor (`doubleEscapeAction`).
    pub(super) last_escape: Option<Instant>,
    pub(super) signal: Option<CancellationToken>,
    pub(super) commands: UnboundedSender<SessionCommand>,
    /// Extensions queued work while a command ran; carried out once idle.
    pub(super) actions_waiting: bool,
    /// The terminal shows the busy indicator (`terminal.showTerminalProgress`).
    pub(super) progress_shown: bool,
}

impl App {
    /// A new app sending its requests to `commands`.
    pub fn new(
        commands: UnboundedSender<SessionCommand>,
        queues: AgentQueues,
        keys: Keybindings,
        theme: Theme,
        footer: FooterInfo,
    ) -> Self {
        App {
            transcript: Transcript::new(),
            cache: RenderCache::default(),
            editor: Editor::new(),
            keys,
            theme,
            footer,
            models: Vec::new(),
            cycle_models: Vec::new(),
            busy_since: None,
            screen_rows: 0,
            extra_usage_checked: false,
            themes_at_reload: None,
            scroll: 0,
            page: 10,
            tools_expanded: false,
            thinking_expanded: false,
            completion: None,
            force_files: false,
            overlay: None,
            dirty: true,
            quit: false,
            file_index: None,
            quiet_startup: false,
            image_protocol: crate::ui_kit::terminal_image::protocol(),
            resources: Default::default(),
            terminal_request: None,
            queues,
            session_dir: None,
            session_file: None,
            session_id: String::new(),
            login: Default::default(),
            extension_commands: Vec::new(),
            resource_commands: Vec::new(),
            ui_settings: Default::default(),
            history_file: None,
            tree: TreeOptions::default(),
            ext: Default::default(),
            lua: Default::default(),
            last_ctrl_c: None,
            last_escape: None,
            signal: None,
            commands,
            actions_waiting: false,
            progress_shown: false,
        }
    }

    /// A turn is running.
    pub fn is_busy(&self) -> bool {
        self.busy_since.is_some()
    }

    /// Esc (`app.interrupt`) cancels `signal` from now until idle.
    pub(super) fn set_signal(&mut self, signal: CancellationToken) {
        self.signal = Some(signal);
    }

    /// Mark a run as started; `signal` aborts it.
    pub(super) fn set_busy(&mut self, signal: CancellationToken) {
        self.signal = Some(signal);
        self.busy_since = Some(Instant::now());
        self.scroll = 0;
    }

    /// Let the conversation carry out what extensions queued while idle
    /// (a message with `triggerTurn` starts a turn that Escape can abort).
    fn run_extension_actions(&mut self) {
        let signal = CancellationToken::new();
        self.set_busy(signal.clone());
        let _ = self
            .commands
            .send(SessionCommand::ExtensionActions { signal });
    }

    /// Send a prompt to the conversation.
    pub fn send_prompt(&mut self, text: String) {
        self.send_prompt_with(text, Vec::new());
    }

    /// Send a prompt with attached images.
    pub fn send_prompt_with(&mut self, text: String, images: Vec<crate::ai::types::ContentBlock>) {
        let signal = CancellationToken::new();
        self.set_busy(signal.clone());
        let _ = self.commands.send(SessionCommand::Prompt {
            text,
            images,
            signal,
        });
    }

    /// Images named in `text` when the current model accepts them (a
    /// notice otherwise).
    fn attached_images(&mut self, text: &str) -> Vec<crate::ai::types::ContentBlock> {
        let auto_resize = self.ui_settings.settings.image_auto_resize();
        let images =
            crate::tui::editor::image_attach::find_images(text, &self.footer.cwd, auto_resize);
        if images.is_empty() {
            return images;
        }
        let accepts = self
            .models
            .iter()
            .find(|m| m.id == self.footer.model_id && m.provider == self.footer.provider)
            .is_some_and(|m| m.supports_images());
        if !accepts {
            self.transcript.notice(
                t!("pi.tui.images.unsupported", model = &self.footer.model_id),
                NoticeKind::Warning,
            );
            return Vec::new();
        }
        images
    }

    /// Prompt history from the user messages in the transcript (resumed sessions).
    pub fn fill_history(&mut self) {
        for item in &self.transcript.items {
            if let crate::tui::transcript::Item::User { text } = item {
                self.editor.add_history(text);
            }
        }
    }

    /// Cancel the running turn, if any.
    pub fn abort_running(&mut self) {
        if let Some(signal) = self.signal.take() {
            signal.cancel();
        }
    }

    /// Handle one terminal event.
    pub fn handle_terminal_event(&mut self, event: Event) {
        match event {
            Event::Key(key) if key.kind != KeyEventKind::Release => self.handle_key(key),
            Event::Paste(text) => {
                if self.paste_into_dialog(&text) {
                } else if let Some(Overlay::Login(dialog)) = &mut self.overlay {
                    dialog.paste(&text);
                } else if self.overlay.is_none() {
                    self.editor.paste(&text);
                }
            }
            Event::Mouse(m) => match m.kind {
                MouseEventKind::ScrollUp => self.scroll = self.scroll.saturating_add(WHEEL_LINES),
                MouseEventKind::ScrollDown => self.scroll = self.scroll.saturating_sub(WHEEL_LINES),
                _ => return,
            },
            Event::Resize(..) => {}
            _ => return,
        }
        self.dirty = true;
    }

    /// Handle an event from the conversation task.
    pub fn handle_ui_event(&mut self, event: UiEvent) {
        match event {
            UiEvent::Agent(event) => {
                if let AgentEvent::MessageStart {
                    message: Message::User(_),
                } = event.as_ref()
                {
                    self.scroll = 0;
                }
                self.transcript.apply(&event);
            }
            UiEvent::Idle(snapshot) => {
                self.busy_since = None;
                self.transcript.settle_retries();
                self.signal = None;
                self.apply_snapshot(&snapshot);
                // Messages queued while a command (not a turn) ran, or left
                // over by a turn that ended before polling them, go out now.
                let queued = self.take_queued();
                if !queued.is_empty() {
                    self.send_prompt(queued.join("\n\n"));
                } else if std::mem::take(&mut self.actions_waiting) {
                    self.run_extension_actions();
                }
            }
            UiEvent::Streaming(latest) => {
                if let Some(event) = latest.take() {
                    self.transcript.apply(&event);
                }
            }
            UiEvent::ExtensionActionsQueued => {
                if self.is_busy() {
                    self.actions_waiting = true;
                } else {
                    self.run_extension_actions();
                }
            }
            UiEvent::Failed(message) => self.transcript.notice(message, NoticeKind::Error),
            UiEvent::Models(models) => self.models = models,
            UiEvent::Extensions(profile) => self.open_extensions(*profile),
            UiEvent::FolderChanged(cwd, session_dir) => self.enter_folder(cwd, session_dir),
            UiEvent::Quit => self.quit = true,
            UiEvent::Notice(_)
            | UiEvent::Tree(_)
            | UiEvent::ForkMessages(_)
            | UiEvent::EditorText(_) => self.handle_tree_event(event),
            UiEvent::Info(message) => self.transcript.notice(message, NoticeKind::Info),
            UiEvent::Reloaded(outcome) => self.report_reload(*outcome),
            UiEvent::Reset(transcript, kind) => {
                use crate::tui::app::session_task::ResetKind;
                let usage = std::mem::take(&mut self.transcript.usage);
                let empty = transcript.counts.total == 0;
                self.transcript = *transcript;
                match kind {
                    // The same session: its token totals stay as they were.
                    ResetKind::Navigated => {
                        self.transcript.usage = usage;
                        self.transcript
                            .notice(t!("pi.tui.tree.navigated"), NoticeKind::Info);
                    }
                    ResetKind::New if empty => self
                        .transcript
                        .notice(t!("pi.tui.session.new"), NoticeKind::Info),
                    ResetKind::Forked => self
                        .transcript
                        .notice(t!("pi.tui.fork.done"), NoticeKind::Info),
                    ResetKind::Resumed => self
                        .transcript
                        .notice(t!("pi.tui.session.resumed"), NoticeKind::Info),
                    ResetKind::New | ResetKind::Cloned => {}
                }
                self.fill_history();
                self.cache.clear();
                self.scroll = 0;
            }
        }
        self.footer.usage = self.transcript.usage.clone();
        self.footer.context_tokens = self.transcript.last_context_tokens;
        // An extension may have switched the sandbox (`pi.setSandbox`).
        let sandbox = crate::sandbox::mode();
        self.footer.sandbox = sandbox.is_confined().then(|| sandbox.as_str().to_string());
        self.dirty = true;
    }

    /// Mirror session state into the footer.
    pub fn apply_snapshot(&mut self, s: &SessionSnapshot) {
        self.footer.session_name = s.name.clone();
        self.session_file = s.file.clone();
        self.session_id = s.id.clone();
        self.footer.model_id = s.model.id.clone();
        self.footer.provider = s.model.provider.clone();
        self.transcript.base_url = s.model.base_url.clone();
        self.footer.reasoning = s.model.reasoning;
        self.footer.context_window = s.model.context_window;
        self.footer.thinking = s.thinking.as_str().to_string();
        self.footer.auto_compact = s.auto_compact;
        self.extension_commands = s.extension_commands.clone();
        self.resource_commands = s.resource_commands.clone();
        self.warn_about_extra_usage();
    }

    pub(super) fn submit(&mut self, text: String) {
        if !text.starts_with('/') && self.answer_login(text.trim()) {
            return;
        }
        if text.is_empty() {
            return;
        }
        if let Some(path) = &self.history_file
            && let Err(e) = crate::tui::editor::history_file::append(path, &text)
        {
            self.transcript.notice(
                t!(
                    "pi.tui.history.save_failed",
                    path = path.display().to_string(),
                    error = e.to_string()
                ),
                NoticeKind::Warning,
            );
        }
        if self.run_extension_command(&text) {
            return;
        }
        let first_word = text.split_whitespace().next().unwrap_or_default();
        let is_resource = first_word
            .strip_prefix('/')
            .is_some_and(|name| self.resource_commands.iter().any(|(n, _)| n == name));
        if let Some(command) = parse_command(&text).filter(|_| !is_resource) {
            self.run_command(command);
            return;
        }
        if !self.is_busy()
            && let Some((command, exclude)) = parse_user_bash(&text)
        {
            self.editor.add_history(&text);
            let signal = CancellationToken::new();
            self.signal = Some(signal.clone());
            self.busy_since = Some(Instant::now());
            self.scroll = 0;
            let _ = self.commands.send(SessionCommand::Bash {
                command,
                exclude,
                signal,
            });
            return;
        }
        if self.is_busy() {
            self.queues.steering.push(user_message(text));
            return;
        }
        let images = self.attached_images(&text);
        self.send_prompt_with(text, images);
    }

    /// Remove all queued steering and follow-up messages, returning their text.
    pub(super) fn take_queued(&mut self) -> Vec<String> {
        let steering = self.queues.steering.drain();
        let follow_up = self.queues.follow_up.drain();
        steering
            .iter()
            .chain(&follow_up)
            .map(message_text)
            .collect()
    }

    pub(super) fn dequeue(&mut self) {
        let mut texts = self.take_queued();
        if texts.is_empty() {
            return;
        }
        if !self.editor.is_empty() {
            texts.push(self.editor.text());
        }
        self.editor.set_text(&texts.join("\n\n"));
    }
}

pub(super) fn user_message(text: String) -> Message {
    Message::User(UserMessage {
        content: crate::ai::types::UserContent::Text(text),
        timestamp: now_ms(),
    })
}

fn message_text(m: &Message) -> String {
    match m {
        Message::User(u) => u.content.text(),
        _ => String::new(),
    }
}
