//! End to end in tmux, without the Kitty protocol (tmux does not speak it): a large
//! bracketed paste survives End + Backspace (the marker goes at once, so nothing half of
//! it is sent) and comes back with the undo key as tmux sends it; Ctrl+W, undo (0x1f and
//! `ESC [ 45 ; 5 u`), Ctrl+] and Shift+Enter do what they are bound to.

use crate::support::tui_harness::*;
use crate::support::{MockReply, MockServer};

use std::time::Duration;

const WAIT: Duration = Duration::from_secs(20);

/// The editor's rows: between the last two horizontal rules on the screen.
fn editor_rows(screen: &str) -> Vec<String> {
    let lines: Vec<&str> = screen.lines().collect();
    let rules: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("──"))
        .collect();
    let [.., top, bottom] = rules[..] else {
        return Vec::new();
    };
    lines[top + 1..bottom]
        .iter()
        .map(|l| l.trim_end().to_string())
        .collect()
}

fn wait_for_editor(pi: &Session, what: &str, want: &[&str]) {
    pi.tmux.wait_for(what, WAIT, |s| editor_rows(s) == want);
}

fn pasted_lines() -> Vec<String> {
    (1..=20).map(|i| format!("pasted line {i:02}")).collect()
}

/// Paste the 20 lines as a terminal does, inside bracketed-paste markers.
fn paste(pi: &Session) {
    let file = pi.sandbox.root.path().join("paste.txt");
    std::fs::write(&file, pasted_lines().join("\n")).unwrap();
    pi.tmux
        .tmux(&["load-buffer", "-b", "big", &file.to_string_lossy()]);
    pi.tmux.tmux(&["paste-buffer", "-p", "-b", "big"]);
}

fn sent(server: &MockServer, index: usize) -> String {
    server.requests()[index].json()["messages"].to_string()
}

#[test]
fn a_pasted_block_is_deleted_whole_and_undo_brings_it_back() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("first answer"));
    server.push(MockReply::openai_text("second answer"));
    let pi = Session::launch(&server, |_| {});

    pi.tmux.type_text("before ");
    paste(&pi);
    wait_for_editor(&pi, "the marker", &["before [paste #1 +20 lines]"]);
    pi.tmux.key("End");
    pi.tmux.key("BSpace");
    wait_for_editor(&pi, "the marker gone whole", &["before"]);
    pi.tmux.key("Enter");
    pi.tmux
        .wait_for("the first answer", WAIT, |s| s.contains("first answer"));
    let first = sent(&server, 0);
    assert!(first.contains("before"), "{first}");
    assert!(!first.contains("[paste #"), "{first}");
    assert!(!first.contains("pasted line"), "{first}");

    paste(&pi);
    wait_for_editor(&pi, "a new marker", &["[paste #1 +20 lines]"]);
    pi.tmux.key("BSpace");
    wait_for_editor(&pi, "an empty editor", &[""]);
    // Ctrl+_ is the 0x1f byte, the undo key of terminals without the Kitty protocol.
    pi.tmux.key("C-_");
    wait_for_editor(&pi, "the marker back", &["[paste #1 +20 lines]"]);
    pi.tmux.key("Enter");
    pi.tmux
        .wait_for("the second answer", WAIT, |s| s.contains("second answer"));
    let second = sent(&server, 1);
    for line in pasted_lines() {
        assert!(second.contains(&line), "{line} missing from {second}");
    }
    assert!(!second.contains("[paste #"), "{second}");
    pi.quit_and_check_terminal();
}

