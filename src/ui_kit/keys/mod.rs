//! Reading the keyboard from raw terminal bytes: [`StdinBuffer`] cuts the bytes into
//! sequences, [`parse`] decodes one sequence into a key, [`events`] turns it into the
//! terminal events the UI handles, and [`reader`] reads standard input with them.

pub mod events;
pub mod key_id;
pub mod parse;
pub mod reader;
pub mod stdin_buffer;

pub use key_id::KeyId;
pub use parse::{DecodeContext, DecodedKey, KeyEventType, decode, matches_key, parse_key};
pub use stdin_buffer::{StdinBuffer, StdinEvent};

use std::sync::atomic::{AtomicBool, Ordering};

/// The terminal was asked for the Kitty keyboard protocol (its flags were pushed).
static KITTY_PROTOCOL: AtomicBool = AtomicBool::new(false);

/// Record whether the Kitty keyboard protocol is on; the terminal set-up calls it.
pub fn set_kitty_protocol(on: bool) {
    KITTY_PROTOCOL.store(on, Ordering::SeqCst);
}

/// Whether the Kitty keyboard protocol is on, which decides how some bytes decode.
pub fn kitty_protocol() -> bool {
    KITTY_PROTOCOL.load(Ordering::SeqCst)
}
