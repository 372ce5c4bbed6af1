//! The editor's kill ring: Ctrl+W/U/K and Alt+D kill into it, consecutive kills grow one
//! entry, Ctrl+Y yanks the newest and Alt+Y cycles through older ones. Input is the bytes
//! the original's cases send.
//! orig-file: packages/tui/test/editor.test.ts

use crate::editor_input::feed;
use pi::tui::editor::Editor;

const CTRL_A: &str = "\x01";
const CTRL_E: &str = "\x05";
const CTRL_K: &str = "\x0b";
const CTRL_U: &str = "\x15";
const CTRL_W: &str = "\x17";
const CTRL_Y: &str = "\x19";
const ALT_Y: &str = "\x1by";
const ALT_D: &str = "\x1bd";
const RIGHT: &str = "\x1b[C";
const UP: &str = "\x1b[A";

fn with(text: &str) -> Editor {
    let mut e = Editor::new();
    e.set_text(text);
    e
}

fn keys(e: &mut Editor, keys: &[&str]) {
    for k in keys {
        feed(e, k);
    }
}

fn right(e: &mut Editor, n: usize) {
    for _ in 0..n {
        feed(e, RIGHT);
    }
}

/// Kill each of `words` in turn from a fresh text, leaving the ring `[words...]`.
fn ring_of(words: &[&str]) -> Editor {
    let mut e = Editor::new();
    for w in words {
        e.set_text(w);
        feed(&mut e, CTRL_W);
    }
    e
}

/// orig: Editor component › Kill ring › Ctrl+W saves deleted text to kill ring and Ctrl+Y yanks it
#[test]
fn ctrl_w_then_ctrl_y() {
    let mut e = with("foo bar baz");
    feed(&mut e, CTRL_W);
    assert_eq!(e.text(), "foo bar ");
    keys(&mut e, &[CTRL_A, CTRL_Y]);
    assert_eq!(e.text(), "bazfoo bar ");
}

/// orig: Editor component › Kill ring › Ctrl+U saves deleted text to kill ring
#[test]
fn ctrl_u_kills() {
    let mut e = with("hello world");
    feed(&mut e, CTRL_A);
    right(&mut e, 6);
    feed(&mut e, CTRL_U);
    assert_eq!(e.text(), "world");
    feed(&mut e, CTRL_Y);
    assert_eq!(e.text(), "hello world");
}

/// orig: Editor component › Kill ring › Ctrl+K saves deleted text to kill ring
#[test]
fn ctrl_k_kills() {
    let mut e = with("hello world");
    keys(&mut e, &[CTRL_A, CTRL_K]);
    assert_eq!(e.text(), "");
    feed(&mut e, CTRL_Y);
    assert_eq!(e.text(), "hello world");
}

/// orig: Editor component › Kill ring › Ctrl+Y does nothing when kill ring is empty
#[test]
fn yank_with_empty_ring() {
    let mut e = with("test");
    feed(&mut e, CTRL_Y);
    assert_eq!(e.text(), "test");
}

/// orig: Editor component › Kill ring › Alt+Y cycles through kill ring after Ctrl+Y
#[test]
fn alt_y_cycles() {
    let mut e = ring_of(&["first", "second", "third"]);
    assert_eq!(e.text(), "");
    feed(&mut e, CTRL_Y);
    assert_eq!(e.text(), "third");
    for want in ["second", "first", "third"] {
        feed(&mut e, ALT_Y);
        assert_eq!(e.text(), want);
    }
}

/// orig: Editor component › Kill ring › Alt+Y does nothing if not preceded by yank
#[test]
fn alt_y_needs_a_yank() {
    let mut e = ring_of(&["test"]);
    e.set_text("other");
    feed(&mut e, "x");
    assert_eq!(e.text(), "otherx");
    feed(&mut e, ALT_Y);
    assert_eq!(e.text(), "otherx");
}

/// orig: Editor component › Kill ring › Alt+Y does nothing if kill ring has ≤1 entry
#[test]
fn alt_y_with_one_entry() {
    let mut e = ring_of(&["only"]);
    feed(&mut e, CTRL_Y);
    assert_eq!(e.text(), "only");
    feed(&mut e, ALT_Y);
    assert_eq!(e.text(), "only");
}

/// orig: Editor component › Kill ring › consecutive Ctrl+W accumulates into one kill ring entry
#[test]
fn consecutive_ctrl_w_accumulates() {
    let mut e = with("one two three");
    keys(&mut e, &[CTRL_W, CTRL_W, CTRL_W]);
    assert_eq!(e.text(), "");
    feed(&mut e, CTRL_Y);
    assert_eq!(e.text(), "one two three");
}

/// orig: Editor component › Kill ring › Ctrl+U accumulates multiline deletes including newlines
#[test]
fn ctrl_u_accumulates_across_lines() {
    let mut e = with("line1\nline2\nline3");
    for want in ["line1\nline2\n", "line1\nline2", "line1\n", "line1", ""] {
        feed(&mut e, CTRL_U);
        assert_eq!(e.text(), want);
    }
    feed(&mut e, CTRL_Y);
    assert_eq!(e.text(), "line1\nline2\nline3");
}

