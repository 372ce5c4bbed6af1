//! The `openai-responses` protocol against the mock server: text, reasoning
//! summaries, function calls, usage and cost, failures and abort.

use crate::support;

use std::time::Duration;

use pi::ai::events::AssistantMessageEvent;
use pi::ai::model::Model;
use pi::ai::stream::ProviderRegistry;
use pi::ai::types::{ContentBlock, StopReason};
use serde_json::{Value, json};
use support::llm::{collect, kinds, options, user_context};
use support::{MockReply, MockServer};

fn responses_model(base_url: &str) -> Model {
    serde_json::from_value(json!({
        "id": "gpt-5", "name": "gpt-5", "api": "openai-responses", "provider": "openai",
        "baseUrl": base_url, "reasoning": true, "input": ["text", "image"],
        "cost": {"input": 2.0, "output": 8.0, "cacheRead": 0.5, "cacheWrite": 0.0},
        "contextWindow": 400000, "maxTokens": 128000
    }))
    .unwrap()
}

/// An SSE body of typed Responses events.
fn sse(events: &[Value]) -> String {
    events
        .iter()
        .map(|e| format!("event: {}\ndata: {}\n\n", e["type"].as_str().unwrap(), e))
        .collect()
}

fn full_stream() -> Vec<Value> {
    let reasoning = json!({"type": "reasoning", "id": "rs_1", "encrypted_content": "ENC",
        "summary": [{"type": "summary_text", "text": "Plan: list then read."}]});
    vec![
        json!({"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}}),
        json!({"type": "response.output_item.added", "output_index": 0,
               "item": {"type": "reasoning", "id": "rs_1", "summary": []}}),
        json!({"type": "response.reasoning_summary_part.added", "output_index": 0, "summary_index": 0}),
        json!({"type": "response.reasoning_summary_text.delta", "output_index": 0, "delta": "Plan: list "}),
        json!({"type": "response.reasoning_summary_text.delta", "output_index": 0, "delta": "then read."}),
        json!({"type": "response.output_item.done", "output_index": 0, "item": reasoning}),
        json!({"type": "response.output_item.added", "output_index": 1,
               "item": {"type": "message", "id": "msg_1", "role": "assistant", "content": []}}),
        json!({"type": "response.output_text.delta", "output_index": 1, "delta": "Let me "}),
        json!({"type": "response.output_text.delta", "output_index": 1, "delta": "look."}),
        json!({"type": "response.output_item.done", "output_index": 1,
               "item": {"type": "message", "id": "msg_1"}}),
        json!({"type": "response.output_item.added", "output_index": 2,
               "item": {"type": "function_call", "id": "fc_1", "call_id": "call_a", "name": "bash", "arguments": ""}}),
        json!({"type": "response.function_call_arguments.delta", "output_index": 2, "delta": "{\"command\":"}),
        json!({"type": "response.function_call_arguments.delta", "output_index": 2, "delta": "\"ls\"}"}),
        json!({"type": "response.output_item.done", "output_index": 2,
               "item": {"type": "function_call", "id": "fc_1", "call_id": "call_a", "name": "bash",
                        "arguments": "{\"command\":\"ls\"}"}}),
        json!({"type": "response.output_item.added", "output_index": 3,
               "item": {"type": "function_call", "id": "fc_2", "call_id": "call_b", "name": "read", "arguments": ""}}),
        json!({"type": "response.output_item.done", "output_index": 3,
               "item": {"type": "function_call", "id": "fc_2", "call_id": "call_b", "name": "read",
                        "arguments": "{\"path\":\"a.rs\"}"}}),
        json!({"type": "response.completed", "response": {"id": "resp_1", "status": "completed",
               "usage": {"input_tokens": 1200, "input_tokens_details": {"cached_tokens": 1000},
                         "output_tokens": 50, "output_tokens_details": {"reasoning_tokens": 20},
                         "total_tokens": 1250}}}),
    ]
}

#[tokio::test]
async fn reasoning_text_two_calls_and_cached_usage() {
    let server = MockServer::start();
    server.push(MockReply::sse(sse(&full_stream())).chunked(&[37]));
    let model = responses_model(&server.openai_base_url());
    let (events, msg) = collect(&model, user_context("go"), options()).await;
    assert_eq!(
        msg.stop_reason,
        StopReason::ToolUse,
        "{:?}",
        msg.error_message
    );
    assert_eq!(msg.response_id.as_deref(), Some("resp_1"));
    let ContentBlock::Thinking(t) = &msg.content[0] else {
        panic!("{:?}", msg.content)
    };
    assert_eq!(t.thinking, "Plan: list then read.");
    let sig: Value = serde_json::from_str(t.thinking_signature.as_deref().unwrap()).unwrap();
    assert_eq!(sig["encrypted_content"], "ENC");
    assert_eq!(msg.text(), "Let me look.");
    let calls = msg.tool_calls();
    assert_eq!(calls.len(), 2);
    assert_eq!(
        (calls[0].id.as_str(), calls[0].name.as_str()),
        ("call_a|fc_1", "bash")
    );
    assert_eq!(calls[0].arguments, json!({"command": "ls"}));
    assert_eq!(calls[1].id, "call_b|fc_2");
    assert_eq!(calls[1].arguments, json!({"path": "a.rs"}));
    let u = &msg.usage;
    assert_eq!(
        (u.input, u.output, u.cache_read, u.total_tokens),
        (200, 50, 1000, 1250)
    );
    let expected = (200.0 * 2.0 + 50.0 * 8.0 + 1000.0 * 0.5) / 1e6;
    assert!((u.cost.total - expected).abs() < 1e-12, "{}", u.cost.total);
    let k = kinds(&events);
    assert_eq!(k.first().map(String::as_str), Some("start"));
    assert_eq!(k.last().map(String::as_str), Some("done"));
    // Deltas the reader has not taken yet arrive joined: one or two.
    let thinking = k.iter().filter(|t| *t == "thinking_delta").count();
    assert!((1..=2).contains(&thinking), "{k:?}");
    assert_eq!(k.iter().filter(|t| *t == "toolcall_end").count(), 2);

    let req = server.last_request().unwrap();
    assert_eq!(req.path, "/v1/responses");
    assert_eq!(req.header("authorization"), Some("Bearer test-key"));
    let body = req.json();
    assert_eq!(body["instructions"], "You are a test.");
    assert_eq!(
        body["input"][0]["content"][0],
        json!({"type": "input_text", "text": "go"})
    );
    assert_eq!(body["store"], false);
}

#[tokio::test]
async fn response_failed_mid_stream_keeps_partial_text() {
    let server = MockServer::start();
    let mut events = full_stream()[..8].to_vec();
    events.push(
        json!({"type": "response.failed", "response": {"id": "resp_1", "status": "failed",
        "error": {"code": "server_error", "message": "The server had an error"}}}),
    );
    server.push(MockReply::sse(sse(&events)));
    let model = responses_model(&server.openai_base_url());
    let (events, msg) = collect(&model, user_context("go"), options()).await;
    assert_eq!(msg.stop_reason, StopReason::Error);
    assert_eq!(
        msg.error_message.as_deref(),
        Some("server_error: The server had an error")
    );
    assert_eq!(msg.text(), "Let me ");
    assert!(pi::ai::errors::is_retryable(&msg));
    assert_eq!(kinds(&events).last().map(String::as_str), Some("error"));
}

#[tokio::test]
async fn stream_ending_without_completion_is_an_error() {
    let server = MockServer::start();
    server.push(MockReply::sse(sse(&full_stream()[..8])));
    let model = responses_model(&server.openai_base_url());
    let (_, msg) = collect(&model, user_context("go"), options()).await;
    assert_eq!(msg.stop_reason, StopReason::Error);
    assert!(msg.error_message.unwrap().contains("response.completed"));
}

#[tokio::test]
async fn abort_mid_stream_reports_aborted() {
    let server = MockServer::start();
    server.push(
        MockReply::sse(sse(&full_stream()[..8]))
            .chunked(&[60])
            .hold_open(),
    );
    let model = responses_model(&server.openai_base_url());
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
    assert!(server.wait_for_disconnects(1, Duration::from_secs(5)));
}

#[tokio::test]
async fn azure_sends_deployment_api_version_and_api_key() {
    use pi::ai::providers::openai_responses::azure::AzureOpenAiResponses;
    use pi::config::config_value::Env;
    let server = MockServer::start();
    server.push(MockReply::sse(sse(&full_stream())));
    let mut model = responses_model(&format!("{}/openai/v1", server.url()));
    model.api = "azure-openai-responses".into();
    model.provider = "azure-openai-responses".into();
    let mut registry = ProviderRegistry::default();
    registry.register(std::sync::Arc::new(AzureOpenAiResponses::with_env(
        Env::from_pairs(&[("AZURE_OPENAI_DEPLOYMENT_NAME_MAP", "gpt-5=team-gpt5")]),
    )));
    let msg = registry
        .stream(model, user_context("go"), options())
        .result()
        .await;
    assert_eq!(
        msg.stop_reason,
        StopReason::ToolUse,
        "{:?}",
        msg.error_message
    );
    assert_eq!(msg.api, "azure-openai-responses");
    assert_eq!(msg.tool_calls().len(), 2);
    assert_eq!(msg.text(), "Let me look.");
    assert!(
        matches!(&msg.content[0], ContentBlock::Thinking(t) if t.thinking == "Plan: list then read.")
    );
    assert_eq!(
        (msg.usage.input, msg.usage.output, msg.usage.cache_read),
        (200, 50, 1000)
    );
    let expected = (200.0 * 2.0 + 50.0 * 8.0 + 1000.0 * 0.5) / 1e6;
    assert!((msg.usage.cost.total - expected).abs() < 1e-12);
    let req = server.last_request().unwrap();
    assert_eq!(req.path, "/openai/v1/responses?api-version=v1");
    assert_eq!(req.header("api-key"), Some("test-key"));
    assert_eq!(req.header("authorization"), None);
    assert_eq!(req.json()["model"], "team-gpt5");
}
