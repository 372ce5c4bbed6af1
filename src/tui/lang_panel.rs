//! The `/lang` picker: shipped languages by their native names, the current one marked.
//! Picking one switches the locale at once.

use crossterm::event::KeyEvent;
use ratatui::text::Line;

use super::keybindings::Keybindings;
use super::panel::{Panel, PanelChange, PanelOutcome};
use super::selector::{Selector, SelectorItem, SelectorOutcome};
use super::theme::Theme;
use crate::i18n::languages::languages;

/// Marks the language in use.
const CURRENT_MARK: &str = "●";

/// The language picker.
pub struct LangPanel {
    selector: Selector,
    tags: Vec<String>,
}

impl LangPanel {
    /// The picker with `current` (a tag) highlighted and marked.
    pub fn new(current: &str) -> Self {
        let base = current.split('-').next().unwrap_or(current);
        let position = |tag: &str| {
            languages()
                .iter()
                .position(|l| l.tag.eq_ignore_ascii_case(tag))
        };
        let current_at = position(current).or_else(|| position(base));
        let items = languages()
            .iter()
            .enumerate()
            .map(|(i, l)| SelectorItem {
                label: format!(
                    "{} {}",
                    if Some(i) == current_at {
                        CURRENT_MARK
                    } else {
                        " "
                    },
                    l.name
                ),
                detail: l.tag.clone(),
            })
            .collect();
        LangPanel {
            selector: Selector::keyed("pi.lang.picker.title", items, current_at.unwrap_or(0)),
            tags: languages().iter().map(|l| l.tag.clone()).collect(),
        }
    }
}

impl Panel for LangPanel {
    fn handle_key(&mut self, key: &KeyEvent, kb: &Keybindings) -> PanelOutcome {
        match self.selector.handle_key(key, kb) {
            SelectorOutcome::Open => PanelOutcome::Open,
            SelectorOutcome::Cancelled => PanelOutcome::Closed,
            SelectorOutcome::Picked(i) => match self.tags.get(i) {
                Some(tag) => PanelOutcome::Done(PanelChange::Locale(tag.clone())),
                None => PanelOutcome::Closed,
            },
        }
    }

    fn lines(&self, theme: &Theme, width: usize) -> Vec<Line<'static>> {
        self.selector.lines(theme, width)
    }
}
