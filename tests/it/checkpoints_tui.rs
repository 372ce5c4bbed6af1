//! `/rewind` in the real terminal UI (tmux): the files that will change are listed, a
//! file the user changed since is shown as a conflict and kept unless the user chooses
//! to overwrite it.

use crate::support::tui_harness::*;
use crate::support::{MockReply, MockServer};

use std::fs;
use std::time::Duration;

use serde_json::json;

const WAIT: Duration = Duration::from_secs(20);

#[test]
fn rewind_lists_the_files_and_keeps_a_conflict_unless_told_to_overwrite() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_tool_calls(&[
        (
            "c1",
            "write",
            json!({"path": "a.txt", "content": "agent version\n"}),
        ),
        (
            "c2",
            "write",
            json!({"path": "b.txt", "content": "made by the agent\n"}),
        ),
    ]));
    server.push(MockReply::openai_text("Both files written."));
    let pi = Session::launch(&server, |s| {
        fs::write(s.project.join("a.txt"), "alpha x\n").unwrap();
    });
    let project = pi.sandbox.project.clone();
    pi.send("write the files");
    pi.tmux
        .wait_for("the answer", WAIT, |s| s.contains("Both files written."));
    assert_eq!(
        fs::read_to_string(project.join("a.txt")).unwrap(),
        "agent version\n"
    );
    // The user changes one of the agent's files afterwards.
    fs::write(project.join("a.txt"), "my own edit\n").unwrap();

    let rewind_code_only = || {
        pi.send("/rewind");
        pi.tmux.wait_for("the message list", WAIT, |s| {
            s.contains("Rewind to before which message?") && s.contains("write the files")
        });
        pi.tmux.key("Enter");
        let screen = pi.tmux.wait_for("the files and the choices", WAIT, |s| {
            s.contains("Files that will change:") && s.contains("Code only")
        });
        pi.tmux.key("Down");
        pi.tmux.key("Enter");
        screen
    };

    let screen = rewind_code_only();
    assert!(screen.contains("- b.txt (removed)"), "{screen}");
    assert!(screen.contains("! a.txt (changed since"), "{screen}");
    assert!(screen.contains("Conversation and code"), "{screen}");
    assert!(screen.contains("Conversation only"), "{screen}");
    let screen = pi.tmux.wait_for("the conflict question", WAIT, |s| {
        s.contains("Files changed after the agent, by someone else (1):")
    });
    assert!(screen.contains("Keep them as they are now"), "{screen}");
    assert!(screen.contains("Overwrite them too"), "{screen}");
    pi.tmux.key("Enter");
    pi.tmux.wait_for("the result", WAIT, |s| {
        s.contains("Files restored: 1; kept as you left them: 1.")
    });
    assert_eq!(
        fs::read_to_string(project.join("a.txt")).unwrap(),
        "my own edit\n"
    );
    assert!(!project.join("b.txt").exists());

    // Asked again, the user chooses to overwrite: the file before the turn comes back.
    rewind_code_only();
    pi.tmux.wait_for("the conflict question", WAIT, |s| {
        s.contains("Files changed after the agent, by someone else (1):")
    });
    pi.tmux.key("Down");
    pi.tmux.key("Enter");
    pi.tmux.wait_for("the second result", WAIT, |s| {
        s.contains("Files restored: 1; kept as you left them: 0.")
    });
    assert_eq!(
        fs::read_to_string(project.join("a.txt")).unwrap(),
        "alpha x\n"
    );
    // Code only: the conversation is still there.
    let screen = pi.tmux.screen();
    assert!(screen.contains("Both files written."), "{screen}");
    pi.quit_and_check_terminal();
}
