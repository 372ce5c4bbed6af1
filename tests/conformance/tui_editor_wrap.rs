//! Word wrapping of the editor's rows: breaks at word boundaries, a space at the edge
//! stays at the end of its row, a word that does not fit the rest of a row moves to the
//! next (even one ending exactly at the edge), a run of spaces too long for a row is
//! broken at the edge, and what cannot fit anywhere (a long word, a paste marker wider
//! than the editor) is split so no row is wider than the editor.
//! orig-file: packages/tui/test/editor.test.ts

use crate::editor_input::{feed, type_text};
use pi::tui::editor::Editor;

/// The editor's rows for `text` at `width` columns of text.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut e = Editor::new();
    e.set_text(text);
    e.layout(width).0
}

fn no_row_wider(rows: &[String], width: usize) {
    for row in rows {
        assert!(pi::ui_kit::text::width(row) <= width, "{row:?} in {rows:?}");
    }
}

/// orig: Editor component › Word wrapping › wraps at word boundaries instead of mid-word
#[test]
fn breaks_between_words() {
    let text = "Hello world this is a test of word wrapping functionality";
    let rows = wrap(text, 39);
    assert!(rows.len() > 1);
    no_row_wider(&rows, 39);
    let words: Vec<&str> = text.split(' ').collect();
    for row in &rows {
        for word in row.split_whitespace() {
            assert!(words.contains(&word), "{word:?} is a whole word ({rows:?})");
        }
    }
    assert_eq!(rows.concat(), text, "nothing lost");
}

/// orig: Editor component › Word wrapping › does not start lines with leading whitespace after word wrap
#[test]
fn wrapped_rows_start_with_a_word() {
    let rows = wrap("Word1 Word2 Word3 Word4 Word5 Word6", 19);
    assert!(rows.len() > 1);
    for row in &rows[1..] {
        assert!(!row.starts_with(' '), "{rows:?}");
    }
}

/// orig: Editor component › Word wrapping › keeps whitespace at terminal width boundary on same line
#[test]
fn a_space_at_the_edge_stays() {
    assert_eq!(wrap("hello world test", 12), ["hello world ", "test"]);
}

/// orig: Editor component › Word wrapping › wraps word to next line when it fits width but not remaining space
#[test]
fn a_word_too_long_for_the_rest_moves_down() {
    assert_eq!(wrap("      aaaaaaaaaaaa", 12), ["      ", "aaaaaaaaaaaa"]);
}

/// orig: Editor component › Word wrapping › force-breaks when wide char after word boundary wrap still overflows
#[test]
fn a_wide_character_after_a_long_word_is_forced_down() {
    let line = format!(" {}你", "a".repeat(186));
    let rows = wrap(&line, 187);
    no_row_wider(&rows, 187);
    assert_eq!(rows.concat(), line, "nothing lost");
}

/// orig: Editor component › Word wrapping › wraps word to next line when it ends exactly at terminal width
#[test]
fn a_word_ending_at_the_edge_moves_down() {
    assert_eq!(wrap("hello world test", 11), ["hello ", "world test"]);
}

/// orig: Editor component › Word wrapping › handles unbreakable word filling width exactly followed by space
#[test]
fn a_full_row_word_pushes_its_space_down() {
    assert_eq!(wrap("aaaaaaaaaaaa aaaa", 12), ["aaaaaaaaaaaa", " aaaa"]);
}

const LOREM: &str = "Lorem ipsum dolor sit amet,";

/// `LOREM`, `spaces` spaces, then `consectetur`.
fn lorem(spaces: usize) -> String {
    format!("{LOREM}{}consectetur", " ".repeat(spaces))
}

/// orig: Editor component › Word wrapping › keeps word with multi-space and following word together when they fit
#[test]
fn a_space_run_stays_between_words_that_fit() {
    assert_eq!(
        wrap(&lorem(4), 30),
        ["Lorem ipsum dolor sit ", "amet,    consectetur"]
    );
}

/// orig: Editor component › Word wrapping › keeps word with multi-space and following word when they fill width exactly
#[test]
fn a_space_run_filling_the_row_exactly() {
    let rows = wrap(&lorem(14), 30);
    assert_eq!(
        rows,
        ["Lorem ipsum dolor sit ", "amet,              consectetur"]
    );
    assert_eq!(pi::ui_kit::text::width(&rows[1]), 30);
}

