//! The prompt editor: history, backslash-Enter, Unicode editing and word movement.
//! orig-file: packages/tui/test/editor.test.ts

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use pi::tui::editor::{Editor, EditorOutcome};
use pi::ui_kit::keybindings::Keybindings;

fn key(e: &mut Editor, code: KeyCode, m: KeyModifiers) -> EditorOutcome {
    e.handle_key(&KeyEvent::new(code, m), &Keybindings::default())
}

fn up(e: &mut Editor) {
    key(e, KeyCode::Up, KeyModifiers::NONE);
}

fn down(e: &mut Editor) {
    key(e, KeyCode::Down, KeyModifiers::NONE);
}

fn left(e: &mut Editor) {
    key(e, KeyCode::Left, KeyModifiers::NONE);
}

fn typed(e: &mut Editor, text: &str) {
    for c in text.chars() {
        key(e, KeyCode::Char(c), KeyModifiers::NONE);
    }
}

fn enter(e: &mut Editor) -> EditorOutcome {
    key(e, KeyCode::Enter, KeyModifiers::NONE)
}

fn ctrl(e: &mut Editor, c: char) {
    key(e, KeyCode::Char(c), KeyModifiers::CONTROL);
}

/// The cursor's column on a single, unwrapped line.
fn column(e: &Editor) -> usize {
    e.layout(200).1.0
}

fn with_history(items: &[&str]) -> Editor {
    let mut e = Editor::new();
    for item in items {
        e.add_history(item);
    }
    e
}

/// orig: Editor component › Prompt history navigation › does nothing on Up arrow when history is empty
#[test]
fn up_without_history() {
    let mut e = Editor::new();
    up(&mut e);
    assert_eq!(e.text(), "");
}

/// orig: Editor component › Prompt history navigation › shows most recent history entry on Up arrow when editor is empty
#[test]
fn up_shows_latest() {
    let mut e = with_history(&["first prompt", "second prompt"]);
    up(&mut e);
    assert_eq!(e.text(), "second prompt");
}

/// orig: Editor component › Prompt history navigation › cycles through history entries on repeated Up arrow
#[test]
fn up_cycles_back() {
    let mut e = with_history(&["first", "second", "third"]);
    for want in ["third", "second", "first", "first"] {
        up(&mut e);
        assert_eq!(e.text(), want);
    }
}

/// orig: Editor component › Prompt history navigation › returns to empty editor on Down arrow after browsing history
#[test]
fn down_returns_to_empty() {
    let mut e = with_history(&["prompt"]);
    up(&mut e);
    assert_eq!(e.text(), "prompt");
    down(&mut e);
    assert_eq!(e.text(), "");
}

/// orig: Editor component › Prompt history navigation › navigates forward through history with Down arrow
#[test]
fn down_walks_forward() {
    let mut e = with_history(&["first", "second", "third"]);
    for _ in 0..3 {
        up(&mut e);
    }
    for want in ["second", "third", ""] {
        down(&mut e);
        assert_eq!(e.text(), want);
    }
}

/// orig: Editor component › Prompt history navigation › exits history mode when typing a character
#[test]
fn typing_edits_the_recalled_prompt() {
    let mut e = with_history(&["old prompt"]);
    up(&mut e);
    typed(&mut e, "x");
    assert_eq!(e.text(), "old promptx");
}

/// orig: Editor component › Prompt history navigation › exits history mode on setText
#[test]
fn set_text_leaves_history() {
    let mut e = with_history(&["first", "second"]);
    up(&mut e);
    e.set_text("");
    up(&mut e);
    assert_eq!(e.text(), "second");
}

/// orig: Editor component › Prompt history navigation › does not add empty strings to history
#[test]
fn blank_prompts_not_kept() {
    let mut e = with_history(&["", "   ", "valid"]);
    up(&mut e);
    assert_eq!(e.text(), "valid");
    up(&mut e);
    assert_eq!(e.text(), "valid");
}

/// orig: Editor component › Prompt history navigation › does not add consecutive duplicates to history
#[test]
fn consecutive_duplicates_kept_once() {
    let mut e = with_history(&["same", "same", "same"]);
    up(&mut e);
    up(&mut e);
    assert_eq!(e.text(), "same");
    down(&mut e);
    assert_eq!(e.text(), "");
}

