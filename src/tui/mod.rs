//! The interactive terminal UI (`pi` with no arguments), on ratatui + crossterm.

pub mod app;
mod app_commands;
mod app_completion;
mod app_extension_ui;
mod app_keys;
mod app_lang;
pub mod app_sessions;
pub mod app_settings;
mod app_tree;
mod background;
pub mod chrome;
pub mod commands;
pub mod editor;
pub mod ext_chrome;
pub mod ext_dialog;
pub mod extension_ui;
pub mod file_complete;
pub mod highlight;
pub mod history_file;
pub mod hyperlink;
pub mod image_attach;
pub mod input;
pub mod lang_panel;
pub mod login;
pub mod lua_surfaces;
pub mod markdown;
pub mod panel;
pub mod render;
pub mod runner;
pub mod scoped_models_panel;
pub mod selector;
pub mod session_panel;
pub mod session_task;
pub mod session_tree_task;
pub mod settings_panel;
pub mod terminal;
pub mod tool_rows;
pub mod transcript;
pub mod tree_rows;
pub mod tree_selector;
pub mod view;

pub use runner::{InteractiveOptions, run_interactive};

#[cfg(test)]
mod app_lang_tests;
#[cfg(test)]
mod app_settings_tests;
#[cfg(test)]
mod app_tests;
#[cfg(test)]
mod ext_view_tests;
#[cfg(test)]
mod lua_surfaces_tests;
#[cfg(test)]
mod view_tests;
