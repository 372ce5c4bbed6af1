//! The standard scripted conversation used by end-to-end tests and benchmarks:
//! the model runs `bash` (`echo hi`), then `read` (`hello.txt`), then answers
//! "All done." — or, in the parallel variant, calls both tools in one turn.
//! The reply depends only on how many tool results the request already holds,
//! so any client that replays history (ours or the reference) gets the same
//! conversation, and a server can serve many runs without being reset.

use serde_json::{Value, json};

use super::mock_server::{CapturedRequest, MockReply};

/// The final answer of the scenario.
pub const FINAL_ANSWER: &str = "All done.";

/// Which shape of the scenario to play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scenario {
    /// bash, then read, then the answer (three model calls).
    Sequential,
    /// bash and read in one turn, then the answer (two model calls).
    Parallel,
}

/// Number of tool results in an Anthropic or OpenAI request body.
pub fn tool_results_in(request: &CapturedRequest) -> usize {
    let Some(messages) = request.json.as_ref().and_then(|b| b["messages"].as_array()) else {
        return 0;
    };
    messages
        .iter()
        .map(|m| {
            if m["role"] == "tool" {
                return 1;
            }
            m["content"]
                .as_array()
                .map(|blocks| blocks.iter().filter(|b| b["type"] == "tool_result").count())
                .unwrap_or(0)
        })
        .sum()
}

fn is_anthropic(request: &CapturedRequest) -> bool {
    request.path.ends_with("/messages")
}

fn calls(request: &CapturedRequest, calls: &[(&str, &str, Value)]) -> MockReply {
    if is_anthropic(request) {
        MockReply::anthropic_tool_calls(calls)
    } else {
        MockReply::openai_tool_calls(calls)
    }
}

fn text(request: &CapturedRequest, text: &str) -> MockReply {
    if is_anthropic(request) {
        MockReply::anthropic_text(text)
    } else {
        MockReply::openai_text(text)
    }
}

/// The reply to `request` in `scenario`.
pub fn scenario_reply(scenario: Scenario, request: &CapturedRequest) -> MockReply {
    let bash = ("call_bash_1", "bash", json!({"command": "echo hi"}));
    let read = ("call_read_1", "read", json!({"path": "hello.txt"}));
    match (scenario, tool_results_in(request)) {
        (Scenario::Sequential, 0) => calls(request, &[bash]),
        (Scenario::Sequential, 1) => calls(request, &[read]),
        (Scenario::Parallel, 0) => calls(request, &[bash, read]),
        _ => text(request, FINAL_ANSWER),
    }
}
