//! Ctrl+] then a character moves the cursor to that character's next occurrence (Ctrl+Alt+]
//! to the previous one), across lines, case-sensitively; pressing the jump key again or a
//! non-character key cancels. The keys are the bytes terminals send: 0x1d and ESC 0x1d.
//! orig-file: packages/tui/test/editor.test.ts

use crate::editor_input::{cursor, feed};
use pi::tui::editor::Editor;

const JUMP: &str = "\x1d";
const JUMP_BACK: &str = "\x1b\x1d";
const CTRL_A: &str = "\x01";

fn at_start(text: &str) -> Editor {
    let mut e = Editor::new();
    e.set_text(text);
    feed(&mut e, CTRL_A);
    assert_eq!(cursor(&e), (0, 0));
    e
}

fn at_end(text: &str) -> Editor {
    let mut e = Editor::new();
    e.set_text(text);
    e
}

fn jump(e: &mut Editor, key: &str, target: &str) -> (usize, usize) {
    feed(e, key);
    feed(e, target);
    cursor(e)
}

/// orig: Editor component › Character jump (Ctrl+]) › jumps forward to first occurrence of character on same line
#[test]
fn forward_on_the_line() {
    let mut e = at_start("hello world");
    assert_eq!(jump(&mut e, JUMP, "o"), (0, 4));
}

/// orig: Editor component › Character jump (Ctrl+]) › jumps forward to next occurrence after cursor
#[test]
fn forward_skips_the_cursor() {
    let mut e = at_start("hello world");
    for _ in 0..4 {
        feed(&mut e, "\x1b[C");
    }
    assert_eq!(cursor(&e), (0, 4));
    assert_eq!(jump(&mut e, JUMP, "o"), (0, 7));
}

/// orig: Editor component › Character jump (Ctrl+]) › jumps forward across multiple lines
#[test]
fn forward_across_lines() {
    let mut e = at_end("abc\ndef\nghi");
    feed(&mut e, "\x1b[A");
    feed(&mut e, "\x1b[A");
    feed(&mut e, CTRL_A);
    assert_eq!(cursor(&e), (0, 0));
    assert_eq!(jump(&mut e, JUMP, "g"), (2, 0));
}

/// orig: Editor component › Character jump (Ctrl+]) › jumps backward to first occurrence before cursor on same line
#[test]
fn backward_on_the_line() {
    let mut e = at_end("hello world");
    assert_eq!(cursor(&e), (0, 11));
    assert_eq!(jump(&mut e, JUMP_BACK, "o"), (0, 7));
}

/// orig: Editor component › Character jump (Ctrl+]) › jumps backward across multiple lines
#[test]
fn backward_across_lines() {
    let mut e = at_end("abc\ndef\nghi");
    assert_eq!(cursor(&e), (2, 3));
    assert_eq!(jump(&mut e, JUMP_BACK, "a"), (0, 0));
}

/// orig: Editor component › Character jump (Ctrl+]) › does nothing when character is not found (forward)
#[test]
fn forward_not_found() {
    let mut e = at_start("hello world");
    assert_eq!(jump(&mut e, JUMP, "z"), (0, 0));
    assert_eq!(e.text(), "hello world");
}

/// orig: Editor component › Character jump (Ctrl+]) › does nothing when character is not found (backward)
#[test]
fn backward_not_found() {
    let mut e = at_end("hello world");
    assert_eq!(jump(&mut e, JUMP_BACK, "z"), (0, 11));
    assert_eq!(e.text(), "hello world");
}

/// orig: Editor component › Character jump (Ctrl+]) › is case-sensitive
#[test]
fn case_sensitive() {
    let mut e = at_start("Hello World");
    assert_eq!(jump(&mut e, JUMP, "h"), (0, 0));
    assert_eq!(jump(&mut e, JUMP, "W"), (0, 6));
}

/// orig: Editor component › Character jump (Ctrl+]) › cancels jump mode when Ctrl+] is pressed again
#[test]
fn jump_key_again_cancels() {
    let mut e = at_start("hello world");
    feed(&mut e, JUMP);
    feed(&mut e, JUMP);
    feed(&mut e, "o");
    assert_eq!(e.text(), "ohello world");
}

/// orig: Editor component › Character jump (Ctrl+]) › cancels jump mode on Escape and processes the Escape
#[test]
fn escape_cancels() {
    let mut e = at_start("hello world");
    feed(&mut e, JUMP);
    assert!(e.jump_pending());
    feed(&mut e, "\x1b");
    assert!(!e.jump_pending());
    assert_eq!(cursor(&e), (0, 0));
    feed(&mut e, "o");
    assert_eq!(e.text(), "ohello world");
}

/// orig: Editor component › Character jump (Ctrl+]) › cancels backward jump mode when Ctrl+Alt+] is pressed again
#[test]
fn backward_jump_key_again_cancels() {
    let mut e = at_end("hello world");
    feed(&mut e, JUMP_BACK);
    feed(&mut e, JUMP_BACK);
    feed(&mut e, "o");
    assert_eq!(e.text(), "hello worldo");
}

/// orig: Editor component › Character jump (Ctrl+]) › searches for special characters
#[test]
fn special_characters() {
    let mut e = at_start("foo(bar) = baz;");
    assert_eq!(jump(&mut e, JUMP, "("), (0, 3));
    assert_eq!(jump(&mut e, JUMP, "="), (0, 9));
}

/// orig: Editor component › Character jump (Ctrl+]) › handles empty text gracefully
#[test]
fn empty_text() {
    let mut e = at_start("");
    assert_eq!(jump(&mut e, JUMP, "x"), (0, 0));
    assert_eq!(e.text(), "");
}

/// orig: Editor component › Character jump (Ctrl+]) › resets lastAction when jumping
#[test]
fn jumping_starts_a_new_undo_step() {
    let mut e = at_start("hello world");
    feed(&mut e, "x");
    assert_eq!(e.text(), "xhello world");
    jump(&mut e, JUMP, "o");
    feed(&mut e, "Y");
    assert_eq!(e.text(), "xhellYo world");
    feed(&mut e, "\x1b[45;5u");
    assert_eq!(e.text(), "xhello world");
}