#[test]
fn undo_jump_and_shift_enter_arrive_as_tmux_sends_them() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("got it"));
    let pi = Session::launch(&server, |_| {});

    pi.tmux.type_text("hello world");
    wait_for_editor(&pi, "the typed text", &["hello world"]);
    pi.tmux.key("C-w");
    wait_for_editor(&pi, "the word killed", &["hello"]);
    pi.tmux.key("C-_");
    wait_for_editor(&pi, "undo by 0x1f", &["hello world"]);
    pi.tmux.key("C-w");
    wait_for_editor(&pi, "the word killed again", &["hello"]);
    // Ctrl+- (tmux sends ESC [ 45 ; 5 u once pi has asked for modifyOtherKeys).
    pi.tmux.key("C--");
    wait_for_editor(&pi, "undo by Ctrl+-", &["hello world"]);
    // Alt+- redoes the kill; undo again.
    pi.tmux.key("M--");
    wait_for_editor(&pi, "redo", &["hello"]);
    pi.tmux.key("C-_");
    wait_for_editor(&pi, "undone once more", &["hello world"]);

    // Ctrl+] then `w`: the cursor jumps to the `w`.
    pi.tmux.key("C-a");
    pi.tmux.key("C-]");
    pi.tmux.type_text("w");
    pi.tmux.type_text("X");
    wait_for_editor(&pi, "the jump", &["hello Xworld"]);

    pi.tmux.key("End");
    pi.tmux.key("S-Enter");
    pi.tmux.type_text("second line");
    wait_for_editor(&pi, "a new line", &["hello Xworld", "second line"]);
    pi.tmux.key("Enter");
    pi.tmux
        .wait_for("the answer", WAIT, |s| s.contains("got it"));
    let request = sent(&server, 0);
    assert!(request.contains("hello Xworld\\nsecond line"), "{request}");
    pi.quit_and_check_terminal();
}

#[test]
fn ctrl_g_gets_the_pasted_text_and_an_unchanged_draft_keeps_its_marker() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("edited answer"));
    let copy = std::sync::Arc::new(std::sync::Mutex::new(std::path::PathBuf::new()));
    let seen = copy.clone();
    let pi = Session::launch(&server, move |sandbox| {
        // An "editor" that keeps a copy of what it was given and changes nothing.
        let script = sandbox.root.path().join("editor.sh");
        let saved = sandbox.root.path().join("given.txt");
        std::fs::write(
            &script,
            format!("#!/bin/sh\ncp \"$1\" {}\n", quote(&saved.to_string_lossy())),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        sandbox
            .env
            .push(("VISUAL".into(), script.to_string_lossy().to_string()));
        *seen.lock().unwrap() = saved;
    });
    pi.tmux.type_text("see ");
    paste(&pi);
    wait_for_editor(&pi, "the marker", &["see [paste #1 +20 lines]"]);
    pi.tmux.key("C-g");
    let given = wait_for_file(&copy.lock().unwrap(), WAIT);
    assert_eq!(given, format!("see {}", pasted_lines().join("\n")));
    std::thread::sleep(Duration::from_millis(300));
    wait_for_editor(&pi, "the marker kept", &["see [paste #1 +20 lines]"]);
    pi.tmux.key("Enter");
    pi.tmux
        .wait_for("the answer", WAIT, |s| s.contains("edited answer"));
    let request = sent(&server, 0);
    for line in pasted_lines() {
        assert!(request.contains(&line), "{line} missing from {request}");
    }
    pi.quit_and_check_terminal();
}

#[test]
fn keys_typed_before_the_ui_is_up_land_in_the_editor_unsent() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("typed-ahead answer"));
    let sandbox = crate::support::pi_cli::PiSandbox::with_mock(&server, "openai-completions");
    let before = sandbox.root.path().join("stty-before.txt");
    let after = sandbox.root.path().join("stty-after.txt");
    let command = pi_command(&sandbox, "--model mock/mock-model", &before, &after);
    // pi starts a second late, so the keys reach the terminal while it is still in
    // line mode: the line typed with Enter is complete before pi reads anything.
    let delayed = format!("sh -c {}", quote(&format!("sleep 1; {command}")));
    let tmux = Tmux::start(&delayed, &sandbox.project);
    tmux.type_text("first line");
    tmux.key("Enter");
    tmux.type_text("second");
    let pi = Session {
        sandbox,
        tmux,
        before,
        after,
    };
    wait_for_editor(&pi, "the typed lines", &["first line", "second"]);
    std::thread::sleep(Duration::from_millis(300));
    assert!(server.requests().is_empty(), "nothing is sent on its own");
    pi.tmux.key("Enter");
    pi.tmux
        .wait_for("the answer", WAIT, |s| s.contains("typed-ahead answer"));
    let request = sent(&server, 0);
    assert!(request.contains(r"first line\nsecond"), "{request}");
    pi.quit_and_check_terminal();
}
