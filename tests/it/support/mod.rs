//! Shared helpers of the integration tests; each test module uses a subset
//! (hence the `dead_code` allowance).
//!
//! - [`mock_server`]: a scriptable LLM HTTP server on 127.0.0.1
//!   ([`MockServer`], [`MockReply`], captured requests);
//! - [`sse_builders`]: Anthropic and OpenAI SSE bodies ([`AnthropicSse`], [`OpenAiSse`]);
//! - [`llm`]: test models pointing at the server and stream collection.
//!
//! To drive the real `pi` binary against the server, write a `models.json`
//! with a custom provider whose `baseUrl` is the server:
//!
//! ```json
//! {"providers": {"mock": {
//!     "baseUrl": "<server.openai_base_url()>", "api": "openai-completions",
//!     "apiKey": "test-key", "models": [{"id": "mock-model"}]
//! }}}
//! ```
//!
//! (`server.anthropic_base_url()` with `"api": "anthropic-messages"` works the
//! same way), then queue replies with `server.push(MockReply::openai_text(..))`
//! and inspect `server.requests()` afterwards.
#![allow(dead_code, unused_imports)]

// The example programs share the first group; the second drives the `pi` binary,
// which only integration tests can locate.

#[cfg(test)]
pub mod browser;
#[cfg(test)]
pub mod fake_ui;
pub mod http1;
pub mod llm;
#[cfg(test)]
pub mod lua_agent;
#[cfg(test)]
pub mod mcp_servers;
pub mod mock_server;
#[cfg(test)]
pub mod pi_cli;
#[cfg(test)]
pub mod playground;
#[cfg(test)]
pub mod rpc_client;
pub mod scenario;
pub mod sse_builders;
#[cfg(test)]
pub mod tui_harness;
#[cfg(test)]
pub mod twins;

pub use mock_server::{CapturedRequest, MockReply, MockServer};
pub use sse_builders::{AnthropicSse, OpenAiSse};
