//! The `/lang` picker: shipped languages by their native names, the current one marked.
//! Picking one switches the locale at once.

use crossterm::event::KeyEvent;
use ratatui::text::Line;

use crate::i18n::languages::languages;
use crate::tui::panels::selector::{Selector, SelectorItem, SelectorOutcome};
use crate::tui::panels::{Panel, PanelChange, PanelOutcome};
use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::theme::Theme;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::{KeyCode, KeyModifiers};

    fn press(panel: &mut LangPanel, code: KeyCode) -> PanelOutcome {
        panel.handle_key(
            &KeyEvent::new(code, KeyModifiers::NONE),
            &Keybindings::default(),
        )
    }

    fn text(panel: &LangPanel) -> String {
        panel
            .lines(&Theme::plain(), 60)
            .iter()
            .map(|l| l.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn marks_the_current_language_by_its_native_name() {
        let panel = LangPanel::new("zh-TW");
        let shown = text(&panel);
        assert!(shown.contains("● 繁體中文"), "{shown}");
        assert!(shown.contains("  English"), "{shown}");
        // A regional variant marks its base language.
        assert!(text(&LangPanel::new("en-GB")).contains("● English"));
    }

    #[test]
    fn enter_picks_the_highlighted_tag_and_escape_closes() {
        let mut panel = LangPanel::new("en");
        press(&mut panel, KeyCode::Down);
        match press(&mut panel, KeyCode::Enter) {
            PanelOutcome::Done(PanelChange::Locale(tag)) => {
                assert_eq!(tag, languages()[1].tag)
            }
            _ => panic!("a locale was picked"),
        }
        let mut panel = LangPanel::new("en");
        assert!(matches!(
            press(&mut panel, KeyCode::Esc),
            PanelOutcome::Closed
        ));
    }
}
