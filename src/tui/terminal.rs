//! Taking over the terminal and giving it back exactly as it was: raw mode,
//! the alternate screen and mouse wheel reporting (alternate-screen mode
//! only), bracketed paste, keyboard enhancement (or modifyOtherKeys) and the cursor.
//! Restoring is idempotent and also runs from a panic hook and on SIGTERM/SIGHUP.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use crossterm::event::{
    DisableBracketedPaste, EnableBracketedPaste, KeyboardEnhancementFlags,
    PopKeyboardEnhancementFlags, PushKeyboardEnhancementFlags,
};
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use crossterm::{cursor, execute};

/// The terminal is currently taken over.
static ACTIVE: AtomicBool = AtomicBool::new(false);
/// modifyOtherKeys was asked for (without the Kitty protocol).
static OTHER_KEYS: AtomicBool = AtomicBool::new(false);
/// The UI draws on the alternate screen (else on the normal screen, with scrollback).
static ALTERNATE: AtomicBool = AtomicBool::new(false);

/// Wheel events only (button tracking + SGR coordinates); no motion
/// tracking, so Shift+drag selection keeps working in most terminals.
const MOUSE_ON: &str = "\x1b[?1000h\x1b[?1006h";
const MOUSE_OFF: &str = "\x1b[?1006l\x1b[?1000l";

/// Enter the UI's terminal mode and install the panic hook. With
/// `alternate`, the UI takes the alternate screen and the mouse wheel;
/// otherwise it draws on the normal screen and the terminal keeps its own
/// scrollback, wheel and selection.
pub fn enter(alternate: bool) -> io::Result<()> {
    ALTERNATE.store(alternate, Ordering::SeqCst);
    reenter()
}

/// Enter the UI's terminal mode again, as the last [`enter`] chose.
pub fn reenter() -> io::Result<()> {
    install_panic_hook();
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    let alternate = ALTERNATE.load(Ordering::SeqCst);
    let mut out = io::stdout();
    if alternate {
        execute!(out, EnterAlternateScreen)?;
    }
    execute!(out, EnableBracketedPaste, cursor::Hide)?;
    if alternate {
        out.write_all(MOUSE_ON.as_bytes())?;
    }
    // One round trip with a short timeout (crossterm's own check waits 2 s
    // on a terminal that does not answer).
    if crate::tui::background::query_terminal().keyboard_enhancement {
        // Escape codes for every modified key, and with them the key's place on the
        // base (US) layout, so Ctrl+C on a Cyrillic or Greek layout is Ctrl+C.
        execute!(
            out,
            PushKeyboardEnhancementFlags(
                KeyboardEnhancementFlags::DISAMBIGUATE_ESCAPE_CODES
                    | KeyboardEnhancementFlags::REPORT_ALTERNATE_KEYS
            )
        )?;
        crate::ui_kit::keys::set_kitty_protocol(true);
    } else {
        out.write_all(crate::tui::other_keys::ENABLE.as_bytes())?;
        OTHER_KEYS.store(true, Ordering::SeqCst);
    }
    out.flush()
}

/// Whether the Kitty keyboard protocol is on (its flags were pushed).
pub fn keyboard_enhanced() -> bool {
    crate::ui_kit::keys::kitty_protocol()
}

/// Give the terminal back. Safe to call more than once.
pub fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let mut out = io::stdout();
    if crate::ui_kit::keys::kitty_protocol() {
        crate::ui_kit::keys::set_kitty_protocol(false);
        let _ = execute!(out, PopKeyboardEnhancementFlags);
    }
    if OTHER_KEYS.swap(false, Ordering::SeqCst) {
        let _ = out.write_all(crate::tui::other_keys::DISABLE.as_bytes());
    }
    if ALTERNATE.load(Ordering::SeqCst) {
        let _ = out.write_all(MOUSE_OFF.as_bytes());
        let _ = execute!(out, LeaveAlternateScreen);
    }
    let _ = execute!(out, DisableBracketedPaste, cursor::Show);
    let _ = out.flush();
    let _ = disable_raw_mode();
}

fn install_panic_hook() {
    static INSTALLED: AtomicBool = AtomicBool::new(false);
    if INSTALLED.swap(true, Ordering::SeqCst) {
        return;
    }
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
}

/// Restores the terminal when dropped (early returns and errors included).
pub struct TerminalGuard;

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}
