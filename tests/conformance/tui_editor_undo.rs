//! Undo in the editor: a run of word characters is one step, each space and new line its
//! own; deletions, kills, yanks, pastes, programmatic inserts and `set_text` undo in one
//! step; history browsing is one step; sending forgets everything. Undo is Ctrl+- as a
//! Kitty terminal sends it (`ESC [ 45 ; 5 u`).
//! orig-file: packages/tui/test/editor.test.ts

use crate::editor_input::{cursor, feed, type_text};
use pi::tui::editor::{Editor, EditorOutcome};

const UNDO: &str = "\x1b[45;5u";
const CTRL_A: &str = "\x01";
const RIGHT: &str = "\x1b[C";

fn undo(e: &mut Editor) -> String {
    feed(e, UNDO);
    e.text()
}

fn typed(text: &str) -> Editor {
    let mut e = Editor::new();
    type_text(&mut e, text);
    assert_eq!(e.text(), text);
    e
}

/// `text` with the cursor `n` characters from the start.
fn at(text: &str, n: usize) -> Editor {
    let mut e = Editor::new();
    e.set_text(text);
    feed(&mut e, CTRL_A);
    for _ in 0..n {
        feed(&mut e, RIGHT);
    }
    e
}

/// orig: Editor component › Undo › does nothing when undo stack is empty
#[test]
fn nothing_to_undo() {
    let mut e = Editor::new();
    assert_eq!(undo(&mut e), "");
}

/// orig: Editor component › Undo › coalesces consecutive word characters into one undo unit
#[test]
fn word_characters_coalesce() {
    let mut e = typed("hello world");
    assert_eq!(undo(&mut e), "hello");
    assert_eq!(undo(&mut e), "");
}

/// orig: Editor component › Undo › undoes spaces one at a time
#[test]
fn spaces_one_at_a_time() {
    let mut e = typed("hello  ");
    assert_eq!(undo(&mut e), "hello ");
    assert_eq!(undo(&mut e), "hello");
    assert_eq!(undo(&mut e), "");
}

/// orig: Editor component › Undo › undoes newlines and signals next word to capture state
#[test]
fn newlines_are_their_own_step() {
    let mut e = Editor::new();
    type_text(&mut e, "hello");
    feed(&mut e, "\n");
    type_text(&mut e, "world");
    assert_eq!(e.text(), "hello\nworld");
    assert_eq!(undo(&mut e), "hello\n");
    assert_eq!(undo(&mut e), "hello");
    assert_eq!(undo(&mut e), "");
}

/// orig: Editor component › Undo › undoes backspace
#[test]
fn backspace() {
    let mut e = typed("hello");
    feed(&mut e, "\x7f");
    assert_eq!(e.text(), "hell");
    assert_eq!(undo(&mut e), "hello");
}

/// orig: Editor component › Undo › undoes forward delete
#[test]
fn forward_delete() {
    let mut e = typed("hello");
    feed(&mut e, CTRL_A);
    feed(&mut e, RIGHT);
    feed(&mut e, "\x1b[3~");
    assert_eq!(e.text(), "hllo");
    assert_eq!(undo(&mut e), "hello");
}

/// orig: Editor component › Undo › undoes Ctrl+W (delete word backward)
#[test]
fn ctrl_w() {
    let mut e = typed("hello world");
    feed(&mut e, "\x17");
    assert_eq!(e.text(), "hello ");
    assert_eq!(undo(&mut e), "hello world");
}

/// orig: Editor component › Undo › undoes Ctrl+K (delete to line end)
#[test]
fn ctrl_k() {
    let mut e = typed("hello world");
    feed(&mut e, CTRL_A);
    for _ in 0..6 {
        feed(&mut e, RIGHT);
    }
    feed(&mut e, "\x0b");
    assert_eq!(e.text(), "hello ");
    assert_eq!(undo(&mut e), "hello world");
    feed(&mut e, "|");
    assert_eq!(e.text(), "hello |world");
}

/// orig: Editor component › Undo › undoes Ctrl+U (delete to line start)
#[test]
fn ctrl_u() {
    let mut e = typed("hello world");
    feed(&mut e, CTRL_A);
    for _ in 0..6 {
        feed(&mut e, RIGHT);
    }
    feed(&mut e, "\x15");
    assert_eq!(e.text(), "world");
    assert_eq!(undo(&mut e), "hello world");
}

/// orig: Editor component › Undo › undoes yank
#[test]
fn yank() {
    let mut e = typed("hello ");
    feed(&mut e, "\x17");
    feed(&mut e, "\x19");
    assert_eq!(e.text(), "hello ");
    assert_eq!(undo(&mut e), "");
}

