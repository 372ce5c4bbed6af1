//! Gemini: which streamed parts are thinking, keeping a part's signature across deltas, tool
//! calls without arguments, and replaying tool calls to Gemini 3.
//! orig-file: packages/ai/test/google-thinking-signature.test.ts, google-tool-call-missing-args.test.ts, google-shared-gemini3-unsigned-tool-call.test.ts

use pi::ai::events::MessageBuilder;
use pi::ai::model::Model;
use pi::ai::providers::google::GeminiStreamState;
use pi::ai::providers::google::request::build_body;
use pi::ai::sse::SseEvent;
use pi::ai::stream::StreamOptions;
use pi::ai::types::{AssistantMessage, ContentBlock, Context, Message};
use serde_json::{Value, json};

fn gemini(id: &str) -> Model {
    serde_json::from_value(json!({"id": id, "name": id, "api": "google-generative-ai", "provider": "google",
        "baseUrl": "https://generativelanguage.googleapis.com", "reasoning": true, "input": ["text"],
        "contextWindow": 128000, "maxTokens": 8192}))
    .unwrap()
}

/// The message built from streamed chunks, each holding `parts`.
fn stream(chunks: &[Value]) -> AssistantMessage {
    let model = gemini("gemini-2.5-flash");
    let (tx, _rx) = pi::ai::event_channel::event_channel();
    let mut out = MessageBuilder::new("google-generative-ai", "google", "gemini-2.5-flash", tx);
    let mut state = GeminiStreamState::new(&model);
    for parts in chunks {
        let data =
            json!({"candidates": [{"content": {"role": "model", "parts": parts}}]}).to_string();
        state
            .handle(&SseEvent { event: None, data }, &mut out)
            .unwrap();
    }
    out.partial().clone()
}

fn is_thinking(part: Value) -> bool {
    let msg = stream(&[json!([part])]);
    matches!(msg.content.first(), Some(ContentBlock::Thinking(_)))
}

/// orig: google-thinking-signature.test.ts › Google thinking detection (thoughtSignature) › treats part.thought === true as thinking
#[test]
fn thought_true_is_thinking() {
    assert!(is_thinking(json!({"text": "hmm", "thought": true})));
    assert!(is_thinking(
        json!({"text": "hmm", "thought": true, "thoughtSignature": "opaque-signature"})
    ));
}

/// orig: google-thinking-signature.test.ts › Google thinking detection (thoughtSignature) › does not treat thoughtSignature alone as thinking
#[test]
fn signature_alone_is_not_thinking() {
    assert!(!is_thinking(
        json!({"text": "answer", "thoughtSignature": "opaque-signature"})
    ));
    assert!(!is_thinking(
        json!({"text": "answer", "thought": false, "thoughtSignature": "opaque-signature"})
    ));
}

/// orig: google-thinking-signature.test.ts › Google thinking detection (thoughtSignature) › does not treat empty/missing signatures as thinking if thought is not set
#[test]
fn no_thought_flag_is_not_thinking() {
    assert!(!is_thinking(json!({"text": "answer"})));
    assert!(!is_thinking(
        json!({"text": "answer", "thought": false, "thoughtSignature": ""})
    ));
}

fn text_signature(msg: &AssistantMessage) -> Option<String> {
    match msg.content.first() {
        Some(ContentBlock::Text(t)) => t.text_signature.clone(),
        other => panic!("{other:?}"),
    }
}

/// orig: google-thinking-signature.test.ts › Google thinking detection (thoughtSignature) › preserves the existing signature when subsequent deltas omit thoughtSignature
#[test]
fn signature_kept_when_later_deltas_omit_it() {
    let msg = stream(&[
        json!([{"text": "a", "thoughtSignature": "sig-1"}]),
        json!([{"text": "b"}]),
        json!([{"text": "c", "thoughtSignature": ""}]),
    ]);
    assert_eq!(text_signature(&msg).as_deref(), Some("sig-1"));
}

