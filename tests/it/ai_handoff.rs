//! Cross-provider handoff: a conversation recorded on one provider (thinking
//! with signatures, tool calls, images) continues on another. Each request is
//! checked against the target API's rules: foreign thinking travels as plain
//! text without signatures, tool-call ids satisfy the target's id rules and
//! pair up with their results, images reach vision models and are replaced
//! by a note for text-only ones.

use crate::support;

use std::sync::Arc;

use pi::ai::model::Model;
use pi::ai::types::{
    AssistantMessage, ContentBlock, Context, Message, StopReason, TextContent, ThinkingContent,
    ToolCall, ToolResultMessage, ToolSpec, UserContent, UserMessage,
};
use regex::Regex;
use serde_json::{Value, json};
use support::llm::{anthropic_model, collect, openai_model, options};
use support::{MockReply, MockServer};

const IMAGE: &str = "iVBORw0KGgo=";

fn model(api: &str, provider: &str, id: &str, base_url: &str, vision: bool) -> Model {
    let input = if vision {
        json!(["text", "image"])
    } else {
        json!(["text"])
    };
    serde_json::from_value(json!({
        "id": id, "name": id, "api": api, "provider": provider, "baseUrl": base_url,
        "reasoning": true, "input": input, "contextWindow": 200000, "maxTokens": 32000
    }))
    .unwrap()
}

fn assistant(
    api: &str,
    provider: &str,
    model: &str,
    content: Vec<ContentBlock>,
    stop: StopReason,
) -> Message {
    let mut a = AssistantMessage::empty(api, provider, model);
    a.content = content;
    a.stop_reason = stop;
    Message::Assistant(a)
}

fn call(id: &str, name: &str, args: Value) -> ContentBlock {
    ContentBlock::ToolCall(ToolCall {
        id: id.into(),
        name: name.into(),
        arguments: args,
        thought_signature: None,
        raw_arguments: None,
    })
}

fn result(id: &str, name: &str, content: Vec<ContentBlock>) -> Message {
    Message::ToolResult(ToolResultMessage {
        tool_call_id: id.into(),
        tool_name: name.into(),
        content,
        details: None,
        is_error: false,
        timestamp: 0,
    })
}

/// A session recorded on `api`/`provider`: image prompt, signed thinking,
/// text, two tool calls (one result carries an image), a final answer.
fn session(api: &str, provider: &str, model_id: &str, ids: [&str; 2]) -> Arc<Context> {
    let thinking = ContentBlock::Thinking(ThinkingContent {
        thinking: "The user wants the files listed.".into(),
        thinking_signature: Some("EqQBCkYIBxgCKkBsignature-from-anthropic".into()),
        redacted: None,
    });
    let text = ContentBlock::Text(TextContent {
        text: "Looking around.".into(),
        text_signature: None,
    });
    let messages = vec![
        Message::User(UserMessage {
            content: UserContent::Blocks(vec![
                ContentBlock::text("What is in this screenshot and the repo?"),
                ContentBlock::image(IMAGE, "image/png"),
            ]),
            timestamp: 0,
        }),
        assistant(
            api,
            provider,
            model_id,
            vec![
                thinking,
                text,
                call(ids[0], "bash", json!({"command": "ls"})),
                call(ids[1], "read", json!({"path": "shot.png"})),
            ],
            StopReason::ToolUse,
        ),
        result(ids[0], "bash", vec![ContentBlock::text("a.rs\nshot.png")]),
        result(
            ids[1],
            "read",
            vec![ContentBlock::image(IMAGE, "image/png")],
        ),
        assistant(
            api,
            provider,
            model_id,
            vec![ContentBlock::text("Two files.")],
            StopReason::Stop,
        ),
        Message::User(UserMessage::text("Continue, please.")),
    ];
    Arc::new(Context {
        system_prompt: Some("You are a test.".into()),
        messages,
        tools: vec![ToolSpec {
            name: "bash".into(),
            description: "Run a command".into(),
            parameters: json!({"type": "object", "properties": {"command": {"type": "string"}}}),
        }],
    })
}

fn anthropic_session() -> Arc<Context> {
    session(
        "anthropic-messages",
        "anthropic",
        "claude-sonnet-4-5",
        ["toolu_01A09q90qw90lq917835lq9", "toolu_01B7xZ.weird/id"],
    )
}

/// Run one request on `model` and return the body it sent; the reply must succeed.
async fn send(server: &MockServer, reply: MockReply, model: &Model, ctx: Arc<Context>) -> Value {
    server.push(reply);
    let (_, msg) = collect(model, ctx, options()).await;
    assert_eq!(msg.stop_reason, StopReason::Stop, "{:?}", msg.error_message);
    server.last_request().unwrap().json().clone()
}

fn text_of(body: &Value) -> String {
    body.to_string()
}

fn assert_no_foreign_signatures(body: &Value) {
    let s = text_of(body);
    assert!(
        !s.contains("signature-from-anthropic"),
        "signature leaked: {s}"
    );
    assert!(
        s.contains("The user wants the files listed."),
        "thinking text kept as text"
    );
}

