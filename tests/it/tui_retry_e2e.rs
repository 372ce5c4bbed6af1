//! End to end in tmux: a provider that drops every connection. The retries show as one
//! line counting down in place, the run ends with one line naming the failed attempts
//! and the cause, and the raw error appears only when expanded. Skipped when tmux is
//! not installed.

use crate::support::pi_cli::PiSandbox;
use crate::support::tui_harness::{Session, tmux_available};

use std::io::Read;
use std::net::TcpListener;
use std::time::{Duration, Instant};

use serde_json::json;

/// A server on 127.0.0.1 that accepts connections and never answers.
fn silent_server() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming().flatten() {
            held.push(stream);
        }
    });
    port
}

fn sandbox_at(port: u16, settings: &str) -> PiSandbox {
    let sandbox = PiSandbox::new();
    sandbox.write_agent_file(
        "models.json",
        &json!({"providers": {"mock": {
            "baseUrl": format!("http://127.0.0.1:{port}/v1"), "api": "openai-completions",
            "apiKey": "test-key",
            "models": [{"id": "mock-model", "contextWindow": 100000, "maxTokens": 4096}]
        }}})
        .to_string(),
    );
    sandbox.write_agent_file("settings.json", settings);
    sandbox
}

fn start(sandbox: PiSandbox) -> Session {
    let pi = Session::start(sandbox, "--model mock/mock-model");
    pi.tmux
        .wait_for("the editor and footer", Duration::from_secs(20), |s| {
            s.contains("mock-model") && s.contains("pi v")
        });
    pi
}

/// A server on 127.0.0.1 that reads each request and closes the connection unanswered.
fn dropping_server() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let mut buf = [0u8; 65536];
            let _ = stream.read(&mut buf);
        }
    });
    port
}

fn retry_lines(screen: &str) -> Vec<&str> {
    screen
        .lines()
        .filter(|l| l.contains("Retrying ("))
        .collect()
}

#[test]
fn dropped_connections_show_one_retry_line_then_one_verdict() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let port = dropping_server();
    let pi = start(sandbox_at(port, r#"{"retry": {"baseDelayMs": 700}}"#));
    pi.send("hello");

    // Sample the screen while it retries (0.7 s, 1.4 s, 2.8 s of waiting).
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut seen = Vec::new();
    let mut working_says_retry = false;
    loop {
        let screen = pi.tmux.screen();
        working_says_retry |= screen.contains("Retrying in") && screen.contains("escape to stop");
        let lines = retry_lines(&screen);
        assert!(lines.len() <= 1, "more than one retry line:\n{screen}");
        seen.extend(lines.iter().map(|l| l.trim().to_string()));
        if screen.contains("attempts failed") {
            break;
        }
        assert!(Instant::now() < deadline, "no verdict:\n{screen}");
        std::thread::sleep(Duration::from_millis(100));
    }
    seen.dedup();
    assert!(
        working_says_retry,
        "the working line never showed the countdown"
    );
    eprintln!("retry lines seen: {seen:#?}");
    assert!(
        seen.iter().any(|l| l.contains("Retrying (1/3)")),
        "{seen:?}"
    );
    assert!(
        seen.iter().any(|l| l.contains("Retrying (3/3)")),
        "{seen:?}"
    );
    assert!(
        seen.iter().all(|l| l.ends_with("connection closed")),
        "the cause, short: {seen:?}"
    );

    let screen = pi
        .tmux
        .wait_for("the verdict alone", Duration::from_secs(5), |s| {
            !s.contains("Working") && !s.contains("Retrying")
        });
    let verdicts = screen
        .matches("4 attempts failed: connection closed.")
        .count();
    assert_eq!(verdicts, 1, "{screen}");
    assert!(screen.contains(&format!("127.0.0.1:{port}/v1")), "{screen}");
    assert!(
        !screen.contains("Network error"),
        "raw error shown:\n{screen}"
    );

    // The full error is behind the expand key.
    pi.tmux.key("C-o");
    let expanded = pi
        .tmux
        .wait_for("the raw error", Duration::from_secs(5), |s| {
            s.contains("Network error")
        });
    assert!(
        expanded.contains("connection closed before message completed"),
        "{expanded}"
    );
    pi.quit_and_check_terminal();
}

#[test]
fn the_working_line_names_the_wait_and_escape_ends_it() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let port = silent_server();
    let pi = start(sandbox_at(
        port,
        r#"{"retry": {"provider": {"firstByteTimeoutMs": 60000}}}"#,
    ));
    pi.send("hello");
    let host = format!("127.0.0.1:{port}");
    let screen = pi
        .tmux
        .wait_for("the wait named", Duration::from_secs(10), |s| {
            s.contains(&format!("Waiting for the first byte from {host}"))
        });
    assert!(screen.contains("(escape to stop)"), "{screen}");
    let stopped_at = Instant::now();
    pi.tmux.key("Escape");
    let screen = pi
        .tmux
        .wait_for("the run stopped", Duration::from_secs(5), |s| {
            !s.contains("Waiting for the first byte") && !s.contains("Working")
        });
    assert!(stopped_at.elapsed() < Duration::from_secs(5), "{screen}");
    assert!(screen.contains("Operation aborted"), "{screen}");
    assert!(!screen.contains("attempts failed"), "{screen}");
    pi.quit_and_check_terminal();
}
