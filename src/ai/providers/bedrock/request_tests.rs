use super::*;
use crate::ai::types::{
    AssistantMessage, StopReason, ThinkingContent, ToolCall, ToolResultMessage, ToolSpec,
    UserMessage,
};

fn model(id: &str) -> Model {
    serde_json::from_value(
        json!({"id": id, "name": id, "api": "bedrock-converse-stream",
        "provider": "amazon-bedrock", "baseUrl": "https://bedrock-runtime.us-east-1.amazonaws.com",
        "reasoning": true, "input": ["text", "image"], "maxTokens": 64000}),
    )
    .unwrap()
}

fn context(model_id: &str) -> Context {
    let mut a = AssistantMessage::empty("bedrock-converse-stream", "amazon-bedrock", model_id);
    a.content = vec![
        ContentBlock::Thinking(ThinkingContent {
            thinking: "plan".into(),
            thinking_signature: Some("sig".into()),
            redacted: None,
        }),
        ContentBlock::ToolCall(ToolCall {
            id: "t1".into(),
            name: "ls".into(),
            arguments: json!({}),
            thought_signature: None,
            raw_arguments: None,
        }),
        ContentBlock::ToolCall(ToolCall {
            id: "t2".into(),
            name: "read".into(),
            arguments: json!({"path": "a"}),
            thought_signature: None,
            raw_arguments: None,
        }),
    ];
    a.stop_reason = StopReason::ToolUse;
    let result = |id: &str, content, is_error| {
        Message::ToolResult(ToolResultMessage {
            tool_call_id: id.into(),
            tool_name: "x".into(),
            content,
            details: None,
            is_error,
            timestamp: 0,
        })
    };
    Context {
        system_prompt: Some("sys".into()),
        messages: vec![
            Message::User(UserMessage::text("hi")),
            Message::Assistant(a),
            result("t1", vec![ContentBlock::text("a.rs")], false),
            result("t2", vec![ContentBlock::image("AAAA", "image/png")], true),
        ],
        tools: vec![ToolSpec {
            name: "ls".into(),
            description: "List".into(),
            parameters: json!({"type": "object"}),
        }],
    }
}

#[test]
fn claude_body_has_cache_points_thinking_and_grouped_results() {
    let id = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
    let opts = StreamOptions {
        reasoning: Some(ThinkingLevel::Medium),
        ..Default::default()
    };
    let body = build_body(&model(id), &context(id), &opts);
    assert_eq!(
        body["system"],
        json!([{"text": "sys"}, {"cachePoint": {"type": "default"}}])
    );
    assert_eq!(
        body["toolConfig"]["tools"][0]["toolSpec"]["inputSchema"]["json"],
        json!({"type": "object"})
    );
    let msgs = body["messages"].as_array().unwrap();
    assert_eq!(msgs.len(), 3);
    assert_eq!(
        msgs[1]["content"][0],
        json!({"reasoningContent": {"reasoningText": {"text": "plan", "signature": "sig"}}})
    );
    assert_eq!(msgs[1]["content"][1]["toolUse"]["toolUseId"], "t1");
    let results = msgs[2]["content"].as_array().unwrap();
    assert_eq!(results[0]["toolResult"]["status"], "success");
    assert_eq!(results[1]["toolResult"]["status"], "error");
    assert_eq!(
        results[1]["toolResult"]["content"][0]["image"]["format"],
        "png"
    );
    assert_eq!(results[2], json!({"cachePoint": {"type": "default"}}));
    let thinking = &body["additionalModelRequestFields"];
    assert_eq!(thinking["thinking"]["type"], "enabled");
    assert_eq!(thinking["thinking"]["budget_tokens"], 8192);
    assert_eq!(body["inferenceConfig"]["maxTokens"], 40192);
}

#[test]
fn adaptive_claude_and_other_models() {
    let id = "global.anthropic.claude-opus-4-6-v1";
    let opts = StreamOptions {
        reasoning: Some(ThinkingLevel::High),
        ..Default::default()
    };
    let body = build_body(&model(id), &context(id), &opts);
    assert_eq!(
        body["additionalModelRequestFields"]["thinking"]["type"],
        "adaptive"
    );
    assert_eq!(
        body["additionalModelRequestFields"]["output_config"]["effort"],
        "high"
    );
    let id = "amazon.nova-pro-v1:0";
    let body = build_body(&model(id), &context(id), &opts);
    assert!(body.get("additionalModelRequestFields").is_none());
    assert_eq!(body["system"], json!([{"text": "sys"}]));
    assert_eq!(
        body["messages"][1]["content"][0],
        json!({"reasoningContent": {"reasoningText": {"text": "plan"}}})
    );
}
