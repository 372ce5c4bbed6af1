use serde_json::json;

use super::EntryHead;
use crate::agent::conversation::MessageFacts;
use crate::session::entries::SessionEntry;
use crate::session::migrate::migrate_to_current;
use crate::session::preview::EntryPreview;

/// Reads `line` by its head and in full; when the head is read, everything the
/// index keeps must be the same. Returns whether the head was read.
fn check(line: &str) -> bool {
    let Some(head) = EntryHead::read(line) else {
        return false;
    };
    let entry = SessionEntry::parse_line(line)
        .unwrap_or_else(|| panic!("a head read from a line the full reading rejects: {line}"));
    assert!(
        !matches!(entry, SessionEntry::Unknown(_)),
        "a head read from an unreadable entry: {line}"
    );
    assert_eq!(head.names.kind(), entry.type_name(), "{line}");
    assert_eq!(head.names.id(), entry.id(), "{line}");
    assert_eq!(head.names.parent_id(), entry.parent_id(), "{line}");
    assert_eq!(head.names.timestamp(), entry.timestamp(), "{line}");
    let facts = entry.as_message().map(MessageFacts::of);
    assert_eq!(head.facts, facts, "{line}");
    assert_eq!(head.is_assistant(), entry.is_assistant_message(), "{line}");
    assert_eq!(head.preview, EntryPreview::of(&entry), "{line}");
    true
}

