//! The LLM layer: provider-neutral types, streaming, wire protocols, models and auth.

pub mod anthropic;
pub mod anthropic_request;
pub mod auth;
pub mod catalog;
pub mod cost;
pub mod demo;
pub mod errors;
pub mod events;
pub mod faux;
pub mod http;
pub mod model;
pub mod oauth;
pub mod openai_compat;
pub mod openai_completions;
pub mod openai_request;
pub mod openai_responses;
pub mod openai_responses_request;
pub mod partial_json;
pub mod registry;
pub mod resolve;
pub mod sse;
pub mod stream;
pub mod thinking;
pub mod transform;
pub mod types;
