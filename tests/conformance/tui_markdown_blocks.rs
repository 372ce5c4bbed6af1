//! Markdown in the transcript, continued: tables that shrink and wrap their cells,
//! styled cells, a thinking trace drawn as markdown in its own style, and block quotes.
//! Styles are checked on the rendered spans with the built-in dark theme.
//! orig-file: packages/tui/test/markdown.test.ts

use pi::tui::transcript::Item;
use pi::tui::transcript::markdown::{render_markdown, render_markdown_styled};
use pi::tui::transcript::render::{RenderOptions, render_item};
use pi::ui_kit::text::width;
use pi::ui_kit::theme::Theme;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;

fn dark() -> Theme {
    Theme::builtin("dark").unwrap()
}

fn text_of(line: &Line) -> String {
    line.spans.iter().map(|s| s.content.as_ref()).collect()
}

/// The rendered lines as plain text, trailing spaces removed.
fn plain(source: &str, width: usize) -> Vec<String> {
    render_markdown(source, width, &dark())
        .iter()
        .map(|l| text_of(l).trim_end().to_string())
        .collect()
}

fn all_fit(lines: &[String], max: usize) {
    for line in lines {
        assert!(
            width(line) <= max,
            "{line:?} is wider than {max}: {lines:#?}"
        );
    }
}

/// The table's body rows (starting with a border, not a rule).
fn table_rows(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with('│') && !l.contains('─'))
        .collect()
}

/// orig: Markdown component › Tables › should keep column width at least the longest word
#[test]
fn a_column_keeps_its_longest_word_whole() {
    let md = "| Column One | Column Two |\n| --- | --- |\n| superlongword short | otherword |\n| small | tiny |";
    let lines = plain(md, 32);
    all_fit(&lines, 32);
    let row = lines.iter().find(|l| l.contains("superlongword")).unwrap();
    let first = row.split('│').nth(1).unwrap();
    assert!(width(first) - 2 >= "superlongword".len(), "{lines:#?}");
}

/// orig: Markdown component › Tables › should wrap long cell content to multiple lines
#[test]
fn a_long_cell_wraps_to_rows() {
    let md = "| Header |\n| --- |\n| This is a very long cell content that should wrap |";
    let lines = plain(md, 25);
    all_fit(&lines, 25);
    assert!(table_rows(&lines).len() > 2, "{lines:#?}");
    let joined = lines.join(" ");
    for part in ["very long", "cell content", "should wrap"] {
        assert!(joined.contains(part), "{part} in {lines:#?}");
    }
}

/// orig: Markdown component › Tables › should wrap long unbroken tokens inside table cells (not only at line start)
#[test]
fn a_long_url_in_a_cell_is_split_inside_the_borders() {
    let url = "https://example.com/this/is/a/very/long/url/that/should/wrap";
    let lines = plain(&format!("| Value |\n| --- |\n| prefix {url} |"), 30);
    all_fit(&lines, 30);
    let rows = table_rows(&lines);
    assert!(!rows.is_empty());
    for row in &rows {
        assert_eq!(row.matches('│').count(), 2, "{row:?}");
    }
    let joined: String = lines
        .concat()
        .chars()
        .filter(|c| !"│├┤┌┐└┘┬┴┼─".contains(*c) && !c.is_whitespace())
        .collect();
    assert!(joined.contains("prefix"));
    assert!(joined.contains(url), "{joined}");
}

/// orig: Markdown component › Tables › should wrap styled inline code inside table cells without breaking borders
#[test]
fn inline_code_in_a_cell_keeps_its_style_when_wrapped() {
    let theme = dark();
    let md = "| Code |\n| --- |\n| `averyveryveryverylongidentifier` |";
    let lines = render_markdown(md, 20, &theme);
    let code = theme.fg("mdCode").fg;
    assert!(code.is_some());
    let coded: Vec<&Line> = lines
        .iter()
        .filter(|l| {
            l.spans
                .iter()
                .any(|s| s.style.fg == code && !s.content.trim().is_empty())
        })
        .collect();
    assert!(
        coded.len() >= 2,
        "the identifier wraps, styled on every row: {lines:#?}"
    );
    for line in &lines {
        let text = text_of(line);
        assert!(width(text.trim_end()) <= 20, "{text:?}");
        if text.starts_with('│') {
            assert_eq!(text.matches('│').count(), 2, "{text:?}");
        }
    }
}

