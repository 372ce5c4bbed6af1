//! Nothing typed is lost: the prompt survives kill -9, stop signals save the partial answer.

use super::*;

pub(super) const PROMPT: &str = "please remember this prompt";

/// A reply that streams some text and then neither finishes nor closes.
pub(super) fn stalled_reply() -> MockReply {
    MockReply::openai(OpenAiSse::new().text("half an answer").without_done()).hold_open()
}

pub(super) fn wait_for_requests(server: &MockServer, n: usize) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while server.request_count() < n {
        assert!(Instant::now() < deadline, "pi never sent request {n}");
        std::thread::sleep(Duration::from_millis(20));
    }
    // Let the streamed text reach pi.
    std::thread::sleep(Duration::from_millis(600));
}

pub(super) fn session_messages(sandbox: &PiSandbox) -> Vec<Value> {
    let files = sandbox.session_files();
    assert_eq!(files.len(), 1, "{files:?}");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    text.lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e["type"] == "message")
        .map(|e| e["message"].clone())
        .collect()
}

pub(super) fn mock_args(extra: &[&str]) -> Vec<String> {
    let mut args = vec!["--model".to_string(), "mock/mock-model".to_string()];
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

pub(super) fn spawn_pi(sandbox: &PiSandbox, args: &[String]) -> Child {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    sandbox.spawn(&args)
}

pub(super) fn send_signal(child: &Child, signal: i32) {
    // SAFETY: signals our own child process.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
}

#[test]
fn after_kill_9_mid_reply_continue_still_has_the_prompt() {
    let server = MockServer::start();
    server.push(stalled_reply());
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let mut child = spawn_pi(&sandbox, &mock_args(&["-p", PROMPT]));
    drop(child.stdin.take());
    wait_for_requests(&server, 1);
    send_signal(&child, libc::SIGKILL);
    child.wait().unwrap();

    let messages = session_messages(&sandbox);
    assert_eq!(messages[0]["role"], "user");
    assert!(messages[0].to_string().contains(PROMPT), "{messages:?}");

    server.push(MockReply::openai_text("I remember"));
    let out = sandbox.run(
        &["--model", "mock/mock-model", "-c", "-p", "what did I ask?"],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let body = String::from_utf8_lossy(&server.requests()[1].body).into_owned();
    assert!(body.contains(PROMPT), "{body}");
    assert!(body.contains("what did I ask?"), "{body}");
}

/// Start a run that stalls mid-reply, send `signal`, and check that pi ends
/// on its own with the prompt and the partial answer in the session.
fn signal_saves_the_partial_answer(mode: &[&str], signal: i32) {
    let server = MockServer::start();
    server.push(stalled_reply());
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let rpc = mode.contains(&"rpc");
    let mut args = mock_args(mode);
    if !rpc {
        args.extend(["-p".to_string(), PROMPT.to_string()]);
    }
    let mut child = spawn_pi(&sandbox, &args);
    let mut stdin = child.stdin.take();
    if let Some(stdin) = stdin.as_mut().filter(|_| rpc) {
        use std::io::Write;
        let line = serde_json::json!({"type": "prompt", "message": PROMPT}).to_string();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }
    if !rpc {
        stdin = None;
    }
    wait_for_requests(&server, 1);
    let started = Instant::now();
    send_signal(&child, signal);
    let done = finish(child, started);
    drop(stdin);
    assert!(
        done.elapsed < Duration::from_secs(10),
        "{mode:?} took {:?} after signal {signal}",
        done.elapsed
    );
    assert!(done.code.is_some(), "{mode:?}: killed by signal {signal}");
    let messages = session_messages(&sandbox);
    assert!(messages[0].to_string().contains(PROMPT), "{messages:?}");
    let answer = messages
        .iter()
        .find(|m| m["role"] == "assistant")
        .unwrap_or_else(|| panic!("{mode:?}/{signal}: no assistant message: {messages:?}"));
    assert!(answer.to_string().contains("half an answer"), "{answer}");
}

#[test]
fn sigterm_and_sighup_save_the_partial_answer_in_print_mode() {
    signal_saves_the_partial_answer(&[], libc::SIGTERM);
    signal_saves_the_partial_answer(&[], libc::SIGHUP);
    signal_saves_the_partial_answer(&[], libc::SIGINT);
}

#[test]
fn sigterm_and_sighup_save_the_partial_answer_in_json_mode() {
    signal_saves_the_partial_answer(&["--mode", "json"], libc::SIGTERM);
    signal_saves_the_partial_answer(&["--mode", "json"], libc::SIGHUP);
}

#[test]
fn sigterm_sighup_and_sigint_save_the_partial_answer_in_rpc_mode() {
    signal_saves_the_partial_answer(&["--mode", "rpc"], libc::SIGTERM);
    signal_saves_the_partial_answer(&["--mode", "rpc"], libc::SIGHUP);
    signal_saves_the_partial_answer(&["--mode", "rpc"], libc::SIGINT);
}
