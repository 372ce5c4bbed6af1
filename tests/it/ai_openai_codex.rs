//! The `openai-codex-responses` protocol (the ChatGPT backend behind a Codex
//! subscription) against the mock server: the request's URL, headers and
//! body, a full reply ending in `response.done`, a token without an account
//! id, and `pi` using a stored Codex login end to end.

use crate::support;
use crate::support::pi_cli;

use std::sync::Arc;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use pi::ai::model::{Model, ThinkingLevel};
use pi::ai::stream::StreamOptions;
use pi::ai::types::{Context, StopReason, ToolSpec};
use pi::ai::types::{Message, UserMessage, now_ms};
use pi_cli::PiSandbox;
use serde_json::{Value, json};
use support::llm::{collect, kinds};
use support::{MockReply, MockServer};

fn jwt(account: Option<&str>) -> String {
    let claims = match account {
        Some(a) => json!({"https://api.openai.com/auth": {"chatgpt_account_id": a}}),
        None => json!({"sub": "user"}),
    };
    format!(
        "eyJhbGciOiJub25lIn0.{}.sig",
        URL_SAFE_NO_PAD.encode(claims.to_string())
    )
}

fn codex_model(base_url: &str) -> Model {
    serde_json::from_value(json!({
        "id": "gpt-5.4", "name": "GPT-5.4", "api": "openai-codex-responses",
        "provider": "openai-codex", "baseUrl": base_url, "reasoning": true,
        "input": ["text", "image"],
        "cost": {"input": 2.5, "output": 15.0, "cacheRead": 0.25, "cacheWrite": 0.0},
        "contextWindow": 272000, "maxTokens": 128000
    }))
    .unwrap()
}

fn sse(events: &[Value]) -> String {
    events
        .iter()
        .map(|e| format!("event: {}\ndata: {}\n\n", e["type"].as_str().unwrap(), e))
        .collect()
}

fn full_stream() -> Vec<Value> {
    vec![
        json!({"type": "response.created", "response": {"id": "resp_c1", "status": "in_progress"}}),
        json!({"type": "response.output_item.added", "output_index": 0,
               "item": {"type": "reasoning", "id": "rs_1", "summary": []}}),
        json!({"type": "response.reasoning_summary_part.added", "output_index": 0, "summary_index": 0}),
        json!({"type": "response.reasoning_summary_text.delta", "output_index": 0, "delta": "Plan it."}),
        json!({"type": "response.output_item.done", "output_index": 0,
               "item": {"type": "reasoning", "id": "rs_1", "encrypted_content": "ENC",
                        "summary": [{"type": "summary_text", "text": "Plan it."}]}}),
        json!({"type": "response.output_item.added", "output_index": 1,
               "item": {"type": "message", "id": "msg_1", "role": "assistant", "content": []}}),
        json!({"type": "response.output_text.delta", "output_index": 1, "delta": "Checking."}),
        json!({"type": "response.output_item.done", "output_index": 1,
               "item": {"type": "message", "id": "msg_1"}}),
        json!({"type": "response.output_item.added", "output_index": 2,
               "item": {"type": "function_call", "id": "fc_1", "call_id": "call_a", "name": "bash", "arguments": ""}}),
        json!({"type": "response.function_call_arguments.delta", "output_index": 2, "delta": "{\"command\":\"ls\"}"}),
        json!({"type": "response.output_item.done", "output_index": 2,
               "item": {"type": "function_call", "id": "fc_1", "call_id": "call_a", "name": "bash",
                        "arguments": "{\"command\":\"ls\"}"}}),
        json!({"type": "response.output_item.added", "output_index": 3,
               "item": {"type": "function_call", "id": "fc_2", "call_id": "call_b", "name": "read", "arguments": ""}}),
        json!({"type": "response.output_item.done", "output_index": 3,
               "item": {"type": "function_call", "id": "fc_2", "call_id": "call_b", "name": "read",
                        "arguments": "{\"path\":\"a.rs\"}"}}),
        json!({"type": "response.done", "response": {"id": "resp_c1", "status": "completed",
               "usage": {"input_tokens": 1200, "input_tokens_details": {"cached_tokens": 1000},
                         "output_tokens": 40, "total_tokens": 1240}}}),
    ]
}

fn tool_context() -> Arc<Context> {
    Arc::new(Context {
        system_prompt: Some("You are pi.".into()),
        messages: vec![Message::User(UserMessage::text("go"))],
        tools: vec![ToolSpec {
            name: "bash".into(),
            description: "Run a command".into(),
            parameters: json!({"type": "object", "properties": {"command": {"type": "string"}},
                               "required": ["command"]}),
        }],
    })
}

