//! `/scoped-models`: enable or disable models for Ctrl+P cycling. Changes
//! apply to this run at once; `app.models.save` (Ctrl+S) writes them to
//! settings `enabledModels`.

use crate::t;

use crossterm::event::KeyEvent;
use ratatui::text::{Line, Span};

use crate::ai::model::Model;
use crate::tui::panels::selector::fuzzy_score;
use crate::tui::panels::{Panel, PanelChange, PanelOutcome};
use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::text::{truncate, width};
use crate::ui_kit::theme::Theme;

/// Rows of models shown at once.
const VISIBLE: usize = 8;

/// The scoped-models list.
pub struct ScopedModelsPanel {
    /// `provider/id` of every model, in the registry's order.
    all: Vec<String>,
    /// Enabled `provider/id`s in cycling order; `None` = all enabled.
    enabled: Option<Vec<String>>,
    query: String,
    selected: usize,
    unsaved: bool,
    /// Key hints built from the live keybindings.
    hints: String,
    /// The keys of `app.models.save`.
    save_key: String,
}

/// `provider/id` of a model.
pub fn full_id(model: &Model) -> String {
    format!("{}/{}", model.provider, model.id)
}

impl ScopedModelsPanel {
    /// A panel over `models`; `enabled` are the models cycled now (`None` = all).
    pub fn new(models: &[Model], enabled: Option<Vec<String>>, kb: &Keybindings) -> Self {
        let hints = t!(
            "pi.tui.models.keys",
            toggle = kb.keys_text("tui.select.confirm"),
            all = kb.keys_text("app.models.enableAll"),
            clear = kb.keys_text("app.models.clearAll"),
            provider = kb.keys_text("app.models.toggleProvider"),
            up = kb.keys_text("app.models.reorderUp"),
            down = kb.keys_text("app.models.reorderDown"),
            save = kb.keys_text("app.models.save"),
        );
        let all: Vec<String> = models.iter().map(full_id).collect();
        let enabled = enabled.map(|e| e.into_iter().filter(|id| all.contains(id)).collect());
        ScopedModelsPanel {
            all,
            enabled,
            query: String::new(),
            selected: 0,
            unsaved: false,
            hints,
            save_key: kb.keys_text("app.models.save"),
        }
    }

    /// The enabled models (`None` = all).
    pub fn enabled(&self) -> Option<&[String]> {
        self.enabled.as_deref()
    }

    fn is_enabled(&self, id: &str) -> bool {
        self.enabled
            .as_ref()
            .is_none_or(|e| e.iter().any(|x| x == id))
    }

    /// Enabled models first (in cycling order), then the rest, filtered.
    fn shown(&self) -> Vec<String> {
        let mut ordered: Vec<String> = match &self.enabled {
            None => self.all.clone(),
            Some(e) => e
                .iter()
                .cloned()
                .chain(self.all.iter().filter(|id| !e.contains(id)).cloned())
                .collect(),
        };
        if !self.query.is_empty() {
            let mut scored: Vec<(usize, usize, String)> = ordered
                .into_iter()
                .enumerate()
                .filter_map(|(i, id)| fuzzy_score(&self.query, &id).map(|s| (s, i, id)))
                .collect();
            scored.sort();
            ordered = scored.into_iter().map(|(_, _, id)| id).collect();
        }
        ordered
    }

    fn normalise(&mut self) {
        if let Some(e) = &self.enabled
            && e.len() == self.all.len()
        {
            self.enabled = None;
        }
    }

    fn changed(&mut self) -> PanelOutcome {
        self.normalise();
        self.unsaved = true;
        PanelOutcome::Changed(PanelChange::ScopedModels(self.enabled.clone()))
    }

    fn toggle(&mut self, id: &str) -> PanelOutcome {
        match &mut self.enabled {
            None => self.enabled = Some(vec![id.to_string()]),
            Some(e) => match e.iter().position(|x| x == id) {
                Some(i) => {
                    e.remove(i);
                }
                None => e.push(id.to_string()),
            },
        }
        self.changed()
    }

