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
    /// The whole alternate screen, redrawn by ratatui, and the images on it
    /// (id, column, row).
    Alternate(
        Box<Terminal<CrosstermBackend<std::io::Stdout>>>,
        Vec<(u32, u16, u16)>,
    ),
    /// The normal screen: finished lines printed once, the live area redrawn.
    Normal(Scrollback),
}

impl Screen {
    /// A screen of the chosen kind on stdout.
    pub fn open(alternate: bool) -> std::io::Result<Screen> {
        if alternate {
            let terminal = Terminal::new(CrosstermBackend::new(std::io::stdout()))?;
            Ok(Screen::Alternate(Box::new(terminal), Vec::new()))
        } else {
            Ok(Screen::Normal(Scrollback::new()))
        }
    }

    /// Draw a frame inside synchronized-output markers so terminals that
    /// support them show it at once (others ignore the markers).
    pub fn draw(&mut self, app: &mut App) -> std::io::Result<()> {
        use crossterm::terminal::{BeginSynchronizedUpdate, EndSynchronizedUpdate};
        match self {
            Screen::Alternate(terminal, images) => {
                crossterm::queue!(terminal.backend_mut(), BeginSynchronizedUpdate)?;
                let mut drawn = Vec::new();
                terminal.draw(|frame| drawn = crate::tui::view::draw_with_images(frame, app))?;
                if drawn != *images {
                    // Images moved or went: take every one of them off and draw
                    // the screen afresh, so no stale picture stays behind.
                    if crate::ui_kit::terminal_image::protocol()
                        == Some(crate::ui_kit::terminal_image::ImageProtocol::Kitty)
                    {
                        for (id, _, _) in images.iter() {
                            let delete = crate::ui_kit::terminal_image::kitty_delete(*id);
                            terminal.backend_mut().write_all(delete.as_bytes())?;
                        }
                    }
                    // Clear the screen and forget what it showed (without
                    // `Terminal::clear`, which asks the terminal where the cursor is).
                    terminal.backend_mut().write_all(b"\x1b[2J")?;
                    terminal.swap_buffers();
                    terminal
                        .draw(|frame| drawn = crate::tui::view::draw_with_images(frame, app))?;
                    *images = drawn;
                }
                if !app.ui_settings.settings.show_hardware_cursor() {
                    terminal.hide_cursor()?;
                }
                crossterm::execute!(terminal.backend_mut(), EndSynchronizedUpdate)
            }
            Screen::Normal(scrollback) => {
                let size = crossterm::terminal::size()?;
                app.screen_rows = size.1;
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
            Screen::Alternate(terminal, _) => {
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
