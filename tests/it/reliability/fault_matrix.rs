//! The fault matrix: what the user sees when the machine, the network or the
//! provider misbehaves. Each case runs the real `pi` binary against a mock
//! server on 127.0.0.1 (or none) and asserts the message shown.

use super::*;
use crate::support::rpc_client::RpcClient;
use serde_json::json;
use std::net::TcpListener;
use std::os::unix::process::CommandExt;

const NO_RETRY: &str = r#"{"retry": {"enabled": false}}"#;
const QUICK_RETRIES: &str =
    r#"{"retry": {"maxRetries": 2, "baseDelayMs": 10, "provider": {"idleTimeoutMs": 400}}}"#;

fn mock_run(server: &MockServer, settings: &str, prompt: &str) -> (std::process::Output, Duration) {
    let sandbox = PiSandbox::with_mock(server, "openai-completions");
    sandbox.write_agent_file("settings.json", settings);
    let started = Instant::now();
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", prompt], None);
    (out, started.elapsed())
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn an_empty_certificate_store_does_not_stop_an_http_provider() {
    let server = MockServer::start();
    server.push(MockReply::openai_text("plain http works"));
    let mut sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let empty_dir = sandbox.root.path().join("no-certs");
    std::fs::create_dir_all(&empty_dir).unwrap();
    let empty_file = sandbox.root.path().join("no-certs.pem");
    std::fs::write(&empty_file, "").unwrap();
    sandbox
        .env
        .push(("SSL_CERT_FILE".into(), empty_file.display().to_string()));
    sandbox
        .env
        .push(("SSL_CERT_DIR".into(), empty_dir.display().to_string()));
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "hi"], None);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(text(&out.stdout), "plain http works\n");
}

#[test]
fn a_local_model_server_that_never_answers_delays_start_by_a_bound() {
    // Accepts connections (the kernel's backlog) and never answers.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    let mut sandbox = PiSandbox::new();
    sandbox.write_agent_file(
        "models.json",
        &json!({"providers": {"ollama": {"baseUrl": url}, "lmstudio": {"baseUrl": url}}})
            .to_string(),
    );
    let timed = |sandbox: &PiSandbox| {
        let started = Instant::now();
        let out = sandbox.run(&["--list-models", "nothing-matches"], None);
        assert!(out.status.success(), "{}", text(&out.stderr));
        started.elapsed()
    };
    let offline = timed(&sandbox);
    sandbox.env.push(("PI_OFFLINE".into(), "0".into()));
    let probing = timed(&sandbox);
    eprintln!(
        "hanging local servers: start {:.2} s offline, {:.2} s probing",
        offline.as_secs_f64(),
        probing.as_secs_f64()
    );
    // Three probes of 0.8 s each used to run one after another (2.4 s); now
    // they run together and end within one probe timeout.
    assert!(
        probing < offline + Duration::from_millis(1300),
        "{probing:?} vs {offline:?}"
    );
    drop(listener);
}

#[test]
fn a_provider_closing_mid_stream_is_reported() {
    let server = MockServer::start();
    let cut = OpenAiSse::new().text("half an ans").without_done().build();
    server.push(MockReply::sse(cut));
    let (out, _) = mock_run(&server, NO_RETRY, "hi");
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "The response stream ended before a finish_reason or [DONE]; the connection was cut off"
        ),
        "{stderr}"
    );
}

#[test]
fn garbage_sse_is_reported() {
    let server = MockServer::start();
    server.push(MockReply::sse(
        "data: {this is not json\n\ndata: [DONE]\n\n",
    ));
    let (out, _) = mock_run(&server, NO_RETRY, "hi");
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("Could not parse streaming chunk: key must be a string")
            && stderr.contains("data={this is not json"),
        "{stderr}"
    );
}

#[test]
fn a_hanging_provider_is_retried_then_reported() {
    let server = MockServer::start();
    for _ in 0..3 {
        server.push(MockReply::sse("").hold_open());
    }
    let (out, elapsed) = mock_run(&server, QUICK_RETRIES, "hi");
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("no data from mock for 0.4 s"), "{stderr}");
    assert_eq!(server.request_count(), 3);
    assert!(elapsed < Duration::from_secs(10), "{elapsed:?}");
}

