//! Keybindings: pi's namespaced action ids with their default keys, user
//! overrides from `keybindings.json`, and matching of terminal key events.

use crate::t;

use std::path::Path;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use indexmap::IndexMap;
use serde_json::Value;

/// Every action id and its default keys; descriptions are `pi.keys.<id>` in the locales.
pub const DEFAULT_BINDINGS: &[(&str, &[&str])] = &[
    ("tui.editor.cursorUp", &["up"]),
    ("tui.editor.cursorDown", &["down"]),
    ("tui.editor.cursorLeft", &["left", "ctrl+b"]),
    ("tui.editor.cursorRight", &["right", "ctrl+f"]),
    (
        "tui.editor.cursorWordLeft",
        &["alt+left", "ctrl+left", "alt+b"],
    ),
    (
        "tui.editor.cursorWordRight",
        &["alt+right", "ctrl+right", "alt+f"],
    ),
    ("tui.editor.cursorLineStart", &["home", "ctrl+a"]),
    ("tui.editor.cursorLineEnd", &["end", "ctrl+e"]),
    ("tui.editor.jumpForward", &["ctrl+]"]),
    ("tui.editor.jumpBackward", &["ctrl+alt+]"]),
    ("tui.editor.pageUp", &["pageUp"]),
    ("tui.editor.pageDown", &["pageDown"]),
    ("tui.editor.deleteCharBackward", &["backspace"]),
    ("tui.editor.deleteCharForward", &["delete", "ctrl+d"]),
    (
        "tui.editor.deleteWordBackward",
        &["ctrl+w", "alt+backspace"],
    ),
    ("tui.editor.deleteWordForward", &["alt+d", "alt+delete"]),
    ("tui.editor.deleteToLineStart", &["ctrl+u"]),
    ("tui.editor.deleteToLineEnd", &["ctrl+k"]),
    ("tui.input.newLine", &["shift+enter"]),
    ("tui.input.submit", &["enter"]),
    ("tui.input.tab", &["tab"]),
    ("tui.editor.yank", &["ctrl+y"]),
    ("tui.editor.yankPop", &["alt+y"]),
    ("tui.editor.undo", &["ctrl+-"]),
    ("tui.editor.redo", &["ctrl+alt+-", "alt+-"]),
    ("tui.input.copy", &["ctrl+c"]),
    ("tui.select.up", &["up"]),
    ("tui.select.down", &["down"]),
    ("tui.select.pageUp", &["pageUp"]),
    ("tui.select.pageDown", &["pageDown"]),
    ("tui.select.confirm", &["enter"]),
    ("tui.select.cancel", &["escape", "ctrl+c"]),
    ("app.interrupt", &["escape"]),
    ("app.clear", &["ctrl+c"]),
    ("app.exit", &["ctrl+d"]),
    ("app.suspend", &["ctrl+z"]),
    ("app.editor.external", &["ctrl+g"]),
    ("app.clipboard.pasteImage", &["ctrl+v"]),
    ("app.session.new", &[]),
    ("app.session.tree", &[]),
    ("app.session.fork", &[]),
    ("app.session.resume", &[]),
    ("app.session.togglePath", &["ctrl+p"]),
    ("app.session.toggleSort", &["ctrl+s"]),
    ("app.session.toggleNamedFilter", &["ctrl+n"]),
    ("app.session.rename", &["ctrl+r"]),
    ("app.session.delete", &["ctrl+d"]),
    ("app.session.deleteNoninvasive", &["ctrl+backspace"]),
    ("app.model.select", &["ctrl+l"]),
    ("app.model.cycleForward", &["ctrl+p"]),
    ("app.model.cycleBackward", &["shift+ctrl+p"]),
    ("app.thinking.cycle", &["shift+tab"]),
    ("app.thinking.toggle", &["ctrl+t"]),
    ("app.tools.expand", &["ctrl+o"]),
    ("app.message.followUp", &["alt+enter"]),
    ("app.message.dequeue", &["alt+up"]),
    ("app.tree.foldOrUp", &["ctrl+left", "alt+left"]),
    ("app.tree.unfoldOrDown", &["ctrl+right", "alt+right"]),
    ("app.tree.editLabel", &["shift+l"]),
    ("app.tree.toggleLabelTimestamp", &["shift+t"]),
    ("app.tree.filter.default", &["ctrl+d"]),
    ("app.tree.filter.noTools", &["ctrl+t"]),
    ("app.tree.filter.userOnly", &["ctrl+u"]),
    ("app.tree.filter.labeledOnly", &["ctrl+l"]),
    ("app.tree.filter.all", &["ctrl+a"]),
    ("app.tree.filter.cycleForward", &["ctrl+o"]),
    ("app.tree.filter.cycleBackward", &["shift+ctrl+o"]),
    ("app.models.save", &["ctrl+s"]),
    ("app.models.enableAll", &["ctrl+a"]),
    ("app.models.clearAll", &["ctrl+x"]),
    ("app.models.toggleProvider", &["ctrl+p"]),
    ("app.models.reorderUp", &["alt+up"]),
    ("app.models.reorderDown", &["alt+down"]),
];

/// The description of action `id` in the current locale.
pub fn description(id: &str) -> String {
    crate::i18n::t(&format!("pi.keys.{id}"), &[])
}

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
        Some(canonical(KeyCombo { code, modifiers }))
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
        canonical(KeyCombo { code, modifiers })
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

