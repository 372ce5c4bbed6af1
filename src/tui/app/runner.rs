//! The interactive event loop: terminal input, conversation events and
//! frame timing merged in one `select!`; a frame is drawn only when
//! something changed, at most every 16 ms.

use crate::sync::LockExt;
use crate::t;

use std::path::PathBuf;
use std::time::Duration;

use tokio::time::Instant;

use crate::ai::model::Model;
use crate::core::agent_session::AgentSession;
use crate::tui::app::session_task::{SessionCommand, snapshot, spawn_session};
use crate::tui::app::{App, Overlay, TerminalRequest};
use crate::tui::chrome::{FooterInfo, git_branch};
use crate::tui::input::Input;
use crate::tui::screen::Screen;
use crate::tui::terminal::{TerminalGuard, enter};
use crate::tui::transcript::{NoticeKind, Transcript};
use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::theme::{Theme, ThemeWatcher};

/// Minimum time between frames (~60 fps).
const FRAME: Duration = Duration::from_millis(16);
/// How often a user theme file is checked for changes.
const THEME_CHECK: Duration = Duration::from_millis(500);
/// Redraw interval for the working indicator.
const SPINNER: Duration = Duration::from_millis(80);

/// What interactive mode needs besides the conversation.
pub struct InteractiveOptions {
    /// Agent directory (`keybindings.json`, themes).
    pub agent_dir: PathBuf,
    /// Working directory.
    pub cwd: PathBuf,
    /// Models offered by `/model`.
    pub models: Vec<Model>,
    /// Models Ctrl+P cycles through (`--models` / `enabledModels`); all
    /// available models when empty.
    pub cycle_models: Vec<Model>,
    /// Theme name from settings.
    pub theme: Option<String>,
    /// Theme files from `--theme` and settings `themes`.
    pub theme_files: Vec<PathBuf>,
    /// A first message from the command line, sent at once.
    pub initial_prompt: Option<String>,
    /// Folder of this project's sessions (`None` with `--no-session`).
    pub session_dir: Option<PathBuf>,
    /// `--resume`: open the session selector at start.
    pub open_resume: bool,
    /// `quietStartup` setting: no header.
    pub quiet_startup: bool,
    /// Skills, prompt templates and extensions loaded, listed under the header.
    pub resources: crate::tui::chrome::LoadedResources,
    /// Whether this folder's `.pi` resources (themes among them) may load.
    pub project_trusted: bool,
    /// Start-up notices to show in the transcript.
    pub notices: Vec<String>,
    /// Loaded settings (`/settings` writes changes back).
    pub settings: crate::config::settings::Settings,
    /// `/tree` settings.
    pub tree: crate::tui::app::TreeOptions,
    /// Where extensions' `ctx.ui` requests arrive (`None`: no extensions).
    pub extension_ui: Option<crate::tui::chrome::extension_ui::ExtensionUiInbox>,
    /// `alternateScreen` setting: draw on the alternate screen instead of the
    /// normal screen with scrollback.
    pub alternate_screen: bool,
    /// The running update check, whose notice (if any) is shown when it arrives.
    pub update_notice: Option<tokio::task::JoinHandle<Option<String>>>,
}

