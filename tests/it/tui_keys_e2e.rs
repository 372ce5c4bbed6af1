//! End to end in tmux: keys in the forms pi's own decoder reads and crossterm's did not —
//! xterm's modifyOtherKeys (`ESC [ 27 ; mod ; code ~`, what xterm and tmux 3.5 with
//! `extended-keys-format xterm` send) and a Kitty key with its base-layout key (Ctrl+С on
//! a Russian layout). The bytes are written into the pane as the terminal would send them.

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

/// Write `bytes` into the pane's input as one burst, as a terminal sends a key.
fn send_bytes(pi: &Session, bytes: &str) {
    let hex: Vec<String> = bytes.bytes().map(|b| format!("{b:02x}")).collect();
    let mut args = vec!["send-keys", "-H"];
    args.extend(hex.iter().map(String::as_str));
    pi.tmux.tmux(&args);
}

#[test]
fn xterm_modify_other_keys_shift_enter_is_a_new_line_and_enter_still_sends() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    server.push(MockReply::openai_text("two lines received"));
    let pi = Session::launch(&server, |_| {});

    pi.tmux.type_text("first");
    wait_for_editor(&pi, "the typed text", &["first"]);
    // Shift+Enter as xterm sends it in modifyOtherKeys mode 2.
    send_bytes(&pi, "\x1b[27;2;13~");
    pi.tmux.type_text("second");
    wait_for_editor(&pi, "a new line", &["first", "second"]);
    // Ctrl+- (undo) in the same form takes the typed word back.
    send_bytes(&pi, "\x1b[27;5;45~");
    wait_for_editor(&pi, "undo", &["first", ""]);
    pi.tmux.type_text("again");
    // A plain Enter still sends.
    pi.tmux.key("Enter");
    pi.tmux
        .wait_for("the answer", WAIT, |s| s.contains("two lines received"));
    let request = server.requests()[0].json()["messages"].to_string();
    assert!(request.contains("first\\nagain"), "{request}");
    pi.quit_and_check_terminal();
}

#[test]
fn ctrl_c_on_a_cyrillic_layout_clears_and_the_plain_letter_types() {
    if !tmux_available() {
        eprintln!("SKIPPED: tmux is not installed; the interactive end-to-end test needs it");
        return;
    }
    let server = MockServer::start();
    let pi = Session::launch(&server, |_| {});

    // The Cyrillic letter с without modifiers types itself …
    pi.tmux.type_text("draft ");
    send_bytes(&pi, "\x1b[1089::99u");
    wait_for_editor(&pi, "the Cyrillic letter", &["draft с"]);
    // … and with Ctrl it is Ctrl+C (its key sits where C is), which clears the editor.
    send_bytes(&pi, "\x1b[1089::99;5u");
    wait_for_editor(&pi, "the editor cleared", &[""]);
    pi.quit_and_check_terminal();
}
