//! Resolving the messages the model sees from a session's entries.
//! orig-file: packages/coding-agent/test/session-manager/build-context.test.ts

use pi::session::{SessionEntry, build_session_context};
use serde_json::{Value, json};

const TS: &str = "2025-01-01T00:00:00Z";

fn entry(raw: Value) -> SessionEntry {
    SessionEntry::from_value(raw)
}

fn msg(id: &str, parent: Option<&str>, role: &str, text: &str) -> SessionEntry {
    let message = if role == "user" {
        json!({"role": "user", "content": text, "timestamp": 1})
    } else {
        json!({"role": "assistant", "content": [{"type": "text", "text": text}],
               "api": "anthropic-messages", "provider": "anthropic", "model": "claude-test",
               "usage": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2,
                         "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
               "stopReason": "stop", "timestamp": 1})
    };
    entry(
        json!({"type": "message", "id": id, "parentId": parent, "timestamp": TS, "message": message}),
    )
}

fn compaction(id: &str, parent: &str, summary: &str, first_kept: &str) -> SessionEntry {
    entry(
        json!({"type": "compaction", "id": id, "parentId": parent, "timestamp": TS,
                 "summary": summary, "firstKeptEntryId": first_kept, "tokensBefore": 1000}),
    )
}

fn branch_summary(id: &str, parent: &str, summary: &str, from: &str) -> SessionEntry {
    entry(
        json!({"type": "branch_summary", "id": id, "parentId": parent, "timestamp": TS,
                 "summary": summary, "fromId": from}),
    )
}

fn messages(entries: &[SessionEntry], leaf: Option<&str>) -> Vec<Value> {
    let leaf = leaf.or_else(|| entries.last().map(|e| e.id()));
    build_session_context(entries, leaf)
        .messages
        .iter()
        .map(|m| serde_json::to_value(m).unwrap())
        .collect()
}

/// orig: buildSessionContext › trivial cases › empty entries returns empty context
#[test]
fn empty() {
    let ctx = build_session_context(&[], None);
    assert!(ctx.messages.is_empty());
    assert_eq!(ctx.thinking_level, "off");
    assert_eq!(ctx.model, None);
}

/// orig: buildSessionContext › trivial cases › single user message
#[test]
fn single_user_message() {
    let m = messages(&[msg("1", None, "user", "hello")], None);
    assert_eq!(m.len(), 1);
    assert_eq!(m[0]["role"], "user");
}

/// orig: buildSessionContext › trivial cases › simple conversation
#[test]
fn simple_conversation() {
    let entries = [
        msg("1", None, "user", "hello"),
        msg("2", Some("1"), "assistant", "hi there"),
        msg("3", Some("2"), "user", "how are you"),
        msg("4", Some("3"), "assistant", "great"),
    ];
    let roles: Vec<Value> = messages(&entries, None)
        .iter()
        .map(|m| m["role"].clone())
        .collect();
    assert_eq!(
        roles,
        [
            json!("user"),
            json!("assistant"),
            json!("user"),
            json!("assistant")
        ]
    );
}

/// orig: buildSessionContext › trivial cases › tracks thinking level changes
#[test]
fn thinking_level_tracked() {
    let entries = [
        msg("1", None, "user", "hello"),
        entry(
            json!({"type": "thinking_level_change", "id": "2", "parentId": "1", "timestamp": TS, "thinkingLevel": "high"}),
        ),
        msg("3", Some("2"), "assistant", "thinking hard"),
    ];
    let ctx = build_session_context(&entries, Some("3"));
    assert_eq!(ctx.thinking_level, "high");
    assert_eq!(ctx.messages.len(), 2);
}

/// orig: buildSessionContext › trivial cases › tracks model from assistant message
#[test]
fn model_from_assistant() {
    let entries = [
        msg("1", None, "user", "hello"),
        msg("2", Some("1"), "assistant", "hi"),
    ];
    let ctx = build_session_context(&entries, Some("2"));
    assert_eq!(ctx.model, Some(("anthropic".into(), "claude-test".into())));
}

/// orig: buildSessionContext › trivial cases › tracks model from model change entry
#[test]
fn assistant_model_overrides_model_change() {
    let entries = [
        msg("1", None, "user", "hello"),
        entry(
            json!({"type": "model_change", "id": "2", "parentId": "1", "timestamp": TS, "provider": "openai", "modelId": "gpt-4"}),
        ),
        msg("3", Some("2"), "assistant", "hi"),
    ];
    let ctx = build_session_context(&entries, Some("3"));
    assert_eq!(ctx.model, Some(("anthropic".into(), "claude-test".into())));
}

/// orig: buildSessionContext › with compaction › includes summary before kept messages
#[test]
fn compaction_summary_then_kept() {
    let entries = [
        msg("1", None, "user", "first"),
        msg("2", Some("1"), "assistant", "response1"),
        msg("3", Some("2"), "user", "second"),
        msg("4", Some("3"), "assistant", "response2"),
        compaction("5", "4", "Summary of first two turns", "3"),
        msg("6", Some("5"), "user", "third"),
        msg("7", Some("6"), "assistant", "response3"),
    ];
    let m = messages(&entries, None);
    assert_eq!(m.len(), 5);
    assert!(
        m[0]["summary"]
            .as_str()
            .unwrap()
            .contains("Summary of first two turns")
    );
    assert_eq!(m[1]["content"], "second");
    assert_eq!(m[2]["content"][0]["text"], "response2");
    assert_eq!(m[3]["content"], "third");
    assert_eq!(m[4]["content"][0]["text"], "response3");
}