/// Run the interactive UI until the user quits; returns the exit code.
pub async fn run_interactive(agent: AgentSession, mut options: InteractiveOptions) -> i32 {
    let (existing, entered) = restore_while_entering(&agent, options.alternate_screen);
    if let Err(e) = entered {
        crate::tui::terminal::restore();
        eprintln!(
            "{}",
            t!("pi.tui.terminal.setup_failed", error = e.to_string())
        );
        return 1;
    }
    let guard = TerminalGuard;
    let initial = snapshot(&agent);
    let queues = agent.queues.clone();
    let extension_handle = agent.extensions().map(|b| b.handle.clone());
    let initial_shortcuts = agent
        .extensions()
        .map(|b| b.registrations.shortcuts.clone())
        .unwrap_or_default();
    let surfaces = agent.extensions().map(|e| e.view.lock().surfaces.clone());
    let catalog = agent.catalog.clone();
    let (commands, mut ui_events, task) = spawn_session(agent);
    if let Some(check) = options.update_notice.take() {
        let _ = commands.send(SessionCommand::NoticeWhenReady(check));
    }

    let (keys, key_warnings) = Keybindings::load(&options.agent_dir);
    let mut theme_dirs = vec![options.agent_dir.join("themes")];
    if options.project_trusted {
        theme_dirs.push(options.cwd.join(".pi").join("themes"));
    }
    let dir_refs: Vec<&std::path::Path> = theme_dirs.iter().map(PathBuf::as_path).collect();
    let (theme, theme_warning, theme_file) = choose_theme(&options, &dir_refs);
    let mut theme_watcher = theme_file.map(ThemeWatcher::new);
    let providers: std::collections::HashSet<&str> =
        options.models.iter().map(|m| m.provider.as_str()).collect();
    let footer = FooterInfo {
        cwd: options.cwd.clone(),
        git_branch: git_branch(&options.cwd),
        several_providers: providers.len() > 1,
        sandbox: crate::sandbox::mode()
            .is_confined()
            .then(|| crate::sandbox::mode().as_str().to_string()),
        ..FooterInfo::default()
    };
    let mut app = App::new(commands, queues, keys, theme, footer);
    app.session_dir = options.session_dir;
    app.login.agent_dir = Some(options.agent_dir.clone());
    app.login.catalog = catalog;
    app.ui_settings = crate::tui::app::settings::UiSettings {
        settings: options.settings,
        theme_dirs: theme_dirs.to_vec(),
        agent_dir: options.agent_dir.clone(),
    };
    app.quiet_startup = options.quiet_startup;
    app.resources = options.resources;
    let mut extension_ui = options.extension_ui;
    if let Some(inbox) = &extension_ui {
        inbox.mirror.locked().theme_dirs = theme_dirs.to_vec();
        app.ext.sender = Some(inbox.sender.clone());
        app.ext.handle = extension_handle;
        app.set_extension_shortcuts(&initial_shortcuts);
    }
    if let Some(store) = &surfaces {
        let (cols, rows) = crossterm::terminal::size().unwrap_or((80, 24));
        store.attach(cols, rows);
    }
    app.lua.surfaces = surfaces;
    app.tree = options.tree;
    if options.open_resume {
        app.open_session_selector();
    }
    app.models = options.models;
    app.cycle_models = options.cycle_models;
    app.transcript = existing;
    let has_messages = !app.transcript.items.is_empty();
    let history_file = crate::tui::editor::history_file::history_path(&options.agent_dir);
    for entry in crate::tui::editor::history_file::load(&history_file) {
        app.editor.add_history(&entry);
    }
    app.history_file = Some(history_file);
    app.fill_history();
    app.apply_snapshot(&initial);
    app.footer.usage = app.transcript.usage.clone();
    app.footer.context_tokens = app.transcript.last_context_tokens;
    for warning in options
        .notices
        .into_iter()
        .chain(key_warnings)
        .chain(theme_warning)
    {
        app.transcript.notice(warning, NoticeKind::Warning);
    }
    app.show_whats_new(has_messages);

    if options.theme.is_none()
        && options.theme_files.is_empty()
        && crate::tui::background::query_terminal().light_background == Some(true)
    {
        app.theme = Theme::light();
    }
    let code = match Screen::open(options.alternate_screen) {
        Ok(mut screen) => {
            if let Some(prompt) = options.initial_prompt {
                app.send_prompt(prompt);
            }
            if let Some(inbox) = &extension_ui {
                inbox.mirror.locked().ready = true;
            }
            let mut channels = Channels {
                ui_events: &mut ui_events,
                theme_watcher: &mut theme_watcher,
                extension_ui: &mut extension_ui,
            };
            event_loop(&mut app, &mut screen, &mut channels).await;
            if let Some(sequence) = app.clear_terminal_progress() {
                crate::tui::app::progress::write_sequence(sequence);
            }
            screen.finish();
            0
        }
        Err(e) => {
            eprintln!(
                "{}",
                t!("pi.tui.terminal.setup_failed", error = e.to_string())
            );
            1
        }
    };
    drop(guard);
    // Abort a running turn, then let the conversation task save and finish.
    app.abort_running();
    drop(app);
    let _ = tokio::time::timeout(Duration::from_secs(5), task).await;
    code
}

