//! Reading a session file: header check, tolerant line parsing, migration.

use std::io;
use std::path::Path;

use serde_json::Value;

use super::entries::{CURRENT_SESSION_VERSION, SessionEntry, SessionHeader};
use super::error::SessionError;
use super::migrate::migrate_to_current;
use crate::config::atomic_file::write_atomically;
use crate::config::regular_file::{open_regular, read_regular};

/// The largest session file pi reads (4 GiB).
pub const MAX_SESSION_BYTES: u64 = 4 * 1024 * 1024 * 1024;

/// A session file's content after loading.
#[derive(Debug, Clone)]
pub struct LoadedSession {
    /// The header (version already raised to current when migrated).
    pub header: SessionHeader,
    /// Entries in file order.
    pub entries: Vec<SessionEntry>,
    /// Non-blank lines that were not valid JSON objects and were skipped.
    pub skipped_lines: usize,
    /// 1-based line numbers of the lines that could not be read: not JSON,
    /// or an entry of a known type whose shape is not understood. They stay
    /// in the file untouched.
    pub unreadable_lines: Vec<usize>,
    /// The version the file was migrated from, if it was old.
    pub migrated_from: Option<u64>,
}

/// What to do with a file that needs migrating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MigrationWrite {
    /// Replace the file atomically with its migrated content.
    Rewrite,
    /// Migrate in memory only, leaving the file as it is.
    InMemory,
}

