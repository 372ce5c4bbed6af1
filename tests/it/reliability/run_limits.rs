//! Nothing runs away with the user's money: a model that repeats a failing tool call,
//! or calls tools without end, is stopped after a bounded number of requests in print,
//! JSON and RPC mode, with a stable code; a varied loop that succeeds is left alone.

use super::*;
use crate::support::pi_cli::json_lines;
use crate::support::rpc_client::RpcClient;
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

const MODEL: [&str; 2] = ["--model", "mock/mock-model"];

/// After this many requests the mock answers with text, so that a guard that fails
/// shows as a failed assertion instead of a test that never ends.
const SAFETY_STOP: usize = 40;

/// A reply calling `name` with `raw` as its (possibly broken) JSON arguments.
fn raw_tool_call(id: &str, name: &str, raw: &str) -> MockReply {
    let chunk = json!({
        "id": "chatcmpl-mock", "object": "chat.completion.chunk", "created": 1_700_000_000,
        "model": "gpt-mock",
        "choices": [{"index": 0, "finish_reason": null, "delta": {"tool_calls": [
            {"index": 0, "id": id, "type": "function",
             "function": {"name": name, "arguments": raw}}]}}]
    });
    MockReply::openai(OpenAiSse::new().raw(chunk).finish("tool_calls"))
}

/// A mock that answers every request with the same tool call (fresh ids).
fn always_calling(server: &MockServer, name: &'static str, raw: &'static str) {
    let n = Arc::new(AtomicUsize::new(0));
    server.set_handler(move |_| {
        let i = n.fetch_add(1, Ordering::SeqCst);
        if i >= SAFETY_STOP {
            return MockReply::openai_text("the guard never stopped me");
        }
        raw_tool_call(&format!("call_{i}"), name, raw)
    });
}

