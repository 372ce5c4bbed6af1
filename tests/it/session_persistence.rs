//! Lazy, append-only, crash-tolerant session files.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use pi::ai::model::ThinkingLevel;
use pi::ai::types::{AssistantMessage, ContentBlock, Message, UserMessage};
use pi::session::{SessionError, SessionManager};

fn user(text: &str) -> Message {
    Message::User(UserMessage::text(text))
}

fn assistant(text: &str) -> Message {
    let mut reply = AssistantMessage::empty("anthropic-messages", "anthropic", "claude-x");
    reply.content.push(ContentBlock::text(text));
    Message::Assistant(reply)
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    match fs::read_dir(dir) {
        Ok(entries) => entries.map(|e| e.unwrap().path()).collect(),
        Err(_) => Vec::new(),
    }
}

#[test]
fn the_prompt_is_written_before_any_reply() {
    let dir = tempfile::tempdir().unwrap();
    let sessions = dir.path().join("sessions");
    let mut session = SessionManager::create(Path::new("/proj"), &sessions);
    session.append_model_change("anthropic", "claude-x");
    session.append_thinking_level_change(ThinkingLevel::Medium);
    session.sync().unwrap();
    let path = session.session_file().unwrap().to_path_buf();
    assert!(
        !path.exists(),
        "nothing is written before the first message"
    );
    assert!(files_in(&sessions).is_empty());

    session.append_message(user("hello"));
    let text = fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[0].starts_with(r#"{"type":"session","version":3,"id":""#));
    assert!(lines[0].contains(r#""cwd":"/proj""#));
    assert!(lines[1].starts_with(r#"{"type":"model_change""#));
    assert!(lines[2].starts_with(r#"{"type":"thinking_level_change""#));
    assert!(lines[3].contains(r#""role":"user""#));

    session.append_message(assistant("hi"));
    let text = fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5);
    assert!(lines[4].contains(r#""role":"assistant""#));
    assert!(text.ends_with('\n'));
}

#[cfg(unix)]
#[test]
fn session_files_and_their_folders_are_private() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let sessions = dir.path().join("sessions").join("--proj--");
    let mut session = SessionManager::create(Path::new("/proj"), &sessions);
    session.append_message(user("secret"));
    let path = session.session_file().unwrap().to_path_buf();
    let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&path), 0o600);
    assert_eq!(mode(&sessions), 0o700);
    assert_eq!(mode(&dir.path().join("sessions")), 0o700);

    // An existing folder or file keeps a looser mode its owner chose.
    let shared = dir.path().join("shared");
    fs::create_dir(&shared).unwrap();
    fs::set_permissions(&shared, fs::Permissions::from_mode(0o755)).unwrap();
    let mut session = SessionManager::create(Path::new("/proj"), &shared);
    session.append_message(user("one"));
    let file = session.session_file().unwrap().to_path_buf();
    assert_eq!(mode(&shared), 0o755);
    fs::set_permissions(&file, fs::Permissions::from_mode(0o640)).unwrap();
    session.append_message(assistant("two"));
    assert_eq!(mode(&file), 0o640);
}

#[test]
fn file_name_and_header_follow_pi_layout() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = SessionManager::create(Path::new("/proj"), dir.path());
    session.append_message(assistant("x"));
    let path = session.session_file().unwrap();
    assert_eq!(path.parent().unwrap(), dir.path());
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let (time, rest) = name.split_once('_').unwrap();
    assert_eq!(rest, format!("{}.jsonl", session.session_id()));
    assert_eq!(time, session.header().timestamp.replace([':', '.'], "-"));
    assert!(!time.contains(':') && !time.contains('.'));
    assert_eq!(session.session_id().len(), 36);
}

#[test]
fn existing_lines_stay_byte_identical_after_more_appends() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = SessionManager::create(Path::new("/proj"), dir.path());
    session.append_message(user("one"));
    session.append_message(assistant("two"));
    let path = session.session_file().unwrap().to_path_buf();
    let before = fs::read(&path).unwrap();
    let first = session.append_message(user("three"));
    session.append_message(assistant("four"));
    session.append_label_change(&first, Some("mark")).unwrap();
    session.branch(&first).unwrap();
    session.append_message(user("other branch"));
    session.sync().unwrap();
    let after = fs::read(&path).unwrap();
    assert!(after.starts_with(&before));
    assert_eq!(String::from_utf8(after).unwrap().lines().count(), 7);

    // Reopening and appending also only appends.
    let mut reopened = SessionManager::open(&path).unwrap();
    let snapshot = fs::read(&path).unwrap();
    reopened.append_session_info("named");
    reopened.sync().unwrap();
    let grown = fs::read(&path).unwrap();
    assert!(grown.starts_with(&snapshot));
    assert!(grown.len() > snapshot.len());
}

#[test]
fn truncated_last_line_loads_and_later_appends_stay_readable() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = SessionManager::create(Path::new("/proj"), dir.path());
    session.append_message(user("q"));
    let answer = session.append_message(assistant("a"));
    session.append_message(user("lost in the crash"));
    let path = session.session_file().unwrap().to_path_buf();
    drop(session);

    // Simulate a crash in the middle of writing the last line.
    let full = fs::read(&path).unwrap();
    fs::write(&path, &full[..full.len() - 20]).unwrap();

    let mut reopened = SessionManager::open(&path).unwrap();
    assert_eq!(reopened.entries().len(), 2);
    assert_eq!(reopened.skipped_lines(), 1);
    assert_eq!(reopened.leaf_id(), Some(answer.as_str()));
    let again = reopened.append_message(user("after crash"));
    reopened.sync().unwrap();

    let third = SessionManager::open(&path).unwrap();
    assert_eq!(third.entries().len(), 3);
    assert_eq!(third.leaf_id(), Some(again.as_str()));
    assert_eq!(
        third.entry(&again).unwrap().parent_id(),
        Some(answer.as_str())
    );
}

#[test]
fn crash_inside_a_multibyte_character_still_loads() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = SessionManager::create(Path::new("/proj"), dir.path());
    session.append_message(assistant("ok"));
    session.append_message(user("ééééé"));
    let path = session.session_file().unwrap().to_path_buf();
    let full = fs::read(&path).unwrap();
    let cut = full.iter().rposition(|&b| b == 0xA9).unwrap();
    fs::write(&path, &full[..cut]).unwrap();
    let reopened = SessionManager::open(&path).unwrap();
    assert_eq!(reopened.entries().len(), 1);
}

#[test]
fn malformed_and_blank_lines_are_skipped_with_a_count() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    fs::write(
        &path,
        concat!(
            r#"{"type":"session","version":3,"id":"s1","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/p"}"#,
            "\n\n",
            r#"{"type":"message","id":"aaaaaaaa","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}"#,
            "\nnot json at all\n   \n",
            r#"{"type":"model_change","id":"bbbbbbbb","parentId":"aaaaaaaa","timestamp":"2025-01-01T00:00:02.000Z","provider":"p","modelId":"m"}"#,
            "\n",
        ),
    )
    .unwrap();
    let session = SessionManager::open(&path).unwrap();
    assert_eq!(session.entries().len(), 2);
    assert_eq!(session.skipped_lines(), 1);
    assert_eq!(session.leaf_id(), Some("bbbbbbbb"));
    assert_eq!(session.cwd(), Path::new("/p"));
}

#[test]
fn a_file_that_is_not_a_session_is_an_error_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.jsonl");
    let content = "{\"type\":\"message\",\"id\":\"x\"}\nimportant user data\n";
    fs::write(&path, content).unwrap();
    let err = SessionManager::open(&path).unwrap_err();
    assert!(matches!(err, SessionError::NotASessionFile { .. }));
    assert!(err.to_string().contains("notes.jsonl"), "{err}");
    assert_eq!(fs::read_to_string(&path).unwrap(), content);

    let garbage = dir.path().join("garbage.jsonl");
    fs::write(&garbage, "hello\n").unwrap();
    assert!(SessionManager::open(&garbage).is_err());
    assert_eq!(fs::read_to_string(&garbage).unwrap(), "hello\n");
}

#[test]
fn an_unreadable_file_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dir.jsonl");
    fs::create_dir(&path).unwrap();
    let err = SessionManager::open(&path).unwrap_err();
    assert!(matches!(err, SessionError::Read { .. }));
    assert!(err.to_string().contains("dir.jsonl"), "{err}");
}

