//! The interactive terminal UI (`pi` with no arguments), on ratatui + crossterm.

pub mod markdown;
pub mod text;
pub mod theme;
pub mod transcript;
