//! End to end in tmux: `/sandbox` switches the sandbox of a running terminal UI, the
//! footer names the mode, and the user's `!` commands run confined by it.

use crate::support;
use crate::support::tui_harness;

use std::time::Duration;

use support::MockServer;
use tui_harness::*;

#[test]
fn slash_sandbox_switches_the_mode_live_and_confines_bang_commands() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    let pi = Session::launch(&server, |_| {});
    let screen = pi.tmux.screen();
    assert!(
        !screen.contains("sandbox:"),
        "full mode is not shown:\n{screen}"
    );
    let marker = format!("/etc/pi-tui-sandbox-{}", rand_suffix());

    pi.send("/sandbox jail");
    pi.tmux.wait_for("the usage", Duration::from_secs(10), |s| {
        s.contains("Usage: /sandbox [read-only | workspace-write | full]")
    });
    pi.send("/sandbox workspace-write");
    let screen = pi
        .tmux
        .wait_for("the footer naming the mode", Duration::from_secs(10), |s| {
            s.contains("• sandbox: workspace-write") && s.contains("network: off")
        });
    assert!(
        screen.contains("Sandbox: workspace-write · writable: "),
        "{screen}"
    );

    pi.send(&format!("!touch {marker}"));
    pi.tmux.wait_for(
        "the offer to run it outside",
        Duration::from_secs(10),
        |s| s.contains("Permission denied") && s.contains("Yes, once"),
    );
    pi.tmux.key("Escape");
    pi.tmux
        .wait_for("the refusal with its hint", Duration::from_secs(10), |s| {
            s.contains("--sandbox full") && !s.contains("Yes, once")
        });
    assert!(!std::path::Path::new(&marker).exists());
    pi.send("!touch made-here && echo made-it");
    // Once in the command line as typed, once more in its output.
    pi.tmux
        .wait_for("the allowed command", Duration::from_secs(10), |s| {
            s.matches("made-it").count() >= 2
        });
    assert!(pi.sandbox.project.join("made-here").exists());

    pi.send("/sandbox full");
    pi.tmux
        .wait_for("the footer without a mode", Duration::from_secs(10), |s| {
            s.contains("Sandbox: full") && !s.contains("• sandbox:")
        });
    pi.quit_and_check_terminal();
}

#[test]
fn a_refused_command_is_offered_a_run_outside_the_sandbox_in_a_dialog() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("made-outside");
    let touch = format!("touch {}", target.display());
    server.push(support::MockReply::openai_tool_calls(&[(
        "c1",
        "bash",
        serde_json::json!({"command": touch}),
    )]));
    server.push(support::MockReply::openai_text("Done outside."));
    let sandbox = crate::support::pi_cli::PiSandbox::with_mock(&server, "openai-completions");
    let pi = Session::start(sandbox, "--model mock/mock-model --sandbox workspace-write");
    pi.tmux
        .wait_for("the footer", Duration::from_secs(20), |s| {
            s.contains("sandbox: workspace-write")
        });
    pi.send("make the file");
    let screen = pi
        .tmux
        .wait_for("the question", Duration::from_secs(20), |s| {
            s.contains("Run it outside the sandbox?") && s.contains("Yes, always for this command")
        });
    assert!(screen.contains("refused this command"), "{screen}");
    assert!(!target.exists(), "nothing ran outside before the answer");
    pi.tmux.key("Enter");
    pi.tmux
        .wait_for("the answer", Duration::from_secs(20), |s| {
            s.contains("Done outside.")
        });
    assert!(target.exists());
    pi.quit_and_check_terminal();
}