/// orig: buildSessionContext › with compaction › handles compaction keeping from first message
#[test]
fn compaction_keeping_everything() {
    let entries = [
        msg("1", None, "user", "first"),
        msg("2", Some("1"), "assistant", "response"),
        compaction("3", "2", "Empty summary", "1"),
        msg("4", Some("3"), "user", "second"),
    ];
    let m = messages(&entries, None);
    assert_eq!(m.len(), 4);
    assert!(m[0]["summary"].as_str().unwrap().contains("Empty summary"));
}

/// orig: buildSessionContext › with compaction › multiple compactions uses latest
#[test]
fn latest_compaction_wins() {
    let entries = [
        msg("1", None, "user", "a"),
        msg("2", Some("1"), "assistant", "b"),
        compaction("3", "2", "First summary", "1"),
        msg("4", Some("3"), "user", "c"),
        msg("5", Some("4"), "assistant", "d"),
        compaction("6", "5", "Second summary", "4"),
        msg("7", Some("6"), "user", "e"),
    ];
    let m = messages(&entries, None);
    assert_eq!(m.len(), 4);
    assert!(m[0]["summary"].as_str().unwrap().contains("Second summary"));
}

/// orig: buildSessionContext › with branches › follows path to specified leaf
#[test]
fn follows_the_given_leaf() {
    let entries = [
        msg("1", None, "user", "start"),
        msg("2", Some("1"), "assistant", "response"),
        msg("3", Some("2"), "user", "branch A"),
        msg("4", Some("2"), "user", "branch B"),
    ];
    let a = messages(&entries, Some("3"));
    assert_eq!(a.len(), 3);
    assert_eq!(a[2]["content"], "branch A");
    let b = messages(&entries, Some("4"));
    assert_eq!(b.len(), 3);
    assert_eq!(b[2]["content"], "branch B");
}

/// orig: buildSessionContext › with branches › includes branch summary in path
#[test]
fn branch_summary_on_path() {
    let entries = [
        msg("1", None, "user", "start"),
        msg("2", Some("1"), "assistant", "response"),
        msg("3", Some("2"), "user", "abandoned path"),
        branch_summary("4", "2", "Summary of abandoned work", "3"),
        msg("5", Some("4"), "user", "new direction"),
    ];
    let m = messages(&entries, Some("5"));
    assert_eq!(m.len(), 4);
    assert!(
        m[2]["summary"]
            .as_str()
            .unwrap()
            .contains("Summary of abandoned work")
    );
    assert_eq!(m[3]["content"], "new direction");
}

/// orig: buildSessionContext › with branches › complex tree with multiple branches and compaction
#[test]
fn complex_tree() {
    let entries = [
        msg("1", None, "user", "start"),
        msg("2", Some("1"), "assistant", "r1"),
        msg("3", Some("2"), "user", "q2"),
        msg("4", Some("3"), "assistant", "r2"),
        compaction("5", "4", "Compacted history", "3"),
        msg("6", Some("5"), "user", "q3"),
        msg("7", Some("6"), "assistant", "r3"),
        msg("8", Some("3"), "user", "wrong path"),
        msg("9", Some("8"), "assistant", "wrong response"),
        branch_summary("10", "3", "Tried wrong approach", "9"),
        msg("11", Some("10"), "user", "better approach"),
    ];
    let main = messages(&entries, Some("7"));
    assert_eq!(main.len(), 5);
    assert!(
        main[0]["summary"]
            .as_str()
            .unwrap()
            .contains("Compacted history")
    );
    assert_eq!(main[1]["content"], "q2");
    assert_eq!(main[2]["content"][0]["text"], "r2");
    assert_eq!(main[3]["content"], "q3");
    assert_eq!(main[4]["content"][0]["text"], "r3");
    let branch = messages(&entries, Some("11"));
    assert_eq!(branch.len(), 5);
    assert_eq!(branch[0]["content"], "start");
    assert_eq!(branch[1]["content"][0]["text"], "r1");
    assert_eq!(branch[2]["content"], "q2");
    assert!(
        branch[3]["summary"]
            .as_str()
            .unwrap()
            .contains("Tried wrong approach")
    );
    assert_eq!(branch[4]["content"], "better approach");
}

/// orig: buildSessionContext › edge cases › uses last entry when leafId not found
#[test]
fn unknown_leaf_uses_last_entry() {
    let entries = [
        msg("1", None, "user", "hello"),
        msg("2", Some("1"), "assistant", "hi"),
    ];
    assert_eq!(messages(&entries, Some("nonexistent")).len(), 2);
}

/// orig: buildSessionContext › edge cases › handles orphaned entries gracefully
#[test]
fn orphan_entry() {
    let entries = [
        msg("1", None, "user", "hello"),
        msg("2", Some("missing"), "assistant", "orphan"),
    ];
    assert_eq!(messages(&entries, Some("2")).len(), 1);
}