/// The lines of a session fixture as a migration writes them back (the
/// fixtures are of the first format: no ids, each entry chained to the last).
pub(in crate::session) fn migrated_fixture(name: &str) -> Vec<String> {
    let path = format!(
        "{}/tests/fixtures/conformance/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    let mut raw: Vec<serde_json::Value> = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(migrate_to_current(&mut raw), Some(1), "{name}");
    raw.iter().map(|value| value.to_string()).collect()
}

#[test]
fn every_entry_of_real_sessions_reads_the_same_by_its_head() {
    for name in ["large-session.jsonl", "before-compaction.jsonl"] {
        let lines = migrated_fixture(name);
        let mut heads = 0;
        let mut messages = 0;
        let mut calls = 0;
        for line in &lines[1..] {
            heads += usize::from(check(line));
            messages += usize::from(line.starts_with(r#"{"type":"message""#));
            calls += EntryHead::read(line).map_or(0, |h| h.preview.tool_calls().count());
        }
        assert!(messages > 500, "{name}: {messages} messages");
        assert!(
            calls > 100,
            "{name}: {calls} tool calls kept with their labels"
        );
        assert_eq!(heads, messages, "{name}: every message is read by its head");
    }
}

#[test]
fn entries_without_an_id_are_left_to_the_full_reading() {
    let path = format!(
        "{}/tests/fixtures/conformance/large-session.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    for line in text.lines().skip(1).take(50) {
        assert!(EntryHead::read(line).is_none(), "read in full: {line}");
    }
}

fn message(message: serde_json::Value) -> String {
    json!({
        "type": "message", "id": "a1b2c3d4", "parentId": "00000000",
        "timestamp": "2024-01-01T00:00:00.000Z", "message": message
    })
    .to_string()
}

fn usage() -> serde_json::Value {
    json!({"input": 10, "output": 5.0, "cacheRead": 1, "cacheWrite": 0,
           "cost": {"input": 0.5, "output": 0.25, "cacheRead": 0, "cacheWrite": 0, "total": 0.75}})
}

#[test]
fn every_message_kind_reads_the_same_by_its_head() {
    let long = format!("first\n\n  words {}", "é".repeat(400));
    let lines = [
        message(json!({"role": "user", "content": long, "timestamp": 1})),
        message(json!({"role": "user", "content": [
            {"type": "image", "data": "AAAA", "mimeType": "image/png"},
            {"type": "text", "text": "look \"here\"\n"},
            {"type": "text", "text": "second"}], "timestamp": "soon"})),
        message(json!({"role": "user", "content": [], "timestamp": 1})),
        message(json!({"role": "assistant", "content": [
            {"type": "thinking", "thinking": "hmm", "thinkingSignature": "sig", "redacted": false},
            {"type": "text", "text": "  ", "textSignature": null},
            {"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": "a", "n": [1, 2.5, null]}},
            {"type": "toolCall", "id": "c2", "name": "", "arguments": {}, "thoughtSignature": "t"}],
            "api": "openai-completions", "provider": "p", "model": "m", "responseId": "r",
            "usage": usage(), "stopReason": "toolUse", "timestamp": 2})),
        message(json!({"role": "assistant", "content": [], "usage": usage(),
            "stopReason": "error", "errorMessage": "  boom\n went the   server ", "timestamp": 3})),
        message(json!({"role": "assistant", "content": [], "stopReason": "aborted",
            "errorMessage": "   ", "timestamp": 3})),
        message(json!({"role": "assistant", "content": [{"type": "text", "text": "answer"}],
            "stopReason": "length", "errorMessage": "cut", "timestamp": 3})),
        message(json!({"role": "assistant", "content": [], "stopReason": "stop"})),
        message(json!({"role": "toolResult", "toolCallId": "c1", "toolName": "bash",
            "content": [{"type": "text", "text": "out\tput"}], "details": {"diff": "x\ny"},
            "isError": true, "timestamp": 4})),
        message(json!({"role": "toolResult", "toolCallId": "c1", "toolName": "read",
            "content": [{"type": "image", "data": "AAAA", "mimeType": "image/png"}], "timestamp": 4})),
        message(json!({"role": "bashExecution", "command": "ls  -la\n", "output": "x",
            "exitCode": 2, "cancelled": false, "truncated": true, "fullOutputPath": "/tmp/o",
            "excludeFromContext": true, "timestamp": 5})),
        message(json!({"role": "bashExecution", "command": "sleep 9", "output": "",
            "exitCode": null, "cancelled": true, "timestamp": 5})),
        message(json!({"role": "custom", "customType": "note", "content": "a note",
            "display": true, "details": {"k": 1}, "timestamp": 6})),
        message(json!({"role": "hookMessage", "customType": "old", "content": [
            {"type": "text", "text": "from a hook"}], "timestamp": 6})),
        message(json!({"role": "branchSummary", "summary": "left\nthat way", "fromId": "f", "timestamp": 7})),
        json!({"type": "branch_summary", "id": "b", "parentId": "a", "timestamp": "t",
            "fromId": "x", "summary": "we tried\nthings", "details": {"readFiles": []}, "fromHook": true})
        .to_string(),
        json!({"type": "custom_message", "customType": "ext", "content": [
            {"type": "text", "text": "shown"}], "display": false, "details": null,
            "id": "c", "parentId": null, "timestamp": "t"})
        .to_string(),
        json!({"type": "custom", "customType": "state", "data": {"n": [1, {"m": "x"}]},
            "id": "d", "parentId": "c", "timestamp": "t"})
        .to_string(),
        json!({"type": "custom", "customType": "bare", "id": "e", "timestamp": "t"}).to_string(),
    ];
    for line in &lines {
        assert!(check(line), "read by its head: {line}");
    }
}

#[test]
fn entries_the_head_does_not_cover_are_left_to_the_full_reading() {
    let left = [
        // Held types and types this version does not know.
        json!({"type": "label", "id": "l", "parentId": "a", "timestamp": "t", "targetId": "a", "label": "x"}).to_string(),
        json!({"type": "future", "id": "f", "parentId": "a", "timestamp": "t"}).to_string(),
        // A compaction summary carried as a message.
        message(json!({"role": "compactionSummary", "summary": "s", "tokensBefore": "9"})),
        // The type or the role not first.
        r#"{"id":"a","type":"message","timestamp":"t","message":{"role":"user","content":"x"}}"#.to_string(),
        message(json!({"content": "x", "role": "user"})),
    ];
    for line in &left {
        assert!(EntryHead::read(line).is_none(), "read in full: {line}");
        assert!(!check(line));
        assert!(SessionEntry::parse_line(line).is_some());
    }
}

#[test]
fn a_body_of_the_wrong_shape_is_left_to_the_full_reading() {
    let broken = [
        message(json!({"role": "alien", "content": "x"})),
        message(json!({"role": "user"})),
        message(json!({"role": "user", "content": 5})),
        message(json!({"role": "user", "content": [{"type": "text"}]})),
        message(json!({"role": "user", "content": [{"type": "video", "url": "u"}]})),
        message(json!({"role": "assistant", "content": [{"type": "toolCall", "id": "c", "name": "n"}]})),
        message(json!({"role": "assistant", "content": [], "stopReason": "later"})),
        message(json!({"role": "assistant", "content": [], "api": null})),
        message(json!({"role": "assistant", "content": [{"type": "image", "data": 1, "mimeType": "x"}]})),
        message(json!({"role": "toolResult", "toolName": "bash", "content": []})),
        message(json!({"role": "bashExecution", "command": "ls", "output": "", "exitCode": 3.5})),
        message(json!({"role": "bashExecution", "command": "ls", "output": "", "cancelled": null})),
        message(json!({"role": "branchSummary", "summary": "s"})),
        json!({"type": "custom_message", "customType": "x", "content": "c", "id": "c", "timestamp": "t"}).to_string(),
        json!({"type": "message", "parentId": null, "timestamp": "t", "message": {"role": "user", "content": "x"}}).to_string(),
        // Duplicate keys, a number out of range, and text after the object.
        r#"{"type":"message","id":"a","id":"b","timestamp":"t","message":{"role":"user","content":"x"}}"#.to_string(),
        r#"{"type":"message","id":"a","timestamp":"t","message":{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"n","arguments":{"x":1e999}}]}}"#.to_string(),
        format!("{} x", message(json!({"role": "user", "content": "x"}))),
        r#"{"type":"message","id":"a","timestamp":"t","message":{"role":"user","content":"x"#.to_string(),
    ];
    for line in &broken {
        assert!(EntryHead::read(line).is_none(), "read in full: {line}");
        let full = SessionEntry::parse_line(line);
        assert!(
            matches!(full, None | Some(SessionEntry::Unknown(_))),
            "the full reading rejects it too: {line}"
        );
    }
}

#[test]
fn the_head_keeps_each_call_with_its_label_and_a_result_its_call_id() {
    let answer = message(json!({"role": "assistant", "content": [
        {"type": "text", "text": "looking"},
        {"type": "toolCall", "id": "c\"1", "name": "bash", "arguments": {"command": "ls\n-la"}},
        {"type": "toolCall", "id": "c2", "name": "read",
         "arguments": {"path": "a.rs", "offset": 5, "limit": 10}}],
        "stopReason": "toolUse", "timestamp": 2}));
    let result = message(
        json!({"role": "toolResult", "toolCallId": "c\"1", "toolName": "bash",
        "content": [{"type": "text", "text": "a.rs"}], "timestamp": 3}),
    );
    assert!(check(&answer) && check(&result));
    let answer = EntryHead::read(&answer).unwrap().preview;
    let calls: Vec<(&str, &str)> = answer.tool_calls().collect();
    assert_eq!(
        calls,
        [("c\"1", "[bash: ls -la]"), ("c2", "[read: a.rs:5-14]")]
    );
    assert_eq!(answer.text(), "looking");
    assert_eq!(answer.tool_call_id(), None);
    let result = EntryHead::read(&result).unwrap().preview;
    assert_eq!(result.tool_call_id(), Some("c\"1"));
    assert_eq!(result.text(), "bash");
    assert_eq!(result.tool_calls().count(), 0);
}