/// orig: Markdown component › Tables › should handle extremely narrow width gracefully
#[test]
fn a_table_at_a_very_narrow_width() {
    let md = "| A | B | C |\n| --- | --- | --- |\n| 1 | 2 | 3 |";
    for w in [15, 8, 3] {
        let lines = plain(md, w);
        assert!(!lines.is_empty());
        all_fit(&lines, w);
        let joined = lines.concat();
        for cell in ["A", "B", "C", "1", "2", "3"] {
            assert!(joined.contains(cell), "{cell} at {w}: {lines:#?}");
        }
    }
}

/// orig: Markdown component › Tables › should render table correctly when it fits naturally
#[test]
fn a_small_table_is_boxed() {
    let lines = plain("| A | B |\n| --- | --- |\n| 1 | 2 |", 80);
    assert_eq!(
        lines,
        [
            "┌───┬───┐",
            "│ A │ B │",
            "├───┼───┤",
            "│ 1 │ 2 │",
            "└───┴───┘"
        ]
    );
}

/// orig: Markdown component › Tables › should respect paddingX when calculating table width
#[test]
fn a_table_in_an_answer_is_indented_and_fits() {
    let item = Item::Assistant {
        text: "| Column One | Column Two |\n| --- | --- |\n| Data 1 | Data 2 |".into(),
        thinking: String::new(),
        streaming: false,
        error: None,
        aborted: false,
    };
    let lines: Vec<String> = render_item(&item, &options(40), &dark())
        .iter()
        .map(|l| text_of(l).trim_end().to_string())
        .collect();
    all_fit(&lines, 40);
    let row = lines.iter().find(|l| l.contains('│')).unwrap();
    assert!(row.starts_with(' '), "{lines:#?}");
    assert!(lines.iter().any(|l| l.contains("Data 2")));
}

/// orig: Markdown component › Tables › should not add a trailing blank line when table is the last rendered block
#[test]
fn no_trailing_blank_after_a_table() {
    let lines = plain("| Name |\n| --- |\n| Alice |", 80);
    assert_eq!(
        lines.last().map(String::as_str),
        Some("└───────┘"),
        "{lines:#?}"
    );
}

/// orig: Markdown component › Combined features › should render lists and tables together
#[test]
fn a_list_then_a_table() {
    let list = "# Test Document\n- Item 1\n  - Nested item\n- Item 2\n";
    let table = "| Col1 | Col2 |\n| --- | --- |\n| A | B |";
    // Differs: right after a list item the table's lines continue the item's paragraph;
    // pi 0.73.1 then draws nothing of them, here they stay as the item's text. After a
    // blank line the table is a table.
    let lines = plain(&format!("{list}{table}"), 80);
    let has = |lines: &[String], p: &str| lines.iter().any(|l| l.contains(p));
    for part in [
        "Test Document",
        "- Item 1",
        "  - Nested item",
        "- Item 2",
        "Col1",
    ] {
        assert!(has(&lines, part), "{part} in {lines:#?}");
    }
    let lines = plain(&format!("{list}\n{table}"), 80);
    for part in [
        "Test Document",
        "- Item 1",
        "  - Nested item",
        "│ Col1 │ Col2 │",
        "│ A    │ B    │",
    ] {
        assert!(has(&lines, part), "{part} in {lines:#?}");
    }
}

fn options(width: usize) -> RenderOptions {
    RenderOptions {
        width,
        tools_expanded: false,
        thinking_expanded: true,
        expand_key: "ctrl+o".into(),
        hidden_thinking_label: None,
        images: Default::default(),
    }
}

/// A thinking trace as the transcript draws it (expanded), with the dark theme.
fn thinking(trace: &str) -> Vec<Line<'static>> {
    let item = Item::Assistant {
        text: String::new(),
        thinking: trace.into(),
        streaming: false,
        error: None,
        aborted: false,
    };
    render_item(&item, &options(80), &dark())
}

