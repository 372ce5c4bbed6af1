//! Large pastes collapse to a `[paste #n +N lines]` marker that is one piece for the
//! cursor: one step of Left/Right, one Backspace or Delete, one word. Text that merely
//! looks like a marker (no such paste) is ordinary text. Sending expands the marker.
//! orig-file: packages/tui/test/editor.test.ts

use crate::editor_input::{cursor, feed, type_text};
use pi::tui::editor::{Editor, EditorOutcome};
use pi::ui_kit::text::width;

const RIGHT: &str = "\x1b[C";
const LEFT: &str = "\x1b[D";
const CTRL_A: &str = "\x01";

/// Paste `lines` lines of `line` with bracketed paste.
fn paste_lines(e: &mut Editor, lines: usize) {
    let body = vec!["line"; lines].join("\n");
    feed(e, &format!("\x1b[200~{body}\x1b[201~"));
}

/// The first marker in the text.
fn marker(e: &Editor) -> String {
    let text = e.text();
    let start = text.find("[paste #").expect("a marker");
    let end = start + text[start..].find(']').unwrap() + 1;
    text[start..end].to_string()
}

/// `A`, a 20-line paste, `B`.
fn a_marker_b() -> (Editor, usize) {
    let mut e = Editor::new();
    feed(&mut e, "A");
    paste_lines(&mut e, 20);
    feed(&mut e, "B");
    let len = marker(&e).len();
    (e, len)
}

/// Every drawn row fits `width` columns (one is the cursor's).
fn fits(e: &Editor, width_: usize) {
    let (rows, (col, _)) = e.layout(width_ - 1);
    for row in &rows {
        assert!(
            width(row.trim_end()) < width_,
            "{row:?} wider than {width_}"
        );
    }
    assert!(col < width_);
}

/// orig: Editor component › Paste marker atomic behavior › creates a paste marker for large pastes
#[test]
fn a_large_paste_becomes_a_marker() {
    let mut e = Editor::new();
    paste_lines(&mut e, 20);
    assert_eq!(e.text(), "[paste #1 +20 lines]");
}

/// orig: Editor component › Paste marker atomic behavior › treats paste marker as single unit for right arrow
#[test]
fn right_steps_over_it() {
    let (mut e, len) = a_marker_b();
    feed(&mut e, CTRL_A);
    assert_eq!(cursor(&e), (0, 0));
    for want in [1, 1 + len, 2 + len] {
        feed(&mut e, RIGHT);
        assert_eq!(cursor(&e), (0, want));
    }
}

/// orig: Editor component › Paste marker atomic behavior › treats paste marker as single unit for left arrow
#[test]
fn left_steps_over_it() {
    let (mut e, len) = a_marker_b();
    for want in [1 + len, 1, 0] {
        feed(&mut e, LEFT);
        assert_eq!(cursor(&e), (0, want));
    }
}

/// orig: Editor component › Paste marker atomic behavior › treats paste marker as single unit for backspace
#[test]
fn backspace_deletes_it_whole() {
    let (mut e, len) = a_marker_b();
    feed(&mut e, CTRL_A);
    feed(&mut e, RIGHT);
    feed(&mut e, RIGHT);
    assert_eq!(cursor(&e), (0, 1 + len));
    feed(&mut e, "\x7f");
    assert_eq!(e.text(), "AB");
    assert_eq!(cursor(&e), (0, 1));
}

/// orig: Editor component › Paste marker atomic behavior › treats paste marker as single unit for forward delete
#[test]
fn delete_deletes_it_whole() {
    let (mut e, _) = a_marker_b();
    feed(&mut e, CTRL_A);
    feed(&mut e, RIGHT);
    feed(&mut e, "\x1b[3~");
    assert_eq!(e.text(), "AB");
    assert_eq!(cursor(&e), (0, 1));
}

/// orig: Editor component › Paste marker atomic behavior › treats paste marker as single unit for word movement
#[test]
fn a_word_move_takes_it_whole() {
    let mut e = Editor::new();
    type_text(&mut e, "X ");
    paste_lines(&mut e, 20);
    type_text(&mut e, " Y");
    let len = marker(&e).len();
    feed(&mut e, CTRL_A);
    feed(&mut e, "\x1b[1;5C");
    assert_eq!(cursor(&e), (0, 1));
    feed(&mut e, "\x1b[1;5C");
    assert_eq!(cursor(&e), (0, 2 + len));
}

