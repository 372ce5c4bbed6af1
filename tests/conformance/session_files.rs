//! Reading session files, finding the most recent one, and opening damaged files.
//! orig-file: packages/coding-agent/test/session-manager/file-operations.test.ts

use std::path::Path;

use pi::session::SessionManager;
use pi::session::load::{MigrationWrite, load_session_file};
use pi::session::manager::most_recent_session;

const HEADER: &str =
    r#"{"type":"session","id":"abc","timestamp":"2025-01-01T00:00:00Z","cwd":"/tmp"}"#;
const MESSAGE: &str = r#"{"type":"message","id":"1","parentId":null,"timestamp":"2025-01-01T00:00:01Z","message":{"role":"user","content":"hi","timestamp":1}}"#;

fn load(path: &Path) -> Option<pi::session::load::LoadedSession> {
    load_session_file(path, MigrationWrite::InMemory).unwrap()
}

/// orig: loadEntriesFromFile › returns empty array for non-existent file
#[test]
fn missing_file_loads_nothing() {
    let dir = tempfile::tempdir().unwrap();
    assert!(load(&dir.path().join("nonexistent.jsonl")).is_none());
}

/// orig: loadEntriesFromFile › returns empty array for empty file
#[test]
fn empty_file_loads_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("empty.jsonl");
    std::fs::write(&file, "").unwrap();
    assert!(load(&file).is_none());
}

/// orig: loadEntriesFromFile › returns empty array for file without valid session header
#[test]
fn headerless_file_is_not_a_session() {
    // Differs: the original reads such a file as empty; here it is reported as not a session
    // file (and left untouched), so a wrong --session path cannot be mistaken for a session.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("no-header.jsonl");
    std::fs::write(&file, "{\"type\":\"message\",\"id\":\"1\"}\n").unwrap();
    assert!(load_session_file(&file, MigrationWrite::InMemory).is_err());
}

/// orig: loadEntriesFromFile › returns empty array for malformed JSON
#[test]
fn malformed_file_is_not_a_session() {
    // Differs as above: an error naming the file instead of an empty session.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("malformed.jsonl");
    std::fs::write(&file, "not json\n").unwrap();
    assert!(load_session_file(&file, MigrationWrite::InMemory).is_err());
}

/// orig: loadEntriesFromFile › loads valid session file
#[test]
fn valid_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("valid.jsonl");
    std::fs::write(&file, format!("{HEADER}\n{MESSAGE}\n")).unwrap();
    let loaded = load(&file).unwrap();
    assert_eq!(loaded.header.id, "abc");
    assert_eq!(loaded.entries.len(), 1);
    assert_eq!(loaded.entries[0].type_name(), "message");
}

/// orig: loadEntriesFromFile › skips malformed lines but keeps valid ones
#[test]
fn malformed_line_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mixed.jsonl");
    std::fs::write(&file, format!("{HEADER}\nnot valid json\n{MESSAGE}\n")).unwrap();
    let loaded = load(&file).unwrap();
    let messages: Vec<_> = loaded.entries.iter().filter(|e| e.is_message()).collect();
    assert_eq!(messages.len(), 1);
    assert_eq!(loaded.unreadable_lines, [2]);
}

/// orig: findMostRecentSession › returns null for empty directory
#[test]
fn recent_in_empty_dir() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(most_recent_session(dir.path()), None);
}

/// orig: findMostRecentSession › returns null for non-existent directory
#[test]
fn recent_in_missing_dir() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(most_recent_session(&dir.path().join("nonexistent")), None);
}

/// orig: findMostRecentSession › ignores non-jsonl files
#[test]
fn recent_ignores_other_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("file.txt"), "hello").unwrap();
    std::fs::write(dir.path().join("file.json"), "{}").unwrap();
    assert_eq!(most_recent_session(dir.path()), None);
}

/// orig: findMostRecentSession › ignores jsonl files without valid session header
#[test]
fn recent_ignores_headerless() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("invalid.jsonl"), "{\"type\":\"message\"}\n").unwrap();
    assert_eq!(most_recent_session(dir.path()), None);
}

/// orig: findMostRecentSession › returns single valid session file
#[test]
fn recent_single() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("session.jsonl");
    std::fs::write(&file, format!("{HEADER}\n")).unwrap();
    assert_eq!(most_recent_session(dir.path()), Some(file));
}

fn set_mtime(path: &Path, secs_ago: u64) {
    let when = std::time::SystemTime::now() - std::time::Duration::from_secs(secs_ago);
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(when)
        .unwrap();
}

/// orig: findMostRecentSession › returns most recently modified session
#[test]
fn recent_newest() {
    let dir = tempfile::tempdir().unwrap();
    let older = dir.path().join("older.jsonl");
    let newer = dir.path().join("newer.jsonl");
    std::fs::write(&older, format!("{HEADER}\n")).unwrap();
    std::fs::write(&newer, format!("{HEADER}\n")).unwrap();
    set_mtime(&older, 100);
    set_mtime(&newer, 10);
    assert_eq!(most_recent_session(dir.path()), Some(newer));
}

/// orig: findMostRecentSession › skips invalid files and returns valid one
#[test]
fn recent_skips_invalid() {
    let dir = tempfile::tempdir().unwrap();
    let invalid = dir.path().join("invalid.jsonl");
    let valid = dir.path().join("valid.jsonl");
    std::fs::write(&invalid, "{\"type\":\"not-session\"}\n").unwrap();
    std::fs::write(&valid, format!("{HEADER}\n")).unwrap();
    set_mtime(&valid, 100);
    set_mtime(&invalid, 10);
    assert_eq!(most_recent_session(dir.path()), Some(valid));
}

/// orig: SessionManager.setSessionFile with corrupted files › truncates and rewrites empty file with valid header
#[test]
fn empty_file_becomes_a_new_session() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("empty.jsonl");
    std::fs::write(&file, "").unwrap();
    let s = SessionManager::open(&file).unwrap();
    assert!(!s.session_id().is_empty());
    assert_eq!(s.header().id, s.session_id());
    assert!(s.entries().is_empty());
}

/// orig: SessionManager.setSessionFile with corrupted files › truncates and rewrites file without valid header
#[test]
fn headerless_file_is_kept_not_truncated() {
    // Differs: the original replaces the file's content with a fresh header; here opening
    // it fails with a clear error and the file is left as it was, so nothing is lost.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("no-header.jsonl");
    let content = "{\"type\":\"message\",\"id\":\"abc\",\"parentId\":\"orphaned\",\"timestamp\":\"2025-01-01T00:00:00Z\",\"message\":{\"role\":\"assistant\",\"content\":\"test\"}}\n";
    std::fs::write(&file, content).unwrap();
    let err = SessionManager::open(&file).unwrap_err();
    assert!(err.to_string().contains("no-header.jsonl"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), content);
}

/// orig: SessionManager.setSessionFile with corrupted files › preserves explicit session file path when recovering from corrupted file
#[test]
fn explicit_path_kept() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("my-session.jsonl");
    std::fs::write(&file, "").unwrap();
    let s = SessionManager::open(&file).unwrap();
    assert_eq!(s.session_file(), Some(file.as_path()));
}

/// orig: SessionManager.setSessionFile with corrupted files › subsequent loads of recovered file work correctly
#[test]
fn garbage_file_is_refused_each_time() {
    // Differs as above: garbage is never overwritten, so every open reports it.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("corrupted.jsonl");
    std::fs::write(&file, "garbage content\n").unwrap();
    assert!(SessionManager::open(&file).is_err());
    assert!(SessionManager::open(&file).is_err());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "garbage content\n");
}
