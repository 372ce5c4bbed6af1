//! Session listing and `--session` / `--fork` argument resolution.

use std::fs;
use std::path::{Path, PathBuf};

use pi::ai::types::{AssistantMessage, ContentBlock, Message, UserContent, UserMessage};
use pi::session::list::read_session_info;
use pi::session::{
    ResolvedSessionArg, SessionManager, default_session_dir, list_all_sessions, list_sessions,
    lookup_session_arg, resolve_session_arg,
};

fn user_at(text: &str, timestamp: i64) -> Message {
    Message::User(UserMessage {
        content: UserContent::Blocks(vec![ContentBlock::text(text), ContentBlock::text("more")]),
        timestamp,
    })
}

fn assistant_at(text: &str, timestamp: i64) -> Message {
    let mut reply = AssistantMessage::empty("anthropic-messages", "anthropic", "claude-x");
    reply.content.push(ContentBlock::text(text));
    reply.timestamp = timestamp;
    Message::Assistant(reply)
}

/// A stored session whose last activity is at `activity_ms`.
fn stored(agent_dir: &Path, cwd: &str, first: &str, activity_ms: i64) -> (String, PathBuf) {
    let dir = default_session_dir(agent_dir, Path::new(cwd));
    let mut session = SessionManager::create(Path::new(cwd), &dir);
    session.append_message(user_at(first, activity_ms - 10));
    session.append_message(assistant_at("answer", activity_ms));
    session.sync().unwrap();
    (
        session.session_id().to_string(),
        session.session_file().unwrap().to_path_buf(),
    )
}

#[test]
fn listing_summarises_and_sorts_newest_first() {
    let agent = tempfile::tempdir().unwrap();
    let (old_id, _) = stored(agent.path(), "/proj", "older question", 1_000_000);
    let (new_id, new_path) = stored(agent.path(), "/proj", "newer question", 2_000_000);
    let dir = default_session_dir(agent.path(), Path::new("/proj"));
    fs::write(dir.join("broken.jsonl"), "not a session\n").unwrap();
    fs::write(dir.join("ignored.txt"), "x").unwrap();

    let sessions = list_sessions(&dir);
    let ids: Vec<&str> = sessions.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, [new_id.as_str(), old_id.as_str()]);
    let newest = &sessions[0];
    assert_eq!(newest.path, new_path);
    assert_eq!(newest.cwd, "/proj");
    assert_eq!(newest.message_count, 2);
    assert_eq!(newest.first_message, "newer question more");
    assert_eq!(newest.all_messages_text, "newer question more answer");
    assert_eq!(newest.modified.timestamp_millis(), 2_000_000);
    assert_eq!(newest.name, None);
}

#[test]
fn info_reads_name_parent_and_empty_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    fs::write(
        &path,
        concat!(
            r#"{"type":"session","version":3,"id":"abc","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/p","parentSession":"/old.jsonl"}"#,
            "\n",
            r#"{"type":"session_info","id":"a","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z","name":"  My work "}"#,
            "\n",
            r#"{"type":"message","id":"b","parentId":"a","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"toolResult","toolCallId":"c","toolName":"t","content":[],"isError":false,"timestamp":5}}"#,
            "\n",
        ),
    )
    .unwrap();
    let info = read_session_info(&path).unwrap();
    assert_eq!(info.name.as_deref(), Some("My work"));
    assert_eq!(info.parent_session_path.as_deref(), Some("/old.jsonl"));
    assert_eq!(info.message_count, 1);
    assert_eq!(info.first_message, "(no messages)");
    assert_eq!(info.created.to_rfc3339(), "2025-01-01T00:00:00+00:00");
    assert_eq!(info.modified, info.created, "no user/assistant activity");
}

#[test]
fn list_all_spans_projects() {
    let agent = tempfile::tempdir().unwrap();
    stored(agent.path(), "/a", "in a", 1_000);
    stored(agent.path(), "/b", "in b", 2_000);
    let all = list_all_sessions(agent.path());
    let cwds: Vec<&str> = all.iter().map(|s| s.cwd.as_str()).collect();
    assert_eq!(cwds, ["/b", "/a"]);
    assert!(list_all_sessions(&agent.path().join("missing")).is_empty());
}

#[test]
fn session_args_resolve_paths_and_id_prefixes() {
    let agent = tempfile::tempdir().unwrap();
    let (here_id, here_path) = stored(agent.path(), "/here", "local", 1_000);
    let (there_id, there_path) = stored(agent.path(), "/there", "remote", 2_000);
    let cwd = Path::new("/here");

    // Paths are used as given.
    for arg in ["some/file.jsonl", "x.jsonl", "a\\b"] {
        assert_eq!(
            lookup_session_arg(arg, cwd, None, agent.path()).unwrap(),
            ResolvedSessionArg::Path(PathBuf::from(arg))
        );
    }
    // Prefix of a session in this project.
    assert_eq!(
        lookup_session_arg(&here_id[..8], cwd, None, agent.path()).unwrap(),
        ResolvedSessionArg::Local(here_path.clone())
    );
    // The full id of a session in another project.
    assert_eq!(
        lookup_session_arg(&there_id, cwd, None, agent.path()).unwrap(),
        ResolvedSessionArg::Global {
            path: there_path.clone(),
            cwd: "/there".to_string()
        }
    );
    assert_eq!(
        resolve_session_arg(&there_id, cwd, None, agent.path()).unwrap(),
        there_path
    );
    let missing = resolve_session_arg("ffffffffffff", cwd, None, agent.path()).unwrap_err();
    assert_eq!(missing.arg, "ffffffffffff");
    assert!(missing.to_string().contains("'ffffffffffff'"), "{missing}");
}

#[test]
fn local_matches_win_and_the_newest_match_is_chosen() {
    let agent = tempfile::tempdir().unwrap();
    let custom_dir = agent.path().join("custom");
    let mut ids = Vec::new();
    for (text, at) in [("older", 1_000), ("newer", 5_000)] {
        let mut session = SessionManager::create(Path::new("/w"), &custom_dir);
        session.append_message(user_at(text, at - 1));
        session.append_message(assistant_at("a", at));
        session.sync().unwrap();
        ids.push((
            session.session_id().to_string(),
            session.session_file().unwrap().to_path_buf(),
        ));
    }
    // Session ids are time-ordered UUIDs, so both share a long prefix.
    let common: String = ids[0]
        .0
        .chars()
        .zip(ids[1].0.chars())
        .take_while(|(a, b)| a == b)
        .map(|(a, _)| a)
        .collect();
    assert!(!common.is_empty());
    let found =
        resolve_session_arg(&common, Path::new("/w"), Some(&custom_dir), agent.path()).unwrap();
    assert_eq!(found, ids[1].1);
}
