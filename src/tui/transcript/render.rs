//! Transcript items to styled lines, cached per item so that streaming into a
//! long conversation only re-renders what changed.

use crate::t;

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use crate::tui::transcript::markdown::render_markdown;
use crate::tui::transcript::tool_rows::render_tool;
use crate::tui::transcript::{Item, NoticeKind, Transcript};
use crate::ui_kit::text::{sanitize, wrap_line};
use crate::ui_kit::theme::Theme;

/// Display switches that change how items render.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderOptions {
    /// Width in columns.
    pub width: usize,
    /// Tool output expanded (`app.tools.expand`).
    pub tools_expanded: bool,
    /// Thinking blocks shown in full (`app.thinking.toggle`).
    pub thinking_expanded: bool,
    /// The key shown in "to expand" hints.
    pub expand_key: String,
    /// Shown for a collapsed thinking block instead of the default label.
    pub hidden_thinking_label: Option<String>,
}

/// Rendered lines per item, reused while the item and options are unchanged.
#[derive(Default)]
pub struct RenderCache {
    options: Option<RenderOptions>,
    /// The i18n generation the entries were rendered at; a locale switch re-renders all.
    generation: u64,
    entries: Vec<(u64, Vec<Line<'static>>)>,
    memo: MarkdownMemo,
    /// Incremented whenever every entry is thrown away (options, locale or theme changed).
    epoch: u64,
}

/// The markdown of the streaming answer's completed lines, reused until a
/// new line completes (the answer re-renders on every token otherwise).
#[derive(Default)]
struct MarkdownMemo {
    source: String,
    width: usize,
    lines: Vec<Line<'static>>,
}

impl MarkdownMemo {
    fn render(&mut self, source: &str, width: usize, theme: &Theme) -> Vec<Line<'static>> {
        if self.width != width || self.source != source {
            self.lines = render_markdown(source, width, theme);
            self.source = source.to_string();
            self.width = width;
        }
        self.lines.clone()
    }
}

impl RenderCache {
    /// All transcript lines for `options`, re-rendering only changed items.
    pub fn lines(
        &mut self,
        transcript: &Transcript,
        options: &RenderOptions,
        theme: &Theme,
    ) -> Vec<Line<'static>> {
        let total = self.update(transcript, options, theme);
        self.window(total, total)
    }

    /// Re-render changed items; returns the total number of lines.
    pub fn update(
        &mut self,
        transcript: &Transcript,
        options: &RenderOptions,
        theme: &Theme,
    ) -> usize {
        let generation = crate::i18n::generation();
        if self.options.as_ref() != Some(options) || self.generation != generation {
            self.entries.clear();
            self.options = Some(options.clone());
            self.generation = generation;
            self.epoch += 1;
        }
        self.entries.truncate(transcript.items.len());
        for (i, item) in transcript.items.iter().enumerate() {
            let rev = transcript.item_revisions.get(i).copied().unwrap_or(0);
            match self.entries.get(i) {
                Some((cached, _)) if *cached == rev => {}
                _ => {
                    let lines = render_item_with(item, options, theme, &mut self.memo);
                    if i < self.entries.len() {
                        self.entries[i] = (rev, lines);
                    } else {
                        self.entries.push((rev, lines));
                    }
                }
            }
        }
        self.entries.iter().map(|(_, l)| l.len()).sum()
    }

    /// The `count` lines ending `end` lines into the transcript (after
    /// [`RenderCache::update`]); only these are cloned.
    pub fn window(&self, end: usize, count: usize) -> Vec<Line<'static>> {
        let start = end.saturating_sub(count);
        let mut out = Vec::with_capacity(end - start);
        let mut offset = 0;
        for (_, lines) in &self.entries {
            let next = offset + lines.len();
            if next > start && offset < end {
                let from = start.saturating_sub(offset);
                let to = (end - offset).min(lines.len());
                out.extend(lines[from..to].iter().cloned());
            }
            offset = next;
            if offset >= end {
                break;
            }
        }
        out
    }

    /// Forget everything (theme change).
    pub fn clear(&mut self) {
        self.entries.clear();
        self.memo = MarkdownMemo::default();
        self.epoch += 1;
    }

    /// Changes whenever all items are rendered afresh, so lines drawn
    /// earlier may no longer match.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// The rendered lines of item `index` (after [`RenderCache::update`]).
    pub fn item_lines(&self, index: usize) -> &[Line<'static>] {
        self.entries.get(index).map_or(&[], |(_, l)| l.as_slice())
    }
}