/// orig: Editor component › Prompt history navigation › allows non-consecutive duplicates in history
#[test]
fn non_consecutive_duplicates_kept() {
    let mut e = with_history(&["first", "second", "first"]);
    for want in ["first", "second", "first"] {
        up(&mut e);
        assert_eq!(e.text(), want);
    }
}

/// orig: Editor component › Prompt history navigation › uses cursor movement instead of history when editor has content
#[test]
fn up_moves_the_cursor_in_text() {
    let mut e = with_history(&["history item"]);
    e.set_text("line1\nline2");
    up(&mut e);
    typed(&mut e, "X");
    assert_eq!(e.text(), "line1X\nline2");
}

/// orig: Editor component › Prompt history navigation › limits history to 100 entries
#[test]
fn history_holds_100() {
    let mut e = Editor::new();
    for i in 0..105 {
        e.add_history(&format!("prompt {i}"));
    }
    for _ in 0..100 {
        up(&mut e);
    }
    assert_eq!(e.text(), "prompt 5");
    up(&mut e);
    assert_eq!(e.text(), "prompt 5");
}

/// orig: Editor component › Prompt history navigation › allows cursor movement within multi-line history entry with Down
#[test]
fn multiline_entry_down_leaves() {
    let mut e = with_history(&["line1\nline2\nline3"]);
    up(&mut e);
    assert_eq!(e.text(), "line1\nline2\nline3");
    down(&mut e);
    assert_eq!(e.text(), "");
}

/// orig: Editor component › Prompt history navigation › allows cursor movement within multi-line history entry with Up
#[test]
fn multiline_entry_up_moves_first() {
    let mut e = with_history(&["older entry", "line1\nline2\nline3"]);
    up(&mut e);
    up(&mut e);
    assert_eq!(e.text(), "line1\nline2\nline3");
    up(&mut e);
    assert_eq!(e.text(), "line1\nline2\nline3");
    up(&mut e);
    assert_eq!(e.text(), "older entry");
}

/// orig: Editor component › Prompt history navigation › navigates from multi-line entry back to newer via Down after cursor movement
#[test]
fn multiline_entry_down_after_moving_up() {
    let mut e = with_history(&["line1\nline2\nline3"]);
    for _ in 0..3 {
        up(&mut e);
    }
    down(&mut e);
    assert_eq!(e.text(), "line1\nline2\nline3");
    down(&mut e);
    assert_eq!(e.text(), "line1\nline2\nline3");
    down(&mut e);
    assert_eq!(e.text(), "");
}

/// orig: Editor component › public state accessors › returns cursor position
#[test]
fn cursor_position() {
    let mut e = Editor::new();
    assert_eq!(e.layout(80).1, (0, 0));
    typed(&mut e, "abc");
    assert_eq!(e.layout(80).1, (3, 0));
    left(&mut e);
    assert_eq!(e.layout(80).1, (2, 0));
}

/// orig: Editor component › Backslash+Enter newline workaround › inserts backslash immediately (no buffering)
#[test]
fn backslash_shown_at_once() {
    let mut e = Editor::new();
    typed(&mut e, "\\");
    assert_eq!(e.text(), "\\");
}

/// orig: Editor component › Backslash+Enter newline workaround › converts standalone backslash to newline on Enter
#[test]
fn backslash_enter_is_newline() {
    let mut e = Editor::new();
    typed(&mut e, "\\");
    assert_eq!(enter(&mut e), EditorOutcome::Handled);
    assert_eq!(e.text(), "\n");
}

/// orig: Editor component › Backslash+Enter newline workaround › inserts backslash normally when followed by other characters
#[test]
fn backslash_then_text() {
    let mut e = Editor::new();
    typed(&mut e, "\\x");
    assert_eq!(e.text(), "\\x");
}

/// orig: Editor component › Backslash+Enter newline workaround › does not trigger newline when backslash is not immediately before cursor
#[test]
fn backslash_not_before_cursor_submits() {
    let mut e = Editor::new();
    typed(&mut e, "\\x");
    assert!(matches!(enter(&mut e), EditorOutcome::Submit(_)));
}

