//! End to end in tmux: `/resume` of a session from another folder (the selector's "all"
//! scope) moves the conversation there — footer, tools and context files — and a session
//! whose folder is gone is refused with a clear message. Skipped when tmux is not installed.

use crate::support;
use crate::support::pi_cli;
use crate::support::tui_harness;

use std::path::Path;
use std::time::Duration;

use pi_cli::PiSandbox;
use serde_json::json;
use support::{MockReply, MockServer};

use tui_harness::*;

const WAIT: Duration = Duration::from_secs(20);

/// A stored session of `cwd` whose first message is `prompt`.
fn write_session(sandbox: &PiSandbox, cwd: &Path, id: &str, prompt: &str) {
    let dir = sandbox.agent_dir.join("sessions").join(format!("--{id}--"));
    std::fs::create_dir_all(&dir).unwrap();
    let usage = json!({"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2,
        "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}});
    let lines = [
        json!({"type": "session", "version": 3, "id": id,
               "timestamp": "2026-01-02T10:00:00.000Z", "cwd": cwd.display().to_string()}),
        json!({"type": "message", "id": "u1", "parentId": null, "timestamp": "2026-01-02T10:00:01.000Z",
               "message": {"role": "user", "content": [{"type": "text", "text": prompt}], "timestamp": 1}}),
        json!({"type": "message", "id": "a1", "parentId": "u1", "timestamp": "2026-01-02T10:00:02.000Z",
               "message": {"role": "assistant", "content": [{"type": "text", "text": "noted"}],
                           "api": "openai-completions", "provider": "mock", "model": "mock-model",
                           "usage": usage, "stopReason": "stop", "timestamp": 2}}),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(
        dir.join(format!("2026-01-02T10-00-00-000Z_{id}.jsonl")),
        text,
    )
    .unwrap();
}

/// Open `/resume`, show every folder's sessions, narrow them to `search` and pick it.
fn resume_from_all(pi: &Session, search: &str) {
    pi.send("/resume");
    pi.tmux
        .wait_for("the selector", WAIT, |s| s.contains("Resume Session"));
    pi.tmux.key("Tab");
    pi.tmux
        .wait_for("every folder's sessions", WAIT, |s| s.contains("◉ All"));
    pi.tmux.type_text(search);
    pi.tmux.wait_for("the session found", WAIT, |s| {
        s.lines().any(|l| l.starts_with("→ ") && l.contains(search))
    });
    pi.tmux.key("Enter");
}

/// The footer's folder line (the one after the last rule).
fn footer_folder(screen: &str) -> String {
    let lines: Vec<&str> = screen.lines().collect();
    let rule = lines.iter().rposition(|l| l.starts_with("────")).unwrap();
    lines.get(rule + 1).unwrap_or(&"").trim().to_string()
}

#[test]
fn resume_moves_to_the_sessions_folder_and_refuses_a_missing_one() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    let mut folder_b = std::path::PathBuf::new();
    let mut gone = std::path::PathBuf::new();
    let pi = Session::launch(&server, |sandbox| {
        folder_b = sandbox.root.path().join("folder-b");
        std::fs::create_dir_all(&folder_b).unwrap();
        std::fs::write(folder_b.join("AGENTS.md"), "Folder B's own notes.\n").unwrap();
        gone = sandbox.root.path().join("folder-gone");
        write_session(sandbox, &folder_b, "bbbb", "work in folder b");
        write_session(sandbox, &gone, "gggg", "work in the gone folder");
    });
    let project = pi.sandbox.project.display().to_string();
    let start = pi.tmux.screen();
    assert_eq!(footer_folder(&start), project, "{start}");

    // The folder is gone: nothing switches, and the message names both folders.
    resume_from_all(&pi, "gone folder");
    let screen = pi.tmux.wait_for("the refusal", WAIT, |s| {
        s.contains("no longer exists") && !s.contains("Resume Session")
    });
    assert!(
        screen.contains(&gone.display().to_string()),
        "names the missing folder: {screen}"
    );
    assert_eq!(footer_folder(&screen), project, "still here: {screen}");
    assert!(!screen.contains("work in the gone folder"), "{screen}");

    // Another folder's session: the conversation continues there.
    resume_from_all(&pi, "folder b");
    let b = folder_b.display().to_string();
    pi.tmux.wait_for("the footer in folder B", WAIT, |s| {
        s.contains("Session resumed") && footer_folder(s) == b
    });
    server.push(MockReply::openai_tool_calls(&[(
        "call_pwd",
        "bash",
        json!({"command": "pwd"}),
    )]));
    server.push(MockReply::openai_text("That is where we are."));
    pi.send("where are we?");
    let screen = pi
        .tmux
        .wait_for("the answer", WAIT, |s| s.contains("That is where we are."));
    let after_command = screen
        .split("$ pwd")
        .nth(1)
        .unwrap_or_else(|| panic!("the bash call shown: {screen}"));
    assert!(
        after_command.contains(&b),
        "pwd ran in folder B ({b}): {screen}"
    );
    // The model was told about folder B and its context file.
    let first = &server.requests()[0];
    let system = first.json()["messages"][0]["content"].to_string();
    assert!(
        system.contains(&b),
        "system prompt names folder B: {system}"
    );
    assert!(
        system.contains("Folder B's own notes."),
        "folder B's AGENTS.md: {system}"
    );
    // The conversation went on in B's session file.
    let stored = std::fs::read_to_string(
        pi.sandbox
            .agent_dir
            .join("sessions/--bbbb--/2026-01-02T10-00-00-000Z_bbbb.jsonl"),
    )
    .unwrap();
    assert!(stored.contains("where are we?"), "{stored}");
    pi.quit_and_check_terminal();
}
