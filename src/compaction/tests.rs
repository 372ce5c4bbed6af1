use serde_json::json;

use super::*;
use crate::ai::types::{
    AssistantMessage, ContentBlock, Message, StopReason, ToolCall, ToolResultMessage, UserMessage,
};
use crate::config::settings_keys::CompactionSettings;
use crate::session::SessionManager;
use crate::session::entries::SessionEntry;

fn settings(keep: u64) -> CompactionSettings {
    CompactionSettings {
        enabled: true,
        reserve_tokens: 1000,
        keep_recent_tokens: keep,
    }
}

fn user(text: &str) -> Message {
    Message::User(UserMessage::text(text))
}

fn tool_call(name: &str, path: &str, text: &str) -> Message {
    let mut a = AssistantMessage::empty("x", "p", "m");
    a.content = vec![
        ContentBlock::text(text),
        ContentBlock::ToolCall(ToolCall {
            id: format!("c-{path}"),
            name: name.into(),
            arguments: json!({"path": path}),
            thought_signature: None,
            raw_arguments: None,
        }),
    ];
    a.stop_reason = StopReason::ToolUse;
    Message::Assistant(a)
}

fn result(path: &str, text: &str) -> Message {
    Message::ToolResult(ToolResultMessage {
        tool_call_id: format!("c-{path}"),
        tool_name: "read".into(),
        content: vec![ContentBlock::text(text)],
        details: None,
        is_error: false,
        timestamp: 0,
    })
}

fn answer(text: &str) -> Message {
    let mut a = AssistantMessage::empty("x", "p", "m");
    a.content = vec![ContentBlock::text(text)];
    a.usage.total_tokens = 1234;
    Message::Assistant(a)
}

fn session(messages: Vec<Message>) -> (SessionManager, Vec<String>) {
    let mut s = SessionManager::in_memory(std::path::Path::new("/tmp"));
    let ids = messages.into_iter().map(|m| s.append_message(m)).collect();
    (s, ids)
}

#[test]
fn cut_never_lands_on_a_tool_result() {
    // Budget is crossed at the big tool result; the cut moves to the next
    // valid point (the assistant answer after it), never the result itself.
    let (s, ids) = session(vec![
        user("first question"),
        tool_call("read", "a.rs", "reading"),
        result("a.rs", &"r".repeat(4000)),
        answer(&"x".repeat(40)),
        user("second"),
        answer("done"),
    ]);
    let path = s.get_branch(None);
    let cut = find_cut_point(&path, 0, path.len(), 500);
    assert_eq!(path[cut.first_kept_entry_index].id(), ids[3]);
    assert!(cut.is_split_turn);
    assert_eq!(cut.turn_start_index, Some(0));
    for keep in [1, 10, 100, 1000, 1010, 1020, 5000] {
        let cut = find_cut_point(&path, 0, path.len(), keep);
        assert!(
            !matches!(path[cut.first_kept_entry_index], SessionEntry::Message(m) if matches!(m.message, Message::ToolResult(_))),
            "keep={keep} cut at a tool result"
        );
    }
}

#[test]
fn whole_turns_are_kept_when_the_budget_lands_on_a_user_message() {
    let (s, ids) = session(vec![
        user(&"a".repeat(400)),
        answer(&"b".repeat(400)),
        user(&"c".repeat(400)),
        answer(&"d".repeat(400)),
    ]);
    let path = s.get_branch(None);
    let prep = prepare_compaction(&path, settings(200)).unwrap();
    assert_eq!(prep.first_kept_entry_id, ids[2]);
    assert!(!prep.is_split_turn);
    assert_eq!(prep.messages_to_summarize.len(), 2);
    assert!(prep.turn_prefix_messages.is_empty());
    assert_eq!(prep.tokens_before, 1234);
    assert!(prep.previous_summary.is_none());
}