/// orig: Editor component › Backslash+Enter newline workaround › only removes one backslash when multiple are present
#[test]
fn only_one_backslash_removed() {
    let mut e = Editor::new();
    typed(&mut e, "\\\\\\");
    assert_eq!(e.text(), "\\\\\\");
    enter(&mut e);
    assert_eq!(e.text(), "\\\\\n");
}

/// orig: Editor component › Unicode text editing behavior › inserts mixed ASCII, umlauts, and emojis as literal text
#[test]
fn unicode_typed_literally() {
    let mut e = Editor::new();
    typed(&mut e, "Hello äöü 😀");
    assert_eq!(e.text(), "Hello äöü 😀");
}

/// orig: Editor component › Unicode text editing behavior › deletes single-code-unit unicode characters (umlauts) with Backspace
#[test]
fn backspace_umlaut() {
    let mut e = Editor::new();
    typed(&mut e, "äöü");
    key(&mut e, KeyCode::Backspace, KeyModifiers::NONE);
    assert_eq!(e.text(), "äö");
}

/// orig: Editor component › Unicode text editing behavior › deletes multi-code-unit emojis with single Backspace
#[test]
fn backspace_emoji() {
    let mut e = Editor::new();
    e.set_text("😀👍🏻");
    key(&mut e, KeyCode::Backspace, KeyModifiers::NONE);
    assert_eq!(e.text(), "😀");
}

/// orig: Editor component › Unicode text editing behavior › inserts characters at the correct position after cursor movement over umlauts
#[test]
fn insert_after_moving_over_umlauts() {
    let mut e = Editor::new();
    typed(&mut e, "äöü");
    left(&mut e);
    left(&mut e);
    typed(&mut e, "x");
    assert_eq!(e.text(), "äxöü");
}

/// orig: Editor component › Unicode text editing behavior › moves cursor across multi-code-unit emojis with single arrow key
#[test]
fn arrows_step_over_emoji() {
    let mut e = Editor::new();
    e.set_text("😀👍🏻🇨🇳");
    left(&mut e);
    left(&mut e);
    typed(&mut e, "x");
    assert_eq!(e.text(), "😀x👍🏻🇨🇳");
}

/// orig: Editor component › Unicode text editing behavior › preserves umlauts across line breaks
#[test]
fn umlauts_across_lines() {
    let mut e = Editor::new();
    typed(&mut e, "äöü");
    key(&mut e, KeyCode::Enter, KeyModifiers::SHIFT);
    typed(&mut e, "ÄÖÜ");
    assert_eq!(e.text(), "äöü\nÄÖÜ");
}

/// orig: Editor component › Unicode text editing behavior › replaces the entire document with unicode text via setText (paste simulation)
#[test]
fn set_text_unicode() {
    let mut e = Editor::new();
    e.set_text("Hällö Wörld! 😀 äöüÄÖÜß");
    assert_eq!(e.text(), "Hällö Wörld! 😀 äöüÄÖÜß");
}

/// orig: Editor component › Unicode text editing behavior › moves cursor to document start on Ctrl+A and inserts at the beginning
#[test]
fn ctrl_a_then_type() {
    let mut e = Editor::new();
    typed(&mut e, "ab");
    ctrl(&mut e, 'a');
    typed(&mut e, "x");
    assert_eq!(e.text(), "xab");
}

/// orig: Editor component › Unicode text editing behavior › deletes words correctly with Ctrl+W and Alt+Backspace
#[test]
fn delete_word_backward() {
    let mut e = Editor::new();
    for (text, want) in [
        ("foo bar baz", "foo bar "),
        ("foo bar   ", "foo "),
        ("foo bar...", "foo bar"),
        ("line one\nline two", "line one\nline "),
        ("line one\n", "line one"),
    ] {
        e.set_text(text);
        ctrl(&mut e, 'w');
        assert_eq!(e.text(), want, "from {text:?}");
    }
    e.set_text("foo 😀😀 bar");
    ctrl(&mut e, 'w');
    assert_eq!(e.text(), "foo 😀😀 ");
    ctrl(&mut e, 'w');
    assert_eq!(e.text(), "foo ");
    e.set_text("foo bar");
    key(&mut e, KeyCode::Backspace, KeyModifiers::ALT);
    assert_eq!(e.text(), "foo ");
}

