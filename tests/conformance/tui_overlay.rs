//! Overlays of Lua components (`ctx.ui.custom` with `overlay = true`): the options table
//! as an extension writes it, read by pi's parser, placed by anchor, margin, offsets and
//! height limits, and drawn over the screen, later overlays on top.
//! orig-file: packages/tui/test/overlay-options.test.ts

use mlua::{Lua, Table};
use pi::lua::ui::overlay_options::overlay_options;
use pi::lua::ui::surfaces::OverlayOptions;
use pi::tui::chrome::lua_surfaces::{LuaChrome, ansi_lines};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

/// The options of `{ overlay = true, overlayOptions = <opts> }`.
fn options(opts: &str) -> OverlayOptions {
    let lua = Lua::new();
    let t: Table = lua
        .load(format!(
            "return {{ overlay = true, overlayOptions = {opts} }}"
        ))
        .eval()
        .unwrap();
    overlay_options(Some(&t)).unwrap().unwrap()
}

/// The screen (`cols` x `rows`, filled with `base` rows) after drawing the overlays.
fn draw(cols: u16, rows: u16, base: &[&str], overlays: &[(&str, &[&str])]) -> Vec<String> {
    let area = Rect::new(0, 0, cols, rows);
    let mut buf = Buffer::empty(area);
    for (y, line) in base.iter().enumerate() {
        buf.set_string(0, y as u16, line, ratatui::style::Style::default());
    }
    let chrome = LuaChrome {
        overlays: overlays
            .iter()
            .map(|(opts, lines)| {
                let lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                (options(opts), ansi_lines(&lines))
            })
            .collect(),
        ..LuaChrome::default()
    };
    chrome.draw_overlays_in(&mut buf, area);
    // One string per row; the cell after a wide character is its right half.
    (0..rows)
        .map(|y| {
            let mut row = String::new();
            let mut x = 0;
            while x < cols {
                let symbol = buf[(x, y)].symbol();
                row.push_str(symbol);
                x += pi::ui_kit::text::width(symbol).max(1) as u16;
            }
            row
        })
        .collect()
}

fn one(cols: u16, rows: u16, opts: &str, lines: &[&str]) -> Vec<String> {
    draw(cols, rows, &[], &[(opts, lines)])
}

/// (row, column) where `text` is drawn.
fn find(screen: &[String], text: &str) -> (usize, usize) {
    for (r, row) in screen.iter().enumerate() {
        if let Some(c) = row.find(text) {
            return (r, row[..c].chars().count());
        }
    }
    panic!("{text:?} on {screen:#?}");
}

/// orig: TUI overlay options › width overflow protection › should truncate overlay lines that exceed declared width
#[test]
fn a_line_wider_than_the_overlay_is_cut() {
    let screen = one(80, 24, "{ width = 20 }", &[&"X".repeat(100)]);
    let (row, col) = find(&screen, "X");
    assert_eq!(screen[row].matches('X').count(), 20, "{:?}", screen[row]);
    assert_eq!(col, 30, "centered");
}

/// orig: TUI overlay options › width overflow protection › should handle overlay composited on styled base content
#[test]
fn an_overlay_over_content() {
    let base: Vec<String> = (0..24)
        .map(|i| format!("base row {i} {}", "=".repeat(60)))
        .collect();
    let base: Vec<&str> = base.iter().map(String::as_str).collect();
    let screen = draw(
        80,
        24,
        &base,
        &[("{ width = 20, anchor = \"center\" }", &["OVERLAY"])],
    );
    let (row, col) = find(&screen, "OVERLAY");
    assert_eq!(col, 30);
    assert!(
        screen[row].starts_with(&format!("base row {row} ")),
        "{:?}",
        screen[row]
    );
    assert!(screen[row + 1].starts_with(&format!("base row {} ====", row + 1)));
}

/// orig: TUI overlay options › width overflow protection › should handle wide characters at overlay boundary
#[test]
fn wide_characters_at_the_edge_of_an_odd_width() {
    let screen = one(
        80,
        24,
        "{ width = 15, anchor = \"top-left\" }",
        &["中文字符中文字符中文字符"],
    );
    let drawn: String = screen[0].chars().take(15).collect();
    assert!(drawn.starts_with("中文字符中文字"), "{drawn:?}");
    assert!(
        !screen[0][drawn.len()..].contains('符'),
        "nothing past the overlay"
    );
}

/// orig: TUI overlay options › width percentage › should render overlay at percentage of terminal width
#[test]
fn a_percentage_width() {
    assert_eq!(options("{ width = \"50%\" }").content_width(100), 50);
    // Unset, an overlay is up to 80 columns.
    assert_eq!(options("{}").content_width(100), 80);
    assert_eq!(options("{}").content_width(60), 60);
}

