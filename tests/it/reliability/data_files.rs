//! Every data file pi opens is checked to be a regular file and read within a
//! bound: a named pipe given as the session file or as the edit tool's target
//! is an error at once, never a hang.

use super::*;
use serde_json::json;

/// Make a named pipe at `path`.
fn mkfifo(path: &std::path::Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

#[test]
fn a_fifo_as_the_session_file_is_an_error_within_a_second() {
    let sandbox = PiSandbox::new();
    let fifo = sandbox.root.path().join("session.jsonl");
    mkfifo(&fifo);
    let started = Instant::now();
    let mut child = sandbox.spawn(&[
        "--provider",
        "demo",
        "--session",
        &fifo.display().to_string(),
        "-p",
        "hello",
    ]);
    drop(child.stdin.take());
    let done = finish(child, started);
    eprintln!("--session on a FIFO: {:.2} s", done.elapsed.as_secs_f64());
    // Well under a second when the machine is idle; the bound leaves room for
    // a loaded test machine, a hang would never end.
    assert!(done.elapsed < Duration::from_secs(5), "{:?}", done.elapsed);
    assert_ne!(done.code, Some(0), "{}", done.stderr);
    assert!(
        done.stderr
            .contains("a named pipe (FIFO), not a regular file"),
        "{}",
        done.stderr
    );
    assert!(done.stderr.contains("session.jsonl"), "{}", done.stderr);

    // A regular session file in the same place is used.
    std::fs::remove_file(&fifo).unwrap();
    let out = sandbox.run(
        &[
            "--provider",
            "demo",
            "--session",
            &fifo.display().to_string(),
            "-p",
            "hello",
        ],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(std::fs::metadata(&fifo).unwrap().is_file());
}

#[test]
fn the_edit_tool_on_a_fifo_answers_with_an_error_within_a_second() {
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[
        (
            "c1",
            "edit",
            json!({"path": "pipe", "edits": [{"oldText": "a", "newText": "b"}]}),
        ),
        (
            "c2",
            "edit",
            json!({"path": "hello.txt", "edits": [{"oldText": "world", "newText": "there"}]}),
        ),
    ]));
    server.push(MockReply::openai_text("done"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    mkfifo(&sandbox.project.join("pipe"));
    let started = Instant::now();
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "edit"], None);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let body = String::from_utf8_lossy(&server.requests()[1].body).into_owned();
    assert!(
        body.contains("a named pipe (FIFO), not a regular file"),
        "{body}"
    );
    assert_eq!(
        std::fs::read_to_string(sandbox.project.join("hello.txt")).unwrap(),
        "hello there\n"
    );
}

#[tokio::test]
async fn the_edit_and_write_tools_refuse_a_fifo_at_once() {
    use pi::agent::tool::{AgentTool, ToolContext};
    let dir = tempfile::tempdir().unwrap();
    mkfifo(&dir.path().join("pipe"));
    let started = Instant::now();
    let edit = pi::tools::EditTool::new()
        .execute(
            "c",
            json!({"path": "pipe", "edits": [{"oldText": "a", "newText": "b"}]}),
            ToolContext::new(dir.path()),
        )
        .await
        .unwrap_err();
    let write = pi::tools::WriteTool::new()
        .execute(
            "c",
            json!({"path": "pipe", "content": "x"}),
            ToolContext::new(dir.path()),
        )
        .await
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(1));
    for err in [edit, write] {
        assert!(
            err.to_string()
                .contains("a named pipe (FIFO), not a regular file"),
            "{err}"
        );
    }
}
