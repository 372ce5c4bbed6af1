//! Indexing reads lines longer than its read buffer, cut at any point by it, and
//! records each entry at the offset its line starts at.

use std::path::Path;

use super::{Indexed, index_session_file};
use crate::session::load::{MigrationWrite, load_session_file};

/// A user message entry whose text is `size` bytes (with escapes spread through it).
fn message_line(id: &str, parent: Option<&str>, size: usize) -> String {
    let parent = parent.map_or("null".to_string(), |p| format!("\"{p}\""));
    let text: String = (0..size)
        .map(|i| match i % 97 {
            0 => "\\n",
            50 => "\\\"",
            _ => "y",
        })
        .collect();
    format!(
        r#"{{"type":"message","id":"{id}","parentId":{parent},"timestamp":"2025-01-01T00:00:01.000Z","message":{{"role":"user","content":"{id}:{text}","timestamp":1}}}}"#
    )
}

fn write(path: &Path, lines: &[String], trailing_newline: bool) {
    let header = r#"{"type":"session","version":3,"id":"s1","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/"}"#;
    let mut text = format!("{header}\n{}", lines.join("\n"));
    if trailing_newline {
        text.push('\n');
    }
    std::fs::write(path, text).unwrap();
}

/// Index `path` without keeping bodies, and check every body read back from its
/// recorded offset against a whole load of the file.
fn check_against_whole_load(path: &Path, expected_entries: usize, unreadable: &[usize]) {
    let Some(Indexed::Ready(indexed)) = index_session_file(path, false).unwrap() else {
        panic!("not indexed");
    };
    let whole = load_session_file(path, MigrationWrite::InMemory)
        .unwrap()
        .unwrap();
    assert_eq!(indexed.store.len(), expected_entries);
    assert_eq!(whole.entries.len(), expected_entries);
    for (position, entry) in whole.entries.iter().enumerate() {
        assert!(!indexed.store.meta(position).body_in_memory());
        assert_eq!(
            indexed.store.load(position).as_ref(),
            entry,
            "entry {position}"
        );
    }
    assert_eq!(indexed.unreadable_lines, unreadable);
    assert_eq!(indexed.unreadable_lines, whole.unreadable_lines);
    assert_eq!(indexed.skipped_lines, whole.skipped_lines);
}

#[test]
fn lines_longer_than_the_read_buffer_are_indexed_at_their_offsets() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long-lines.jsonl");
    let lines = vec![
        message_line("a", None, 10),
        message_line("b", Some("a"), 300 * 1024),
        String::new(),
        "not json".to_string(),
        message_line("c", Some("b"), 5),
        message_line("d", Some("c"), 200 * 1024),
        message_line("e", Some("d"), 129 * 1024),
        message_line("f", Some("e"), 3),
    ];
    write(&path, &lines, true);
    check_against_whole_load(&path, 6, &[5]);
}

#[test]
fn a_last_line_without_a_newline_is_read_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no-newline.jsonl");
    // Short lines, then one cut by the read buffer that ends the file unterminated.
    let mut lines: Vec<String> = (0..40)
        .map(|i| {
            let parent = (i > 0).then(|| format!("m{}", i - 1));
            message_line(&format!("m{i}"), parent.as_deref(), 3000)
        })
        .collect();
    lines.push(message_line("last", Some("m39"), 150 * 1024));
    write(&path, &lines, false);
    check_against_whole_load(&path, 41, &[]);
    // Short enough for one reading thread: the same.
    let short = dir.path().join("short.jsonl");
    write(&short, &lines[..3], false);
    check_against_whole_load(&short, 3, &[]);
}

#[test]
fn entries_read_by_their_head_index_as_a_whole_load_reads_them() {
    use crate::agent::conversation::MessageFacts;
    use crate::session::preview::EntryPreview;
    use crate::session::store::IndexedEntry;

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shapes.jsonl");
    let base = r#""timestamp":"2025-01-01T00:00:01.000Z""#;
    let lines = vec![
        message_line("a", None, 500),
        format!(
            r#"{{"type":"message","id":"b","parentId":"a",{base},"message":{{"role":"assistant","content":[{{"type":"text","text":"hi"}},{{"type":"toolCall","id":"c","name":"bash","arguments":{{"command":"ls"}}}}],"usage":{{"input":3,"output":4}},"stopReason":"toolUse","timestamp":2}}}}"#
        ),
        // A message whose body is of the wrong shape: kept, and warned about.
        format!(
            r#"{{"type":"message","id":"c","parentId":"b",{base},"message":{{"role":"assistant","content":[{{"type":"toolCall","id":"c"}}]}}}}"#
        ),
        format!(r#"{{"type":"label","id":"d","parentId":"c",{base},"targetId":"a","label":"x"}}"#),
        format!(
            r#"{{"type":"custom","customType":"s","data":[1],"id":"e","parentId":"d",{base}}}"#
        ),
        format!(r#"{{"type":"future","id":"f","parentId":"e",{base}}}"#),
        format!(
            r#"{{"type":"message","id":"g","parentId":"f",{base},"message":{{"role":"user","content":"x"#
        ),
        message_line("h", Some("f"), 20),
    ];
    write(&path, &lines, true);
    let Some(Indexed::Ready(indexed)) = index_session_file(&path, false).unwrap() else {
        panic!("not indexed");
    };
    let whole = load_session_file(&path, MigrationWrite::InMemory)
        .unwrap()
        .unwrap();
    assert_eq!(indexed.store.len(), 7);
    assert_eq!(whole.entries.len(), 7);
    assert_eq!(indexed.unreadable_lines, [4, 8]);
    assert_eq!(indexed.unreadable_lines, whole.unreadable_lines);
    assert_eq!(indexed.skipped_lines, 1);
    assert_eq!(indexed.skipped_lines, whole.skipped_lines);
    for (position, entry) in whole.entries.iter().enumerate() {
        assert_eq!(indexed.store.load(position).as_ref(), entry, "{position}");
        let stored = indexed.store.meta(position);
        let indexed_entry = IndexedEntry::new(&indexed.store, position);
        assert_eq!(indexed_entry.kind(), entry.type_name());
        assert_eq!(indexed_entry.id(), entry.id());
        assert_eq!(indexed_entry.parent_id(), entry.parent_id());
        assert_eq!(indexed_entry.timestamp(), entry.timestamp());
        assert_eq!(
            *indexed_entry.preview(),
            EntryPreview::of(entry),
            "{position}"
        );
        assert_eq!(stored.is_message(), entry.is_message());
        assert_eq!(stored.is_assistant(), entry.is_assistant_message());
        let facts = indexed.store.stored_message(position).map(|m| m.facts);
        assert_eq!(
            facts,
            entry.as_message().map(MessageFacts::of),
            "{position}"
        );
    }
}
