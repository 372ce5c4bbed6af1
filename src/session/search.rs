//! Searching every stored session by id, name, folder and full message text,
//! fast enough to search as you type over gigabytes of session files.
//!
//! Files are scanned as raw bytes on every core: a case-insensitive pattern
//! finds candidate lines in the JSON text as written, and only a candidate
//! line is parsed, to check that the match lies in a user or assistant
//! message's text. Sessions are ranked newest first by file modification time
//! (every entry appended touches it), and a file is done at its first match.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::SystemTime;

use chrono::{DateTime, Utc};
use memchr::{memchr, memmem, memrchr};
use serde_json::Value;

/// Why a search cannot be run.
#[derive(Debug, Clone)]
pub enum QueryError {
    /// Nothing to look for.
    Empty,
    /// The pattern is not a valid regular expression.
    Invalid(regex::Error),
}

impl std::fmt::Display for QueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&match self {
            QueryError::Empty => crate::t!("pi.error.session.search_empty"),
            QueryError::Invalid(e) => {
                crate::t!("pi.error.session.search_invalid", detail = e.to_string())
            }
        })
    }
}

impl std::error::Error for QueryError {}

/// What a search looks for, compiled for raw bytes and for decoded text.
#[derive(Debug, Clone)]
pub struct SessionQuery {
    /// Finds candidates in the JSON text as stored (escapes included).
    raw: regex::bytes::Regex,
    /// Confirms a match in decoded text.
    text: regex::Regex,
}

impl SessionQuery {
    /// A phrase: its words in order, any whitespace between them, any case.
    pub fn phrase(phrase: &str) -> Result<Self, QueryError> {
        let words: Vec<&str> = phrase.split_whitespace().collect();
        if words.is_empty() {
            return Err(QueryError::Empty);
        }
        let escaped = |word: &&str| {
            let json = serde_json::to_string(word).unwrap_or_default();
            regex::escape(&json[1..json.len() - 1])
        };
        let raw: Vec<String> = words.iter().map(escaped).collect();
        let text: Vec<String> = words.iter().map(|w| regex::escape(w)).collect();
        Self::compile(&raw.join(r#"(?:\s|\\[nrt])+"#), &text.join(r"\s+"))
    }

    /// A regular expression (case-insensitive). It is matched against the
    /// text as stored, too, so one that must match a quote, a backslash or a
    /// line break inside a message finds nothing there.
    pub fn regex(pattern: &str) -> Result<Self, QueryError> {
        if pattern.trim().is_empty() {
            return Err(QueryError::Empty);
        }
        Self::compile(pattern, pattern)
    }

    fn compile(raw: &str, text: &str) -> Result<Self, QueryError> {
        let raw = regex::bytes::RegexBuilder::new(raw)
            .case_insensitive(true)
            .build()
            .map_err(QueryError::Invalid)?;
        let text = regex::RegexBuilder::new(text)
            .case_insensitive(true)
            .build()
            .map_err(QueryError::Invalid)?;
        Ok(SessionQuery { raw, text })
    }
}

/// Where a session matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HitField {
    /// Its id.
    Id,
    /// Its name.
    Name,
    /// Its working folder.
    Folder,
    /// The text of a user or assistant message.
    Message,
}

impl HitField {
    /// The field's name in `--json` output.
    pub fn as_str(self) -> &'static str {
        match self {
            HitField::Id => "id",
            HitField::Name => "name",
            HitField::Folder => "folder",
            HitField::Message => "message",
        }
    }
}

/// A session that matched.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionHit {
    /// The session file.
    pub path: PathBuf,
    /// Session id from the header.
    pub id: String,
    /// Working folder from the header.
    pub cwd: String,
    /// The latest name given to it.
    pub name: Option<String>,
    /// When the file last changed.
    pub modified: DateTime<Utc>,
    /// Where it matched.
    pub field: HitField,
    /// The matching text with some context, whitespace collapsed.
    pub snippet: String,
}

/// Every `*.jsonl` in the folders under `sessions_root`, newest first.
pub fn session_files(sessions_root: &Path) -> Vec<(PathBuf, SystemTime)> {
    let Ok(folders) = fs::read_dir(sessions_root) else {
        return Vec::new();
    };
    let mut files: Vec<(PathBuf, SystemTime)> = folders
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
        .filter_map(|folder| fs::read_dir(folder.path()).ok())
        .flatten()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_name().to_string_lossy().ends_with(".jsonl"))
        .filter_map(|entry| {
            let meta = entry.metadata().ok()?;
            meta.is_file().then(|| {
                (
                    entry.path(),
                    meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
                )
            })
        })
        .collect();
    files.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    files
}

