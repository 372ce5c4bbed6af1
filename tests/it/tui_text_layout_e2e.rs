//! End to end in tmux: text is drawn as written. A prompt's second line keeps its
//! own row and indentation, and an answer quoting a command's output line by line
//! shows one row per line (single line breaks are not joined into a paragraph).

use crate::support::tui_harness::*;
use crate::support::{MockReply, MockServer};

use serde_json::json;
use std::time::Duration;

#[test]
fn prompts_and_answers_keep_their_line_breaks_and_indentation() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[(
        "call_1",
        "bash",
        json!({"command": "seq 1 3"}),
    )]));
    server.push(MockReply::openai_text(
        "The command printed:\n1\n2\n3\nand then:\n    an indented line",
    ));
    let pi = Session::launch(&server, |_| {});
    // A backslash before Enter makes a new line in the editor.
    pi.tmux.type_text("first-line\\");
    pi.tmux.key("Enter");
    pi.send("    second-line");
    let screen = pi
        .tmux
        .wait_for("the answer", Duration::from_secs(20), |s| {
            s.contains("an indented line")
        });
    let rows: Vec<&str> = screen.lines().map(str::trim_end).collect();
    let first = rows
        .iter()
        .position(|r| r.trim() == "first-line")
        .unwrap_or_else(|| panic!("the prompt's first line on a row of its own:\n{screen}"));
    assert!(
        rows[first + 1].ends_with("     second-line") && rows[first + 1].trim() == "second-line",
        "the second line keeps its four spaces on the next row:\n{screen}"
    );
    let said = rows
        .iter()
        .position(|r| r.trim() == "The command printed:")
        .unwrap_or_else(|| panic!("the answer's first line:\n{screen}"));
    assert_eq!(
        rows[said + 1..said + 4]
            .iter()
            .map(|r| r.trim())
            .collect::<Vec<_>>(),
        vec!["1", "2", "3"],
        "three rows for three lines:\n{screen}"
    );
    let indented = rows[said + 5];
    assert_eq!(indented.trim(), "an indented line", "{screen}");
    assert_eq!(
        indented.len() - indented.trim_start().len(),
        rows[said].len() - rows[said].trim_start().len() + 4,
        "indentation kept:\n{screen}"
    );
    // What the model received is the prompt as typed.
    let request = server.requests()[0].json().clone();
    assert!(
        request.to_string().contains("first-line\\n    second-line"),
        "{request}"
    );
    pi.quit_and_check_terminal();
}
