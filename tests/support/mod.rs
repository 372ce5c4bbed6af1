//! Shared helpers for integration tests. Each test binary uses a subset.
#![allow(dead_code, unused_imports)]

pub mod llm;
pub mod mock_server;
pub mod sse_builders;

pub use mock_server::{CapturedRequest, MockReply, MockServer};
pub use sse_builders::{AnthropicSse, OpenAiSse};
