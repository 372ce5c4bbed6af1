//! End to end in tmux: `/settings`, `/scoped-models`, `/changelog` and the
//! prompt history kept across runs. Skipped when tmux is not installed.

#[path = "support/pi_cli.rs"]
mod pi_cli;
mod support;
#[path = "support/tui_harness.rs"]
mod tui_harness;

use std::time::Duration;

use pi_cli::PiSandbox;
use serde_json::Value;
use support::{MockReply, MockServer};

use tui_harness::*;

const WAIT: Duration = Duration::from_secs(20);

fn settings_file(sandbox: &PiSandbox) -> Value {
    let text = std::fs::read_to_string(sandbox.agent_dir.join("settings.json")).unwrap_or_default();
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

#[test]
fn settings_panel_writes_settings_json_and_hides_the_header() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    let pi = Session::launch(&server, |_| {});
    pi.send("/settings");
    pi.tmux.wait_for("the settings list", WAIT, |s| {
        s.contains("Settings") && s.contains("Quiet startup") && s.contains("Auto-compact")
    });
    // Quiet startup is the sixth entry.
    for _ in 0..5 {
        pi.tmux.key("Down");
    }
    pi.tmux.wait_for("quiet startup highlighted", WAIT, |s| {
        s.contains("Disable verbose printing at startup")
    });
    pi.tmux.key("Enter");
    pi.tmux.key("Escape");
    pi.tmux
        .wait_for("the header gone", WAIT, |s| !s.contains("pi v"));
    let deadline = std::time::Instant::now() + WAIT;
    while settings_file(&pi.sandbox)["quietStartup"] != Value::Bool(true) {
        assert!(
            std::time::Instant::now() < deadline,
            "settings.json: {}",
            settings_file(&pi.sandbox)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    pi.quit_and_check_terminal();
}

#[test]
fn changelog_and_prompt_history_across_runs() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("first answer"));
    let pi = Session::launch(&server, |_| {});
    pi.send("/changelog");
    pi.tmux
        .wait_for("the changelog", WAIT, |s| s.contains("What's new"));
    pi.send("a prompt to remember");
    pi.tmux
        .wait_for("the answer", WAIT, |s| s.contains("first answer"));
    pi.quit_and_check_terminal();

    let Session { sandbox, tmux, .. } = pi;
    drop(tmux);
    let pi = Session::start(sandbox, "--model mock/mock-model");
    pi.tmux
        .wait_for("the new run", WAIT, |s| s.contains("mock-model"));
    pi.tmux.key("Up");
    pi.tmux.wait_for("the remembered prompt", WAIT, |s| {
        s.contains("a prompt to remember")
    });
    pi.tmux.key("C-c");
    pi.quit_and_check_terminal();
}
