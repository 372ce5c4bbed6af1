//! The interactive terminal UI (`pi` with no arguments), on ratatui + crossterm.

pub mod editor;
pub mod keybindings;
pub mod markdown;
pub mod render;
pub mod text;
pub mod theme;
pub mod tool_rows;
pub mod transcript;
pub mod chrome;
