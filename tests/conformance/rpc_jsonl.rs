//! RPC framing as a client meets it on `pi --mode rpc`: records are split on LF only
//! (U+2028 and U+2029 stay inside a record, in both directions), a CR before the LF is
//! dropped, and a last record without LF still counts. Driven through the binary with
//! the offline demo model and a private agent folder.
//! orig-file: packages/coding-agent/test/rpc-jsonl.test.ts

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

/// Run `pi --mode rpc` with `input` on stdin (then closed): its stdout, raw.
fn rpc(input: &[u8]) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let (project, agent) = (tmp.path().join("project"), tmp.path().join("agent"));
    std::fs::create_dir_all(&project).unwrap();
    std::fs::create_dir_all(&agent).unwrap();
    rpc_in(&project, &agent, &[], input)
}

/// Run `pi --mode rpc` (offline, demo model, no session file, `extra` arguments) in
/// `project` with the agent folder `agent`, `input` on stdin: its stdout, raw.
pub(crate) fn rpc_in(
    project: &std::path::Path,
    agent: &std::path::Path,
    extra: &[&str],
    input: &[u8],
) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pi"));
    cmd.args(["--mode", "rpc", "--provider", "demo", "--no-session"])
        .args(extra)
        .current_dir(project)
        .env("PI_CODING_AGENT_DIR", agent)
        .env("PI_OFFLINE", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (key, _) in std::env::vars() {
        if key.ends_with("_API_KEY") {
            cmd.env_remove(key);
        }
    }
    let mut child = cmd.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout).unwrap()
}

/// The responses in `stdout`, in order.
pub(crate) fn responses(stdout: &str) -> Vec<Value> {
    stdout
        .split('\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["type"] == "response")
        .collect()
}

const SEPARATORS: &str = "a\u{2028}b\u{2029}c";

/// orig: RPC JSONL framing › serializes strict JSONL records without escaping Unicode separators
#[test]
fn output_keeps_unicode_separators_raw() {
    let command = json!({"id": SEPARATORS, "type": "get_state"});
    let stdout = rpc(format!("{command}\n").as_bytes());
    assert!(stdout.ends_with('\n'));
    let line = stdout
        .split('\n')
        .find(|l| l.contains("\"response\""))
        .expect("a response line");
    assert!(line.contains(SEPARATORS), "raw separators in {line:?}");
    assert!(!line.contains("\\u2028"));
    let response: Value = serde_json::from_str(line).unwrap();
    assert_eq!(response["id"], SEPARATORS);
    assert_eq!(response["success"], true);
}

/// orig: RPC JSONL framing › splits on LF only and preserves U+2028/U+2029 inside payloads
#[test]
fn input_splits_on_lf_only() {
    // The separators are sent raw: a reader splitting on them would see three broken
    // records and answer each with a parse error.
    let command = format!("{{\"id\":\"{SEPARATORS}\",\"type\":\"get_state\"}}\n");
    assert!(command.contains('\u{2028}'));
    let responses = responses(&rpc(command.as_bytes()));
    assert_eq!(responses.len(), 1, "{responses:?}");
    assert_eq!(responses[0]["id"], SEPARATORS);
    assert_eq!(responses[0]["success"], true);
}

/// orig: RPC JSONL framing › handles CRLF-delimited input
#[test]
fn input_accepts_crlf() {
    let input =
        "{\"id\":\"1\",\"type\":\"get_state\"}\r\n{\"id\":\"2\",\"type\":\"get_state\"}\r\n";
    let responses = responses(&rpc(input.as_bytes()));
    let ids: Vec<_> = responses.iter().map(|r| r["id"].clone()).collect();
    assert_eq!(ids, [json!("1"), json!("2")]);
    assert!(responses.iter().all(|r| r["success"] == true));
}

/// orig: RPC JSONL framing › emits a final line without trailing LF
#[test]
fn a_last_record_without_lf_counts() {
    let responses = responses(&rpc(b"{\"id\":\"1\",\"type\":\"get_state\"}"));
    assert_eq!(responses.len(), 1, "{responses:?}");
    assert_eq!(responses[0]["id"], "1");
    assert_eq!(responses[0]["success"], true);
}