    fn set_all(&mut self, targets: &[String], on: bool) -> PanelOutcome {
        let mut list = self.enabled.clone().unwrap_or_else(|| self.all.clone());
        if on {
            for id in targets {
                if !list.contains(id) {
                    list.push(id.clone());
                }
            }
        } else {
            list.retain(|id| !targets.contains(id));
        }
        self.enabled = Some(list);
        self.changed()
    }

    fn reorder(&mut self, id: &str, delta: isize) -> PanelOutcome {
        let Some(list) = &mut self.enabled else {
            return PanelOutcome::Open;
        };
        let Some(at) = list.iter().position(|x| x == id) else {
            return PanelOutcome::Open;
        };
        let to = at as isize + delta;
        if to < 0 || to as usize >= list.len() {
            return PanelOutcome::Open;
        }
        list.swap(at, to as usize);
        self.selected = (self.selected as isize + delta).max(0) as usize;
        self.changed()
    }
}

impl Panel for ScopedModelsPanel {
    fn handle_key(&mut self, key: &KeyEvent, kb: &Keybindings) -> PanelOutcome {
        let shown = self.shown();
        let n = shown.len();
        let current = shown.get(self.selected.min(n.saturating_sub(1))).cloned();
        if kb.matches("tui.select.cancel", key) {
            return PanelOutcome::Closed;
        }
        if kb.matches("app.models.save", key) {
            self.unsaved = false;
            return PanelOutcome::Changed(PanelChange::SaveScopedModels(self.enabled.clone()));
        }
        let targets = if self.query.is_empty() {
            self.all.clone()
        } else {
            shown.clone()
        };
        if kb.matches("app.models.enableAll", key) {
            return self.set_all(&targets, true);
        }
        if kb.matches("app.models.clearAll", key) {
            return self.set_all(&targets, false);
        }
        if kb.matches("app.models.toggleProvider", key)
            && let Some(id) = &current
        {
            let provider = id.split('/').next().unwrap_or("");
            let of_provider: Vec<String> = self
                .all
                .iter()
                .filter(|x| x.split('/').next() == Some(provider))
                .cloned()
                .collect();
            let all_on = of_provider.iter().all(|x| self.is_enabled(x));
            return self.set_all(&of_provider, !all_on);
        }
        if let Some(id) = &current {
            if kb.matches("app.models.reorderUp", key) {
                return self.reorder(id, -1);
            }
            if kb.matches("app.models.reorderDown", key) {
                return self.reorder(id, 1);
            }
        }
        if kb.matches("tui.select.up", key) && n > 0 {
            self.selected = (self.selected + n - 1) % n;
        } else if kb.matches("tui.select.down", key) && n > 0 {
            self.selected = (self.selected + 1) % n;
        } else if kb.matches("tui.select.confirm", key) {
            if let Some(id) = current {
                return self.toggle(&id);
            }
        } else if super::edit_filter(&mut self.query, key) {
            self.selected = 0;
        }
        PanelOutcome::Open
    }

