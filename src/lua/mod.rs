//! The Lua extension host: extensions written in Lua 5.4 that subscribe to
//! agent events, register tools and commands, and call back into pi through
//! the `pi` table. One VM lives on its own thread; [`ExtensionHandle`] is the
//! thread-safe door to it.

pub mod api;
pub mod autocomplete;
pub mod budget;
pub mod callbacks;
pub mod capabilities;
pub mod checkpoints;
pub mod command;
pub mod compact_callbacks;
pub mod convert;
pub mod ctx;
pub mod discovery;
pub mod dispatch;
pub mod error;
pub mod handle;
pub mod health;
mod host;
pub mod i18n_score;
pub mod lazy;
pub mod loader;
pub mod messages;
pub mod oauth;
pub mod profile;
pub mod provider_stream;
pub mod registry;
pub mod shortcut;
pub mod spec_cache;
pub mod syntax_error;
pub mod terminal_input;
pub mod tool;
pub mod tool_exec;
pub mod tool_ops;
pub mod ui;
pub mod view;
pub mod vm;
pub mod watch;
pub mod wrap;
pub mod wrapped_tool;

pub use dispatch::Dispatched;
pub use handle::{ExtensionHandle, HostConfig, LoadError, LoadReport};
pub use registry::{CommandInfo, FlagInfo, Registrations, ShortcutInfo, ToolInfo};
pub use tool::LuaTool;
pub use ui::{ExtensionUi, NoUi, SharedExtensionUi};
pub use view::{ExtensionAction, SessionView, SharedView};
