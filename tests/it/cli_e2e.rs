//! End to end: the real `pi` binary against a mock LLM server on 127.0.0.1,
//! compared with what the reference pi 0.73.1 produced for the same
//! conversation (tests/fixtures/reference, see scripts/reference_fixtures.py).

use crate::support;
use crate::support::pi_cli;

use pi_cli::{PiSandbox, json_lines, normalise, reference_fixture};
use serde_json::{Value, json};
use support::scenario::{FINAL_ANSWER, Scenario, scenario_reply};
use support::{MockReply, MockServer};

const APIS: [&str; 2] = ["anthropic-messages", "openai-completions"];

fn scripted(scenario: Scenario) -> MockServer {
    let server = MockServer::start();
    server.set_handler(move |req| scenario_reply(scenario, req));
    server
}

fn session_entries(sandbox: &PiSandbox) -> Vec<Value> {
    let files = sandbox.session_files();
    assert_eq!(files.len(), 1, "exactly one session file: {files:?}");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert!(text.ends_with('\n'));
    json_lines(&text)
}

fn assert_matches_reference(sandbox: &PiSandbox, name: &str) {
    let cwd = sandbox.project.to_string_lossy().to_string();
    let ours: Vec<Value> = session_entries(sandbox)
        .iter()
        .map(|e| normalise(e, &cwd))
        .collect();
    let reference = reference_fixture(&format!("{name}.session.json"));
    let reference = reference.as_array().unwrap();
    assert_eq!(ours.len(), reference.len(), "entry count for {name}");
    for (i, (a, b)) in ours.iter().zip(reference).enumerate() {
        assert_eq!(a, b, "{name}: entry {i} differs from the reference");
    }
}

#[test]
fn print_mode_runs_bash_then_read_then_answers_like_the_reference() {
    for api in APIS {
        let server = scripted(Scenario::Sequential);
        let sandbox = PiSandbox::with_mock(&server, api);
        let out = sandbox.run(&["--model", "mock/mock-model", "-p", "run the tools"], None);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{api}: {stderr}");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            format!("{FINAL_ANSWER}\n")
        );
        assert_eq!(server.request_count(), 3);
        assert_matches_reference(&sandbox, &format!("{api}-sequential"));
        // The session header comes first and is version 3.
        let header = &session_entries(&sandbox)[0];
        assert_eq!(header["type"], "session");
        assert_eq!(header["version"], 3);
    }
}

#[test]
fn a_tool_loop_asks_the_model_over_one_kept_alive_connection() {
    for api in APIS {
        let server = scripted(Scenario::Sequential);
        server.keep_connections_alive();
        let sandbox = PiSandbox::with_mock(&server, api);
        let out = sandbox.run(&["--model", "mock/mock-model", "-p", "run the tools"], None);
        assert!(
            out.status.success(),
            "{api}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(server.request_count(), 3, "{api}");
        // Each streamed answer is read to its end, so the connection goes back to the
        // pool: no new TCP (or, with a provider, TLS) handshake per turn. The pool takes
        // a connection back on a task of its own, which a busy machine may run after the
        // next request has started: one reuse at least, not one connection always.
        assert!(
            server.connection_count() < 3,
            "{api}: {}",
            server.connection_count()
        );
    }
}

#[test]
fn two_parallel_tool_calls_in_one_turn_match_the_reference() {
    for api in APIS {
        let server = scripted(Scenario::Parallel);
        let sandbox = PiSandbox::with_mock(&server, api);
        let out = sandbox.run(&["--model", "mock/mock-model", "-p", "run the tools"], None);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            format!("{FINAL_ANSWER}\n")
        );
        assert_eq!(server.request_count(), 2);
        assert_matches_reference(&sandbox, &format!("{api}-parallel"));
    }
}

/// Events other than streaming deltas, normalised.
fn milestone_events(events: &[Value], cwd: &str) -> Vec<Value> {
    events
        .iter()
        .filter(|e| e["type"] != "message_update")
        .map(|e| normalise(e, cwd))
        .collect()
}

fn is_tool_event(e: &Value) -> bool {
    e["type"]
        .as_str()
        .is_some_and(|t| t.starts_with("tool_execution_"))
}

