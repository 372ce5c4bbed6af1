//! The LLM layer: provider-neutral types, streaming, wire protocols, models and auth.

pub mod assistant_stream;
pub mod auth;
pub mod auth_check;
pub mod catalog;
pub mod connect_progress;
pub mod cost;
pub mod error_kind;
pub mod errors;
pub mod event_channel;
pub mod events;
pub mod http;
pub mod local_models;
pub mod model;
pub mod oauth;
pub mod partial_json;
pub mod providers;
pub mod registry;
pub mod resolve;
pub mod sse;
pub mod stream;
pub mod tagged;
pub mod thinking;
pub mod tls;
pub mod transform;
pub mod types;
pub mod wait;