/// One spelling for chords that terminals send as the same bytes. Without the Kitty
/// protocol Ctrl+-, Ctrl+_, Ctrl+/ and Ctrl+7 all send 0x1f (crossterm reads it as
/// Ctrl+7), Ctrl+] sends 0x1d (read as Ctrl+5), Ctrl+backslash 0x1c (Ctrl+4), Ctrl+^ 0x1e (Ctrl+6)
/// and Ctrl+@ / Ctrl+2 0x00 (Ctrl+Space); with Alt they come after an ESC. Both a bound
/// key and an arriving event are put in this form, so either spelling matches.
fn canonical(combo: KeyCombo) -> KeyCombo {
    let KeyCombo {
        code,
        mut modifiers,
    } = combo;
    if !modifiers.contains(KeyModifiers::CONTROL) {
        return combo;
    }
    let code = match code {
        KeyCode::Char('7' | '_' | '/' | '-') => {
            modifiers.remove(KeyModifiers::SHIFT);
            KeyCode::Char('-')
        }
        KeyCode::Char('5') => KeyCode::Char(']'),
        KeyCode::Char('4') => KeyCode::Char('\\'),
        KeyCode::Char('6') => KeyCode::Char('^'),
        KeyCode::Char('2' | '@') => KeyCode::Char(' '),
        other => other,
    };
    KeyCombo { code, modifiers }
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
            .map(|(id, keys)| {
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
        let Ok(text) = crate::config::json_file::read_config_text(&path) else {
            return (Keybindings::default(), Vec::new());
        };
        match serde_json::from_str::<Value>(&text) {
            Ok(mut root) if root.is_object() => {
                // Wrong-typed entries are named and left out (their defaults stay).
                let mut warnings: Vec<String> = crate::config::schema_check::KEYBINDINGS
                    .check(&path, &mut root)
                    .iter()
                    .map(ToString::to_string)
                    .collect();
                let (kb, more) = Keybindings::from_value(&root);
                warnings.extend(more);
                (kb, warnings)
            }
            _ => Keybindings::from_json(&text),
        }
    }

    /// Defaults overlaid with overrides given as JSON text.
    pub fn from_json(text: &str) -> (Keybindings, Vec<String>) {
        match serde_json::from_str::<Value>(text) {
            Ok(root) => Keybindings::from_value(&root),
            Err(e) => (
                Keybindings::default(),
                vec![t!("pi.keys.file.invalid_json", error = e.to_string())],
            ),
        }
    }

    /// Defaults overlaid with overrides given as parsed JSON.
    fn from_value(root: &Value) -> (Keybindings, Vec<String>) {
        let mut kb = Keybindings::default();
        let mut warnings = Vec::new();
        let Some(map) = root.as_object() else {
            return (kb, vec![t!("pi.keys.file.not_object")]);
        };
        for (id, value) in map.iter().filter(|(id, _)| *id != "$schema") {
            let Some(slot) = kb.bindings.get_mut(id.as_str()) else {
                warnings.push(t!("pi.keys.file.unknown_id", id = id));
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
                    None => warnings.push(t!("pi.keys.file.invalid_key", key = spec, id = id)),
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

    /// `(id, keys, description)` for every action, in documentation order; descriptions
    /// are translated now, in the current locale.
    pub fn listing(&self) -> Vec<(&'static str, String, String)> {
        DEFAULT_BINDINGS
            .iter()
            .map(|(id, _)| (*id, self.keys_text(id), description(id)))
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
        for (id, keys) in DEFAULT_BINDINGS {
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
    fn chords_sent_as_the_same_bytes_match_each_other() {
        let kb = Keybindings::default();
        let ctrl = KeyModifiers::CONTROL;
        // 0x1f as crossterm reads it, and the Kitty protocol's Ctrl+-, Ctrl+_ and Ctrl+/.
        for event in [
            key(KeyCode::Char('7'), ctrl),
            key(KeyCode::Char('-'), ctrl),
            key(KeyCode::Char('_'), ctrl),
            key(KeyCode::Char('-'), ctrl | KeyModifiers::SHIFT),
            key(KeyCode::Char('/'), ctrl),
        ] {
            assert!(kb.matches("tui.editor.undo", &event), "{event:?}");
            assert!(!kb.matches("tui.editor.redo", &event), "{event:?}");
        }
        // ESC 0x1f and ESC - redo; plain `-` and Ctrl+8 do neither.
        let ctrl_alt = ctrl | KeyModifiers::ALT;
        assert!(kb.matches("tui.editor.redo", &key(KeyCode::Char('7'), ctrl_alt)));
        assert!(kb.matches(
            "tui.editor.redo",
            &key(KeyCode::Char('-'), KeyModifiers::ALT)
        ));
        for event in [
            key(KeyCode::Char('-'), KeyModifiers::NONE),
            key(KeyCode::Char('8'), ctrl),
        ] {
            assert!(!kb.matches("tui.editor.undo", &event), "{event:?}");
        }
        // 0x1d is Ctrl+] (jump), ESC 0x1d Ctrl+Alt+] (jump back).
        assert!(kb.matches("tui.editor.jumpForward", &key(KeyCode::Char('5'), ctrl)));
        assert!(kb.matches("tui.editor.jumpForward", &key(KeyCode::Char(']'), ctrl)));
        assert!(kb.matches(
            "tui.editor.jumpBackward",
            &key(KeyCode::Char('5'), ctrl_alt)
        ));
        assert!(!kb.matches("tui.editor.jumpForward", &key(KeyCode::Char('5'), ctrl_alt)));
        // A user's `ctrl+_` or `ctrl+7` is the same key as the default `ctrl+-`.
        let (kb, warnings) = Keybindings::from_json(r#"{"tui.editor.yank": "ctrl+_"}"#);
        assert!(warnings.is_empty());
        assert!(kb.matches("tui.editor.yank", &key(KeyCode::Char('7'), ctrl)));
        assert!(!kb.matches("tui.editor.yank", &key(KeyCode::Char('y'), ctrl)));
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
