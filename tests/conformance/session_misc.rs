//! Session migration from v1, custom session ids, and custom entries in the tree.
//! orig-file: packages/coding-agent/test/session-manager/migration.test.ts, custom-session-id.test.ts, save-entry.test.ts

use std::path::Path;

use pi::session::SessionManager;
use pi::session::migrate::migrate_to_current;
use serde_json::{Value, json};

use crate::session_tree::{assistant, entries_json, user};

fn assistant_v1() -> Value {
    json!({"role": "assistant", "content": [{"type": "text", "text": "hello"}], "api": "test",
           "provider": "test", "model": "test",
           "usage": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0},
           "stopReason": "stop", "timestamp": 2})
}

/// orig: migration.test.ts › migrateSessionEntries › should add id/parentId to v1 entries
#[test]
fn v1_entries_get_ids() {
    let mut lines = vec![
        json!({"type": "session", "id": "sess-1", "timestamp": "2025-01-01T00:00:00Z", "cwd": "/tmp"}),
        json!({"type": "message", "timestamp": "2025-01-01T00:00:01Z", "message": {"role": "user", "content": "hi", "timestamp": 1}}),
        json!({"type": "message", "timestamp": "2025-01-01T00:00:02Z", "message": assistant_v1()}),
    ];
    migrate_to_current(&mut lines);
    assert_eq!(lines[0]["version"], 3);
    let first = lines[1]["id"].as_str().unwrap();
    assert_eq!(first.len(), 8);
    assert_eq!(lines[1]["parentId"], Value::Null);
    assert_eq!(lines[2]["id"].as_str().unwrap().len(), 8);
    assert_eq!(lines[2]["parentId"], first);
}

/// orig: migration.test.ts › migrateSessionEntries › should be idempotent (skip already migrated)
#[test]
fn migrated_ids_unchanged() {
    let mut lines = vec![
        json!({"type": "session", "id": "sess-1", "version": 2, "timestamp": "2025-01-01T00:00:00Z", "cwd": "/tmp"}),
        json!({"type": "message", "id": "abc12345", "parentId": null, "timestamp": "2025-01-01T00:00:01Z", "message": {"role": "user", "content": "hi", "timestamp": 1}}),
        json!({"type": "message", "id": "def67890", "parentId": "abc12345", "timestamp": "2025-01-01T00:00:02Z", "message": assistant_v1()}),
    ];
    migrate_to_current(&mut lines);
    assert_eq!(lines[1]["id"], "abc12345");
    assert_eq!(lines[2]["id"], "def67890");
    assert_eq!(lines[2]["parentId"], "abc12345");
}

fn memory() -> SessionManager {
    SessionManager::in_memory(Path::new("/tmp"))
}

/// orig: custom-session-id.test.ts › SessionManager.newSession with custom id › uses the provided id instead of generating one
#[test]
fn custom_id_used() {
    let mut s = memory();
    s.new_session_with_id(None, "my-custom-id");
    assert_eq!(s.session_id(), "my-custom-id");
}

/// orig: custom-session-id.test.ts › SessionManager.newSession with custom id › generates a random id when no id is provided
#[test]
fn generated_id() {
    let mut s = memory();
    let before = s.session_id().to_string();
    s.new_session(None);
    assert!(!s.session_id().is_empty());
    assert_ne!(s.session_id(), before);
}

/// orig: custom-session-id.test.ts › SessionManager.newSession with custom id › generates a random id when options is provided without id
#[test]
fn generated_id_with_parent() {
    let mut s = memory();
    s.new_session(Some("parent.jsonl"));
    assert!(!s.session_id().is_empty());
    assert_eq!(s.header().parent_session.as_deref(), Some("parent.jsonl"));
}

/// orig: custom-session-id.test.ts › SessionManager.newSession with custom id › includes the custom id in the session header
#[test]
fn custom_id_in_header() {
    let mut s = memory();
    s.new_session_with_id(None, "header-test-id");
    assert_eq!(s.header().id, "header-test-id");
}

/// orig: save-entry.test.ts › SessionManager.saveCustomEntry › saves custom entries and includes them in tree traversal
#[test]
fn custom_entry_saved_and_traversed() {
    let mut s = memory();
    let a = s.append_message(user("hello"));
    let c = s.append_custom_entry("my_data", Some(json!({"foo": "bar"})));
    let b = s.append_message(assistant("hi"));
    let e = entries_json(&s);
    assert_eq!(e.len(), 3);
    let custom = e.iter().find(|x| x["type"] == "custom").unwrap();
    assert_eq!(custom["customType"], "my_data");
    assert_eq!(custom["data"], json!({"foo": "bar"}));
    assert_eq!(custom["id"], c);
    assert_eq!(custom["parentId"], a);
    let path: Vec<&str> = s.get_branch(None).iter().map(|e| e.id()).collect();
    assert_eq!(path, [a.as_str(), c.as_str(), b.as_str()]);
    assert_eq!(s.build_context().messages.len(), 2);
}
