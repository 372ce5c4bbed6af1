//! `/settings`: the settings pi exposes, each cycled through its values with
//! Enter, Space or Left/Right. The app writes every change to the global
//! `settings.json` and applies it at once where it can.

use crate::t;

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::text::{Line, Span};
use serde_json::Value;

use crate::config::settings::Settings;
use crate::tui::panels::{Panel, PanelChange, PanelOutcome};
use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::text::{truncate, width};
use crate::ui_kit::theme::Theme;

/// Rows of entries shown at once.
const VISIBLE: usize = 10;

/// Where an entry is stored in `settings.json` and how its values look.
#[derive(Debug, Clone, Copy)]
pub struct SettingDef {
    /// Entry id (stable, used by the app). Its label and description are
    /// `pi.settings.<id>.label` and `pi.settings.<id>.description` in the locales.
    pub id: &'static str,
    /// `(section, key)`: `section` is `None` for top-level keys.
    pub key: (Option<&'static str>, &'static str),
    /// The values offered, in order; `true`/`false` are stored as booleans
    /// and digits as numbers.
    pub values: &'static [&'static str],
    /// Value when the key is unset.
    pub default: &'static str,
}

const BOOL: &[&str] = &["true", "false"];

/// Every entry of `/settings`, in display order. `thinking` and `theme` get
/// their values from the app (levels of the model, installed themes).
pub const SETTINGS: &[SettingDef] = &[
    SettingDef {
        id: "autocompact",
        key: (Some("compaction"), "enabled"),
        values: BOOL,
        default: "true",
    },
    SettingDef {
        id: "steering-mode",
        key: (None, "steeringMode"),
        values: &["one-at-a-time", "all"],
        default: "one-at-a-time",
    },
    SettingDef {
        id: "follow-up-mode",
        key: (None, "followUpMode"),
        values: &["one-at-a-time", "all"],
        default: "one-at-a-time",
    },
    SettingDef {
        id: "hide-thinking",
        key: (None, "hideThinkingBlock"),
        values: BOOL,
        default: "false",
    },
    SettingDef {
        id: "collapse-changelog",
        key: (None, "collapseChangelog"),
        values: BOOL,
        default: "false",
    },
    SettingDef {
        id: "quiet-startup",
        key: (None, "quietStartup"),
        values: BOOL,
        default: "false",
    },
    SettingDef {
        id: "double-escape-action",
        key: (None, "doubleEscapeAction"),
        values: &["tree", "fork", "none"],
        default: "tree",
    },
    SettingDef {
        id: "tree-filter-mode",
        key: (None, "treeFilterMode"),
        values: &["default", "no-tools", "user-only", "labeled-only", "all"],
        default: "default",
    },
    SettingDef {
        id: "thinking",
        key: (None, "defaultThinkingLevel"),
        values: &["off", "minimal", "low", "medium", "high", "xhigh"],
        default: "medium",
    },
    SettingDef {
        id: "theme",
        key: (None, "theme"),
        values: &["dark", "light"],
        default: "dark",
    },
    SettingDef {
        id: "show-images",
        key: (Some("terminal"), "showImages"),
        values: BOOL,
        default: "true",
    },
    SettingDef {
        id: "auto-resize-images",
        key: (Some("images"), "autoResize"),
        values: BOOL,
        default: "true",
    },
    SettingDef {
        id: "block-images",
        key: (Some("images"), "blockImages"),
        values: BOOL,
        default: "false",
    },
    SettingDef {
        id: "skill-commands",
        key: (None, "enableSkillCommands"),
        values: BOOL,
        default: "true",
    },
    SettingDef {
        id: "editor-padding",
        key: (None, "editorPaddingX"),
        values: &["0", "1", "2", "3"],
        default: "0",
    },
    SettingDef {
        id: "autocomplete-max-visible",
        key: (None, "autocompleteMaxVisible"),
        values: &["3", "5", "7", "10", "15", "20"],
        default: "5",
    },
];

impl SettingDef {
    /// The label shown in the list, in the current locale.
    pub fn label(&self) -> String {
        crate::i18n::t(&format!("pi.settings.{}.label", self.id), &[])
    }

