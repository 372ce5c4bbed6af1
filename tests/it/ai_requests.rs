//! What the wire protocols send (body snapshots, headers, thinking settings)
//! and how HTTP failures are reported and classified.

use crate::support;

use std::collections::BTreeMap;
use std::sync::Arc;

use pi::ai::errors::{is_context_overflow, is_retryable};
use pi::ai::model::{Model, ThinkingLevel};
use pi::ai::stream::StreamOptions;
use pi::ai::types::{
    AssistantMessage, ContentBlock, Context, Message, StopReason, ThinkingContent, ToolCall,
    ToolResultMessage, ToolSpec, UserMessage,
};
use serde_json::{Value, json};
use support::llm::{anthropic_model, collect, openai_model, options};
use support::{MockReply, MockServer};

fn assistant(api: &str, provider: &str, model: &str, content: Vec<ContentBlock>) -> Message {
    let mut a = AssistantMessage::empty(api, provider, model);
    a.content = content;
    a.stop_reason = StopReason::ToolUse;
    Message::Assistant(a)
}

fn thinking(text: &str, sig: &str) -> ContentBlock {
    ContentBlock::Thinking(ThinkingContent {
        thinking: text.into(),
        thinking_signature: Some(sig.into()),
        redacted: None,
    })
}

fn call(id: &str, command: &str) -> ContentBlock {
    ContentBlock::ToolCall(ToolCall {
        id: id.into(),
        name: "bash".into(),
        arguments: json!({ "command": command }),
        thought_signature: None,
        raw_arguments: None,
    })
}

/// A conversation with replay from two providers, a tool result, an
/// unanswered call, an errored turn and a final user message.
fn conversation() -> Arc<Context> {
    let mut errored =
        AssistantMessage::empty("anthropic-messages", "anthropic", "claude-sonnet-4-5");
    errored.content = vec![ContentBlock::text("half a thought")];
    errored.stop_reason = StopReason::Error;
    Arc::new(Context {
        system_prompt: Some("You are pi.".into()),
        messages: vec![
            Message::User(UserMessage::text("List files")),
            assistant(
                "anthropic-messages",
                "anthropic",
                "claude-sonnet-4-5",
                vec![
                    thinking("Need ls", "sig1"),
                    ContentBlock::text("Running ls."),
                    call("toolu_1", "ls"),
                ],
            ),
            Message::ToolResult(ToolResultMessage {
                tool_call_id: "toolu_1".into(),
                tool_name: "bash".into(),
                content: vec![ContentBlock::text("a.txt\nb.txt")],
                details: None,
                is_error: false,
                timestamp: 0,
            }),
            assistant(
                "openai-completions",
                "openai",
                "gpt-test",
                vec![
                    thinking("other thought", "reasoning_content"),
                    call("call|abc+/=", "pwd"),
                ],
            ),
            Message::Assistant(errored),
            Message::User(UserMessage::text("Thanks")),
        ],
        tools: vec![ToolSpec {
            name: "bash".into(),
            description: "Run a command".into(),
            parameters: json!({"type": "object", "properties": {"command": {"type": "string"}},
                               "required": ["command"]}),
        }],
    })
}

fn with_reasoning(level: ThinkingLevel) -> StreamOptions {
    StreamOptions {
        reasoning: Some(level),
        temperature: Some(0.5),
        ..options()
    }
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap()
}

async fn captured_body(server: &MockServer, model: &Model, opts: StreamOptions) -> Value {
    let (_, msg) = collect(model, conversation(), opts).await;
    assert_ne!(
        msg.stop_reason,
        StopReason::Error,
        "{:?}",
        msg.error_message
    );
    server.last_request().unwrap().json().clone()
}

#[tokio::test]
async fn anthropic_request_body_snapshot() {
    let server = MockServer::start();
    server.push(MockReply::anthropic_text("ok"));
    let model = anthropic_model(&server.anthropic_base_url(), "claude-sonnet-4-5");
    let body = captured_body(&server, &model, with_reasoning(ThinkingLevel::Medium)).await;
    let cache = json!({"type": "ephemeral"});
    let expected = json!({
        "model": "claude-sonnet-4-5",
        "messages": [
            {"role": "user", "content": "List files"},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Need ls", "signature": "sig1"},
                {"type": "text", "text": "Running ls."},
                {"type": "tool_use", "id": "toolu_1", "name": "bash", "input": {"command": "ls"}}
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "a.txt\nb.txt", "is_error": false}
            ]},
            {"role": "assistant", "content": [
                {"type": "text", "text": "other thought"},
                {"type": "tool_use", "id": "call_abc___", "name": "bash", "input": {"command": "pwd"}}
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "call_abc___", "content": "No result provided", "is_error": true}
            ]},
            {"role": "user", "content": [{"type": "text", "text": "Thanks", "cache_control": cache}]}
        ],
        "max_tokens": 40192,
        "stream": true,
        "system": [{"type": "text", "text": "You are pi.", "cache_control": cache}],
        "tools": [{
            "name": "bash", "description": "Run a command", "eager_input_streaming": true,
            "input_schema": {"type": "object", "properties": {"command": {"type": "string"}},
                             "required": ["command"]},
            "cache_control": cache
        }],
        "thinking": {"type": "enabled", "budget_tokens": 8192, "display": "summarized"}
    });
    assert_eq!(pretty(&body), pretty(&expected));
    let req = server.last_request().unwrap();
    assert_eq!(
        req.header("anthropic-beta"),
        Some("interleaved-thinking-2025-05-14")
    );
}

