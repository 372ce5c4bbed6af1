//! The `bedrock-converse-stream` protocol against the mock server: binary
//! event-stream frames (reasoning, text, two tool uses, usage with cache
//! reads/writes), exceptions mid-stream, abort, SigV4 headers that match the
//! body sent, bearer tokens, clock-skew recovery and error bodies.

use crate::support;

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use aws_smithy_eventstream::frame::write_message_to;
use aws_smithy_types::event_stream::{Header, HeaderValue, Message};
use pi::ai::events::AssistantMessageEvent;
use pi::ai::model::Model;
use pi::ai::providers::bedrock::BedrockConverseStream;
use pi::ai::providers::bedrock::sign::{AwsCredentials, sign_request};
use pi::ai::stream::{ProviderRegistry, StreamOptions};
use pi::ai::types::{AssistantMessage, ContentBlock, StopReason};
use pi::config::config_value::Env;
use serde_json::{Value, json};
use support::llm::user_context;
use support::{MockReply, MockServer};

const MODEL_ID: &str = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
const KEYS: [(&str, &str); 4] = [
    ("AWS_ACCESS_KEY_ID", "AKIDTEST"),
    ("AWS_SECRET_ACCESS_KEY", "secret/key+TEST"),
    ("AWS_SESSION_TOKEN", "session-token"),
    ("AWS_REGION", "us-west-2"),
];

fn bedrock_model(base_url: &str) -> Model {
    serde_json::from_value(json!({
        "id": MODEL_ID, "name": "Claude Sonnet 4.5", "api": "bedrock-converse-stream",
        "provider": "amazon-bedrock", "baseUrl": base_url, "reasoning": true,
        "input": ["text", "image"],
        "cost": {"input": 3.0, "output": 15.0, "cacheRead": 0.3, "cacheWrite": 3.75},
        "contextWindow": 200000, "maxTokens": 64000
    }))
    .unwrap()
}

fn frame_with(headers: &[(&str, &str)], payload: &Value) -> Vec<u8> {
    let mut message = Message::new(payload.to_string().into_bytes());
    for (name, value) in headers {
        message = message.add_header(Header::new(
            name.to_string(),
            HeaderValue::String(value.to_string().into()),
        ));
    }
    let mut buf = Vec::new();
    write_message_to(&message, &mut buf).unwrap();
    buf
}

fn event(kind: &str, payload: Value) -> Vec<u8> {
    frame_with(
        &[
            (":message-type", "event"),
            (":event-type", kind),
            (":content-type", "application/json"),
        ],
        &payload,
    )
}

fn full_stream() -> Vec<Vec<u8>> {
    vec![
        event("messageStart", json!({"role": "assistant"})),
        event(
            "contentBlockDelta",
            json!({"contentBlockIndex": 0, "delta": {"reasoningContent": {"text": "Plan: list "}}}),
        ),
        event(
            "contentBlockDelta",
            json!({"contentBlockIndex": 0, "delta": {"reasoningContent": {"text": "then read."}}}),
        ),
        event(
            "contentBlockDelta",
            json!({"contentBlockIndex": 0, "delta": {"reasoningContent": {"signature": "SIG=="}}}),
        ),
        event("contentBlockStop", json!({"contentBlockIndex": 0})),
        event(
            "contentBlockDelta",
            json!({"contentBlockIndex": 1, "delta": {"text": "Let me "}}),
        ),
        event(
            "contentBlockDelta",
            json!({"contentBlockIndex": 1, "delta": {"text": "look."}}),
        ),
        event("contentBlockStop", json!({"contentBlockIndex": 1})),
        event(
            "contentBlockStart",
            json!({"contentBlockIndex": 2, "start": {"toolUse": {"toolUseId": "tooluse_a", "name": "bash"}}}),
        ),
        event(
            "contentBlockDelta",
            json!({"contentBlockIndex": 2, "delta": {"toolUse": {"input": "{\"command\":"}}}),
        ),
        event(
            "contentBlockDelta",
            json!({"contentBlockIndex": 2, "delta": {"toolUse": {"input": "\"ls\"}"}}}),
        ),
        event("contentBlockStop", json!({"contentBlockIndex": 2})),
        event(
            "contentBlockStart",
            json!({"contentBlockIndex": 3, "start": {"toolUse": {"toolUseId": "tooluse_b", "name": "read"}}}),
        ),
        event(
            "contentBlockDelta",
            json!({"contentBlockIndex": 3, "delta": {"toolUse": {"input": "{\"path\":\"a.rs\"}"}}}),
        ),
        event("contentBlockStop", json!({"contentBlockIndex": 3})),
        event("messageStop", json!({"stopReason": "tool_use"})),
        event(
            "metadata",
            json!({"usage": {"inputTokens": 200, "outputTokens": 50, "cacheReadInputTokens": 1000,
            "cacheWriteInputTokens": 100, "totalTokens": 1350}, "metrics": {"latencyMs": 900}}),
        ),
    ]
}

