//! pi: a minimal, fast, self-extensible terminal coding agent.
//!
//! The crate is organised by responsibility: [`ai`] talks to model providers,
//! [`agent`] runs the tool loop, [`tools`] holds the built-in tools,
//! [`session`] stores conversations, [`config`] reads settings and assembles
//! the system prompt, [`cli`] parses arguments and [`modes`] drives a run.
//! [`sdk`] is the stable surface for embedding pi in another Rust program.

pub mod agent;
pub mod ai;
pub mod app;
pub mod checkpoint;
pub mod cli;
pub mod compaction;
pub mod config;
pub mod core;
pub mod export;
pub mod i18n;
pub mod lua;
pub mod modes;
pub mod packages;
pub mod permissions;
pub mod protocol;
pub mod resources;
pub mod sandbox;
pub mod sdk;
pub mod session;
pub mod sync;
pub mod tools;
pub mod tui;
pub mod ui_kit;

/// The version printed by `pi --version`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