/// A message that starts with an expanded `/skill:` block: the skill's name
/// and what follows the block (the user's own words).
fn skill_block(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix("<skill name=\"")?;
    let (name, _) = rest.split_once('"')?;
    let end = text.find("</skill>")? + "</skill>".len();
    Some((name, &text[end..]))
}

/// Render one item.
pub fn render_item(item: &Item, options: &RenderOptions, theme: &Theme) -> Vec<Line<'static>> {
    render_item_with(item, options, theme, &mut MarkdownMemo::default())
}

fn render_item_with(
    item: &Item,
    options: &RenderOptions,
    theme: &Theme,
    memo: &mut MarkdownMemo,
) -> Vec<Line<'static>> {
    let width = options.width.max(1);
    let inner = width.saturating_sub(2).max(1);
    let mut lines = vec![Line::default()];
    match item {
        Item::Custom {
            custom_type,
            text,
            lines: custom,
            ..
        } => match custom {
            Some(custom) => lines.extend(custom.iter().map(|l| {
                let mut spans = vec![Span::raw(" ")];
                spans.extend(l.spans.clone());
                Line::from(spans)
            })),
            None => {
                let bg = theme.bg("customMessageBg");
                lines.push(Line::default().style(bg));
                lines.push(
                    indent(vec![Span::styled(
                        format!("[{custom_type}]"),
                        theme.fg("customMessageLabel"),
                    )])
                    .style(bg),
                );
                for raw in sanitize(text).split('\n') {
                    for piece in wrap_line(raw, inner) {
                        lines.push(
                            indent(vec![Span::styled(piece, theme.fg("customMessageText"))])
                                .style(bg),
                        );
                    }
                }
                lines.push(Line::default().style(bg));
            }
        },
        Item::Help { text } => {
            crate::i18n::probe::observe(text);
            for line in render_markdown(text, inner, theme) {
                let mut spans = vec![Span::raw(" ")];
                spans.extend(line.spans);
                lines.push(Line::from(spans));
            }
        }
        Item::User { text } => {
            let bg = theme.bg("userMessageBg");
            let fg = theme.fg("userMessageText");
            lines.push(Line::default().style(bg));
            let mut body = text.as_str();
            if let Some((name, rest)) = skill_block(text)
                && !options.tools_expanded
            {
                // A `/skill:` message: the skill's text folded to one line.
                lines.push(
                    Line::from(vec![
                        Span::raw(" "),
                        Span::styled(
                            format!("{} ", t!("pi.tui.skill.label")),
                            theme.fg("customMessageLabel"),
                        ),
                        Span::styled(sanitize(name), fg),
                        Span::styled(
                            format!(
                                " {}",
                                t!("pi.tui.summary.expand", key = &options.expand_key)
                            ),
                            theme.fg("dim"),
                        ),
                    ])
                    .style(bg),
                );
                body = rest;
            }
            // The user's markdown is rendered, as in answers.
            for line in render_markdown(&sanitize(body.trim()), inner, theme) {
                let mut spans = vec![Span::raw(" ")];
                spans.extend(line.spans);
                lines.push(Line::from(spans).style(bg.patch(fg)));
            }
            lines.push(Line::default().style(bg));
        }
        Item::Assistant {
            text,
            thinking,
            streaming,
            error,
            aborted,
        } => {
            let thinking_style = theme.fg("thinkingText").add_modifier(Modifier::ITALIC);
            if !thinking.trim().is_empty() {
                if options.thinking_expanded {
                    for raw in sanitize(thinking.trim()).split('\n') {
                        for piece in wrap_line(raw, inner) {
                            lines.push(indent(vec![Span::styled(piece, thinking_style)]));
                        }
                    }
                } else {
                    let label = options
                        .hidden_thinking_label
                        .clone()
                        .unwrap_or_else(|| t!("pi.tui.thinking"));
                    lines.push(indent(vec![Span::styled(sanitize(&label), thinking_style)]));
                }
                if !text.trim().is_empty() {
                    lines.push(Line::default());
                }
            }
            let (settled, partial) = if *streaming {
                match text.rfind('\n') {
                    Some(i) => (&text[..i + 1], &text[i + 1..]),
                    None => ("", text.as_str()),
                }
            } else {
                (text.as_str(), "")
            };
            let markdown = if *streaming {
                memo.render(settled, inner, theme)
            } else {
                render_markdown(settled, inner, theme)
            };
            for line in markdown {
                let mut spans = vec![Span::raw(" ")];
                spans.extend(line.spans);
                lines.push(Line::from(spans));
            }
            for piece in wrap_line(&sanitize(partial), inner) {
                if !piece.is_empty() {
                    lines.push(indent(vec![Span::raw(piece)]));
                }
            }
            if let Some(message) = error {
                for piece in wrap_line(
                    &sanitize(&t!("pi.tui.error.prefixed", error = message)),
                    inner,
                ) {
                    lines.push(indent(vec![Span::styled(piece, theme.fg("error"))]));
                }
            } else if *aborted {
                lines.push(indent(vec![Span::styled(
                    t!("pi.tui.aborted"),
                    theme.fg("error"),
                )]));
            }
            if lines.len() == 1 {
                return Vec::new();
            }
        }
        Item::Tool(row) => {
            lines.extend(render_tool(
                row,
                width,
                options.tools_expanded,
                &options.expand_key,
                theme,
            ));
        }
        Item::Summary {
            tokens_before,
            text,
        } => {
            let title = match tokens_before {
                Some(tokens) => t!("pi.tui.summary.compaction", count = *tokens),
                None => t!("pi.tui.summary.branch"),
            };
            let bg = theme.bg("customMessageBg");
            lines.push(
                indent(vec![Span::styled(title, theme.bold("customMessageLabel"))]).style(bg),
            );
            if options.tools_expanded {
                for raw in sanitize(text).split('\n') {
                    for piece in wrap_line(raw, inner) {
                        lines.push(indent(vec![Span::raw(piece)]).style(bg));
                    }
                }
            } else {
                lines.push(
                    indent(vec![Span::styled(
                        t!("pi.tui.summary.expand", key = &options.expand_key),
                        theme.fg("dim"),
                    )])
                    .style(bg),
                );
            }
        }
        Item::Notice { text, kind } | Item::ExtensionNotice { text, kind } => {
            let text = match item {
                Item::ExtensionNotice { .. } => crate::i18n::core_hacks::display(text),
                _ => std::borrow::Cow::Borrowed(text.as_str()),
            };
            let style = match kind {
                NoticeKind::Info => theme.fg("muted"),
                NoticeKind::Warning => theme.fg("warning"),
                NoticeKind::Error => theme.fg("error"),
            };
            for raw in sanitize(&text).split('\n') {
                for piece in wrap_line(raw, inner) {
                    lines.push(indent(vec![Span::styled(piece, style)]));
                }
            }
        }
    }
    lines
}

