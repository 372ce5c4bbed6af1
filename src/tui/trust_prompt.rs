//! The project trust question, asked on the terminal UI's own screen before the session
//! starts: what the folder's `.pi/` holds, and a two-choice selector in the user's theme
//! and language.

use std::io;
use std::path::Path;
use std::time::Duration;

use crossterm::event::{Event, KeyEventKind};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::t;
use crate::tui::panels::selector::{Selector, SelectorItem, SelectorOutcome};
use crate::tui::terminal::{TerminalGuard, enter};
use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::theme::Theme;

/// Ask whether to trust `cwd`, whose `.pi/` holds `contents` (already described for
/// people). `Some(true)`: trust and load; `Some(false)`: do not; `None`: the question
/// was dismissed (Escape, or no terminal), which decides nothing.
pub fn ask(cwd: &Path, contents: &str, theme: &Theme, agent_dir: &Path) -> Option<bool> {
    enter(true).ok()?;
    let _restore = TerminalGuard;
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout())).ok()?;
    let mut reader =
        crate::ui_kit::keys::reader::TerminalReader::new(crate::tui::terminal::keyboard_enhanced);
    let (keys, _) = Keybindings::load(agent_dir);
    let items = vec![
        SelectorItem {
            label: t!("pi.trust.choice_yes"),
            detail: String::new(),
        },
        SelectorItem {
            label: t!("pi.trust.choice_no"),
            detail: String::new(),
        },
    ];
    let mut selector = Selector::keyed("pi.trust.title", items, 1);
    loop {
        let drawn = terminal.draw(|frame| {
            let area = frame.area();
            let width = usize::from(area.width.saturating_sub(2)).max(10);
            let mut lines = vec![
                Line::default(),
                Line::from(Span::styled(
                    t!("pi.trust.folder", path = cwd.display().to_string()),
                    theme.bold("text"),
                )),
                Line::from(Span::styled(
                    t!("pi.trust.holds", contents = contents),
                    theme.fg("text"),
                )),
                Line::from(Span::styled(t!("pi.trust.warning"), theme.fg("warning"))),
                Line::default(),
            ];
            lines.extend(selector.lines(theme, width));
            frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
        });
        drawn.ok()?;
        let Some(Event::Key(key)) = reader.read(Duration::from_millis(250)).ok()? else {
            continue;
        };
        if key.kind == KeyEventKind::Release {
            continue;
        }
        match selector.handle_key(&key, &keys) {
            SelectorOutcome::Open => {}
            SelectorOutcome::Picked(index) => return Some(index == 0),
            SelectorOutcome::Cancelled => return None,
        }
    }
}
