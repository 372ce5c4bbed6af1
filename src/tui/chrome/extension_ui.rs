//! `ctx.ui` for the terminal UI: the extension thread sends dialogs and
//! chrome changes over a channel to the event loop, and reads the editor
//! text, tool expansion and theme from a mirror the loop keeps current.

use crate::sync::LockExt;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use crate::lua::{ExtensionUi, SharedExtensionUi};
use crate::ui_kit::theme::Theme;

/// A request from the extension thread (or a task of the UI) to the event loop.
#[derive(Debug)]
pub enum UiRequest {
    /// Show a dialog and send the answer.
    Dialog {
        /// pi's `extension_ui_request` without `type` and `id`.
        request: Value,
        /// Fires when the extension stopped waiting.
        closed: CancellationToken,
        /// Where the answer goes.
        answer: oneshot::Sender<Value>,
    },
    /// A chrome change: notify, setStatus, setWidget, setTitle, ...
    Fire(Value),
    /// Argument completions of `/name` for the editor `text`: (label, description).
    Completions {
        /// Editor text they were asked for.
        text: String,
        /// Completed command lines and descriptions.
        items: Vec<(String, String)>,
    },
    /// Extension shortcuts (after start-up or a reload).
    Shortcuts(Vec<crate::lua::ShortcutInfo>),
    /// What the extensions' autocomplete providers suggest for an editor state.
    ProviderCompletions(crate::tui::chrome::extension::ProviderCompletions),
}

/// UI state the extension thread reads synchronously.
#[derive(Debug, Clone, Default)]
pub struct Mirror {
    /// The editor's text.
    pub editor_text: String,
    /// Whether tool output is expanded.
    pub tools_expanded: bool,
    /// The current theme.
    pub theme: Theme,
    /// Folders holding user themes (`<name>.json`).
    pub theme_dirs: Vec<PathBuf>,
    /// The event loop runs and can answer dialogs. Before that (handlers
    /// of the start-up `session_start`), dialogs answer with their defaults
    /// at once instead of waiting for a screen that does not exist yet.
    pub ready: bool,
}

/// The UI end of the channel.
pub struct ExtensionUiInbox {
    /// Requests to handle.
    pub requests: UnboundedReceiver<UiRequest>,
    /// For tasks of the UI that answer later (completions, shortcuts).
    pub sender: UnboundedSender<UiRequest>,
    /// State mirrored for the extension thread.
    pub mirror: Arc<Mutex<Mirror>>,
}

/// The extension end: implements [`ExtensionUi`].
struct TuiExtensionUi {
    tx: UnboundedSender<UiRequest>,
    mirror: Arc<Mutex<Mirror>>,
}

/// A connected pair: the `ctx.ui` front end for the extension host and the
/// inbox the event loop reads.
pub fn channel() -> (SharedExtensionUi, ExtensionUiInbox) {
    let (tx, rx) = unbounded_channel();
    let mirror = Arc::new(Mutex::new(Mirror::default()));
    let ui = TuiExtensionUi {
        tx: tx.clone(),
        mirror: mirror.clone(),
    };
    let inbox = ExtensionUiInbox {
        requests: rx,
        sender: tx,
        mirror,
    };
    (Arc::new(ui), inbox)
}

/// A theme by name from the built-ins or `dirs`; `None` when missing or broken.
pub fn find_theme(name: &str, dirs: &[PathBuf]) -> Option<Theme> {
    let dirs: Vec<&std::path::Path> = dirs.iter().map(PathBuf::as_path).collect();
    match Theme::locate(name, &dirs) {
        (theme, None, _) => Some(theme),
        _ => None,
    }
}

impl ExtensionUi for TuiExtensionUi {
    fn dialog(&self, request: Value, closed: CancellationToken) -> oneshot::Receiver<Value> {
        let (answer, rx) = oneshot::channel();
        if !self.mirror.locked().ready {
            return rx;
        }
        let _ = self.tx.send(UiRequest::Dialog {
            request,
            closed,
            answer,
        });
        rx
    }

    fn fire(&self, request: Value) {
        {
            // Later reads in the same handler see the change at once.
            let mut m = self.mirror.locked();
            match request["method"].as_str() {
                Some("set_editor_text") => {
                    m.editor_text = request["text"].as_str().unwrap_or_default().into();
                }
                Some("setToolsExpanded") => {
                    m.tools_expanded = request["expanded"].as_bool().unwrap_or(false);
                }
                Some("setTheme") => {
                    let theme = match request["name"].as_str() {
                        Some(name) => find_theme(name, &m.theme_dirs),
                        None => Theme::parse(&request["theme"].to_string()).ok(),
                    };
                    if let Some(theme) = theme {
                        m.theme = theme;
                    }
                }
                _ => {}
            }
        }
        let _ = self.tx.send(UiRequest::Fire(request));
    }

    fn query(&self, what: &str) -> Value {
        let m = self.mirror.locked();
        match what {
            "editorText" => json!(m.editor_text),
            "toolsExpanded" => json!(m.tools_expanded),
            _ => Value::Null,
        }
    }

    fn theme(&self, name: Option<&str>) -> Option<Theme> {
        let m = self.mirror.locked();
        match name {
            None => Some(m.theme.clone()),
            Some(name) => find_theme(name, &m.theme_dirs),
        }
    }

    fn themes(&self) -> Vec<Value> {
        let dirs = self.mirror.locked().theme_dirs.clone();
        let mut out: Vec<Value> = crate::ui_kit::theme::builtin_theme_names()
            .map(|name| json!({ "name": name }))
            .collect();
        for dir in dirs {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            let mut files: Vec<PathBuf> = entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "json"))
                .collect();
            files.sort();
            for path in files {
                let Some(name) = path.file_stem().and_then(|s| s.to_str()) else {
                    continue;
                };
                // A built-in of the same name wins, as in `find_theme`.
                if !out.iter().any(|t| t["name"] == name) {
                    out.push(json!({"name": name, "path": path}));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn dialogs_and_setters_reach_the_inbox_and_reads_see_writes() {
        let (ui, mut inbox) = channel();
        assert!(
            ui.dialog(json!({"method": "confirm"}), CancellationToken::new())
                .await
                .is_err()
        );
        inbox.mirror.lock().unwrap().ready = true;
        ui.fire(json!({"method": "set_editor_text", "text": "draft"}));
        ui.fire(json!({"method": "setToolsExpanded", "expanded": true}));
        assert_eq!(ui.query("editorText"), json!("draft"));
        assert_eq!(ui.query("toolsExpanded"), json!(true));
        ui.fire(json!({"method": "setTheme", "name": "light"}));
        assert_eq!(ui.theme(None).unwrap().name, "light");
        assert!(ui.theme(Some("nope")).is_none());
        let rx = ui.dialog(json!({"method": "confirm"}), CancellationToken::new());
        let mut fired = 0;
        while let Ok(request) = inbox.requests.try_recv() {
            match request {
                UiRequest::Fire(_) => fired += 1,
                UiRequest::Dialog { answer, .. } => {
                    answer.send(json!({"confirmed": true})).unwrap();
                }
                _ => {}
            }
        }
        assert_eq!(fired, 3);
        assert_eq!(rx.await.unwrap()["confirmed"], true);
    }
}
