//! The vocabulary every front end shares: the terminal UI, print, JSON and RPC modes and
//! Lua extensions all speak these types. Nothing here depends on the rest of the crate.

pub mod commands;
mod levels;

pub use levels::{QueueMode, ThinkingLevel};
