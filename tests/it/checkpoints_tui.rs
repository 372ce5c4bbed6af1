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
        s.contains("Files restored: 1.")
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

/// A session whose one prompt changed `a.txt` and made `b.txt`, ready for `/fork`.
fn session_after_a_writing_turn() -> (MockServer, Session) {
    session_after_a_writing_turn_with(|_| {})
}

/// [`session_after_a_writing_turn`], with more set up in the sandbox first.
fn session_after_a_writing_turn_with(
    prepare: impl FnOnce(&mut crate::support::pi_cli::PiSandbox),
) -> (MockServer, Session) {
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
        prepare(s);
    });
    pi.send("write the files");
    pi.tmux
        .wait_for("the answer", WAIT, |s| s.contains("Both files written."));
    (server, pi)
}

/// `/fork`, pick the only message, wait for the question about the files.
fn fork_and_see_the_files(pi: &Session) -> String {
    pi.send("/fork");
    pi.tmux
        .wait_for("the fork list, the message marked", WAIT, |s| {
            s.contains("Fork from Message") && s.contains("write the files [files: 2]")
        });
    pi.tmux.key("Enter");
    pi.tmux.wait_for("the files question", WAIT, |s| {
        s.contains("bring the files back too?") && s.contains("Conversation only")
    })
}

/// Clear the editor (the fork put the message back in it) and quit.
fn clear_and_quit(pi: &Session) {
    pi.tmux.key("C-c");
    pi.tmux
        .wait_for("an empty editor", WAIT, |s| !s.contains("write the files"));
    pi.quit_and_check_terminal();
}

#[test]
fn fork_offers_the_files_cancel_changes_nothing_and_code_brings_them_back() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let (_server, pi) = session_after_a_writing_turn();
    let project = pi.sandbox.project.clone();

    let screen = fork_and_see_the_files(&pi);
    assert!(screen.contains("Files that will change:"), "{screen}");
    assert!(screen.contains("~ a.txt (restored)"), "{screen}");
    assert!(screen.contains("- b.txt (removed)"), "{screen}");
    assert!(screen.contains("Conversation and code"), "{screen}");
    assert!(
        !screen.contains("Code only"),
        "a fork always moves the conversation"
    );
    assert!(
        screen.contains("\u{201c}write the files\u{201d}"),
        "{screen}"
    );
    // Cancel: no fork, the files as the agent left them.
    pi.tmux.key("Down");
    pi.tmux.key("Down");
    pi.tmux.key("Enter");
    let screen = pi.tmux.wait_for("the dialog to close", WAIT, |s| {
        !s.contains("bring the files back too?")
    });
    assert!(
        screen.contains("Both files written."),
        "not forked: {screen}"
    );
    assert!(!screen.contains("Forked to a new session"), "{screen}");
    assert_eq!(
        fs::read_to_string(project.join("a.txt")).unwrap(),
        "agent version\n"
    );

    // Conversation and code: a new session, the files as they were before the message.
    fork_and_see_the_files(&pi);
    pi.tmux.key("Enter");
    let screen = pi.tmux.wait_for("the fork with files", WAIT, |s| {
        s.contains("Forked to a new session") && s.contains("Files restored: 2.")
    });
    assert!(
        screen.contains("write the files"),
        "back in the editor: {screen}"
    );
    assert!(!screen.contains("Both files written."), "{screen}");
    assert_eq!(
        fs::read_to_string(project.join("a.txt")).unwrap(),
        "alpha x\n"
    );
    assert!(!project.join("b.txt").exists());
    clear_and_quit(&pi);
}

#[test]
fn fork_conversation_only_leaves_the_files_and_a_conflict_is_asked_about() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let (_server, pi) = session_after_a_writing_turn();
    let project = pi.sandbox.project.clone();
    fs::write(project.join("a.txt"), "my own edit\n").unwrap();

    let screen = fork_and_see_the_files(&pi);
    assert!(screen.contains("! a.txt (changed since"), "{screen}");
    // Conversation and code, then the conflict: kept as the user wrote it.
    pi.tmux.key("Enter");
    let screen = pi.tmux.wait_for("the conflict question", WAIT, |s| {
        s.contains("Files changed after the agent, by someone else (1):")
    });
    assert!(screen.contains("Keep them as they are now"), "{screen}");
    // Escape cancels the whole fork.
    pi.tmux.key("Escape");
    pi.tmux.wait_for("the dialog to close", WAIT, |s| {
        !s.contains("by someone else (1)")
    });
    assert!(
        project.join("b.txt").exists(),
        "a cancelled fork restores nothing"
    );

    // Conversation only: forked, the files stay as they are.
    fork_and_see_the_files(&pi);
    pi.tmux.key("Down");
    pi.tmux.key("Enter");
    let screen = pi
        .tmux
        .wait_for("the fork", WAIT, |s| s.contains("Forked to a new session"));
    assert!(!screen.contains("Files restored"), "{screen}");
    assert_eq!(
        fs::read_to_string(project.join("a.txt")).unwrap(),
        "my own edit\n"
    );
    assert_eq!(
        fs::read_to_string(project.join("b.txt")).unwrap(),
        "made by the agent\n"
    );
    clear_and_quit(&pi);
}

#[test]
fn an_extension_hears_what_the_fork_dialog_chose_and_git_checkpoint_does_not_ask_again() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let (_server, pi) = session_after_a_writing_turn_with(|s| {
        let dir = s.agent_dir.join("extensions");
        fs::create_dir_all(&dir).unwrap();
        let example = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/extensions/examples/git-checkpoint.lua"
        );
        fs::copy(example, dir.join("git-checkpoint.lua")).unwrap();
        fs::write(
            dir.join("probe.lua"),
            r#"return function(pi)
  pi.on("session_before_fork", function(event, ctx)
    local f = assert(io.open(ctx.cwd .. "/fork-files.txt", "w"))
    f:write(tostring(event.fileChoice))
    f:close()
  end)
end
"#,
        )
        .unwrap();
    });
    let project = pi.sandbox.project.clone();
    fork_and_see_the_files(&pi);
    // Conversation and code: the extensions hear it, git-checkpoint asks nothing more.
    pi.tmux.key("Enter");
    let screen = pi.tmux.wait_for("the fork with files", WAIT, |s| {
        s.contains("Forked to a new session") && s.contains("Files restored: 2.")
    });
    assert_eq!(
        fs::read_to_string(project.join("fork-files.txt")).unwrap(),
        "restore"
    );
    assert!(!screen.contains("Restore code state?"), "{screen}");
    assert_eq!(
        fs::read_to_string(project.join("a.txt")).unwrap(),
        "alpha x\n"
    );
    clear_and_quit(&pi);
}
