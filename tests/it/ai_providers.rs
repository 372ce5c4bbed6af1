//! Both wire protocols against the mock server: replies, thinking, tool
//! calls, usage and cost, stop reasons, chunking and abort.

use crate::support;

use std::time::Duration;

use pi::ai::events::AssistantMessageEvent;
use pi::ai::stream::ProviderRegistry;
use pi::ai::types::{ContentBlock, StopReason};
use serde_json::json;
use support::llm::{anthropic_model, collect, kinds, openai_model, options, user_context};
use support::{AnthropicSse, MockReply, MockServer, OpenAiSse};

#[tokio::test]
async fn anthropic_text_reply_with_usage_and_cost() {
    let server = MockServer::start();
    server.push(MockReply::anthropic(
        AnthropicSse::new()
            .message_start_usage(
                "msg_42",
                json!({"input_tokens": 100, "output_tokens": 1,
                       "cache_read_input_tokens": 1000, "cache_creation_input_tokens": 50}),
            )
            .ping()
            .text("Hello, w\u{f6}rld!")
            .message_delta("end_turn", 20)
            .message_stop(),
    ));
    let model = anthropic_model(&server.anthropic_base_url(), "claude-sonnet-4-5");
    let (events, msg) = collect(&model, user_context("hi"), options()).await;
    assert_eq!(msg.stop_reason, StopReason::Stop);
    assert_eq!(msg.text(), "Hello, w\u{f6}rld!");
    assert_eq!(msg.response_id.as_deref(), Some("msg_42"));
    assert_eq!(
        (
            msg.usage.input,
            msg.usage.output,
            msg.usage.cache_read,
            msg.usage.cache_write
        ),
        (100, 20, 1000, 50)
    );
    assert_eq!(msg.usage.total_tokens, 1170);
    let expected = (100.0 * 3.0 + 20.0 * 15.0 + 1000.0 * 0.3 + 50.0 * 3.75) / 1e6;
    assert!((msg.usage.cost.total - expected).abs() < 1e-12);
    let k = kinds(&events);
    assert_eq!(k.first().map(String::as_str), Some("start"));
    assert_eq!(k.last().map(String::as_str), Some("done"));
    // Deltas the reader has not taken yet arrive joined, so one or more.
    assert!(k.iter().filter(|t| *t == "text_delta").count() >= 1);

    let req = server.last_request().unwrap();
    assert_eq!(
        (req.method.as_str(), req.path.as_str()),
        ("POST", "/v1/messages")
    );
    assert_eq!(req.header("x-api-key"), Some("test-key"));
    assert_eq!(req.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(req.json()["stream"], json!(true));
}

#[tokio::test]
async fn anthropic_thinking_and_parallel_tool_calls() {
    let server = MockServer::start();
    server.push(MockReply::anthropic(
        AnthropicSse::new()
            .message_start("msg_1", 10)
            .thinking("I should list files and read one.", "sig-abc")
            .text("Let me look.")
            .tool_use("toolu_1", "bash", &json!({"command": "ls -la"}))
            .tool_use(
                "toolu_2",
                "read",
                &json!({"path": "src/\u{4f60}\u{597d}.rs", "limit": 10}),
            )
            .message_delta("tool_use", 30)
            .message_stop(),
    ));
    let model = anthropic_model(&server.anthropic_base_url(), "claude-sonnet-4-5");
    let (events, msg) = collect(&model, user_context("go"), options()).await;
    assert_eq!(msg.stop_reason, StopReason::ToolUse);
    let ContentBlock::Thinking(t) = &msg.content[0] else {
        panic!("{:?}", msg.content)
    };
    assert_eq!(t.thinking, "I should list files and read one.");
    assert_eq!(t.thinking_signature.as_deref(), Some("sig-abc"));
    let calls = msg.tool_calls();
    assert_eq!(calls.len(), 2);
    assert_eq!(
        (calls[0].id.as_str(), calls[0].name.as_str()),
        ("toolu_1", "bash")
    );
    assert_eq!(calls[0].arguments, json!({"command": "ls -la"}));
    assert_eq!(
        calls[1].arguments,
        json!({"path": "src/\u{4f60}\u{597d}.rs", "limit": 10})
    );
    let ends: Vec<_> = events
        .iter()
        .filter(|e| e["type"] == "toolcall_end")
        .map(|e| e["toolCall"]["id"].clone())
        .collect();
    assert_eq!(ends, [json!("toolu_1"), json!("toolu_2")]);
    assert_eq!((msg.usage.input, msg.usage.output), (10, 30));
    let expected = (10.0 * 3.0 + 30.0 * 15.0) / 1e6;
    assert!((msg.usage.cost.total - expected).abs() < 1e-12);
    let k = kinds(&events);
    for kind in ["thinking_delta", "text_delta", "toolcall_delta", "done"] {
        assert!(k.iter().any(|t| t == kind), "{kind} missing from {k:?}");
    }
}

#[tokio::test]
async fn anthropic_max_tokens_maps_to_length() {
    let server = MockServer::start();
    server.push(MockReply::anthropic(
        AnthropicSse::new()
            .message_start("m", 5)
            .text("truncated")
            .message_delta("max_tokens", 3)
            .message_stop(),
    ));
    let model = anthropic_model(&server.anthropic_base_url(), "claude-sonnet-4-5");
    let (_, msg) = collect(&model, user_context("x"), options()).await;
    assert_eq!(msg.stop_reason, StopReason::Length);
}

#[tokio::test]
async fn openai_text_reasoning_and_usage() {
    let server = MockServer::start();
    server.push(MockReply::openai(
        OpenAiSse::new()
            .model("gpt-test-2025-01-01")
            .reasoning("Thinking \u{e9}")
            .text("Bonjour \u{e0} tous")
            .finish("stop")
            .usage(1200, 40, 1000),
    ));
    let model = openai_model(&server.openai_base_url(), "gpt-test");
    let (events, msg) = collect(&model, user_context("hi"), options()).await;
    assert_eq!(msg.stop_reason, StopReason::Stop);
    assert_eq!(msg.text(), "Bonjour \u{e0} tous");
    assert_eq!(msg.response_id.as_deref(), Some("chatcmpl-mock"));
    assert_eq!(msg.response_model.as_deref(), Some("gpt-test-2025-01-01"));
    let ContentBlock::Thinking(t) = &msg.content[0] else {
        panic!()
    };
    assert_eq!(t.thinking, "Thinking \u{e9}");
    assert_eq!(
        (msg.usage.input, msg.usage.output, msg.usage.cache_read),
        (200, 40, 1000)
    );
    let expected = (200.0 * 2.0 + 40.0 * 8.0 + 1000.0 * 0.5) / 1e6;
    assert!((msg.usage.cost.total - expected).abs() < 1e-12);
    assert_eq!(kinds(&events).last().map(String::as_str), Some("done"));

    let req = server.last_request().unwrap();
    assert_eq!(req.path, "/v1/chat/completions");
    assert_eq!(req.header("authorization"), Some("Bearer test-key"));
}

#[tokio::test]
async fn openai_reasoning_text_two_tool_calls_usage_and_cost() {
    let server = MockServer::start();
    server.push(MockReply::openai(
        OpenAiSse::new()
            .reasoning("List, then read.")
            .text("Let me look.")
            .tool_call(0, "call_1", "bash", &json!({"command": "ls"}))
            .tool_call(1, "call_2", "read", &json!({"path": "a.rs"}))
            .finish("tool_calls")
            .usage(1200, 50, 1000),
    ));
    let model = openai_model(&server.openai_base_url(), "gpt-test");
    let (events, msg) = collect(&model, user_context("go"), options()).await;
    assert_eq!(msg.stop_reason, StopReason::ToolUse);
    let ContentBlock::Thinking(t) = &msg.content[0] else {
        panic!("{:?}", msg.content)
    };
    assert_eq!(t.thinking, "List, then read.");
    assert_eq!(msg.text(), "Let me look.");
    let calls = msg.tool_calls();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].arguments, json!({"command": "ls"}));
    assert_eq!(
        (calls[1].id.as_str(), calls[1].arguments.clone()),
        ("call_2", json!({"path": "a.rs"}))
    );
    assert_eq!(
        (msg.usage.input, msg.usage.output, msg.usage.cache_read),
        (200, 50, 1000)
    );
    let expected = (200.0 * 2.0 + 50.0 * 8.0 + 1000.0 * 0.5) / 1e6;
    assert!((msg.usage.cost.total - expected).abs() < 1e-12);
    let ends = events
        .iter()
        .filter(|e| e["type"] == "toolcall_end")
        .count();
    assert_eq!(ends, 2);
    assert_eq!(kinds(&events).last().map(String::as_str), Some("done"));
}