/// orig: TUI overlay options › width percentage › should respect minWidth when widthPercent results in smaller width
#[test]
fn min_width_widens_a_small_percentage() {
    assert_eq!(
        options("{ width = \"10%\", minWidth = 30 }").content_width(100),
        30
    );
    assert_eq!(
        options("{ width = \"50%\", minWidth = 30 }").content_width(100),
        50
    );
}

/// orig: TUI overlay options › anchor positioning › should position overlay at top-left
#[test]
fn top_left() {
    let screen = one(
        80,
        24,
        "{ anchor = \"top-left\", width = 10 }",
        &["TOP-LEFT"],
    );
    assert!(screen[0].starts_with("TOP-LEFT"), "{:?}", screen[0]);
}

/// orig: TUI overlay options › anchor positioning › should position overlay at bottom-right
#[test]
fn bottom_right() {
    let screen = one(
        80,
        24,
        "{ anchor = \"bottom-right\", width = 10 }",
        &["BTM-RIGHT"],
    );
    assert_eq!(find(&screen, "BTM-RIGHT"), (23, 70));
}

/// orig: TUI overlay options › anchor positioning › should position overlay at top-center
#[test]
fn top_center() {
    let screen = one(
        80,
        24,
        "{ anchor = \"top-center\", width = 10 }",
        &["CENTERED"],
    );
    let (row, col) = find(&screen, "CENTERED");
    assert_eq!(row, 0);
    assert!((30..=40).contains(&col), "{col}");
}

/// orig: TUI overlay options › margin › should clamp negative margins to zero
#[test]
fn negative_margins_count_as_zero() {
    let screen = one(
        80,
        24,
        "{ anchor = \"top-left\", width = 12, margin = { top = -5, left = -10, right = 0, bottom = 0 } }",
        &["NEG-MARGIN"],
    );
    assert!(screen[0].starts_with("NEG-MARGIN"), "{:?}", screen[0]);
    let screen = one(
        80,
        24,
        "{ anchor = \"top-left\", width = 12, margin = -3 }",
        &["NEG"],
    );
    assert!(screen[0].starts_with("NEG"));
}

/// orig: TUI overlay options › margin › should respect margin as number
#[test]
fn a_margin_number() {
    let screen = one(
        80,
        24,
        "{ anchor = \"top-left\", width = 10, margin = 5 }",
        &["MARGIN"],
    );
    assert_eq!(find(&screen, "MARGIN"), (5, 5));
}

/// orig: TUI overlay options › margin › should respect margin object
#[test]
fn a_margin_per_side() {
    let screen = one(
        80,
        24,
        "{ anchor = \"top-left\", width = 10, margin = { top = 2, left = 3, right = 0, bottom = 0 } }",
        &["MARGIN"],
    );
    assert_eq!(find(&screen, "MARGIN"), (2, 3));
}

/// orig: TUI overlay options › offset › should apply offsetX and offsetY from anchor position
#[test]
fn offsets_from_the_anchor() {
    let screen = one(
        80,
        24,
        "{ anchor = \"top-left\", width = 10, offsetX = 10, offsetY = 5 }",
        &["OFFSET"],
    );
    assert_eq!(find(&screen, "OFFSET"), (5, 10));
}

/// orig: TUI overlay options › maxHeight › should truncate overlay to maxHeight
#[test]
fn max_height_in_rows() {
    let screen = one(
        80,
        24,
        "{ maxHeight = 3 }",
        &["Line 1", "Line 2", "Line 3", "Line 4", "Line 5"],
    );
    let all = screen.join("\n");
    for shown in ["Line 1", "Line 2", "Line 3"] {
        assert!(all.contains(shown));
    }
    assert!(!all.contains("Line 4") && !all.contains("Line 5"));
}

/// orig: TUI overlay options › maxHeight › should truncate overlay to maxHeightPercent
#[test]
fn max_height_as_a_percentage() {
    let lines = ["L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8", "L9", "L10"];
    let screen = one(80, 10, "{ maxHeight = \"50%\" }", &lines);
    let all = screen.join("\n");
    assert!(all.contains("L1") && all.contains("L5"));
    assert!(!all.contains("L6"));
}

/// orig: TUI overlay options › stacked overlays › should render multiple overlays with later ones on top
#[test]
fn a_later_overlay_is_on_top() {
    let screen = draw(
        80,
        24,
        &[],
        &[
            (
                "{ anchor = \"top-left\", width = 20 }",
                &["FIRST-OVERLAY-LINE"],
            ),
            ("{ anchor = \"top-left\", width = 10 }", &["SECOND"]),
        ],
    );
    assert!(screen[0].starts_with("SECOND"), "{:?}", screen[0]);
    assert!(
        !screen[0].contains("FIRST"),
        "the second clears its own cells: {:?}",
        screen[0]
    );
    assert!(
        screen[0].contains("LAY-LINE"),
        "the first shows beside it: {:?}",
        screen[0]
    );
}

