use std::fs;
use std::time::{Duration, SystemTime};

use serde_json::json;

use super::*;

fn line(value: serde_json::Value) -> String {
    serde_json::to_string(&value).unwrap() + "\n"
}

fn message(role: &str, content: serde_json::Value) -> String {
    line(json!({"type": "message", "id": "m", "parentId": null,
        "timestamp": "2026-01-01T00:00:00.000Z",
        "message": {"role": role, "content": content, "timestamp": 1}}))
}

/// A session file in `root/<folder>/` with the given entry lines, modified `age_s` ago.
fn session(root: &Path, folder: &str, id: &str, body: &str, age_s: u64) -> PathBuf {
    let dir = root.join(folder);
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("2026-01-01T00-00-00-000Z_{id}.jsonl"));
    let header = line(json!({"type": "session", "version": 3, "id": id,
        "timestamp": "2026-01-01T00:00:00.000Z", "cwd": format!("/work/{folder}")}));
    fs::write(&path, header + body).unwrap();
    let when = SystemTime::now() - Duration::from_secs(age_s);
    fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(when)
        .unwrap();
    path
}

fn ids(hits: &[SessionHit]) -> Vec<&str> {
    hits.iter().map(|h| h.id.as_str()).collect()
}

#[test]
fn phrases_match_message_text_across_folders_newest_first() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    session(
        root,
        "a",
        "old",
        &message("user", json!("The Parser\nbroke today")),
        300,
    );
    session(
        root,
        "b",
        "new",
        &message(
            "assistant",
            json!([{"type": "text", "text": "parser   broke again"}]),
        ),
        10,
    );
    session(
        root,
        "c",
        "other",
        &message("user", json!("nothing here")),
        5,
    );
    let hits = search_sessions(root, &SessionQuery::phrase("parser broke").unwrap());
    assert_eq!(ids(&hits), ["new", "old"]);
    assert_eq!(hits[0].field, HitField::Message);
    assert_eq!(hits[0].cwd, "/work/b");
    assert_eq!(hits[1].snippet, "The Parser broke today");
    // The words in another order are another phrase.
    let none = search_sessions(root, &SessionQuery::phrase("broke parser").unwrap());
    assert!(none.is_empty());
}

#[test]
fn only_user_and_assistant_text_counts_not_tool_output_or_json_keys() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let tool = line(json!({"type": "message", "id": "t", "parentId": null,
        "timestamp": "2026-01-01T00:00:00.000Z",
        "message": {"role": "toolResult", "toolCallId": "c", "toolName": "bash",
            "content": [{"type": "text", "text": "needle in tool output"}], "isError": false}}));
    let thinking = message(
        "assistant",
        json!([{"type": "thinking", "thinking": "needle"}]),
    );
    session(root, "a", "tools", &(tool + &thinking), 10);
    session(root, "b", "chat", &message("user", json!("a needle")), 20);
    let hits = search_sessions(root, &SessionQuery::phrase("needle").unwrap());
    assert_eq!(ids(&hits), ["chat"]);
    // "role" is a JSON key in every line, never message text.
    assert!(search_sessions(root, &SessionQuery::phrase("role").unwrap()).is_empty());
}

#[test]
fn json_written_with_spaces_is_searched_too() {
    let dir = tempfile::tempdir().unwrap();
    let body = concat!(
        r#"{"type": "session_info", "id": "i", "name": "Spaced name"}"#,
        "\n",
        r#"{"type": "message", "id": "m", "message": {"role": "user", "content": "spaced text"}}"#,
        "\n"
    );
    session(dir.path(), "a", "spaced", body, 10);
    let hits = search_sessions(dir.path(), &SessionQuery::phrase("spaced text").unwrap());
    assert_eq!(ids(&hits), ["spaced"]);
    assert_eq!(hits[0].name.as_deref(), Some("Spaced name"));
}

#[test]
fn names_ids_and_folders_match_and_the_latest_name_wins() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let names = line(json!({"type": "session_info", "id": "i1", "name": "First name"}))
        + &line(json!({"type": "session_info", "id": "i2", "name": "Release plan"}));
    session(root, "a", "named", &names, 10);
    session(root, "proj-zeta", "abc123", "", 20);
    let by_name = search_sessions(root, &SessionQuery::phrase("release").unwrap());
    assert_eq!(ids(&by_name), ["named"]);
    assert_eq!(by_name[0].field, HitField::Name);
    assert_eq!(by_name[0].name.as_deref(), Some("Release plan"));
    assert!(search_sessions(root, &SessionQuery::phrase("first name").unwrap()).is_empty());
    let by_id = search_sessions(root, &SessionQuery::phrase("ABC1").unwrap());
    assert_eq!(
        (ids(&by_id), by_id[0].field),
        (vec!["abc123"], HitField::Id)
    );
    let by_folder = search_sessions(root, &SessionQuery::phrase("zeta").unwrap());
    assert_eq!(by_folder[0].field, HitField::Folder);
}

#[test]
fn regexes_and_escaped_text() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    session(
        root,
        "a",
        "quote",
        &message("user", json!("say \"hi\" now")),
        10,
    );
    session(
        root,
        "b",
        "num",
        &message("user", json!("error E0502 seen")),
        20,
    );
    let quoted = search_sessions(root, &SessionQuery::phrase("\"hi\" now").unwrap());
    assert_eq!(ids(&quoted), ["quote"]);
    let re = search_sessions(root, &SessionQuery::regex(r"e0\d{3}").unwrap());
    assert_eq!(ids(&re), ["num"]);
    assert_eq!(re[0].snippet, "error E0502 seen");
    assert!(matches!(
        SessionQuery::regex("("),
        Err(QueryError::Invalid(_))
    ));
    assert!(matches!(SessionQuery::phrase("  "), Err(QueryError::Empty)));
    assert!(matches!(SessionQuery::regex(" "), Err(QueryError::Empty)));
}

#[test]
fn snippets_are_cut_around_the_match() {
    let text = format!("{} needle {}", "a".repeat(100), "b".repeat(100));
    let at = text.find("needle").unwrap();
    let cut = snippet(&text, at, at + 6);
    assert_eq!(
        cut,
        format!("…{} needle {}…", "a".repeat(39), "b".repeat(39))
    );
}

#[test]
fn a_search_stops_when_told() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for i in 0..20 {
        session(
            root,
            &format!("f{i}"),
            &format!("s{i}"),
            &message("user", json!("hit")),
            i,
        );
    }
    let files = session_files(root);
    assert_eq!(files.len(), 20);
    let seen = AtomicUsize::new(0);
    search_files(&files, &SessionQuery::phrase("hit").unwrap(), &|_| {
        seen.fetch_add(1, Ordering::Relaxed) < 2
    });
    // Each worker stops after at most the file it was on.
    let seen = seen.into_inner();
    assert!((3..=2 + num_workers()).contains(&seen), "{seen}");
}

fn num_workers() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}
