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

/// The text of the last message of an Anthropic or OpenAI request.
fn last_text(request: &CapturedRequest) -> String {
    let Some(last) = request
        .json
        .as_ref()
        .and_then(|b| b["messages"].as_array())
        .and_then(|m| m.last())
    else {
        return String::new();
    };
    match &last["content"] {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p["text"].as_str())
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    }
}

/// A prompt `::words N` asks for an answer of N words, streamed one word per
/// event (a paragraph break every 12 words) as fast as the server can write.
pub fn words_reply(request: &CapturedRequest) -> Option<MockReply> {
    let text = last_text(request);
    let n: usize = text.trim().strip_prefix("::words")?.trim().parse().ok()?;
    if is_anthropic(request) {
        let words: String = (0..n).map(|i| format!("word{i} ")).collect();
        return Some(MockReply::anthropic_text(&words));
    }
    let mut sse = super::sse_builders::OpenAiSse::new();
    for i in 0..n {
        let word = if i % 12 == 11 {
            format!("word{i}\n\n")
        } else {
            format!("word{i} ")
        };
        sse = sse.raw(json!({
            "id": "chatcmpl-mock", "object": "chat.completion.chunk", "created": 1_700_000_000,
            "model": "gpt-mock",
            "choices": [{"index": 0, "delta": {"content": word}, "finish_reason": null}]
        }));
    }
    Some(MockReply::openai(sse.finish("stop").usage(10, n as u64, 0)))
}

/// The text of the last user message of an OpenAI or Anthropic request (tool
/// results, which Anthropic sends as user messages, are not text and are skipped).
fn last_user_text(request: &CapturedRequest) -> String {
    let Some(messages) = request.json.as_ref().and_then(|b| b["messages"].as_array()) else {
        return String::new();
    };
    messages
        .iter()
        .rev()
        .filter(|m| m["role"] == "user")
        .map(|m| match &m["content"] {
            Value::String(s) => s.clone(),
            Value::Array(parts) => parts.iter().filter_map(|p| p["text"].as_str()).collect(),
            _ => String::new(),
        })
        .find(|text| !text.is_empty())
        .unwrap_or_default()
}

/// The answer that ends a `::seq N` turn.
pub fn seq_done(n: usize) -> String {
    format!("seq {n} done.")
}

/// A prompt `::seq N` asks for a long tool output: the model runs `seq 1 N` with
/// bash, then answers [`seq_done`] once the result is in.
pub fn seq_reply(request: &CapturedRequest) -> Option<MockReply> {
    let prompt = last_user_text(request);
    let n: usize = prompt.trim().strip_prefix("::seq")?.trim().parse().ok()?;
    let asked = last_text(request).trim() == prompt.trim();
    if asked {
        let id = format!("call_seq_{}", tool_results_in(request));
        let command = json!({ "command": format!("seq 1 {n}") });
        return Some(calls(request, &[(id.as_str(), "bash", command)]));
    }
    Some(text(request, &seq_done(n)))
}

/// The reply to `request` in `scenario`; a `::words N` prompt gets N words, a
/// `::seq N` prompt a bash call printing N lines.
pub fn scenario_reply(scenario: Scenario, request: &CapturedRequest) -> MockReply {
    if let Some(reply) = words_reply(request).or_else(|| seq_reply(request)) {
        return reply;
    }
    let bash = ("call_bash_1", "bash", json!({"command": "echo hi"}));
    let read = ("call_read_1", "read", json!({"path": "hello.txt"}));
    match (scenario, tool_results_in(request)) {
        (Scenario::Sequential, 0) => calls(request, &[bash]),
        (Scenario::Sequential, 1) => calls(request, &[read]),
        (Scenario::Parallel, 0) => calls(request, &[bash, read]),
        _ => text(request, FINAL_ANSWER),
    }
}