/// orig: Editor component › Word wrapping › splits when word plus multi-space plus word exceeds width
#[test]
fn one_space_more_splits_after_the_run() {
    assert_eq!(
        wrap(&lorem(15), 30),
        [
            "Lorem ipsum dolor sit ",
            "amet,               ",
            "consectetur"
        ]
    );
}

/// orig: Editor component › Word wrapping › breaks long whitespace at line boundary
#[test]
fn a_space_run_ending_at_the_edge() {
    let rows = wrap(&lorem(25), 30);
    assert_eq!(
        rows,
        [
            "Lorem ipsum dolor sit ",
            &format!("amet,{}", " ".repeat(25)),
            "consectetur"
        ]
    );
    no_row_wider(&rows, 30);
}

/// orig: Editor component › Word wrapping › breaks long whitespace at line boundary 2
#[test]
fn a_space_run_past_the_edge_breaks_there() {
    let rows = wrap(&lorem(26), 30);
    assert_eq!(
        rows,
        [
            "Lorem ipsum dolor sit ",
            &format!("amet,{}", " ".repeat(25)),
            " consectetur"
        ]
    );
    no_row_wider(&rows, 30);
}

/// orig: Editor component › Word wrapping › breaks whitespace spanning full lines
#[test]
fn a_space_run_longer_than_a_row() {
    let rows = wrap(&lorem(37), 30);
    assert_eq!(
        rows,
        [
            "Lorem ipsum dolor sit ",
            &format!("amet,{}", " ".repeat(25)),
            &format!("{}consectetur", " ".repeat(12))
        ]
    );
    no_row_wider(&rows, 30);
}

/// An editor holding `before`, a 20-line paste (`[paste #1 +20 lines]`, 20 columns) and
/// `after`, each marker being one unit; more markers with `more`.
fn with_markers(before: &str, markers: usize, after: &str) -> Editor {
    let mut e = Editor::new();
    type_text(&mut e, before);
    for n in 0..markers {
        let body = vec!["line"; 20 + 10 * n].join("\n");
        feed(&mut e, &format!("\x1b[200~{body}\x1b[201~"));
    }
    type_text(&mut e, after);
    e
}

/// The rows at `width`, checked to fit and to give the text back.
fn marker_rows(e: &Editor, width: usize) -> Vec<String> {
    let rows = e.layout(width).0;
    no_row_wider(&rows, width);
    assert_eq!(rows.concat(), e.text(), "nothing lost");
    rows
}

/// orig: Editor component › Word wrapping › splits oversized atomic segment across multiple chunks
#[test]
fn a_wide_marker_between_letters_is_split() {
    let e = with_markers("A", 1, "B");
    assert_eq!(e.text(), "A[paste #1 +20 lines]B");
    let rows = marker_rows(&e, 10);
    assert!(rows.len() >= 3, "{rows:?}");
    // The marker is still one unit for the cursor: one Left from the end passes B, the
    // next passes the whole marker.
    let mut e = e;
    feed(&mut e, "\x1b[D");
    feed(&mut e, "\x1b[D");
    assert_eq!(e.cursor().2, 1);
}

/// orig: Editor component › Word wrapping › splits oversized atomic segment at start of line
#[test]
fn a_wide_marker_at_the_start_is_split() {
    let e = with_markers("", 1, "B");
    let rows = marker_rows(&e, 10);
    assert!(rows.last().unwrap().contains('B'), "{rows:?}");
    assert!(rows.len() >= 2);
}

/// orig: Editor component › Word wrapping › splits oversized atomic segment at end of line
#[test]
fn a_wide_marker_at_the_end_is_split() {
    let e = with_markers("A", 1, "");
    let rows = marker_rows(&e, 10);
    assert_eq!(rows[0], "A");
    assert!(rows.len() >= 3, "{rows:?}");
}

/// orig: Editor component › Word wrapping › splits consecutive oversized atomic segments
#[test]
fn two_wide_markers_in_a_row_are_split() {
    let e = with_markers("", 2, "");
    assert_eq!(e.text(), "[paste #1 +20 lines][paste #2 +30 lines]");
    let rows = marker_rows(&e, 10);
    assert!(rows.len() >= 4, "{rows:?}");
}

/// orig: Editor component › Word wrapping › wraps normally after oversized atomic segment
#[test]
fn words_wrap_as_usual_after_a_wide_marker() {
    let e = with_markers("", 1, " hello world");
    let rows = marker_rows(&e, 10);
    assert_eq!(rows.last().unwrap(), "world");
}
