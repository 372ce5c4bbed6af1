//! JSONL export (`/export file.jsonl`): the current branch as a session file of its own —
//! a fresh header, then the entries from the root to the leaf, each re-linked to the one
//! before it so the file holds one straight line of conversation.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::ExportError;
use crate::session::manager::SessionManager;

/// Whether `path` asks for a JSONL export (its name ends in `.jsonl`).
pub fn wants_jsonl(path: &Path) -> bool {
    path.extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("jsonl"))
}

/// The default name of a JSONL export: `session-<time>.jsonl` in the working directory.
pub fn default_jsonl_path() -> PathBuf {
    let stamp = chrono::Utc::now().format("%Y-%m-%dT%H-%M-%S-%3fZ");
    PathBuf::from(format!("session-{stamp}.jsonl"))
}

/// Write the current branch of `session` as JSONL to `out`: a fresh header, then
/// each entry relinked to the one before it. The entries pass through one at a
/// time (a long branch is never held whole).
fn write_jsonl(session: &SessionManager, out: &mut impl Write) -> io::Result<()> {
    let header = session.header();
    let head = json!({
        "type": "session",
        "version": header.version,
        "id": header.id,
        "timestamp": chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        "cwd": session.cwd().display().to_string(),
    });
    serde_json::to_writer(&mut *out, &head)?;
    out.write_all(b"\n")?;
    let mut previous: Option<String> = None;
    for entry in session.branch_loaded(None) {
        let mut value = serde_json::to_value(&*entry).unwrap_or(Value::Null);
        if let Some(map) = value.as_object_mut() {
            map.insert(
                "parentId".into(),
                previous.take().map(Value::String).unwrap_or(Value::Null),
            );
        }
        previous = Some(entry.id().to_string());
        serde_json::to_writer(&mut *out, &value)?;
        out.write_all(b"\n")?;
    }
    out.flush()
}

/// Write the current branch of `session` to `out` (default: [`default_jsonl_path`]),
/// creating missing folders. Returns the path written.
pub fn export_jsonl(session: &SessionManager, out: Option<&Path>) -> Result<PathBuf, ExportError> {
    if !session.entries().iter().any(|e| e.as_message().is_some()) {
        return Err(ExportError::Empty);
    }
    let path = out
        .map(Path::to_path_buf)
        .unwrap_or_else(default_jsonl_path);
    let path = std::path::absolute(&path).unwrap_or(path);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| ExportError::Io(path.clone(), e))?;
    }
    let io_error = |e| ExportError::Io(path.clone(), e);
    let mut file = io::BufWriter::new(std::fs::File::create(&path).map_err(io_error)?);
    write_jsonl(session, &mut file).map_err(io_error)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::types::{Message, UserMessage};

    #[test]
    fn only_the_current_branch_is_written_and_relinked() {
        let dir = tempfile::tempdir().unwrap();
        let mut session = SessionManager::create(dir.path(), dir.path());
        let first = session.append_message(Message::User(UserMessage::text("first")));
        session.append_message(Message::User(UserMessage::text("abandoned")));
        session.branch(&first).unwrap();
        session.append_message(Message::User(UserMessage::text("kept")));
        let out = dir.path().join("nested/out.jsonl");
        let path = export_jsonl(&session, Some(&out)).unwrap();
        let text = std::fs::read_to_string(path).unwrap();
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines[0]["type"], "session");
        assert!(!text.contains("abandoned"));
        assert!(text.contains("first") && text.contains("kept"));
        for pair in lines[1..].windows(2) {
            assert_eq!(pair[1]["parentId"], pair[0]["id"]);
        }
        assert_eq!(lines[1]["parentId"], Value::Null);
        let reopened = SessionManager::open(&out).unwrap();
        assert_eq!(reopened.build_context().messages.len(), 2);
    }

    #[test]
    fn the_extension_decides_the_format() {
        assert!(wants_jsonl(Path::new("a/b.jsonl")));
        assert!(wants_jsonl(Path::new("B.JSONL")));
        assert!(!wants_jsonl(Path::new("b.html")));
        assert!(!wants_jsonl(Path::new("jsonl")));
    }
}
