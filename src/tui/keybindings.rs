//! Keybindings: pi's namespaced action ids with their default keys, user
//! overrides from `keybindings.json`, and matching of terminal key events.

use std::path::Path;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use indexmap::IndexMap;
use serde_json::Value;

/// Every action id, its default keys and its description.
pub const DEFAULT_BINDINGS: &[(&str, &[&str], &str)] = &[
    ("tui.editor.cursorUp", &["up"], "Move cursor up"),
    ("tui.editor.cursorDown", &["down"], "Move cursor down"),
    (
        "tui.editor.cursorLeft",
        &["left", "ctrl+b"],
        "Move cursor left",
    ),
    (
        "tui.editor.cursorRight",
        &["right", "ctrl+f"],
        "Move cursor right",
    ),
    (
        "tui.editor.cursorWordLeft",
        &["alt+left", "ctrl+left", "alt+b"],
        "Move cursor word left",
    ),
    (
        "tui.editor.cursorWordRight",
        &["alt+right", "ctrl+right", "alt+f"],
        "Move cursor word right",
    ),
    (
        "tui.editor.cursorLineStart",
        &["home", "ctrl+a"],
        "Move to line start",
    ),
    (
        "tui.editor.cursorLineEnd",
        &["end", "ctrl+e"],
        "Move to line end",
    ),
    (
        "tui.editor.jumpForward",
        &["ctrl+]"],
        "Jump forward to character",
    ),
    (
        "tui.editor.jumpBackward",
        &["ctrl+alt+]"],
        "Jump backward to character",
    ),
    ("tui.editor.pageUp", &["pageUp"], "Scroll up by page"),
    ("tui.editor.pageDown", &["pageDown"], "Scroll down by page"),
    (
        "tui.editor.deleteCharBackward",
        &["backspace"],
        "Delete character backward",
    ),
    (
        "tui.editor.deleteCharForward",
        &["delete", "ctrl+d"],
        "Delete character forward",
    ),
    (
        "tui.editor.deleteWordBackward",
        &["ctrl+w", "alt+backspace"],
        "Delete word backward",
    ),
    (
        "tui.editor.deleteWordForward",
        &["alt+d", "alt+delete"],
        "Delete word forward",
    ),
    (
        "tui.editor.deleteToLineStart",
        &["ctrl+u"],
        "Delete to line start",
    ),
    (
        "tui.editor.deleteToLineEnd",
        &["ctrl+k"],
        "Delete to line end",
    ),
    ("tui.input.newLine", &["shift+enter"], "Insert new line"),
    ("tui.input.submit", &["enter"], "Submit input"),
    ("tui.input.tab", &["tab"], "Tab / autocomplete"),
    (
        "tui.editor.yank",
        &["ctrl+y"],
        "Paste most recently deleted text",
    ),
    (
        "tui.editor.yankPop",
        &["alt+y"],
        "Cycle through deleted text after yank",
    ),
    ("tui.editor.undo", &["ctrl+-"], "Undo last edit"),
    ("tui.input.copy", &["ctrl+c"], "Copy selection"),
    ("tui.select.up", &["up"], "Move selection up"),
    ("tui.select.down", &["down"], "Move selection down"),
    ("tui.select.pageUp", &["pageUp"], "Page up in list"),
    ("tui.select.pageDown", &["pageDown"], "Page down in list"),
    ("tui.select.confirm", &["enter"], "Confirm selection"),
    (
        "tui.select.cancel",
        &["escape", "ctrl+c"],
        "Cancel selection",
    ),
    ("app.interrupt", &["escape"], "Cancel / abort"),
    ("app.clear", &["ctrl+c"], "Clear editor"),
    ("app.exit", &["ctrl+d"], "Exit (when editor empty)"),
    ("app.suspend", &["ctrl+z"], "Suspend to background"),
    (
        "app.editor.external",
        &["ctrl+g"],
        "Open in external editor",
    ),
    (
        "app.clipboard.pasteImage",
        &["ctrl+v"],
        "Paste image from clipboard",
    ),
    ("app.session.new", &[], "Start a new session (/new)"),
    (
        "app.session.tree",
        &[],
        "Open session tree navigator (/tree)",
    ),
    ("app.session.fork", &[], "Fork current session (/fork)"),
    (
        "app.session.resume",
        &[],
        "Open session resume picker (/resume)",
    ),
    ("app.session.togglePath", &["ctrl+p"], "Toggle path display"),
    ("app.session.toggleSort", &["ctrl+s"], "Toggle sort mode"),
    (
        "app.session.toggleNamedFilter",
        &["ctrl+n"],
        "Toggle named-only filter",
    ),
    ("app.session.rename", &["ctrl+r"], "Rename session"),
    ("app.session.delete", &["ctrl+d"], "Delete session"),
    (
        "app.session.deleteNoninvasive",
        &["ctrl+backspace"],
        "Delete session when query is empty",
    ),
    ("app.model.select", &["ctrl+l"], "Open model selector"),
    ("app.model.cycleForward", &["ctrl+p"], "Cycle to next model"),
    (
        "app.model.cycleBackward",
        &["shift+ctrl+p"],
        "Cycle to previous model",
    ),
    ("app.thinking.cycle", &["shift+tab"], "Cycle thinking level"),
    (
        "app.thinking.toggle",
        &["ctrl+t"],
        "Collapse or expand thinking blocks",
    ),
    (
        "app.tools.expand",
        &["ctrl+o"],
        "Collapse or expand tool output",
    ),
    (
        "app.message.followUp",
        &["alt+enter"],
        "Queue follow-up message",
    ),
    (
        "app.message.dequeue",
        &["alt+up"],
        "Restore queued messages to editor",
    ),
    (
        "app.tree.foldOrUp",
        &["ctrl+left", "alt+left"],
        "Fold branch segment or jump up",
    ),
    (
        "app.tree.unfoldOrDown",
        &["ctrl+right", "alt+right"],
        "Unfold branch segment or jump down",
    ),
    (
        "app.tree.editLabel",
        &["shift+l"],
        "Edit the label on the selected tree node",
    ),
    (
        "app.tree.toggleLabelTimestamp",
        &["shift+t"],
        "Toggle label timestamps in the tree",
    ),
    (
        "app.tree.filter.default",
        &["ctrl+d"],
        "Set tree filter to default view",
    ),
    (
        "app.tree.filter.noTools",
        &["ctrl+t"],
        "Toggle tree filter that hides tool results",
    ),
    (
        "app.tree.filter.userOnly",
        &["ctrl+u"],
        "Toggle tree filter: user messages only",
    ),
    (
        "app.tree.filter.labeledOnly",
        &["ctrl+l"],
        "Toggle tree filter: labeled entries only",
    ),
    (
        "app.tree.filter.all",
        &["ctrl+a"],
        "Toggle tree filter that shows all entries",
    ),
    (
        "app.tree.filter.cycleForward",
        &["ctrl+o"],
        "Cycle tree filter forward",
    ),
    (
        "app.tree.filter.cycleBackward",
        &["shift+ctrl+o"],
        "Cycle tree filter backward",
    ),
    (
        "app.models.save",
        &["ctrl+s"],
        "Save current model selection to settings",
    ),
    ("app.models.enableAll", &["ctrl+a"], "Enable all models"),
    ("app.models.clearAll", &["ctrl+x"], "Clear all models"),
    (
        "app.models.toggleProvider",
        &["ctrl+p"],
        "Toggle all models for the current provider",
    ),
    (
        "app.models.reorderUp",
        &["alt+up"],
        "Move the selected model up",
    ),
    (
        "app.models.reorderDown",
        &["alt+down"],
        "Move the selected model down",
    ),
];