fn indent(mut spans: Vec<Span<'static>>) -> Line<'static> {
    spans.insert(0, Span::raw(" "));
    Line::from(spans)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui_kit::text::plain_lines as plain;

    fn options(width: usize) -> RenderOptions {
        RenderOptions {
            width,
            tools_expanded: false,
            thinking_expanded: false,
            expand_key: "ctrl+o".into(),
            hidden_thinking_label: None,
        }
    }

    #[test]
    fn streaming_text_commits_markdown_at_line_boundaries() {
        let item = Item::Assistant {
            text: "**bold** done\n**half".into(),
            thinking: "secret plan".into(),
            streaming: true,
            error: None,
            aborted: false,
        };
        let out = plain(&render_item(&item, &options(40), &Theme::plain()));
        assert_eq!(out, vec!["", " Thinking...", "", " bold done", " **half"]);
    }

    #[test]
    fn cache_rerenders_only_changed_items() {
        let mut t = Transcript::new();
        t.push(Item::User { text: "hi".into() });
        let mut cache = RenderCache::default();
        let first = cache.lines(&t, &options(30), &Theme::plain());
        t.notice("note", NoticeKind::Error);
        let second = cache.lines(&t, &options(30), &Theme::plain());
        assert_eq!(&second[..first.len()], &first[..]);
        assert_eq!(plain(&second).last().unwrap(), " note");
        let total = cache.update(&t, &options(30), &Theme::plain());
        assert_eq!(total, second.len());
        assert_eq!(
            cache.window(total - 1, 2),
            second[total - 3..total - 1].to_vec()
        );
    }
}
