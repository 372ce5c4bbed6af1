//! `/settings`: pi's settings list. Typing filters the entries by label, Enter or
//! Space steps a value to the next one (Left/Right step either way), and the
//! thinking level and theme open a list of their values (the theme previews
//! while moving through it and comes back on Escape). The app writes every
//! change to the global `settings.json` and applies it at once where it can.

use crate::t;

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::config::settings::Settings;
use crate::tui::panels::selector::fuzzy_score;
use crate::tui::panels::{Panel, PanelChange, PanelOutcome};
use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::text::{fit, pad, truncate, width};
use crate::ui_kit::theme::Theme;

pub use crate::tui::panels::settings_defs::{
    Change, SETTINGS, SettingDef, current_value, setting_def, stored_value, value_label,
};

/// Rows of entries shown at once.
const VISIBLE: usize = 10;
/// Widest label column.
const MAX_LABEL: usize = 30;

struct Entry {
    def: &'static SettingDef,
    values: Vec<String>,
    value: String,
}

/// The list of values open for one entry.
struct Submenu {
    /// Index into the entries.
    entry: usize,
    selected: usize,
    /// The value when the list opened (restored on Escape for a preview).
    before: String,
}

/// The `/settings` list.
pub struct SettingsPanel {
    entries: Vec<Entry>,
    query: String,
    selected: usize,
    submenu: Option<Submenu>,
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
            query: String::new(),
            selected: 0,
            submenu: None,
        }
    }

    /// Leave out the entries `ids` (settings this terminal has no use for).
    pub fn without(&mut self, ids: &[&str]) {
        self.entries.retain(|e| !ids.contains(&e.def.id));
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

    /// Indexes of the entries whose label matches the filter, best match first.
    fn filtered(&self) -> Vec<usize> {
        if self.query.is_empty() {
            return (0..self.entries.len()).collect();
        }
        let mut scored: Vec<(usize, usize)> = self
            .entries
            .iter()
            .enumerate()
            .filter_map(|(i, e)| fuzzy_score(&self.query, &e.def.label()).map(|s| (s, i)))
            .collect();
        scored.sort();
        scored.into_iter().map(|(_, i)| i).collect()
    }

    fn step(&mut self, at: usize, step: isize) -> PanelOutcome {
        let Some(entry) = self.entries.get_mut(at) else {
            return PanelOutcome::Open;
        };
        let n = entry.values.len() as isize;
        if n < 2 {
            return PanelOutcome::Open;
        }
        let pos = entry
            .values
            .iter()
            .position(|v| *v == entry.value)
            .unwrap_or(0) as isize;
        entry.value = entry.values[(pos + step).rem_euclid(n) as usize].clone();
        PanelOutcome::Changed(PanelChange::Setting {
            id: entry.def.id,
            value: entry.value.clone(),
        })
    }

    fn activate(&mut self, at: usize) -> PanelOutcome {
        let Some(entry) = self.entries.get(at) else {
            return PanelOutcome::Open;
        };
        match entry.def.change {
            Change::Cycle => self.step(at, 1),
            Change::Choose => {
                self.submenu = Some(Submenu {
                    entry: at,
                    selected: entry
                        .values
                        .iter()
                        .position(|v| *v == entry.value)
                        .unwrap_or(0),
                    before: entry.value.clone(),
                });
                PanelOutcome::Open
            }
        }
    }

    fn submenu_key(&mut self, key: &KeyEvent, kb: &Keybindings) -> PanelOutcome {
        let Some(menu) = self.submenu.as_mut() else {
            return PanelOutcome::Open;
        };
        let Some(entry) = self.entries.get_mut(menu.entry) else {
            self.submenu = None;
            return PanelOutcome::Open;
        };
        let n = entry.values.len().max(1);
        let preview = entry.def.id == "theme";
        let moved = if kb.matches("tui.select.up", key) {
            menu.selected = (menu.selected + n - 1) % n;
            true
        } else if kb.matches("tui.select.down", key) {
            menu.selected = (menu.selected + 1) % n;
            true
        } else {
            false
        };
        if moved {
            return match entry.values.get(menu.selected) {
                Some(value) if preview => {
                    PanelOutcome::Changed(PanelChange::PreviewTheme(value.clone()))
                }
                _ => PanelOutcome::Open,
            };
        }
        if kb.matches("tui.select.confirm", key) {
            let value = entry.values.get(menu.selected).cloned();
            self.submenu = None;
            return match value {
                Some(value) => {
                    entry.value = value.clone();
                    PanelOutcome::Changed(PanelChange::Setting {
                        id: entry.def.id,
                        value,
                    })
                }
                None => PanelOutcome::Open,
            };
        }
        if kb.matches("tui.select.cancel", key) {
            let before = menu.before.clone();
            self.submenu = None;
            if preview {
                return PanelOutcome::Changed(PanelChange::PreviewTheme(before));
            }
        }
        PanelOutcome::Open
    }

    fn submenu_lines(&self, menu: &Submenu, theme: &Theme, max: usize) -> Vec<Line<'static>> {
        let Some(entry) = self.entries.get(menu.entry) else {
            return Vec::new();
        };
        let mut out = vec![
            Line::from(Span::styled(
                truncate(&entry.def.label(), max, "…"),
                theme.bold("accent"),
            )),
            Line::default(),
            Line::from(Span::styled(
                truncate(&entry.def.description(), max, "…"),
                theme.fg("muted"),
            )),
            Line::default(),
        ];
        let shown: Vec<String> = entry.values.iter().map(|v| value_label(v)).collect();
        let column = shown
            .iter()
            .map(|s| width(s))
            .max()
            .unwrap_or(0)
            .clamp(12, 32);
        let start = menu
            .selected
            .saturating_sub(VISIBLE / 2)
            .min(shown.len().saturating_sub(VISIBLE));
        for (i, (value, label)) in entry
            .values
            .iter()
            .zip(&shown)
            .enumerate()
            .skip(start)
            .take(VISIBLE)
        {
            let chosen = i == menu.selected;
            let marker = if chosen { "→ " } else { "  " };
            let thinking = entry.def.id == "thinking";
            let label = if thinking {
                pad(label, column)
            } else {
                label.to_string()
            };
            let head = truncate(&format!("{marker}{label}"), max, "…");
            let style = if chosen {
                theme.fg("accent")
            } else {
                Style::default()
            };
            let mut spans = vec![Span::styled(head.clone(), style)];
            if thinking {
                let key = format!("pi.settings.thinking_level.{value}");
                let about = crate::i18n::t(&key, &[]);
                let room = max.saturating_sub(width(&head) + 2);
                if room > 3 && about != key {
                    spans.push(Span::styled(
                        format!("  {}", truncate(&about, room, "…")),
                        theme.fg("muted"),
                    ));
                }
            }
            out.push(Line::from(spans));
        }
        out.push(Line::default());
        out.push(Line::from(Span::styled(
            truncate(&t!("pi.settings.submenu_keys"), max, "…"),
            theme.fg("dim"),
        )));
        out
    }
}