/// orig: Editor component › Undo › undoes single-line paste atomically
#[test]
fn single_line_paste() {
    let mut e = at("hello world", 5);
    feed(&mut e, "\x1b[200~beep boop\x1b[201~");
    assert_eq!(e.text(), "hellobeep boop world");
    assert_eq!(undo(&mut e), "hello world");
    feed(&mut e, "|");
    assert_eq!(e.text(), "hello| world");
}

/// orig: Editor component › Undo › undoes multi-line paste atomically
#[test]
fn multi_line_paste() {
    let mut e = at("hello world", 5);
    feed(&mut e, "\x1b[200~line1\nline2\nline3\x1b[201~");
    assert_eq!(e.text(), "helloline1\nline2\nline3 world");
    assert_eq!(undo(&mut e), "hello world");
    feed(&mut e, "|");
    assert_eq!(e.text(), "hello| world");
}

/// orig: Editor component › Undo › undoes insertTextAtCursor atomically
#[test]
fn programmatic_insert() {
    let mut e = at("hello world", 5);
    e.insert("/tmp/image.png");
    assert_eq!(e.text(), "hello/tmp/image.png world");
    assert_eq!(undo(&mut e), "hello world");
    feed(&mut e, "|");
    assert_eq!(e.text(), "hello| world");
}

/// orig: Editor component › Undo › insertTextAtCursor handles multiline text
#[test]
fn programmatic_multiline_insert() {
    let mut e = at("hello world", 5);
    e.insert("line1\nline2\nline3");
    assert_eq!(e.text(), "helloline1\nline2\nline3 world");
    assert_eq!(cursor(&e), (2, 5));
    assert_eq!(undo(&mut e), "hello world");
}

/// orig: Editor component › Undo › insertTextAtCursor normalizes CRLF and CR line endings
#[test]
fn programmatic_insert_normalizes_line_endings() {
    let mut e = Editor::new();
    e.insert("a\r\nb\r\nc");
    assert_eq!(e.text(), "a\nb\nc");
    assert_eq!(undo(&mut e), "");
    e.insert("x\ry\rz");
    assert_eq!(e.text(), "x\ny\nz");
}

/// orig: Editor component › Undo › undoes setText to empty string
#[test]
fn set_text_to_empty() {
    let mut e = typed("hello world");
    e.set_text("");
    assert_eq!(e.text(), "");
    assert_eq!(undo(&mut e), "hello world");
}

/// orig: Editor component › Undo › clears undo stack on submit
#[test]
fn sending_forgets_undo() {
    let mut e = typed("hello");
    assert_eq!(feed(&mut e, "\r"), EditorOutcome::Submit("hello".into()));
    assert_eq!(e.text(), "");
    assert_eq!(undo(&mut e), "");
}

/// orig: Editor component › Undo › exits history browsing mode on undo
#[test]
fn undo_leaves_history_browsing() {
    let mut e = Editor::new();
    e.add_history("hello");
    type_text(&mut e, "world");
    feed(&mut e, "\x17");
    assert_eq!(e.text(), "");
    feed(&mut e, "\x1b[A");
    assert_eq!(e.text(), "hello");
    assert_eq!(undo(&mut e), "");
    assert_eq!(undo(&mut e), "world");
}

/// orig: Editor component › Undo › undo restores to pre-history state even after multiple history navigations
#[test]
fn history_browsing_is_one_step() {
    let mut e = Editor::new();
    for h in ["first", "second", "third"] {
        e.add_history(h);
    }
    type_text(&mut e, "current");
    feed(&mut e, "\x17");
    for want in ["third", "second", "first"] {
        feed(&mut e, "\x1b[A");
        assert_eq!(e.text(), want);
    }
    assert_eq!(undo(&mut e), "");
    assert_eq!(undo(&mut e), "current");
}

/// orig: Editor component › Undo › cursor movement starts new undo unit
#[test]
fn cursor_movement_starts_a_new_step() {
    let mut e = typed("hello world");
    for _ in 0..5 {
        feed(&mut e, "\x1b[D");
    }
    type_text(&mut e, "lol");
    assert_eq!(e.text(), "hello lolworld");
    assert_eq!(undo(&mut e), "hello world");
    feed(&mut e, "|");
    assert_eq!(e.text(), "hello |world");
}

/// orig: Editor component › Undo › no-op delete operations do not push undo snapshots
#[test]
fn no_op_deletes_take_no_step() {
    let mut e = typed("hello");
    feed(&mut e, "\x17");
    assert_eq!(e.text(), "");
    feed(&mut e, "\x17");
    feed(&mut e, "\x17");
    assert_eq!(undo(&mut e), "hello");
}

/// orig: Editor component › Undo › undoes autocomplete
#[test]
fn accepted_completion() {
    // The app accepts a completion by replacing the word before the cursor.
    let mut e = typed("di");
    e.replace_word_before_cursor("dist/");
    assert_eq!(e.text(), "dist/");
    assert_eq!(undo(&mut e), "di");
}