#[tokio::test]
async fn full_reply_request_shape_and_cost() {
    let server = MockServer::start();
    server.push(MockReply::sse(sse(&full_stream())));
    let model = codex_model(&format!("{}/backend-api", server.url()));
    let opts = StreamOptions {
        api_key: Some(jwt(Some("acct-42"))),
        reasoning: Some(ThinkingLevel::High),
        session_id: Some("sess-9".into()),
        ..Default::default()
    };
    let (events, msg) = collect(&model, tool_context(), opts).await;
    assert_eq!(
        msg.stop_reason,
        StopReason::ToolUse,
        "{:?}",
        msg.error_message
    );
    assert_eq!(msg.api, "openai-codex-responses");
    assert_eq!(msg.text(), "Checking.");
    let calls = msg.tool_calls();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].arguments, json!({"command": "ls"}));
    assert_eq!(calls[1].arguments, json!({"path": "a.rs"}));
    assert_eq!(
        (msg.usage.input, msg.usage.output, msg.usage.cache_read),
        (200, 40, 1000)
    );
    let expected = (200.0 * 2.5 + 40.0 * 15.0 + 1000.0 * 0.25) / 1e6;
    assert!((msg.usage.cost.total - expected).abs() < 1e-12);
    let k = kinds(&events);
    assert!(k.contains(&"thinking_delta".to_string()), "{k:?}");
    assert_eq!(k.last().map(String::as_str), Some("done"));

    let req = server.last_request().unwrap();
    assert_eq!(req.path, "/backend-api/codex/responses");
    assert_eq!(
        req.header("authorization"),
        Some(format!("Bearer {}", jwt(Some("acct-42"))).as_str())
    );
    assert_eq!(req.header("chatgpt-account-id"), Some("acct-42"));
    assert_eq!(req.header("openai-beta"), Some("responses=experimental"));
    assert_eq!(req.header("originator"), Some("pi"));
    assert_eq!(req.header("session_id"), Some("sess-9"));
    assert_eq!(req.header("accept"), Some("text/event-stream"));
    assert!(req.header("user-agent").unwrap().starts_with("pi ("));
    let body = req.json();
    assert_eq!(body["model"], "gpt-5.4");
    assert_eq!(body["instructions"], "You are pi.");
    assert_eq!(body["store"], false);
    assert_eq!(body["stream"], true);
    assert_eq!(body["include"], json!(["reasoning.encrypted_content"]));
    assert_eq!(
        body["reasoning"],
        json!({"effort": "high", "summary": "auto"})
    );
    assert_eq!(body["prompt_cache_key"], "sess-9");
    assert!(body.get("max_output_tokens").is_none());
    assert_eq!(body["input"][0]["role"], "user");
    assert!(
        body["input"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i["role"] != "system" && i["role"] != "developer"),
        "the system prompt goes only into instructions"
    );
    assert_eq!(
        body["tools"],
        json!([{"type": "function", "name": "bash", "description": "Run a command",
                "parameters": {"type": "object", "properties": {"command": {"type": "string"}},
                               "required": ["command"]}}])
    );
}

#[tokio::test]
async fn a_token_without_an_account_id_asks_for_login() {
    let server = MockServer::start();
    let model = codex_model(&server.url());
    let opts = StreamOptions {
        api_key: Some(jwt(None)),
        ..Default::default()
    };
    let (_, msg) = collect(&model, tool_context(), opts).await;
    assert_eq!(msg.stop_reason, StopReason::Error);
    let err = msg.error_message.unwrap();
    assert!(err.contains("/login openai-codex"), "{err}");
    assert_eq!(server.request_count(), 0);
}

#[test]
fn pi_uses_a_stored_codex_login() {
    let server = MockServer::start();
    server.push(MockReply::sse(sse(&[
        json!({"type": "response.created", "response": {"id": "r", "status": "in_progress"}}),
        json!({"type": "response.output_item.added", "output_index": 0,
               "item": {"type": "message", "id": "m", "role": "assistant", "content": []}}),
        json!({"type": "response.output_text.delta", "output_index": 0, "delta": "hello from chatgpt"}),
        json!({"type": "response.done", "response": {"id": "r", "status": "completed",
               "usage": {"input_tokens": 5, "output_tokens": 3, "total_tokens": 8}}}),
    ])));
    let sandbox = PiSandbox::new();
    let base = format!("{}/backend-api", server.url());
    sandbox.write_agent_file(
        "models.json",
        &json!({"providers": {"openai-codex": {"baseUrl": base}}}).to_string(),
    );
    let access = jwt(Some("acct-7"));
    sandbox.write_agent_file(
        "auth.json",
        &json!({"openai-codex": {"type": "oauth", "access": access, "refresh": "r1",
                                  "expires": now_ms() + 3_600_000, "accountId": "acct-7"}})
        .to_string(),
    );
    let out = sandbox.run(
        &[
            "--provider",
            "openai-codex",
            "--model",
            "gpt-5.4",
            "-p",
            "hi",
        ],
        None,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout, "hello from chatgpt\n");
    let req = server.last_request().unwrap();
    assert_eq!(req.path, "/backend-api/codex/responses");
    assert_eq!(req.header("chatgpt-account-id"), Some("acct-7"));
    assert_eq!(
        req.header("authorization"),
        Some(format!("Bearer {access}").as_str())
    );
}
