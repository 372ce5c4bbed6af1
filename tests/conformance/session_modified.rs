//! When a listed session was last active: the time of its last user or assistant message,
//! not the file's modification time.
//! orig-file: packages/coding-agent/test/session-info-modified-timestamp.test.ts

use pi::ai::types::Message;
use pi::session::list::list_sessions;
use pi::session::manager::SessionManager;

use crate::session_harness::answer;

/// orig: SessionInfo.modified › uses last user/assistant message timestamp instead of file mtime
#[test]
fn the_last_message_time_not_the_file_time() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sessions");
    let mut session = SessionManager::create(tmp.path(), &dir);
    // 2026-01-01T00:00:00Z and a minute later: both long before the file is written.
    let (first, last) = (1_767_225_600_000_i64, 1_767_225_660_000_i64);
    session.append_message(Message::Assistant(answer("hi", 2, first)));
    session.append_message(Message::Assistant(answer("later", 2, last)));
    session.sync().unwrap();
    let path = session.session_file().unwrap().to_path_buf();
    let mtime = std::fs::metadata(&path).unwrap().modified().unwrap();
    let listed = list_sessions(&dir);
    let info = listed.iter().find(|s| s.path == path).unwrap();
    assert_eq!(info.modified.timestamp_millis(), last);
    let mtime_ms = mtime
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    assert_ne!(info.modified.timestamp_millis(), mtime_ms);
}