/// orig: google-thinking-signature.test.ts › Google thinking detection (thoughtSignature) › updates the signature when a new non-empty signature arrives
#[test]
fn newer_signature_wins() {
    let msg = stream(&[
        json!([{"text": "a", "thoughtSignature": "sig-1"}]),
        json!([{"text": "b", "thoughtSignature": "sig-2"}]),
    ]);
    assert_eq!(text_signature(&msg).as_deref(), Some("sig-2"));
}

/// orig: google-tool-call-missing-args.test.ts › google providers tool call missing args › defaults arguments to empty object when provider omits args field
#[test]
fn missing_args_are_empty_object() {
    let msg = stream(&[json!([{"functionCall": {"name": "get_status"}}])]);
    let call = msg.tool_calls().into_iter().next().cloned().unwrap();
    assert_eq!(call.name, "get_status");
    assert_eq!(call.arguments, json!({}));
}

fn replay(model: &Model, assistant: Value) -> Value {
    let messages: Vec<Message> = vec![
        serde_json::from_value(json!({"role": "user", "content": "Hi", "timestamp": 1})).unwrap(),
        serde_json::from_value(assistant).unwrap(),
    ];
    let context = Context {
        system_prompt: None,
        messages,
        tools: Vec::new(),
    };
    let body = build_body(model, &context, &StreamOptions::default());
    body["contents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["role"] == "model")
        .cloned()
        .unwrap()
}

fn call_turn(api: &str, provider: &str, model: &str, signature: Option<&str>) -> Value {
    let mut call = json!({"type": "toolCall", "id": "call_1", "name": "bash", "arguments": {"command": "ls -la"}});
    if let Some(sig) = signature {
        call["thoughtSignature"] = json!(sig);
    }
    json!({"role": "assistant", "content": [call], "api": api, "provider": provider, "model": model,
           "usage": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
                     "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
           "stopReason": "stop", "timestamp": 1})
}

/// orig: google-shared-gemini3-unsigned-tool-call.test.ts › google-shared convertMessages — Gemini 3 unsigned tool calls › uses skip_thought_signature_validator for unsigned tool calls on Gemini 3
#[test]
fn unsigned_call_replayed_as_function_call() {
    // 0.73.1 no longer adds the sentinel signature (the 0.58.3 test expects it); the call is
    // still replayed as a structured functionCall, never as a text fallback.
    let turn = replay(
        &gemini("gemini-3-pro-preview"),
        call_turn(
            "google-gemini-cli",
            "google-antigravity",
            "claude-sonnet-4-20250514",
            None,
        ),
    );
    let part = turn["parts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p.get("functionCall").is_some())
        .unwrap();
    assert_eq!(part["functionCall"]["name"], "bash");
    assert_eq!(part["functionCall"]["args"], json!({"command": "ls -la"}));
    assert!(part.get("thoughtSignature").is_none());
    assert!(!turn.to_string().contains("Historical context"));
}

/// orig: google-shared-gemini3-unsigned-tool-call.test.ts › google-shared convertMessages — Gemini 3 unsigned tool calls › preserves valid thoughtSignature when present (same provider/model)
#[test]
fn own_signature_kept() {
    let sig = "AAAAAAAAAAAAAAAAAAAAAA==";
    let turn = replay(
        &gemini("gemini-3-pro-preview"),
        call_turn(
            "google-generative-ai",
            "google",
            "gemini-3-pro-preview",
            Some(sig),
        ),
    );
    let part = turn["parts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p.get("functionCall").is_some())
        .unwrap();
    assert_eq!(part["thoughtSignature"], sig);
}

/// orig: google-shared-gemini3-unsigned-tool-call.test.ts › google-shared convertMessages — Gemini 3 unsigned tool calls › does not add sentinel for non-Gemini-3 models
#[test]
fn no_sentinel_for_older_models() {
    let turn = replay(
        &gemini("gemini-2.5-flash"),
        call_turn(
            "google-gemini-cli",
            "google-antigravity",
            "claude-sonnet-4-20250514",
            None,
        ),
    );
    let part = turn["parts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p.get("functionCall").is_some())
        .unwrap();
    assert!(part.get("thoughtSignature").is_none());
}
