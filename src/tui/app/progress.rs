//! `terminal.showTerminalProgress`: while a turn runs, the terminal's tab or title
//! bar shows a busy indicator (OSC 9;4), cleared when the turn ends or the setting
//! is switched off.

use crate::tui::app::App;

/// OSC 9;4;3: progress of unknown length.
pub const PROGRESS_ACTIVE: &str = "\x1b]9;4;3\x07";
/// OSC 9;4;0: no progress.
pub const PROGRESS_CLEAR: &str = "\x1b]9;4;0;\x07";

impl App {
    /// The progress sequence to write now, if the indicator should change: shown while
    /// busy with the setting on, cleared otherwise.
    pub fn terminal_progress(&mut self) -> Option<&'static str> {
        let want = self.is_busy() && self.ui_settings.settings.show_terminal_progress();
        if want == self.progress_shown {
            return None;
        }
        self.progress_shown = want;
        Some(if want {
            PROGRESS_ACTIVE
        } else {
            PROGRESS_CLEAR
        })
    }

    /// Clear the indicator when leaving (nothing when it is not shown).
    pub fn clear_terminal_progress(&mut self) -> Option<&'static str> {
        std::mem::take(&mut self.progress_shown).then_some(PROGRESS_CLEAR)
    }
}

/// Write `sequence` to the terminal (failures are ignored: the indicator is cosmetic).
pub fn write_sequence(sequence: &str) {
    use std::io::Write;
    let mut out = std::io::stdout();
    let _ = out.write_all(sequence.as_bytes());
    let _ = out.flush();
}