/// Search `files` (newest first) on every core, calling `found` for each
/// match as soon as it is known; stops early when `found` returns `false`.
pub fn search_files(
    files: &[(PathBuf, SystemTime)],
    query: &SessionQuery,
    found: &(dyn Fn(SessionHit) -> bool + Sync),
) {
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(files.len().max(1));
    let work = || {
        let mut buffer = Vec::new();
        loop {
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some((path, mtime)) = files.get(index) else {
                return;
            };
            if let Some(hit) = search_file(path, *mtime, query, &mut buffer)
                && !found(hit)
            {
                next.store(files.len(), Ordering::Relaxed);
                return;
            }
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..workers {
            scope.spawn(work);
        }
        work();
    });
}

/// Every session under `sessions_root` that matches, newest first.
pub fn search_sessions(sessions_root: &Path, query: &SessionQuery) -> Vec<SessionHit> {
    let files = session_files(sessions_root);
    let hits = Mutex::new(Vec::new());
    search_files(&files, query, &|hit| {
        hits.lock().unwrap_or_else(|e| e.into_inner()).push(hit);
        true
    });
    let mut hits = hits.into_inner().unwrap_or_else(|e| e.into_inner());
    hits.sort_by(|a, b| {
        b.modified
            .cmp(&a.modified)
            .then_with(|| a.path.cmp(&b.path))
    });
    hits
}

/// Search one session file, read into `buffer`; `None` when it does not match
/// or is not a session.
pub fn search_file(
    path: &Path,
    mtime: SystemTime,
    query: &SessionQuery,
    buffer: &mut Vec<u8>,
) -> Option<SessionHit> {
    buffer.clear();
    fs::File::open(path).ok()?.read_to_end(buffer).ok()?;
    let bytes = buffer.as_slice();
    let header_end = memchr(b'\n', bytes).unwrap_or(bytes.len());
    let header: Value = serde_json::from_slice(&bytes[..header_end]).ok()?;
    if header.get("type").and_then(Value::as_str) != Some("session") {
        return None;
    }
    let text_of = |key: &str| {
        header
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let mut hit = SessionHit {
        path: path.to_path_buf(),
        id: text_of("id"),
        cwd: text_of("cwd"),
        name: latest_name(bytes),
        modified: DateTime::<Utc>::from(mtime),
        field: HitField::Message,
        snippet: String::new(),
    };
    let fields = [
        (HitField::Name, hit.name.clone().unwrap_or_default()),
        (HitField::Id, hit.id.clone()),
        (HitField::Folder, hit.cwd.clone()),
    ];
    for (field, value) in fields {
        if let Some(found) = query.text.find(&value) {
            hit.field = field;
            hit.snippet = snippet(&value, found.start(), found.end());
            return Some(hit);
        }
    }
    let mut from = header_end;
    while let Some(candidate) = query.raw.find_at(bytes, from) {
        let start = memrchr(b'\n', &bytes[..candidate.start()]).map_or(0, |i| i + 1);
        let end =
            memchr(b'\n', &bytes[candidate.end()..]).map_or(bytes.len(), |i| candidate.end() + i);
        if let Some(text) = message_text(&bytes[start..end])
            && let Some(found) = query.text.find(&text)
        {
            hit.snippet = snippet(&text, found.start(), found.end());
            return Some(hit);
        }
        from = end;
    }
    None
}

/// The name set by the last `session_info` entry, if any.
fn latest_name(bytes: &[u8]) -> Option<String> {
    // Forward search is vectorised, reverse search is not: take the last hit.
    let at = memmem::find_iter(bytes, br#""session_info""#).last()?;
    let start = memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
    let end = memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
    let entry: Value = serde_json::from_slice(&bytes[start..end]).ok()?;
    let name = entry.get("name")?.as_str()?.trim();
    (!name.is_empty()).then(|| name.to_string())
}

/// The text of a user or assistant message entry line (text blocks joined by
/// spaces); `None` for any other line. A line without a `"user"` or
/// `"assistant"` token is not parsed.
fn message_text(line: &[u8]) -> Option<String> {
    let is_chat = memmem::find(line, br#""user""#).is_some()
        || memmem::find(line, br#""assistant""#).is_some();
    if !is_chat {
        return None;
    }
    let entry: Value = serde_json::from_slice(line).ok()?;
    if entry.get("type").and_then(Value::as_str) != Some("message") {
        return None;
    }
    let message = entry.get("message")?;
    let role = message.get("role").and_then(Value::as_str)?;
    if role != "user" && role != "assistant" {
        return None;
    }
    Some(match message.get("content")? {
        Value::String(text) => text.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter(|block| block.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|block| block.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join(" "),
        _ => return None,
    })
}

/// Up to 40 characters either side of `text[start..end]`, whitespace collapsed,
/// `…` where cut.
fn snippet(text: &str, start: usize, end: usize) -> String {
    let before: Vec<char> = text[..start].chars().rev().take(41).collect();
    let after: Vec<char> = text[end..].chars().take(41).collect();
    let mut out = String::new();
    if before.len() > 40 {
        out.push('…');
    }
    out.extend(before.iter().take(40).rev());
    out.push_str(&text[start..end]);
    out.extend(after.iter().take(40));
    if after.len() > 40 {
        out.push('…');
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
#[path = "search_tests.rs"]
mod tests;