#[test]
fn split_turn_summarizes_the_turn_prefix_separately() {
    let (s, ids) = session(vec![
        user("old"),
        answer("old answer"),
        user("do a big task"),
        tool_call("read", "a.rs", "step 1"),
        result("a.rs", &"r".repeat(2000)),
        tool_call("edit", "b.rs", "step 2"),
        result("b.rs", "ok"),
        answer(&"z".repeat(400)),
    ]);
    let path = s.get_branch(None);
    let prep = prepare_compaction(&path, settings(100)).unwrap();
    assert_eq!(prep.first_kept_entry_id, ids[7]);
    assert!(prep.is_split_turn);
    let roles: Vec<&str> = prep
        .messages_to_summarize
        .iter()
        .map(Message::role)
        .collect();
    assert_eq!(roles, ["user", "assistant"]);
    assert_eq!(prep.turn_prefix_messages.len(), 5);
    let (read, modified) = prep.file_ops.file_lists();
    assert_eq!((read, modified), (vec!["a.rs".into()], vec!["b.rs".into()]));
}

#[test]
fn second_compaction_updates_the_previous_summary_and_carries_files() {
    let (mut s, ids) = session(vec![
        user(&"a".repeat(400)),
        tool_call("read", "old.rs", "r"),
        result("old.rs", "x"),
        user(&"c".repeat(400)),
        answer(&"d".repeat(400)),
    ]);
    s.append_compaction(
        "FIRST SUMMARY",
        &ids[3],
        500,
        Some(json!({"readFiles": ["old.rs"], "modifiedFiles": []})),
        None,
    );
    // Leaf is a compaction: nothing to do.
    assert!(prepare_compaction(&s.get_branch(None), settings(10)).is_none());
    let later = [
        user(&"e".repeat(400)),
        tool_call("write", "new.rs", "w"),
        result("new.rs", "ok"),
        user(&"f".repeat(400)),
        answer(&"g".repeat(400)),
    ];
    let later_ids: Vec<String> = later.into_iter().map(|m| s.append_message(m)).collect();
    let path = s.get_branch(None);
    let prep = prepare_compaction(&path, settings(200)).unwrap();
    assert_eq!(prep.previous_summary.as_deref(), Some("FIRST SUMMARY"));
    assert_eq!(prep.first_kept_entry_id, later_ids[3]);
    // Summarized span starts at the previous kept boundary (ids[3]).
    let Some(Message::User(first)) = prep.messages_to_summarize.first() else {
        panic!("summarized span should start with a user message");
    };
    assert_eq!(first.content.text(), "c".repeat(400));
    assert_eq!(prep.messages_to_summarize.len(), 5);
    assert_eq!(
        prep.file_ops.details(),
        json!({"readFiles": ["old.rs"], "modifiedFiles": ["new.rs"]})
    );
    let prompt = summarize::summary_prompt(
        &prep.messages_to_summarize,
        prep.previous_summary.as_deref(),
        Some("focus on tests"),
    );
    assert!(prompt.contains("<previous-summary>\nFIRST SUMMARY\n</previous-summary>"));
    assert!(prompt.contains("The messages above are NEW conversation messages"));
    assert!(prompt.ends_with("Additional focus: focus on tests"));
}

#[test]
fn branch_summary_collects_back_to_the_common_ancestor() {
    let (mut s, ids) = session(vec![user("root q"), answer("root a")]);
    let b1 = s.append_message(user("branch one"));
    let b2 = s.append_message(tool_call("edit", "x.rs", "editing"));
    s.append_message(result("x.rs", "ok"));
    s.branch(&ids[1]).unwrap();
    let other = s.append_message(user("branch two"));
    s.branch(&b2).unwrap();
    let leaf = s.append_message(answer("end of one"));
    let (entries, common) = collect_entries_for_branch_summary(&s, Some(&leaf), &other);
    assert_eq!(common.as_deref(), Some(ids[1].as_str()));
    let got: Vec<&str> = entries.iter().map(|e| e.id()).collect();
    assert_eq!(got, [b1.as_str(), b2.as_str(), leaf.as_str()]);
    let (messages, ops) = branch::prepare_branch_entries(&entries, 0);
    assert_eq!(messages.len(), 3);
    assert_eq!(
        ops.details(),
        json!({"readFiles": [], "modifiedFiles": ["x.rs"]})
    );
}
