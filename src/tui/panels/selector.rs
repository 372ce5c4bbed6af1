//! A searchable list shown in place of the editor (model selector and the
//! like): type to filter fuzzily, up/down to move, Enter to pick, Esc to close.

use crate::t;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::text::{Line, Span};

use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::text::truncate;
use crate::ui_kit::theme::Theme;

/// Rows of items shown at once.
const VISIBLE: usize = 8;

/// One choice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectorItem {
    /// Main text (searched).
    pub label: String,
    /// Secondary text (searched, dimmed).
    pub detail: String,
}

/// What a key did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SelectorOutcome {
    /// Still open.
    Open,
    /// Picked the item at this index of the original list.
    Picked(usize),
    /// Closed without a choice.
    Cancelled,
}

/// Selector state.
#[derive(Debug, Clone)]
pub struct Selector {
    /// Title line.
    pub title: String,
    /// When set, the title is this message key, translated at draw time (so an open
    /// selector follows a locale switch).
    title_key: Option<&'static str>,
    /// Search text.
    pub query: String,
    items: Vec<SelectorItem>,
    filtered: Vec<usize>,
    selected: usize,
    /// The item in use now, marked with a check.
    current: Option<usize>,
    /// Per item, a line shown under the list while it is highlighted.
    notes: Vec<String>,
}

/// Fuzzy score of `query` against `text`: `None` unless every query char
/// appears in order; lower is better (gaps are penalised).
pub fn fuzzy_score(query: &str, text: &str) -> Option<usize> {
    let text: Vec<char> = text.to_lowercase().chars().collect();
    let mut score = 0;
    let mut pos = 0;
    for q in query.to_lowercase().chars().filter(|c| !c.is_whitespace()) {
        let found = text[pos..].iter().position(|c| *c == q)?;
        score += found;
        pos += found + 1;
    }
    Some(score)
}

/// A title line and a `> ` line with `field` after it, both cut to `max` columns: the top
/// of a selector, or a one-line text field.
pub fn title_and_field(title: &str, field: &str, theme: &Theme, max: usize) -> Vec<Line<'static>> {
    vec![
        Line::from(Span::styled(
            truncate(title, max, "…"),
            theme.bold("accent"),
        )),
        Line::from(vec![
            Span::styled("> ", theme.fg("accent")),
            Span::raw(truncate(field, max.saturating_sub(2), "…")),
        ]),
    ]
}

impl Selector {
    /// A selector over `items`, the `initial` one highlighted.
    pub fn new(title: impl Into<String>, items: Vec<SelectorItem>, initial: usize) -> Self {
        let mut s = Selector {
            title: title.into(),
            title_key: None,
            query: String::new(),
            filtered: (0..items.len()).collect(),
            items,
            selected: 0,
            current: None,
            notes: Vec::new(),
        };
        s.selected = initial.min(s.filtered.len().saturating_sub(1));
        s
    }

    /// Mark item `index` (of the original list) as the one in use.
    pub fn with_current(mut self, index: usize) -> Self {
        self.current = Some(index);
        self
    }

    /// One note per item (of the original list), shown under the list for the
    /// highlighted item.
    pub fn with_notes(mut self, notes: Vec<String>) -> Self {
        self.notes = notes;
        self
    }

    /// A selector whose title is the message `key`, re-translated on every draw.
    pub fn keyed(key: &'static str, items: Vec<SelectorItem>, initial: usize) -> Self {
        let mut s = Self::new(crate::i18n::t(key, &[]), items, initial);
        s.title_key = Some(key);
        s
    }

    /// Set the search text.
    pub fn set_query(&mut self, query: &str) {
        self.query = query.to_string();
        self.refilter();
    }

    fn refilter(&mut self) {
        let mut scored: Vec<(usize, usize)> = self
            .items
            .iter()
            .enumerate()
            .filter_map(|(i, item)| {
                fuzzy_score(&self.query, &format!("{} {}", item.label, item.detail)).map(|s| (s, i))
            })
            .collect();
        scored.sort();
        self.filtered = scored.into_iter().map(|(_, i)| i).collect();
        self.selected = 0;
    }