fn without_tool_events(events: &[Value]) -> Vec<&Value> {
    events.iter().filter(|e| !is_tool_event(e)).collect()
}

fn tool_events_of<'a>(events: &'a [Value], call: &str) -> Vec<&'a Value> {
    events
        .iter()
        .filter(|e| is_tool_event(e) && e["toolCallId"] == call)
        .collect()
}

#[test]
fn json_mode_streams_the_reference_event_sequence() {
    for api in APIS {
        for (scenario, tag) in [
            (Scenario::Sequential, "sequential"),
            (Scenario::Parallel, "parallel"),
        ] {
            let server = scripted(scenario);
            let sandbox = PiSandbox::with_mock(&server, api);
            let out = sandbox.run(
                &[
                    "--model",
                    "mock/mock-model",
                    "--mode",
                    "json",
                    "run the tools",
                ],
                None,
            );
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let cwd = sandbox.project.to_string_lossy().to_string();
            let ours = json_lines(&String::from_utf8_lossy(&out.stdout));
            assert_eq!(ours[0]["type"], "session", "header first");
            let reference = reference_fixture(&format!("{api}-{tag}.events.json"));
            let reference = reference.as_array().unwrap();
            let (a, b) = (
                milestone_events(&ours, &cwd),
                milestone_events(reference, "<cwd>"),
            );
            assert_eq!(a.len(), b.len(), "{api}-{tag}: event count");
            // Outside tool execution the order is fixed and must match exactly.
            let (a_main, b_main) = (without_tool_events(&a), without_tool_events(&b));
            for (i, (x, y)) in a_main.iter().zip(&b_main).enumerate() {
                assert_eq!(x, y, "{api}-{tag}: event {i}");
            }
            // Parallel tools finish in any order; each call's own events must match.
            for call in ["call_bash_1", "call_read_1"] {
                assert_eq!(
                    tool_events_of(&a, call),
                    tool_events_of(&b, call),
                    "{api}-{tag}: {call}"
                );
            }
            let deltas = |evs: &[Value]| {
                evs.iter()
                    .filter(|e| e["type"] == "message_update")
                    .map(|e| {
                        e["assistantMessageEvent"]["type"]
                            .as_str()
                            .unwrap()
                            .to_string()
                    })
                    .filter(|t| !t.ends_with("_delta"))
                    .collect::<Vec<_>>()
            };
            assert_eq!(
                deltas(&ours),
                deltas(reference),
                "{api}-{tag}: block start/end events"
            );
        }
    }
}

#[test]
fn rate_limit_is_retried_after_retry_after() {
    let server = scripted(Scenario::Sequential);
    server.push(
        MockReply::status(429)
            .header("retry-after", "1")
            .json_body(json!({"error": {"message": "Rate limit reached"}})),
    );
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let start = std::time::Instant::now();
    let out = sandbox.run(
        &[
            "--model",
            "mock/mock-model",
            "--mode",
            "json",
            "run the tools",
        ],
        None,
    );
    assert!(out.status.success());
    assert!(
        start.elapsed() >= std::time::Duration::from_millis(950),
        "waited for retry-after"
    );
    let events = json_lines(&String::from_utf8_lossy(&out.stdout));
    let retry = events
        .iter()
        .find(|e| e["type"] == "auto_retry_start")
        .expect("auto_retry_start");
    assert_eq!(retry["attempt"], 1);
    assert_eq!(retry["delayMs"], 1000);
    assert!(retry["errorMessage"].as_str().unwrap().starts_with("429"));
    let end = events
        .iter()
        .find(|e| e["type"] == "auto_retry_end")
        .expect("auto_retry_end");
    assert_eq!(end["success"], true);
    assert_eq!(server.request_count(), 4);
    // The failed reply stays in the session file; the retry continues after it.
    let entries = session_entries(&sandbox);
    assert!(
        entries
            .iter()
            .any(|e| e["message"]["stopReason"] == "error")
    );
    assert_eq!(
        entries.last().unwrap()["message"]["content"][0]["text"],
        FINAL_ANSWER
    );
}

