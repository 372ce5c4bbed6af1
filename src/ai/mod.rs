//! The LLM layer: provider-neutral types, streaming, wire protocols, models and auth.

pub mod anthropic;
pub mod auth;
pub mod catalog;
pub mod errors;
pub mod events;
pub mod faux;
pub mod model;
pub mod openai_completions;
pub mod partial_json;
pub mod registry;
pub mod resolve;
pub mod sse;
pub mod stream;
pub mod types;