#[test]
fn a_429_with_retry_after_is_waited_for_then_answered() {
    let server = MockServer::start();
    server.push(MockReply::openai_error(429, "slow down").header("retry-after", "1"));
    server.push(MockReply::openai_text("after the wait"));
    let (out, elapsed) = mock_run(&server, r#"{"retry": {"baseDelayMs": 10}}"#, "hi");
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(text(&out.stdout), "after the wait\n");
    assert!(elapsed >= Duration::from_millis(900), "{elapsed:?}");
}

#[test]
fn repeated_5xx_ends_with_the_status_and_message() {
    let server = MockServer::start();
    for _ in 0..3 {
        server.push(MockReply::openai_error(503, "upstream is down").header("retry-after", "0"));
    }
    let (out, _) = mock_run(
        &server,
        r#"{"retry": {"maxRetries": 2, "baseDelayMs": 10}}"#,
        "hi",
    );
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("503"), "{stderr}");
    assert!(stderr.contains("upstream is down"), "{stderr}");
    assert_eq!(server.request_count(), 3);
}

#[test]
fn a_full_disk_when_appending_leaves_no_half_line() {
    let server = MockServer::start();
    server.set_handler(|_| MockReply::openai_text(&"long answer ".repeat(400)));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let first = sandbox.run(&["--model", "mock/mock-model", "-p", "first"], None);
    assert!(first.status.success(), "{}", text(&first.stderr));
    let files = sandbox.session_files();
    assert_eq!(files.len(), 1);
    let before = std::fs::read(&files[0]).unwrap();
    // The file may grow by 100 bytes: the next line only partly fits.
    let limit = before.len() as u64 + 100;
    let child = {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_pi"));
        cmd.args(["--model", "mock/mock-model", "--continue", "-p", "second"])
            .current_dir(&sandbox.project)
            .env("PI_CODING_AGENT_DIR", &sandbox.agent_dir)
            .env("PI_OFFLINE", "1")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                let rlim = libc::rlimit {
                    rlim_cur: limit,
                    rlim_max: limit,
                };
                if libc::setrlimit(libc::RLIMIT_FSIZE, &rlim) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        cmd.spawn().unwrap()
    };
    let started = Instant::now();
    let done = finish(child, started);
    let after = std::fs::read(&files[0]).unwrap();
    assert!(
        done.stderr.contains("could not save the session")
            && done.stderr.contains("File too large"),
        "{}",
        done.stderr
    );
    assert!(after.ends_with(b"\n"), "a half-written line was left");
    for line in String::from_utf8_lossy(&after).lines() {
        serde_json::from_str::<Value>(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    }
    assert!(after.starts_with(&before));
}

#[test]
fn a_10_mb_rpc_line_is_accepted() {
    let server = MockServer::start();
    server.set_handler(|_| MockReply::openai_text("got it"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let mut rpc = RpcClient::new(sandbox.spawn(&[
        "--model",
        "mock/mock-model",
        "--no-session",
        "--mode",
        "rpc",
    ]));
    let big = "x".repeat(10 * 1024 * 1024);
    let reply = rpc.call(json!({"type": "prompt", "message": big}));
    assert_eq!(reply["success"], true, "{reply}");
    rpc.event("agent_end");
    assert_eq!(rpc.call(json!({"type": "get_state"}))["success"], true);
    let request = server.last_request().unwrap();
    assert!(request.body.len() > 10 * 1024 * 1024);
}

#[test]
fn stdin_closed_mid_rpc_stops_the_run_and_keeps_what_was_said() {
    let server = MockServer::start();
    server.push(
        MockReply::openai_text(&"slowly streamed words ".repeat(20))
            .chunked(&[40])
            .delay(Duration::from_millis(100)),
    );
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let mut rpc = RpcClient::new(sandbox.spawn(&["--model", "mock/mock-model", "--mode", "rpc"]));
    let reply = rpc.call(json!({"type": "prompt", "message": "keep me"}));
    assert_eq!(reply["success"], true, "{reply}");
    rpc.wait_for("streamed text", |v| {
        v["type"] == "message_update" && v.to_string().contains("slowly")
    });
    let started = Instant::now();
    let code = rpc.finish();
    assert_eq!(code, 0);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    let files = sandbox.session_files();
    assert_eq!(files.len(), 1);
    let saved = std::fs::read_to_string(&files[0]).unwrap();
    assert!(saved.contains("keep me"), "{saved}");
    assert!(
        saved.contains("\"text\":\"slowly"),
        "the partial answer is kept: {saved}"
    );
    assert!(saved.contains("\"stopReason\":\"aborted\""), "{saved}");
}
