use super::*;
use crate::ai::model::ThinkingLevel;
use crate::ai::types::{
    AssistantMessage, StopReason, ThinkingContent, ToolCall, ToolResultMessage, ToolSpec,
    UserMessage,
};

fn model(id: &str) -> Model {
    serde_json::from_value(json!({
        "id": id, "name": id, "api": "google-generative-ai", "provider": "google",
        "baseUrl": "http://x", "reasoning": true, "input": ["text", "image"],
        "maxTokens": 65536
    }))
    .unwrap()
}

fn opts(level: Option<ThinkingLevel>) -> StreamOptions {
    StreamOptions {
        reasoning: level,
        ..Default::default()
    }
}

fn conversation(provider: &str, model_id: &str) -> Context {
    let mut a = AssistantMessage::empty("google-generative-ai", provider, model_id);
    a.content = vec![
        ContentBlock::Thinking(ThinkingContent {
            thinking: "think".into(),
            thinking_signature: Some("c2ln".into()),
            redacted: None,
        }),
        ContentBlock::ToolCall(ToolCall {
            id: "call|1".into(),
            name: "read".into(),
            arguments: json!({"path": "a"}),
            thought_signature: Some("c2lnMg==".into()),
            raw_arguments: None,
        }),
        ContentBlock::ToolCall(ToolCall {
            id: "call|2".into(),
            name: "ls".into(),
            arguments: json!({}),
            thought_signature: None,
            raw_arguments: None,
        }),
    ];
    a.stop_reason = StopReason::ToolUse;
    let result = |id: &str, name: &str, content: Vec<ContentBlock>, is_error| {
        Message::ToolResult(ToolResultMessage {
            tool_call_id: id.into(),
            tool_name: name.into(),
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
            result("call|2", "ls", vec![ContentBlock::text("boom")], true),
            result(
                "call|1",
                "read",
                vec![
                    ContentBlock::text("data"),
                    ContentBlock::image("AAAA", "image/png"),
                ],
                false,
            ),
        ],
        tools: vec![ToolSpec {
            name: "read".into(),
            description: "Read a file".into(),
            parameters: json!({"type": "object", "properties": {"path": {"type": "string"}}}),
        }],
    }
}

#[test]
fn body_places_system_tools_and_generation_config() {
    let m = model("gemini-2.5-pro");
    let body = build_body(
        &m,
        &conversation("google", "gemini-2.5-pro"),
        &opts(Some(ThinkingLevel::Medium)),
    );
    assert_eq!(
        body["systemInstruction"],
        json!({"parts": [{"text": "sys"}]})
    );
    assert_eq!(body["tools"][0]["functionDeclarations"][0]["name"], "read");
    assert_eq!(
        body["tools"][0]["functionDeclarations"][0]["parametersJsonSchema"]["properties"]["path"]["type"],
        "string"
    );
    assert_eq!(
        body["generationConfig"]["thinkingConfig"],
        json!({"includeThoughts": true, "thinkingBudget": 8192})
    );
    assert_eq!(body["generationConfig"]["maxOutputTokens"], 32000);
}

#[test]
fn same_model_replay_keeps_thoughts_signatures_and_groups_responses() {
    let m = model("gemini-2.5-pro");
    let contents = convert_contents(&m, &conversation("google", "gemini-2.5-pro"));
    assert_eq!(
        contents[0],
        json!({"role": "user", "parts": [{"text": "hi"}]})
    );
    let parts = &contents[1]["parts"];
    assert_eq!(contents[1]["role"], "model");
    assert_eq!(
        parts[0],
        json!({"thought": true, "text": "think", "thoughtSignature": "c2ln"})
    );
    assert_eq!(
        parts[1],
        json!({"functionCall": {"name": "read", "args": {"path": "a"}}, "thoughtSignature": "c2lnMg=="})
    );
    // Both function responses share one user turn; Gemini 2 images follow separately.
    assert_eq!(contents[2]["role"], "user");
    let responses = contents[2]["parts"].as_array().unwrap();
    assert_eq!(responses.len(), 2);
    assert_eq!(
        responses[0]["functionResponse"]["response"],
        json!({"error": "boom"})
    );
    assert_eq!(
        responses[1]["functionResponse"]["response"],
        json!({"output": "data"})
    );
    assert_eq!(contents[3]["parts"][0]["text"], "Tool result image:");
    assert_eq!(
        contents[3]["parts"][1]["inlineData"]["mimeType"],
        "image/png"
    );
}

#[test]
fn foreign_thinking_becomes_text_without_signatures() {
    let m = model("gemini-3-pro-preview");
    let contents = convert_contents(&m, &conversation("anthropic", "claude-x"));
    let parts = &contents[1]["parts"];
    assert_eq!(parts[0], json!({"text": "think"}));
    assert!(parts[1].get("thoughtSignature").is_none());
    // Gemini 3 nests tool-result images inside the function response.
    assert_eq!(
        contents[2]["parts"][1]["functionResponse"]["parts"][0]["inlineData"]["data"],
        "AAAA"
    );
    assert_eq!(contents.len(), 3);
}

#[test]
fn thinking_levels_and_disabled_thinking() {
    let level = |id: &str, l| thinking_config(&model(id), &opts(l)).unwrap();
    assert_eq!(
        level("gemini-3-pro-preview", Some(ThinkingLevel::Minimal)),
        json!({"includeThoughts": true, "thinkingLevel": "LOW"})
    );
    assert_eq!(
        level("gemini-3.1-flash", Some(ThinkingLevel::Medium)),
        json!({"includeThoughts": true, "thinkingLevel": "MEDIUM"})
    );
    assert_eq!(
        level("gemini-3-pro-preview", None),
        json!({"thinkingLevel": "LOW"})
    );
    assert_eq!(
        level("gemini-3-flash-preview", None),
        json!({"thinkingLevel": "MINIMAL"})
    );
    assert_eq!(
        level("gemini-2.5-flash", None),
        json!({"thinkingBudget": 0})
    );
    assert_eq!(
        level("gemini-2.5-flash", Some(ThinkingLevel::High)),
        json!({"includeThoughts": true, "thinkingBudget": 24576})
    );
}

#[test]
fn claude_on_google_gets_sanitised_call_ids() {
    let m = model("claude-sonnet-4-5");
    let contents = convert_contents(&m, &conversation("anthropic", "claude-x"));
    assert_eq!(contents[1]["parts"][1]["functionCall"]["id"], "call_1");
    assert_eq!(contents[2]["parts"][1]["functionResponse"]["id"], "call_1");
}
