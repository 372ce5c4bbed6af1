//! Markdown in the transcript: lists, tables, spacing between blocks, links and HTML-like
//! text, checked on the rendered text.
//! orig-file: packages/tui/test/markdown.test.ts

use pi::tui::transcript::markdown::render_markdown;
use pi::ui_kit::theme::Theme;

/// The rendered lines as plain text, trailing spaces removed.
fn plain(source: &str, width: usize) -> Vec<String> {
    render_markdown(source, width, &Theme::plain())
        .iter()
        .map(|line| {
            line.spans
                .iter()
                .map(|s| s.content.as_ref())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect()
}

fn has(lines: &[String], text: &str) -> bool {
    lines.iter().any(|l| l.contains(text))
}

/// Blank lines right after the first line containing `marker`.
fn blanks_after(lines: &[String], marker: &str) -> usize {
    let at = lines.iter().position(|l| l.contains(marker)).unwrap();
    lines[at + 1..].iter().take_while(|l| l.is_empty()).count()
}

/// orig: Markdown component › Nested lists › should render simple nested list
#[test]
fn nested_list() {
    let l = plain("- Item 1\n  - Nested 1.1\n  - Nested 1.2\n- Item 2", 80);
    for part in ["- Item 1", "  - Nested 1.1", "  - Nested 1.2", "- Item 2"] {
        assert!(has(&l, part), "{part} in {l:?}");
    }
}

/// orig: Markdown component › Nested lists › should render deeply nested list
#[test]
fn deeply_nested_list() {
    let l = plain("- Level 1\n  - Level 2\n    - Level 3\n      - Level 4", 80);
    for part in [
        "- Level 1",
        "  - Level 2",
        "    - Level 3",
        "      - Level 4",
    ] {
        assert!(has(&l, part), "{part} in {l:?}");
    }
}

/// orig: Markdown component › Nested lists › should render ordered nested list
#[test]
fn ordered_nested_list() {
    let l = plain(
        "1. First\n   1. Nested first\n   2. Nested second\n2. Second",
        80,
    );
    for part in [
        "1. First",
        "  1. Nested first",
        "  2. Nested second",
        "2. Second",
    ] {
        assert!(has(&l, part), "{part} in {l:?}");
    }
}

/// orig: Markdown component › Nested lists › should render mixed ordered and unordered nested lists
#[test]
fn mixed_nested_lists() {
    let l = plain(
        "1. Ordered item\n   - Unordered nested\n   - Another nested\n2. Second ordered\n   - More nested",
        80,
    );
    for part in [
        "1. Ordered item",
        "  - Unordered nested",
        "2. Second ordered",
    ] {
        assert!(has(&l, part), "{part} in {l:?}");
    }
}

/// orig: Markdown component › Nested lists › should maintain numbering when code blocks are not indented (LLM output)
#[test]
fn numbering_kept_across_code_blocks() {
    let src = "1. First item\n\n```typescript\n// code block\n```\n\n2. Second item\n\n```typescript\n// another code block\n```\n\n3. Third item";
    let numbered: Vec<String> = plain(src, 80)
        .iter()
        .map(|l| l.trim().to_string())
        .filter(|l| l.chars().next().is_some_and(|c| c.is_ascii_digit()) && l.contains(". "))
        .collect();
    assert_eq!(numbered.len(), 3, "{numbered:?}");
    for (line, n) in numbered.iter().zip(["1.", "2.", "3."]) {
        assert!(line.starts_with(n), "{line}");
    }
}

const TABLE: &str = "| Name | Age |\n| --- | --- |\n| Alice | 30 |\n| Bob | 25 |";

/// orig: Markdown component › Tables › should render simple table
#[test]
fn simple_table() {
    let l = plain(TABLE, 80);
    for part in ["Name", "Age", "Alice", "Bob", "│", "─"] {
        assert!(has(&l, part), "{part} in {l:?}");
    }
}

/// orig: Markdown component › Tables › should render row dividers between data rows
#[test]
fn row_dividers() {
    assert_eq!(
        plain(TABLE, 80).iter().filter(|l| l.contains('┼')).count(),
        2
    );
}

/// orig: Markdown component › Tables › should render table with alignment
#[test]
fn aligned_table() {
    let l = plain(
        "| Left | Center | Right |\n| :--- | :---: | ---: |\n| A | B | C |\n| Long text | Middle | End |",
        80,
    );
    for part in ["Left", "Center", "Right", "Long text"] {
        assert!(has(&l, part), "{part}");
    }
}

/// orig: Markdown component › Tables › should handle tables with varying column widths
#[test]
fn varying_column_widths() {
    let l = plain(
        "| Short | Very long column header |\n| --- | --- |\n| A | This is a much longer cell content |\n| B | Short |",
        80,
    );
    assert!(has(&l, "Very long column header"));
    assert!(has(&l, "This is a much longer cell content"));
}

/// orig: Markdown component › Tables › should wrap table cells when table exceeds available width
#[test]
fn wide_table_wraps() {
    let l = plain(
        "| Command | Description | Example |\n| --- | --- | --- |\n| npm install | Install all dependencies | npm install |\n| npm run build | Build the project | npm run build |",
        50,
    );
    for line in &l {
        assert!(pi::ui_kit::text::width(line) <= 50, "{line:?}");
    }
    let all = l.join(" ");
    for part in ["Command", "Description", "npm install", "Install"] {
        assert!(all.contains(part), "{part}");
    }
}

/// orig: Markdown component › Spacing after code blocks › should have only one blank line between code block and following paragraph
#[test]
fn one_blank_after_code_block() {
    let l = plain(
        "hello world\n```js\nconst hello = \"world\";\n```\nagain, hello world",
        80,
    );
    let closing = l
        .iter()
        .rposition(|x| x.trim() == "```")
        .expect("closing fence shown");
    assert_eq!(
        l[closing + 1..].iter().take_while(|x| x.is_empty()).count(),
        1,
        "{l:?}"
    );
}

/// orig: Markdown component › Spacing after code blocks › should not add a trailing blank line when code block is the last rendered block
#[test]
fn no_trailing_blank_after_code_block() {
    for src in [
        "```js\nconst hello = 'world';\n```",
        "hello world\n\n```js\nconst hello = 'world';\n```",
    ] {
        let l = plain(src, 80);
        assert_ne!(l.last().map(String::as_str), Some(""), "{l:?}");
    }
}

/// orig: Markdown component › Spacing after dividers › should have only one blank line between divider and following paragraph
#[test]
fn one_blank_after_divider() {
    // The blank line after `---` in the source does not add a second one.
    let l = plain("hello world\n\n---\n\nagain, hello world", 80);
    assert_eq!(blanks_after(&l, "─"), 1, "{l:?}");
    let l = plain("hello world\n\n---\nagain, hello world", 80);
    assert_eq!(blanks_after(&l, "─"), 1, "{l:?}");
}

/// orig: Markdown component › Spacing after dividers › should not add a trailing blank line when divider is the last rendered block
#[test]
fn no_trailing_blank_after_divider() {
    let l = plain("---", 80);
    assert_ne!(l.last().map(String::as_str), Some(""), "{l:?}");
}

/// orig: Markdown component › Spacing after headings › should have only one blank line between heading and following paragraph
#[test]
fn one_blank_after_heading() {
    let l = plain("# Hello\nThis is a paragraph", 80);
    assert_eq!(blanks_after(&l, "Hello"), 1, "{l:?}");
}

/// orig: Markdown component › Spacing after headings › should not add a trailing blank line when heading is the last rendered block
#[test]
fn no_trailing_blank_after_heading() {
    let l = plain("# Hello", 80);
    assert_ne!(l.last().map(String::as_str), Some(""), "{l:?}");
}

/// orig: Markdown component › Spacing after blockquotes › should have only one blank line between blockquote and following paragraph
#[test]
fn one_blank_after_blockquote() {
    let l = plain("> quoted text\n\nparagraph after", 80);
    assert_eq!(blanks_after(&l, "quoted text"), 1, "{l:?}");
}

/// orig: Markdown component › Spacing after blockquotes › should not add a trailing blank line when blockquote is the last rendered block
#[test]
fn no_trailing_blank_after_blockquote() {
    let l = plain("> quoted text", 80);
    assert_ne!(l.last().map(String::as_str), Some(""), "{l:?}");
}

/// orig: Markdown component › Links › should not duplicate URL for autolinked emails
#[test]
fn autolinked_email_once() {
    let all = plain("Contact user@example.com for help", 80).join(" ");
    assert!(all.contains("user@example.com"));
    assert!(!all.contains("mailto:"));
}

/// orig: Markdown component › Links › should not duplicate URL for bare URLs
#[test]
fn bare_url_once() {
    let all = plain("Visit https://example.com for more", 80).join(" ");
    assert_eq!(all.matches("https://example.com").count(), 1, "{all}");
}

/// orig: Markdown component › Links › should show URL for explicit markdown links with different text
#[test]
fn link_text_and_url() {
    let all = plain("[click here](https://example.com)", 80).join(" ");
    assert!(all.contains("click here"));
    assert!(all.contains("(https://example.com)"), "{all}");
}

/// orig: Markdown component › Links › should show URL for explicit mailto links with different text
#[test]
fn mailto_link_text_and_url() {
    let all = plain("[Email me](mailto:test@example.com)", 80).join(" ");
    assert!(all.contains("Email me"));
    assert!(all.contains("(mailto:test@example.com)"), "{all}");
}

/// orig: Markdown component › HTML-like tags in text › should render content with HTML-like tags as text
#[test]
fn html_like_tags_visible() {
    let all = plain(
        "This is text with <thinking>hidden content</thinking> that should be visible",
        80,
    )
    .join(" ");
    assert!(
        all.contains("hidden content") || all.contains("<thinking>"),
        "{all}"
    );
}

/// orig: Markdown component › HTML-like tags in text › should render HTML tags in code blocks correctly
#[test]
fn html_in_code_block() {
    let all = plain("```html\n<div>Some HTML</div>\n```", 80).join("\n");
    assert!(all.contains("<div>") && all.contains("</div>"), "{all}");
}