#[test]
fn opening_a_missing_file_creates_it_lazily_at_that_path() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested/chosen.jsonl");
    let mut session = SessionManager::open(&path).unwrap();
    assert_eq!(session.session_file(), Some(path.as_path()));
    assert_eq!(
        session.session_dir(),
        Some(dir.path().join("nested").as_path())
    );
    assert!(!path.exists());
    session.append_message(user("q"));
    assert!(path.exists());
    session.append_message(assistant("a"));
    session.sync().unwrap();
    let reopened = SessionManager::open(&path).unwrap();
    assert_eq!(reopened.session_id(), session.session_id());
    assert_eq!(reopened.entries().len(), 2);
}

#[test]
fn an_empty_existing_file_becomes_a_new_session() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.jsonl");
    fs::write(&path, "").unwrap();
    let mut session = SessionManager::open(&path).unwrap();
    assert!(session.entries().is_empty());
    session.append_message(assistant("a"));
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.starts_with(r#"{"type":"session""#));
}

#[test]
fn in_memory_sessions_never_touch_disk() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = SessionManager::in_memory(dir.path());
    session.append_message(user("q"));
    session.append_message(assistant("a"));
    session.sync().unwrap();
    assert!(!session.is_persisted());
    assert_eq!(session.session_file(), None);
    assert!(files_in(dir.path()).is_empty());
    assert_eq!(session.build_context().messages.len(), 2);
}

