//! The session writer survives its file being deleted, truncated or replaced
//! by another program during a run: it writes the file again whole (header
//! and every entry) and says so once.

use super::*;
use serde_json::json;

#[test]
fn a_session_file_deleted_truncated_or_replaced_mid_run_is_written_again_whole() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let file = sandbox.root.path().join("s.jsonl");
    let path = file.display().to_string();
    for (id, command) in [
        ("c1", format!("rm '{path}'")),
        ("c2", format!(": > '{path}'")),
        (
            "c3",
            format!("echo '{{}}' > '{path}.new' && mv '{path}.new' '{path}'"),
        ),
    ] {
        server.push(MockReply::openai_tool_calls(&[(
            id,
            "bash",
            json!({ "command": command }),
        )]));
    }
    // The last answer streams slowly, in pieces.
    server.push(MockReply::openai_text("all done after the damage").chunked(&[40]));
    let out = sandbox.run(
        &["--model", "mock/mock-model", "--session", &path, "-p", "go"],
        None,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(
        stderr.matches("wrote it again whole").count(),
        1,
        "warned once: {stderr}"
    );
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}\n{text}")))
        .collect();
    assert_eq!(lines[0]["type"], "session", "{text}");
    let roles: Vec<&str> = lines[1..]
        .iter()
        .filter_map(|l| l["message"]["role"].as_str())
        .collect();
    assert_eq!(
        roles,
        [
            "user",
            "assistant",
            "toolResult",
            "assistant",
            "toolResult",
            "assistant",
            "toolResult",
            "assistant"
        ],
        "{text}"
    );
    assert!(text.contains("all done after the damage"), "{text}");
    // Every entry hangs on the one before it: the tree is whole.
    for pair in lines[1..].windows(2) {
        assert_eq!(pair[1]["parentId"], pair[0]["id"], "{text}");
    }
}

#[test]
fn the_terminal_ui_shows_the_rewrite_in_its_transcript() {
    use crate::support::tui_harness::{Session, tmux_available};
    if !tmux_available() {
        eprintln!("tmux is not installed; skipping");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[(
        "c1",
        "bash",
        json!({"command": "rm -f \"$PI_CODING_AGENT_DIR\"/sessions/*/*.jsonl"}),
    )]));
    server.push(MockReply::openai_text("finished after the removal"));
    let pi = Session::launch(&server, |_| {});
    pi.send("go");
    let screen = pi
        .tmux
        .wait_for("the notice", Duration::from_secs(20), |s| {
            s.contains("finished after the removal") && s.contains("replaced by another program")
        });
    assert!(screen.contains("go"), "{screen}");
    let files = pi.sandbox.session_files();
    assert_eq!(files.len(), 1, "{files:?}");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert!(text.starts_with("{\"type\":\"session\""), "{text}");
    assert!(text.contains("finished after the removal"), "{text}");
    pi.tmux.tmux(&["kill-server"]);
}
