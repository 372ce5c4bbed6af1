use serde_json::{Value, json};

use super::*;
use crate::ai::sse::SseParser;
use crate::ai::types::AssistantMessage;

fn chunk(delta: Value, finish: Option<&str>) -> String {
    let c = json!({
        "id": "chatcmpl-1", "object": "chat.completion.chunk", "model": "gpt-x-2025",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]
    });
    format!("data: {c}\r\n\r\n")
}

fn recorded() -> String {
    let mut s = String::new();
    s += &chunk(
        json!({"role": "assistant", "reasoning_content": "Hmm \u{e9}"}),
        None,
    );
    s += ": keep-alive\r\n\r\n";
    s += &chunk(json!({"content": "\u{4f60}\u{597d}"}), None);
    s += &chunk(json!({"content": " there"}), None);
    s += &chunk(
        json!({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
            "function": {"name": "bash", "arguments": ""}}]}),
        None,
    );
    s += &chunk(
        json!({"tool_calls": [{"index": 0, "function": {"arguments": "{\"command\":"}}]}),
        None,
    );
    s += &chunk(
        json!({"tool_calls": [{"index": 0, "function": {"arguments": "\"ls\"}"}}]}),
        None,
    );
    s += &chunk(
        json!({"tool_calls": [{"index": 1, "id": "call_2", "type": "function",
            "function": {"name": "read", "arguments": "{\"path\":\"\u{e9}.txt\"}"}}]}),
        None,
    );
    s += &chunk(json!({}), Some("tool_calls"));
    let usage = json!({
        "id": "chatcmpl-1", "object": "chat.completion.chunk", "model": "gpt-x-2025", "choices": [],
        "usage": {"prompt_tokens": 120, "completion_tokens": 30,
                  "prompt_tokens_details": {"cached_tokens": 100}}
    });
    s += &format!("data: {usage}\r\n\r\ndata: [DONE]\r\n\r\n");
    s
}

fn model() -> Model {
    serde_json::from_value(json!({
        "id": "gpt-x", "name": "x", "api": "openai-completions", "provider": "openai",
        "baseUrl": "http://x", "reasoning": true,
        "cost": {"input": 2.0, "output": 8.0, "cacheRead": 0.5, "cacheWrite": 0.0}
    }))
    .unwrap()
}

fn run(chunks: &[&[u8]]) -> (Vec<Value>, Result<(), ProviderError>) {
    let model = model();
    let (tx, rx) = crate::ai::event_channel::event_channel();
    let mut rx = crate::ai::events::AssistantStream::new(rx);
    let mut out = MessageBuilder::new("openai-completions", "openai", "gpt-x", tx);
    out.partial_mut().timestamp = 0;
    out.start();
    let mut parser = SseParser::new();
    let mut state = OpenAiStreamState::new(&model);
    let mut result = Ok(());
    let mut events: Vec<_> = Vec::new();
    for c in chunks {
        events.extend(parser.push(c));
    }
    events.extend(parser.finish());
    for ev in events {
        match state.handle(&ev, &mut out) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                result = Err(e);
                break;
            }
        }
    }
    if result.is_ok() {
        result = state.finish(&mut out);
    }
    drop(out);
    let mut emitted = Vec::new();
    while let Some(ev) = rx.try_next() {
        emitted.push(serde_json::to_value(&ev).unwrap());
    }
    (emitted, result)
}

fn final_message(events: &[Value]) -> AssistantMessage {
    serde_json::from_value(events.last().unwrap()["message"].clone()).unwrap()
}

#[test]
fn parses_reasoning_text_tool_calls_and_usage() {
    let (events, result) = run(&[recorded().as_bytes()]);
    result.unwrap();
    let msg = final_message(&events);
    assert_eq!(msg.stop_reason, StopReason::ToolUse);
    assert_eq!(msg.response_id.as_deref(), Some("chatcmpl-1"));
    assert_eq!(msg.response_model.as_deref(), Some("gpt-x-2025"));
    let ContentBlock::Thinking(t) = &msg.content[0] else {
        panic!("{:?}", msg.content)
    };
    assert_eq!(t.thinking, "Hmm \u{e9}");
    assert_eq!(t.thinking_signature.as_deref(), Some("reasoning_content"));
    assert_eq!(msg.text(), "\u{4f60}\u{597d} there");
    let calls = msg.tool_calls();
    assert_eq!(calls.len(), 2);
    assert_eq!(
        (calls[0].id.as_str(), calls[0].name.as_str()),
        ("call_1", "bash")
    );
    assert_eq!(calls[0].arguments, json!({"command": "ls"}));
    assert_eq!(calls[1].arguments, json!({"path": "\u{e9}.txt"}));
    assert_eq!(
        (msg.usage.input, msg.usage.output, msg.usage.cache_read),
        (20, 30, 100)
    );
    assert_eq!(msg.usage.total_tokens, 150);
    let expected = (20.0 * 2.0 + 30.0 * 8.0 + 100.0 * 0.5) / 1e6;
    assert!((msg.usage.cost.total - expected).abs() < 1e-12);
}

#[test]
fn every_split_point_gives_identical_events() {
    let stream = recorded();
    let bytes = stream.as_bytes();
    let (whole, result) = run(&[bytes]);
    result.unwrap();
    for i in 0..=bytes.len() {
        let (split, result) = run(&[&bytes[..i], &bytes[i..]]);
        result.unwrap();
        assert_eq!(split, whole, "split at byte {i}");
    }
    let ones: Vec<&[u8]> = bytes.chunks(1).collect();
    assert_eq!(run(&ones).0, whole);
}

#[test]
fn error_chunks_and_finish_reasons_become_errors() {
    let err = "data: {\"error\":{\"message\":\"Provider returned error\",\"code\":502,\"metadata\":{\"raw\":\"upstream down\"}}}\n\n";
    let (_, result) = run(&[err.as_bytes()]);
    assert_eq!(
        result.unwrap_err().message,
        "Provider returned error\nupstream down"
    );
    let filtered = chunk(json!({"content": "x"}), Some("content_filter"));
    let (_, result) = run(&[filtered.as_bytes()]);
    assert_eq!(
        result.unwrap_err().message,
        "Provider finish_reason: content_filter"
    );
    let (events, result) = run(&[chunk(json!({"content": "x"}), Some("length")).as_bytes()]);
    result.unwrap();
    assert_eq!(final_message(&events).stop_reason, StopReason::Length);
}

#[test]
fn usage_separates_cache_writes_from_reads() {
    let usage = parse_usage(
        &json!({"prompt_tokens": 1000, "completion_tokens": 5,
                "prompt_tokens_details": {"cached_tokens": 600, "cache_write_tokens": 100}}),
        &model(),
    );
    assert_eq!(
        (usage.input, usage.cache_read, usage.cache_write),
        (400, 500, 100)
    );
}
