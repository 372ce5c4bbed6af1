//! End to end in tmux: `showHardwareCursor` shows the terminal's own cursor
//! at the editor's caret (it is always placed there, hidden by default), and
//! `terminal.clearOnShrink` redraws the screen when the UI's rows shrink
//! instead of leaving empty rows below it.

use crate::support::tui_harness::*;
use crate::support::{MockReply, MockServer};

use std::time::Duration;

fn launch(settings: &str, env: &[(&str, &str)]) -> (MockServer, Session) {
    let server = MockServer::start();
    let settings = settings.to_string();
    let env: Vec<(String, String)> = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let pi = Session::launch(&server, move |sandbox| {
        sandbox.write_agent_file("settings.json", &settings);
        sandbox.env.extend(env);
    });
    (server, pi)
}

/// The caret's cell: the pane's cursor must sit right after `typed`.
fn caret_after(pi: &Session, typed: &str) {
    let screen = pi.tmux.screen();
    let row = screen
        .lines()
        .position(|l| l.starts_with(typed))
        .expect("the editor row");
    let position = pi.tmux.format("#{cursor_x},#{cursor_y}");
    assert_eq!(
        position,
        format!("{},{row}", typed.chars().count()),
        "{screen}"
    );
}

#[test]
fn the_hardware_cursor_is_at_the_caret_and_shown_only_when_asked_for() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    for (settings, env, shown) in [
        ("{}", &[][..], "0"),
        (r#"{"showHardwareCursor": true}"#, &[][..], "1"),
        ("{}", &[("PI_HARDWARE_CURSOR", "1")][..], "1"),
        (
            r#"{"showHardwareCursor": false}"#,
            &[("PI_HARDWARE_CURSOR", "1")][..],
            "0",
        ),
        (r#"{"alternateScreen": true}"#, &[][..], "0"),
        (
            r#"{"alternateScreen": true, "showHardwareCursor": true}"#,
            &[][..],
            "1",
        ),
    ] {
        let (_server, pi) = launch(settings, env);
        pi.tmux.type_text("hello");
        pi.tmux
            .wait_for("the typed text", Duration::from_secs(10), |s| {
                s.lines().any(|l| l.starts_with("hello"))
            });
        std::thread::sleep(Duration::from_millis(200));
        caret_after(&pi, "hello");
        assert_eq!(
            pi.tmux.format("#{cursor_flag}"),
            shown,
            "cursor visibility with {settings} {env:?}"
        );
        pi.tmux.key("C-c");
        pi.tmux
            .wait_for("an empty editor", Duration::from_secs(10), |s| {
                !s.contains("hello")
            });
        pi.quit_and_check_terminal();
    }
}

/// The row of the footer's model name, and the screen's height.
fn footer_row(pi: &Session) -> (usize, usize) {
    let screen = pi.tmux.screen();
    let lines: Vec<&str> = screen.lines().collect();
    let row = lines
        .iter()
        .rposition(|l| l.contains("mock-model"))
        .expect("the footer");
    (row, pi.tmux.format("#{pane_height}").parse().unwrap())
}

#[test]
fn clear_on_shrink_redraws_instead_of_leaving_empty_rows() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let answer: String = (1..=60)
        .map(|i| format!("line {i:02}"))
        .collect::<Vec<_>>()
        .join("\n\n");
    for (settings, bottom) in [
        ("{}", false),
        (r#"{"terminal": {"clearOnShrink": true}}"#, true),
    ] {
        let (server, pi) = launch(settings, &[]);
        server.push(MockReply::openai_text(&answer));
        pi.send("fill the screen");
        pi.tmux
            .wait_for("the answer", Duration::from_secs(20), |s| {
                s.contains("line 60") && !s.contains("Working")
            });
        // The `/` list opens below the editor and pushes the footer to the bottom row
        // (the end of the run may itself have shrunk the UI, so the start is set here).
        pi.tmux.type_text("/");
        pi.tmux
            .wait_for("the command list", Duration::from_secs(10), |s| {
                s.contains("/model") && s.lines().last().is_some_and(|l| l.contains("mock-model"))
            });
        let (row, height) = footer_row(&pi);
        assert_eq!(row + 1, height, "the footer starts at the bottom");
        // Then it closes: the UI shrinks.
        pi.tmux.key("BSpace");
        pi.tmux
            .wait_for("the list to close", Duration::from_secs(10), |s| {
                !s.contains("/model")
            });
        std::thread::sleep(Duration::from_millis(200));
        let (row, height) = footer_row(&pi);
        let screen = pi.tmux.screen();
        if bottom {
            assert_eq!(row + 1, height, "redrawn to the bottom:\n{screen}");
            assert!(screen.contains("line 60"), "{screen}");
        } else {
            assert!(row + 1 < height, "empty rows left below:\n{screen}");
        }
        pi.quit_and_check_terminal();
    }
}
