//! The `mistral-conversations` protocol against the mock server: thinking
//! chunks, text, two tool calls, usage and cost, failures, abort and bad input.

use crate::support;

use std::time::Duration;

use pi::ai::events::AssistantMessageEvent;
use pi::ai::model::{Model, ThinkingLevel};
use pi::ai::stream::{ProviderRegistry, StreamOptions};
use pi::ai::types::{ContentBlock, StopReason};
use serde_json::{Value, json};
use support::llm::{collect, kinds, options, user_context};
use support::{MockReply, MockServer};

fn mistral_model(base_url: &str) -> Model {
    serde_json::from_value(json!({
        "id": "magistral-medium-latest", "name": "Magistral Medium", "api": "mistral-conversations",
        "provider": "mistral", "baseUrl": base_url, "reasoning": true, "input": ["text", "image"],
        "cost": {"input": 2.0, "output": 5.0, "cacheRead": 0.0, "cacheWrite": 0.0},
        "contextWindow": 128000, "maxTokens": 40000
    }))
    .unwrap()
}

fn chunk(delta: Value, finish: Option<&str>) -> Value {
    json!({"id": "cmpl-m1", "object": "chat.completion.chunk", "model": "magistral-medium-latest",
           "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
}

fn sse(chunks: &[Value], done: bool) -> String {
    let mut s: String = chunks.iter().map(|c| format!("data: {c}\n\n")).collect();
    if done {
        s.push_str("data: [DONE]\n\n");
    }
    s
}

fn full_stream() -> Vec<Value> {
    let mut last = chunk(json!({}), Some("tool_calls"));
    last["usage"] = json!({"prompt_tokens": 900, "completion_tokens": 60, "total_tokens": 960});
    vec![
        chunk(
            json!({"role": "assistant", "content": [{"type": "thinking",
            "thinking": [{"type": "text", "text": "Plan: list "}]}]}),
            None,
        ),
        chunk(
            json!({"content": [{"type": "thinking",
            "thinking": [{"type": "text", "text": "then read."}]}]}),
            None,
        ),
        chunk(json!({"content": "Let me "}), None),
        chunk(
            json!({"content": [{"type": "text", "text": "look."}]}),
            None,
        ),
        chunk(
            json!({"tool_calls": [
            {"id": "AbCdEf123", "index": 0, "function": {"name": "bash", "arguments": "{\"command\": \"ls\"}"}},
            {"id": "XyZ987abc", "index": 1, "function": {"name": "read", "arguments": {"path": "a.rs"}}}]}),
            None,
        ),
        last,
    ]
}

#[tokio::test]
async fn thinking_text_two_calls_and_usage() {
    let server = MockServer::start();
    server.push(MockReply::sse(sse(&full_stream(), true)).chunked(&[53]));
    let model = mistral_model(&server.url());
    let opts = StreamOptions {
        reasoning: Some(ThinkingLevel::Medium),
        session_id: Some("sess-1".into()),
        ..options()
    };
    let (events, msg) = collect(&model, user_context("go"), opts).await;
    assert_eq!(
        msg.stop_reason,
        StopReason::ToolUse,
        "{:?}",
        msg.error_message
    );
    assert_eq!(msg.response_id.as_deref(), Some("cmpl-m1"));
    let ContentBlock::Thinking(t) = &msg.content[0] else {
        panic!("{:?}", msg.content)
    };
    assert_eq!(t.thinking, "Plan: list then read.");
    assert_eq!(msg.text(), "Let me look.");
    let calls = msg.tool_calls();
    assert_eq!(calls.len(), 2);
    assert_eq!(
        (calls[0].id.as_str(), calls[0].name.as_str()),
        ("AbCdEf123", "bash")
    );
    assert_eq!(calls[0].arguments, json!({"command": "ls"}));
    assert_eq!(calls[1].arguments, json!({"path": "a.rs"}));
    let u = &msg.usage;
    assert_eq!((u.input, u.output, u.total_tokens), (900, 60, 960));
    assert!((u.cost.total - (900.0 * 2.0 + 60.0 * 5.0) / 1e6).abs() < 1e-12);
    let k = kinds(&events);
    assert_eq!(k.iter().filter(|t| *t == "toolcall_end").count(), 2);
    assert_eq!(k.last().map(String::as_str), Some("done"));

    let req = server.last_request().unwrap();
    assert_eq!(req.path, "/v1/chat/completions");
    assert_eq!(req.header("authorization"), Some("Bearer test-key"));
    assert_eq!(req.header("x-affinity"), Some("sess-1"));
    let body = req.json();
    assert_eq!(
        body["messages"][0],
        json!({"role": "system", "content": "You are a test."})
    );
    assert_eq!(
        body["messages"][1],
        json!({"role": "user", "content": "go"})
    );
    assert_eq!(body["prompt_mode"], "reasoning");
    assert_eq!(body["stream"], true);
}

#[tokio::test]
async fn error_event_mid_stream_keeps_partial_text() {
    let server = MockServer::start();
    let mut chunks = full_stream()[..3].to_vec();
    chunks.push(
        json!({"object": "error", "message": "Service unavailable, try later",
                       "type": "service_unavailable", "code": 503}),
    );
    server.push(MockReply::sse(sse(&chunks, false)));
    let (events, msg) = collect(&mistral_model(&server.url()), user_context("go"), options()).await;
    assert_eq!(msg.stop_reason, StopReason::Error);
    assert_eq!(
        msg.error_message.as_deref(),
        Some("service_unavailable: Service unavailable, try later")
    );
    assert_eq!(msg.text(), "Let me ");
    assert!(pi::ai::errors::is_retryable(&msg));
    assert_eq!(kinds(&events).last().map(String::as_str), Some("error"));
}

#[tokio::test]
async fn stream_without_finish_reason_is_an_error_with_partial_content() {
    let server = MockServer::start();
    server.push(MockReply::sse(sse(&full_stream()[..4], false)));
    let (_, msg) = collect(&mistral_model(&server.url()), user_context("go"), options()).await;
    assert_eq!(msg.stop_reason, StopReason::Error);
    assert!(
        msg.error_message
            .as_deref()
            .unwrap()
            .contains("finish_reason")
    );
    assert_eq!(msg.text(), "Let me look.");
}

#[tokio::test]
async fn unparseable_tool_arguments_still_yield_a_tool_call() {
    let server = MockServer::start();
    server.push(MockReply::sse(sse(
        &[
            chunk(
                json!({"tool_calls": [{"id": "AbCdEf123", "index": 0,
                "function": {"name": "read", "arguments": "{\"path\": \"a.rs\", oops"}}]}),
                None,
            ),
            chunk(json!({}), Some("tool_calls")),
        ],
        true,
    )));
    let (_, msg) = collect(&mistral_model(&server.url()), user_context("go"), options()).await;
    assert_eq!(
        msg.stop_reason,
        StopReason::ToolUse,
        "{:?}",
        msg.error_message
    );
    let calls = msg.tool_calls();
    assert_eq!(calls[0].name, "read");
    // Best effort: the readable prefix survives; the agent validates the rest.
    assert!(calls[0].arguments.is_object());
}

#[tokio::test]
async fn http_error_names_status_and_retry_delay() {
    let server = MockServer::start();
    server.push(MockReply::status(429).header("retry-after", "3").json_body(
        json!({"object": "error", "message": "Rate limit exceeded", "type": "rate_limited"}),
    ));
    let (_, msg) = collect(&mistral_model(&server.url()), user_context("go"), options()).await;
    assert_eq!(
        msg.error_message.as_deref(),
        Some("429 rate_limited: Rate limit exceeded")
    );
    assert_eq!(msg.retry_after_ms, Some(3000));
    assert!(pi::ai::errors::is_retryable(&msg));
}

#[tokio::test]
async fn abort_mid_stream_reports_aborted() {
    let server = MockServer::start();
    server.push(
        MockReply::sse(sse(&full_stream()[..4], false))
            .chunked(&[80])
            .hold_open(),
    );
    let opts = options();
    let signal = opts.signal.clone();
    let mut stream =
        ProviderRegistry::builtin().stream(mistral_model(&server.url()), user_context("x"), opts);
    let mut saw_delta = false;
    while let Some(ev) = stream.next().await {
        if matches!(ev, AssistantMessageEvent::TextDelta { .. }) && !saw_delta {
            saw_delta = true;
            signal.cancel();
        }
    }
    let msg = stream.result().await;
    assert!(saw_delta);
    assert_eq!(msg.stop_reason, StopReason::Aborted);
    assert!(server.wait_for_disconnects(1, Duration::from_secs(5)));
}