/// orig: Editor component › Kill ring › backward deletions prepend, forward deletions append during accumulation
#[test]
fn backward_prepends_forward_appends() {
    let mut e = with("prefix|suffix");
    feed(&mut e, CTRL_A);
    right(&mut e, 6);
    keys(&mut e, &[CTRL_K, CTRL_K]);
    assert_eq!(e.text(), "prefix");
    feed(&mut e, CTRL_Y);
    assert_eq!(e.text(), "prefix|suffix");
}

/// orig: Editor component › Kill ring › non-delete actions break kill accumulation
#[test]
fn typing_breaks_accumulation() {
    let mut e = with("foo bar baz");
    feed(&mut e, CTRL_W);
    assert_eq!(e.text(), "foo bar ");
    feed(&mut e, "x");
    assert_eq!(e.text(), "foo bar x");
    feed(&mut e, CTRL_W);
    assert_eq!(e.text(), "foo bar ");
    feed(&mut e, CTRL_Y);
    assert_eq!(e.text(), "foo bar x");
    feed(&mut e, ALT_Y);
    assert_eq!(e.text(), "foo bar baz");
}

/// orig: Editor component › Kill ring › non-yank actions break Alt+Y chain
#[test]
fn typing_breaks_the_yank_chain() {
    let mut e = ring_of(&["first", "second"]);
    e.set_text("");
    feed(&mut e, CTRL_Y);
    assert_eq!(e.text(), "second");
    feed(&mut e, "x");
    assert_eq!(e.text(), "secondx");
    feed(&mut e, ALT_Y);
    assert_eq!(e.text(), "secondx");
}

/// orig: Editor component › Kill ring › kill ring rotation persists after cycling
#[test]
fn rotation_persists() {
    let mut e = ring_of(&["first", "second", "third"]);
    e.set_text("");
    keys(&mut e, &[CTRL_Y, ALT_Y]);
    assert_eq!(e.text(), "second");
    feed(&mut e, "x");
    e.set_text("");
    feed(&mut e, CTRL_Y);
    assert_eq!(e.text(), "second");
}

/// orig: Editor component › Kill ring › consecutive deletions across lines coalesce into one entry
#[test]
fn ctrl_w_across_lines_coalesces() {
    let mut e = with("1\n2\n3");
    for want in ["1\n2\n", "1\n2", "1\n", "1", ""] {
        feed(&mut e, CTRL_W);
        assert_eq!(e.text(), want);
    }
    feed(&mut e, CTRL_Y);
    assert_eq!(e.text(), "1\n2\n3");
}

/// orig: Editor component › Kill ring › Ctrl+K at line end deletes newline and coalesces
#[test]
fn ctrl_k_at_line_end_takes_the_newline() {
    let mut e = Editor::new();
    keys(&mut e, &["a", "b", "\n", "c", "d", UP, CTRL_E]);
    feed(&mut e, CTRL_K);
    assert_eq!(e.text(), "abcd");
    feed(&mut e, CTRL_K);
    assert_eq!(e.text(), "ab");
    feed(&mut e, CTRL_Y);
    assert_eq!(e.text(), "ab\ncd");
}

/// orig: Editor component › Kill ring › handles yank in middle of text
#[test]
fn yank_in_the_middle() {
    let mut e = ring_of(&["word"]);
    e.set_text("hello world");
    feed(&mut e, CTRL_A);
    right(&mut e, 6);
    feed(&mut e, CTRL_Y);
    assert_eq!(e.text(), "hello wordworld");
}

/// orig: Editor component › Kill ring › handles yank-pop in middle of text
#[test]
fn yank_pop_in_the_middle() {
    let mut e = ring_of(&["FIRST", "SECOND"]);
    e.set_text("hello world");
    feed(&mut e, CTRL_A);
    right(&mut e, 6);
    feed(&mut e, CTRL_Y);
    assert_eq!(e.text(), "hello SECONDworld");
    feed(&mut e, ALT_Y);
    assert_eq!(e.text(), "hello FIRSTworld");
}

/// orig: Editor component › Kill ring › multiline yank and yank-pop in middle of text
#[test]
fn multiline_yank_and_yank_pop() {
    let mut e = ring_of(&["SINGLE"]);
    e.set_text("A\nB");
    keys(&mut e, &[CTRL_U, CTRL_U, CTRL_U]);
    e.set_text("hello world");
    feed(&mut e, CTRL_A);
    right(&mut e, 6);
    feed(&mut e, CTRL_Y);
    assert_eq!(e.text(), "hello A\nBworld");
    feed(&mut e, ALT_Y);
    assert_eq!(e.text(), "hello SINGLEworld");
}

/// orig: Editor component › Kill ring › Alt+D deletes word forward and saves to kill ring
#[test]
fn alt_d_kills_forward() {
    let mut e = with("hello world test");
    feed(&mut e, CTRL_A);
    feed(&mut e, ALT_D);
    assert_eq!(e.text(), " world test");
    feed(&mut e, ALT_D);
    assert_eq!(e.text(), " test");
    feed(&mut e, CTRL_Y);
    assert_eq!(e.text(), "hello world test");
}

/// orig: Editor component › Kill ring › Alt+D at end of line deletes newline
#[test]
fn alt_d_at_line_end_takes_the_newline() {
    let mut e = with("line1\nline2");
    keys(&mut e, &[UP, CTRL_E, ALT_D]);
    assert_eq!(e.text(), "line1line2");
    feed(&mut e, CTRL_Y);
    assert_eq!(e.text(), "line1\nline2");
}