/// orig: Editor component › Paste marker atomic behavior › undo restores marker after backspace deletion
#[test]
fn undo_brings_it_back() {
    let (mut e, _) = a_marker_b();
    let before = e.text();
    feed(&mut e, CTRL_A);
    feed(&mut e, RIGHT);
    feed(&mut e, RIGHT);
    feed(&mut e, "\x7f");
    assert_eq!(e.text(), "AB");
    feed(&mut e, "\x1b[45;5u");
    assert_eq!(e.text(), before);
    assert_eq!(
        e.expanded_text(),
        format!("A{}B", vec!["line"; 20].join("\n"))
    );
}

/// orig: Editor component › Paste marker atomic behavior › handles multiple paste markers in same line
#[test]
fn two_markers_on_a_line() {
    let mut e = Editor::new();
    paste_lines(&mut e, 20);
    feed(&mut e, " ");
    paste_lines(&mut e, 20);
    assert_eq!(e.text(), "[paste #1 +20 lines] [paste #2 +20 lines]");
    let (first, second) = ("[paste #1 +20 lines]".len(), "[paste #2 +20 lines]".len());
    feed(&mut e, CTRL_A);
    for want in [first, first + 1, first + 1 + second] {
        feed(&mut e, RIGHT);
        assert_eq!(cursor(&e), (0, want));
    }
}

/// orig: Editor component › Paste marker atomic behavior › does not treat manually typed marker-like text as atomic (no valid paste ID)
#[test]
fn typed_marker_text_is_ordinary() {
    let mut e = Editor::new();
    type_text(&mut e, "[paste #99 +5 lines]");
    feed(&mut e, CTRL_A);
    feed(&mut e, RIGHT);
    assert_eq!(cursor(&e), (0, 1));
    feed(&mut e, "\x05");
    feed(&mut e, "\x7f");
    assert_eq!(e.text(), "[paste #99 +5 lines");
}

/// orig: Editor component › Paste marker atomic behavior › does not crash when paste marker is wider than terminal width
#[test]
fn a_marker_wider_than_the_editor() {
    let mut e = Editor::new();
    paste_lines(&mut e, 47);
    assert!(width(&marker(&e)) > 8);
    fits(&e, 8);
}

/// orig: Editor component › Paste marker atomic behavior › does not crash when text + paste marker exceeds terminal width with cursor on marker
#[test]
fn cursor_on_a_marker_at_a_wrap() {
    let mut e = Editor::new();
    type_text(&mut e, &"b".repeat(35));
    paste_lines(&mut e, 27);
    type_text(&mut e, "bbbb");
    for _ in 0..5 {
        feed(&mut e, LEFT);
    }
    assert_eq!(cursor(&e), (0, 35));
    fits(&e, 54);
}

/// orig: Editor component › Paste marker atomic behavior › wordWrapLine re-checks overflow after backtracking to wrap opportunity
#[test]
fn wrapping_after_a_space_then_a_marker() {
    let mut e = Editor::new();
    type_text(&mut e, &format!(" {}", "b".repeat(35)));
    paste_lines(&mut e, 27);
    type_text(&mut e, "bbbb");
    fits(&e, 54);
}

const LITERAL: &str = "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\nline 9\nline 10\ntokens $1 $2 $& $$ $` $' end";

/// orig: Editor component › Paste marker atomic behavior › expands large pasted content literally in getExpandedText
#[test]
fn expanded_literally() {
    let mut e = Editor::new();
    feed(&mut e, &format!("\x1b[200~{LITERAL}\x1b[201~"));
    assert_eq!(e.text(), "[paste #1 +11 lines]");
    assert_eq!(e.expanded(), LITERAL);
}

/// orig: Editor component › Paste marker atomic behavior › submits large pasted content literally
#[test]
fn sent_literally() {
    let mut e = Editor::new();
    feed(&mut e, &format!("\x1b[200~{LITERAL}\x1b[201~"));
    assert_eq!(feed(&mut e, "\r"), EditorOutcome::Submit(LITERAL.into()));
}
