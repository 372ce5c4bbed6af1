//! Providers that cannot be reached or never answer: `pi -p` reports them within a
//! bound, with the cause and the number of failed attempts, and rate limits keep their
//! backoff.

use super::*;
use serde_json::json;
use std::net::TcpListener;

/// A sandbox whose `mock/mock-model` is served at `base_url`.
fn sandbox_at(base_url: &str, settings: Option<&str>) -> PiSandbox {
    let sandbox = PiSandbox::new();
    sandbox.write_agent_file(
        "models.json",
        &json!({"providers": {"mock": {
            "baseUrl": base_url, "api": "openai-completions", "apiKey": "test-key",
            "models": [{"id": "mock-model", "contextWindow": 100000, "maxTokens": 4096}]
        }}})
        .to_string(),
    );
    if let Some(settings) = settings {
        sandbox.write_agent_file("settings.json", settings);
    }
    sandbox
}

/// A port on 127.0.0.1 where nothing listens any more.
fn refused_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// A server that accepts every connection and never sends a byte back; returns its
/// port and the number of connections accepted so far.
fn silent_server() -> (u16, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let accepted = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = accepted.clone();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming().flatten() {
            count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            held.push(stream);
        }
    });
    (port, accepted)
}

fn run(sandbox: &PiSandbox) -> (std::process::Output, Duration) {
    let started = Instant::now();
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "hello"], None);
    (out, started.elapsed())
}

#[test]
fn a_refused_connection_is_reported_within_two_seconds_with_its_cause() {
    let url = format!("http://127.0.0.1:{}/v1", refused_port());
    // Default settings: no backoff worth waiting for, one quick retry.
    let (out, elapsed) = run(&sandbox_at(&url, None));
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("refused: reported after {:.2} s", elapsed.as_secs_f64());
    assert!(!out.status.success());
    assert!(elapsed < Duration::from_secs(2), "{elapsed:?}: {stderr}");
    assert!(
        stderr.contains("2 attempts failed: connection refused"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&url),
        "names the base URL to check: {stderr}"
    );
    assert_eq!(stderr.trim().lines().count(), 1, "one short line: {stderr}");

    // The same sandbox reaches a provider that listens.
    let server = MockServer::start();
    server.push(MockReply::openai_text("reached"));
    let (out, _) = run(&sandbox_at(&server.openai_base_url(), None));
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "reached\n");
}

#[test]
fn a_provider_that_never_sends_headers_fails_within_the_total_bound() {
    let (port, accepted) = silent_server();
    let settings = r#"{"retry": {"baseDelayMs": 10, "totalTimeoutMs": 1500,
                                 "provider": {"firstByteTimeoutMs": 600}}}"#;
    let sandbox = sandbox_at(&format!("http://127.0.0.1:{port}/v1"), Some(settings));
    let (out, elapsed) = run(&sandbox);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!(
        "never answers: reported after {:.2} s, {} connections",
        elapsed.as_secs_f64(),
        accepted.load(std::sync::atomic::Ordering::SeqCst)
    );
    assert!(!out.status.success());
    assert!(
        elapsed >= Duration::from_millis(1400),
        "{elapsed:?}: {stderr}"
    );
    // The bound counts from the request; the rest is start-up on a busy machine.
    assert!(
        elapsed < Duration::from_millis(6000),
        "{elapsed:?}: {stderr}"
    );
    assert!(stderr.contains("attempts failed: timed out"), "{stderr}");
    assert!(stderr.contains("no response from mock within"), "{stderr}");
    assert!(stderr.contains("retry.totalTimeoutMs"), "{stderr}");
    // 0.6 s, 0.6 s, then what is left of the 1.5 s: a fourth attempt would end past it
    // (on a busy machine the third may find too little left to start).
    let attempts: usize = stderr
        .split(" attempts failed")
        .next()
        .and_then(|before| before.rsplit(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("an attempt count: {stderr}"));
    assert!((2..=3).contains(&attempts), "{stderr}");
    assert_eq!(
        accepted.load(std::sync::atomic::Ordering::SeqCst),
        attempts,
        "every attempt counted is a connection made"
    );
}

#[test]
fn without_a_total_bound_each_attempt_waits_for_its_first_byte() {
    let (port, accepted) = silent_server();
    let settings = r#"{"retry": {"maxRetries": 1, "baseDelayMs": 10, "totalTimeoutMs": 0,
                                 "provider": {"firstByteTimeoutMs": 500}}}"#;
    let sandbox = sandbox_at(&format!("http://127.0.0.1:{port}/v1"), Some(settings));
    let (out, elapsed) = run(&sandbox);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(elapsed >= Duration::from_millis(1000), "{elapsed:?}");
    assert!(
        stderr.contains("2 attempts failed: timed out: no response from mock within 0.5 s"),
        "{stderr}"
    );
    assert!(
        stderr.contains("retry.provider.firstByteTimeoutMs"),
        "{stderr}"
    );
    assert_eq!(accepted.load(std::sync::atomic::Ordering::SeqCst), 2);
}

#[test]
fn a_429_without_retry_after_backs_off_then_succeeds() {
    let server = MockServer::start();
    server.push(MockReply::openai_error(429, "slow down"));
    server.push(MockReply::openai_error(429, "slow down"));
    server.push(MockReply::openai_text("third time"));
    let sandbox = sandbox_at(
        &server.openai_base_url(),
        Some(r#"{"retry": {"baseDelayMs": 300}}"#),
    );
    let (out, elapsed) = run(&sandbox);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "third time\n");
    assert_eq!(server.request_count(), 3);
    // 300 ms, then 600 ms: the backoff doubles.
    assert!(elapsed >= Duration::from_millis(900), "{elapsed:?}");
}
