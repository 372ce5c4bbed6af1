//! Listing stored sessions and resolving `--session` / `--fork` arguments.

use std::fs;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::Value;

use crate::config::paths::{default_session_dir, sessions_root};

/// A summary of one stored session, for pickers and id lookups.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionInfo {
    /// The session file.
    pub path: PathBuf,
    /// Session id from the header.
    pub id: String,
    /// Working directory from the header (empty for old sessions).
    pub cwd: String,
    /// Display name from the latest `session_info` entry.
    pub name: Option<String>,
    /// The session this one was forked from.
    pub parent_session_path: Option<String>,
    /// Header timestamp.
    pub created: DateTime<Utc>,
    /// Latest user/assistant activity (else header time, else file mtime).
    pub modified: DateTime<Utc>,
    /// Number of `message` entries.
    pub message_count: usize,
    /// Text of the first user message, or `(no messages)`.
    pub first_message: String,
    /// All user and assistant text, space-separated (for searching).
    pub all_messages_text: String,
}

/// Sessions stored in one folder, most recently active first.
pub fn list_sessions(dir: &Path) -> Vec<SessionInfo> {
    let mut sessions = session_infos(jsonl_files(dir));
    sort_newest_first(&mut sessions);
    sessions
}

/// Sessions of every project under `<agent_dir>/sessions`, most recently
/// active first.
pub fn list_all_sessions(agent_dir: &Path) -> Vec<SessionInfo> {
    let Ok(dirs) = fs::read_dir(sessions_root(agent_dir)) else {
        return Vec::new();
    };
    let files = dirs
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
        .flat_map(|entry| jsonl_files(&entry.path()))
        .collect();
    let mut sessions = session_infos(files);
    sort_newest_first(&mut sessions);
    sessions
}

/// Where a `--session` / `--fork` argument points.
#[derive(Debug, Clone, PartialEq)]
pub enum ResolvedSessionArg {
    /// The argument was a path, used as given.
    Path(PathBuf),
    /// An id prefix matched a session of this project.
    Local(PathBuf),
    /// An id prefix matched a session of another project.
    Global {
        /// The session file.
        path: PathBuf,
        /// That session's working directory.
        cwd: String,
    },
}

impl ResolvedSessionArg {
    /// The session file, wherever it was found.
    pub fn path(&self) -> &Path {
        match self {
            ResolvedSessionArg::Path(path) | ResolvedSessionArg::Local(path) => path,
            ResolvedSessionArg::Global { path, .. } => path,
        }
    }
}

/// No stored session's id starts with a `--session`/`--fork` argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoSessionMatch {
    /// The argument (an id prefix).
    pub arg: String,
}

impl std::fmt::Display for NoSessionMatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::t!(
            "pi.error.session.no_match",
            arg = self.arg.as_str()
        ))
    }
}

impl std::error::Error for NoSessionMatch {}

/// True when a `--session`/`--fork` argument names a file (a path or a `.jsonl` name)
/// rather than a session id prefix.
pub fn names_a_file(arg: &str) -> bool {
    arg.contains('/') || arg.contains('\\') || arg.ends_with(".jsonl")
}

/// Resolve a `--session` / `--fork` argument: a path when it contains a
/// separator or ends with `.jsonl`; otherwise an id prefix looked up first in
/// this project's session folder (`session_dir`, default derived from `cwd`),
/// then across every project. Errors with pi's message when nothing matches.
pub fn lookup_session_arg(
    arg: &str,
    cwd: &Path,
    session_dir: Option<&Path>,
    agent_dir: &Path,
) -> Result<ResolvedSessionArg, NoSessionMatch> {
    if names_a_file(arg) {
        return Ok(ResolvedSessionArg::Path(PathBuf::from(arg)));
    }
    let local_dir = session_dir
        .map(Path::to_path_buf)
        .unwrap_or_else(|| default_session_dir(agent_dir, cwd));
    if let Some(found) = list_sessions(&local_dir)
        .into_iter()
        .find(|session| session.id.starts_with(arg))
    {
        return Ok(ResolvedSessionArg::Local(found.path));
    }
    list_all_sessions(agent_dir)
        .into_iter()
        .find(|session| session.id.starts_with(arg))
        .map(|found| ResolvedSessionArg::Global {
            path: found.path,
            cwd: found.cwd,
        })
        .ok_or_else(|| NoSessionMatch {
            arg: arg.to_string(),
        })
}

/// [`lookup_session_arg`] reduced to the session file path (for `--fork`,
/// or when the caller does not care which project the session is in).
pub fn resolve_session_arg(
    arg: &str,
    cwd: &Path,
    session_dir: Option<&Path>,
    agent_dir: &Path,
) -> Result<PathBuf, NoSessionMatch> {
    lookup_session_arg(arg, cwd, session_dir, agent_dir).map(|found| found.path().to_path_buf())
}