    /// The one-line explanation shown for the highlighted entry, in the current locale.
    pub fn description(&self) -> String {
        crate::i18n::t(&format!("pi.settings.{}.description", self.id), &[])
    }
}

/// A setting value as shown: its `pi.settings.value.<value>` text when the locales have
/// one (`true`, `one-at-a-time`, thinking levels, built-in themes), else the value itself
/// (numbers, theme names).
pub fn value_label(value: &str) -> String {
    let key = format!("pi.settings.value.{value}");
    let text = crate::i18n::t(&key, &[]);
    if text == key { value.to_string() } else { text }
}

/// The definition of the setting `id`.
pub fn setting_def(id: &str) -> Option<&'static SettingDef> {
    SETTINGS.iter().find(|d| d.id == id)
}

/// The JSON stored for `value` of entry `def`.
pub fn stored_value(def: &SettingDef, value: &str) -> Value {
    match value {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        v if def.values.contains(&v) && v.bytes().all(|b| b.is_ascii_digit()) => v
            .parse::<u64>()
            .map(Value::from)
            .unwrap_or_else(|_| Value::String(v.into())),
        v => Value::String(v.into()),
    }
}

fn shown_value(value: &Value) -> Option<String> {
    match value {
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) => Some(s.clone()),
        _ => None,
    }
}

/// The current value of entry `def` in `settings` (its default when unset).
pub fn current_value(settings: &Settings, def: &SettingDef) -> String {
    let stored = match def.key {
        (Some(section), key) => settings.get_nested(section, key),
        (None, key) => settings.get(key),
    };
    stored
        .and_then(shown_value)
        .unwrap_or_else(|| def.default.to_string())
}

struct Entry {
    def: &'static SettingDef,
    values: Vec<String>,
    value: String,
}

/// The `/settings` list.
pub struct SettingsPanel {
    entries: Vec<Entry>,
    selected: usize,
}

impl SettingsPanel {
    /// The list for `settings`; `themes` are the installed theme names and
    /// `thinking_levels` the levels the current model offers.
    pub fn new(settings: &Settings, themes: Vec<String>, thinking_levels: Vec<String>) -> Self {
        let entries = SETTINGS
            .iter()
            .map(|def| {
                let mut values: Vec<String> = match def.id {
                    "theme" => themes.clone(),
                    "thinking" => thinking_levels.clone(),
                    _ => def.values.iter().map(|v| v.to_string()).collect(),
                };
                let value = current_value(settings, def);
                if !values.contains(&value) {
                    values.push(value.clone());
                }
                Entry { def, values, value }
            })
            .collect();
        SettingsPanel {
            entries,
            selected: 0,
        }
    }

    /// The value shown for entry `id`.
    pub fn value(&self, id: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|e| e.def.id == id)
            .map(|e| e.value.as_str())
    }

    /// Show `value` for entry `id` (e.g. the session's thinking level).
    pub fn set_value(&mut self, id: &str, value: &str) {
        if let Some(entry) = self.entries.iter_mut().find(|e| e.def.id == id) {
            entry.value = value.to_string();
            if !entry.values.iter().any(|v| v == value) {
                entry.values.push(value.to_string());
            }
        }
    }

    fn cycle(&mut self, step: isize) -> PanelOutcome {
        let Some(entry) = self.entries.get_mut(self.selected) else {
            return PanelOutcome::Open;
        };
        let n = entry.values.len() as isize;
        if n < 2 {
            return PanelOutcome::Open;
        }
        let at = entry
            .values
            .iter()
            .position(|v| *v == entry.value)
            .unwrap_or(0) as isize;
        entry.value = entry.values[(at + step).rem_euclid(n) as usize].clone();
        PanelOutcome::Changed(PanelChange::Setting {
            id: entry.def.id,
            value: entry.value.clone(),
        })
    }
}

