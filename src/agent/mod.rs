//! The agent loop: stream a reply, run its tool calls, repeat until done.

pub mod agent_loop;
pub mod events;
pub mod queue;
pub mod tool;
pub mod validate;