#[tokio::test]
async fn anthropic_adaptive_effort_disabled_thinking_and_headers() {
    let server = MockServer::start();
    for _ in 0..3 {
        server.push(MockReply::anthropic_text("ok"));
    }
    let mut opus = anthropic_model(&server.anthropic_base_url(), "claude-opus-4-6");
    opus.thinking_level_map = Some(BTreeMap::from([(
        "xhigh".to_string(),
        Some("max".to_string()),
    )]));
    opus.headers = Some(BTreeMap::from([
        ("x-model-header".to_string(), "model".to_string()),
        ("x-both".to_string(), "model".to_string()),
    ]));
    let mut opts = with_reasoning(ThinkingLevel::Xhigh);
    opts.headers = BTreeMap::from([("X-Both".to_string(), "options".to_string())]);
    let body = captured_body(&server, &opus, opts).await;
    assert_eq!(
        body["thinking"],
        json!({"type": "adaptive", "display": "summarized"})
    );
    assert_eq!(body["output_config"], json!({"effort": "max"}));
    assert_eq!(body["max_tokens"], json!(32000));
    assert!(body.get("temperature").is_none());
    let req = server.last_request().unwrap();
    assert_eq!(req.header("anthropic-beta"), None);
    assert_eq!(req.header("x-model-header"), Some("model"));
    assert_eq!(req.header("x-both"), Some("options"));

    let body = captured_body(&server, &opus, with_reasoning(ThinkingLevel::Low)).await;
    assert_eq!(body["output_config"], json!({"effort": "low"}));

    let sonnet = anthropic_model(&server.anthropic_base_url(), "claude-sonnet-4-5");
    let body = captured_body(&server, &sonnet, with_reasoning(ThinkingLevel::Off)).await;
    assert_eq!(body["thinking"], json!({"type": "disabled"}));
    assert_eq!(body["temperature"], json!(0.5));
    assert_eq!(body["max_tokens"], json!(32000));
}

#[tokio::test]
async fn openai_request_body_snapshot() {
    let server = MockServer::start();
    server.push(MockReply::openai_text("ok"));
    let model = openai_model(&server.openai_base_url(), "gpt-test");
    let mut opts = with_reasoning(ThinkingLevel::High);
    opts.session_id = Some("sess-1".into());
    let body = captured_body(&server, &model, opts).await;
    let expected = json!({
        "model": "gpt-test",
        "messages": [
            {"role": "developer", "content": "You are pi."},
            {"role": "user", "content": "List files"},
            {"role": "assistant", "content": "Need lsRunning ls.", "tool_calls": [
                {"id": "toolu_1", "type": "function",
                 "function": {"name": "bash", "arguments": "{\"command\":\"ls\"}"}}
            ]},
            {"role": "tool", "content": "a.txt\nb.txt", "tool_call_id": "toolu_1"},
            {"role": "assistant", "content": null, "reasoning_content": "other thought", "tool_calls": [
                {"id": "call|abc+/=", "type": "function",
                 "function": {"name": "bash", "arguments": "{\"command\":\"pwd\"}"}}
            ]},
            {"role": "tool", "content": "No result provided", "tool_call_id": "call|abc+/="},
            {"role": "user", "content": "Thanks"}
        ],
        "stream": true,
        "stream_options": {"include_usage": true},
        "store": false,
        "max_completion_tokens": 32000,
        "temperature": 0.5,
        "tools": [{"type": "function", "function": {
            "name": "bash", "description": "Run a command",
            "parameters": {"type": "object", "properties": {"command": {"type": "string"}},
                           "required": ["command"]},
            "strict": false
        }}],
        "reasoning_effort": "high"
    });
    assert_eq!(pretty(&body), pretty(&expected));
}

#[tokio::test]
async fn openai_compat_flags_shape_the_request() {
    let server = MockServer::start();
    server.push(MockReply::openai_text("ok"));
    let mut model = openai_model(&server.openai_base_url(), "local-model");
    model.provider = "local".into();
    model.compat = Some(json!({
        "supportsDeveloperRole": false, "supportsReasoningEffort": false,
        "supportsUsageInStreaming": false, "maxTokensField": "max_tokens",
        "requiresToolResultName": true, "supportsStore": false, "supportsStrictMode": false
    }));
    let body = captured_body(&server, &model, with_reasoning(ThinkingLevel::High)).await;
    assert_eq!(body["messages"][0]["role"], json!("system"));
    assert_eq!(body["max_tokens"], json!(32000));
    for absent in [
        "max_completion_tokens",
        "stream_options",
        "store",
        "reasoning_effort",
    ] {
        assert!(body.get(absent).is_none(), "{absent} should be absent");
    }
    assert_eq!(body["messages"][3]["name"], json!("bash"));
    assert!(body["tools"][0]["function"].get("strict").is_none());
    // A foreign id with `|` keeps only its call part.
    assert_eq!(body["messages"][4]["tool_calls"][0]["id"], json!("call"));
}

