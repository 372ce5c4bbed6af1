//! Markdown to styled, width-wrapped lines (pulldown-cmark): headings, lists,
//! block quotes, code blocks, tables, inline code, emphasis and links.

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::ui_kit::text::{sanitize, width, wrap_line, wrap_runs};
use crate::ui_kit::theme::Theme;

/// A styled run of text.
type Run = (String, Style);

/// Render markdown `source` to lines of at most `max_width` columns.
pub fn render_markdown(source: &str, max_width: usize, theme: &Theme) -> Vec<Line<'static>> {
    render_markdown_styled(source, max_width, theme, Style::default())
}

/// Render markdown like [`render_markdown`] with `base` under the text's own styles (a
/// thinking trace's colour and italics): inline code, bold and links keep theirs on top
/// of it, and a block quote is drawn in the quote's style alone.
pub fn render_markdown_styled(
    source: &str,
    max_width: usize,
    theme: &Theme,
    base: Style,
) -> Vec<Line<'static>> {
    let mut r = Renderer {
        theme,
        width: max_width.max(1),
        lines: Vec::new(),
        runs: Vec::new(),
        styles: vec![base],
        lists: Vec::new(),
        item_prefix: None,
        quote_depth: 0,
        code: None,
        table: None,
        link: None,
        line_start: false,
    };
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let text = sanitize(source);
    for (event, range) in Parser::new_ext(&text, options).into_offset_iter() {
        if r.line_start && matches!(event, Event::Text(_)) {
            r.keep_indentation(&text[..range.start]);
        }
        r.event(event);
    }
    r.flush();
    while r.lines.last().is_some_and(|l| l.width() == 0) {
        r.lines.pop();
    }
    r.lines
}

/// A table's cells as they are read: rows of cells of styled runs.
struct TableState {
    rows: Vec<Vec<Vec<Run>>>,
    cell: Vec<Run>,
}

struct Renderer<'t> {
    theme: &'t Theme,
    width: usize,
    lines: Vec<Line<'static>>,
    runs: Vec<Run>,
    styles: Vec<Style>,
    /// Next number of each open list (`None` = bullets).
    lists: Vec<Option<u64>>,
    item_prefix: Option<String>,
    quote_depth: usize,
    code: Option<(String, String)>,
    table: Option<TableState>,
    link: Option<String>,
    /// The next text starts a line of a paragraph (its source indentation is kept).
    line_start: bool,
}

