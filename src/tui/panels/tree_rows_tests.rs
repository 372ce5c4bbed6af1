//! The rows of `/tree` come from the session index: a session opened from its
//! file lists the same rows as the session that wrote it, without reading any
//! entry body back.

use std::path::Path;

use crate::ai::types::{
    AssistantMessage, BashExecutionMessage, BranchSummaryMessage, CompactionSummaryMessage,
    ContentBlock, CustomMessage, Message, StopReason, ToolCall, ToolResultMessage, UserContent,
    UserMessage,
};
use crate::session::SessionManager;
use crate::tui::panels::tree_rows::{RowKind, flatten};
use crate::tui::panels::tree_selector::{TreeFilter, TreeSelector};
use crate::ui_kit::keybindings::Keybindings;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

fn answer(text: &str, calls: &[&str], stop: StopReason, error: Option<&str>) -> Message {
    let mut a = AssistantMessage::empty("x", "p", "m");
    if !text.is_empty() {
        a.content.push(ContentBlock::text(text));
    }
    for (i, name) in calls.iter().enumerate() {
        a.content.push(ContentBlock::ToolCall(ToolCall {
            id: format!("c{i}"),
            name: (*name).into(),
            arguments: serde_json::json!({"path": "a.txt"}),
            thought_signature: None,
            raw_arguments: None,
        }));
    }
    a.stop_reason = stop;
    a.error_message = error.map(str::to_string);
    Message::Assistant(a)
}

fn tool_result(name: &str, text: &str) -> Message {
    Message::ToolResult(ToolResultMessage {
        tool_call_id: "c0".into(),
        tool_name: name.into(),
        content: vec![ContentBlock::text(text)],
        details: None,
        is_error: false,
        timestamp: 0,
    })
}

/// Every kind of entry the tree shows, with a branch, labels set and cleared,
/// long and multi-line texts; written to a session file under `dir`.
fn every_kind(dir: &Path) -> SessionManager {
    let long = format!("first line\n\n  second {}", "word ".repeat(100));
    let mut s = SessionManager::create(Path::new("/p"), dir);
    s.append_model_change("anthropic", "claude/sonnet");
    s.append_thinking_level_change(crate::ai::model::ThinkingLevel::High);
    let hello = s.append_message(Message::User(UserMessage::text(long.clone())));
    s.append_message(answer("", &["read", "bash"], StopReason::ToolUse, None));
    s.append_message(tool_result("read", &long));
    let done = s.append_message(answer(&long, &["edit"], StopReason::Stop, None));
    s.append_message(answer("", &[], StopReason::Error, Some("boom\nat line 2")));
    s.append_message(answer("   ", &[], StopReason::Stop, None));
    s.append_message(answer("", &[], StopReason::Length, None));
    s.append_message(answer(
        "",
        &[],
        StopReason::Aborted,
        Some("Request was aborted"),
    ));
    s.append_message(Message::BashExecution(BashExecutionMessage {
        command: "ls\n-la".into(),
        output: "a.txt".into(),
        exit_code: Some(0),
        cancelled: false,
        truncated: false,
        full_output_path: None,
        exclude_from_context: None,
        timestamp: 0,
    }));
    s.append_message(Message::Custom(CustomMessage {
        custom_type: "note".into(),
        content: UserContent::Blocks(vec![ContentBlock::text("from an extension")]),
        display: true,
        details: None,
        timestamp: 0,
    }));
    s.append_message(Message::BranchSummary(BranchSummaryMessage {
        summary: "went elsewhere".into(),
        from_id: hello.clone(),
        timestamp: 0,
    }));
    s.append_message(Message::CompactionSummary(CompactionSummaryMessage {
        summary: "earlier".into(),
        tokens_before: 4321,
        timestamp: 0,
    }));
    s.append_compaction("summary", &hello, 98765, None, None);
    s.append_custom_entry("state", Some(serde_json::json!({"n": 1})));
    s.append_custom_message_entry("memo", UserContent::Text("kept".into()), true, None);
    s.append_label_change(&done, Some("the answer")).unwrap();
    let cleared = s.append_label_change(&hello, Some("gone")).unwrap();
    s.append_label_change(&hello, None).unwrap();
    s.append_session_info("every kind");
    s.branch_with_summary(Some(&cleared), "left behind", None, None)
        .unwrap();
    s.append_message(Message::User(UserMessage::text("on the other branch")));
    s.sync().unwrap();
    s
}

