//! `ui.TruncatedText` of the Lua UI library: the first line of a text, cut with `...` to
//! fit inside its padding, every line padded to exactly the width; styles kept, and ended
//! before the `...` of a cut.
//! orig-file: packages/tui/test/truncated-text.test.ts

use mlua::Lua;
use pi::ui_kit::text::width;

const RED: &str = "\x1b[31m";
const BLUE: &str = "\x1b[34m";
const OFF: &str = "\x1b[39m";

/// `ui.TruncatedText(text, px, py).render(width)`, run in a Lua VM with pi's UI library.
fn render(text: &str, px: usize, py: usize, width_: usize) -> Vec<String> {
    let lua = Lua::new();
    let ui = pi::lua::ui::lib::module(&lua).unwrap();
    lua.globals().set("ui", ui).unwrap();
    lua.globals().set("text", text).unwrap();
    lua.load(format!(
        "return ui.TruncatedText(text, {px}, {py}).render({width_})"
    ))
    .eval()
    .unwrap()
}

fn strip(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(i) = rest.find("\x1b[") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        let end = after.find('m').unwrap();
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

/// orig: TruncatedText component › pads output lines to exactly match width
#[test]
fn one_line_padded_to_the_width() {
    let lines = render("Hello world", 1, 0, 50);
    assert_eq!(lines.len(), 1);
    assert_eq!(width(&lines[0]), 50);
    assert_eq!(lines[0], format!(" Hello world{}", " ".repeat(38)));
}

/// orig: TruncatedText component › pads output with vertical padding lines to width
#[test]
fn padding_rows_are_full_width() {
    let lines = render("Hello", 0, 2, 40);
    assert_eq!(lines.len(), 5);
    for line in &lines {
        assert_eq!(width(line), 40);
    }
    assert_eq!(lines[2].trim_end(), "Hello");
    assert_eq!(lines[0].trim(), "");
}

/// orig: TruncatedText component › truncates long text and pads to width
#[test]
fn a_long_text_is_cut_with_dots() {
    let long = "This is a very long piece of text that will definitely exceed the available width";
    let lines = render(long, 1, 0, 30);
    assert_eq!(lines.len(), 1);
    assert_eq!(width(&lines[0]), 30);
    assert_eq!(lines[0], " This is a very long piece... ");
}

/// orig: TruncatedText component › preserves ANSI codes in output and pads correctly
#[test]
fn styles_are_kept_and_not_counted() {
    let styled = format!("{RED}Hello{OFF} {BLUE}world{OFF}");
    let lines = render(&styled, 1, 0, 40);
    assert_eq!(lines.len(), 1);
    assert_eq!(width(&lines[0]), 40);
    assert!(
        lines[0].contains(RED) && lines[0].contains(BLUE),
        "{:?}",
        lines[0]
    );
    assert_eq!(strip(&lines[0]).trim(), "Hello world");
}

/// orig: TruncatedText component › truncates styled text and adds reset code before ellipsis
#[test]
fn a_cut_ends_its_styles_before_the_dots() {
    let styled = format!("{RED}This is a very long red text that will be truncated{OFF}");
    let lines = render(&styled, 1, 0, 20);
    assert_eq!(lines.len(), 1);
    assert_eq!(width(&lines[0]), 20);
    assert!(lines[0].contains("\x1b[0m..."), "{:?}", lines[0]);
    assert_eq!(strip(&lines[0]), " This is a very ... ");
}

/// orig: TruncatedText component › handles text that fits exactly
#[test]
fn a_text_that_fits_has_no_dots() {
    let lines = render("Hello world", 1, 0, 30);
    assert_eq!(width(&lines[0]), 30);
    assert!(!lines[0].contains("..."));
    // Filling the room inside the padding exactly is not cut either.
    let lines = render("Hello world", 1, 0, 13);
    assert_eq!(lines[0], " Hello world ");
}

/// orig: TruncatedText component › handles empty text
#[test]
fn an_empty_text_is_one_blank_line() {
    let lines = render("", 1, 0, 30);
    assert_eq!(lines, [" ".repeat(30)]);
}

/// orig: TruncatedText component › stops at newline and only shows first line
#[test]
fn only_the_first_line_is_shown() {
    let lines = render("First line\nSecond line\nThird line", 1, 0, 40);
    assert_eq!(lines.len(), 1);
    assert_eq!(width(&lines[0]), 40);
    assert_eq!(lines[0].trim(), "First line");
}

/// orig: TruncatedText component › truncates first line even with newlines in text
#[test]
fn a_long_first_line_is_cut_and_the_rest_dropped() {
    let lines = render(
        "This is a very long first line that needs truncation\nSecond line",
        1,
        0,
        25,
    );
    assert_eq!(lines.len(), 1);
    assert_eq!(width(&lines[0]), 25);
    assert!(lines[0].contains("..."));
    assert!(!lines[0].contains("Second"));
}
