//! `/fork`: the user messages of the session, oldest first, each with its position
//! on a dimmed line, drawn as pi draws them: a title and a line saying what a fork
//! does, ten messages between two rules around the selection, the cursor `›`, and
//! the position when not all of them fit.

use crate::t;

use crossterm::event::KeyEvent;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use crate::tui::chrome::rule;
use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::text::{truncate, wrap_text};
use crate::ui_kit::theme::Theme;

/// Messages shown at once.
pub const FORK_VISIBLE: usize = 10;

/// What a key did to the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ForkOutcome {
    /// Still open.
    Open,
    /// Fork from the message at this index.
    Picked(usize),
    /// Closed without a choice.
    Cancelled,
}

/// `/fork` state: the messages (one line each) and the selected one.
#[derive(Debug, Clone)]
pub struct ForkSelector {
    messages: Vec<String>,
    selected: usize,
}

impl ForkSelector {
    /// A list over `messages`, the newest selected.
    pub fn new(messages: Vec<String>) -> Self {
        let selected = messages.len().saturating_sub(1);
        ForkSelector { messages, selected }
    }

    /// Index of the selected message.
    pub fn selected(&self) -> usize {
        self.selected
    }

    /// Handle a key: up and down move (wrapping around), Enter picks, Escape closes.
    pub fn handle_key(&mut self, key: &KeyEvent, kb: &Keybindings) -> ForkOutcome {
        let n = self.messages.len();
        if kb.matches("tui.select.cancel", key) {
            return ForkOutcome::Cancelled;
        }
        if kb.matches("tui.select.confirm", key) {
            return if n == 0 {
                ForkOutcome::Cancelled
            } else {
                ForkOutcome::Picked(self.selected)
            };
        }
        if n > 0 && kb.matches("tui.select.up", key) {
            self.selected = (self.selected + n - 1) % n;
        } else if n > 0 && kb.matches("tui.select.down", key) {
            self.selected = (self.selected + 1) % n;
        }
        ForkOutcome::Open
    }

    /// Lines to draw at `max` columns.
    pub fn lines(&self, theme: &Theme, max: usize) -> Vec<Line<'static>> {
        let border = || rule(max, theme.fg("border"));
        let muted = theme.fg("muted");
        let mut out = vec![
            Line::default(),
            Line::from(Span::styled(
                truncate(&format!(" {}", t!("pi.tui.fork.title")), max, "..."),
                theme.bold("text"),
            )),
        ];
        for line in wrap_text(&t!("pi.tui.fork.subtitle"), max.saturating_sub(2).max(1)) {
            out.push(Line::from(Span::styled(format!(" {line}"), muted)));
        }
        out.extend([Line::default(), border(), Line::default()]);
        let n = self.messages.len();
        let start = self
            .selected
            .saturating_sub(FORK_VISIBLE / 2)
            .min(n.saturating_sub(FORK_VISIBLE));
        let end = (start + FORK_VISIBLE).min(n);
        for (i, message) in self.messages.iter().enumerate().take(end).skip(start) {
            let chosen = i == self.selected;
            let text = truncate(message, max.saturating_sub(2), "...");
            out.push(Line::from(vec![
                Span::styled(if chosen { "› " } else { "  " }, theme.fg("accent")),
                if chosen {
                    Span::styled(
                        text,
                        ratatui::style::Style::default().add_modifier(Modifier::BOLD),
                    )
                } else {
                    Span::raw(text)
                },
            ]));
            let position = t!("pi.tui.fork.position", index = i + 1, total = n);
            out.push(Line::from(Span::styled(
                truncate(&format!("  {position}"), max, "..."),
                muted,
            )));
            out.push(Line::default());
        }
        if start > 0 || end < n {
            let at = format!("  ({}/{n})", self.selected + 1);
            out.push(Line::from(Span::styled(at, muted)));
        }
        out.extend([Line::default(), border()]);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::{KeyCode, KeyModifiers};

    fn press(s: &mut ForkSelector, code: KeyCode) -> ForkOutcome {
        s.handle_key(
            &KeyEvent::new(code, KeyModifiers::NONE),
            &Keybindings::default(),
        )
    }

    fn text(s: &ForkSelector, width: usize) -> Vec<String> {
        s.lines(&Theme::plain(), width)
            .iter()
            .map(|l| l.to_string())
            .collect()
    }

    fn messages(n: usize) -> Vec<String> {
        (1..=n).map(|i| format!("message {i}")).collect()
    }

    #[test]
    fn the_newest_is_selected_and_the_keys_wrap_around() {
        let mut s = ForkSelector::new(messages(3));
        assert_eq!(s.selected(), 2);
        press(&mut s, KeyCode::Down);
        assert_eq!(s.selected(), 0);
        press(&mut s, KeyCode::Up);
        assert_eq!(s.selected(), 2);
        press(&mut s, KeyCode::Up);
        assert_eq!(press(&mut s, KeyCode::Enter), ForkOutcome::Picked(1));
        assert_eq!(press(&mut s, KeyCode::Esc), ForkOutcome::Cancelled);
        let typed = press(&mut s, KeyCode::Char('x'));
        assert_eq!((typed, s.selected()), (ForkOutcome::Open, 1), "no search");
    }

    #[test]
    fn a_short_list_is_framed_without_a_position_line() {
        let lines = text(&ForkSelector::new(messages(2)), 40);
        let rule = "─".repeat(40);
        assert_eq!(lines[..2], ["", " Fork from Message"]);
        let top = lines.iter().position(|l| *l == rule).unwrap();
        assert_eq!(
            lines[top + 1..],
            [
                "",
                "  message 1",
                "  Message 1 of 2",
                "",
                "› message 2",
                "  Message 2 of 2",
                "",
                "",
                rule.as_str(),
            ]
        );
    }

    #[test]
    fn ten_messages_show_at_once_around_the_selection_with_the_position() {
        let mut s = ForkSelector::new(messages(30));
        for _ in 0..15 {
            press(&mut s, KeyCode::Up);
        }
        let lines = text(&s, 60);
        let shown: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("  message ") || l.starts_with("› message "))
            .collect();
        assert_eq!(shown.len(), FORK_VISIBLE);
        assert_eq!(shown[0], "  message 10");
        assert_eq!(shown[5], "› message 15");
        assert!(lines.contains(&"  (15/30)".to_string()), "{lines:#?}");
    }

    #[test]
    fn a_long_message_ends_with_three_dots_at_the_width() {
        let s = ForkSelector::new(vec!["x".repeat(50)]);
        let lines = text(&s, 20);
        assert!(
            lines.contains(&format!("› {}...", "x".repeat(15))),
            "{lines:#?}"
        );
    }
}
