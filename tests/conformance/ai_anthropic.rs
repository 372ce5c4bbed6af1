//! Anthropic requests: Claude Code tool-name spelling for subscription logins, and
//! replaying another model's turns (thinking as text, signatures dropped).
//! orig-file: packages/ai/test/anthropic-tool-name-normalization.test.ts, transform-messages-copilot-openai-to-anthropic.test.ts

use pi::ai::model::Model;
use pi::ai::providers::anthropic::request::{
    from_claude_code_name, normalize_tool_call_id, to_claude_code_name,
};
use pi::ai::transform::transform_messages;
use pi::ai::types::{ContentBlock, Message, ToolSpec};
use serde_json::json;

fn tool(name: &str) -> ToolSpec {
    ToolSpec {
        name: name.into(),
        description: "t".into(),
        parameters: json!({"type": "object"}),
    }
}

/// The name sent for `name`, and the name the reply's tool call maps back to.
fn round_trip(name: &str) -> (String, String) {
    let sent = to_claude_code_name(name);
    let back = from_claude_code_name(&sent, &[tool(name)]);
    (sent, back)
}

/// orig: anthropic-tool-name-normalization.test.ts › should normalize user-defined tool matching CC name (todowrite -> TodoWrite -> todowrite)
#[test]
fn todowrite_round_trip() {
    assert_eq!(
        round_trip("todowrite"),
        ("TodoWrite".to_string(), "todowrite".to_string())
    );
}

/// orig: anthropic-tool-name-normalization.test.ts › should handle pi's built-in tools (read, write, edit, bash)
#[test]
fn builtin_tools_round_trip() {
    for (name, cc) in [
        ("read", "Read"),
        ("write", "Write"),
        ("edit", "Edit"),
        ("bash", "Bash"),
    ] {
        assert_eq!(round_trip(name), (cc.to_string(), name.to_string()));
    }
}

/// orig: anthropic-tool-name-normalization.test.ts › should NOT map find to Glob - find is not a CC tool name
#[test]
fn find_is_not_glob() {
    assert_eq!(round_trip("find"), ("find".to_string(), "find".to_string()));
}

/// orig: anthropic-tool-name-normalization.test.ts › should handle custom tools that don't match any CC tool names
#[test]
fn custom_tool_unchanged() {
    assert_eq!(
        round_trip("my_custom_tool"),
        ("my_custom_tool".to_string(), "my_custom_tool".to_string())
    );
}

fn copilot_claude() -> Model {
    serde_json::from_value(json!({"id": "claude-sonnet-4", "name": "Claude Sonnet 4", "api": "anthropic-messages",
        "provider": "github-copilot", "baseUrl": "https://api.individual.githubcopilot.com", "reasoning": true,
        "input": ["text", "image"], "contextWindow": 128000, "maxTokens": 16000}))
    .unwrap()
}

fn assistant(api: &str, model: &str, content: serde_json::Value, stop: &str) -> Message {
    serde_json::from_value(json!({"role": "assistant", "content": content, "api": api, "provider": "github-copilot",
        "model": model, "usage": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
        "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}, "stopReason": stop, "timestamp": 1}))
    .unwrap()
}

fn user(text: &str) -> Message {
    serde_json::from_value(json!({"role": "user", "content": text, "timestamp": 1})).unwrap()
}

/// orig: transform-messages-copilot-openai-to-anthropic.test.ts › OpenAI to Anthropic session migration for Copilot Claude › converts thinking blocks to plain text when source model differs
#[test]
fn foreign_thinking_becomes_text() {
    let messages = [
        user("hello"),
        assistant(
            "openai-completions",
            "gpt-4o",
            json!([
                {"type": "thinking", "thinking": "Let me think about this...", "thinkingSignature": "reasoning_content"},
                {"type": "text", "text": "Hi there!"}
            ]),
            "stop",
        ),
    ];
    let out = transform_messages(&messages, &copilot_claude(), &normalize_tool_call_id);
    let a = out.iter().find_map(Message::as_assistant).unwrap();
    assert!(
        !a.content
            .iter()
            .any(|b| matches!(b, ContentBlock::Thinking(_)))
    );
    assert!(
        a.content
            .iter()
            .filter(|b| matches!(b, ContentBlock::Text(_)))
            .count()
            >= 2,
        "{:?}",
        a.content
    );
}

/// orig: transform-messages-copilot-openai-to-anthropic.test.ts › OpenAI to Anthropic session migration for Copilot Claude › removes thoughtSignature from tool calls when migrating between models
#[test]
fn foreign_tool_call_signature_dropped() {
    let messages = [
        user("run a command"),
        assistant(
            "openai-responses",
            "gpt-5",
            json!([
                {"type": "toolCall", "id": "call_123", "name": "bash", "arguments": {"command": "ls"},
                 "thoughtSignature": "{\"type\":\"reasoning.encrypted\",\"id\":\"call_123\",\"data\":\"encrypted\"}"}
            ]),
            "toolUse",
        ),
        serde_json::from_value(
            json!({"role": "toolResult", "toolCallId": "call_123", "toolName": "bash",
            "content": [{"type": "text", "text": "output"}], "isError": false, "timestamp": 1}),
        )
        .unwrap(),
    ];
    let out = transform_messages(&messages, &copilot_claude(), &normalize_tool_call_id);
    let a = out.iter().find_map(Message::as_assistant).unwrap();
    let call = a.content.iter().find_map(|b| match b {
        ContentBlock::ToolCall(c) => Some(c),
        _ => None,
    });
    assert_eq!(call.unwrap().thought_signature, None);
}
