//! Where frames go: the normal screen with scrollback (the default) or the
//! alternate screen (`"alternateScreen": true`), behind one interface for the
//! event loop.

use std::io::Write;

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use crate::tui::app::App;
use crate::tui::scrollback::Scrollback;

/// The terminal the UI draws on.
pub enum Screen {
    /// The whole alternate screen, redrawn by ratatui.
    Alternate(Box<Terminal<CrosstermBackend<std::io::Stdout>>>),
    /// The normal screen: finished lines printed once, the live area redrawn.
    Normal(Scrollback),
}

impl Screen {
    /// A screen of the chosen kind on stdout.
    pub fn open(alternate: bool) -> std::io::Result<Screen> {
        if alternate {
            let terminal = Terminal::new(CrosstermBackend::new(std::io::stdout()))?;
            Ok(Screen::Alternate(Box::new(terminal)))
        } else {
            Ok(Screen::Normal(Scrollback::new()))
        }
    }

    /// Draw a frame inside synchronized-output markers so terminals that
    /// support them show it at once (others ignore the markers).
    pub fn draw(&mut self, app: &mut App) -> std::io::Result<()> {
        use crossterm::terminal::{BeginSynchronizedUpdate, EndSynchronizedUpdate};
        match self {
            Screen::Alternate(terminal) => {
                crossterm::queue!(terminal.backend_mut(), BeginSynchronizedUpdate)?;
                terminal.draw(|frame| crate::tui::view::draw(frame, app))?;
                crossterm::execute!(terminal.backend_mut(), EndSynchronizedUpdate)
            }
            Screen::Normal(scrollback) => {
                let size = crossterm::terminal::size()?;
                let bytes = scrollback.frame(app, size);
                let mut out = std::io::stdout().lock();
                crossterm::queue!(out, BeginSynchronizedUpdate)?;
                out.write_all(bytes.as_bytes())?;
                crossterm::execute!(out, EndSynchronizedUpdate)
            }
        }
    }

    /// Forget what the terminal shows; the next frame draws everything.
    pub fn invalidate(&mut self) {
        match self {
            Screen::Alternate(terminal) => {
                let _ = terminal.clear();
            }
            Screen::Normal(scrollback) => scrollback.invalidate(),
        }
    }

    /// Leave the conversation on the normal screen with the cursor below it.
    pub fn finish(&mut self) {
        if let Screen::Normal(scrollback) = self {
            let bytes = scrollback.finish();
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(bytes.as_bytes());
            let _ = out.flush();
        }
    }
}
