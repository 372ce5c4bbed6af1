//! The conversation core: an [`AgentSession`] binds one conversation to its session file
//! and drives the agent loop, compaction, session switching and branching, the user's
//! own shell commands, and the bridge to the Lua extension host. Every front end (the
//! terminal UI, print, JSON and RPC modes) drives it the same way.

pub mod agent_session;
pub mod checkpoints;
pub mod discovered_resources;
pub mod error;
pub mod extension_actions;
pub mod extension_bridge;
pub mod extension_events;
pub mod model_catalog;
pub mod permission_command;
pub mod permission_gate;
pub mod resource_inventory;
pub mod retry_policy;
pub mod run_limit;
pub mod sandbox_escalation;
pub mod session_command;
pub mod session_import;
pub mod session_switch;
pub mod tree_navigation;
pub mod update_check;
pub mod user_bash;

pub use agent_session::AgentSession;
