//! Transcript items to styled lines, cached per item so that streaming into a
//! long conversation only re-renders what changed.

use crate::t;

use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use crate::tui::transcript::images::{ImageOptions, ImageRows, append_images};
use crate::tui::transcript::markdown::{render_markdown, render_markdown_styled};
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
    /// How images are drawn.
    pub images: ImageOptions,
}

/// Rendered lines per item, reused while the item and options are unchanged.
#[derive(Default)]
pub struct RenderCache {
    options: Option<RenderOptions>,
    /// The i18n generation the entries were rendered at; a locale switch re-renders all.
    generation: u64,
    /// Per item: the revision its lines were rendered at (`None`: not rendered,
    /// it is above what was shown) and the lines.
    entries: Vec<(Option<u64>, Vec<Line<'static>>)>,
    /// Per item, the images laid out in its lines.
    images: Vec<Vec<ImageRows>>,
    /// The first item of the rendered tail [`RenderCache::update_tail`] keeps.
    tail_first: usize,
    memo: MarkdownMemo,
    /// Incremented whenever every entry is thrown away (options, locale or theme changed).
    epoch: u64,
}

/// The markdown of the streaming answer, laid out in pieces: paragraphs that
/// ended (a blank line outside a code fence) are rendered once and kept, and
/// only the paragraph still growing is rendered again when a line completes.
/// A long answer thus costs the same per line at its end as at its start; the
/// finished answer is rendered whole once.
#[derive(Default)]
struct MarkdownMemo {
    width: usize,
    /// Source of the settled paragraphs, and their lines.
    stable: String,
    stable_lines: Vec<Line<'static>>,
    /// The last render of what follows them.
    rest: String,
    rest_lines: Vec<Line<'static>>,
}

impl MarkdownMemo {
    fn render(&mut self, source: &str, width: usize, theme: &Theme) -> Vec<Line<'static>> {
        if self.width != width || !source.starts_with(self.stable.as_str()) {
            *self = MarkdownMemo {
                width,
                ..MarkdownMemo::default()
            };
        }
        let rest = &source[self.stable.len()..];
        if let Some(cut) = settled_paragraphs(rest) {
            let piece = &rest[..cut];
            let lines = render_markdown(piece, width, theme);
            if !lines.is_empty() {
                if !self.stable_lines.is_empty() {
                    self.stable_lines.push(Line::default());
                }
                self.stable_lines.extend(lines);
            }
            self.stable.push_str(piece);
        }
        let rest = &source[self.stable.len()..];
        if rest != self.rest {
            self.rest_lines = render_markdown(rest, width, theme);
            self.rest = rest.to_string();
        }
        let mut out = Vec::with_capacity(self.stable_lines.len() + self.rest_lines.len() + 1);
        out.extend(self.stable_lines.iter().cloned());
        if !out.is_empty() && !self.rest_lines.is_empty() {
            out.push(Line::default());
        }
        out.extend(self.rest_lines.iter().cloned());
        out
    }
}