impl Panel for SettingsPanel {
    fn handle_key(&mut self, key: &KeyEvent, kb: &Keybindings) -> PanelOutcome {
        let n = self.entries.len();
        if kb.matches("tui.select.cancel", key) {
            return PanelOutcome::Closed;
        }
        if kb.matches("tui.select.up", key) {
            self.selected = (self.selected + n - 1) % n;
        } else if kb.matches("tui.select.down", key) {
            self.selected = (self.selected + 1) % n;
        } else if kb.matches("tui.select.confirm", key)
            || matches!(key.code, KeyCode::Char(' ') | KeyCode::Right)
        {
            return self.cycle(1);
        } else if key.code == KeyCode::Left {
            return self.cycle(-1);
        }
        PanelOutcome::Open
    }

    fn lines(&self, theme: &Theme, max: usize) -> Vec<Line<'static>> {
        let mut out = vec![Line::from(Span::styled(
            truncate(&t!("pi.settings.title"), max, "…"),
            theme.bold("accent"),
        ))];
        let label_width = SETTINGS
            .iter()
            .map(|d| width(&d.label()))
            .max()
            .unwrap_or(0)
            + 2;
        let start = self
            .selected
            .saturating_sub(VISIBLE / 2)
            .min(self.entries.len().saturating_sub(VISIBLE));
        for (i, entry) in self.entries.iter().enumerate().skip(start).take(VISIBLE) {
            let chosen = i == self.selected;
            let marker = if chosen { "→ " } else { "  " };
            let label = entry.def.label();
            let label = format!(
                "{label}{}",
                " ".repeat(label_width.saturating_sub(width(&label)))
            );
            let head = truncate(&format!("{marker}{label}"), max, "…");
            let room = max.saturating_sub(width(&head));
            let style = if chosen {
                theme.fg("accent")
            } else {
                ratatui::style::Style::default()
            };
            out.push(Line::from(vec![
                Span::styled(head, style),
                Span::styled(
                    truncate(&value_label(&entry.value), room, "…"),
                    theme.fg("accent"),
                ),
            ]));
        }
        if let Some(entry) = self.entries.get(self.selected) {
            out.push(Line::from(Span::styled(
                truncate(&format!("  {}", entry.def.description()), max, "…"),
                theme.fg("muted"),
            )));
        }
        out.push(Line::from(Span::styled(
            truncate(&t!("pi.settings.keys"), max, "…"),
            theme.fg("dim"),
        )));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyModifiers;
    use serde_json::json;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn values_come_from_settings_and_cycle() {
        let settings = Settings::from_values(
            json!({"quietStartup": true, "compaction": {"enabled": false}, "editorPaddingX": 2}),
            json!({}),
        );
        let kb = Keybindings::default();
        let mut panel = SettingsPanel::new(&settings, vec!["dark".into()], vec!["off".into()]);
        assert_eq!(panel.value("autocompact"), Some("false"));
        assert_eq!(panel.value("quiet-startup"), Some("true"));
        assert_eq!(panel.value("editor-padding"), Some("2"));
        assert_eq!(panel.value("steering-mode"), Some("one-at-a-time"));
        assert_eq!(
            panel.handle_key(&key(KeyCode::Enter), &kb),
            PanelOutcome::Changed(PanelChange::Setting {
                id: "autocompact",
                value: "true".into()
            })
        );
        panel.handle_key(&key(KeyCode::Down), &kb);
        assert_eq!(
            panel.handle_key(&key(KeyCode::Left), &kb),
            PanelOutcome::Changed(PanelChange::Setting {
                id: "steering-mode",
                value: "all".into()
            })
        );
        assert_eq!(
            panel.handle_key(&key(KeyCode::Esc), &kb),
            PanelOutcome::Closed
        );
    }

    #[test]
    fn stored_values_have_json_types() {
        let padding = setting_def("editor-padding").unwrap();
        assert_eq!(stored_value(padding, "3"), json!(3));
        let quiet = setting_def("quiet-startup").unwrap();
        assert_eq!(stored_value(quiet, "true"), json!(true));
        let mode = setting_def("steering-mode").unwrap();
        assert_eq!(stored_value(mode, "all"), json!("all"));
    }
}
