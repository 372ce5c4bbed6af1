//! End to end in tmux: `/settings`' filter box and lists of values, a setting that
//! applies at once, and `/resume`'s named filter, sort modes, ages, the current
//! session's mark and the message after resuming. Skipped when tmux is not installed.

use crate::support;
use crate::support::pi_cli;
use crate::support::tui_harness;

use std::time::{Duration, Instant};

use pi_cli::PiSandbox;
use serde_json::Value;
use support::{MockReply, MockServer};

use tui_harness::*;

const WAIT: Duration = Duration::from_secs(20);

fn wait_for_setting(sandbox: &PiSandbox, what: &str, ok: impl Fn(&Value) -> bool) {
    let deadline = Instant::now() + WAIT;
    loop {
        let text =
            std::fs::read_to_string(sandbox.agent_dir.join("settings.json")).unwrap_or_default();
        let value = serde_json::from_str(&text).unwrap_or(Value::Null);
        if ok(&value) {
            return;
        }
        assert!(Instant::now() < deadline, "{what}: settings.json is {text}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn settings_filter_theme_list_and_editor_padding() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    let pi = Session::launch(&server, |_| {});
    pi.send("/settings");
    pi.tmux
        .wait_for("the settings list", WAIT, |s| s.contains("(1/19)"));
    pi.tmux.type_text("theme");
    pi.tmux.wait_for("the theme entry", WAIT, |s| {
        s.contains("→ Theme") && !s.contains("(1/")
    });
    pi.tmux.key("Enter");
    pi.tmux.wait_for("the list of themes", WAIT, |s| {
        s.contains("Enter to select · Esc to go back") && s.contains("→ dark")
    });
    pi.tmux.key("Down");
    pi.tmux
        .wait_for("light highlighted", WAIT, |s| s.contains("→ light"));
    pi.tmux.key("Enter");
    wait_for_setting(&pi.sandbox, "the theme saved", |v| v["theme"] == "light");
    pi.tmux.wait_for("back in the list", WAIT, |s| {
        s.contains("> theme") && s.contains("Theme") && s.contains("light")
    });
    for _ in 0..5 {
        pi.tmux.key("BSpace");
    }
    pi.tmux.type_text("editor");
    pi.tmux
        .wait_for("editor padding", WAIT, |s| s.contains("→ Editor padding"));
    pi.tmux.key("Enter");
    wait_for_setting(&pi.sandbox, "the padding saved", |v| {
        v["editorPaddingX"] == 1
    });
    pi.tmux.key("Escape");
    // Typing right after Escape would read as Alt+key.
    pi.tmux.wait_for("the settings closed", WAIT, |s| {
        !s.contains("Type to search")
    });
    pi.tmux.type_text("padded");
    pi.tmux
        .wait_for("the editor padded by one column", WAIT, |s| {
            s.lines().any(|l| l.starts_with(" padded"))
        });
    pi.tmux.key("C-c");
    pi.quit_and_check_terminal();
}

#[test]
fn resume_named_filter_sort_current_mark_and_resumed_message() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("older answer"));
    server.push(MockReply::openai_text("newer answer"));
    let pi = Session::launch(&server, |sandbox| {
        for prompt in ["the older session", "the newer session"] {
            let out = sandbox.run(&["--model", "mock/mock-model", "-p", prompt], None);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    });
    pi.send("/resume");
    pi.tmux.wait_for("the selector", WAIT, |s| {
        s.contains("Sort: Threaded")
            && s.contains("Name: All")
            && s.lines()
                .any(|l| l.contains("→ the newer session") && l.ends_with(" 2 now"))
    });
    pi.tmux.key("Down");
    pi.tmux.key("C-r");
    pi.tmux.type_text("Old work");
    pi.tmux.key("Enter");
    pi.tmux
        .wait_for("the new name", WAIT, |s| s.contains("→ Old work"));
    pi.tmux.key("C-n");
    pi.tmux.wait_for("named sessions only", WAIT, |s| {
        s.contains("Name: Named") && s.contains("→ Old work") && !s.contains("the newer session")
    });
    pi.tmux.key("C-n");
    pi.tmux.key("C-s");
    pi.tmux
        .wait_for("recent order", WAIT, |s| s.contains("Sort: Recent"));
    pi.tmux.key("C-s");
    pi.tmux
        .wait_for("relevance order", WAIT, |s| s.contains("Sort: Fuzzy"));
    // A quoted phrase must appear as written (a bare word matches fuzzily).
    pi.tmux.type_text("\"newer session\"");
    pi.tmux.wait_for("the search", WAIT, |s| {
        s.contains("→ the newer session") && !s.lines().any(|l| l.starts_with("  Old work"))
    });
    pi.tmux.key("Enter");
    pi.tmux.wait_for("the resumed session", WAIT, |s| {
        s.contains("newer answer") && s.contains("Session resumed")
    });
    pi.send("/resume");
    pi.tmux.wait_for("the current session marked", WAIT, |s| {
        s.contains("the newer session (current)")
    });
    pi.tmux.key("C-d");
    pi.tmux
        .wait_for("no deleting the current session", WAIT, |s| {
            s.contains("Cannot delete the currently active session")
        });
    pi.tmux.key("Escape");
    pi.tmux.wait_for("the selector closed", WAIT, |s| {
        !s.contains("Resume Session")
    });
    pi.quit_and_check_terminal();
    assert_eq!(pi.sandbox.session_files().len(), 2, "nothing deleted");
}