#[tokio::test]
async fn openai_parallel_tool_calls_and_length() {
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[
        ("call_1", "bash", json!({"command": "echo hi"})),
        (
            "call_2",
            "write",
            json!({"path": "a.txt", "content": "x\ny"}),
        ),
    ]));
    server.push(MockReply::openai(
        OpenAiSse::new().text("cut").finish("length").usage(5, 1, 0),
    ));
    let model = openai_model(&server.openai_base_url(), "gpt-test");
    let (_, msg) = collect(&model, user_context("go"), options()).await;
    assert_eq!(msg.stop_reason, StopReason::ToolUse);
    let calls = msg.tool_calls();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].arguments, json!({"command": "echo hi"}));
    assert_eq!(
        (calls[1].id.as_str(), calls[1].name.as_str()),
        ("call_2", "write")
    );
    assert_eq!(
        calls[1].arguments,
        json!({"path": "a.txt", "content": "x\ny"})
    );

    let (_, msg) = collect(&model, user_context("again"), options()).await;
    assert_eq!(msg.stop_reason, StopReason::Length);
    assert_eq!(server.request_count(), 2);
}

/// Offsets that cut inside a multi-byte character, a JSON token and an SSE line.
fn awkward_offsets(body: &str) -> Vec<usize> {
    let mut cuts = Vec::new();
    for needle in ["\u{e9}", "\u{4f60}", "\u{597d}"] {
        if let Some(i) = body.find(needle) {
            cuts.extend((1..needle.len()).map(|k| i + k));
        }
    }
    for needle in [
        "partial_json",
        "\"arguments\"",
        "event: content_block_delta",
        "data: {",
        "[DONE]",
    ] {
        if let Some(i) = body.find(needle) {
            cuts.push(i + needle.len() / 2);
        }
    }
    cuts
}

