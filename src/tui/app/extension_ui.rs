//! The terminal UI's side of `ctx.ui`: handling extension requests, dialog
//! keys, extension shortcuts and command argument completions.

use crate::sync::LockExt;
use crate::t;

use std::sync::Mutex;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::{Value, json};

use crate::lua::ShortcutInfo;
use crate::tui::app::App;
use crate::tui::chrome::dialog::{DialogOutcome, ExtDialog};
use crate::tui::chrome::extension_ui::{Mirror, UiRequest, find_theme};
use crate::tui::transcript::NoticeKind;
use crate::ui_kit::keybindings::KeyCombo;
use crate::ui_kit::theme::Theme;

/// Built-in actions an extension shortcut may not take over.
const RESERVED: [&str; 17] = [
    "app.interrupt",
    "app.clear",
    "app.exit",
    "app.suspend",
    "app.thinking.cycle",
    "app.model.cycleForward",
    "app.model.cycleBackward",
    "app.model.select",
    "app.tools.expand",
    "app.thinking.toggle",
    "app.editor.external",
    "app.message.followUp",
    "tui.input.submit",
    "tui.select.confirm",
    "tui.select.cancel",
    "tui.input.copy",
    "tui.editor.deleteToLineEnd",
];

impl App {
    /// Handle a request from an extension (or a task answering for one).
    pub fn handle_extension_request(&mut self, request: UiRequest) {
        match request {
            UiRequest::Dialog {
                request,
                closed,
                answer,
            } => {
                if let Some(dialog) = ExtDialog::from_request(&request, closed, answer) {
                    self.ext.dialogs.push_back(dialog);
                    self.completion = None;
                }
            }
            UiRequest::Fire(request) => self.apply_extension_fire(&request),
            UiRequest::Completions { text, items } => {
                if self.editor.text() == text {
                    let best = best_argument_match(&text, &items);
                    self.completion = (!items.is_empty()).then_some(best);
                    self.ext.arg_completions = Some((text, items));
                }
            }
            UiRequest::Shortcuts(list) => self.set_extension_shortcuts(&list),
            UiRequest::ProviderCompletions(found) => {
                if found.state == self.editor_state() {
                    self.completion = (!found.items.is_empty()).then_some(0);
                    self.ext.provider_completions = Some(found);
                }
            }
        }
        self.dirty = true;
    }

    fn apply_extension_fire(&mut self, request: &Value) {
        if self.ext.apply(request) {
            return;
        }
        let text = |k: &str| request[k].as_str().unwrap_or_default().to_string();
        match request["method"].as_str().unwrap_or_default() {
            "notify" => {
                let kind = match request["notifyType"].as_str() {
                    Some("error") => NoticeKind::Error,
                    Some("warning") => NoticeKind::Warning,
                    _ => NoticeKind::Info,
                };
                self.transcript.extension_notice(text("message"), kind);
            }
            "set_editor_text" => self.editor.set_text(&text("text")),
            "pasteToEditor" => self.editor.paste(&text("text")),
            "setToolsExpanded" => self.tools_expanded = request["expanded"] == true,
            "setTheme" => {
                let theme = match request["name"].as_str() {
                    Some(name) => find_theme(name, &self.ui_settings.theme_dirs),
                    None => Theme::parse(&request["theme"].to_string()).ok(),
                };
                if let Some(theme) = theme {
                    self.theme = theme;
                    self.cache.clear();
                    // A theme chosen by name is kept in the settings, as pi 0.73.1 does.
                    if let Some(name) = request["name"].as_str()
                        && self.ui_settings.settings.theme() != Some(name)
                        && let Err(e) = self
                            .ui_settings
                            .settings
                            .set_global("theme", Value::String(name.to_string()))
                    {
                        self.transcript.notice(e, NoticeKind::Error);
                    }
                }
            }
            _ => {}
        }
    }

    /// Keys go to the first open extension dialog; `false` when none is open.
    pub(super) fn handle_dialog_key(&mut self, key: &KeyEvent) -> bool {
        self.ext.prune();
        let Some(dialog) = self.ext.dialogs.front_mut() else {
            return false;
        };
        if dialog.handle_key(key, &self.keys) == DialogOutcome::Done {
            self.ext.dialogs.pop_front();
        }
        true
    }

    /// Pasted text goes to an open text dialog; `false` when none is open.
    pub(super) fn paste_into_dialog(&mut self, text: &str) -> bool {
        match self.ext.dialogs.front_mut() {
            Some(dialog) => {
                dialog.paste(text);
                true
            }
            None => false,
        }
    }

