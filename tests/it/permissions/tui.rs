//! The terminal UI asks about a command of the danger floor: "Yes, once" runs it, "No"
//! refuses it with the rule named.

use std::time::Duration;

use super::*;
use crate::support::tui_harness::{Session, tmux_available};

/// The floor's question for `rm -rf` outside the workspace; the user opted in to the
/// policy with `--yolo` (prompts off, except the floor's) or with a rule.
fn floor_question(answer_down: usize, yolo: bool) -> (Session, MockServer, tempfile::TempDir) {
    let server = MockServer::start();
    let outside = tempfile::tempdir().unwrap();
    let victim = outside.path().join("old");
    std::fs::create_dir_all(&victim).unwrap();
    server.push(MockReply::openai_tool_calls(&[(
        "c_rm",
        "bash",
        json!({"command": format!("rm -rf {}", victim.display())}),
    )]));
    server.push(MockReply::openai_text("Finished cleaning."));
    let mut sandbox = crate::support::pi_cli::PiSandbox::with_mock(&server, "openai-completions");
    let home = sandbox.root.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    sandbox
        .env
        .push(("HOME".into(), home.display().to_string()));
    let mut args = "--model mock/mock-model".to_string();
    if yolo {
        args.push_str(" --yolo");
    } else {
        sandbox.write_agent_file(
            "settings.json",
            &json!({"permissions": [{"tool": "read", "pattern": "*", "action": "allow"}]})
                .to_string(),
        );
    }
    let pi = Session::start(sandbox, &args);
    pi.tmux
        .wait_for("the editor and footer", Duration::from_secs(20), |s| {
            s.contains("mock-model") && s.contains("pi v")
        });
    pi.send("clean up");
    let wait = Duration::from_secs(30);
    let screen = pi.tmux.wait_for("the question", wait, |s| {
        s.contains("floor:rm-outside-workspace") && s.contains("→ Yes, once")
    });
    assert!(screen.contains("No"), "{screen}");
    assert_eq!(server.request_count(), 1, "the call waits for the answer");
    assert!(victim.exists());
    for _ in 0..answer_down {
        pi.tmux.key("Down");
    }
    pi.tmux.key("Enter");
    (pi, server, outside)
}

#[test]
fn the_floor_asks_in_the_terminal_ui_even_with_yolo_and_yes_once_runs_the_command() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let (pi, _server, outside) = floor_question(0, true);
    pi.tmux
        .wait_for("the answer", Duration::from_secs(30), |s| {
            s.contains("Finished cleaning.")
        });
    assert!(!outside.path().join("old").exists(), "the command ran");
    pi.quit_and_check_terminal();
}

#[test]
fn no_refuses_the_floor_command_and_names_the_rule() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let (pi, _server, outside) = floor_question(2, false);
    let screen = pi
        .tmux
        .wait_for("the refusal", Duration::from_secs(30), |s| {
            s.contains("The user refused this call")
        });
    assert!(screen.contains("floor:rm-outside-workspace"), "{screen}");
    assert!(outside.path().join("old").exists(), "nothing was removed");
    pi.quit_and_check_terminal();
}

#[test]
fn always_is_listed_by_slash_permissions_and_can_be_removed_again() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[(
        "c_touch",
        "bash",
        json!({"command": "touch made.txt"}),
    )]));
    server.push(MockReply::openai_text("Touched it."));
    let pi = Session::launch(&server, |sandbox| {
        sandbox.write_agent_file(
            "settings.json",
            &json!({"permissions": [{"tool": "bash", "pattern": "touch *", "action": "ask"}]})
                .to_string(),
        );
    });
    let wait = Duration::from_secs(30);
    pi.send("touch it");
    pi.tmux.wait_for("the question", wait, |s| {
        s.contains("bash \"touch *\" → ask (user)") && s.contains("→ Yes, once")
    });
    pi.tmux.key("Down");
    pi.tmux
        .wait_for("always selected", wait, |s| s.contains("→ Yes, always"));
    pi.tmux.key("Enter");
    pi.tmux
        .wait_for("the answer", wait, |s| s.contains("Touched it."));
    assert!(pi.sandbox.project.join("made.txt").exists());
    pi.send("/permissions");
    let screen = pi
        .tmux
        .wait_for("the list", wait, |s| s.contains("(/permissions remove 1)"));
    assert!(
        screen.contains("bash \"touch *\" → ask   from user settings"),
        "{screen}"
    );
    assert!(
        screen.contains("bash \"touch made.txt\" → allow"),
        "{screen}"
    );
    pi.send("/permissions remove 1");
    pi.tmux.wait_for("the removal", wait, |s| {
        s.contains("Removed the session rule bash \"touch made.txt\" → allow (session)")
    });
    pi.send("/permissions remove 1");
    pi.tmux.wait_for("nothing left", wait, |s| {
        s.contains("There is no session rule 1")
    });
    pi.quit_and_check_terminal();
}