/// Messages from which a resumed conversation's rows are built on a thread of their own.
const RESTORE_ON_A_THREAD_FROM: usize = 128;

/// The transcript of the conversation so far, and the terminal put into the UI's mode.
/// A long conversation's rows are built on another thread meanwhile, so that the round
/// trip of the terminal's feature query is not added to the wait.
fn restore_while_entering(
    agent: &AgentSession,
    alternate_screen: bool,
) -> (Transcript, std::io::Result<()>) {
    let messages = &agent.state.messages;
    if messages.len() < RESTORE_ON_A_THREAD_FROM {
        return (Transcript::from_messages(messages), enter(alternate_screen));
    }
    std::thread::scope(|scope| {
        let building = scope.spawn(|| Transcript::from_messages(messages));
        let entered = enter(alternate_screen);
        let transcript = building
            .join()
            .unwrap_or_else(|_| Transcript::from_messages(messages));
        (transcript, entered)
    })
}

/// The configured theme: a `--theme` file named like the settings theme (or
/// the first file when no name is set), else a built-in or user theme.
fn choose_theme(
    options: &InteractiveOptions,
    dirs: &[&std::path::Path],
) -> (Theme, Option<String>, Option<PathBuf>) {
    let named = |path: &&PathBuf| {
        options
            .theme
            .as_deref()
            .is_none_or(|name| path.file_stem().is_some_and(|s| s == name))
    };
    let mut files = options.theme_files.iter().filter(|p| !p.is_dir());
    if let Some(path) = files.find(named) {
        let (theme, warnings) = Theme::from_file_checked(path);
        let notes = (!warnings.is_empty()).then(|| warnings.join("\n"));
        return match theme {
            Ok(theme) => (theme, notes, Some(path.clone())),
            Err(e) => {
                let all = notes.map_or(e.to_string(), |n| format!("{n}\n{e}"));
                (Theme::default(), Some(all), Some(path.clone()))
            }
        };
    }
    let mut all_dirs: Vec<&std::path::Path> = options
        .theme_files
        .iter()
        .filter(|p| p.is_dir())
        .map(PathBuf::as_path)
        .collect();
    all_dirs.extend_from_slice(dirs);
    match &options.theme {
        Some(name) => Theme::locate(name, &all_dirs),
        None => (Theme::default(), None, None),
    }
}

/// What the event loop listens to besides the terminal.
struct Channels<'a> {
    ui_events: &'a mut tokio::sync::mpsc::UnboundedReceiver<crate::tui::app::session_task::UiEvent>,
    theme_watcher: &'a mut Option<ThemeWatcher>,
    extension_ui: &'a mut Option<crate::tui::chrome::extension_ui::ExtensionUiInbox>,
}

async fn next_extension_request(
    inbox: &mut Option<crate::tui::chrome::extension_ui::ExtensionUiInbox>,
) -> Option<crate::tui::chrome::extension_ui::UiRequest> {
    match inbox {
        Some(inbox) => inbox.requests.recv().await,
        None => std::future::pending().await,
    }
}

/// After a command or turn, pick up shortcuts a reload may have changed.
fn refresh_shortcuts(app: &App) {
    let (Some(handle), Some(sender)) = (app.ext.handle.clone(), app.ext.sender.clone()) else {
        return;
    };
    tokio::spawn(async move {
        let list = handle.registrations().await.shortcuts;
        let _ = sender.send(crate::tui::chrome::extension_ui::UiRequest::Shortcuts(list));
    });
}

