//! Bounded waiting: silent streams, empty streams, bad tool results and newer session files.

use super::*;

/// Headers, then silence until pi hangs up.
fn silent_reply() -> MockReply {
    MockReply::sse("").hold_open()
}

const QUICK_RETRIES: &str =
    r#"{"retry": {"maxRetries": 2, "baseDelayMs": 10, "provider": {"idleTimeoutMs": 400}}}"#;

#[test]
fn a_silent_stream_fails_with_a_clear_error_after_bounded_retries() {
    let server = MockServer::start();
    for _ in 0..3 {
        server.push(silent_reply());
    }
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    sandbox.write_agent_file("settings.json", QUICK_RETRIES);
    let started = Instant::now();
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "hello"], None);
    let elapsed = started.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!(
        "silent stream: gave up after {:.2} s",
        elapsed.as_secs_f64()
    );
    assert!(!out.status.success());
    assert!(stderr.contains("no data from mock for 0.4 s"), "{stderr}");
    assert_eq!(server.request_count(), 3, "first try and two retries");
    assert!(elapsed < Duration::from_secs(10), "{elapsed:?}");
}

#[test]
fn a_stall_is_retried_and_the_retry_answers() {
    let server = MockServer::start();
    server.push(silent_reply());
    server.push(MockReply::openai_text("second time lucky"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    sandbox.write_agent_file("settings.json", QUICK_RETRIES);
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "hello"], None);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("second time lucky"), "{stdout}");
    assert_eq!(server.request_count(), 2);
}

#[test]
fn a_stream_of_only_done_is_an_error_not_an_empty_answer() {
    let server = MockServer::start();
    server.push(MockReply::sse("data: [DONE]\n\n"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    sandbox.write_agent_file("settings.json", r#"{"retry": {"enabled": false}}"#);
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "hello"], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("without sending anything"), "{stderr}");
}

#[tokio::test]
async fn a_lua_tool_returning_a_number_is_an_error() {
    use pi::lua::{ExtensionHandle, HostConfig, SharedView};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("answer.lua");
    std::fs::write(
        &path,
        r#"
return function(pi)
  pi.registerTool({
    name = "answer",
    description = "Returns a bare number",
    execute = function() return 42 end,
  })
end
"#,
    )
    .unwrap();
    let handle = ExtensionHandle::start(HostConfig::new(vec![path], "."), SharedView::new("."));
    let report = handle.load().await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
    let err = handle
        .execute_tool(
            "answer",
            "c1",
            serde_json::json!({}),
            tokio_util::sync::CancellationToken::new(),
            tx,
        )
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("answer"), "{err}");
    assert!(err.contains("must return a table"), "{err}");
    assert!(err.contains("number"), "{err}");
}

#[test]
fn a_session_from_a_newer_pi_is_not_appended_to() {
    let sandbox = PiSandbox::new();
    let file = sandbox.root.path().join("future.jsonl");
    let content = concat!(
        r#"{"type":"session","version":99,"id":"0c4a4d36-7a34-4b8e-9c55-6f1e52d1a001","timestamp":"2030-01-01T00:00:00.000Z","cwd":"/tmp"}"#,
        "\n"
    );
    std::fs::write(&file, content).unwrap();
    let out = sandbox.run(
        &[
            "--provider",
            "demo",
            "--session",
            &file.display().to_string(),
            "-p",
            "hi",
        ],
        None,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("future.jsonl"), "{stderr}");
    assert!(stderr.contains("version 99"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), content);
}
