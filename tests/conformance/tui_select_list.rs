//! The rows of the completion menu: one line per choice, descriptions on one line and
//! in one column whatever the labels' lengths, within the label column's bounds.
//! orig-file: packages/tui/test/select-list.test.ts

use pi::tui::chrome::select_list::{PrimaryColumn, RowStyles, select_row};
use pi::ui_kit::text::width;

/// The rows for `items` (label, description) at `width`, the first selected.
fn render(items: &[(&str, &str)], width_: usize, bounds: PrimaryColumn) -> Vec<String> {
    let column = bounds.width_for(items.iter().map(|(l, _)| *l));
    items
        .iter()
        .enumerate()
        .map(|(i, (label, desc))| {
            let line = select_row(label, desc, i == 0, width_, column, RowStyles::default());
            line.spans.iter().map(|s| s.content.as_ref()).collect()
        })
        .collect()
}

/// The display column where `text` starts in `line`.
fn column_of(line: &str, text: &str) -> usize {
    let at = line
        .find(text)
        .unwrap_or_else(|| panic!("{text:?} in {line:?}"));
    width(&line[..at])
}

const LONG: &str = "very-long-command-name-that-needs-truncation";

/// orig: SelectList › normalizes multiline descriptions to single line
#[test]
fn a_multiline_description_is_one_line() {
    let rows = render(
        &[("test", "Line one\nLine two\r\nLine three")],
        100,
        PrimaryColumn::SLASH,
    );
    assert!(!rows[0].contains('\n') && !rows[0].contains('\r'));
    assert!(rows[0].contains("Line one Line two Line three"), "{rows:?}");
}

/// orig: SelectList › keeps descriptions aligned when the primary text is truncated
#[test]
fn descriptions_align_past_a_cut_label() {
    let rows = render(
        &[("short", "short description"), (LONG, "long description")],
        80,
        PrimaryColumn::SLASH,
    );
    assert!(!rows[1].contains(LONG), "the long label is cut: {rows:?}");
    assert_eq!(
        column_of(&rows[0], "short description"),
        column_of(&rows[1], "long description")
    );
}

/// orig: SelectList › uses the configured minimum primary column width
#[test]
fn the_least_column_width() {
    let bounds = PrimaryColumn { min: 12, max: 20 };
    let rows = render(&[("a", "first"), ("bb", "second")], 80, bounds);
    assert_eq!(column_of(&rows[0], "first"), 14);
    assert_eq!(column_of(&rows[1], "second"), 14);
}

/// orig: SelectList › uses the configured maximum primary column width
#[test]
fn the_most_column_width() {
    let bounds = PrimaryColumn { min: 12, max: 20 };
    let rows = render(&[(LONG, "first"), ("short", "second")], 80, bounds);
    assert_eq!(column_of(&rows[0], "first"), 22);
    assert_eq!(column_of(&rows[1], "second"), 22);
}

/// orig: SelectList › allows overriding primary truncation while preserving description alignment
#[test]
fn a_cut_label_ends_in_an_ellipsis_and_keeps_alignment() {
    // Differs: the cut is not a caller's function here; a label is always cut with `…`.
    let bounds = PrimaryColumn { min: 12, max: 12 };
    let rows = render(&[(LONG, "first"), ("short", "second")], 80, bounds);
    assert!(rows[0].contains('…'), "{rows:?}");
    assert!(width(rows[0].split('…').next().unwrap()) <= 2 + 10);
    assert_eq!(column_of(&rows[0], "first"), column_of(&rows[1], "second"));
    assert_eq!(column_of(&rows[0], "first"), 14);
}