/// The style of the first span holding `text` (spans are cut at words by wrapping).
fn style_of(lines: &[Line], text: &str) -> Style {
    lines
        .iter()
        .flat_map(|l| &l.spans)
        .find(|s| s.content.contains(text))
        .unwrap_or_else(|| panic!("{text:?} in {lines:#?}"))
        .style
}

/// orig: Markdown component › Pre-styled text (thinking traces) › should preserve gray italic styling after inline code
#[test]
fn thinking_keeps_its_style_after_inline_code() {
    let theme = dark();
    let lines = thinking("This is thinking with `inline code` and more text after");
    let gray = theme.fg("thinkingText").fg;
    let code = style_of(&lines, "inline");
    assert_eq!(
        code.fg,
        theme.fg("mdCode").fg,
        "inline code in its own colour"
    );
    let after = style_of(&lines, "after");
    assert_eq!(after.fg, gray);
    assert!(after.add_modifier.contains(Modifier::ITALIC));
    let before = style_of(&lines, "This");
    assert_eq!(before.fg, gray);
    assert!(before.add_modifier.contains(Modifier::ITALIC));
}

/// orig: Markdown component › Pre-styled text (thinking traces) › should preserve gray italic styling after bold text
#[test]
fn thinking_keeps_its_style_after_bold() {
    let theme = dark();
    let lines = thinking("This is thinking with **bold text** and more after");
    let bold = style_of(&lines, "bold");
    assert!(bold.add_modifier.contains(Modifier::BOLD));
    assert!(bold.add_modifier.contains(Modifier::ITALIC));
    let after = style_of(&lines, "after");
    assert_eq!(after.fg, theme.fg("thinkingText").fg);
    assert!(after.add_modifier.contains(Modifier::ITALIC));
    assert!(!after.add_modifier.contains(Modifier::BOLD));
}

/// orig: Markdown component › Pre-styled text (thinking traces) › should not leak styles into following lines when rendered in TUI
#[test]
fn thinking_styles_stay_on_their_lines() {
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::widgets::{Paragraph, Widget};
    let mut lines = thinking("This is thinking with `inline code`");
    let input_row = lines.len() as u16;
    lines.push(Line::from("INPUT"));
    let area = Rect::new(0, 0, 80, input_row + 1);
    let mut buf = Buffer::empty(area);
    Paragraph::new(lines.clone()).render(area, &mut buf);
    let trace_row = lines
        .iter()
        .position(|l| text_of(l).contains("thinking"))
        .unwrap() as u16;
    assert!(buf[(1, trace_row)].modifier.contains(Modifier::ITALIC));
    assert_eq!(buf[(0, input_row)].symbol(), "I");
    assert!(!buf[(0, input_row)].modifier.contains(Modifier::ITALIC));
    assert_eq!(buf[(0, input_row)].fg, ratatui::style::Color::Reset);
}

/// orig: Markdown component › Spacing after code blocks › should normalize paragraph and code block spacing to one blank line
#[test]
fn one_blank_around_a_code_block() {
    let want = [
        "hello this is text",
        "",
        "```",
        "  code block",
        "```",
        "",
        "more text",
    ];
    for md in [
        "hello this is text\n```\ncode block\n```\nmore text",
        "hello this is text\n\n```\ncode block\n```\n\nmore text",
    ] {
        assert_eq!(plain(md, 80), want, "{md:?}");
    }
}

/// Quoted lines (starting with the quote border), with a base style that must not reach them.
fn quoted(md: &str, width: usize, base: Style) -> (Vec<Line<'static>>, Vec<String>) {
    let lines = render_markdown_styled(md, width, &dark(), base);
    let texts = lines
        .iter()
        .map(|l| text_of(l).trim_end().to_string())
        .collect();
    (lines, texts)
}

/// Every span of the quote's text (not its border) is italic and not in `not`'s colour.
fn quote_styled(lines: &[Line], not: Style) {
    let theme = dark();
    for line in lines.iter().filter(|l| text_of(l).starts_with("│ ")) {
        for span in line
            .spans
            .iter()
            .skip(1)
            .filter(|s| !s.content.trim().is_empty())
        {
            assert!(
                span.style.add_modifier.contains(Modifier::ITALIC),
                "{span:?}"
            );
            assert_ne!(span.style.fg, not.fg, "{span:?}");
            assert_eq!(span.style.fg, theme.fg("mdQuote").fg, "{span:?}");
        }
    }
}

