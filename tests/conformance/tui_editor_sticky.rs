//! The sticky column: moving up or down through shorter lines remembers the column aimed
//! for and lands on it again on a line long enough; any sideways move, edit, undo or
//! `set_text` forgets it. Up and down move by rows on screen at the width last drawn.
//! orig-file: packages/tui/test/editor.test.ts

use crate::editor_input::{cursor, feed};
use pi::tui::editor::Editor;

const UP: &str = "\x1b[A";
const DOWN: &str = "\x1b[B";
const RIGHT: &str = "\x1b[C";
const CTRL_A: &str = "\x01";

fn with(text: &str) -> Editor {
    let mut e = Editor::new();
    e.set_text(text);
    e
}

fn keys(e: &mut Editor, keys: &[&str]) -> (usize, usize) {
    for k in keys {
        feed(e, k);
    }
    cursor(e)
}

/// To column `n` of the cursor's line.
fn to_column(e: &mut Editor, n: usize) {
    feed(e, CTRL_A);
    for _ in 0..n {
        feed(e, RIGHT);
    }
}

/// The "drawn at `width` columns" of pi's tests: the layout leaves one column for the cursor.
fn draw(e: &Editor, width: usize) {
    e.layout(width - 1);
}

/// orig: Editor component › Sticky column › preserves target column when moving up through a shorter line
#[test]
fn up_through_a_shorter_line() {
    let mut e = with("2222222222x222\n\n1111111111_111111111111");
    assert_eq!(cursor(&e), (2, 23));
    to_column(&mut e, 10);
    assert_eq!(keys(&mut e, &[UP]), (1, 0));
    assert_eq!(keys(&mut e, &[UP]), (0, 10));
}

/// orig: Editor component › Sticky column › preserves target column when moving down through a shorter line
#[test]
fn down_through_a_shorter_line() {
    let mut e = with("1111111111_111\n\n2222222222x222222222222");
    keys(&mut e, &[UP, UP]);
    to_column(&mut e, 10);
    assert_eq!(cursor(&e), (0, 10));
    assert_eq!(keys(&mut e, &[DOWN]), (1, 0));
    assert_eq!(keys(&mut e, &[DOWN]), (2, 10));
}

/// orig: Editor component › Sticky column › resets sticky column on horizontal movement (left arrow)
#[test]
fn left_forgets_it() {
    let mut e = with("1234567890\n\n1234567890");
    to_column(&mut e, 5);
    assert_eq!(keys(&mut e, &[UP, UP]), (0, 5));
    assert_eq!(keys(&mut e, &["\x1b[D"]), (0, 4));
    assert_eq!(keys(&mut e, &[DOWN, DOWN]), (2, 4));
}

/// orig: Editor component › Sticky column › resets sticky column on horizontal movement (right arrow)
#[test]
fn right_forgets_it() {
    let mut e = with("1234567890\n\n1234567890");
    keys(&mut e, &[UP, UP]);
    to_column(&mut e, 5);
    assert_eq!(keys(&mut e, &[DOWN, DOWN]), (2, 5));
    assert_eq!(keys(&mut e, &[RIGHT]), (2, 6));
    assert_eq!(keys(&mut e, &[UP, UP]), (0, 6));
}

/// orig: Editor component › Sticky column › resets sticky column on typing
#[test]
fn typing_forgets_it() {
    let mut e = with("1234567890\n\n1234567890");
    to_column(&mut e, 8);
    assert_eq!(keys(&mut e, &[UP, UP]), (0, 8));
    assert_eq!(keys(&mut e, &["X"]), (0, 9));
    assert_eq!(keys(&mut e, &[DOWN, DOWN]), (2, 9));
}

/// orig: Editor component › Sticky column › resets sticky column on backspace
#[test]
fn backspace_forgets_it() {
    let mut e = with("1234567890\n\n1234567890");
    to_column(&mut e, 8);
    assert_eq!(keys(&mut e, &[UP, UP]), (0, 8));
    assert_eq!(keys(&mut e, &["\x7f"]), (0, 7));
    assert_eq!(keys(&mut e, &[DOWN, DOWN]), (2, 7));
}

/// orig: Editor component › Sticky column › resets sticky column on Ctrl+A (move to line start)
#[test]
fn line_start_forgets_it() {
    let mut e = with("1234567890\n\n1234567890");
    to_column(&mut e, 8);
    feed(&mut e, UP);
    assert_eq!(keys(&mut e, &[CTRL_A]), (1, 0));
    assert_eq!(keys(&mut e, &[UP]), (0, 0));
}

/// orig: Editor component › Sticky column › resets sticky column on Ctrl+E (move to line end)
#[test]
fn line_end_forgets_it() {
    let mut e = with("12345\n\n1234567890");
    to_column(&mut e, 3);
    assert_eq!(keys(&mut e, &[UP, UP]), (0, 3));
    assert_eq!(keys(&mut e, &["\x05"]), (0, 5));
    assert_eq!(keys(&mut e, &[DOWN, DOWN]), (2, 5));
}