    /// Keep the extension shortcuts of `list`, reporting conflicts with
    /// built-in keybindings as pi does.
    pub fn set_extension_shortcuts(&mut self, list: &[ShortcutInfo]) {
        if self.ext.shortcut_source == list {
            return;
        }
        self.ext.shortcut_source = list.to_vec();
        let mut kept: Vec<(KeyCombo, String, String)> = Vec::new();
        for info in list {
            let Some(combo) = KeyCombo::parse(&info.shortcut) else {
                continue;
            };
            let path = info.extension.display().to_string();
            let key = info.shortcut.clone();
            let event = KeyEvent::new(combo.code, combo.modifiers);
            let builtin: Vec<&str> = self
                .keys
                .listing()
                .into_iter()
                .map(|(id, _, _)| id)
                .filter(|id| self.keys.matches(id, &event))
                .collect();
            if builtin.iter().any(|id| RESERVED.contains(id)) {
                let text = t!("pi.tui.ext.shortcut.reserved", key = &key, path = &path);
                self.transcript.notice(text, NoticeKind::Warning);
                continue;
            }
            if let Some(action) = builtin.first() {
                let text = t!(
                    "pi.tui.ext.shortcut.override",
                    key = &key,
                    action = *action,
                    path = &path
                );
                self.transcript.notice(text, NoticeKind::Warning);
            }
            if let Some(i) = kept.iter().position(|(c, _, _)| *c == combo) {
                let first = kept.remove(i).2;
                let text = t!(
                    "pi.tui.ext.shortcut.duplicate",
                    key = &key,
                    first = &first,
                    path = &path
                );
                self.transcript.notice(text, NoticeKind::Warning);
            }
            kept.push((combo, key, path));
        }
        self.ext.shortcuts = kept.into_iter().map(|(c, k, _)| (c, k)).collect();
    }

    /// Run the extension shortcut bound to `key`, if any.
    pub(super) fn run_extension_shortcut(&mut self, key: &KeyEvent) -> bool {
        let combo = KeyCombo::from_event(key);
        let Some((_, spec)) = self.ext.shortcuts.iter().find(|(c, _)| *c == combo) else {
            return false;
        };
        let (Some(handle), Some(sender)) = (self.ext.handle.clone(), self.ext.sender.clone())
        else {
            return false;
        };
        let spec = spec.clone();
        tokio::spawn(async move {
            if let Err(error) = handle.run_shortcut(&spec).await {
                let message = error.to_string();
                let notify = json!({"method": "notify", "message": message, "notifyType": "error"});
                let _ = sender.send(UiRequest::Fire(notify));
            }
        });
        true
    }

    /// Argument completions for `/name args` when they belong to `text`.
    pub(super) fn extension_argument_completions(
        &self,
        text: &str,
    ) -> Option<Vec<(String, String)>> {
        match &self.ext.arg_completions {
            Some((for_text, items)) if for_text == text => Some(items.clone()),
            _ => None,
        }
    }