/// orig: Editor component › Unicode text editing behavior › navigates words correctly with Ctrl+Left/Right
#[test]
fn word_movement() {
    let mut e = Editor::new();
    e.set_text("foo bar... baz");
    for want in [11, 7, 4] {
        key(&mut e, KeyCode::Left, KeyModifiers::CONTROL);
        assert_eq!(column(&e), want);
    }
    for want in [7, 10, 14] {
        key(&mut e, KeyCode::Right, KeyModifiers::CONTROL);
        assert_eq!(column(&e), want);
    }
    e.set_text("   foo bar");
    ctrl(&mut e, 'a');
    key(&mut e, KeyCode::Right, KeyModifiers::CONTROL);
    assert_eq!(column(&e), 6);
}

/// Editor rows for a terminal `width` columns wide (one column is kept for the cursor).
fn rows(text: &str, width: usize) -> Vec<String> {
    let mut e = Editor::new();
    e.set_text(text);
    e.layout(width - 1).0
}

fn fits(rows: &[String], width: usize) {
    for row in rows {
        assert!(pi::ui_kit::text::width(row) < width, "{row:?} in {rows:?}");
    }
}

/// orig: Editor component › Grapheme-aware text wrapping › wraps lines correctly when text contains wide emojis
#[test]
fn wide_emoji_fits() {
    let r = rows("Hello ✅ World", 20);
    assert_eq!(r, ["Hello ✅ World"]);
    fits(&r, 20);
}

/// orig: Editor component › Grapheme-aware text wrapping › wraps long text with emojis at correct positions
#[test]
fn emoji_rows_fit() {
    let r = rows("✅✅✅✅✅✅", 11);
    assert_eq!(r, ["✅✅✅✅✅", "✅"]);
}

/// orig: Editor component › Grapheme-aware text wrapping › wraps CJK characters correctly (each is 2 columns wide)
#[test]
fn cjk_rows() {
    assert_eq!(rows("日本語テスト", 11), ["日本語テス", "ト"]);
}

/// orig: Editor component › Grapheme-aware text wrapping › handles mixed ASCII and wide characters in wrapping
#[test]
fn mixed_width_one_row() {
    assert_eq!(rows("Test ✅ OK 日本", 16), ["Test ✅ OK 日本"]);
}

/// orig: Editor component › Grapheme-aware text wrapping › renders cursor correctly on wide characters
#[test]
fn cursor_after_wide_character() {
    let mut e = Editor::new();
    e.set_text("A✅B");
    assert_eq!(e.layout(19).1, (4, 0));
}

/// orig: Editor component › Grapheme-aware text wrapping › does not exceed terminal width with emoji at wrap boundary
#[test]
fn emoji_at_wrap_boundary() {
    let r = rows("0123456789✅", 11);
    assert_eq!(r, ["0123456789", "✅"]);
    fits(&r, 11);
}

/// orig: Editor component › Grapheme-aware text wrapping › shows cursor at end of line before wrap, wraps on next char
#[test]
fn cursor_at_row_end_then_wrap() {
    let mut e = Editor::new();
    typed(&mut e, "aaaaaaaaa");
    let (r, cursor) = e.layout(9);
    assert_eq!(r.len(), 1);
    assert_eq!(cursor, (9, 0));
    typed(&mut e, "a");
    assert_eq!(e.layout(9).0.len(), 2);
}

/// orig: Editor component › Word wrapping › breaks long words (URLs) at character level
#[test]
fn long_url_split() {
    let r = rows(
        "Check https://example.com/very/long/path/that/exceeds/width here",
        30,
    );
    assert!(r.len() > 1);
    fits(&r, 30);
}

/// orig: Editor component › Word wrapping › preserves multiple spaces within words on same line
#[test]
fn inner_spaces_kept() {
    assert!(rows("Word1   Word2    Word3", 50)[0].contains("Word1   Word2"));
}

/// orig: Editor component › Word wrapping › handles empty string
#[test]
fn empty_text_one_row() {
    assert_eq!(rows("", 40), [""]);
}

/// orig: Editor component › Word wrapping › handles single word that fits exactly
#[test]
fn exact_fit_one_row() {
    assert_eq!(rows("1234567890", 11), ["1234567890"]);
}
