//! End to end in tmux: a model that repeats a failing tool call makes the terminal UI
//! ask whether to go on. "Stop" ends the run with the reason; "Continue" lets the
//! model go on (and the count starts again). A turn limit set with `--max-turns` asks
//! the same way.

use crate::support;
use crate::support::pi_cli;
use crate::support::tui_harness;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::json;
use support::{MockReply, MockServer};

use tui_harness::*;

/// Three replies calling `read` without its `path`, then a text answer.
fn repeating_then_answering(server: &MockServer) {
    let n = Arc::new(AtomicUsize::new(0));
    server.set_handler(move |_| {
        let i = n.fetch_add(1, Ordering::SeqCst);
        match i {
            0..3 => MockReply::openai_tool_calls(&[(&format!("call_{i}"), "read", json!({}))]),
            _ => MockReply::openai_text("I will ask which file you mean."),
        }
    });
}

fn ask(server: &MockServer) -> Session {
    let pi = Session::launch(server, |_| {});
    pi.send("read the file");
    let screen = pi
        .tmux
        .wait_for("the loop guard's question", Duration::from_secs(30), |s| {
            s.contains("repeats a failing call") && s.contains("→ Continue")
        });
    assert!(screen.contains("`read`"), "{screen}");
    assert!(screen.contains("Stop"), "{screen}");
    assert_eq!(
        server.request_count(),
        3,
        "the next request waits for the answer"
    );
    pi
}

#[test]
fn stop_ends_the_run_with_the_reason() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    repeating_then_answering(&server);
    let pi = ask(&server);
    pi.tmux.key("Down");
    pi.tmux
        .wait_for("Stop selected", Duration::from_secs(10), |s| {
            s.contains("→ Stop")
        });
    pi.tmux.key("Enter");
    let screen = pi
        .tmux
        .wait_for("the stop notice", Duration::from_secs(30), |s| {
            s.contains("Stopped: the model called `read`")
        });
    assert!(
        !screen.contains("→ Continue"),
        "the question closed: {screen}"
    );
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(server.request_count(), 3, "no request after Stop");
    assert!(!pi.tmux.screen().contains("I will ask which file"));
    pi.quit_and_check_terminal();
}

#[test]
fn continue_lets_the_model_go_on() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    repeating_then_answering(&server);
    let pi = ask(&server);
    pi.tmux.key("Enter");
    let screen = pi
        .tmux
        .wait_for("the model's answer", Duration::from_secs(30), |s| {
            s.contains("I will ask which file you mean.")
        });
    assert!(!screen.contains("Stopped:"), "{screen}");
    assert_eq!(server.request_count(), 4);
    pi.quit_and_check_terminal();
}

#[test]
fn a_turn_limit_set_for_the_terminal_ui_asks_and_continue_allows_as_many_again() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    let n = Arc::new(AtomicUsize::new(0));
    server.set_handler(move |_| {
        let i = n.fetch_add(1, Ordering::SeqCst);
        MockReply::openai_tool_calls(&[(&format!("call_{i}"), "ls", json!({}))])
    });
    let sandbox = pi_cli::PiSandbox::with_mock(&server, "openai-completions");
    let pi = Session::start(sandbox, "--model mock/mock-model --tools ls --max-turns 2");
    pi.tmux
        .wait_for("the editor and footer", Duration::from_secs(20), |s| {
            s.contains("mock-model") && s.contains("pi v")
        });
    pi.send("list the files, again and again");
    // Each question names its own limit: the screen before Enter still shows the first.
    let asked = |limit: &str| {
        pi.tmux.wait_for(limit, Duration::from_secs(30), |s| {
            s.contains(&format!("reached its limit of {limit}")) && s.contains("→ Continue")
        })
    };
    asked("2 turns");
    assert_eq!(server.request_count(), 2);
    pi.tmux.key("Enter");
    asked("4 turns");
    assert_eq!(server.request_count(), 4);
    pi.tmux.key("Escape");
    pi.tmux
        .wait_for("the stop notice", Duration::from_secs(30), |s| {
            s.contains("Stopped: the run reached its limit of 4 turns")
        });
    assert_eq!(server.request_count(), 4);
    pi.quit_and_check_terminal();
}
