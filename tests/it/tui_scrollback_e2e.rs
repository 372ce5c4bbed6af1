//! End to end in tmux: the interactive UI draws on the terminal's normal
//! screen, so the conversation lands in the pane's history and stays there
//! after pi exits; `alternateScreen` brings back the alternate screen.

use crate::support::tui_harness::*;
use crate::support::{MockReply, MockServer};

use std::time::Duration;

fn long_answer() -> String {
    (1..=80)
        .map(|i| format!("answer line number {i:03}"))
        .collect::<Vec<_>>()
        .join("\n\n")
}

#[test]
fn the_conversation_stays_in_the_terminal_history_during_and_after_the_run() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text(&long_answer()));
    let pi = Session::launch(&server, |_| {});
    assert_eq!(pi.tmux.format("#{alternate_on}"), "0", "normal screen");
    pi.send("tell me a long story");
    pi.tmux
        .wait_for("the end of the answer", Duration::from_secs(20), |s| {
            s.contains("answer line number 080") && !s.contains("Working")
        });
    assert_eq!(pi.tmux.format("#{alternate_on}"), "0");
    let history = pi.tmux.history();
    for line in [
        "pi v",
        "tell me a long story",
        "answer line number 001",
        "answer line number 040",
        "answer line number 080",
    ] {
        assert!(
            history.contains(line),
            "{line:?} missing from the history:\n{history}"
        );
    }
    assert_eq!(
        history.matches("answer line number 001").count(),
        1,
        "each line printed once:\n{history}"
    );
    let scrolled: usize = pi.tmux.format("#{history_size}").parse().unwrap();
    assert!(
        scrolled > 100,
        "the answer scrolled into the history ({scrolled} lines)"
    );

    pi.quit_and_check_terminal();
    let after = pi.tmux.history();
    assert!(after.contains("tell me a long story"), "{after}");
    assert!(after.contains("answer line number 001"), "{after}");
    assert!(after.contains("answer line number 080"), "{after}");
    assert_eq!(pi.tmux.format("#{alternate_on}"), "0");
}

#[test]
fn the_alternate_screen_setting_keeps_the_full_screen_mode() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("short reply"));
    let pi = Session::launch(&server, |sandbox| {
        sandbox.write_agent_file("settings.json", r#"{"alternateScreen": true}"#);
    });
    assert_eq!(pi.tmux.format("#{alternate_on}"), "1");
    pi.send("hello");
    pi.tmux
        .wait_for("the answer", Duration::from_secs(20), |s| {
            s.contains("short reply")
        });
    pi.quit_and_check_terminal();
    assert_eq!(pi.tmux.format("#{alternate_on}"), "0");
    assert!(
        !pi.tmux.history().contains("short reply"),
        "the screen was given back"
    );
}