async fn same_events_for_all_chunkings(
    whole: MockReply,
    body: String,
    model: pi::ai::model::Model,
) {
    let server = MockServer::start();
    let base = if model.api == "anthropic-messages" {
        server.anthropic_base_url()
    } else {
        server.openai_base_url()
    };
    let model = pi::ai::model::Model {
        base_url: base,
        ..model
    };
    let offsets = awkward_offsets(&body);
    assert!(offsets.len() >= 5, "{offsets:?}");
    server.push(whole.clone());
    server.push(whole.clone().chunked(&[1]));
    server.push(
        whole
            .clone()
            .split_at(&offsets)
            .delay(Duration::from_millis(2)),
    );
    server.push(
        whole
            .chunked(&[7, 3, 1, 13])
            .delay(Duration::from_millis(1)),
    );
    let (reference, msg) = collect(&model, user_context("x"), options()).await;
    assert!(
        msg.stop_reason != StopReason::Error,
        "{:?}",
        msg.error_message
    );
    for _ in 0..3 {
        let (events, _) = collect(&model, user_context("x"), options()).await;
        assert_eq!(merged_deltas(&events), merged_deltas(&reference));
    }
}

/// `events` with runs of deltas of one block joined into one (a reader that lags behind
/// receives the deltas it has not taken yet as one, so how many arrive depends on timing;
/// their text and the final message do not).
fn merged_deltas(events: &[serde_json::Value]) -> Vec<serde_json::Value> {
    let mut out: Vec<serde_json::Value> = Vec::new();
    for event in events {
        let kind = event["type"].as_str().unwrap_or_default();
        if let Some(last) = out.last_mut()
            && kind.ends_with("_delta")
            && last["type"] == event["type"]
            && last["contentIndex"] == event["contentIndex"]
        {
            let joined = format!(
                "{}{}",
                last["delta"].as_str().unwrap_or_default(),
                event["delta"].as_str().unwrap_or_default()
            );
            *last = event.clone();
            last["delta"] = serde_json::Value::String(joined);
            continue;
        }
        out.push(event.clone());
    }
    out
}

