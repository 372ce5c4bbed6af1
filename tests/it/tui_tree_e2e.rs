//! End to end in tmux: `/compact` shows the summary and appends a
//! `compaction` entry; `/tree` opens, and choosing an earlier message puts it
//! back in the editor. Skipped (with a message) when tmux is not installed.

use crate::support;
use crate::support::tui_harness;

use std::time::Duration;

use support::{MockReply, MockServer};
use tui_harness::*;

#[test]
fn compact_then_tree_back_to_the_first_message() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("First answer."));
    server.push(MockReply::openai_text("Second answer."));
    server.push(MockReply::openai_text("## Goal\nTREE-E2E-SUMMARY"));
    let pi = Session::launch(&server, |_| {});
    pi.send("alpha question");
    pi.tmux
        .wait_for("first answer", Duration::from_secs(20), |s| {
            s.contains("First answer.")
        });
    pi.send("beta question");
    pi.tmux
        .wait_for("second answer", Duration::from_secs(20), |s| {
            // The turn is over too (the text shows while it still runs).
            s.contains("Second answer.") && !s.contains("Working...")
        });

    pi.send("/compact keep the greek letters");
    let screen = pi
        .tmux
        .wait_for("the compaction summary", Duration::from_secs(20), |s| {
            s.contains("Compacted from")
        });
    assert!(screen.contains("ctrl+o to expand"), "{screen}");
    let summary_request = server.last_request().unwrap();
    let prompt = summary_request.json()["messages"].to_string();
    assert!(
        prompt.contains("Additional focus: keep the greek letters"),
        "{prompt}"
    );
    let file = pi.sandbox.session_files().pop().expect("session saved");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.lines()
            .any(|l| l.starts_with("{\"type\":\"compaction\"") && l.contains("TREE-E2E-SUMMARY")),
        "{text}"
    );

    pi.send("/tree");
    let screen = pi.tmux.wait_for("the tree", Duration::from_secs(20), |s| {
        s.contains("Session Tree") && s.contains("← active")
    });
    assert!(screen.contains("user: alpha question"), "{screen}");
    pi.tmux.type_text("alpha");
    pi.tmux
        .wait_for("the search", Duration::from_secs(20), |s| {
            s.contains("Type to search: alpha") && !s.contains("user: beta question")
        });
    pi.tmux.key("Enter");
    pi.tmux
        .wait_for("the summary question", Duration::from_secs(20), |s| {
            s.contains("Summarize the branch you are leaving?")
        });
    pi.tmux.key("Enter");
    let screen = pi.tmux.wait_for(
        "the message back in the editor",
        Duration::from_secs(20),
        |s| {
            !s.contains("Session Tree")
                && s.contains("alpha question")
                && !s.contains("Second answer.")
        },
    );
    assert!(!screen.contains("First answer."), "{screen}");
    assert!(
        screen.contains("Navigated to selected point"),
        "the move is told: {screen}"
    );
    assert!(
        !pi.tmux.history().contains("New session started"),
        "navigating stays in the same session"
    );
    assert!(
        screen.contains('↑'),
        "the footer keeps the token counts: {screen}"
    );
    assert_eq!(
        server.request_count(),
        3,
        "navigation without summary calls no model"
    );
    pi.tmux.key("C-c");
    pi.tmux
        .wait_for("an empty editor", Duration::from_secs(20), |s| {
            !s.contains("alpha question")
        });
    pi.quit_and_check_terminal();
}

#[test]
fn tool_results_show_their_calls_and_fork_numbers_the_messages() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[(
        "call_1",
        "bash",
        serde_json::json!({"command": "echo tree-row\necho second"}),
    )]));
    server.push(MockReply::openai_text("Ran it."));
    server.push(MockReply::openai_text("Second answer."));
    let pi = Session::launch(&server, |_| {});
    pi.send("run the tool");
    pi.tmux
        .wait_for("the answer", Duration::from_secs(20), |s| {
            s.contains("Ran it.") && !s.contains("Working...")
        });
    pi.send("and again");
    pi.tmux
        .wait_for("the second answer", Duration::from_secs(20), |s| {
            s.contains("Second answer.") && !s.contains("Working...")
        });

    pi.send("/tree");
    let screen = pi.tmux.wait_for("the tree", Duration::from_secs(20), |s| {
        s.contains("Session Tree") && s.contains("← active")
    });
    assert!(
        screen.contains("• [bash: echo tree-row echo second]"),
        "{screen}"
    );
    assert!(screen.contains("• assistant: Ran it."), "{screen}");
    assert!(
        screen.contains("› • assistant: Second answer. ← active"),
        "the cursor starts where the conversation is: {screen}"
    );
    pi.tmux.key("Escape");
    pi.tmux
        .wait_for("the tree closed", Duration::from_secs(20), |s| {
            !s.contains("Session Tree")
        });

    pi.send("/fork");
    let screen = pi
        .tmux
        .wait_for("the fork list", Duration::from_secs(20), |s| {
            s.contains("Message 2 of 2")
        });
    let first = screen.rfind("run the tool").unwrap();
    let second = screen.rfind("and again").unwrap();
    let one = screen.find("Message 1 of 2").unwrap();
    let two = screen.find("Message 2 of 2").unwrap();
    assert!(first < one && one < second && second < two, "{screen}");
    assert!(screen.contains("Fork from Message"), "{screen}");
    assert!(
        screen.contains("› and again"),
        "the newest is selected: {screen}"
    );
    pi.tmux.key("Escape");
    pi.tmux
        .wait_for("the fork list closed", Duration::from_secs(20), |s| {
            !s.contains("Message 2 of 2")
        });
    pi.quit_and_check_terminal();
}