/// The same session opened from its file, holding no message body.
fn reopened(held: &SessionManager) -> SessionManager {
    let path = held.session_file().expect("written to a file");
    let mut opened = SessionManager::open(path).unwrap();
    opened.take_context();
    opened
}

#[test]
fn an_indexed_session_lists_the_rows_of_the_session_that_wrote_it() {
    let dir = tempfile::tempdir().unwrap();
    let held = every_kind(dir.path());
    let opened = reopened(&held);
    let want = flatten(&held);
    let got = flatten(&opened);
    assert_eq!(got, want);
    assert_eq!(got.rows.len(), held.entry_ids().count());
    let texts: Vec<&str> = got.rows.iter().map(|r| r.text.as_str()).collect();
    for expected in [
        "[model: claude/sonnet]",
        "assistant: (error: boom at line 2)",
        "assistant: (aborted)",
        "assistant: (no content)",
        "!ls -la",
        "[note] from an extension",
        "[memo] kept",
        "[label: the answer]",
        "[label: (cleared)]",
        "[name: every kind]",
        "[thinking: high]",
        "user: on the other branch",
    ] {
        assert!(texts.contains(&expected), "{expected:?} in {texts:#?}");
    }
    let quiet: Vec<&str> = got
        .rows
        .iter()
        .filter(|r| r.quiet)
        .map(|r| r.text.as_str())
        .collect();
    assert_eq!(
        quiet,
        ["assistant: (no content)", "assistant: (no content)"]
    );
    let user = got.rows.iter().find(|r| r.kind == RowKind::User).unwrap();
    assert!(user.text.starts_with("user: first line    second word"));
    // Cut at 200 characters with no mark, the space before the cut dropped.
    let cut = crate::session::preview::PREVIEW_CHARS;
    assert_eq!(user.text.chars().count(), "user: ".len() + cut);
    assert!(user.text.ends_with(" word"), "{}", user.text);
}

#[test]
fn listing_the_tree_keeps_no_body_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let held = every_kind(dir.path());
    let opened = reopened(&held);
    let before = opened.bodies_in_memory();
    assert!(
        before < held.entry_ids().count() / 2,
        "{before} bodies held"
    );
    let rows = flatten(&opened).rows.len();
    assert_eq!(rows, held.entry_ids().count());
    assert_eq!(opened.bodies_in_memory(), before);
}

#[test]
fn searching_an_indexed_tree_finds_rows_by_their_text() {
    let dir = tempfile::tempdir().unwrap();
    let opened = reopened(&every_kind(dir.path()));
    let data = flatten(&opened);
    let mut tree = TreeSelector::new(data.clone(), TreeFilter::All);
    let keys = Keybindings::default();
    for c in "extension".chars() {
        tree.handle_key(&KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE), &keys);
    }
    let found: Vec<&str> = tree
        .visible_rows()
        .iter()
        .map(|&r| data.rows[r].text.as_str())
        .collect();
    assert_eq!(found, ["[note] from an extension"]);
}

/// A result answering call `id` of tool `name`.
fn result_of(id: &str, name: &str) -> Message {
    Message::ToolResult(ToolResultMessage {
        tool_call_id: id.into(),
        tool_name: name.into(),
        content: vec![ContentBlock::text("output")],
        details: None,
        is_error: false,
        timestamp: 0,
    })
}