/// orig: Editor component › Sticky column › resets sticky column on word movement (Ctrl+Left)
#[test]
fn word_left_forgets_it() {
    let mut e = with("hello world\n\nhello world");
    assert_eq!(cursor(&e), (2, 11));
    assert_eq!(keys(&mut e, &[UP, UP]), (0, 11));
    assert_eq!(keys(&mut e, &["\x1b[1;5D"]), (0, 6));
    assert_eq!(keys(&mut e, &[DOWN, DOWN]), (2, 6));
}

/// orig: Editor component › Sticky column › resets sticky column on word movement (Ctrl+Right)
#[test]
fn word_right_forgets_it() {
    let mut e = with("hello world\n\nhello world");
    assert_eq!(keys(&mut e, &[UP, UP, CTRL_A]), (0, 0));
    assert_eq!(keys(&mut e, &[DOWN, DOWN]), (2, 0));
    assert_eq!(keys(&mut e, &["\x1b[1;5C"]), (2, 5));
    assert_eq!(keys(&mut e, &[UP, UP]), (0, 5));
}

/// orig: Editor component › Sticky column › resets sticky column on undo
#[test]
fn undo_forgets_it() {
    let mut e = with("1234567890\n\n1234567890");
    keys(&mut e, &[UP, UP]);
    to_column(&mut e, 8);
    assert_eq!(keys(&mut e, &[DOWN, DOWN]), (2, 8));
    assert_eq!(keys(&mut e, &["X"]), (2, 9));
    assert_eq!(e.text(), "1234567890\n\n12345678X90");
    assert_eq!(keys(&mut e, &[UP, UP]), (0, 9));
    assert_eq!(keys(&mut e, &["\x1b[45;5u"]), (2, 8));
    assert_eq!(e.text(), "1234567890\n\n1234567890");
    assert_eq!(keys(&mut e, &[UP, UP]), (0, 8));
}

/// orig: Editor component › Sticky column › handles multiple consecutive up/down movements
#[test]
fn several_short_lines_in_a_row() {
    let mut e = with("1234567890\nab\ncd\nef\n1234567890");
    to_column(&mut e, 7);
    assert_eq!(cursor(&e), (4, 7));
    for want in [(3, 2), (2, 2), (1, 2), (0, 7)] {
        assert_eq!(keys(&mut e, &[UP]), want);
    }
    for want in [(1, 2), (2, 2), (3, 2), (4, 7)] {
        assert_eq!(keys(&mut e, &[DOWN]), want);
    }
}

/// orig: Editor component › Sticky column › moves correctly through wrapped visual lines without getting stuck
#[test]
fn through_wrapped_rows() {
    let mut e = with("short\n123456789012345678901234567890");
    draw(&e, 15);
    assert_eq!(cursor(&e), (1, 30));
    assert_eq!(keys(&mut e, &[UP]).0, 1);
    assert_eq!(keys(&mut e, &[UP]).0, 1);
    assert_eq!(keys(&mut e, &[UP]).0, 0);
}

/// orig: Editor component › Sticky column › handles setText resetting sticky column
#[test]
fn set_text_forgets_it() {
    let mut e = with("1234567890\n\n1234567890");
    to_column(&mut e, 8);
    feed(&mut e, UP);
    e.set_text("abcdefghij\n\nabcdefghij");
    assert_eq!(cursor(&e), (2, 10));
    assert_eq!(keys(&mut e, &[UP, UP]), (0, 10));
}

/// orig: Editor component › Sticky column › sets preferredVisualCol when pressing right at end of prompt (last line)
#[test]
fn right_at_the_very_end_sets_it() {
    let mut e = with("111111111x1111111111\n\n333333333_");
    assert_eq!(keys(&mut e, &[UP, UP, "\x05"]), (0, 20));
    assert_eq!(keys(&mut e, &[DOWN, DOWN]), (2, 10));
    assert_eq!(keys(&mut e, &[RIGHT]), (2, 10));
    assert_eq!(keys(&mut e, &[UP, UP]), (0, 10));
}

/// orig: Editor component › Sticky column › handles editor resizes when preferredVisualCol is on the same line
#[test]
fn narrower_on_the_same_line() {
    let mut e = with("12345678901234567890\n\n12345678901234567890");
    to_column(&mut e, 15);
    assert_eq!(keys(&mut e, &[UP, UP]), (0, 15));
    draw(&e, 12);
    assert_eq!(keys(&mut e, &[DOWN, DOWN]).1, 4);
}

/// orig: Editor component › Sticky column › handles editor resizes when preferredVisualCol is on a different line
#[test]
fn narrower_on_another_line() {
    let mut e = with("short\n12345678901234567890");
    to_column(&mut e, 15);
    assert_eq!(cursor(&e), (1, 15));
    assert_eq!(keys(&mut e, &[UP]), (0, 5));
    draw(&e, 10);
    assert_eq!(keys(&mut e, &[DOWN]), (1, 8));
    assert_eq!(keys(&mut e, &[UP]), (0, 5));
    draw(&e, 80);
    assert_eq!(keys(&mut e, &[DOWN]), (1, 15));
}