#[tokio::test]
async fn rate_limit_carries_retry_after_and_is_retryable() {
    let server = MockServer::start();
    server.push(
        MockReply::anthropic_error(429, "rate_limit_error", "Number of requests exceeded")
            .header("retry-after", "1"),
    );
    server.push(
        MockReply::openai_error(503, "Service temporarily unavailable")
            .header("retry-after-ms", "250"),
    );
    let a = anthropic_model(&server.anthropic_base_url(), "claude-sonnet-4-5");
    let (events, msg) = collect(&a, conversation(), options()).await;
    assert_eq!(events.len(), 1, "only the error event: {events:?}");
    assert_eq!(msg.stop_reason, StopReason::Error);
    assert_eq!(
        msg.error_message.as_deref(),
        Some("429 rate_limit_error: Number of requests exceeded")
    );
    assert_eq!(msg.retry_after_ms, Some(1000));
    assert!(is_retryable(&msg));

    let o = openai_model(&server.openai_base_url(), "gpt-test");
    let (_, msg) = collect(&o, conversation(), options()).await;
    assert!(msg.error_message.as_deref().unwrap().starts_with("503 "));
    assert_eq!(msg.retry_after_ms, Some(250));
    assert!(is_retryable(&msg));
}

#[tokio::test]
async fn unauthorized_names_the_env_var_and_is_not_retryable() {
    let server = MockServer::start();
    server.push(MockReply::anthropic_error(
        401,
        "authentication_error",
        "invalid x-api-key",
    ));
    server.push(MockReply::openai_error(401, "Incorrect API key provided"));
    server.push(MockReply::status(403).body("forbidden"));
    let a = anthropic_model(&server.anthropic_base_url(), "claude-sonnet-4-5");
    let (_, msg) = collect(&a, conversation(), options()).await;
    let err = msg.error_message.clone().unwrap();
    assert!(
        err.starts_with("401 authentication_error: invalid x-api-key"),
        "{err}"
    );
    assert!(
        err.contains("ANTHROPIC_API_KEY") && err.contains("/login"),
        "{err}"
    );
    assert!(!is_retryable(&msg));

    let o = openai_model(&server.openai_base_url(), "gpt-test");
    let (_, msg) = collect(&o, conversation(), options()).await;
    let err = msg.error_message.clone().unwrap();
    assert!(err.contains("OPENAI_API_KEY"), "{err}");
    assert!(!is_retryable(&msg));

    let mut custom = openai_model(&server.openai_base_url(), "m");
    custom.provider = "my-gateway".into();
    let (_, msg) = collect(&custom, conversation(), options()).await;
    let err = msg.error_message.unwrap();
    assert!(
        err.starts_with("403 forbidden") && err.contains("my-gateway"),
        "{err}"
    );
}

#[tokio::test]
async fn context_overflow_errors_are_recognised() {
    let server = MockServer::start();
    server.push(MockReply::anthropic_error(
        400,
        "invalid_request_error",
        "prompt is too long: 213462 tokens > 200000 maximum",
    ));
    server.push(MockReply::openai_error(
        400,
        "Your input exceeds the context window of this model. Please adjust your input and try again.",
    ));
    server.push(MockReply::status(413));
    let a = anthropic_model(&server.anthropic_base_url(), "claude-sonnet-4-5");
    let (_, msg) = collect(&a, conversation(), options()).await;
    assert!(is_context_overflow(&msg, Some(200_000)));
    assert!(!is_retryable(&msg));

    let o = openai_model(&server.openai_base_url(), "gpt-test");
    let (_, msg) = collect(&o, conversation(), options()).await;
    assert!(is_context_overflow(&msg, None));

    let (_, msg) = collect(&o, conversation(), options()).await;
    assert_eq!(
        msg.error_message.as_deref(),
        Some("413 status code (no body)")
    );
    assert!(is_context_overflow(&msg, None));
}

#[tokio::test]
async fn connection_failures_are_retryable_network_errors() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let model = openai_model(&format!("http://127.0.0.1:{port}/v1"), "gpt-test");
    let (_, msg) = collect(&model, conversation(), options()).await;
    assert_eq!(msg.stop_reason, StopReason::Error);
    let err = msg.error_message.clone().unwrap();
    assert!(err.starts_with("Network error"), "{err}");
    assert!(is_retryable(&msg), "{err}");
}

#[tokio::test]
async fn missing_api_key_fails_before_any_request() {
    let server = MockServer::start();
    let mut model = openai_model(&server.openai_base_url(), "m");
    model.provider = "no-such-provider".into();
    let (_, msg) = collect(&model, conversation(), StreamOptions::default()).await;
    assert_eq!(msg.stop_reason, StopReason::Error);
    assert!(
        msg.error_message
            .unwrap()
            .starts_with("No API key for provider: no-such-provider")
    );
    assert_eq!(server.request_count(), 0);
}
