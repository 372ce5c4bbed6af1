//! A resumed session holds an index, not its conversation: the bodies of its
//! messages stay in the file until asked for.

use std::path::{Path, PathBuf};

use super::build_session_context;
use super::entries::SessionEntry;
use super::load::{MigrationWrite, load_session_file};
use super::manager::SessionManager;
use crate::ai::types::{Message, UserContent, UserMessage};

/// A long chain of user and assistant messages with labels, a name and a
/// thinking level change among them; every text is `size` bytes.
fn write_long_session(dir: &Path, messages: usize, size: usize) -> (PathBuf, usize) {
    let path = dir.join("long.jsonl");
    let mut text = format!(
        "{{\"type\":\"session\",\"version\":3,\"id\":\"s1\",\"timestamp\":\"2025-01-01T00:00:00.000Z\",\"cwd\":\"{}\"}}\n",
        dir.display()
    );
    let mut parent = "null".to_string();
    let mut small = 0;
    for i in 0..messages {
        let body = format!("{i:06}-{}", "x".repeat(size));
        let message = if i % 2 == 0 {
            format!(r#"{{"role":"user","content":"{body}","timestamp":{i}}}"#)
        } else {
            format!(
                r#"{{"role":"assistant","content":[{{"type":"text","text":"{body}"}}],"api":"openai-completions","provider":"p{i}","model":"m","usage":{{"input":1,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":3,"cost":{{"input":0.5,"output":0.25,"cacheRead":0.125,"cacheWrite":0.5,"total":1.375}}}},"stopReason":"stop","timestamp":{i}}}"#
            )
        };
        text.push_str(&format!(
            "{{\"type\":\"message\",\"id\":\"m{i}\",\"parentId\":{parent},\"timestamp\":\"2025-01-01T00:00:01.000Z\",\"message\":{message}}}\n"
        ));
        parent = format!("\"m{i}\"");
        if i % 100 == 50 {
            text.push_str(&format!(
                "{{\"type\":\"label\",\"id\":\"l{i}\",\"parentId\":{parent},\"timestamp\":\"2025-01-01T00:00:02.000Z\",\"targetId\":\"m{i}\",\"label\":\"mark {i}\"}}\n"
            ));
            text.push_str(&format!(
                "{{\"type\":\"thinking_level_change\",\"id\":\"t{i}\",\"parentId\":\"l{i}\",\"timestamp\":\"2025-01-01T00:00:02.000Z\",\"thinkingLevel\":\"high\"}}\n"
            ));
            parent = format!("\"t{i}\"");
            small += 2;
        }
    }
    text.push_str(&format!(
        "{{\"type\":\"session_info\",\"id\":\"n1\",\"parentId\":{parent},\"timestamp\":\"2025-01-01T00:00:03.000Z\",\"name\":\"long one\"}}\n"
    ));
    std::fs::write(&path, text).unwrap();
    (path, small + 1)
}

fn user(text: &str) -> Message {
    Message::User(UserMessage {
        content: UserContent::Text(text.into()),
        timestamp: 1,
    })
}

#[test]
fn a_resumed_long_session_holds_no_message_bodies() {
    let dir = tempfile::tempdir().unwrap();
    let (path, small) = write_long_session(dir.path(), 1200, 2000);
    let whole = load_session_file(&path, MigrationWrite::InMemory)
        .unwrap()
        .unwrap();
    let want = build_session_context(&whole.entries, whole.entries.last().map(|e| e.id()));

    let mut session = SessionManager::open(&path).unwrap();
    let context = session.take_context();
    assert_eq!(context, want);
    assert_eq!(context.messages.len(), 1200);
    assert_eq!(context.thinking_level, "high");
    assert_eq!(context.model, Some(("p1199".into(), "m".into())));
    // Only the labels, the thinking changes and the name are in memory.
    assert_eq!(session.bodies_in_memory(), small);
    assert_eq!(session.session_name(), Some("long one"));
    assert_eq!(session.label("m50"), Some("mark 50"));

    // Building the context again reads the file and keeps nothing.
    assert_eq!(session.build_context(), want);
    assert_eq!(session.bodies_in_memory(), small);
    assert_eq!(session.branch_ids(None).len(), whole.entries.len());
    assert_eq!(session.bodies_in_memory(), small);

    // An entry asked for is read and kept until the session next changes.
    let entry = session.entry("m7").unwrap();
    assert_eq!(Some(entry), whole.entries.iter().find(|e| e.id() == "m7"));
    assert_eq!(session.bodies_in_memory(), small + 1);
    assert!(session.entries() == *whole.entries.as_slice());
    assert_eq!(session.bodies_in_memory(), whole.entries.len());
    session.append_message(user("next"));
    assert_eq!(session.bodies_in_memory(), small + 1, "read bodies let go");

    // The file holds the old lines and the new one; reopened, it reads the same.
    let reopened = SessionManager::open(&path).unwrap();
    assert_eq!(reopened.entries().len(), whole.entries.len() + 1);
    assert_eq!(reopened.build_context(), session.build_context());
}

#[test]
fn an_index_reports_the_same_unreadable_lines_as_a_whole_load() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = write_long_session(dir.path(), 400, 3000);
    // Blank, broken and misshapen lines spread over the file, which is long
    // enough to be read in parts.
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for at in [5, 120, 250, 399] {
        lines.insert(at, "not json at all".into());
        lines.insert(at, String::new());
        lines.insert(
            at,
            r#"{"type":"message","id":"bad","parentId":null,"timestamp":"t","message":{"role":"alien"}}"#
                .into(),
        );
    }
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let whole = load_session_file(&path, MigrationWrite::InMemory)
        .unwrap()
        .unwrap();
    let session = SessionManager::open(&path).unwrap();
    assert_eq!(
        session.unreadable_lines(),
        whole.unreadable_lines.as_slice()
    );
    assert_eq!(session.skipped_lines(), whole.skipped_lines);
    assert_eq!(session.unreadable_lines().len(), 8);
    assert!(session.entries() == *whole.entries.as_slice());
}