    /// The keys to handle for `key` after the extensions' terminal input handlers saw it:
    /// none when one consumed it, another key (or the characters of a text) when one
    /// rewrote it. Handlers get 100 ms; a busy extension thread lets the key through.
    pub(super) fn through_terminal_input(&self, key: KeyEvent) -> Vec<KeyEvent> {
        use crate::tui::chrome::lua_surfaces::{key_event, key_id};
        let Some(handle) = self.ext.handle.as_ref().filter(|h| h.has_terminal_input()) else {
            return vec![key];
        };
        let id = key_id(&key);
        let Some(answer) =
            handle.terminal_input_blocking(id.clone(), std::time::Duration::from_millis(100))
        else {
            return vec![key];
        };
        if answer["consume"] == true {
            return Vec::new();
        }
        match answer["data"].as_str() {
            Some(data) if data == id => vec![key],
            Some(data) => match key_event(data) {
                Some(event) => vec![event],
                None => data
                    .chars()
                    .map(|c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
                    .collect(),
            },
            None => vec![key],
        }
    }

    /// The editor's text and cursor, which provider completions belong to.
    pub(super) fn editor_state(&self) -> (String, usize, usize) {
        let (_, row, col) = self.editor.cursor();
        (self.editor.text(), row, col)
    }

    /// The provider suggestions for the editor as it is now: (value, label, description).
    pub(super) fn provider_completions(&self) -> Option<&[(String, String, String)]> {
        self.ext
            .provider_completions
            .as_ref()
            .filter(|found| found.state == self.editor_state())
            .map(|found| found.items.as_slice())
    }

    /// Insert a provider suggestion: it replaces the prefix the provider matched.
    pub(super) fn apply_provider_completion(&mut self, index: usize) -> bool {
        let Some(found) = self.ext.provider_completions.take() else {
            return false;
        };
        if found.state != self.editor_state() {
            return false;
        }
        let Some((value, _, _)) = found.items.get(index) else {
            return false;
        };
        let (lines, row, col) = self.editor.cursor();
        if lines[row][..col].ends_with(&found.prefix) {
            self.editor.replace_before_cursor(found.prefix.len(), value);
        }
        true
    }

    /// Ask the extensions' autocomplete providers about the editor as it is now.
    pub(super) fn request_provider_completions(&mut self) {
        let (Some(handle), Some(sender)) = (self.ext.handle.clone(), self.ext.sender.clone())
        else {
            return;
        };
        if !handle.has_autocomplete() {
            return;
        }
        let state = self.editor_state();
        if self
            .ext
            .provider_completions
            .as_ref()
            .is_some_and(|found| found.state == state)
        {
            return;
        }
        let lines = self.editor.cursor().0.to_vec();
        tokio::spawn(async move {
            let (_, row, col) = state;
            let Some(found) = handle.autocomplete(lines, row + 1, col).await else {
                return;
            };
            let text = |item: &Value, key: &str| item[key].as_str().unwrap_or_default().to_string();
            let items = found["items"]
                .as_array()
                .map(|items| {
                    items
                        .iter()
                        .map(|item| {
                            let value = text(item, "value");
                            let label = item["label"].as_str().unwrap_or(&value).to_string();
                            (value, label, text(item, "description"))
                        })
                        .collect()
                })
                .unwrap_or_default();
            let found = crate::tui::chrome::extension::ProviderCompletions {
                state,
                prefix: text(&found, "prefix"),
                items,
            };
            let _ = sender.send(UiRequest::ProviderCompletions(found));
        });
    }

    /// Ask the extension for argument completions of the `/name args` being typed.
    pub(super) fn request_argument_completions(&mut self) {
        let text = self.editor.text();
        let Some((name, prefix)) = text.strip_prefix('/').and_then(|rest| rest.split_once(' '))
        else {
            return;
        };
        if self.ext.asked_for.as_deref() == Some(text.as_str())
            || !self.extension_commands.iter().any(|(n, _)| n == name)
        {
            return;
        }
        let (Some(handle), Some(sender)) = (self.ext.handle.clone(), self.ext.sender.clone())
        else {
            return;
        };
        self.ext.asked_for = Some(text.clone());
        let (name, prefix) = (name.to_string(), prefix.to_string());
        tokio::spawn(async move {
            let items = handle
                .complete_command(&name, &prefix)
                .await
                .into_iter()
                .filter_map(|item| completion_item(&name, &item))
                .collect();
            let _ = sender.send(UiRequest::Completions { text, items });
        });
    }

    /// Copy what extensions read synchronously into `mirror`.
    pub fn sync_extension_mirror(&self, mirror: &Mutex<Mirror>) {
        let mut m = mirror.locked();
        m.editor_text = self.editor.text();
        m.tools_expanded = self.tools_expanded;
        m.theme = self.theme.clone();
    }
}

/// One `getArgumentCompletions` item (`{value, label, description}` or a
/// string) as a full command line and its description.
fn completion_item(name: &str, item: &Value) -> Option<(String, String)> {
    let value = item.as_str().or_else(|| item["value"].as_str())?;
    let description = item["description"].as_str().unwrap_or_default();
    Some((format!("/{name} {value}"), description.to_string()))
}

/// The argument completion to highlight for `text` (`/name arg`): the one whose argument is
/// exactly what was typed, else the first that starts with it, else the first (as pi 0.73.1
/// highlights its best match).
fn best_argument_match(text: &str, items: &[(String, String)]) -> usize {
    let typed = text.split_once(' ').map_or("", |(_, arg)| arg);
    if typed.is_empty() {
        return 0;
    }
    let argument = |label: &str| label.split_once(' ').map_or("", |(_, arg)| arg).to_string();
    items
        .iter()
        .position(|(label, _)| argument(label) == typed)
        .or_else(|| {
            items
                .iter()
                .position(|(label, _)| argument(label).starts_with(typed))
        })
        .unwrap_or(0)
}
