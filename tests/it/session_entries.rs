//! Every entry type reads and writes byte-for-byte as pi writes it.

use std::path::Path;

use pi::ai::model::ThinkingLevel;
use pi::ai::types::{AssistantMessage, ContentBlock, Message, UserContent, UserMessage};
use pi::session::SessionManager;
use pi::session::entries::{SessionEntry, SessionHeader};
use serde_json::json;

/// One line per entry type, in the exact shape pi writes (key order,
/// optional fields omitted).
const PI_LINES: &[&str] = &[
    r#"{"type":"message","id":"a1b2c3d4","parentId":null,"timestamp":"2024-12-03T14:00:01.000Z","message":{"role":"user","content":"Hello","timestamp":1733234401000}}"#,
    r#"{"type":"message","id":"b2c3d4e5","parentId":"a1b2c3d4","timestamp":"2024-12-03T14:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Hi!"},{"type":"toolCall","id":"call_1","name":"read","arguments":{"path":"a.txt"}}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":1,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":3,"cost":{"input":0.5,"output":0.25,"cacheRead":0.125,"cacheWrite":0.5,"total":1.375}},"stopReason":"toolUse","timestamp":1733234402000}}"#,
    r#"{"type":"message","id":"c3d4e5f6","parentId":"b2c3d4e5","timestamp":"2024-12-03T14:00:03.000Z","message":{"role":"toolResult","toolCallId":"call_1","toolName":"read","content":[{"type":"text","text":"output"}],"details":{"lines":1},"isError":false,"timestamp":1733234403000}}"#,
    r#"{"type":"message","id":"c3d4e5f7","parentId":"c3d4e5f6","timestamp":"2024-12-03T14:00:03.500Z","message":{"role":"bashExecution","command":"ls","output":"a\nb","exitCode":0,"cancelled":false,"truncated":false,"excludeFromContext":true,"timestamp":1733234403500}}"#,
    r#"{"type":"model_change","id":"d4e5f6a7","parentId":"c3d4e5f7","timestamp":"2024-12-03T14:05:00.000Z","provider":"openai","modelId":"gpt-4o"}"#,
    r#"{"type":"thinking_level_change","id":"e5f6a7b8","parentId":"d4e5f6a7","timestamp":"2024-12-03T14:06:00.000Z","thinkingLevel":"high"}"#,
    r#"{"type":"compaction","id":"f6a7b8c9","parentId":"e5f6a7b8","timestamp":"2024-12-03T14:10:00.000Z","summary":"User discussed X","firstKeptEntryId":"c3d4e5f6","tokensBefore":50000,"details":{"readFiles":["a.txt"],"modifiedFiles":[]}}"#,
    r#"{"type":"compaction","id":"f6a7b8ca","parentId":"f6a7b8c9","timestamp":"2024-12-03T14:10:30.000Z","summary":"By an extension","firstKeptEntryId":"c3d4e5f6","tokensBefore":100,"fromHook":true}"#,
    r#"{"type":"branch_summary","id":"a7b8c9d0","parentId":"a1b2c3d4","timestamp":"2024-12-03T14:15:00.000Z","fromId":"f6a7b8c9","summary":"Branch explored approach A","details":{"readFiles":[],"modifiedFiles":["b.rs"]},"fromHook":false}"#,
    r#"{"type":"custom","customType":"my-extension","data":{"count":42},"id":"b8c9d0e1","parentId":"a7b8c9d0","timestamp":"2024-12-03T14:20:00.000Z"}"#,
    r#"{"type":"custom","customType":"no-data","id":"b8c9d0e2","parentId":"b8c9d0e1","timestamp":"2024-12-03T14:20:01.000Z"}"#,
    r#"{"type":"custom_message","customType":"my-extension","content":"Injected context...","display":true,"id":"c9d0e1f2","parentId":"b8c9d0e2","timestamp":"2024-12-03T14:25:00.000Z"}"#,
    r#"{"type":"custom_message","customType":"img","content":[{"type":"text","text":"see"},{"type":"image","data":"AAAA","mimeType":"image/png"}],"display":false,"details":{"k":"v"},"id":"c9d0e1f3","parentId":"c9d0e1f2","timestamp":"2024-12-03T14:25:01.000Z"}"#,
    r#"{"type":"label","id":"d0e1f2a3","parentId":"c9d0e1f3","timestamp":"2024-12-03T14:30:00.000Z","targetId":"a1b2c3d4","label":"checkpoint-1"}"#,
    r#"{"type":"label","id":"d0e1f2a4","parentId":"d0e1f2a3","timestamp":"2024-12-03T14:30:01.000Z","targetId":"a1b2c3d4"}"#,
    r#"{"type":"session_info","id":"e1f2a3b4","parentId":"d0e1f2a4","timestamp":"2024-12-03T14:35:00.000Z","name":"Refactor auth module"}"#,
    r#"{"type":"some_future_entry","id":"f2a3b4c5","parentId":"e1f2a3b4","timestamp":"2024-12-03T14:36:00.000Z","payload":{"z":1,"a":[true,null]}}"#,
];

