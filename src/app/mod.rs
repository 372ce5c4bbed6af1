//! The application layer: a conversation bound to its session, and start-up wiring.

pub mod agent_session;
pub mod extension_actions;
pub mod extension_bridge;
pub mod extension_events;
pub mod project_trust;
pub mod prompt_setup;
pub mod resource_setup;
pub mod session_switch;
pub mod startup;

pub use startup::run;