    fn lines(&self, theme: &Theme, max: usize) -> Vec<Line<'static>> {
        let mut out = vec![
            Line::from(Span::styled(
                truncate(&t!("pi.tui.models.title"), max, "…"),
                theme.bold("accent"),
            )),
            Line::from(Span::styled(
                truncate(
                    &t!("pi.tui.models.session_only", key = &self.save_key),
                    max,
                    "…",
                ),
                theme.fg("muted"),
            )),
            Line::from(vec![
                Span::styled("> ", theme.fg("accent")),
                Span::raw(truncate(&self.query, max.saturating_sub(2), "…")),
            ]),
        ];
        let shown = self.shown();
        let selected = self.selected.min(shown.len().saturating_sub(1));
        let start = selected.saturating_sub(VISIBLE - 1);
        for (i, id) in shown.iter().enumerate().skip(start).take(VISIBLE) {
            let chosen = i == selected;
            let marker = if chosen { "→ " } else { "  " };
            let (provider, model) = id.split_once('/').unwrap_or(("", id));
            let status = match (&self.enabled, self.is_enabled(id)) {
                (None, _) => "",
                (Some(_), true) => " ✓",
                (Some(_), false) => " ✗",
            };
            let head = truncate(&format!("{marker}{model}"), max, "…");
            let room = max.saturating_sub(width(&head));
            let tail = truncate(&format!(" [{provider}]{status}"), room, "");
            let style = if chosen {
                theme.fg("accent")
            } else {
                ratatui::style::Style::default()
            };
            out.push(Line::from(vec![
                Span::styled(head, style),
                Span::styled(tail, theme.fg("muted")),
            ]));
        }
        if shown.is_empty() {
            out.push(Line::from(Span::styled(
                t!("pi.tui.models.empty"),
                theme.fg("muted"),
            )));
        }
        let count = match &self.enabled {
            None => t!("pi.tui.models.all_enabled"),
            Some(e) => t!(
                "pi.tui.models.enabled",
                enabled = e.len(),
                total = self.all.len()
            ),
        };
        let unsaved = if self.unsaved {
            t!("pi.tui.models.unsaved")
        } else {
            String::new()
        };
        out.push(Line::from(Span::styled(
            truncate(&format!("{count}{unsaved} · {}", self.hints), max, "…"),
            theme.fg("dim"),
        )));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::providers::faux::FauxProvider;
    use crossterm::event::{KeyCode, KeyModifiers};

    fn models() -> Vec<Model> {
        ["a", "b", "c"]
            .iter()
            .map(|id| {
                let mut m = FauxProvider::new().model();
                m.id = id.to_string();
                m.provider = if *id == "c" { "other" } else { "p" }.into();
                m
            })
            .collect()
    }

    fn press(panel: &mut ScopedModelsPanel, code: KeyCode, mods: KeyModifiers) -> PanelOutcome {
        panel.handle_key(&KeyEvent::new(code, mods), &Keybindings::default())
    }

    #[test]
    fn toggling_starts_from_one_model_and_all_enabled_becomes_none() {
        let mut panel = ScopedModelsPanel::new(&models(), None, &Keybindings::default());
        let none = KeyModifiers::NONE;
        assert_eq!(
            press(&mut panel, KeyCode::Enter, none),
            PanelOutcome::Changed(PanelChange::ScopedModels(Some(vec!["p/a".into()])))
        );
        press(&mut panel, KeyCode::Down, none);
        press(&mut panel, KeyCode::Enter, none);
        assert_eq!(
            panel.enabled(),
            Some(&["p/a".to_string(), "p/b".into()][..])
        );
        press(&mut panel, KeyCode::Down, none);
        assert_eq!(
            press(&mut panel, KeyCode::Enter, none),
            PanelOutcome::Changed(PanelChange::ScopedModels(None)),
            "every model enabled is the same as no scope"
        );
        assert_eq!(
            press(&mut panel, KeyCode::Char('x'), KeyModifiers::CONTROL),
            PanelOutcome::Changed(PanelChange::ScopedModels(Some(vec![])))
        );
        assert_eq!(
            press(&mut panel, KeyCode::Char('s'), KeyModifiers::CONTROL),
            PanelOutcome::Changed(PanelChange::SaveScopedModels(Some(vec![])))
        );
    }

    #[test]
    fn search_filters_and_provider_toggle() {
        let mut panel = ScopedModelsPanel::new(
            &models(),
            Some(vec!["other/c".into()]),
            &Keybindings::default(),
        );
        for c in "p/".chars() {
            press(&mut panel, KeyCode::Char(c), KeyModifiers::NONE);
        }
        // The provider toggle enables every model of the highlighted one's provider.
        press(&mut panel, KeyCode::Char('p'), KeyModifiers::CONTROL);
        assert_eq!(panel.enabled(), None, "all three enabled");
    }
}