/// An answer calling `name` with `arguments` as call `id`.
pub(super) fn call(id: &str, name: &str, arguments: serde_json::Value) -> Message {
    let mut a = AssistantMessage::empty("x", "p", "m");
    a.content.push(ContentBlock::ToolCall(ToolCall {
        id: id.into(),
        name: name.into(),
        arguments,
        thought_signature: None,
        raw_arguments: None,
    }));
    a.stop_reason = StopReason::ToolUse;
    Message::Assistant(a)
}

#[test]
fn a_tool_result_shows_the_call_that_produced_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = SessionManager::create(Path::new("/p"), dir.path());
    s.append_message(Message::User(UserMessage::text("go")));
    let command = "cargo test\n--lib session:: && echo done, all of it passed";
    s.append_message(call(
        "b1",
        "bash",
        serde_json::json!({ "command": command }),
    ));
    s.append_message(result_of("b1", "bash"));
    let args = serde_json::json!({"pattern": "fn main", "path": "src"});
    s.append_message(call("g1", "grep", args));
    s.append_message(result_of("g1", "grep"));
    s.append_message(result_of("gone", "find"));
    s.sync().unwrap();
    for session in [&s, &reopened(&s)] {
        let texts: Vec<String> = flatten(session).rows.into_iter().map(|r| r.text).collect();
        let results: Vec<&str> = texts
            .iter()
            .filter(|t| t.starts_with('['))
            .map(String::as_str)
            .collect();
        assert_eq!(
            results,
            [
                "[bash: cargo test --lib session:: && echo done, all of it...]",
                "[grep: /fn main/ in src]",
                "[find]",
            ]
        );
    }
}

#[test]
fn a_call_answered_on_another_branch_is_found_too() {
    let mut s = SessionManager::in_memory(Path::new("/p"));
    s.append_message(Message::User(UserMessage::text("go")));
    let asked = s.append_message(call(
        "r1",
        "read",
        serde_json::json!({"path": "a", "limit": 3}),
    ));
    s.append_message(result_of("r1", "read"));
    s.branch(&asked).unwrap();
    s.append_message(result_of("r1", "read"));
    let data = flatten(&s);
    let shown = data
        .rows
        .iter()
        .filter(|r| r.text == "[read: a:1-3]")
        .count();
    assert_eq!(shown, 2);
}

#[test]
fn each_kind_of_row_is_coloured_as_pi_colours_it() {
    let dir = tempfile::tempdir().unwrap();
    let data = flatten(&every_kind(dir.path()));
    // (start of the text, its coloured lead, the lead's token, the rest's token)
    let paint = |start: &str| {
        let row = data
            .rows
            .iter()
            .find(|r| r.text.starts_with(start))
            .unwrap_or_else(|| panic!("{start:?}"));
        let p = row.paint;
        (&row.text[..p.head], p.lead, p.body)
    };
    assert_eq!(paint("user: on"), ("user: ", Some("accent"), None));
    assert_eq!(
        paint("assistant: first"),
        ("assistant: ", Some("success"), None)
    );
    let error = paint("assistant: (error");
    assert_eq!(error, ("assistant: ", Some("success"), Some("error")));
    let aborted = paint("assistant: (aborted");
    assert_eq!(aborted, ("assistant: ", Some("success"), Some("muted")));
    assert_eq!(
        paint("[note] "),
        ("[note] ", Some("customMessageLabel"), None)
    );
    let result = data
        .rows
        .iter()
        .find(|r| r.kind == RowKind::ToolResult)
        .unwrap();
    assert_eq!((result.paint.head, result.paint.body), (0, Some("muted")));
    assert_eq!(paint("!ls"), ("", None, Some("dim")));
    assert_eq!(paint("[model: "), ("", None, Some("dim")));
    assert_eq!(paint("[label: "), ("", None, Some("dim")));
    assert_eq!(paint("[compaction: "), ("", None, Some("borderAccent")));
}