#[test]
fn unauthorised_is_not_retried_and_names_the_env_var() {
    let server = MockServer::start();
    server.set_handler(|_| {
        MockReply::status(401).json_body(json!({"type": "error", "error": {"type": "authentication_error", "message": "invalid x-api-key"}}))
    });
    let sandbox = PiSandbox::new();
    sandbox.write_agent_file(
        "models.json",
        &json!({"providers": {"anthropic": {"baseUrl": server.anthropic_base_url()}}}).to_string(),
    );
    let mut sandbox = sandbox;
    sandbox
        .env
        .push(("ANTHROPIC_API_KEY".into(), "wrong".into()));
    let out = sandbox.run(
        &["--model", "anthropic/claude-sonnet-4-5", "-p", "hi"],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("401"), "{stderr}");
    assert!(stderr.contains("ANTHROPIC_API_KEY"), "{stderr}");
    assert_eq!(server.request_count(), 1, "not retried");
}

#[test]
fn missing_key_is_a_clear_error_without_any_request() {
    let sandbox = PiSandbox::new();
    let out = sandbox.run(
        &["--model", "anthropic/claude-sonnet-4-5", "-p", "hi"],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("ANTHROPIC_API_KEY"), "{stderr}");
}

#[test]
fn no_model_and_unknown_model_are_errors() {
    let sandbox = PiSandbox::new();
    let out = sandbox.run(&["-p", "hi"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("models.json"));
    let out = sandbox.run(&["--model", "no-such-model-anywhere", "-p", "hi"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no-such-model-anywhere"));
}

#[test]
fn piped_stdin_and_file_arguments_form_the_first_message() {
    let server = MockServer::start();
    server.set_handler(|_| MockReply::openai_text("ok"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let out = sandbox.run(
        &[
            "--model",
            "mock/mock-model",
            "-p",
            "@hello.txt",
            "Summarize",
        ],
        Some("piped text\n"),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let body = server.last_request().unwrap().json().clone();
    let messages = body["messages"].as_array().unwrap();
    let user = messages.iter().find(|m| m["role"] == "user").unwrap();
    let text = user["content"]
        .as_str()
        .map(str::to_string)
        .unwrap_or_else(|| user["content"][0]["text"].as_str().unwrap().to_string());
    let file = sandbox.project.join("hello.txt");
    assert_eq!(
        text,
        format!(
            "piped text<file name=\"{}\">\nhello world\n\n</file>\nSummarize",
            file.display()
        )
    );
}

#[test]
fn continue_appends_to_the_same_session_file() {
    let server = MockServer::start();
    server.set_handler(|_| MockReply::openai_text("answer"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    assert!(
        sandbox
            .run(&["--model", "mock/mock-model", "-p", "first"], None)
            .status
            .success()
    );
    let file = sandbox.session_files().remove(0);
    let before = std::fs::read_to_string(&file).unwrap();
    let out = sandbox.run(&["-c", "-p", "second"], None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(sandbox.session_files().len(), 1);
    let after = std::fs::read_to_string(&file).unwrap();
    assert!(after.starts_with(&before), "earlier lines are untouched");
    let body = server.last_request().unwrap().json().clone();
    let roles: Vec<&str> = body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(
        roles,
        ["system", "user", "assistant", "user"],
        "history was restored"
    );
}

#[test]
fn no_session_writes_nothing() {
    let server = MockServer::start();
    server.set_handler(|_| MockReply::openai_text("ok"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    assert!(
        sandbox
            .run(
                &["--model", "mock/mock-model", "--no-session", "-p", "hi"],
                None
            )
            .status
            .success()
    );
    assert!(sandbox.session_files().is_empty());
}

#[test]
fn malformed_settings_are_reported_with_their_line_and_pi_still_runs() {
    let server = MockServer::start();
    server.set_handler(|_| MockReply::openai_text("ok"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    sandbox.write_agent_file(
        "settings.json",
        "{\n  \"defaultModel\": \"x\",\n  oops\n}\n",
    );
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "hi"], None);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("settings.json") && stderr.contains("line 3"),
        "{stderr}"
    );
}

#[test]
fn invalid_tool_arguments_go_back_to_the_model_which_retries() {
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[(
        "c1",
        "read",
        json!({"limit": 3}),
    )]));
    server.push(MockReply::openai_tool_calls(&[(
        "c2",
        "read",
        json!({"path": "hello.txt"}),
    )]));
    server.push(MockReply::openai_text("fixed"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "read it"], None);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "fixed\n");
    let second = &server.requests()[1];
    let tool = second.json()["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "tool")
        .unwrap()
        .clone();
    let text = tool["content"]
        .as_str()
        .map(str::to_string)
        .unwrap_or_else(|| tool["content"].to_string());
    assert!(
        text.contains("Validation failed for tool \"read\""),
        "{text}"
    );
    assert!(text.contains("path"), "{text}");
}

#[test]
fn unparseable_tool_arguments_reach_the_model_as_a_validation_error() {
    let server = MockServer::start();
    let call = json!({"id": "c1", "object": "chat.completion.chunk", "model": "mock-model",
        "choices": [{"index": 0, "finish_reason": null, "delta": {"tool_calls": [{"index": 0,
            "id": "c1", "type": "function",
            "function": {"name": "read", "arguments": "{\"limit\": 3, \"path\": oops"}}]}}]});
    let finish = json!({"id": "c1", "object": "chat.completion.chunk", "model": "mock-model",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "delta": {}}]});
    server.push(MockReply::sse(format!(
        "data: {call}\n\ndata: {finish}\n\ndata: [DONE]\n\n"
    )));
    server.push(MockReply::openai_text("understood"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "read it"], None);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "understood\n");
    let second = &server.requests()[1];
    let tool = second.tool_message();
    assert!(tool.contains("Validation failed for tool"), "{tool}");
    assert!(tool.contains("path"), "{tool}");
}

#[test]
fn version_and_help_exit_zero() {
    let sandbox = PiSandbox::new();
    let out = sandbox.run(&["--version"], None);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        env!("CARGO_PKG_VERSION")
    );
    let out = sandbox.run(&["--help"], None);
    assert!(String::from_utf8_lossy(&out.stdout).contains("--list-models"));
    let out = sandbox.run(&["--export", "x.jsonl"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("x.jsonl"));
    let out = sandbox.run(&["--resume", "-p", "hi"], None);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--resume outside the terminal UI"),
        "{stderr}"
    );
}

#[test]
fn ctrl_c_aborts_the_running_tool_and_keeps_the_session() {
    let server = MockServer::start();
    let marker = "pi-e2e-abort-31337";
    server.push(MockReply::openai_tool_calls(&[(
        "c1",
        "bash",
        json!({"command": format!("touch started; sleep 31337 # {marker}")}),
    )]));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let mut child = sandbox.spawn(&["--model", "mock/mock-model", "-p", "wait"]);
    drop(child.stdin.take());
    let started = sandbox.project.join("started");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !started.exists() {
        assert!(std::time::Instant::now() < deadline, "tool never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let t0 = std::time::Instant::now();
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert!(
        t0.elapsed() < std::time::Duration::from_secs(5),
        "exited promptly"
    );
    assert_eq!(status.code(), Some(1));
    let still_running = std::fs::read_dir("/proc").unwrap().flatten().any(|p| {
        std::fs::read(p.path().join("cmdline"))
            .is_ok_and(|c| String::from_utf8_lossy(&c).contains(marker))
    });
    assert!(!still_running, "the tool's process group was killed");
    let entries = session_entries(&sandbox);
    let result = entries
        .iter()
        .find(|e| e["message"]["role"] == "toolResult")
        .expect("tool result saved");
    assert_eq!(result["message"]["isError"], true);
    assert!(
        result["message"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("aborted")
    );
    assert_eq!(entries.last().unwrap()["message"]["stopReason"], "aborted");
}

#[test]
fn context_overflow_is_reported_as_such_and_not_retried() {
    let server = MockServer::start();
    server.set_handler(|_| {
        MockReply::status(400).json_body(json!({"type": "error", "error": {
            "type": "invalid_request_error", "message": "prompt is too long: 250000 tokens > 200000 maximum"}}))
    });
    let sandbox = PiSandbox::with_mock(&server, "anthropic-messages");
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "huge"], None);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("Context overflow"), "{stderr}");
    assert!(stderr.contains("prompt is too long"), "{stderr}");
    // One compaction attempt (which overflows too), no retries.
    assert_eq!(server.request_count(), 2, "not retried");
    let summary_request = &server.requests()[1];
    assert!(
        summary_request.json()["system"]
            .to_string()
            .contains("context summarization assistant")
    );
}