async fn event_loop(app: &mut App, screen: &mut Screen, channels: &mut Channels<'_>) {
    let Channels {
        ui_events,
        theme_watcher,
        extension_ui,
    } = channels;
    let mut theme_check = tokio::time::interval(THEME_CHECK);
    theme_check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut locale_check = tokio::time::interval(THEME_CHECK);
    locale_check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut locale_watcher =
        crate::i18n::watch::LocaleDirWatcher::new(app.ui_settings.agent_dir.join("locales"));
    use tokio::signal::unix::{SignalKind, signal};
    let mut input = Input::start();
    let mut sigterm = signal(SignalKind::terminate()).ok();
    let mut sighup = signal(SignalKind::hangup()).ok();
    let mut last_frame = Instant::now() - FRAME;
    let mut spinner = tokio::time::interval(SPINNER);
    spinner.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    // A panel listing what work in the background delivers is looked at once a frame.
    let mut panel_poll = tokio::time::interval(FRAME);
    panel_poll.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    // The syntax definitions load once the first frame is up, not in its way.
    let mut highlighting_loaded = false;
    loop {
        let next_frame = last_frame + FRAME;
        tokio::select! {
            event = input.events.recv() => match event {
                Some(event) => app.handle_terminal_event(event),
                None => break,
            },
            Some(event) = ui_events.recv() => {
                let idle = matches!(event, crate::tui::app::session_task::UiEvent::Idle(_));
                app.handle_ui_event(event);
                if idle {
                    refresh_shortcuts(app);
                }
            }
            Some(request) = next_extension_request(extension_ui) => {
                app.handle_extension_request(request);
            }
            event = crate::tui::app::login::next_event(&mut app.login) => app.handle_login_event(event),
            _ = frame_due(next_frame), if app.dirty => {
                if screen.draw(app).is_err() {
                    break;
                }
                if let Some(store) = &app.lua.surfaces {
                    store.redraw_all();
                }
                app.dirty = false;
                last_frame = Instant::now();
                if !highlighting_loaded {
                    crate::tui::transcript::highlight::preload();
                    highlighting_loaded = true;
                }
            }
            _ = panel_poll.tick(), if app.overlay.as_ref().is_some_and(Overlay::loading) => {
                if app.overlay.as_mut().is_some_and(Overlay::poll) {
                    app.dirty = true;
                }
            }
            _ = spinner.tick(), if app.is_busy() || app.ext.ticking() => {
                app.transcript.tick_retry(std::time::Instant::now());
                app.dirty = true;
            }
            _ = lua_published(app.lua.surfaces.clone()) => {
                crate::tui::chrome::lua_surfaces::apply_published(app);
                app.dirty = true;
            }
            _ = theme_check.tick(), if theme_watcher.is_some() => {
                if let Some(result) = theme_watcher.as_mut().and_then(ThemeWatcher::poll) {
                    match result {
                        Ok(theme) => {
                            app.theme = theme;
                            app.cache.clear();
                        }
                        Err(e) => app.transcript.notice(e.to_string(), NoticeKind::Warning),
                    }
                    app.dirty = true;
                }
            }
            _ = locale_check.tick() => {
                if locale_watcher.poll() {
                    app.reload_locales();
                    app.cache.clear();
                    app.dirty = true;
                }
            }
            _ = recv_signal(&mut sigterm) => break,
            _ = recv_signal(&mut sighup) => break,
        }
        crate::tui::chrome::lua_surfaces::queue_renders(app);
        if app.quit {
            break;
        }
        if let Some(inbox) = extension_ui.as_ref()
            && app.dirty
        {
            app.sync_extension_mirror(&inbox.mirror);
        }
        if let Some(sequence) = app.terminal_progress() {
            crate::tui::app::progress::write_sequence(sequence);
        }
        if let Some(title) = app.ext.title.take() {
            let _ = crossterm::execute!(std::io::stdout(), crossterm::terminal::SetTitle(title));
        }
        if let Some(request) = app.terminal_request.take() {
            input.pause();
            handle_terminal_request(app, request);
            input.resume();
            screen.invalidate();
            app.dirty = true;
        }
    }
}

