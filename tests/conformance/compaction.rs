//! Compaction utilities: context token counts, the compaction threshold, cut points,
//! context rebuilding after compactions, the original's large-session fixture, and the
//! transcript sent for summarisation.
//! orig-file: packages/coding-agent/test/compaction.test.ts, compaction-serialization.test.ts

use std::path::Path;

use pi::ai::types::{Message, Usage};
use pi::compaction::serialize::serialize_conversation;
use pi::compaction::tokens::calculate_context_tokens;
use pi::compaction::{estimate_context_tokens, estimate_tokens, find_cut_point, should_compact};
use pi::config::settings_keys::CompactionSettings;
use pi::session::load::{MigrationWrite, load_session_file};
use pi::session::{SessionEntry, build_session_context};
use serde_json::{Value, json};

fn usage(input: u64, output: u64, cache_read: u64, cache_write: u64) -> Value {
    json!({"input": input, "output": output, "cacheRead": cache_read, "cacheWrite": cache_write,
           "totalTokens": input + output + cache_read + cache_write,
           "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}})
}

fn user(text: &str) -> Value {
    json!({"role": "user", "content": text, "timestamp": 1})
}

fn assistant(text: &str, usage: Value) -> Value {
    json!({"role": "assistant", "content": [{"type": "text", "text": text}], "usage": usage,
           "stopReason": "stop", "timestamp": 1, "api": "anthropic-messages",
           "provider": "anthropic", "model": "claude-sonnet-4-5"})
}

fn default_assistant(text: &str) -> Value {
    assistant(text, usage(100, 50, 0, 0))
}

/// Builds a chain of entries with ids `test-id-N`, each the child of the previous one.
#[derive(Default)]
struct Chain {
    entries: Vec<SessionEntry>,
}

impl Chain {
    fn push(&mut self, mut raw: Value) -> String {
        let id = format!("test-id-{}", self.entries.len());
        let parent = self.entries.last().map(|e| e.id().to_string());
        raw["id"] = json!(id);
        raw["parentId"] = json!(parent);
        raw["timestamp"] = json!("2025-01-01T00:00:00Z");
        self.entries.push(SessionEntry::from_value(raw));
        id
    }
    fn message(&mut self, message: Value) -> String {
        self.push(json!({"type": "message", "message": message}))
    }
    fn compaction(&mut self, summary: &str, first_kept: &str) -> String {
        self.push(json!({"type": "compaction", "summary": summary, "firstKeptEntryId": first_kept, "tokensBefore": 10000}))
    }
    fn refs(&self) -> Vec<&SessionEntry> {
        self.entries.iter().collect()
    }
    fn context(&self) -> pi::session::SessionContext {
        build_session_context(&self.entries, self.entries.last().map(|e| e.id()))
    }
}

fn to_usage(v: Value) -> Usage {
    serde_json::from_value(v).unwrap()
}

fn msg(v: Value) -> Message {
    serde_json::from_value(v).unwrap()
}

/// orig: compaction.test.ts › Token calculation › should calculate total context tokens from usage
#[test]
fn context_tokens_from_usage() {
    assert_eq!(
        calculate_context_tokens(&to_usage(usage(1000, 500, 200, 100))),
        1800
    );
}

/// orig: compaction.test.ts › Token calculation › should handle zero values
#[test]
fn context_tokens_zero() {
    assert_eq!(calculate_context_tokens(&to_usage(usage(0, 0, 0, 0))), 0);
}

/// orig: compaction.test.ts › getLastAssistantUsage › should find the last non-aborted assistant message usage
#[test]
fn last_assistant_usage_counts() {
    let messages = [
        msg(user("Hello")),
        msg(assistant("Hi", usage(100, 50, 0, 0))),
        msg(user("How are you?")),
        msg(assistant("Good", usage(200, 100, 0, 0))),
    ];
    assert_eq!(estimate_context_tokens(&messages.to_vec().into()), 300);
}

/// orig: compaction.test.ts › getLastAssistantUsage › should skip aborted messages
#[test]
fn aborted_usage_skipped() {
    let mut aborted = assistant("Aborted", usage(300, 150, 0, 0));
    aborted["stopReason"] = json!("aborted");
    let messages = [
        msg(user("Hello")),
        msg(assistant("Hi", usage(100, 50, 0, 0))),
        msg(user("How are you?")),
        msg(aborted),
    ];
    let after: u64 = messages[2..].iter().map(estimate_tokens).sum();
    assert_eq!(
        estimate_context_tokens(&messages.to_vec().into()),
        150 + after
    );
}

/// orig: compaction.test.ts › getLastAssistantUsage › should return undefined if no assistant messages
#[test]
fn no_assistant_usage_estimates_everything() {
    let messages = [msg(user("Hello"))];
    assert_eq!(
        estimate_context_tokens(&messages.to_vec().into()),
        estimate_tokens(&messages[0])
    );
}

fn settings(enabled: bool) -> CompactionSettings {
    CompactionSettings {
        enabled,
        reserve_tokens: 10000,
        keep_recent_tokens: 20000,
    }
}

/// orig: compaction.test.ts › shouldCompact › should return true when context exceeds threshold
#[test]
fn threshold() {
    assert!(should_compact(95000, 100000, &settings(true)));
    assert!(!should_compact(89000, 100000, &settings(true)));
}

/// orig: compaction.test.ts › shouldCompact › should return false when disabled
#[test]
fn disabled_never_compacts() {
    assert!(!should_compact(95000, 100000, &settings(false)));
}

fn role_at(entries: &[&SessionEntry], index: usize) -> String {
    entries[index]
        .as_message()
        .map(|m| m.role().to_string())
        .unwrap_or_default()
}

/// orig: compaction.test.ts › findCutPoint › should find cut point based on actual token differences
#[test]
fn cut_at_a_message() {
    let mut c = Chain::default();
    for i in 0..10 {
        c.message(user(&format!("User {i}")));
        c.message(assistant(
            &format!("Assistant {i}"),
            usage(0, 100, (i + 1) * 1000, 0),
        ));
    }
    let refs = c.refs();
    let cut = find_cut_point(&refs, 0, refs.len(), 2500);
    let role = role_at(&refs, cut.first_kept_entry_index);
    assert!(role == "user" || role == "assistant", "{role}");
}

/// orig: compaction.test.ts › findCutPoint › should return startIndex if no valid cut points in range
#[test]
fn cut_without_candidates() {
    let mut c = Chain::default();
    c.message(default_assistant("a"));
    let refs = c.refs();
    assert_eq!(
        find_cut_point(&refs, 0, refs.len(), 1000).first_kept_entry_index,
        0
    );
}

/// orig: compaction.test.ts › findCutPoint › should keep everything if all messages fit within budget
#[test]
fn cut_keeps_all_within_budget() {
    let mut c = Chain::default();
    c.message(user("1"));
    c.message(assistant("a", usage(0, 50, 500, 0)));
    c.message(user("2"));
    c.message(assistant("b", usage(0, 50, 1000, 0)));
    let refs = c.refs();
    assert_eq!(
        find_cut_point(&refs, 0, refs.len(), 50000).first_kept_entry_index,
        0
    );
}

/// orig: compaction.test.ts › findCutPoint › should indicate split turn when cutting at assistant message
#[test]
fn split_turn_reported() {
    let mut c = Chain::default();
    c.message(user("Turn 1"));
    c.message(assistant("A1", usage(0, 100, 1000, 0)));
    c.message(user("Turn 2"));
    c.message(assistant("A2-1", usage(0, 100, 5000, 0)));
    c.message(assistant("A2-2", usage(0, 100, 8000, 0)));
    c.message(assistant("A2-3", usage(0, 100, 10000, 0)));
    let refs = c.refs();
    let cut = find_cut_point(&refs, 0, refs.len(), 3000);
    if role_at(&refs, cut.first_kept_entry_index) == "assistant" {
        assert!(cut.is_split_turn);
        assert_eq!(cut.turn_start_index, Some(2));
    }
}

/// orig: compaction.test.ts › buildSessionContext › should load all messages when no compaction
#[test]
fn context_without_compaction() {
    let mut c = Chain::default();
    c.message(user("1"));
    c.message(default_assistant("a"));
    c.message(user("2"));
    c.message(default_assistant("b"));
    let ctx = c.context();
    assert_eq!(ctx.messages.len(), 4);
    assert_eq!(ctx.thinking_level, "off");
    assert_eq!(
        ctx.model,
        Some(("anthropic".into(), "claude-sonnet-4-5".into()))
    );
}

/// orig: compaction.test.ts › buildSessionContext › should handle single compaction
#[test]
fn context_single_compaction() {
    let mut c = Chain::default();
    c.message(user("1"));
    c.message(default_assistant("a"));
    let u2 = c.message(user("2"));
    c.message(default_assistant("b"));
    c.compaction("Summary of 1,a,2,b", &u2);
    c.message(user("3"));
    c.message(default_assistant("c"));
    let ctx = c.context();
    assert_eq!(ctx.messages.len(), 5);
    let first = serde_json::to_value(&ctx.messages[0]).unwrap();
    assert_eq!(first["role"], "compactionSummary");
    assert!(
        first["summary"]
            .as_str()
            .unwrap()
            .contains("Summary of 1,a,2,b")
    );
}

/// orig: compaction.test.ts › buildSessionContext › should handle multiple compactions (only latest matters)
#[test]
fn context_latest_compaction() {
    let mut c = Chain::default();
    let u1 = c.message(user("1"));
    c.message(default_assistant("a"));
    c.compaction("First summary", &u1);
    c.message(user("2"));
    c.message(default_assistant("b"));
    let u3 = c.message(user("3"));
    c.message(default_assistant("c"));
    c.compaction("Second summary", &u3);
    c.message(user("4"));
    c.message(default_assistant("d"));
    let ctx = c.context();
    assert_eq!(ctx.messages.len(), 5);
    let first = serde_json::to_value(&ctx.messages[0]).unwrap();
    assert!(
        first["summary"]
            .as_str()
            .unwrap()
            .contains("Second summary")
    );
}

/// orig: compaction.test.ts › buildSessionContext › should keep all messages when firstKeptEntryId is first entry
#[test]
fn context_compaction_keeping_all() {
    let mut c = Chain::default();
    let u1 = c.message(user("1"));
    c.message(default_assistant("a"));
    c.compaction("First summary", &u1);
    c.message(user("2"));
    c.message(default_assistant("b"));
    assert_eq!(c.context().messages.len(), 5);
}

/// orig: compaction.test.ts › buildSessionContext › should track model and thinking level changes
#[test]
fn context_tracks_model_and_thinking() {
    let mut c = Chain::default();
    c.message(user("1"));
    c.push(json!({"type": "model_change", "provider": "openai", "modelId": "gpt-4"}));
    c.message(default_assistant("a"));
    c.push(json!({"type": "thinking_level_change", "thinkingLevel": "high"}));
    let ctx = c.context();
    assert_eq!(
        ctx.model,
        Some(("anthropic".into(), "claude-sonnet-4-5".into()))
    );
    assert_eq!(ctx.thinking_level, "high");
}

fn large_session() -> Vec<SessionEntry> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/conformance/large-session.jsonl");
    load_session_file(&path, MigrationWrite::InMemory)
        .unwrap()
        .unwrap()
        .entries
}

/// orig: compaction.test.ts › Large session fixture › should parse the large session
#[test]
fn large_session_parses() {
    let entries = large_session();
    assert!(entries.len() > 100);
    assert!(entries.iter().filter(|e| e.is_message()).count() > 100);
    assert!(!entries.iter().any(|e| e.is_unreadable()));
}

/// orig: compaction.test.ts › Large session fixture › should find cut point in large session
#[test]
fn large_session_cut_point() {
    let entries = large_session();
    let refs: Vec<&SessionEntry> = entries.iter().collect();
    let cut = find_cut_point(&refs, 0, refs.len(), 20000);
    let role = role_at(&refs, cut.first_kept_entry_index);
    assert!(role == "user" || role == "assistant", "{role}");
    // The same cut pi 0.73.1's own findCutPoint computes for this fixture.
    assert_eq!(refs.len(), 1018);
    assert_eq!(cut.first_kept_entry_index, 837);
    assert_eq!(cut.turn_start_index, Some(834));
    assert!(cut.is_split_turn);
}

/// orig: compaction.test.ts › Large session fixture › should load session correctly
#[test]
fn large_session_context() {
    let entries = large_session();
    let ctx = build_session_context(&entries, entries.last().map(|e| e.id()));
    assert!(ctx.messages.len() > 100);
    assert!(ctx.model.is_some());
}

fn tool_result(text: &str) -> Message {
    msg(
        json!({"role": "toolResult", "toolCallId": "tc1", "toolName": "read",
               "content": [{"type": "text", "text": text}], "isError": false, "timestamp": 1}),
    )
}

/// orig: compaction-serialization.test.ts › serializeConversation › should truncate long tool results
#[test]
fn long_tool_results_cut() {
    let out = serialize_conversation(&[tool_result(&"x".repeat(5000))]);
    assert!(out.contains("[Tool result]:"));
    assert!(out.contains("[... 3000 more characters truncated]"));
    assert!(!out.contains(&"x".repeat(3000)));
    assert!(out.contains(&"x".repeat(2000)));
}

/// orig: compaction-serialization.test.ts › serializeConversation › should not truncate short tool results
#[test]
fn short_tool_results_whole() {
    let text = "x".repeat(1500);
    assert_eq!(
        serialize_conversation(&[tool_result(&text)]),
        format!("[Tool result]: {text}")
    );
}

/// orig: compaction-serialization.test.ts › serializeConversation › should not truncate assistant or user messages
#[test]
fn user_and_assistant_never_cut() {
    let long = "y".repeat(5000);
    let out = serialize_conversation(&[
        msg(json!({"role": "user", "content": [{"type": "text", "text": long}], "timestamp": 1})),
        msg(assistant(&long, usage(0, 0, 0, 0))),
    ]);
    assert!(!out.contains("truncated"));
    assert!(out.contains(&long));
}
