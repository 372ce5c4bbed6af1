use serde_json::{Value, json};

use super::*;
use crate::ai::sse::SseParser;
use crate::ai::types::{AssistantMessage, ContentBlock};

const RECORDED: &str = concat!(
    "event: message_start\n",
    "data: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_01\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-x\",\"content\":[],\"stop_reason\":null,\"usage\":{\"input_tokens\":25,\"cache_creation_input_tokens\":10,\"cache_read_input_tokens\":100,\"output_tokens\":1}}}\n\n",
    "event: content_block_start\n",
    "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"\"}}\n\n",
    "event: ping\ndata: {\"type\": \"ping\"}\n\n",
    "event: content_block_delta\n",
    "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"Let me think\u{2026} \u{e9}\"}}\n\n",
    "event: content_block_delta\n",
    "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"signature_delta\",\"signature\":\"EqQBCgIYAhIM\"}}\n\n",
    "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
    "event: content_block_start\n",
    "data: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
    "event: content_block_delta\n",
    "data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"\u{4f60}\u{597d}, \"}}\n\n",
    "event: content_block_delta\n",
    "data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"w\u{f6}rld\"}}\n\n",
    "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n",
    "event: content_block_start\n",
    "data: {\"type\":\"content_block_start\",\"index\":2,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_01\",\"name\":\"bash\",\"input\":{}}}\n\n",
    "event: content_block_delta\n",
    "data: {\"type\":\"content_block_delta\",\"index\":2,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"command\\\": \\\"ec\"}}\n\n",
    "event: content_block_delta\n",
    "data: {\"type\":\"content_block_delta\",\"index\":2,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"ho h\u{e9}\\\"}\"}}\n\n",
    "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":2}\n\n",
    "event: content_block_start\n",
    "data: {\"type\":\"content_block_start\",\"index\":3,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_02\",\"name\":\"read\",\"input\":{}}}\n\n",
    "event: content_block_delta\n",
    "data: {\"type\":\"content_block_delta\",\"index\":3,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"path\\\":\\\"a.txt\\\"}\"}}\n\n",
    "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":3}\n\n",
    "event: message_delta\n",
    "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":42}}\n\n",
    "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
);

fn model() -> Model {
    serde_json::from_value(json!({
        "id": "claude-x", "name": "x", "api": "anthropic-messages", "provider": "anthropic",
        "baseUrl": "http://x", "reasoning": true,
        "cost": {"input": 3.0, "output": 15.0, "cacheRead": 0.3, "cacheWrite": 3.75}
    }))
    .unwrap()
}

/// Feed `chunks` through the SSE parser and the stream state; return the
/// emitted events (as JSON) and the terminal result.
fn run(chunks: &[&[u8]]) -> (Vec<Value>, Result<(), ProviderError>) {
    let model = model();
    let (tx, rx) = crate::ai::event_channel::event_channel();
    let mut rx = crate::ai::events::AssistantStream::new(rx);
    let mut out = MessageBuilder::new("anthropic-messages", "anthropic", "claude-x", tx);
    out.partial_mut().timestamp = 0;
    out.start();
    let mut parser = SseParser::new();
    let mut state = AnthropicStreamState::new(&model, &[], false);
    let mut result = Ok(());
    'feed: for chunk in chunks {
        for ev in parser.push(chunk) {
            if let Err(e) = state.handle(&ev, &mut out) {
                result = Err(e);
                break 'feed;
            }
        }
    }
    if result.is_ok()
        && let Some(ev) = parser.finish()
    {
        result = state.handle(&ev, &mut out);
    }
    if result.is_ok() {
        result = state.finish(&mut out);
    }
    drop(out);
    let mut events = Vec::new();
    while let Some(ev) = rx.try_next() {
        events.push(serde_json::to_value(&ev).unwrap());
    }
    (events, result)
}

