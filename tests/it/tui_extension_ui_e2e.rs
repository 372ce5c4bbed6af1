//! End to end in tmux: extension dialogs and chrome in the real terminal UI.
//! The permission-gate example asks before `rm -rf`; "No" blocks the tool and
//! the model sees the reason. The status-line example fills a footer slot.

use crate::support;
use crate::support::pi_cli;
use crate::support::tui_harness;

use std::path::PathBuf;
use std::time::Duration;

use pi_cli::PiSandbox;
use serde_json::json;
use support::{MockReply, MockServer};

use tui_harness::*;

fn example(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("extensions/examples")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn permission_gate_asks_before_rm_rf_and_no_blocks_it_with_a_reason_the_model_sees() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[(
        "call_rm",
        "bash",
        json!({"command": "rm -rf ./important"}),
    )]));
    server.push(MockReply::openai_text("Understood, I left it alone."));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    std::fs::create_dir_all(sandbox.project.join("important")).unwrap();
    let args = format!(
        "--model mock/mock-model -e {} -e {}",
        quote(&example("permission-gate.lua")),
        quote(&example("status-line.lua"))
    );
    let pi = Session::start(sandbox, &args);
    pi.tmux
        .wait_for("the editor and status slot", Duration::from_secs(30), |s| {
            s.contains("mock-model") && s.contains("ready")
        });
    pi.send("clean up please");
    let screen = pi
        .tmux
        .wait_for("the confirm dialog", Duration::from_secs(30), |s| {
            s.contains("Dangerous command: rm -rf") && s.contains("→ Yes")
        });
    assert!(screen.contains("rm -rf ./important"), "{screen}");
    assert!(screen.contains("Allow it?"), "{screen}");
    assert_eq!(server.request_count(), 1, "the tool waits for the answer");
    pi.tmux.key("Down");
    pi.tmux
        .wait_for("No selected", Duration::from_secs(10), |s| {
            s.contains("→ No")
        });
    pi.tmux.key("Enter");
    let screen = pi
        .tmux
        .wait_for("the final answer", Duration::from_secs(30), |s| {
            s.contains("Understood, I left it alone.") && s.contains("done")
        });
    assert!(
        !screen.contains("Dangerous command"),
        "the dialog closed: {screen}"
    );
    assert!(screen.contains("Blocked: rm -rf ./important"), "{screen}");
    assert!(screen.contains("turn 2 done"), "status slot: {screen}");
    assert!(
        pi.sandbox.project.join("important").exists(),
        "rm -rf did not run"
    );
    assert_eq!(server.request_count(), 2);
    let second = String::from_utf8_lossy(&server.requests()[1].body).into_owned();
    assert!(
        second.contains("Blocked by user: the user declined to run `rm -rf ./important`"),
        "{second}"
    );
    pi.quit_and_check_terminal();
}