#[test]
fn bodies_stay_readable_after_the_file_is_removed_and_it_is_written_again_whole() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = write_long_session(dir.path(), 300, 500);
    let mut session = SessionManager::open(&path).unwrap();
    let _ = session.take_context();
    session.append_message(user("before removal"));
    let before = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(matches!(
        session.entry("m3"),
        Some(SessionEntry::Message(_))
    ));
    session.append_message(user("after removal"));
    session.sync().unwrap();
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(after.starts_with(&before), "every old line written again");
    assert!(after[before.len()..].contains("after removal"));
    assert!(session.take_notice().is_some());
}

#[test]
fn a_long_session_taken_as_a_conversation_leaves_its_messages_in_the_file() {
    let dir = tempfile::tempdir().unwrap();
    // Past the size up to which parsed bodies are kept while indexing.
    let (path, small) = write_long_session(dir.path(), 2400, 2000);
    assert!(std::fs::metadata(&path).unwrap().len() > 4 * 1024 * 1024);
    let whole = load_session_file(&path, MigrationWrite::InMemory)
        .unwrap()
        .unwrap();
    let want = build_session_context(&whole.entries, whole.entries.last().map(|e| e.id()));

    let mut session = SessionManager::open(&path).unwrap();
    let (context, conversation) = session.take_conversation();
    assert_eq!(conversation.len(), 2400);
    assert_eq!(conversation.held(), 0, "no message is held in memory");
    assert_eq!(session.bodies_in_memory(), small);
    assert_eq!(context.thinking_level, "high");
    assert_eq!(context.model, Some(("p2399".into(), "m".into())));
    assert!(context.messages.is_empty());
    // Read back one at a time, they are the messages of the whole file.
    assert_eq!(conversation, want.messages);
    let facts = conversation.facts(1);
    assert_eq!(facts.role, "assistant");
    assert_eq!(facts.usage.as_ref().map(|u| u.cost.total), Some(1.375));
    assert_eq!(session.bodies_in_memory(), small, "reading keeps nothing");
}

#[test]
fn a_long_sessions_user_messages_and_branch_are_read_without_being_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (path, small) = write_long_session(dir.path(), 2400, 2000);
    let session = SessionManager::open(&path).unwrap();
    let held = session.bodies_in_memory();
    assert_eq!(held, small, "only the small entries are held after opening");

    let users: Vec<String> = session
        .user_messages()
        .map(|e| e.id().to_string())
        .collect();
    assert_eq!(users.len(), 1200);
    assert_eq!((users[0].as_str(), users[1199].as_str()), ("m0", "m2398"));
    let on_branch = session.branch_user_messages().count();
    assert_eq!(on_branch, 1200);
    let branch: Vec<String> = session
        .branch_loaded(None)
        .map(|e| e.id().to_string())
        .collect();
    assert_eq!(session.bodies_in_memory(), held, "the passes kept no body");
    let want: Vec<String> = session
        .get_branch(None)
        .iter()
        .map(|e| e.id().to_string())
        .collect();
    // Reading the branch through `get_branch` keeps every body it read.
    assert_eq!(branch, want);
    assert!(session.bodies_in_memory() > held + 2000);
}

#[test]
fn a_short_session_taken_as_a_conversation_holds_its_messages() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = write_long_session(dir.path(), 200, 100);
    let mut session = SessionManager::open(&path).unwrap();
    let (_, conversation) = session.take_conversation();
    assert_eq!(conversation.len(), 200);
    assert_eq!(conversation.held(), 200);
}

#[test]
fn a_parent_id_written_twice_is_found_as_a_whole_load_finds_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("twice.jsonl");
    let line = |id: &str, parent: Option<&str>, text: &str| {
        let parent = parent.map_or("null".to_string(), |p| format!("\"{p}\""));
        format!(
            "{{\"type\":\"message\",\"id\":\"{id}\",\"parentId\":{parent},\"timestamp\":\"2025-01-01T00:00:01.000Z\",\"message\":{{\"role\":\"user\",\"content\":\"{text}\",\"timestamp\":1}}}}\n"
        )
    };
    // `d`'s parent `a` is written twice: the entry just before `d` and a later one.
    let text = format!(
        "{{\"type\":\"session\",\"version\":3,\"id\":\"s1\",\"timestamp\":\"2025-01-01T00:00:00.000Z\",\"cwd\":\"/w\"}}\n{}{}{}{}{}",
        line("r", None, "root"),
        line("a", Some("r"), "first a"),
        line("d", Some("a"), "d"),
        line("a", None, "second a"),
        line("e", Some("d"), "e"),
    );
    std::fs::write(&path, text).unwrap();
    let whole = load_session_file(&path, MigrationWrite::InMemory)
        .unwrap()
        .unwrap();
    let want = build_session_context(&whole.entries, Some("e"));
    let mut session = SessionManager::open(&path).unwrap();
    assert_eq!(session.branch_ids(Some("e")), ["a", "d", "e"]);
    let texts: Vec<String> = session
        .get_branch(Some("e"))
        .iter()
        .filter_map(|e| match e.as_message() {
            Some(Message::User(u)) => Some(u.content.text()),
            _ => None,
        })
        .collect();
    assert_eq!(texts, ["second a", "d", "e"]);
    assert_eq!(session.take_conversation().1, want.messages);
}