fn final_message(events: &[Value]) -> AssistantMessage {
    serde_json::from_value(events.last().unwrap()["message"].clone()).unwrap()
}

#[test]
fn parses_thinking_text_and_parallel_tool_calls() {
    let (events, result) = run(&[RECORDED.as_bytes()]);
    result.unwrap();
    let msg = final_message(&events);
    assert_eq!(msg.stop_reason, StopReason::ToolUse);
    assert_eq!(msg.response_id.as_deref(), Some("msg_01"));
    let ContentBlock::Thinking(t) = &msg.content[0] else {
        panic!("{:?}", msg.content)
    };
    assert_eq!(t.thinking, "Let me think\u{2026} \u{e9}");
    assert_eq!(t.thinking_signature.as_deref(), Some("EqQBCgIYAhIM"));
    assert_eq!(msg.text(), "\u{4f60}\u{597d}, w\u{f6}rld");
    let calls = msg.tool_calls();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].id, "toolu_01");
    assert_eq!(calls[0].arguments, json!({"command": "echo h\u{e9}"}));
    assert_eq!(calls[1].arguments, json!({"path": "a.txt"}));
    assert_eq!(
        (
            msg.usage.input,
            msg.usage.output,
            msg.usage.cache_read,
            msg.usage.cache_write
        ),
        (25, 42, 100, 10)
    );
    assert_eq!(msg.usage.total_tokens, 177);
    let expected = (25.0 * 3.0 + 42.0 * 15.0 + 100.0 * 0.3 + 10.0 * 3.75) / 1e6;
    assert!((msg.usage.cost.total - expected).abs() < 1e-12);
    let kinds: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(kinds.first(), Some(&"start"));
    assert_eq!(kinds.iter().filter(|k| **k == "toolcall_end").count(), 2);
}

#[test]
fn every_split_point_gives_identical_events() {
    let bytes = RECORDED.as_bytes();
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
fn mid_stream_error_event_fails_with_its_message() {
    let stream = concat!(
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"usage\":{\"input_tokens\":1,\"output_tokens\":0}}}\n\n",
        "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n",
    );
    let (_, result) = run(&[stream.as_bytes()]);
    assert_eq!(result.unwrap_err().message, "overloaded_error: Overloaded");
}

#[test]
fn truncated_stream_and_refusal_are_errors() {
    let start = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"usage\":{}}}\n\n";
    let (_, result) = run(&[start.as_bytes()]);
    assert!(result.unwrap_err().message.contains("before message_stop"));

    let refusal = format!(
        "{start}event: message_delta\ndata: {{\"type\":\"message_delta\",\"delta\":{{\"stop_reason\":\"refusal\"}},\"usage\":{{}}}}\n\nevent: message_stop\ndata: {{}}\n\n"
    );
    let (_, result) = run(&[refusal.as_bytes()]);
    assert!(result.unwrap_err().message.contains("refusal"));

    let max = format!(
        "{start}event: message_delta\ndata: {{\"type\":\"message_delta\",\"delta\":{{\"stop_reason\":\"max_tokens\"}},\"usage\":{{}}}}\n\nevent: message_stop\ndata: {{}}\n\n"
    );
    let (events, result) = run(&[max.as_bytes()]);
    result.unwrap();
    assert_eq!(final_message(&events).stop_reason, StopReason::Length);
}

#[test]
fn redacted_thinking_keeps_payload_as_signature() {
    let stream = concat!(
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"usage\":{}}}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"redacted_thinking\",\"data\":\"opaque\"}}\n\n",
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
        "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{}}\n\n",
        "event: message_stop\ndata: {}\n\n",
    );
    let (events, result) = run(&[stream.as_bytes()]);
    result.unwrap();
    let msg = final_message(&events);
    let ContentBlock::Thinking(t) = &msg.content[0] else {
        panic!()
    };
    assert_eq!(t.redacted, Some(true));
    assert_eq!(t.thinking_signature.as_deref(), Some("opaque"));
}