/// The length of `text` up to its last blank line outside a code fence
/// (`text` starts outside one), if there is such a line.
fn settled_paragraphs(text: &str) -> Option<usize> {
    let mut in_fence = false;
    let mut cut = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
        }
        let before = offset;
        offset += line.len();
        if trimmed.is_empty() && line.ends_with('\n') && !in_fence && before > 0 {
            cut = Some(offset);
        }
    }
    cut
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
        self.prepare(transcript, options);
        for i in 0..transcript.items.len() {
            self.render_at(i, transcript, options, theme);
        }
        self.tail_first = 0;
        self.entries.iter().map(|(_, l)| l.len()).sum()
    }

    /// Re-render only the last items, until they hold at least `need` lines (or
    /// every item is rendered); items above stay as they were, or unrendered.
    /// Returns the lines of that rendered tail and whether it is the whole
    /// transcript. A long transcript's first frame thus lays out one screen.
    pub fn update_tail(
        &mut self,
        transcript: &Transcript,
        options: &RenderOptions,
        theme: &Theme,
        need: usize,
    ) -> (usize, bool) {
        self.prepare(transcript, options);
        let mut have = 0;
        let mut first = transcript.items.len();
        while first > 0 && have < need {
            first -= 1;
            self.render_at(first, transcript, options, theme);
            have += self.entries[first].1.len();
        }
        self.tail_first = first;
        (have, first == 0)
    }

    /// Re-render the items from `first` on; those above stay as they were, or
    /// unrendered (the normal screen prints a resumed session's last part only).
    pub fn update_from(
        &mut self,
        first: usize,
        transcript: &Transcript,
        options: &RenderOptions,
        theme: &Theme,
    ) {
        self.prepare(transcript, options);
        let first = first.min(transcript.items.len());
        for i in first..transcript.items.len() {
            self.render_at(i, transcript, options, theme);
        }
        self.tail_first = first;
    }

    /// The first item of the tail the last [`RenderCache::update_tail`] or
    /// [`RenderCache::update_from`] rendered.
    pub fn tail_start(&self) -> usize {
        self.tail_first
    }

    /// Drop what the options or the locale made stale; one slot per item.
    fn prepare(&mut self, transcript: &Transcript, options: &RenderOptions) {
        let generation = crate::i18n::generation();
        if self.options.as_ref() != Some(options) || self.generation != generation {
            self.entries.clear();
            self.options = Some(options.clone());
            self.generation = generation;
            self.epoch += 1;
        }
        self.entries
            .resize_with(transcript.items.len(), || (None, Vec::new()));
        self.images.resize_with(transcript.items.len(), Vec::new);
    }

    fn render_at(
        &mut self,
        i: usize,
        transcript: &Transcript,
        options: &RenderOptions,
        theme: &Theme,
    ) {
        let rev = transcript.item_revisions.get(i).copied().unwrap_or(0);
        if self.entries[i].0 != Some(rev) {
            let mut lines = render_item_with(&transcript.items[i], options, theme, &mut self.memo);
            self.images[i] = match transcript.images.get(&i) {
                Some(images) => {
                    append_images(&mut lines, images, &options.images, options.width, theme)
                }
                None => Vec::new(),
            };
            self.entries[i] = (Some(rev), lines);
            if matches!(
                transcript.items[i],
                Item::Assistant {
                    streaming: false,
                    ..
                }
            ) {
                // The answer the memo laid out has ended: its lines live in the entry now.
                self.memo = MarkdownMemo::default();
            }
        }
    }

    /// The lines of item `index`, laid out again when they were forgotten (see
    /// [`RenderCache::forget`]) or never drawn.
    pub fn lines_of(
        &mut self,
        index: usize,
        transcript: &Transcript,
        options: &RenderOptions,
        theme: &Theme,
    ) -> &[Line<'static>] {
        if index >= transcript.items.len() {
            return &[];
        }
        self.prepare(transcript, options);
        self.render_at(index, transcript, options, theme);
        &self.entries[index].1
    }

    /// Let go of the rendered lines (and image layouts) of the items in `items`:
    /// they are laid out again, from the item, when next needed. Lines above the
    /// screen thus cost nothing however long the conversation grows.
    pub fn forget(&mut self, items: std::ops::Range<usize>) {
        let end = items.end.min(self.entries.len());
        for i in items.start.min(end)..end {
            if self.entries[i].0.is_some() {
                self.entries[i] = (None, Vec::new());
            }
            if let Some(images) = self.images.get_mut(i) {
                *images = Vec::new();
            }
        }
    }

    /// How many rendered lines the cache holds (the streaming answer's layout included).
    pub fn held_lines(&self) -> usize {
        let entries: usize = self.entries.iter().map(|(_, l)| l.len()).sum();
        entries + self.memo.stable_lines.len() + self.memo.rest_lines.len()
    }

    /// The `count` lines ending `end` lines into the transcript (after
    /// [`RenderCache::update`]), or into the rendered tail (after
    /// [`RenderCache::update_tail`]); only these are cloned.
    pub fn window(&self, end: usize, count: usize) -> Vec<Line<'static>> {
        let start = end.saturating_sub(count);
        let mut out = Vec::with_capacity(end - start);
        let mut offset = 0;
        for (_, lines) in &self.entries[self.tail_first.min(self.entries.len())..] {
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

    /// The images among the lines [`RenderCache::window`] returns for the
    /// same arguments, each with the line it starts on in that window.
    pub fn window_images(&self, end: usize, count: usize) -> Vec<(usize, ImageRows)> {
        let start = end.saturating_sub(count);
        let first = self.tail_first.min(self.entries.len());
        let mut out = Vec::new();
        let mut offset = 0;
        for (i, (_, lines)) in self.entries.iter().enumerate().skip(first) {
            for image in self.images.get(i).into_iter().flatten() {
                let at = offset + image.line;
                if at >= start && at < end {
                    out.push((at - start, image.clone()));
                }
            }
            offset += lines.len();
            if offset >= end {
                break;
            }
        }
        out
    }

    /// The images laid out in item `index`'s lines (after [`RenderCache::update`]).
    pub fn item_images(&self, index: usize) -> &[ImageRows] {
        self.images.get(index).map_or(&[], Vec::as_slice)
    }

    /// Forget everything (theme change).
    pub fn clear(&mut self) {
        self.entries.clear();
        self.images.clear();
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
                    // A thinking trace is markdown in the thinking style (as pi 0.73.1 draws it).
                    for line in
                        render_markdown_styled(thinking.trim(), inner, theme, thinking_style)
                    {
                        let mut spans = vec![Span::raw(" ")];
                        spans.extend(line.spans);
                        lines.push(Line::from(spans));
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
        Item::Retry(row) => return super::retry_rows::render_retry(row, options, theme),
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
#[path = "render_tests.rs"]
mod tests;