/// One key with modifiers, normalised for comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyCombo {
    /// The key (letters lower-case).
    pub code: KeyCode,
    /// Ctrl/Alt/Shift.
    pub modifiers: KeyModifiers,
}

impl KeyCombo {
    /// Parse `ctrl+shift+x`-style text.
    pub fn parse(spec: &str) -> Option<KeyCombo> {
        let spec = spec.trim().to_ascii_lowercase();
        let (mods, key) = match spec.rsplit_once('+') {
            Some((m, "")) => (
                m.strip_suffix('+').unwrap_or(m).to_string(),
                "+".to_string(),
            ),
            Some((m, k)) => (m.to_string(), k.to_string()),
            None => (String::new(), spec.clone()),
        };
        let mut modifiers = KeyModifiers::NONE;
        for m in mods.split('+').filter(|m| !m.is_empty()) {
            modifiers |= match m {
                "ctrl" => KeyModifiers::CONTROL,
                "alt" => KeyModifiers::ALT,
                "shift" => KeyModifiers::SHIFT,
                _ => return None,
            };
        }
        let code = match key.as_str() {
            "escape" | "esc" => KeyCode::Esc,
            "enter" | "return" => KeyCode::Enter,
            "tab" => KeyCode::Tab,
            "space" => KeyCode::Char(' '),
            "backspace" => KeyCode::Backspace,
            "delete" => KeyCode::Delete,
            "insert" => KeyCode::Insert,
            "clear" => KeyCode::KeypadBegin,
            "home" => KeyCode::Home,
            "end" => KeyCode::End,
            "pageup" => KeyCode::PageUp,
            "pagedown" => KeyCode::PageDown,
            "up" => KeyCode::Up,
            "down" => KeyCode::Down,
            "left" => KeyCode::Left,
            "right" => KeyCode::Right,
            f if f.len() > 1 && f.starts_with('f') => KeyCode::F(f[1..].parse().ok()?),
            k if k.chars().count() == 1 => KeyCode::Char(k.chars().next()?),
            _ => return None,
        };
        Some(KeyCombo { code, modifiers })
    }

