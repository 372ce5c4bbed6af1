//! End to end in tmux: the bad input of the terminal UI. Hostile bytes in
//! tool and model output, a missing `$EDITOR`, unknown keybinding ids and a
//! terminal too narrow to draw in. Skipped when tmux is not installed.

use crate::support;
use crate::support::tui_harness;

use std::time::Duration;

use serde_json::json;
use support::{MockReply, MockServer};

use tui_harness::*;

const WAIT: Duration = Duration::from_secs(20);

#[test]
fn invalid_utf8_and_escape_sequences_in_output_are_neutralised() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[(
        "call_1",
        "bash",
        json!({"command": "printf 'bad-\\377\\376-bytes\\n'; printf '\\033]0;TOOLTITLE\\007\\033[2J\\033[31mafter-escape\\n'"}),
    )]));
    server.push(MockReply::openai_text(
        "model \u{1b}]0;MODELTITLE\u{7}says \u{1b}[2J\u{1b}[Hfinished",
    ));
    let pi = Session::launch(&server, |_| {});
    let title_before = pi.tmux.tmux(&["display", "-p", "#{pane_title}"]);
    pi.send("run it");
    let screen = pi.tmux.wait_for("the answer", WAIT, |s| {
        s.contains("finished") && !s.contains("Working")
    });
    // Bytes that are not UTF-8 are shown as escapes; escape sequences are removed.
    assert!(screen.contains(r"bad-\xff\xfe-bytes"), "{screen}");
    assert!(!screen.contains(r"\x1b"), "{screen}");
    assert!(screen.contains("after-escape"), "{screen}");
    assert!(screen.contains("model says finished"), "{screen}");
    assert!(
        screen.contains("run it"),
        "the screen was not cleared: {screen}"
    );
    let title = pi.tmux.tmux(&["display", "-p", "#{pane_title}"]);
    assert_eq!(title, title_before, "output changed the terminal title");
    assert!(!title.contains("TITLE"), "{title}");
    pi.quit_and_check_terminal();
}

#[test]
fn wrong_typed_settings_are_named_in_the_transcript() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    let pi = Session::launch(&server, |sandbox| {
        sandbox.write_agent_file(
            "settings.json",
            r#"{"theme": 42, "defaultThinkingLevel": ["x"]}"#,
        );
    });
    let screen = pi.tmux.wait_for("the warnings", WAIT, |s| {
        s.contains("\"theme\" should be a string")
            && s.contains("\"defaultThinkingLevel\" should be")
    });
    assert!(screen.contains("settings.json"), "{screen}");
    pi.quit_and_check_terminal();
}

#[test]
fn missing_editor_is_reported_and_the_message_kept() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    let pi = Session::launch(&server, |sandbox| {
        sandbox.env.push(("VISUAL".into(), String::new()));
        sandbox.env.push(("EDITOR".into(), String::new()));
    });
    pi.tmux.type_text("draft message");
    pi.tmux.key("C-g");
    let screen = pi.tmux.wait_for("the notice", WAIT, |s| {
        s.contains("No external editor: set $VISUAL or $EDITOR.")
    });
    assert!(screen.contains("draft message"), "{screen}");
    pi.tmux.key("C-c");
    pi.quit_and_check_terminal();
}

#[test]
fn unknown_keybinding_ids_are_warned_and_the_rest_applies() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    let pi = Session::launch(&server, |sandbox| {
        sandbox.write_agent_file(
            "keybindings.json",
            r#"{"app.no.such.action": "ctrl+q", "app.exit": "ctrl+q"}"#,
        );
    });
    pi.tmux
        .wait_for("the warning", WAIT, |s| s.contains("app.no.such.action"));
    // The valid override applies: ctrl+q quits.
    pi.tmux.key("C-q");
    let after = wait_for_file(&pi.after, WAIT);
    assert_eq!(std::fs::read_to_string(&pi.before).unwrap(), after);
}

#[test]
fn a_narrow_terminal_shows_a_notice_and_recovers() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    let pi = Session::launch(&server, |_| {});
    pi.tmux.tmux(&["resize-window", "-x", "15", "-y", "10"]);
    let screen = pi
        .tmux
        .wait_for("the notice", WAIT, |s| s.starts_with("Terminal too"));
    for line in screen.lines() {
        assert!(line.chars().count() <= 15, "{screen}");
    }
    pi.tmux.tmux(&["resize-window", "-x", "100", "-y", "30"]);
    pi.tmux.wait_for("the full screen again", WAIT, |s| {
        s.contains("mock-model") && !s.contains("Terminal too")
    });
    pi.quit_and_check_terminal();
}
