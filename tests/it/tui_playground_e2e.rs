//! End to end: playground interface extensions in the real `pi` binary inside
//! tmux, against the mock LLM server. Skipped (with a message) when tmux is
//! not installed.

use crate::support;
use crate::support::pi_cli;
use crate::support::tui_harness;

use std::time::Duration;

use pi_cli::PiSandbox;
use support::{MockReply, MockServer};

use tui_harness::*;

const LIMIT: Duration = Duration::from_secs(30);

fn launch(server: &MockServer, extensions: &[&str]) -> Session {
    let sandbox = PiSandbox::with_mock(server, "openai-completions");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("extensions/playground");
    let mut args = String::from("--model mock/mock-model");
    for name in extensions {
        args.push_str(&format!(" -e {}", quote(&dir.join(name).to_string_lossy())));
    }
    let pi = Session::start(sandbox, &args);
    pi.tmux
        .wait_for("pi to start", LIMIT, |s| s.contains("pi v"));
    pi
}

#[test]
fn purpose_gate_asks_first_and_the_model_is_told_the_purpose() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("On it."));
    let pi = launch(&server, &["purpose-gate.lua"]);
    pi.tmux.wait_for("the purpose widget", LIMIT, |s| {
        s.contains("PURPOSE  not set")
    });
    pi.send("hello");
    pi.tmux.wait_for("the purpose question", LIMIT, |s| {
        s.contains("What is this session for?")
    });
    pi.send("ship the fix");
    let screen = pi
        .tmux
        .wait_for("the answer", LIMIT, |s| s.contains("On it."));
    assert!(screen.contains("PURPOSE  ship the fix"), "{screen}");
    let body = server.requests()[0].json().to_string();
    assert!(body.contains("## Session purpose\\nship the fix"), "{body}");
    assert!(body.contains("hello"), "the held message went on: {body}");
    pi.quit_and_check_terminal();
}

#[test]
fn minimal_footer_and_theme_cycler_stack_in_the_real_ui() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    let pi = launch(&server, &["minimal.lua", "theme-cycler.lua"]);
    pi.tmux.wait_for("the one-line footer", LIMIT, |s| {
        s.contains("mock-model") && s.contains("[----------] 0%")
    });
    pi.tmux.key("C-x");
    pi.tmux
        .wait_for("the swatch of the next theme", LIMIT, |s| {
            s.contains("███ ███") && s.contains("catppuccin-mocha")
        });
    pi.tmux
        .wait_for("the swatch to go", LIMIT, |s| !s.contains("███ ███"));
    pi.quit_and_check_terminal();
}