fn stream_reply(frames: &[Vec<u8>]) -> MockReply {
    MockReply::status(200)
        .header("content-type", "application/vnd.amazon.eventstream")
        .body(frames.concat())
}

fn registry(env: &[(&str, &str)]) -> ProviderRegistry {
    let mut r = ProviderRegistry::default();
    r.register(Arc::new(BedrockConverseStream::with_env(Env::from_pairs(
        env,
    ))));
    r
}

async fn run(registry: &ProviderRegistry, model: Model) -> (Vec<String>, AssistantMessage) {
    let mut stream = registry.stream(model, user_context("go"), StreamOptions::default());
    let mut kinds = Vec::new();
    while let Some(ev) = stream.next().await {
        kinds.push(
            serde_json::to_value(&ev).unwrap()["type"]
                .as_str()
                .unwrap()
                .to_string(),
        );
    }
    (kinds, stream.result().await)
}

#[tokio::test]
async fn reasoning_text_two_tool_uses_usage_and_a_verifiable_signature() {
    let server = MockServer::start();
    server.push(stream_reply(&full_stream()).chunked(&[29]));
    let (kinds, msg) = run(&registry(&KEYS), bedrock_model(&server.url())).await;
    assert_eq!(
        msg.stop_reason,
        StopReason::ToolUse,
        "{:?}",
        msg.error_message
    );
    let ContentBlock::Thinking(t) = &msg.content[0] else {
        panic!("{:?}", msg.content)
    };
    assert_eq!(t.thinking, "Plan: list then read.");
    assert_eq!(t.thinking_signature.as_deref(), Some("SIG=="));
    assert_eq!(msg.text(), "Let me look.");
    let calls = msg.tool_calls();
    assert_eq!(calls.len(), 2);
    assert_eq!(
        (calls[0].id.as_str(), calls[0].name.as_str()),
        ("tooluse_a", "bash")
    );
    assert_eq!(calls[0].arguments, json!({"command": "ls"}));
    assert_eq!(calls[1].arguments, json!({"path": "a.rs"}));
    let u = &msg.usage;
    assert_eq!(
        (
            u.input,
            u.output,
            u.cache_read,
            u.cache_write,
            u.total_tokens
        ),
        (200, 50, 1000, 100, 1350)
    );
    let expected = (200.0 * 3.0 + 50.0 * 15.0 + 1000.0 * 0.3 + 100.0 * 3.75) / 1e6;
    assert!((u.cost.total - expected).abs() < 1e-12, "{}", u.cost.total);
    assert_eq!(kinds.iter().filter(|k| *k == "toolcall_end").count(), 2);
    assert_eq!(kinds.last().map(String::as_str), Some("done"));

    let req = server.last_request().unwrap();
    let path = "/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream";
    assert_eq!(req.path, path);
    assert_eq!(req.header("x-amz-security-token"), Some("session-token"));
    let auth = req.header("authorization").unwrap();
    let date = req.header("x-amz-date").unwrap();
    assert!(
        auth.starts_with(&format!(
            "AWS4-HMAC-SHA256 Credential=AKIDTEST/{}/us-west-2/bedrock/aws4_request",
            &date[..8]
        )),
        "{auth}"
    );
    // Re-signing exactly what arrived reproduces the signature: body and headers are the signed ones.
    let time = chrono::NaiveDateTime::parse_from_str(date, "%Y%m%dT%H%M%SZ")
        .unwrap()
        .and_utc();
    let time = SystemTime::UNIX_EPOCH + Duration::from_secs(time.timestamp() as u64);
    let signed_headers = ["host", "content-type", "accept"]
        .iter()
        .map(|h| (h.to_string(), req.header(h).unwrap().to_string()))
        .collect::<Vec<_>>();
    let creds = AwsCredentials {
        access_key_id: "AKIDTEST".into(),
        secret_access_key: "secret/key+TEST".into(),
        session_token: Some("session-token".into()),
    };
    let again = sign_request(
        "POST",
        &format!("{}{path}", server.url()),
        &signed_headers,
        &req.body,
        &creds,
        "us-west-2",
        "bedrock",
        time,
    )
    .unwrap();
    let again_auth = again.iter().find(|(k, _)| k == "authorization").unwrap();
    assert_eq!(again_auth.1, auth);
    let body = req.json();
    assert_eq!(body["system"][0]["text"], "You are a test.");
    assert_eq!(body["messages"][0]["content"][0]["text"], "go");
}

#[tokio::test]
async fn exception_mid_stream_keeps_partial_text() {
    let server = MockServer::start();
    let mut frames = full_stream()[..7].to_vec();
    frames.push(frame_with(
        &[
            (":message-type", "exception"),
            (":exception-type", "throttlingException"),
        ],
        &json!({"message": "Too many requests, please wait before trying again."}),
    ));
    server.push(stream_reply(&frames));
    let (kinds, msg) = run(&registry(&KEYS), bedrock_model(&server.url())).await;
    assert_eq!(msg.stop_reason, StopReason::Error);
    assert_eq!(
        msg.error_message.as_deref(),
        Some("throttlingException: Too many requests, please wait before trying again.")
    );
    assert_eq!(msg.text(), "Let me look.");
    assert!(pi::ai::errors::is_retryable(&msg));
    assert_eq!(kinds.last().map(String::as_str), Some("error"));
}

