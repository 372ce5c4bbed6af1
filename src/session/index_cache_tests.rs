//! A kept index reads back as indexing the lines does, is used only for the file
//! and bytes it was made from, and follows lines appended after it.

use std::io::Write;
use std::path::Path;

use super::*;
use crate::session::entry_head::tests::migrated_fixture;
use crate::session::index_file::{Indexed, IndexedSession, index_session_file_with, keep_index_in};
use crate::session::store::IndexedEntry;

/// A real 2.4 MB session (migrated), with entries held whole, a blank line, a line
/// that is not JSON and an entry of a known type that cannot be read mixed in.
fn session_lines() -> Vec<String> {
    let mut lines = migrated_fixture("before-compaction.jsonl");
    let extra = [
        r#"{"type":"label","id":"l1","parentId":null,"timestamp":"2025-01-01T00:00:00.000Z","targetId":"x","label":"here"}"#,
        "",
        "not json",
        r#"{"type":"thinking_level_change","id":"t1","parentId":"l1","timestamp":"2025-01-01T00:00:00.000Z","thinkingLevel":"high"}"#,
        r#"{"type":"model_change","id":"m1","parentId":"l1","timestamp":"2025-01-01T00:00:00.000Z","provider":"p","modelId":"m"}"#,
        r#"{"type":"message","id":"u1","parentId":"m1","timestamp":"2025-01-01T00:00:00.000Z","message":{"role":"user"}}"#,
        r#"{"type":"x-ext","id":"e1","parentId":"u1","timestamp":"2025-01-01T00:00:00.000Z"}"#,
    ];
    let middle = lines.len() / 2;
    for (k, line) in extra.iter().enumerate() {
        lines.insert(middle + k, line.to_string());
    }
    lines
}

