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
            b"{\"type\":\"get_state\",\"id\":\"s\"}\n{\"type\":\"get_messages\",\"id\":\"m\"}\n",
        )
        .unwrap();
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    let line = |id: &str| {
        let start = format!("{{\"id\":\"{id}\",\"type\":\"response\"");
        stdout
            .lines()
            .find(|line| line.starts_with(&start))
            .unwrap_or_else(|| panic!("no response {id}: {stdout}"))
            .to_string()
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