#[tokio::test]
async fn anthropic_chunking_never_changes_events() {
    let stream = AnthropicSse::new()
        .message_start("msg_split", 12)
        .thinking("caf\u{e9} \u{4f60}\u{597d}", "sig")
        .text("r\u{e9}sum\u{e9} \u{4f60}\u{597d}")
        .tool_use("toolu_9", "bash", &json!({"command": "echo \u{e9}"}))
        .message_delta("tool_use", 9)
        .message_stop();
    let body = stream.build();
    let model = anthropic_model("http://unused", "claude-sonnet-4-5");
    same_events_for_all_chunkings(MockReply::anthropic(stream), body, model).await;
}

#[tokio::test]
async fn openai_chunking_never_changes_events() {
    let stream = OpenAiSse::new()
        .reasoning("caf\u{e9}")
        .text("r\u{e9}sum\u{e9} \u{4f60}\u{597d}")
        .tool_call(0, "call_9", "bash", &json!({"command": "echo \u{e9}"}))
        .finish("tool_calls")
        .usage(10, 5, 0);
    let body = stream.build();
    let model = openai_model("http://unused", "gpt-test");
    same_events_for_all_chunkings(MockReply::openai(stream), body, model).await;
}

#[tokio::test]
async fn abort_mid_stream_reports_aborted_and_closes_the_connection() {
    let server = MockServer::start();
    let partial = AnthropicSse::new()
        .message_start("msg_abort", 3)
        .text("This reply never finishes");
    server.push(MockReply::anthropic(partial).chunked(&[40]).hold_open());
    let model = anthropic_model(&server.anthropic_base_url(), "claude-sonnet-4-5");
    let opts = options();
    let signal = opts.signal.clone();
    let mut stream = ProviderRegistry::builtin().stream(model, user_context("x"), opts);
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
    assert_eq!(msg.error_message.as_deref(), Some("Request was aborted"));
    assert!(!msg.text().is_empty());
    assert!(
        server.wait_for_disconnects(1, Duration::from_secs(5)),
        "the HTTP stream was not closed after abort"
    );
}

#[tokio::test]
async fn mid_stream_errors_fail_the_reply() {
    let server = MockServer::start();
    server.push(MockReply::anthropic(
        AnthropicSse::new()
            .message_start("m", 1)
            .text("par")
            .error("overloaded_error", "Overloaded"),
    ));
    server.push(MockReply::openai(
        OpenAiSse::new().text("par").error("upstream exploded"),
    ));
    let a = anthropic_model(&server.anthropic_base_url(), "claude-sonnet-4-5");
    let (_, msg) = collect(&a, user_context("x"), options()).await;
    assert_eq!(msg.stop_reason, StopReason::Error);
    assert_eq!(
        msg.error_message.as_deref(),
        Some("overloaded_error: Overloaded")
    );
    assert_eq!(msg.text(), "par");
    assert!(pi::ai::errors::is_retryable(&msg));

    let o = openai_model(&server.openai_base_url(), "gpt-test");
    let (_, msg) = collect(&o, user_context("x"), options()).await;
    assert_eq!(msg.stop_reason, StopReason::Error);
    assert_eq!(
        msg.error_message.as_deref(),
        Some("server_error: upstream exploded")
    );
}

#[tokio::test]
async fn truncated_anthropic_stream_is_an_error() {
    let server = MockServer::start();
    server.push(MockReply::anthropic(
        AnthropicSse::new().message_start("m", 1).text("half"),
    ));
    let model = anthropic_model(&server.anthropic_base_url(), "claude-sonnet-4-5");
    let (_, msg) = collect(&model, user_context("x"), options()).await;
    assert_eq!(msg.stop_reason, StopReason::Error);
    assert!(
        msg.error_message
            .unwrap()
            .contains("ended before message_stop")
    );
}