/// orig: TUI overlay options › stacked overlays › should handle overlays at different positions without interference
#[test]
fn overlays_apart_do_not_meet() {
    let screen = draw(
        80,
        24,
        &[],
        &[
            ("{ anchor = \"top-left\", width = 10 }", &["TOP-LEFT"]),
            (
                "{ anchor = \"bottom-right\", width = 12 }",
                &["BOTTOM-RIGHT"],
            ),
        ],
    );
    assert_eq!(find(&screen, "TOP-LEFT"), (0, 0));
    assert_eq!(find(&screen, "BOTTOM-RIGHT"), (23, 68));
}

/// orig: TUI overlay options › width overflow protection › should handle overlay with complex ANSI sequences without crashing
#[test]
fn styled_and_linked_lines_in_an_overlay() {
    let complex = format!(
        "\x1b[48;2;40;50;40m \x1b[38;2;128;128;128mSome styled content\x1b[39m\x1b[49m\x1b]8;;http://example.com\x07link\x1b]8;;\x07{}",
        " more content ".repeat(10)
    );
    let lines = [complex.as_str(), complex.as_str(), complex.as_str()];
    let screen = one(80, 24, "{ width = 60 }", &lines);
    let (row, col) = find(&screen, "Some styled content");
    assert_eq!(
        col, 11,
        "a space, then the text, in a centered 60-column overlay"
    );
    for line in &screen[row..row + 3] {
        assert!(
            line.contains("Some styled contentlink more content"),
            "{line:?}"
        );
        assert!(!line.contains('\x1b') && !line.contains("8;;"), "{line:?}");
        let past: String = line.chars().skip(70).collect();
        assert_eq!(past.trim(), "", "cut at the overlay's edge");
    }
}

/// orig: TUI overlay options › percentage positioning › should position with rowPercent and colPercent
#[test]
fn half_way_down_and_across() {
    let screen = one(
        80,
        24,
        "{ width = 10, row = \"50%\", col = \"50%\" }",
        &["PCT"],
    );
    let (row, col) = find(&screen, "PCT");
    assert!((10..=13).contains(&row), "{row}");
    assert_eq!(col, 35, "half of the 70 free columns");
}

/// orig: TUI overlay options › percentage positioning › rowPercent 0 should position at top
#[test]
fn zero_percent_is_the_top() {
    let screen = one(80, 24, "{ width = 10, row = \"0%\" }", &["TOP"]);
    assert_eq!(find(&screen, "TOP").0, 0);
}

/// orig: TUI overlay options › percentage positioning › rowPercent 100 should position at bottom
#[test]
fn a_hundred_percent_is_the_bottom() {
    let screen = one(80, 24, "{ width = 10, row = \"100%\" }", &["BOTTOM"]);
    assert_eq!(find(&screen, "BOTTOM").0, 23);
    // Within a margin, the bottom is above it.
    let screen = one(
        80,
        24,
        "{ width = 10, row = \"100%\", margin = 2 }",
        &["BOTTOM"],
    );
    assert_eq!(find(&screen, "BOTTOM").0, 21);
}

/// orig: TUI overlay options › absolute positioning › row and col should override anchor
#[test]
fn row_and_col_override_the_anchor() {
    let screen = one(
        80,
        24,
        "{ anchor = \"bottom-right\", row = 3, col = 5, width = 10 }",
        &["ABSOLUTE"],
    );
    assert_eq!(find(&screen, "ABSOLUTE"), (3, 5));
    // Without them the anchor decides.
    let screen = one(
        80,
        24,
        "{ anchor = \"bottom-right\", width = 10 }",
        &["ABSOLUTE"],
    );
    assert_eq!(find(&screen, "ABSOLUTE"), (23, 70));
}

/// orig: TUI overlay options › width overflow protection › should handle overlay positioned at terminal edge
#[test]
fn an_overlay_at_the_right_edge() {
    let screen = one(80, 24, "{ col = 60, width = 20 }", &[&"X".repeat(50)]);
    let (row, col) = find(&screen, "X");
    assert_eq!(col, 60);
    assert_eq!(screen[row].matches('X').count(), 20);
    // A column past the edge keeps the overlay on screen.
    let screen = one(80, 24, "{ col = 75, width = 20 }", &["EDGE"]);
    assert_eq!(find(&screen, "EDGE").1, 60);
}