/// `bytes` as text, any invalid UTF-8 replaced. The strict check comes first: it is
/// several times faster than the lossy decoder on the valid text nearly every file is.
pub(crate) fn decode_lossy(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// Load a session file. `Ok(None)` when the file does not exist or holds
/// only whitespace. A file whose first non-blank line is not a session
/// header is an error and is never modified.
pub fn load_session_file(
    path: &Path,
    migration: MigrationWrite,
) -> Result<Option<LoadedSession>, SessionError> {
    let bytes = match read_regular(path, MAX_SESSION_BYTES) {
        Ok(bytes) => bytes,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(SessionError::Read {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    // A crash can tear a multi-byte character at the end; that line is
    // skipped anyway, so lossy decoding is safe.
    let text = decode_lossy(&bytes);
    let mut lines = text
        .split('\n')
        .enumerate()
        .map(|(index, line)| (index + 1, line))
        .filter(|(_, line)| !line.trim().is_empty());
    let Some((_, first)) = lines.next() else {
        return Ok(None);
    };
    let not_a_session = || SessionError::NotASessionFile {
        path: path.to_path_buf(),
    };
    let header: SessionHeader = serde_json::from_str(first).map_err(|_| not_a_session())?;
    if header.version > CURRENT_SESSION_VERSION {
        return Err(SessionError::NewerVersion {
            path: path.to_path_buf(),
            version: header.version,
        });
    }
    if header.version >= CURRENT_SESSION_VERSION {
        let lines: Vec<(usize, &str)> = lines.collect();
        let (entries, unreadable_lines) = parse_entries(&lines);
        let kept_unreadable = entries.iter().filter(|e| e.is_unreadable()).count();
        return Ok(Some(LoadedSession {
            header,
            entries,
            skipped_lines: unreadable_lines.len() - kept_unreadable,
            unreadable_lines,
            migrated_from: None,
        }));
    }
    let mut raw = vec![serde_json::from_str::<Value>(first).map_err(|_| not_a_session())?];
    let mut raw_lines = vec![0];
    let mut unreadable_lines = Vec::new();
    for (number, line) in lines {
        match serde_json::from_str::<Value>(line) {
            Ok(value @ Value::Object(_)) => {
                raw.push(value);
                raw_lines.push(number);
            }
            _ => unreadable_lines.push(number),
        }
    }
    let skipped_lines = unreadable_lines.len();
    let migrated_from = migrate_to_current(&mut raw);
    if migrated_from.is_some() && migration == MigrationWrite::Rewrite {
        write_atomically(path, render_lines(&raw).as_bytes()).map_err(|source| {
            SessionError::Write {
                path: path.to_path_buf(),
                source,
            }
        })?;
    }
    let mut raw = raw.into_iter();
    let header_value = raw.next().unwrap_or(Value::Null);
    let header = serde_json::from_value(header_value).map_err(|_| not_a_session())?;
    let mut entries = Vec::with_capacity(raw.len());
    for (value, number) in raw.zip(raw_lines.into_iter().skip(1)) {
        if value.get("type").and_then(Value::as_str) == Some("session") {
            continue;
        }
        let entry = SessionEntry::from_value(value);
        if entry.is_unreadable() {
            unreadable_lines.push(number);
        }
        entries.push(entry);
    }
    unreadable_lines.sort_unstable();
    Ok(Some(LoadedSession {
        header,
        entries,
        skipped_lines,
        unreadable_lines,
        migrated_from,
    }))
}

/// True when the file's first line is a session header (a cheap check that
/// reads only that line).
pub fn looks_like_session_file(path: &Path) -> bool {
    use std::io::{BufRead, BufReader, Read};
    let Ok(file) = open_regular(path) else {
        return false;
    };
    let mut first = Vec::new();
    let mut reader = BufReader::new(file).take(64 * 1024);
    if reader.read_until(b'\n', &mut first).is_err() {
        return false;
    }
    serde_json::from_slice::<SessionHeader>(&first).is_ok()
}

/// JSON lines, each followed by a newline.
#[expect(
    clippy::expect_used,
    reason = "these types serialise to JSON without fail (string keys only)"
)]
pub fn render_lines<T: serde::Serialize>(items: &[T]) -> String {
    let mut out = String::new();
    for item in items {
        out.push_str(&serde_json::to_string(item).expect("JSON values always serialise"));
        out.push('\n');
    }
    out
}

/// Lines parsed per thread at least; smaller files are parsed on one.
const LINES_PER_THREAD: usize = 250;

/// Parse numbered entry lines (in order), on several threads for large
/// files; returns the entries and the numbers of the lines that could not be
/// read (those that are JSON objects are kept as unknown entries).
fn parse_entries(lines: &[(usize, &str)]) -> (Vec<SessionEntry>, Vec<usize>) {
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(lines.len() / LINES_PER_THREAD)
        .max(1);
    let parse_chunk = |chunk: &[(usize, &str)]| {
        let mut entries = Vec::with_capacity(chunk.len());
        let mut unreadable = Vec::new();
        for (number, line) in chunk {
            match SessionEntry::parse_line(line) {
                Some(entry) if entry.type_name() == "session" => {}
                Some(entry) => {
                    if entry.is_unreadable() {
                        unreadable.push(*number);
                    }
                    entries.push(entry);
                }
                None => unreadable.push(*number),
            }
        }
        (entries, unreadable)
    };
    if threads == 1 {
        return parse_chunk(lines);
    }
    // The last chunk is read on this thread while the others are read on their own.
    let parts: Vec<(Vec<SessionEntry>, Vec<usize>)> = std::thread::scope(|scope| {
        let mut chunks = chunks_of_equal_bytes(lines, threads);
        let last = chunks.pop().unwrap_or_default();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| scope.spawn(move || parse_chunk(chunk)))
            .collect();
        let last = parse_chunk(last);
        let mut parts: Vec<_> = handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect();
        parts.push(last);
        parts
    });
    let mut entries = Vec::with_capacity(lines.len());
    let mut unreadable = Vec::new();
    for (part, part_unreadable) in parts {
        entries.extend(part);
        unreadable.extend(part_unreadable);
    }
    (entries, unreadable)
}

/// `lines` cut into at most `parts` runs of consecutive lines holding about the same
/// number of bytes (a session's lines range from a few bytes to whole files).
fn chunks_of_equal_bytes<'a, 'b>(
    lines: &'a [(usize, &'b str)],
    parts: usize,
) -> Vec<&'a [(usize, &'b str)]> {
    let total: usize = lines.iter().map(|(_, line)| line.len()).sum();
    let share = total.div_ceil(parts.max(1)).max(1);
    let mut chunks = Vec::with_capacity(parts);
    let (mut start, mut bytes) = (0, 0);
    for (index, (_, line)) in lines.iter().enumerate() {
        bytes += line.len();
        if bytes >= share && chunks.len() + 1 < parts {
            chunks.push(&lines[start..=index]);
            (start, bytes) = (index + 1, 0);
        }
    }
    if start < lines.len() {
        chunks.push(&lines[start..]);
    }
    chunks
}

#[cfg(test)]
mod tests {
    use super::chunks_of_equal_bytes;

    #[test]
    fn chunks_hold_about_equal_bytes_and_every_line_once() {
        let long = "x".repeat(1000);
        let mut lines: Vec<(usize, &str)> = vec![(1, long.as_str())];
        lines.extend((2..=101).map(|n| (n, "0123456789")));
        let chunks = chunks_of_equal_bytes(&lines, 2);
        assert_eq!(chunks.len(), 2);
        // The long first line is half the bytes: it makes a chunk of its own.
        assert_eq!(chunks[0].len(), 1);
        assert_eq!(chunks[1].len(), 100);
        let even: Vec<(usize, &str)> = (1..=10).map(|n| (n, "abc")).collect();
        let chunks = chunks_of_equal_bytes(&even, 3);
        assert_eq!(
            chunks.iter().map(|c| c.len()).collect::<Vec<_>>(),
            [4, 4, 2]
        );
        let joined: Vec<usize> = chunks
            .iter()
            .flat_map(|c| c.iter().map(|(n, _)| *n))
            .collect();
        assert_eq!(joined, (1..=10).collect::<Vec<_>>());
        assert!(chunks_of_equal_bytes(&[], 2).is_empty());
    }
}