    /// Handle a key.
    pub fn handle_key(&mut self, key: &KeyEvent, kb: &Keybindings) -> SelectorOutcome {
        if kb.matches("tui.select.cancel", key) {
            return SelectorOutcome::Cancelled;
        }
        if kb.matches("tui.select.confirm", key) {
            return match self.filtered.get(self.selected) {
                Some(i) => SelectorOutcome::Picked(*i),
                None => SelectorOutcome::Cancelled,
            };
        }
        let n = self.filtered.len();
        if kb.matches("tui.select.up", key) && n > 0 {
            self.selected = (self.selected + n - 1) % n;
        } else if kb.matches("tui.select.down", key) && n > 0 {
            self.selected = (self.selected + 1) % n;
        } else if kb.matches("tui.select.pageUp", key) {
            self.selected = self.selected.saturating_sub(VISIBLE);
        } else if kb.matches("tui.select.pageDown", key) && n > 0 {
            self.selected = (self.selected + VISIBLE).min(n - 1);
        } else if key.code == KeyCode::Backspace {
            let mut q = self.query.clone();
            q.pop();
            self.set_query(&q);
        } else if let KeyCode::Char(c) = key.code
            && !key
                .modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        {
            let q = format!("{}{c}", self.query);
            self.set_query(&q);
        }
        SelectorOutcome::Open
    }

    /// Lines to draw at `max` columns.
    pub fn lines(&self, theme: &Theme, max: usize) -> Vec<Line<'static>> {
        let title = self
            .title_key
            .map(|k| crate::i18n::t(k, &[]))
            .unwrap_or_else(|| self.title.clone());
        let mut out = title_and_field(&title, &self.query, theme, max);
        let start = self.selected.saturating_sub(VISIBLE - 1);
        for (pos, &i) in self.filtered.iter().enumerate().skip(start).take(VISIBLE) {
            let item = &self.items[i];
            let chosen = pos == self.selected;
            let marker = if chosen { "→ " } else { "  " };
            let label_style = if chosen {
                theme.fg("accent")
            } else {
                ratatui::style::Style::default()
            };
            let label = truncate(&item.label, max.saturating_sub(2), "…");
            let room = max.saturating_sub(2 + crate::ui_kit::text::width(&label) + 1);
            let mut spans = vec![
                Span::styled(marker, theme.fg("accent")),
                Span::styled(label, label_style),
            ];
            if room > 3 && !item.detail.is_empty() {
                spans.push(Span::styled(
                    format!(" {}", truncate(&item.detail, room, "…")),
                    theme.fg("muted"),
                ));
            }
            if self.current == Some(i) {
                spans.push(Span::styled(" ✓", theme.fg("success")));
            }
            out.push(Line::from(spans));
        }
        let note = self
            .filtered
            .get(self.selected)
            .and_then(|&i| self.notes.get(i));
        if let Some(note) = note.filter(|n| !n.is_empty()) {
            out.push(Line::default());
            out.push(Line::from(Span::styled(
                truncate(&format!("  {note}"), max, "…"),
                theme.fg("muted"),
            )));
        }
        if self.filtered.is_empty() {
            out.push(Line::from(Span::styled(
                t!("pi.tui.selector.no_matches"),
                theme.fg("muted"),
            )));
        }
        out.push(Line::from(Span::styled(
            truncate(
                &t!(
                    "pi.tui.selector.keys",
                    index = self.selected + 1,
                    total = self.filtered.len()
                ),
                max,
                "…",
            ),
            theme.fg("dim"),
        )));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items() -> Vec<SelectorItem> {
        ["claude-sonnet-4-5", "gpt-4o", "claude-haiku-4-5"]
            .iter()
            .map(|l| SelectorItem {
                label: l.to_string(),
                detail: "p".into(),
            })
            .collect()
    }

    #[test]
    fn fuzzy_filter_and_pick() {
        let kb = Keybindings::default();
        let mut s = Selector::new("Select model", items(), 0);
        for c in "haik".chars() {
            s.handle_key(&KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE), &kb);
        }
        let out = s.handle_key(&KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE), &kb);
        assert_eq!(out, SelectorOutcome::Picked(2));
        assert_eq!(fuzzy_score("gpt", "claude"), None);
        assert!(fuzzy_score("cs45", "claude-sonnet-4-5").is_some());
    }

    #[test]
    fn an_open_keyed_selector_follows_a_locale_switch() {
        let _catalog = crate::i18n::scoped::scoped_catalog("zh-TW");
        let s = Selector::keyed("pi.cmd.model.title", items(), 0);
        let title = |s: &Selector| s.lines(&Theme::plain(), 60)[0].to_string();
        assert_eq!(title(&s), "選擇模型");
        crate::i18n::set_locale("en");
        assert_eq!(title(&s), "Select model");
    }
}