/// orig: Markdown component › Blockquotes with multiline content › should apply consistent styling to all lines in lazy continuation blockquote
#[test]
fn a_lazy_quote_is_styled_on_every_line() {
    let magenta = Style::default().fg(ratatui::style::Color::Magenta);
    let (lines, texts) = quoted(">Foo\nbar", 80, magenta);
    assert_eq!(
        texts.iter().filter(|l| l.starts_with("│ ")).count(),
        2,
        "{texts:?}"
    );
    quote_styled(&lines, magenta);
}

/// orig: Markdown component › Blockquotes with multiline content › should apply consistent styling to explicit multiline blockquote
#[test]
fn an_explicit_multiline_quote_is_styled_on_every_line() {
    let cyan = Style::default().fg(ratatui::style::Color::Cyan);
    let (lines, texts) = quoted(">Foo\n>bar", 80, cyan);
    assert_eq!(
        texts.iter().filter(|l| l.starts_with("│ ")).count(),
        2,
        "{texts:?}"
    );
    quote_styled(&lines, cyan);
    // Outside the quote the base style applies.
    let (after, _) = quoted(">Foo\n\nplain", 80, cyan);
    assert_eq!(style_of(&after, "plain").fg, cyan.fg);
}

/// orig: Markdown component › Blockquotes with multiline content › should render list content inside blockquotes
#[test]
fn a_list_inside_a_quote() {
    let (_, texts) = quoted("> 1. bla bla\n> - nested bullet", 80, Style::default());
    let quoted: Vec<&String> = texts.iter().filter(|l| l.starts_with("│ ")).collect();
    assert!(quoted.iter().any(|l| l.contains("1. bla bla")), "{texts:?}");
    assert!(
        quoted.iter().any(|l| l.contains("- nested bullet")),
        "{texts:?}"
    );
}

/// orig: Markdown component › Blockquotes with multiline content › should wrap long blockquote lines and add border to each wrapped line
#[test]
fn a_long_quote_wraps_with_a_border_on_each_row() {
    let long =
        "This is a very long blockquote line that should wrap to multiple lines when rendered";
    let (_, texts) = quoted(&format!("> {long}"), 30, Style::default());
    let content: Vec<&String> = texts.iter().filter(|l| !l.is_empty()).collect();
    assert!(content.len() > 1);
    for line in &content {
        assert!(line.starts_with("│ "), "{line:?}");
        assert!(width(line) <= 30);
    }
    let joined = content
        .iter()
        .map(|l| &l[4..])
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(joined, long);
}

/// orig: Markdown component › Blockquotes with multiline content › should properly indent wrapped blockquote lines with styling
#[test]
fn a_wrapped_quote_keeps_the_quote_style_not_the_base() {
    let yellow = Style::default()
        .fg(ratatui::style::Color::Yellow)
        .add_modifier(Modifier::ITALIC);
    let (lines, texts) = quoted(
        "> This is styled text that is long enough to wrap",
        25,
        yellow,
    );
    let content: Vec<&String> = texts.iter().filter(|l| !l.is_empty()).collect();
    assert!(content.len() > 1);
    assert!(content.iter().all(|l| l.starts_with("│ ")), "{texts:?}");
    quote_styled(&lines, yellow);
}

/// orig: Markdown component › Blockquotes with multiline content › should render inline formatting inside blockquotes and reapply quote styling after
#[test]
fn bold_and_code_inside_a_quote() {
    let theme = dark();
    let (lines, texts) = quoted("> Quote with **bold** and `code` end", 80, Style::default());
    assert!(
        texts[0].starts_with("│ Quote with bold and code end"),
        "{texts:?}"
    );
    assert!(
        style_of(&lines, "bold")
            .add_modifier
            .contains(Modifier::BOLD)
    );
    assert_eq!(style_of(&lines, "code").fg, theme.fg("mdCode").fg);
    let after = style_of(&lines, "end");
    assert!(after.add_modifier.contains(Modifier::ITALIC));
    assert!(!after.add_modifier.contains(Modifier::BOLD));
    assert_eq!(after.fg, theme.fg("mdQuote").fg);
}