#[tokio::test]
async fn stream_without_message_stop_is_an_error_with_partial_content() {
    let server = MockServer::start();
    server.push(stream_reply(&full_stream()[..7]));
    let (_, msg) = run(&registry(&KEYS), bedrock_model(&server.url())).await;
    assert_eq!(msg.stop_reason, StopReason::Error);
    assert!(
        msg.error_message
            .as_deref()
            .unwrap()
            .contains("messageStop")
    );
    assert_eq!(msg.text(), "Let me look.");
}

#[tokio::test]
async fn abort_mid_stream_reports_aborted() {
    let server = MockServer::start();
    server.push(stream_reply(&full_stream()[..7]).chunked(&[40]).hold_open());
    let opts = StreamOptions::default();
    let signal = opts.signal.clone();
    let mut stream = registry(&KEYS).stream(bedrock_model(&server.url()), user_context("x"), opts);
    let mut saw_delta = false;
    while let Some(ev) = stream.next().await {
        if matches!(ev, AssistantMessageEvent::TextDelta { .. }) && !saw_delta {
            saw_delta = true;
            signal.cancel();
        }
    }
    assert!(saw_delta);
    assert_eq!(stream.result().await.stop_reason, StopReason::Aborted);
    assert!(server.wait_for_disconnects(1, Duration::from_secs(5)));
}

#[tokio::test]
async fn clock_skew_is_corrected_from_the_server_date() {
    let server = MockServer::start();
    let server_now = chrono::Utc::now() + chrono::Duration::minutes(20);
    server.push(
        MockReply::status(403)
            .header("x-amzn-errortype", "InvalidSignatureException:http://internal.amazon.com/coral/com.amazon.coral.service/")
            .header("date", &server_now.to_rfc2822())
            .json_body(json!({"message": "Signature not yet current: 20261122T120000Z is still later than 20261122T115500Z (20261122T114000Z + 15 min.)"})),
    );
    server.push(stream_reply(&full_stream()));
    let (_, msg) = run(&registry(&KEYS), bedrock_model(&server.url())).await;
    assert_eq!(
        msg.stop_reason,
        StopReason::ToolUse,
        "{:?}",
        msg.error_message
    );
    let reqs = server.requests();
    assert_eq!(reqs.len(), 2);
    let second = chrono::NaiveDateTime::parse_from_str(
        reqs[1].header("x-amz-date").unwrap(),
        "%Y%m%dT%H%M%SZ",
    )
    .unwrap()
    .and_utc();
    assert!(
        (second - server_now).num_seconds().abs() <= 5,
        "{second} vs {server_now}"
    );
}

#[tokio::test]
async fn persistent_skew_tells_the_user_to_check_the_clock() {
    let server = MockServer::start();
    let skewed = MockReply::status(403)
        .header("date", &(chrono::Utc::now() - chrono::Duration::hours(1)).to_rfc2822())
        .json_body(json!({"message": "Signature expired: 20261122T120000Z is now earlier than 20261122T130000Z"}));
    server.push(skewed.clone());
    server.push(skewed);
    let (_, msg) = run(&registry(&KEYS), bedrock_model(&server.url())).await;
    let err = msg.error_message.unwrap();
    assert!(err.starts_with("403 Signature expired"), "{err}");
    assert!(err.contains("check the system clock"), "{err}");
}

#[tokio::test]
async fn bearer_token_and_error_bodies() {
    let server = MockServer::start();
    server.push(
        MockReply::status(400)
            .header(
                "x-amzn-errortype",
                "ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/",
            )
            .json_body(json!({"message": "The provided model identifier is invalid."})),
    );
    let env = [
        ("AWS_BEARER_TOKEN_BEDROCK", "bedrock-api-key"),
        ("AWS_REGION", "us-east-1"),
    ];
    let (_, msg) = run(&registry(&env), bedrock_model(&server.url())).await;
    assert_eq!(
        msg.error_message.as_deref(),
        Some("400 ValidationException: The provided model identifier is invalid.")
    );
    assert!(!pi::ai::errors::is_retryable(&msg));
    let req = server.last_request().unwrap();
    assert_eq!(req.header("authorization"), Some("Bearer bedrock-api-key"));
    assert_eq!(req.header("x-amz-date"), None);
}

#[tokio::test]
async fn missing_credentials_say_what_to_set() {
    let (_, msg) = run(
        &registry(&[("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials")]),
        bedrock_model("http://127.0.0.1:9"),
    )
    .await;
    let err = msg.error_message.unwrap();
    assert!(
        err.contains("AWS_ACCESS_KEY_ID") && err.contains("AWS_BEARER_TOKEN_BEDROCK"),
        "{err}"
    );
}
