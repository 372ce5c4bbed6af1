//! A long session resumed over RPC: `get_messages` is written as it is
//! serialised, and its bytes are those of the whole answer built as one value.

use std::io::Write;

use pi::session::build_session_context;
use pi::session::load::{MigrationWrite, load_session_file};
use serde_json::{Value, json};

use crate::support::MockServer;
use crate::support::pi_cli::PiSandbox;

/// The original's 1 MB test session, its header's folder set to `cwd`.
fn fixture_for(cwd: &std::path::Path) -> String {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/conformance/large-session.jsonl"
    ))
    .unwrap();
    let (first, rest) = text.split_once('\n').unwrap();
    let mut header: Value = serde_json::from_str(first).unwrap();
    header["cwd"] = json!(cwd);
    format!("{header}\n{rest}")
}

#[test]
fn session_get_messages_of_a_resumed_long_session_is_byte_identical() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, "anthropic-messages");
    let path = sandbox.root.path().join("large-session.jsonl");
    std::fs::write(&path, fixture_for(&sandbox.project)).unwrap();

    let answers = rpc_answers(&sandbox, &path);
    let line = |id: &str| {
        let start = format!("{{\"id\":\"{id}\",\"type\":\"response\"");
        answers
            .iter()
            .find(|line| line.starts_with(&start))
            .unwrap_or_else(|| panic!("no response {id}: {answers:?}"))
            .clone()
    };

    // The file was migrated on opening; its context is what the answer must hold.
    let loaded = load_session_file(&path, MigrationWrite::InMemory)
        .unwrap()
        .unwrap();
    let leaf = loaded.entries.last().map(|e| e.id());
    let messages = build_session_context(&loaded.entries, leaf).messages;
    assert!(messages.len() > 900, "{}", messages.len());
    let whole = json!({
        "id": "m",
        "type": "response",
        "command": "get_messages",
        "success": true,
        "data": {"messages": messages},
    });
    let got = line("m");
    assert!(
        got == serde_json::to_string(&whole).unwrap(),
        "the answer differs"
    );
    let state: Value = serde_json::from_str(&line("s")).unwrap();
    assert_eq!(state["data"]["messageCount"], json!(messages.len()));
}

/// A real session of the first format (2.4 MB once migrated): its header, set to
/// the sandbox's project, and its other lines.
fn conformance_session(sandbox: &PiSandbox) -> (Value, String) {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/conformance/before-compaction.jsonl"
    ))
    .unwrap();
    let (first, rest) = text.split_once('\n').unwrap();
    let mut header: Value = serde_json::from_str(first).unwrap();
    header["cwd"] = json!(sandbox.project);
    (header, rest.to_string())
}

/// The answers of one RPC run over the session at `path`: state, messages and the
/// fork list, one line each.
fn rpc_answers(sandbox: &PiSandbox, path: &std::path::Path) -> Vec<String> {
    let mut child = sandbox.spawn(&[
        "--mode",
        "rpc",
        "--model",
        "mock/mock-model",
        "--session",
        path.to_str().unwrap(),
    ]);
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(
            b"{\"type\":\"get_state\",\"id\":\"s\"}\n{\"type\":\"get_messages\",\"id\":\"m\"}\n{\"type\":\"get_fork_messages\",\"id\":\"f\"}\n",
        )
        .unwrap();
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .filter(|line| line.contains("\"type\":\"response\""))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_long_session_opened_from_its_kept_index_answers_as_from_its_lines() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, "anthropic-messages");
    // A session of the first format twice over, one chain: 4.7 MB once migrated.
    let (header, rest) = conformance_session(&sandbox);
    let path = sandbox.root.path().join("long.jsonl");
    std::fs::write(&path, format!("{header}\n{rest}{rest}")).unwrap();
    let folder = sandbox.agent_dir.join("cache").join("index");
    let kept = || std::fs::read_dir(&folder).map_or(0, |dir| dir.count());

    let migrated = rpc_answers(&sandbox, &path);
    assert!(std::fs::metadata(&path).unwrap().len() > 4 << 20);
    let _ = std::fs::remove_dir_all(&folder);
    let from_lines = rpc_answers(&sandbox, &path);
    assert_eq!(kept(), 1, "its index is kept");
    let from_index = rpc_answers(&sandbox, &path);
    assert_eq!(from_lines.len(), 3);
    assert_eq!(from_index, from_lines);
    assert_eq!(from_lines, migrated);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let file = std::fs::read_dir(&folder).unwrap().next().unwrap().unwrap();
        let mode = file.metadata().unwrap().permissions().mode();
        assert_eq!(
            mode & 0o777,
            0o600,
            "the index holds the first words of messages"
        );
    }
}

#[test]
fn quitting_keeps_the_index_of_a_long_session_for_the_next_run() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, "anthropic-messages");
    // 2.4 MB once migrated: read whole when opened, its index kept when pi quits.
    let (header, rest) = conformance_session(&sandbox);
    let path = sandbox.root.path().join("long.jsonl");
    std::fs::write(&path, format!("{header}\n{rest}")).unwrap();
    let folder = sandbox.agent_dir.join("cache").join("index");
    let kept = || std::fs::read_dir(&folder).map_or(0, |dir| dir.count());

    let short = sandbox.root.path().join("short.jsonl");
    let few: Vec<&str> = rest.lines().take(20).collect();
    std::fs::write(&short, format!("{header}\n{}\n", few.join("\n"))).unwrap();
    rpc_answers(&sandbox, &short);
    assert_eq!(kept(), 0, "a short session keeps no index");

    let answers = rpc_answers(&sandbox, &path);
    assert_eq!(answers.len(), 3);
    assert_eq!(kept(), 1, "kept when pi quit");
    assert_eq!(rpc_answers(&sandbox, &path), answers);
    assert_eq!(kept(), 1);
}
