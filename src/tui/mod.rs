//! The interactive terminal UI (`pi` with no arguments), on ratatui + crossterm.

pub mod chrome;
pub mod commands;
pub mod editor;
pub mod keybindings;
pub mod markdown;
pub mod render;
pub mod selector;
pub mod session_task;
pub mod text;
pub mod theme;
pub mod tool_rows;
pub mod transcript;