fn set_mtime(path: &Path, age_secs: u64) {
    let file = fs::File::options().write(true).open(path).unwrap();
    file.set_modified(SystemTime::now() - Duration::from_secs(age_secs))
        .unwrap();
}

#[test]
fn continue_recent_picks_the_newest_session() {
    let dir = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    for (text, age) in [("old", 300), ("newest", 10), ("middle", 100)] {
        let mut session = SessionManager::create(Path::new("/proj"), dir.path());
        session.append_message(user(text));
        session.append_message(assistant(text));
        session.sync().unwrap();
        let path = session.session_file().unwrap().to_path_buf();
        set_mtime(&path, age);
        paths.push(path);
    }
    // A newer file that is not a session is ignored.
    fs::write(dir.path().join("zzz.jsonl"), "junk\n").unwrap();

    let resumed = SessionManager::continue_recent(Path::new("/proj"), dir.path()).unwrap();
    assert_eq!(resumed.session_file(), Some(paths[1].as_path()));
    let empty = tempfile::tempdir().unwrap();
    let fresh = SessionManager::continue_recent(Path::new("/proj"), empty.path()).unwrap();
    assert!(fresh.entries().is_empty());
}

#[test]
fn fork_from_copies_history_into_a_new_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut source = SessionManager::create(Path::new("/a"), &dir.path().join("a"));
    source.append_message(user("q"));
    source.append_message(assistant("a"));
    source.sync().unwrap();
    let source_path = source.session_file().unwrap().to_path_buf();

    let target_dir = dir.path().join("b");
    let fork = SessionManager::fork_from(&source_path, Path::new("/b"), &target_dir).unwrap();
    assert_ne!(fork.session_id(), source.session_id());
    assert_eq!(fork.cwd(), Path::new("/b"));
    assert_eq!(fork.entries(), source.entries());
    let fork_path = fork.session_file().unwrap();
    assert_eq!(fork_path.parent().unwrap(), target_dir);
    let reopened = SessionManager::open(fork_path).unwrap();
    assert_eq!(
        reopened.header().parent_session.as_deref(),
        Some(source_path.to_string_lossy().as_ref())
    );
    assert_eq!(reopened.entries(), source.entries());

    let missing =
        SessionManager::fork_from(&dir.path().join("nope.jsonl"), Path::new("/b"), &target_dir);
    assert!(matches!(missing, Err(SessionError::EmptySource { .. })));
}

#[test]
fn new_session_starts_empty_in_the_same_folder() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = SessionManager::create(Path::new("/proj"), dir.path());
    session.append_message(assistant("a"));
    let old_id = session.session_id().to_string();
    let old_file = session.session_file().unwrap().to_path_buf();
    session.new_session(Some(old_file.to_str().unwrap()));
    assert_ne!(session.session_id(), old_id);
    assert!(session.entries().is_empty());
    assert_eq!(session.leaf_id(), None);
    assert_eq!(session.session_file().unwrap().parent(), Some(dir.path()));
    assert_eq!(
        session.header().parent_session.as_deref(),
        old_file.to_str()
    );
}

#[test]
fn failed_writes_are_reported_by_sync_and_retried() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("blocker");
    fs::write(&blocker, "a file where the session folder should be").unwrap();
    let sessions = blocker.join("sessions");
    let mut session = SessionManager::create(Path::new("/proj"), &sessions);
    session.append_message(user("q"));
    session.append_message(assistant("a"));
    let err = session.sync().unwrap_err();
    assert!(matches!(err, SessionError::Write { .. }), "{err}");

    fs::remove_file(&blocker).unwrap();
    session.append_message(user("later"));
    session.sync().unwrap();
    let reopened = SessionManager::open(session.session_file().unwrap()).unwrap();
    assert_eq!(reopened.entries(), session.entries());
}