/// Resolves at `at`, or at once when that has passed: a timer would round up to the
/// next millisecond tick and hold back a frame (the first one above all) for nothing.
async fn frame_due(at: Instant) {
    if Instant::now() < at {
        tokio::time::sleep_until(at).await;
    }
}

/// Resolves when Lua components publish new lines (never without them).
async fn lua_published(store: Option<crate::lua::ui::surfaces::SurfaceStore>) {
    match store {
        Some(store) => store.ui_wakeup().await,
        None => std::future::pending().await,
    }
}

/// Leave the UI, run the external editor or suspend, then come back.
fn handle_terminal_request(app: &mut App, request: TerminalRequest) {
    crate::tui::terminal::restore();
    match request {
        TerminalRequest::ExternalEditor => {
            // The editor gets pasted text in full; unchanged, the markers stay.
            let sent = app.editor.expanded();
            match super::external_editor::edit_externally(&sent) {
                Ok(text) if text.trim_end_matches('\n') == sent.trim_end_matches('\n') => {}
                Ok(text) => app.editor.set_text(text.trim_end_matches('\n')),
                Err(e) => app.transcript.notice(e.to_string(), NoticeKind::Warning),
            }
        }
        TerminalRequest::Suspend => {
            // SAFETY: raising SIGTSTP on our own process; we continue on SIGCONT.
            unsafe {
                libc::raise(libc::SIGTSTP);
            }
        }
    }
    if let Err(e) = crate::tui::terminal::reenter() {
        app.transcript.notice(
            t!("pi.tui.terminal.restore_failed", error = e.to_string()),
            NoticeKind::Error,
        );
    }
}

async fn recv_signal(signal: &mut Option<tokio::signal::unix::Signal>) {
    match signal {
        Some(s) => {
            s.recv().await;
        }
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(theme: Option<&str>, files: Vec<PathBuf>) -> InteractiveOptions {
        InteractiveOptions {
            agent_dir: PathBuf::new(),
            cwd: PathBuf::new(),
            models: Vec::new(),
            cycle_models: Vec::new(),
            theme: theme.map(str::to_string),
            theme_files: files,
            initial_prompt: None,
            session_dir: None,
            open_resume: false,
            quiet_startup: false,
            resources: Default::default(),
            project_trusted: true,
            tree: Default::default(),
            notices: Vec::new(),
            settings: Default::default(),
            extension_ui: None,
            alternate_screen: false,
            update_notice: None,
        }
    }

    #[test]
    fn theme_flag_files_and_directories_are_used() {
        let dir = tempfile::tempdir().unwrap();
        let mut v: serde_json::Value =
            serde_json::from_str(crate::ui_kit::theme::DARK_JSON).unwrap();
        v["colors"]["error"] = serde_json::json!("#010203");
        let file = dir.path().join("mine.json");
        std::fs::write(&file, v.to_string()).unwrap();
        let red = Some(ratatui::style::Color::Rgb(1, 2, 3));

        let (theme, warning, watched) = choose_theme(&options(None, vec![file.clone()]), &[]);
        assert_eq!((theme.color("error"), warning), (red, None));
        assert_eq!(watched, Some(file.clone()));

        let by_dir = options(Some("mine"), vec![dir.path().to_path_buf()]);
        assert_eq!(choose_theme(&by_dir, &[]).0.color("error"), red);

        let (theme, warning, _) = choose_theme(&options(Some("other"), vec![file]), &[]);
        assert_eq!(theme.name, "dark");
        assert!(warning.unwrap().contains("\"other\" not found"));
    }
}
