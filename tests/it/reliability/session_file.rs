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
