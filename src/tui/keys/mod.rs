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
