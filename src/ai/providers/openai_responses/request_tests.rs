use serde_json::json;

use super::*;
use crate::ai::model::ThinkingLevel;
use crate::ai::types::{
    AssistantMessage, ThinkingContent, ToolCall, ToolResultMessage, UserMessage,
};

fn model() -> Model {
    serde_json::from_value(json!({
        "id": "gpt-x", "name": "gpt-x", "api": "openai-responses", "provider": "openai",
        "baseUrl": "http://x", "reasoning": true, "input": ["text"], "maxTokens": 8000
    }))
    .unwrap()
}

fn turn(
    api: &str,
    provider: &str,
    model_id: &str,
    thinking: ThinkingContent,
    id: &str,
) -> Vec<Message> {
    let mut a = AssistantMessage::empty(api, provider, model_id);
    a.content = vec![
        ContentBlock::Thinking(thinking),
        ContentBlock::text("running it"),
        ContentBlock::ToolCall(ToolCall {
            id: id.into(),
            name: "bash".into(),
            arguments: json!({"command": "ls"}),
            thought_signature: None,
            raw_arguments: None,
        }),
    ];
    vec![
        Message::User(UserMessage::text("go")),
        Message::Assistant(a),
        Message::ToolResult(ToolResultMessage {
            tool_call_id: id.into(),
            tool_name: "bash".into(),
            content: vec![ContentBlock::text("a.txt")],
            details: None,
            is_error: false,
            timestamp: 0,
        }),
    ]
}

fn context(messages: Vec<Message>) -> Context {
    Context {
        system_prompt: Some("sys".into()),
        messages,
        tools: vec![ToolSpec {
            name: "bash".into(),
            description: "run".into(),
            parameters: json!({"type": "object"}),
        }],
    }
}

#[test]
fn body_has_instructions_tools_reasoning_and_replayed_items() {
    let item =
        json!({"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "ENC"});
    let thinking = ThinkingContent {
        thinking: "summary".into(),
        thinking_signature: Some(item.to_string()),
        redacted: None,
    };
    let messages = turn(
        "openai-responses",
        "openai",
        "gpt-x",
        thinking,
        "call_1|fc_1",
    );
    let options = StreamOptions {
        reasoning: Some(ThinkingLevel::High),
        ..Default::default()
    };
    let body = build_body(&model(), &context(messages), &options);
    assert_eq!(body["instructions"], "sys");
    assert_eq!(body["store"], false);
    assert_eq!(body["stream"], true);
    assert_eq!(
        body["reasoning"],
        json!({"effort": "high", "summary": "auto"})
    );
    assert_eq!(body["include"], json!(["reasoning.encrypted_content"]));
    assert_eq!(
        body["tools"],
        json!([{"type": "function", "name": "bash", "description": "run",
                "parameters": {"type": "object"}}])
    );
    let input = body["input"].as_array().unwrap();
    assert_eq!(
        input[0],
        json!({"role": "user", "content": [{"type": "input_text", "text": "go"}]})
    );
    assert_eq!(input[1], item);
    assert_eq!(input[2]["type"], "message");
    assert_eq!(input[2]["content"][0]["text"], "running it");
    assert_eq!(
        input[3],
        json!({"type": "function_call", "call_id": "call_1", "name": "bash",
               "arguments": "{\"command\":\"ls\"}"})
    );
    assert_eq!(
        input[4],
        json!({"type": "function_call_output", "call_id": "call_1", "output": "a.txt"})
    );
    assert_eq!(input.len(), 5);
}

#[test]
fn anthropic_thinking_and_tool_ids_hand_off_cleanly() {
    let thinking = ThinkingContent {
        thinking: "let me look".into(),
        thinking_signature: Some("anthropic-signature".into()),
        redacted: None,
    };
    let messages = turn(
        "anthropic-messages",
        "anthropic",
        "claude",
        thinking,
        "toolu_01.A!b",
    );
    let body = build_body(&model(), &context(messages), &StreamOptions::default());
    let input = body["input"].as_array().unwrap();
    assert!(input.iter().all(|i| i["type"] != "reasoning"), "{input:?}");
    let text: Vec<&str> = input
        .iter()
        .filter(|i| i["type"] == "message")
        .map(|i| i["content"][0]["text"].as_str().unwrap())
        .collect();
    assert!(
        text.contains(&"let me look"),
        "foreign thinking kept as text: {text:?}"
    );
    let call = input.iter().find(|i| i["type"] == "function_call").unwrap();
    let output = input
        .iter()
        .find(|i| i["type"] == "function_call_output")
        .unwrap();
    assert_eq!(call["call_id"], "toolu_01_A_b");
    assert_eq!(output["call_id"], call["call_id"]);
    assert!(body.get("reasoning").is_none());
}