fn jsonl_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.to_string_lossy().ends_with(".jsonl"))
        .collect()
}

/// Summaries of many files, read on a few threads.
fn session_infos(files: Vec<PathBuf>) -> Vec<SessionInfo> {
    let workers = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(files.len().max(1));
    if workers <= 1 {
        return files.iter().filter_map(|f| read_session_info(f)).collect();
    }
    let chunk = files.len().div_ceil(workers);
    std::thread::scope(|scope| {
        let handles: Vec<_> = files
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .filter_map(|f| read_session_info(f))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|handle| handle.join().unwrap_or_default())
            .collect()
    })
}

fn sort_newest_first(sessions: &mut [SessionInfo]) {
    sessions.sort_by_key(|session| std::cmp::Reverse(session.modified));
}

#[derive(Deserialize)]
struct InfoLine {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    id: Option<Value>,
    #[serde(default)]
    cwd: Option<Value>,
    #[serde(default, rename = "parentSession")]
    parent_session: Option<Value>,
    #[serde(default)]
    name: Option<Value>,
    #[serde(default)]
    timestamp: Option<Value>,
    #[serde(default)]
    message: Option<InfoMessage>,
}

#[derive(Deserialize)]
struct InfoMessage {
    #[serde(default)]
    role: Option<Value>,
    #[serde(default)]
    content: Option<Value>,
    #[serde(default)]
    timestamp: Option<Value>,
}

/// Summarise one session file; `None` when it is unreadable or not a session.
pub fn read_session_info(path: &Path) -> Option<SessionInfo> {
    let bytes =
        crate::config::regular_file::read_regular(path, crate::session::load::MAX_SESSION_BYTES)
            .ok()?;
    let text = crate::session::load::decode_lossy(&bytes);
    let mut lines = text
        .split('\n')
        .filter(|line| !line.trim().is_empty())
        .filter_map(|line| serde_json::from_str::<InfoLine>(line).ok());
    let header = lines.next()?;
    if header.kind.as_deref() != Some("session") {
        return None;
    }
    let id = header.id.as_ref()?.as_str()?.to_string();
    let mtime = fs::metadata(path)
        .ok()
        .and_then(|meta| meta.modified().ok())
        .map(DateTime::<Utc>::from)
        .unwrap_or_default();
    let header_time = header
        .timestamp
        .as_ref()
        .and_then(Value::as_str)
        .and_then(parse_iso);

    let mut name = None;
    let mut message_count = 0;
    let mut first_message = String::new();
    let mut texts: Vec<String> = Vec::new();
    let mut last_activity: Option<i64> = None;
    for line in lines {
        match line.kind.as_deref() {
            Some("session_info") => {
                name = line
                    .name
                    .as_ref()
                    .and_then(Value::as_str)
                    .map(str::trim)
                    .filter(|n| !n.is_empty())
                    .map(str::to_string);
            }
            Some("message") => {
                message_count += 1;
                let Some(message) = &line.message else {
                    continue;
                };
                let role = message.role.as_ref().and_then(Value::as_str);
                let (Some(role @ ("user" | "assistant")), Some(content)) =
                    (role, message.content.as_ref())
                else {
                    continue;
                };
                let activity = match message.timestamp.as_ref().and_then(Value::as_f64) {
                    Some(ms) => Some(ms as i64),
                    None => line
                        .timestamp
                        .as_ref()
                        .and_then(Value::as_str)
                        .and_then(parse_iso)
                        .map(|t| t.timestamp_millis()),
                };
                if let Some(ms) = activity {
                    last_activity = Some(last_activity.unwrap_or(0).max(ms));
                }
                let text = content_text(content);
                if text.is_empty() {
                    continue;
                }
                if first_message.is_empty() && role == "user" {
                    first_message = text.clone();
                }
                texts.push(text);
            }
            _ => {}
        }
    }
    let modified = last_activity
        .filter(|&ms| ms > 0)
        .and_then(DateTime::<Utc>::from_timestamp_millis)
        .or(header_time)
        .unwrap_or(mtime);
    Some(SessionInfo {
        path: path.to_path_buf(),
        id,
        cwd: header
            .cwd
            .as_ref()
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        name,
        parent_session_path: header
            .parent_session
            .as_ref()
            .and_then(Value::as_str)
            .map(str::to_string),
        created: header_time.unwrap_or(mtime),
        modified,
        message_count,
        first_message: if first_message.is_empty() {
            "(no messages)".to_string()
        } else {
            first_message
        },
        all_messages_text: texts.join(" "),
    })
}

fn parse_iso(text: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// A message's text: the string itself, or its text blocks joined by spaces.
fn content_text(content: &Value) -> String {
    match content {
        Value::String(text) => text.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter(|block| block.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|block| block.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join(" "),
        _ => String::new(),
    }
}