    /// The combo a terminal key event stands for.
    pub fn from_event(event: &KeyEvent) -> KeyCombo {
        let mut modifiers =
            event.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT);
        let code = match event.code {
            KeyCode::BackTab => {
                modifiers |= KeyModifiers::SHIFT;
                KeyCode::Tab
            }
            KeyCode::Char(c) if c.is_ascii_uppercase() => {
                modifiers |= KeyModifiers::SHIFT;
                KeyCode::Char(c.to_ascii_lowercase())
            }
            KeyCode::Char(c) if !c.is_ascii_alphanumeric() && modifiers == KeyModifiers::SHIFT => {
                // Shifted symbols arrive as the symbol itself.
                modifiers = KeyModifiers::NONE;
                KeyCode::Char(c)
            }
            other => other,
        };
        KeyCombo { code, modifiers }
    }

    /// `ctrl+o`-style text.
    pub fn display(&self) -> String {
        let mut parts = Vec::new();
        if self.modifiers.contains(KeyModifiers::CONTROL) {
            parts.push("ctrl".to_string());
        }
        if self.modifiers.contains(KeyModifiers::ALT) {
            parts.push("alt".to_string());
        }
        if self.modifiers.contains(KeyModifiers::SHIFT) {
            parts.push("shift".to_string());
        }
        parts.push(match self.code {
            KeyCode::Esc => "escape".into(),
            KeyCode::Enter => "enter".into(),
            KeyCode::Tab => "tab".into(),
            KeyCode::Char(' ') => "space".into(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Backspace => "backspace".into(),
            KeyCode::Delete => "delete".into(),
            KeyCode::PageUp => "pageUp".into(),
            KeyCode::PageDown => "pageDown".into(),
            KeyCode::F(n) => format!("f{n}"),
            other => format!("{other:?}").to_lowercase(),
        });
        parts.join("+")
    }
}

/// The live bindings: action id to keys.
#[derive(Debug, Clone)]
pub struct Keybindings {
    bindings: IndexMap<&'static str, Vec<KeyCombo>>,
}

impl Default for Keybindings {
    fn default() -> Self {
        let bindings = DEFAULT_BINDINGS
            .iter()
            .map(|(id, keys, _)| {
                (
                    *id,
                    keys.iter().filter_map(|k| KeyCombo::parse(k)).collect(),
                )
            })
            .collect();
        Keybindings { bindings }
    }
}

