use serde_json::json;

use super::*;
use crate::ai::types::{AssistantMessage, ToolCall, ToolResultMessage, UserMessage};

fn model(id: &str) -> Model {
    serde_json::from_value(json!({
        "id": id, "name": id, "api": "anthropic-messages", "provider": "anthropic",
        "baseUrl": "http://x", "reasoning": true, "input": ["text", "image"], "maxTokens": 64000
    }))
    .unwrap()
}

fn tool(name: &str) -> ToolSpec {
    ToolSpec {
        name: name.into(),
        description: "d".into(),
        parameters: json!({"type": "object", "properties": {}}),
    }
}

fn result(id: &str, content: Vec<ContentBlock>) -> Message {
    Message::ToolResult(ToolResultMessage {
        tool_call_id: id.into(),
        tool_name: "bash".into(),
        content,
        details: None,
        is_error: false,
        timestamp: 0,
    })
}

fn own_assistant(content: Vec<ContentBlock>) -> Message {
    let mut a = AssistantMessage::empty("anthropic-messages", "anthropic", "claude-sonnet-4-5");
    a.content = content;
    Message::Assistant(a)
}

fn bash_call(id: &str) -> ContentBlock {
    ContentBlock::ToolCall(ToolCall {
        id: id.into(),
        name: "bash".into(),
        arguments: json!({}),
        thought_signature: None,
        raw_arguments: None,
    })
}

#[test]
fn oauth_tokens_authenticate_as_claude_code() {
    let m = model("claude-sonnet-4-5");
    let ctx = Context {
        system_prompt: Some("sys".into()),
        messages: vec![
            Message::User(UserMessage::text("hi")),
            own_assistant(vec![bash_call("t1")]),
            result("t1", vec![ContentBlock::text("ok")]),
        ],
        tools: vec![tool("bash"), tool("custom_tool")],
    };
    let headers = base_headers(&m, &ctx, "sk-ant-oat01-abc");
    let get = |k: &str| {
        headers
            .iter()
            .find(|(n, _)| *n == k)
            .map(|(_, v)| v.as_str())
    };
    assert_eq!(get("authorization"), Some("Bearer sk-ant-oat01-abc"));
    assert_eq!(get("x-api-key"), None);
    assert_eq!(
        get("anthropic-beta"),
        Some("claude-code-20250219,oauth-2025-04-20,interleaved-thinking-2025-05-14")
    );
    assert_eq!(get("user-agent"), Some("claude-cli/2.1.75"));

    let body = build_body(&m, &ctx, &StreamOptions::default(), true);
    assert_eq!(body["system"][0]["text"], json!(CLAUDE_CODE_IDENTITY));
    assert_eq!(body["system"][1]["text"], json!("sys"));
    assert_eq!(body["tools"][0]["name"], json!("Bash"));
    assert_eq!(body["tools"][1]["name"], json!("custom_tool"));
    assert_eq!(body["messages"][1]["content"][0]["name"], json!("Bash"));
    assert_eq!(from_claude_code_name("Bash", &ctx.tools), "bash");

    let plain = base_headers(&m, &ctx, "sk-ant-api03-x");
    assert!(
        plain
            .iter()
            .any(|(k, v)| *k == "x-api-key" && v == "sk-ant-api03-x")
    );
}

#[test]
fn tool_results_are_grouped_and_images_kept() {
    let m = model("claude-sonnet-4-5");
    let img = ContentBlock::image("QUJD", "image/png");
    let msgs = vec![
        own_assistant(vec![bash_call("t1"), bash_call("t2"), bash_call("t3")]),
        result("t1", vec![ContentBlock::text("a"), ContentBlock::text("b")]),
        result("t2", vec![ContentBlock::text("see"), img.clone()]),
        result("t3", vec![img]),
    ];
    let out = convert_messages(&msgs, &m, false, &json!({"type": "ephemeral"}));
    assert_eq!(out.len(), 2);
    let results = out[1]["content"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    assert_eq!(results[0]["content"], json!("a\nb"));
    assert_eq!(
        results[1]["content"][1]["source"]["media_type"],
        json!("image/png")
    );
    assert_eq!(
        results[2]["content"][0],
        json!({"type": "text", "text": "(see attached image)"})
    );
    assert_eq!(results[2]["cache_control"], json!({"type": "ephemeral"}));
}

#[test]
fn empty_text_is_skipped_and_unsigned_thinking_becomes_text() {
    let m = model("claude-sonnet-4-5");
    let msgs = vec![
        Message::User(UserMessage::text("   ")),
        Message::User(UserMessage {
            content: UserContent::Blocks(vec![ContentBlock::text(""), ContentBlock::text("q")]),
            timestamp: 0,
        }),
        own_assistant(vec![
            ContentBlock::Thinking(ThinkingContent {
                thinking: "[Reasoning redacted]".into(),
                thinking_signature: Some("opaque".into()),
                redacted: Some(true),
            }),
            ContentBlock::Thinking(ThinkingContent {
                thinking: "unsigned".into(),
                thinking_signature: None,
                redacted: None,
            }),
            ContentBlock::text(" "),
        ]),
    ];
    let out = convert_messages(&msgs, &m, false, &json!({"type": "ephemeral"}));
    assert_eq!(out.len(), 2);
    assert_eq!(out[0]["content"], json!([{"type": "text", "text": "q"}]));
    assert_eq!(
        out[1]["content"],
        json!([{"type": "redacted_thinking", "data": "opaque"}, {"type": "text", "text": "unsigned"}])
    );
}

#[test]
fn eager_streaming_can_be_disabled_for_proxies() {
    let mut m = model("claude-sonnet-4-6");
    m.compat = Some(json!({"supportsEagerToolInputStreaming": false}));
    let ctx = Context {
        tools: vec![tool("bash")],
        ..Default::default()
    };
    let body = build_body(&m, &ctx, &StreamOptions::default(), false);
    assert!(body["tools"][0].get("eager_input_streaming").is_none());
    let headers = base_headers(&m, &ctx, "k");
    let beta = headers
        .iter()
        .find(|(k, _)| *k == "anthropic-beta")
        .unwrap();
    assert_eq!(beta.1, FINE_GRAINED_TOOL_STREAMING_BETA);
}

#[test]
fn tool_call_ids_are_sanitised_and_truncated() {
    assert_eq!(normalize_tool_call_id("call|a+b/c="), "call_a_b_c_");
    assert_eq!(normalize_tool_call_id(&"x".repeat(100)).len(), 64);
    assert!(supports_adaptive_thinking("claude-opus-4-7"));
    assert!(!supports_adaptive_thinking("claude-sonnet-4-5"));
}