impl Renderer<'_> {
    /// Keep the spaces a paragraph line is indented by in the source (the parser drops
    /// them), outside lists and quotes, whose own indentation is drawn as theirs.
    fn keep_indentation(&mut self, before: &str) {
        self.line_start = false;
        if self.quote_depth > 0 || !self.lists.is_empty() || self.code.is_some() {
            return;
        }
        let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
        if !line.is_empty() && line.chars().all(|c| c == ' ' || c == '\t') {
            let spaces = line.replace('\t', &" ".repeat(crate::ui_kit::text::TAB_WIDTH));
            self.runs.push((spaces, self.style()));
        }
    }

    fn style(&self) -> Style {
        *self.styles.last().unwrap_or(&Style::default())
    }

    fn push_style(&mut self, add: Style) {
        let s = self.style().patch(add);
        self.styles.push(s);
    }

    fn pop_style(&mut self) {
        if self.styles.len() > 1 {
            self.styles.pop();
        }
    }

    fn blank(&mut self) {
        if self.lines.last().is_some_and(|l| l.width() > 0) {
            self.lines.push(Line::default());
        }
    }

    fn event(&mut self, event: Event<'_>) {
        if self.table.is_some() {
            return self.table_event(event);
        }
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(t) => {
                if let Some((_, code)) = &mut self.code {
                    code.push_str(&t);
                } else {
                    self.runs.push((t.to_string(), self.style()));
                }
            }
            Event::Code(t) => {
                let style = self.style().patch(self.theme.fg("mdCode"));
                self.runs.push((t.to_string(), style));
            }
            // A line break in the source is one on screen, as written.
            Event::SoftBreak | Event::HardBreak => {
                self.flush();
                self.line_start = true;
            }
            Event::Rule => {
                self.flush();
                let rule = "─".repeat(self.width.min(80));
                self.lines
                    .push(Line::from(Span::styled(rule, self.theme.fg("mdHr"))));
                self.lines.push(Line::default());
            }
            Event::TaskListMarker(done) => {
                let mark = if done { "[x] " } else { "[ ] " };
                self.runs.push((mark.into(), self.style()));
            }
            Event::Html(t) | Event::InlineHtml(t) => self.runs.push((t.to_string(), self.style())),
            _ => {}
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Paragraph => self.line_start = true,
            Tag::Heading { level, .. } => {
                self.flush();
                let hashes = match level {
                    HeadingLevel::H1 => "# ",
                    HeadingLevel::H2 => "## ",
                    _ => "### ",
                };
                let style = self.theme.bold("mdHeading");
                self.push_style(style);
                if level != HeadingLevel::H1 {
                    self.runs.push((hashes.into(), self.style()));
                } else {
                    self.push_style(Style::default().add_modifier(Modifier::UNDERLINED));
                }
            }
            Tag::BlockQuote(_) => {
                self.flush();
                self.quote_depth += 1;
                // A quote is drawn in its own style, not the text's base style.
                let style = self.theme.fg("mdQuote").add_modifier(Modifier::ITALIC);
                self.styles.push(style);
            }
            Tag::CodeBlock(kind) => {
                self.flush();
                let lang = match kind {
                    CodeBlockKind::Fenced(l) => l.to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                self.code = Some((lang, String::new()));
            }
            Tag::List(start) => {
                self.flush();
                self.lists.push(start);
            }
            Tag::Item => {
                self.flush();
                let depth = self.lists.len().saturating_sub(1);
                let marker = match self.lists.last_mut() {
                    Some(Some(n)) => {
                        *n += 1;
                        format!("{}. ", *n - 1)
                    }
                    _ => "- ".into(),
                };
                self.item_prefix = Some(format!("{}{marker}", "  ".repeat(depth)));
            }
            Tag::Emphasis => self.push_style(Style::default().add_modifier(Modifier::ITALIC)),
            Tag::Strong => self.push_style(Style::default().add_modifier(Modifier::BOLD)),
            Tag::Strikethrough => {
                self.push_style(Style::default().add_modifier(Modifier::CROSSED_OUT))
            }
            Tag::Link { dest_url, .. } => {
                let style = self
                    .theme
                    .fg("mdLink")
                    .add_modifier(Modifier::UNDERLINED)
                    .patch(crate::tui::transcript::hyperlink::link_style(&dest_url));
                self.push_style(style);
                self.link = Some(dest_url.to_string());
            }
            Tag::Table(_) => {
                self.flush();
                self.table = Some(TableState {
                    rows: Vec::new(),
                    cell: Vec::new(),
                });
            }
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph => {
                self.flush();
                if self.lists.is_empty() {
                    self.blank();
                }
            }
            TagEnd::Heading(level) => {
                if level == HeadingLevel::H1 {
                    self.pop_style();
                }
                self.pop_style();
                self.flush();
                self.blank();
            }
            TagEnd::BlockQuote(_) => {
                self.flush();
                self.quote_depth = self.quote_depth.saturating_sub(1);
                self.pop_style();
                self.blank();
            }
            TagEnd::CodeBlock => {
                if let Some((lang, code)) = self.code.take() {
                    self.render_code(&lang, &code);
                }
                self.blank();
            }
            TagEnd::List(_) => {
                self.flush();
                self.lists.pop();
                if self.lists.is_empty() {
                    self.blank();
                }
            }
            TagEnd::Item => self.flush(),
            TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough => self.pop_style(),
            TagEnd::Link => {
                self.pop_style();
                if let Some(url) = self.link.take() {
                    let shown: String = self.runs.iter().map(|r| r.0.as_str()).collect();
                    if !shown.ends_with(url.as_str()) {
                        let style = self
                            .theme
                            .fg("mdLinkUrl")
                            .patch(crate::tui::transcript::hyperlink::link_style(&url));
                        self.runs.push((" (".into(), self.theme.fg("mdLinkUrl")));
                        self.runs.push((url.clone(), style));
                        self.runs.push((")".into(), self.theme.fg("mdLinkUrl")));
                    }
                }
            }
            _ => {}
        }
    }

    fn render_code(&mut self, lang: &str, code: &str) {
        let border = self.theme.fg("mdCodeBlockBorder");
        let body = self.theme.fg("mdCodeBlock");
        self.lines
            .push(Line::from(Span::styled(format!("```{lang}"), border)));
        let inner = self.width.saturating_sub(2).max(1);
        let code = code.trim_end_matches('\n');
        match crate::tui::transcript::highlight::highlight(code, lang, self.theme) {
            Some(highlighted) => {
                for runs in highlighted {
                    for row in crate::ui_kit::text::hard_wrap_runs(&runs, inner) {
                        let mut spans = vec![Span::raw("  ")];
                        spans.extend(row.into_iter().map(|(t, s)| Span::styled(t, s)));
                        self.lines.push(Line::from(spans));
                    }
                }
            }
            None => {
                for raw in code.split('\n') {
                    for piece in wrap_line(raw, inner) {
                        self.lines
                            .push(Line::from(vec![Span::raw("  "), Span::styled(piece, body)]));
                    }
                }
            }
        }
        self.lines.push(Line::from(Span::styled("```", border)));
    }

    /// An event inside a table: cells collect styled runs; the table is drawn at its end.
    fn table_event(&mut self, event: Event<'_>) {
        match event {
            Event::Text(t) => {
                let run = (t.to_string(), self.style());
                self.push_cell_run(run);
            }
            Event::Code(t) => {
                let run = (t.to_string(), self.style().patch(self.theme.fg("mdCode")));
                self.push_cell_run(run);
            }
            Event::Start(tag @ (Tag::Emphasis | Tag::Strong | Tag::Strikethrough)) => {
                self.start(tag)
            }
            Event::End(tag @ (TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough)) => {
                self.end(tag)
            }
            Event::End(TagEnd::TableCell) => {
                if let Some(table) = &mut self.table {
                    let cell = std::mem::take(&mut table.cell);
                    if let Some(row) = table.rows.last_mut() {
                        row.push(cell);
                    }
                }
            }
            Event::Start(Tag::TableHead | Tag::TableRow) => {
                if let Some(table) = &mut self.table {
                    table.rows.push(Vec::new());
                }
            }
            Event::End(TagEnd::Table) => {
                let rows = self.table.take().map(|t| t.rows).unwrap_or_default();
                self.render_table(rows);
                self.lines.push(Line::default());
            }
            _ => {}
        }
    }

    /// Add a run to the table cell being read.
    fn push_cell_run(&mut self, run: Run) {
        if let Some(table) = &mut self.table {
            table.cell.push(run);
        }
    }

    fn render_table(&mut self, rows: Vec<Vec<Vec<Run>>>) {
        let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
        if columns == 0 {
            return;
        }
        let text = |cell: &[Run]| cell.iter().map(|r| r.0.as_str()).collect::<String>();
        let mut widths = vec![1usize; columns];
        // A column is kept at least as wide as its longest word while the table fits.
        let mut words = vec![1usize; columns];
        for row in &rows {
            for (i, cell) in row.iter().enumerate() {
                let cell = text(cell);
                widths[i] = widths[i].max(width(&cell));
                let longest = cell.split_whitespace().map(width).max().unwrap_or(0);
                words[i] = words[i].max(longest);
            }
        }
        let chrome = columns * 3 + 1;
        if chrome + columns > self.width {
            for row in &rows {
                let cells: Vec<String> = row.iter().map(|c| text(c)).collect();
                for piece in wrap_line(&cells.join(" | "), self.width) {
                    self.lines.push(Line::from(piece));
                }
            }
            return;
        }
        // Shrink the widest columns until the table fits, words whole while they can be.
        let keep_words = words.iter().sum::<usize>() + chrome <= self.width;
        while widths.iter().sum::<usize>() + chrome > self.width {
            let Some((i, w)) = widths
                .iter()
                .enumerate()
                .filter(|(i, w)| !keep_words || **w > words[*i])
                .max_by_key(|(_, w)| **w)
                .map(|(i, w)| (i, *w))
            else {
                break;
            };
            if w <= 1 {
                break;
            }
            widths[i] -= 1;
        }
        let border = self.theme.fg("mdCodeBlockBorder");
        let rule = |left: &str, join: &str, right: &str| {
            let cells: Vec<String> = widths.iter().map(|w| "─".repeat(w + 2)).collect();
            Line::from(Span::styled(
                format!("{left}{}{right}", cells.join(join)),
                border,
            ))
        };
        self.lines.push(rule("┌", "┬", "┐"));
        let empty = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            let bold = Style::default().add_modifier(Modifier::BOLD);
            // A cell wider than its column wraps within it; the row grows to its tallest cell.
            let cells: Vec<Vec<Vec<Run>>> = widths
                .iter()
                .enumerate()
                .map(|(i, w)| {
                    let runs: Vec<Run> = row
                        .get(i)
                        .unwrap_or(&empty)
                        .iter()
                        .map(|(t, s)| (t.clone(), if r == 0 { s.patch(bold) } else { *s }))
                        .collect();
                    wrap_runs(&runs, *w, *w)
                })
                .collect();
            let height = cells.iter().map(Vec::len).max().unwrap_or(1).max(1);
            for line in 0..height {
                let mut spans = vec![Span::styled("│", border)];
                for (cell, w) in cells.iter().zip(&widths) {
                    let runs = cell.get(line).map(Vec::as_slice).unwrap_or(&[]);
                    let used: usize = runs.iter().map(|(t, _)| width(t)).sum();
                    spans.push(Span::raw(" "));
                    spans.extend(runs.iter().map(|(t, s)| Span::styled(t.clone(), *s)));
                    spans.push(Span::raw(" ".repeat(w.saturating_sub(used) + 1)));
                    spans.push(Span::styled("│", border));
                }
                self.lines.push(Line::from(spans));
            }
            // A rule under the header and between data rows, as pi draws tables.
            if r + 1 < rows.len() {
                self.lines.push(rule("├", "┼", "┤"));
            }
        }
        self.lines.push(rule("└", "┴", "┘"));
    }

    /// Wrap the pending inline runs into lines with list/quote prefixes.
    fn flush(&mut self) {
        if self.runs.is_empty() {
            return;
        }
        let runs = std::mem::take(&mut self.runs);
        let quote = "│ ".repeat(self.quote_depth);
        let indent = self.lists.len() * 2;
        // A list item's later lines sit under its text, not under its marker.
        let first = match self.item_prefix.take() {
            Some(marker) => format!("{quote}{marker}"),
            None => format!("{quote}{}", " ".repeat(indent)),
        };
        let rest = format!("{quote}{}", " ".repeat(indent));
        let bullet = self.theme.fg("mdListBullet");
        for (i, row) in wrap_runs(
            &runs,
            self.width.saturating_sub(width(&first)),
            self.width.saturating_sub(width(&rest)),
        )
        .into_iter()
        .enumerate()
        {
            let prefix = if i == 0 { first.clone() } else { rest.clone() };
            let mut spans = Vec::new();
            if !prefix.is_empty() {
                spans.push(Span::styled(prefix, bullet));
            }
            spans.extend(row.into_iter().map(|(t, s)| Span::styled(t, s)));
            self.lines.push(Line::from(spans));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui_kit::text::plain_lines as plain;

    #[test]
    fn renders_blocks_and_lists() {
        let md = "## Title\n\nSome *text* and `code`.\n\n- one\n- two\n\n1. first\n\n```rust\nfn main() {}\n```\n";
        let out = plain(&render_markdown(md, 40, &Theme::plain()));
        assert_eq!(
            out,
            vec![
                "## Title",
                "",
                "Some text and code.",
                "",
                "- one",
                "- two",
                "",
                "1. first",
                "",
                "```rust",
                "  fn main() {}",
                "```"
            ]
        );
    }

    #[test]
    fn lines_never_exceed_the_width() {
        let md = "A very long paragraph with 漢字漢字漢字漢字 and averyveryverylongwordthatmustbreak\n\n| a | b |\n|---|---|\n| long cell text | x |\n";
        for w in [8, 12, 20] {
            for line in render_markdown(md, w, &Theme::plain()) {
                assert!(line.width() <= w, "{w}: {line:?}");
            }
        }
    }

    #[test]
    fn a_table_is_boxed_and_its_long_cells_wrap_inside_their_column() {
        let md = "| key | meaning |\n|---|---|\n| q | leave the program at once |\n";
        let out = plain(&render_markdown(md, 24, &Theme::plain()));
        assert_eq!(
            out,
            vec![
                "┌─────┬────────────────┐",
                "│ key │ meaning        │",
                "├─────┼────────────────┤",
                "│ q   │ leave the      │",
                "│     │ program at     │",
                "│     │ once           │",
                "└─────┴────────────────┘",
            ]
        );
    }

    #[test]
    fn escape_sequences_in_markdown_are_removed() {
        let out = plain(&render_markdown("hi\u{1b}[2Jthere", 40, &Theme::plain()));
        assert_eq!(out, vec!["hithere"]);
    }

    #[test]
    fn line_breaks_and_indentation_are_kept_as_written() {
        let md = "Numbers:\n1\n2\n3\nand output:\n    indented line\n  two-space\nend";
        let out = plain(&render_markdown(md, 40, &Theme::plain()));
        assert_eq!(
            out,
            vec![
                "Numbers:",
                "1",
                "2",
                "3",
                "and output:",
                "    indented line",
                "  two-space",
                "end"
            ]
        );
        // Still Markdown: a blank line parts paragraphs, emphasis is drawn, not shown.
        let out = plain(&render_markdown("*a*\nb\n\nc", 40, &Theme::plain()));
        assert_eq!(out, vec!["a", "b", "", "c"]);
    }

    #[test]
    fn a_list_item_continued_on_the_next_line_stays_under_its_text() {
        let md = "- first\n  more of it\n- second";
        let out = plain(&render_markdown(md, 40, &Theme::plain()));
        assert_eq!(out, vec!["- first", "  more of it", "- second"]);
    }
}