impl Keybindings {
    /// Defaults overlaid with `<agent_dir>/keybindings.json`; returns warnings
    /// for unknown ids and unparsable keys (which are ignored).
    pub fn load(agent_dir: &Path) -> (Keybindings, Vec<String>) {
        let path = agent_dir.join("keybindings.json");
        match std::fs::read_to_string(&path) {
            Ok(text) => Keybindings::from_json(&text),
            Err(_) => (Keybindings::default(), Vec::new()),
        }
    }

    /// Defaults overlaid with overrides given as JSON text.
    pub fn from_json(text: &str) -> (Keybindings, Vec<String>) {
        let mut kb = Keybindings::default();
        let mut warnings = Vec::new();
        let root: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => return (kb, vec![format!("keybindings.json: invalid JSON: {e}")]),
        };
        let Some(map) = root.as_object() else {
            return (kb, vec!["keybindings.json: expected an object".into()]);
        };
        for (id, value) in map {
            let Some(slot) = kb.bindings.get_mut(id.as_str()) else {
                warnings.push(format!(
                    "keybindings.json: unknown keybinding id \"{id}\" ignored"
                ));
                continue;
            };
            let specs: Vec<&str> = match value {
                Value::String(s) => vec![s.as_str()],
                Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            let mut keys = Vec::new();
            for spec in specs {
                match KeyCombo::parse(spec) {
                    Some(k) => keys.push(k),
                    None => {
                        warnings.push(format!("keybindings.json: invalid key \"{spec}\" for {id}"))
                    }
                }
            }
            *slot = keys;
        }
        (kb, warnings)
    }

    /// Does `event` trigger action `id`?
    pub fn matches(&self, id: &str, event: &KeyEvent) -> bool {
        let combo = KeyCombo::from_event(event);
        self.bindings
            .get(id)
            .is_some_and(|keys| keys.contains(&combo))
    }

    /// The keys of `id` as text (`ctrl+o`, or `a/b` for several).
    pub fn keys_text(&self, id: &str) -> String {
        self.bindings
            .get(id)
            .map(|keys| {
                keys.iter()
                    .map(KeyCombo::display)
                    .collect::<Vec<_>>()
                    .join("/")
            })
            .unwrap_or_default()
    }

    /// `(id, keys, description)` for every action, in documentation order.
    pub fn listing(&self) -> Vec<(&'static str, String, &'static str)> {
        DEFAULT_BINDINGS
            .iter()
            .map(|(id, _, desc)| (*id, self.keys_text(id), *desc))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    #[test]
    fn every_documented_default_parses() {
        for (id, keys, _) in DEFAULT_BINDINGS {
            for k in *keys {
                assert!(KeyCombo::parse(k).is_some(), "{id}: {k}");
            }
        }
        let kb = Keybindings::default();
        assert_eq!(kb.keys_text("app.tools.expand"), "ctrl+o");
        assert_eq!(kb.keys_text("app.model.cycleBackward"), "ctrl+shift+p");
        assert!(kb.matches(
            "app.thinking.cycle",
            &key(KeyCode::BackTab, KeyModifiers::SHIFT)
        ));
        assert!(kb.matches("app.interrupt", &key(KeyCode::Esc, KeyModifiers::NONE)));
        assert!(kb.matches(
            "app.message.followUp",
            &key(KeyCode::Enter, KeyModifiers::ALT)
        ));
    }

    #[test]
    fn overrides_replace_defaults_and_unknown_ids_are_warned() {
        let (kb, warnings) = Keybindings::from_json(
            r#"{"app.tools.expand": ["ctrl+x", "f2"], "app.nonsense": "ctrl+q", "app.clear": "hyper+q"}"#,
        );
        assert!(kb.matches(
            "app.tools.expand",
            &key(KeyCode::Char('x'), KeyModifiers::CONTROL)
        ));
        assert!(kb.matches("app.tools.expand", &key(KeyCode::F(2), KeyModifiers::NONE)));
        assert!(!kb.matches(
            "app.tools.expand",
            &key(KeyCode::Char('o'), KeyModifiers::CONTROL)
        ));
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings[0].contains("app.nonsense"));
    }
}