impl Panel for SettingsPanel {
    fn handle_key(&mut self, key: &KeyEvent, kb: &Keybindings) -> PanelOutcome {
        if self.submenu.is_some() {
            return self.submenu_key(key, kb);
        }
        let shown = self.filtered();
        let n = shown.len();
        if kb.matches("tui.select.cancel", key) {
            return PanelOutcome::Closed;
        }
        let at = shown.get(self.selected).copied();
        if kb.matches("tui.select.up", key) && n > 0 {
            self.selected = (self.selected + n - 1) % n;
        } else if kb.matches("tui.select.down", key) && n > 0 {
            self.selected = (self.selected + 1) % n;
        } else if kb.matches("tui.select.confirm", key) || key.code == KeyCode::Char(' ') {
            if let Some(at) = at {
                return self.activate(at);
            }
        } else if matches!(key.code, KeyCode::Left | KeyCode::Right) {
            let step = if key.code == KeyCode::Left { -1 } else { 1 };
            if let Some(at) = at
                && self.entries[at].def.change == Change::Cycle
            {
                return self.step(at, step);
            }
        } else if super::edit_filter(&mut self.query, key) {
            self.selected = 0;
        }
        PanelOutcome::Open
    }

    fn lines(&self, theme: &Theme, max: usize) -> Vec<Line<'static>> {
        if let Some(menu) = &self.submenu {
            return self.submenu_lines(menu, theme, max);
        }
        let mut out = vec![
            Line::from(Span::styled(
                truncate(&t!("pi.settings.title"), max, "…"),
                theme.bold("accent"),
            )),
            Line::from(vec![
                Span::styled("> ", theme.fg("accent")),
                Span::raw(truncate(&self.query, max.saturating_sub(2), "…")),
            ]),
            Line::default(),
        ];
        let shown = self.filtered();
        if shown.is_empty() {
            out.push(Line::from(Span::styled(
                truncate(&t!("pi.settings.no_match"), max, "…"),
                theme.fg("dim"),
            )));
        }
        let label_width = self
            .entries
            .iter()
            .map(|e| width(&e.def.label()))
            .max()
            .unwrap_or(0)
            .min(MAX_LABEL);
        let start = self
            .selected
            .saturating_sub(VISIBLE / 2)
            .min(shown.len().saturating_sub(VISIBLE));
        for (pos, &i) in shown.iter().enumerate().skip(start).take(VISIBLE) {
            let entry = &self.entries[i];
            let chosen = pos == self.selected;
            let marker = if chosen { "→ " } else { "  " };
            let label = format!("{}  ", fit(&entry.def.label(), label_width, "…"));
            let head = truncate(&format!("{marker}{label}"), max, "…");
            let room = max.saturating_sub(width(&head));
            let style = if chosen {
                theme.fg("accent")
            } else {
                Style::default()
            };
            out.push(Line::from(vec![
                Span::styled(head, style),
                Span::styled(
                    truncate(&value_label(&entry.value), room, "…"),
                    theme.fg("accent"),
                ),
            ]));
        }
        if shown.len() > VISIBLE {
            let counter = t!(
                "pi.tui.completion.position",
                current = self.selected + 1,
                total = shown.len()
            );
            out.push(Line::from(Span::styled(
                truncate(&format!("  {counter}"), max, "…"),
                theme.fg("dim"),
            )));
        }
        if let Some(entry) = shown.get(self.selected).map(|&i| &self.entries[i]) {
            out.push(Line::default());
            out.push(Line::from(Span::styled(
                truncate(&format!("  {}", entry.def.description()), max, "…"),
                theme.fg("muted"),
            )));
        }
        out.push(Line::default());
        out.push(Line::from(Span::styled(
            truncate(&t!("pi.settings.keys"), max, "…"),
            theme.fg("dim"),
        )));
        out
    }
}

#[cfg(test)]
#[path = "settings_tests.rs"]
mod tests;