#[test]
fn every_pi_line_round_trips_exactly() {
    for line in PI_LINES {
        let entry = SessionEntry::parse_line(line).unwrap_or_else(|| panic!("parses: {line}"));
        assert_eq!(&entry.to_json_line(), line);
        let via_value: SessionEntry = serde_json::from_str(line).unwrap();
        assert_eq!(via_value, entry);
    }
}

#[test]
fn known_types_are_typed_and_only_unknown_ones_stay_raw() {
    for line in PI_LINES {
        let entry = SessionEntry::parse_line(line).unwrap();
        let written_type = serde_json::from_str::<serde_json::Value>(line).unwrap()["type"]
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(entry.type_name(), written_type);
        assert_eq!(
            matches!(entry, SessionEntry::Unknown(_)),
            written_type == "some_future_entry",
            "{line}"
        );
    }
}

#[test]
fn header_round_trips_with_and_without_parent() {
    for line in [
        r#"{"type":"session","version":3,"id":"0194a1b2-0000-7000-8000-000000000001","timestamp":"2024-12-03T14:00:00.000Z","cwd":"/path/to/project"}"#,
        r#"{"type":"session","version":3,"id":"u","timestamp":"2024-12-03T14:00:00.000Z","cwd":"/p","parentSession":"/path/to/original/session.jsonl"}"#,
    ] {
        let header: SessionHeader = serde_json::from_str(line).unwrap();
        assert_eq!(serde_json::to_string(&header).unwrap(), line);
    }
}

#[test]
fn a_file_of_every_type_reloads_identically() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("all.jsonl");
    let mut content = String::from(
        r#"{"type":"session","version":3,"id":"s","timestamp":"2024-12-03T14:00:00.000Z","cwd":"/p"}"#,
    );
    content.push('\n');
    for line in PI_LINES {
        content.push_str(line);
        content.push('\n');
    }
    std::fs::write(&path, &content).unwrap();
    let session = SessionManager::open(&path).unwrap();
    assert_eq!(session.entries().len(), PI_LINES.len());
    assert_eq!(session.skipped_lines(), 0);
    // The unknown entry is indexed and is the leaf.
    assert_eq!(session.leaf_id(), Some("f2a3b4c5"));
    assert_eq!(
        session.entry("f2a3b4c5").unwrap().type_name(),
        "some_future_entry"
    );
    // Label set then cleared.
    assert_eq!(session.label("a1b2c3d4"), None);
    assert_eq!(session.session_name(), Some("Refactor auth module"));
    // Nothing was rewritten.
    assert_eq!(std::fs::read_to_string(&path).unwrap(), content);
}

#[test]
fn entries_appended_through_the_manager_reload_equal() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = SessionManager::create(Path::new("/proj"), dir.path());
    let user = session.append_message(Message::User(UserMessage::text("hi")));
    session.append_thinking_level_change(ThinkingLevel::Low);
    session.append_model_change("anthropic", "claude-x");
    let mut reply = AssistantMessage::empty("anthropic-messages", "anthropic", "claude-x");
    reply.content.push(ContentBlock::text("hello"));
    session.append_message(Message::Assistant(reply));
    session.append_custom_entry("state", Some(json!({"n": 1})));
    session.append_custom_entry("bare", None);
    session.append_custom_message_entry("note", UserContent::Text("x".into()), true, None);
    session.append_label_change(&user, Some("start")).unwrap();
    session.append_session_info("  Named  ");
    session.append_compaction("sum", &user, 10, Some(json!({"readFiles": []})), None);
    session
        .branch_with_summary(Some(&user), "left", None, Some(true))
        .unwrap();
    session.sync().unwrap();

    let path = session.session_file().unwrap().to_path_buf();
    let reopened = SessionManager::open(&path).unwrap();
    assert_eq!(reopened.entries(), session.entries());
    assert_eq!(reopened.header(), session.header());
    assert_eq!(reopened.session_name(), Some("Named"));
    assert_eq!(reopened.label(&user), Some("start"));
    assert_eq!(reopened.leaf_id(), session.leaf_id());
    // Each line on disk is exactly the entry's serialisation.
    let text = std::fs::read_to_string(&path).unwrap();
    for (line, entry) in text.lines().skip(1).zip(session.entries()) {
        assert_eq!(line, entry.to_json_line());
    }
    let info_line = text.lines().find(|l| l.contains("session_info")).unwrap();
    assert!(info_line.ends_with(r#""name":"Named"}"#));
    let bare = text
        .lines()
        .find(|l| l.contains(r#""customType":"bare""#))
        .unwrap();
    assert!(bare.starts_with(r#"{"type":"custom","customType":"bare","id":""#));
}