#[tokio::test]
async fn anthropic_session_continues_on_openai_completions() {
    let server = MockServer::start();
    let model = openai_model(&server.openai_base_url(), "gpt-4o");
    let body = send(
        &server,
        MockReply::openai_text("ok"),
        &model,
        anthropic_session(),
    )
    .await;
    assert_no_foreign_signatures(&body);
    let msgs = body["messages"].as_array().unwrap();
    let assistant = msgs.iter().find(|m| m["tool_calls"].is_array()).unwrap();
    let ids: Vec<&str> = assistant["tool_calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    let results: Vec<&str> = msgs
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["tool_call_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, results, "every tool result answers a call");
    assert!(
        text_of(&body).contains(IMAGE),
        "vision model receives the images"
    );
}

#[tokio::test]
async fn anthropic_session_continues_on_openai_responses() {
    let server = MockServer::start();
    let model = model(
        "openai-responses",
        "openai",
        "gpt-5",
        &server.openai_base_url(),
        true,
    );
    let reply = MockReply::sse(
        [
            json!({"type": "response.output_item.added", "output_index": 0,
                   "item": {"type": "message", "id": "m1", "role": "assistant", "content": []}}),
            json!({"type": "response.output_text.delta", "output_index": 0, "delta": "ok"}),
            json!({"type": "response.completed", "response": {"id": "r1", "status": "completed",
                   "usage": {"input_tokens": 10, "output_tokens": 1}}}),
        ]
        .iter()
        .map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap()))
        .collect::<String>(),
    );
    let body = send(&server, reply, &model, anthropic_session()).await;
    assert_no_foreign_signatures(&body);
    let input = body["input"].as_array().unwrap();
    assert!(
        input.iter().all(|i| i["type"] != "reasoning"),
        "no foreign reasoning items"
    );
    let id_rule = Regex::new("^[A-Za-z0-9_-]{1,64}$").unwrap();
    let calls: Vec<&str> = input
        .iter()
        .filter(|i| i["type"] == "function_call")
        .map(|i| i["call_id"].as_str().unwrap())
        .collect();
    let outputs: Vec<&str> = input
        .iter()
        .filter(|i| i["type"] == "function_call_output")
        .map(|i| i["call_id"].as_str().unwrap())
        .collect();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls, outputs);
    assert!(calls.iter().all(|id| id_rule.is_match(id)), "{calls:?}");
}

#[tokio::test]
async fn anthropic_session_continues_on_google() {
    let server = MockServer::start();
    let model = model(
        "google-generative-ai",
        "google",
        "gemini-2.5-flash",
        &server.url(),
        true,
    );
    let reply = MockReply::sse(format!(
        "data: {}\n\n",
        json!({"candidates": [{"content": {"parts": [{"text": "ok"}]}, "finishReason": "STOP"}]})
    ));
    let body = send(&server, reply, &model, anthropic_session()).await;
    assert_no_foreign_signatures(&body);
    let contents = body["contents"].as_array().unwrap();
    let s = text_of(&body);
    assert!(
        !s.contains("\"thought\":true"),
        "foreign thinking is not a thought part"
    );
    assert!(!s.contains("thoughtSignature"));
    let calls: Vec<&str> = contents
        .iter()
        .flat_map(|c| c["parts"].as_array().unwrap())
        .filter_map(|p| p["functionCall"]["name"].as_str())
        .collect();
    let responses: Vec<&str> = contents
        .iter()
        .flat_map(|c| c["parts"].as_array().unwrap())
        .filter_map(|p| p["functionResponse"]["name"].as_str())
        .collect();
    assert_eq!(calls, ["bash", "read"]);
    assert_eq!(calls, responses);
    assert!(
        contents
            .iter()
            .all(|c| c["role"] == "user" || c["role"] == "model")
    );
    assert!(s.contains(IMAGE));
}

#[tokio::test]
async fn text_only_target_gets_image_notes_instead_of_images() {
    let server = MockServer::start();
    let model = model(
        "openai-completions",
        "openai",
        "gpt-3.5-turbo",
        &server.openai_base_url(),
        false,
    );
    let body = send(
        &server,
        MockReply::openai_text("ok"),
        &model,
        anthropic_session(),
    )
    .await;
    let s = text_of(&body);
    assert!(!s.contains(IMAGE), "no image data for a text-only model");
    assert!(
        s.contains("image omitted: model does not support images"),
        "{s}"
    );
}

#[tokio::test]
async fn responses_session_with_pipe_ids_continues_on_anthropic() {
    let server = MockServer::start();
    let ctx = session(
        "openai-responses",
        "openai",
        "gpt-5",
        [
            "call_abc|fc_0123456789abcdef",
            "call_def|fc_fedcba9876543210",
        ],
    );
    let model = anthropic_model(&server.anthropic_base_url(), "claude-sonnet-4-5");
    let body = send(&server, MockReply::anthropic_text("ok"), &model, ctx).await;
    let id_rule = Regex::new("^[a-zA-Z0-9_-]+$").unwrap();
    let mut uses = Vec::new();
    let mut results = Vec::new();
    for m in body["messages"].as_array().unwrap() {
        for block in m["content"].as_array().into_iter().flatten() {
            match block["type"].as_str() {
                Some("tool_use") => uses.push(block["id"].as_str().unwrap().to_string()),
                Some("tool_result") => {
                    results.push(block["tool_use_id"].as_str().unwrap().to_string())
                }
                Some("thinking") => panic!("foreign thinking must not be a thinking block"),
                _ => {}
            }
        }
    }
    assert_eq!(uses.len(), 2);
    assert_eq!(uses, results);
    assert!(uses.iter().all(|id| id_rule.is_match(id)), "{uses:?}");
}
