//! Reading a session file ahead of opening it: start-up knows which file it will resume
//! before it has finished loading models, resources and tools, so the file is read and
//! parsed on a thread of its own meanwhile, and opening it takes that result.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::thread::JoinHandle;

use super::error::SessionError;
use super::index_file::{Indexed, index_session_file};
use crate::sync::LockExt;

type Reading = JoinHandle<Result<Option<Indexed>, SessionError>>;

/// The file being read ahead (absolute path) and the thread reading it.
static AHEAD: Mutex<Option<(PathBuf, Reading)>> = Mutex::new(None);

/// Start reading and indexing `path` on its own thread, replacing any earlier read-ahead
/// of another file (one of the same file goes on). The file is not written: one that
/// needs migrating is read again when opened. With `warm`, the parsed bodies of a file
/// small enough are kept (see [`index_session_file`]).
pub fn read_ahead(path: &Path, warm: bool) {
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut ahead = AHEAD.locked();
    if ahead.as_ref().is_some_and(|(reading, _)| *reading == path) {
        return;
    }
    let reading = path.clone();
    let spawned = std::thread::Builder::new()
        .name("session-read".into())
        .spawn(move || index_session_file(&reading, warm));
    if let Ok(handle) = spawned {
        *ahead = Some((path, handle));
    }
}

/// The file being read ahead, when it lies in `dir`: a `--continue` start looks for the
/// folder's latest session once, for the read-ahead, not again when opening.
pub(crate) fn pending_in(dir: &Path) -> Option<PathBuf> {
    let ahead = AHEAD.locked();
    let (path, _) = ahead.as_ref()?;
    (path.parent() == Some(dir)).then(|| path.clone())
}

/// What reading `path` (absolute) ahead gave, if that file was read ahead and needs no
/// migration; `None` tells the caller to read the file itself. A read-ahead of another
/// file is abandoned.
pub(crate) fn take_read_ahead(path: &Path) -> Option<Result<Option<Indexed>, SessionError>> {
    let (ahead, handle) = AHEAD.locked().take()?;
    if ahead != path {
        return None;
    }
    handle.join().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::manager::SessionManager;

    fn write_session(dir: &Path, name: &str, version: u64, text: &str) -> PathBuf {
        let path = dir.join(name);
        let header = format!(
            r#"{{"type":"session","version":{version},"id":"s1","timestamp":"2025-01-01T00:00:00.000Z","cwd":"{}"}}"#,
            dir.display()
        );
        let entry = format!(
            r#"{{"type":"message","id":"a1","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z","message":{{"role":"user","content":"{text}","timestamp":1}}}}"#
        );
        std::fs::write(&path, format!("{header}\n{entry}\n")).unwrap();
        path
    }

    fn first_user_text(session: &SessionManager) -> String {
        match &session.build_context().messages[0] {
            crate::ai::types::Message::User(user) => user.content.text(),
            other => panic!("not a user message: {other:?}"),
        }
    }

    // One test: the read-ahead slot is process-wide, so these steps must not interleave
    // with one another.
    #[test]
    fn opening_takes_the_read_ahead_of_its_own_file_only() {
        let dir = tempfile::tempdir().unwrap();
        let first = write_session(dir.path(), "first.jsonl", 3, "from the file read ahead");
        read_ahead(&first, true);
        let session = SessionManager::open_with(&first, Some(dir.path()), None).unwrap();
        assert_eq!(first_user_text(&session), "from the file read ahead");
        assert!(AHEAD.locked().is_none(), "the result was taken");

        // Reading another file ahead does not stand in for the one opened.
        let other = write_session(dir.path(), "other.jsonl", 3, "the other file");
        read_ahead(&other, true);
        let session = SessionManager::open_with(&first, Some(dir.path()), None).unwrap();
        assert_eq!(first_user_text(&session), "from the file read ahead");

        // A file that needs migrating is read again on opening, which rewrites it.
        let old = write_session(dir.path(), "old.jsonl", 2, "old format");
        read_ahead(&old, true);
        let session = SessionManager::open_with(&old, Some(dir.path()), None).unwrap();
        assert_eq!(first_user_text(&session), "old format");
        let rewritten = std::fs::read_to_string(&old).unwrap();
        assert!(rewritten.contains(r#""version":3"#), "{rewritten}");

        // `--continue` takes the file read ahead in its folder without looking again.
        read_ahead(&first, true);
        // (A session written since, which a new look would pick, is not looked for.)
        write_session(dir.path(), "newer.jsonl", 3, "written since");
        let session = SessionManager::continue_recent(dir.path(), dir.path()).unwrap();
        assert_eq!(session.session_file(), Some(first.as_path()));
        assert_eq!(first_user_text(&session), "from the file read ahead");

        // A missing file read ahead opens as a new, empty session.
        let missing = dir.path().join("missing.jsonl");
        read_ahead(&missing, true);
        let session = SessionManager::open_with(&missing, Some(dir.path()), None).unwrap();
        assert!(session.entries().is_empty());
    }
}
