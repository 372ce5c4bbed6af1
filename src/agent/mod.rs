//! The agent loop: stream a reply, run its tool calls, repeat until done.

pub mod agent_loop;
pub mod arguments_error;
pub mod conversation;
pub mod events;
pub mod queue;
pub mod run_limits;
pub mod settled_store;
pub mod settled_turn;
pub mod tool;
mod tool_batch;
pub mod validate;