fn write(path: &Path, lines: &[String]) {
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

fn append(path: &Path, text: &str) {
    let mut file = std::fs::OpenOptions::new().append(true).open(path).unwrap();
    file.write_all(text.as_bytes()).unwrap();
}

fn index(path: &Path, cache: Option<&CacheFolder>) -> IndexedSession {
    match index_session_file_with(path, false, cache).unwrap() {
        Some(Indexed::Ready(indexed)) => indexed,
        _ => panic!("not indexed"),
    }
}

/// Everything the index holds of each entry (its kept preview read), and the lines
/// it could not read.
fn described(indexed: &IndexedSession) -> (Vec<String>, Vec<usize>, usize) {
    indexed.store.fill_previews();
    let entries = indexed
        .store
        .metas()
        .map(|stored| format!("{stored:?}"))
        .collect();
    (
        entries,
        indexed.unreadable_lines.clone(),
        indexed.skipped_lines,
    )
}

fn kept(folder: &CacheFolder, path: &Path) -> Option<KeptIndex> {
    let file = File::open(path).unwrap();
    let size = file.metadata().unwrap().len();
    load(folder, path, &file, size)
}

#[test]
fn a_kept_index_reads_back_as_the_lines_do() {
    let dir = tempfile::tempdir().unwrap();
    let folder = folder_in(dir.path());
    let path = dir.path().join("s.jsonl");
    write(&path, &session_lines());
    let from_lines = described(&index(&path, None));
    assert!(from_lines.0.len() > 1000);
    assert_eq!(
        from_lines.1.len(),
        2,
        "the line that is not JSON and the message without content"
    );
    assert!(kept(&folder, &path).is_none(), "nothing kept yet");

    assert_eq!(described(&index(&path, Some(&folder))), from_lines);
    let kept_index = kept(&folder, &path).expect("kept after the first opening");
    assert_eq!(kept_index.covered, std::fs::metadata(&path).unwrap().len());
    assert_eq!(kept_index.entries.len(), from_lines.0.len());
    // The second opening reads the kept index: the same records.
    assert_eq!(described(&index(&path, Some(&folder))), from_lines);
    // Bodies are read back from the offsets the kept index holds.
    let indexed = index(&path, Some(&folder));
    let whole = index(&path, None);
    for position in (0..whole.store.len()).step_by(97) {
        assert_eq!(indexed.store.load(position), whole.store.load(position));
    }
}

#[test]
fn lines_appended_after_the_kept_index_are_indexed_on_top_of_it() {
    let dir = tempfile::tempdir().unwrap();
    let folder = folder_in(dir.path());
    let path = dir.path().join("s.jsonl");
    write(&path, &session_lines());
    index(&path, Some(&folder));
    let first_covered = kept(&folder, &path).unwrap().covered;
    append(
        &path,
        "{\"type\":\"label\",\"id\":\"l2\",\"parentId\":null,\"timestamp\":\"t\",\"targetId\":\"x\",\"label\":\"later\"}\nbroken\n",
    );
    assert_eq!(
        described(&index(&path, Some(&folder))),
        described(&index(&path, None)),
        "the appended entry and the unreadable line are found, numbered as a whole reading numbers them"
    );
    // A short tail is indexed on each opening; the kept index stays as it was.
    assert_eq!(kept(&folder, &path).unwrap().covered, first_covered);
    // A long one makes the index kept anew.
    let long = migrated_fixture("large-session.jsonl")[1..].join("\n") + "\n";
    append(&path, &long);
    append(&path, &long);
    let whole = described(&index(&path, None));
    assert_eq!(described(&index(&path, Some(&folder))), whole);
    let size = std::fs::metadata(&path).unwrap().len();
    assert_eq!(kept(&folder, &path).unwrap().covered, size);
    assert_eq!(described(&index(&path, Some(&folder))), whole);
}

#[test]
fn a_kept_index_is_not_used_for_changed_bytes_or_another_file() {
    let dir = tempfile::tempdir().unwrap();
    let folder = folder_in(dir.path());
    let path = dir.path().join("s.jsonl");
    let mut lines = session_lines();
    write(&path, &lines);
    index(&path, Some(&folder));
    assert!(kept(&folder, &path).is_some());

    // The last line changed in place, its length kept.
    let last = lines.len() - 1;
    let at = lines[last].find("\"id\":\"").unwrap() + 6;
    lines[last].replace_range(at..at + 1, "Z");
    let mut file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    let text = lines.join("\n") + "\n";
    assert_eq!(text.len() as u64, file.metadata().unwrap().len());
    file.write_all(text.as_bytes()).unwrap();
    drop(file);
    assert!(
        kept(&folder, &path).is_none(),
        "the changed last block is seen"
    );
    assert_eq!(
        described(&index(&path, Some(&folder))),
        described(&index(&path, None))
    );
    assert!(
        kept(&folder, &path).is_some(),
        "kept anew for the changed file"
    );

    // The same bytes in a new file put in its place.
    let copy = dir.path().join("copy.jsonl");
    std::fs::copy(&path, &copy).unwrap();
    std::fs::rename(&copy, &path).unwrap();
    assert!(kept(&folder, &path).is_none(), "another inode");

    // A file cut shorter than the index covers.
    index(&path, Some(&folder));
    let size = std::fs::metadata(&path).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(size - 10)
        .unwrap();
    assert!(kept(&folder, &path).is_none());
    assert_eq!(
        described(&index(&path, Some(&folder))),
        described(&index(&path, None))
    );
}

#[test]
fn a_damaged_kept_file_is_ignored_and_made_again() {
    let dir = tempfile::tempdir().unwrap();
    let folder = folder_in(dir.path());
    let path = dir.path().join("s.jsonl");
    write(&path, &session_lines());
    let whole = described(&index(&path, None));
    index(&path, Some(&folder));
    let kept_file = folder.path(path.to_str().unwrap());
    let bytes = std::fs::read(&kept_file).unwrap();
    for damaged in [
        bytes[..bytes.len() / 2].to_vec(),
        vec![0xff; 64],
        Vec::new(),
        // Another layout: a byte of the layout's digest (the head's first field, after
        // the head's length and the digest's varint tag).
        [&bytes[..9], &[bytes[9] ^ 1][..], &bytes[10..]].concat(),
        // A run of records cut short.
        bytes[..bytes.len() - 1].to_vec(),
    ] {
        std::fs::write(&kept_file, &damaged).unwrap();
        assert!(kept(&folder, &path).is_none());
        assert_eq!(described(&index(&path, Some(&folder))), whole);
        assert!(kept(&folder, &path).is_some(), "made again");
    }
}

#[test]
fn short_files_and_unterminated_ones_keep_no_index() {
    let dir = tempfile::tempdir().unwrap();
    let folder = folder_in(dir.path());
    let short = dir.path().join("short.jsonl");
    write(&short, &session_lines()[..50]);
    assert!(std::fs::metadata(&short).unwrap().len() < KEPT_FROM);
    index(&short, Some(&folder));
    assert!(kept(&folder, &short).is_none());
    // A last line without its newline may still be being written.
    let open = dir.path().join("open.jsonl");
    std::fs::write(&open, session_lines().join("\n")).unwrap();
    let indexed = described(&index(&open, Some(&folder)));
    assert!(kept(&folder, &open).is_none());
    assert_eq!(indexed, described(&index(&open, None)));
}

/// Of the entries whose bodies are in the file: how many have their preview, and
/// how many have their body in memory.
fn previews_and_bodies(indexed: &IndexedSession) -> (usize, usize) {
    let in_file = || {
        indexed
            .store
            .metas()
            .filter(|stored| stored.kept_preview().is_some() || !stored.body_in_memory())
    };
    (
        in_file().filter(|s| s.kept_preview().is_some()).count(),
        in_file().filter(|s| s.body_in_memory()).count(),
    )
}

#[test]
fn previews_are_read_from_the_kept_file_when_the_tree_asks() {
    let dir = tempfile::tempdir().unwrap();
    let folder = folder_in(dir.path());
    let path = dir.path().join("s.jsonl");
    write(&path, &session_lines());
    let from_lines = index(&path, None);
    let (made, _) = previews_and_bodies(&from_lines);
    assert!(made > 900, "indexing the lines makes the previews: {made}");
    index(&path, Some(&folder));

    let opened = index(&path, Some(&folder));
    assert_eq!(
        previews_and_bodies(&opened),
        (0, 0),
        "opening reads no preview"
    );
    opened.store.fill_previews();
    assert_eq!(
        previews_and_bodies(&opened),
        (made, 0),
        "read without a body"
    );
    assert_eq!(described(&opened), described(&from_lines));

    // A preview section that cannot be read leaves the previews to the bodies.
    let kept_file = folder.path(path.to_str().unwrap());
    let mut bytes = std::fs::read(&kept_file).unwrap();
    let last = bytes.len() - 1;
    bytes[last - 40..].fill(0xff);
    std::fs::write(&kept_file, &bytes).unwrap();
    let damaged = index(&path, Some(&folder));
    damaged.store.fill_previews();
    assert_eq!(previews_and_bodies(&damaged), (0, 0));
    let made_from_bodies: Vec<_> = (0..damaged.store.len())
        .map(|at| IndexedEntry::new(&damaged.store, at).preview().clone())
        .collect();
    let from_index: Vec<_> = (0..from_lines.store.len())
        .map(|at| IndexedEntry::new(&from_lines.store, at).preview().clone())
        .collect();
    assert_eq!(made_from_bodies, from_index);
}

/// The kept file's inode and length (a file kept anew is another inode).
fn kept_file_id(folder: &CacheFolder, path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(folder.path(path.to_str().unwrap())).ok()?;
    Some((meta.ino(), meta.len()))
}

#[cfg(unix)]
#[test]
fn quitting_keeps_the_index_only_when_none_current_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let folder = folder_in(dir.path());
    let short = dir.path().join("short.jsonl");
    write(&short, &session_lines()[..50]);
    keep_index_in(&short, &folder);
    assert!(
        kept(&folder, &short).is_none(),
        "a short session keeps none"
    );

    let path = dir.path().join("s.jsonl");
    write(&path, &session_lines());
    let size = || std::fs::metadata(&path).unwrap().len();
    keep_index_in(&path, &folder);
    assert_eq!(kept(&folder, &path).unwrap().covered, size(), "kept whole");
    let first = kept_file_id(&folder, &path);
    keep_index_in(&path, &folder);
    assert_eq!(kept_file_id(&folder, &path), first, "a current index stays");

    let entry = r#"{"type":"label","id":"lx","parentId":null,"timestamp":"t","targetId":"x","label":"later"}"#;
    append(&path, &format!("{entry}\n"));
    keep_index_in(&path, &folder);
    assert_eq!(
        kept_file_id(&folder, &path),
        first,
        "a short tail is indexed on opening"
    );
    let long = migrated_fixture("large-session.jsonl")[1..].join("\n") + "\n";
    append(&path, &long);
    append(&path, &long);
    keep_index_in(&path, &folder);
    assert_eq!(
        kept(&folder, &path).unwrap().covered,
        size(),
        "kept anew past a long tail"
    );
    assert_eq!(
        described(&index(&path, Some(&folder))),
        described(&index(&path, None))
    );
}