fn sandbox(server: &MockServer) -> PiSandbox {
    let sandbox = PiSandbox::with_mock(server, "openai-completions");
    sandbox.write_agent_file("settings.json", r#"{"retry": {"enabled": false}}"#);
    sandbox
}

fn run(sandbox: &PiSandbox, args: &[&str]) -> (Option<i32>, String, String) {
    let mut all = MODEL.to_vec();
    all.extend_from_slice(args);
    let out = sandbox.run(&all, None);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_read_call_with_broken_arguments_stops_print_mode_after_three_failures() {
    let server = MockServer::start();
    always_calling(&server, "read", r#"{"path": hello.txt}"#);
    let sandbox = sandbox(&server);
    let (code, stdout, stderr) = run(&sandbox, &["-p", "read the file"]);
    let requests = server.request_count();
    eprintln!("broken read arguments: {requests} requests, exit {code:?}");
    assert_eq!(code, Some(1), "{stdout}\n{stderr}");
    assert!(stderr.contains("`read`"), "{stderr}");
    assert!(stderr.contains("3 turns in a row"), "{stderr}");
    assert!(requests <= 5, "{requests} requests");
    assert_eq!(requests, 3);
}

#[test]
fn an_unknown_tool_called_again_and_again_stops_print_mode() {
    let server = MockServer::start();
    always_calling(&server, "read_files_fast", r#"{"path": "hello.txt"}"#);
    let sandbox = sandbox(&server);
    let (code, stdout, stderr) = run(&sandbox, &["-p", "read the file"]);
    assert_eq!(code, Some(1), "{stdout}\n{stderr}");
    assert!(stderr.contains("`read_files_fast`"), "{stderr}");
    assert!(stderr.contains("not found"), "{stderr}");
    assert!(server.request_count() <= 5, "{}", server.request_count());
}

#[test]
fn json_mode_ends_with_run_stopped_and_its_code() {
    let server = MockServer::start();
    always_calling(&server, "read", "{not json");
    let sandbox = sandbox(&server);
    let (code, stdout, stderr) = run(&sandbox, &["--mode", "json", "read it"]);
    assert_eq!(code, Some(1), "{stderr}");
    let events = json_lines(&stdout);
    let n = events.len();
    assert!(n > 2, "{stdout}");
    let stopped = &events[n - 2];
    assert_eq!(stopped["type"], "run_stopped", "{stdout}");
    assert_eq!(stopped["code"], "repeated_tool_failure");
    assert_eq!(stopped["details"]["toolName"], "read");
    assert_eq!(stopped["details"]["times"], 3);
    assert!(stopped["message"].as_str().unwrap().contains("`read`"));
    assert_eq!(events[n - 1]["type"], "agent_end");
    // The stop comes between turns: the last turn ended, no other began.
    assert_eq!(events[n - 3]["type"], "turn_end", "{stdout}");
    assert!(server.request_count() <= 5);
}

#[test]
fn the_same_error_from_the_tool_itself_counts_as_a_repeat() {
    let server = MockServer::start();
    always_calling(&server, "read", r#"{"path": "missing.txt"}"#);
    let sandbox = sandbox(&server);
    let (code, stdout, stderr) = run(&sandbox, &["-p", "read missing.txt"]);
    assert_eq!(code, Some(1), "{stdout}\n{stderr}");
    assert!(stderr.contains("`read`"), "{stderr}");
    assert!(stderr.contains("missing.txt"), "{stderr}");
    assert_eq!(server.request_count(), 3);
}

#[test]
fn rpc_mode_sends_the_client_run_stopped_with_its_code() {
    let server = MockServer::start();
    always_calling(&server, "no_such_tool", "{}");
    let sandbox = sandbox(&server);
    let mut rpc = RpcClient::new(sandbox.spawn(&["--mode", "rpc", "--model", "mock/mock-model"]));
    let response = rpc.call(json!({"type": "prompt", "message": "go"}));
    assert_eq!(response["success"], true, "{response}");
    let stopped = rpc.event("run_stopped");
    assert_eq!(stopped["code"], "repeated_tool_failure", "{stopped}");
    assert_eq!(stopped["details"]["toolName"], "no_such_tool");
    rpc.event("agent_end");
    assert!(server.request_count() <= 5);
    // The session is still usable: the next prompt gets an answer.
    server.set_handler(|_| MockReply::openai_text("fine now"));
    rpc.call(json!({"type": "prompt", "message": "answer in words"}));
    let end = rpc.wait_for("the second agent_end", |v| {
        v["type"] == "agent_end" && v.to_string().contains("fine now")
    });
    assert_eq!(end.value["type"], "agent_end");
}

#[test]
fn max_turns_stops_a_model_that_lists_files_forever_after_five_requests() {
    let server = MockServer::start();
    always_calling(&server, "ls", "{}");
    let sandbox = sandbox(&server);
    let (code, stdout, stderr) = run(&sandbox, &["--tools", "ls", "--max-turns", "5", "-p", "go"]);
    assert_eq!(code, Some(1), "{stdout}\n{stderr}");
    assert!(stderr.contains("limit of 5 turns"), "{stderr}");
    assert!(stderr.contains("--max-turns"), "{stderr}");
    assert_eq!(server.request_count(), 5);
}

#[test]
fn headless_runs_have_a_turn_limit_by_default_from_settings() {
    let server = MockServer::start();
    always_calling(&server, "ls", "{}");
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    sandbox.write_agent_file("settings.json", r#"{"agent": {"maxTurns": 7}}"#);
    let (code, _, stderr) = run(&sandbox, &["--tools", "ls", "-p", "go"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("limit of 7 turns"), "{stderr}");
    assert_eq!(server.request_count(), 7);
}

#[test]
fn max_requests_counts_retries() {
    let server = MockServer::start();
    server.set_handler(|_| MockReply::openai_error(503, "overloaded"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    sandbox.write_agent_file(
        "settings.json",
        r#"{"retry": {"maxRetries": 6, "baseDelayMs": 1}}"#,
    );
    let (code, _, stderr) = run(&sandbox, &["--max-requests", "3", "-p", "go"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("limit of 3 model requests"), "{stderr}");
    assert_eq!(server.request_count(), 3, "the first try and two retries");
}

#[test]
fn a_varied_succeeding_loop_of_ten_turns_is_not_stopped() {
    let server = MockServer::start();
    let n = Arc::new(AtomicUsize::new(0));
    server.set_handler(move |_| {
        let i = n.fetch_add(1, Ordering::SeqCst);
        let id = format!("call_{i}");
        match i {
            // The same succeeding call again and again is no failure.
            0..5 => raw_tool_call(&id, "ls", "{}"),
            5..10 if i.is_multiple_of(2) => raw_tool_call(&id, "read", r#"{"path": "hello.txt"}"#),
            5..10 => raw_tool_call(&id, "ls", &format!(r#"{{"limit": {i}}}"#)),
            _ => MockReply::openai_text("all done"),
        }
    });
    let sandbox = sandbox(&server);
    let (code, stdout, stderr) = run(&sandbox, &["--tools", "ls,read", "-p", "explore"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("all done"), "{stdout}");
    assert_eq!(server.request_count(), 11);
}

#[test]
fn a_failing_call_that_changes_each_time_is_not_a_repeat() {
    let server = MockServer::start();
    let n = Arc::new(AtomicUsize::new(0));
    server.set_handler(move |_| {
        let i = n.fetch_add(1, Ordering::SeqCst);
        match i {
            0..6 => raw_tool_call(
                &format!("call_{i}"),
                "read",
                &format!(r#"{{"path": "missing-{i}.txt"}}"#),
            ),
            _ => MockReply::openai_text("gave up looking"),
        }
    });
    let sandbox = sandbox(&server);
    let (code, stdout, stderr) = run(&sandbox, &["-p", "find it"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("gave up looking"), "{stdout}");
    assert_eq!(server.request_count(), 7);
}

#[test]
fn an_extension_sees_run_limit_and_may_raise_the_turn_limit() {
    let server = MockServer::start();
    always_calling(&server, "ls", "{}");
    let sandbox = sandbox(&server);
    let log = sandbox.root.path().join("limits.jsonl");
    let ext = extension(
        &sandbox,
        "raise.lua",
        &format!(
            r#"
return function(pi)
  pi.on("run_limit", function(event)
    local f = assert(io.open({log:?}, "a"))
    f:write(pi.json.encode(event), "\n")
    f:close()
    if event.limit == 2 then return {{ maxTurns = 4 }} end
  end)
end
"#,
            log = log.display().to_string()
        ),
    );
    let ext = ext.display().to_string();
    let args = ["--tools", "ls", "--max-turns", "2", "-e", &ext, "-p", "go"];
    let (code, _, stderr) = run(&sandbox, &args);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(server.request_count(), 4, "{stderr}");
    assert!(stderr.contains("limit of 4 turns"), "{stderr}");
    let events = json_lines(&std::fs::read_to_string(&log).unwrap());
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(events[0]["type"], "run_limit");
    assert_eq!(events[0]["reason"], "max_turns");
    assert_eq!(events[0]["turns"], 2);
    assert_eq!(events[0]["requests"], 2);
    assert_eq!(events[1]["limit"], 4);
}

#[test]
fn an_extension_may_let_a_repeated_failure_go_on_once() {
    let server = MockServer::start();
    always_calling(&server, "read", "{}");
    let sandbox = sandbox(&server);
    let ext = extension(
        &sandbox,
        "patient.lua",
        r#"
local allowed = 1
return function(pi)
  pi.on("run_limit", function(event)
    if event.reason == "repeated_tool_failure" and event.toolName == "read" and allowed > 0 then
      allowed = allowed - 1
      return { continue = true }
    end
  end)
end
"#,
    );
    let ext = ext.display().to_string();
    let (code, _, stderr) = run(&sandbox, &["-e", &ext, "-p", "go"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("`read`"), "{stderr}");
    // Three failures, one more chance of three, then the stop.
    assert_eq!(server.request_count(), 6);
}
