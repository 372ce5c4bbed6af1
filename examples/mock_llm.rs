//! A local mock LLM server for benchmarks and manual comparison runs.
//!
//! Serves the standard scripted conversation (see `tests/it/support/scenario.rs`)
//! over both the Anthropic Messages and OpenAI Chat Completions wire formats on
//! 127.0.0.1, keeping connections open between requests. Prints the port on the first
//! line of stdout, then runs until killed.
//!
//! Usage: `cargo run --release --example mock_llm [sequential|parallel]`

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/it/support/mod.rs"]
mod support;

use support::mock_server::MockServer;
use support::scenario::{Scenario, scenario_reply};

fn main() {
    let scenario = match std::env::args().nth(1).as_deref() {
        Some("parallel") => Scenario::Parallel,
        _ => Scenario::Sequential,
    };
    let server = MockServer::start();
    // Like providers' servers: a client's next request reuses its connection.
    server.keep_connections_alive();
    server.set_handler(move |request| scenario_reply(scenario, request));
    let url = server.url();
    let port = url.rsplit(':').next().unwrap_or_default();
    println!("{port}");
    loop {
        std::thread::park();
    }
}
