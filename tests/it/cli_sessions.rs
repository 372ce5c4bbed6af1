//! Session selection from the command line: `--session`, `--fork`, `--session-dir`.

use crate::support;
use crate::support::pi_cli;

use pi_cli::{PiSandbox, json_lines};
use support::{MockReply, MockServer};

fn answering(text: &'static str) -> MockServer {
    let server = MockServer::start();
    server.set_handler(move |_| MockReply::openai_text(text));
    server
}

fn session_id(path: &std::path::Path) -> String {
    let header = &json_lines(&std::fs::read_to_string(path).unwrap())[0];
    header["id"].as_str().unwrap().to_string()
}

#[test]
fn session_id_prefix_reopens_that_session() {
    let server = answering("ok");
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    assert!(
        sandbox
            .run(&["--model", "mock/mock-model", "-p", "one"], None)
            .status
            .success()
    );
    assert!(
        sandbox
            .run(&["--model", "mock/mock-model", "-p", "two"], None)
            .status
            .success()
    );
    let files = sandbox.session_files();
    assert_eq!(files.len(), 2);
    let first = files
        .iter()
        .find(|f| std::fs::read_to_string(f).unwrap().contains("\"one\""))
        .unwrap();
    let id = session_id(first);
    // Ids are time-ordered (UUIDv7), so a distinguishing prefix is a long one.
    let out = sandbox.run(&["--session", &id[..id.len() - 4], "-p", "three"], None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(sandbox.session_files().len(), 2, "no new file");
    let text = std::fs::read_to_string(first).unwrap();
    assert!(text.contains("\"three\""));
    let out = sandbox.run(&["--session", "ffffffffffff", "-p", "x"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("ffffffffffff"));
}

#[test]
fn fork_copies_history_into_a_new_session() {
    let server = answering("ok");
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    assert!(
        sandbox
            .run(&["--model", "mock/mock-model", "-p", "original"], None)
            .status
            .success()
    );
    let source = sandbox.session_files().remove(0);
    let before = std::fs::read_to_string(&source).unwrap();
    let out = sandbox.run(&["--fork", &source.to_string_lossy(), "-p", "branch"], None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&source).unwrap(),
        before,
        "source untouched"
    );
    let files = sandbox.session_files();
    assert_eq!(files.len(), 2);
    let fork = files.iter().find(|f| **f != source).unwrap();
    let entries = json_lines(&std::fs::read_to_string(fork).unwrap());
    assert_eq!(
        entries[0]["parentSession"].as_str().unwrap(),
        source.to_string_lossy()
    );
    let body = server.last_request().unwrap().json().clone();
    let users: Vec<String> = body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "user")
        .map(|m| {
            m["content"]
                .as_str()
                .map(str::to_string)
                .unwrap_or_else(|| m["content"][0]["text"].as_str().unwrap().to_string())
        })
        .collect();
    assert_eq!(users, ["original", "branch"]);
}

#[test]
fn session_dir_flag_and_env_choose_the_folder() {
    let server = answering("ok");
    let mut sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let custom = sandbox.root.path().join("custom-sessions");
    let out = sandbox.run(
        &[
            "--model",
            "mock/mock-model",
            "--session-dir",
            &custom.to_string_lossy(),
            "-p",
            "hi",
        ],
        None,
    );
    assert!(out.status.success());
    assert_eq!(std::fs::read_dir(&custom).unwrap().count(), 1);
    let from_env = sandbox.root.path().join("env-sessions");
    sandbox.env.push((
        "PI_CODING_AGENT_SESSION_DIR".into(),
        from_env.to_string_lossy().to_string(),
    ));
    assert!(
        sandbox
            .run(&["--model", "mock/mock-model", "-p", "hi"], None)
            .status
            .success()
    );
    assert_eq!(std::fs::read_dir(&from_env).unwrap().count(), 1);
    assert!(
        sandbox.session_files().is_empty(),
        "nothing under the agent dir"
    );
}

#[test]
fn sessions_search_finds_message_text_in_every_folder_newest_first() {
    let server = answering("The parser is fixed");
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let out = sandbox.run(
        &["--model", "mock/mock-model", "-p", "fix the Parser bug"],
        None,
    );
    assert!(out.status.success());
    // A session of another project, older, mentioning the parser too.
    let other = sandbox.agent_dir.join("sessions/--elsewhere--");
    std::fs::create_dir_all(&other).unwrap();
    let older = other.join("2020-01-01T00-00-00-000Z_old-one.jsonl");
    std::fs::write(
        &older,
        concat!(
            r#"{"type":"session","version":3,"id":"old-one","timestamp":"2020-01-01T00:00:00.000Z","cwd":"/elsewhere"}"#,
            "\n",
            r#"{"type":"message","id":"a","parentId":null,"timestamp":"2020-01-01T00:00:00.000Z","message":{"role":"user","content":"the parser again","timestamp":1}}"#,
            "\n"
        ),
    )
    .unwrap();
    let old_time =
        std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_600_000_000);
    std::fs::File::options()
        .write(true)
        .open(&older)
        .unwrap()
        .set_modified(old_time)
        .unwrap();

    let out = sandbox.run(&["sessions", "search", "parser", "--json"], None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let hits = json_lines(&String::from_utf8_lossy(&out.stdout));
    let folders: Vec<&str> = hits.iter().map(|h| h["cwd"].as_str().unwrap()).collect();
    assert_eq!(folders, [sandbox.project.to_str().unwrap(), "/elsewhere"]);
    assert_eq!(hits[0]["field"], "message");
    assert_eq!(hits[1]["snippet"], "the parser again");
    assert_eq!(hits[1]["path"], older.to_str().unwrap());

    // A regex, and the text form naming the file to open.
    let out = sandbox.run(
        &["sessions", "search", "--regex", "parser is fix(ed)?"],
        None,
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("The parser is fixed"), "{text}");
    assert!(!text.contains("/elsewhere"), "{text}");
    let ours = sandbox
        .session_files()
        .into_iter()
        .find(|f| !f.starts_with(&other))
        .unwrap();
    assert!(text.contains(ours.to_str().unwrap()), "{text}");

    // Nothing found, and a malformed regex.
    let out = sandbox.run(&["sessions", "search", "zebra"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("zebra"));
    let out = sandbox.run(&["sessions", "search", "--regex", "("], None);
    assert_eq!(out.status.code(), Some(2));
}
