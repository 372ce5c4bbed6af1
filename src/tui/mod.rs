//! The interactive terminal UI (`pi` with no arguments), on ratatui + crossterm.

pub mod app;
mod background;
pub mod chrome;
pub mod commands;
pub mod editor;
pub mod input;
pub mod other_keys;
pub mod panels;
pub mod screen;
pub mod scrollback;
pub mod terminal;
pub mod transcript;
pub mod trust_prompt;
pub mod view;

pub use app::runner::{InteractiveOptions, run_interactive};

#[cfg(test)]
mod ext_view_tests;
#[cfg(test)]
mod screens_tests;
#[cfg(test)]
mod text_width_tests;
#[cfg(test)]
mod view_tests;
