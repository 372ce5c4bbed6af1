//! End to end: Lua UI examples in the real `pi` binary inside tmux, against
//! the mock LLM server. Skipped (with a message) when tmux is not installed.

use crate::support;
use crate::support::pi_cli;
use crate::support::tui_harness;

use std::time::Duration;

use pi_cli::PiSandbox;
use support::sse_builders::OpenAiSse;
use support::{MockReply, MockServer};

use tui_harness::*;

const LIMIT: Duration = Duration::from_secs(30);

fn launch_with(server: &MockServer, example: &str) -> Session {
    let sandbox = PiSandbox::with_mock(server, "openai-completions");
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("extensions/examples")
        .join(example);
    let args = format!(
        "--model mock/mock-model -e {}",
        quote(&path.to_string_lossy())
    );
    let pi = Session::start(sandbox, &args);
    pi.tmux
        .wait_for("pi to start", LIMIT, |s| s.contains("pi v"));
    pi
}

/// The row (from the top) of the first line containing `needle`.
fn row_of(screen: &str, needle: char) -> Option<usize> {
    screen.lines().position(|l| l.contains(needle))
}

#[test]
fn snake_overlay_opens_over_the_transcript_steers_and_closes_with_escape() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("The transcript stays here."));
    let pi = launch_with(&server, "snake.lua");
    pi.send("hello");
    pi.tmux.wait_for("the answer", LIMIT, |s| {
        s.contains("The transcript stays here.")
    });
    pi.send("/snake");
    let board = pi.tmux.wait_for("the snake board", LIMIT, |s| {
        s.contains("SNAKE") && s.contains('◆')
    });
    assert!(board.contains("The transcript stays here."), "{board}");
    let start_row = row_of(&board, '◆').unwrap();
    pi.tmux.key("Down");
    pi.tmux.wait_for("the snake to turn down", LIMIT, |s| {
        row_of(s, '◆').is_some_and(|r| r > start_row)
    });
    pi.tmux.key("Escape");
    let after = pi.tmux.wait_for("the overlay to close", LIMIT, |s| {
        !s.contains("SNAKE") && s.contains("Snake score")
    });
    assert!(after.contains("The transcript stays here."), "{after}");
    assert!(after.contains("hello"), "{after}");
    pi.quit_and_check_terminal();
}

#[test]
fn custom_footer_shows_tokens_while_the_answer_streams() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(
        MockReply::openai(
            OpenAiSse::new()
                .text("Streaming part one")
                .usage(321, 45, 0)
                .text(" and part two")
                .without_done(),
        )
        .hold_open(),
    );
    let pi = launch_with(&server, "custom-footer.lua");
    pi.send("/footer");
    pi.tmux
        .wait_for("the Lua footer", LIMIT, |s| s.contains("↑0 ↓0 $0.000"));
    pi.send("stream something");
    let screen = pi.tmux.wait_for("live token counts", LIMIT, |s| {
        s.contains("↑321 ↓45") && s.contains("Working")
    });
    assert!(screen.contains("mock-model"), "{screen}");
    pi.tmux.key("Escape");
    pi.tmux
        .wait_for("the abort", LIMIT, |s| !s.contains("Working"));
    pi.quit_and_check_terminal();
}
