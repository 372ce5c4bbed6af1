//! Word wrapping of the editor's rows: breaks at word boundaries, a space at the edge
//! stays at the end of its row, a word that does not fit the rest of a row moves to the
//! next, and what cannot fit anywhere is split so no row is wider than the editor.
//! orig-file: packages/tui/test/editor.test.ts

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
