//! Drawing on the terminal's normal screen (the default). The header and
//! every finished transcript item are printed once, as ordinary terminal
//! lines: they scroll into the terminal's own history, where the wheel,
//! search and selection reach them, and they stay after pi exits. Only the
//! live area below them (an answer still arriving, queued messages, the
//! working line, widgets, the editor or an open panel, the footer) is
//! redrawn, row by row where it changed.
//!
//! When lines already printed no longer match (the terminal was resized,
//! tool output was expanded, the theme, language or session changed), the
//! screen and its history are cleared and everything is printed again.

use std::fmt::Write as _;

use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use crate::tui::app::App;
use crate::tui::transcript::images::{ImageRows, draw_into_rows};
use crate::tui::view::{Live, MIN_WIDTH, header_lines, render_options};
use crate::ui_kit::ansi_buffer::row_ansi;

/// What the normal screen shows, so the next frame writes only the difference.
#[derive(Default)]
pub struct Scrollback {
    /// Terminal size the printed lines were laid out for (`None`: nothing printed yet).
    size: Option<(u16, u16)>,
    /// Something was drawn before (a later full redraw also clears the history).
    started: bool,
    /// The header as printed.
    header: Vec<Line<'static>>,
    /// The first transcript item printed: a long (resumed) transcript is
    /// printed from its last few screens on, not laid out whole.
    from: usize,
    /// Revisions of the transcript items printed so far (from `from`), in order.
    committed: Vec<u64>,
    /// The render cache's epoch when they were printed.
    epoch: u64,
    /// The live area's rows as last written.
    rows: Vec<String>,
    /// The live area row the terminal cursor was left on.
    cursor_row: usize,
    /// The last frame covered the screen for an overlay.
    under_overlay: bool,
    /// Show the terminal's cursor at the caret (`showHardwareCursor`).
    show_cursor: bool,
}

/// Where a frame starts writing.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Start {
    /// At the top of the live area.
    Here,
    /// At the top of the screen, which is cleared (its history is kept).
    Home,
    /// On a cleared screen and history (after the first frame).
    Clear,
}

impl Scrollback {
    /// Nothing printed yet; the first frame starts where the cursor is.
    pub fn new() -> Self {
        Scrollback::default()
    }

    /// The screen was disturbed (an external program ran): clear it and print everything again.
    pub fn invalidate(&mut self) {
        self.size = None;
    }

    /// The bytes that bring the terminal (of `cols` x `rows`) up to date with `app`.
    pub fn frame(&mut self, app: &mut App, (cols, rows): (u16, u16)) -> String {
        let rows = rows.max(1);
        let area = Rect::new(0, 0, cols, rows);
        if cols < MIN_WIDTH {
            let mut buf = Buffer::empty(Rect::new(0, 0, cols, 1));
            Paragraph::new(Line::from(crate::ui_kit::text::truncate(
                &crate::t!("pi.tui.too_narrow"),
                cols as usize,
                "",
            )))
            .render(buf.area, &mut buf);
            self.size = Some((0, 0));
            return self.write(Start::Clear, Vec::new(), vec![row_ansi(&buf, 0)], None);
        }
        self.show_cursor = app.ui_settings.settings.show_hardware_cursor();
        let live = Live::build(app, area);
        let options = render_options(app, cols as usize);
        let protocol = options.images.protocol;
        let revisions = &app.transcript.item_revisions;
        let same_items = self.committed.len() + self.from <= revisions.len()
            && self
                .committed
                .iter()
                .zip(&revisions[self.from..])
                .all(|(a, b)| a == b);
        if !same_items || !self.started {
            // Another transcript (start, resume, session switch): print its
            // last screens only; `/tree` and the alternate screen reach the rest.
            let need = rows as usize * HISTORY_SCREENS;
            app.cache
                .update_tail(&app.transcript, &options, &app.theme, need);
            self.from = app.cache.tail_start();
            self.committed.clear();
        }
        // Only what is not printed yet is laid out; printed items are laid out
        // again on demand (a reprint, an overlay), their lines let go after.
        let pending = self.from + self.committed.len();
        app.cache
            .update_from(pending, &app.transcript, &options, &app.theme);
        app.scroll = 0;
        let header = match &live.lua.header {
            Some(lines) => lines.clone(),
            None => header_lines(app, cols as usize),
        };
        let printed_still_true =
            same_items && self.started && self.epoch == app.cache.epoch() && self.header == header;
        let reprint = self.size != Some((cols, rows)) || !printed_still_true;
        let items = app.transcript.items.len();
        let from = self.from;
        if live.has_overlays() {
            // Overlays are placed on the whole screen, over the conversation's
            // last lines; nothing is printed for good while one is open.
            let (all, _) = last_lines(app, &options, &header, from..items, rows as usize);
            let mut buf = Buffer::empty(area);
            let cursor = live.render_into(&mut buf, area, all);
            self.forget_printed(app, rows as usize);
            let screen = (0..rows).map(|y| row_ansi(&buf, y)).collect();
            self.under_overlay = true;
            return self.write(Start::Home, Vec::new(), screen, cursor);
        }
        let mut new_lines = Vec::new();
        let mut start = Start::Here;
        if reprint {
            self.committed.clear();
            self.epoch = app.cache.epoch();
            self.size = Some((cols, rows));
            new_lines.extend(header.iter().cloned());
            self.header = header;
            if from > 0 {
                new_lines.push(earlier_not_printed(app));
            }
            start = Start::Clear;
        }
        let settled = app.transcript.settled_len().max(from);
        let before = from + self.committed.len();
        let mut new_images = Vec::new();
        for i in before..settled {
            let lines = app.cache.lines_of(i, &app.transcript, &options, &app.theme);
            let at = new_lines.len();
            new_lines.extend_from_slice(lines);
            images_at(&mut new_images, at, app.cache.item_images(i));
            let revision = app.transcript.item_revisions.get(i).copied().unwrap_or(0);
            self.committed.push(revision);
        }
        // What is still arriving: only the lines the live area can show are copied.
        let (tail, tail_images) = last_lines(app, &options, &[], settled..items, rows as usize);
        let fixed = live.fixed_len();
        let height = (fixed + tail.len()).clamp(1, rows as usize);
        let shrinks = new_lines.len() + height < self.rows.len();
        if shrinks && start == Start::Here && app.ui_settings.settings.clear_on_shrink() {
            // `terminal.clearOnShrink`: print everything again instead of
            // leaving empty rows below the live area.
            self.size = None;
            return self.frame(app, (cols, rows));
        }
        if std::mem::take(&mut self.under_overlay) && !reprint {
            // Put back the conversation's last lines the overlay covered.
            let room = (rows as usize).saturating_sub(height + new_lines.len());
            let header = self.header.clone();
            let (shown, shown_images) = last_lines(app, &options, &header, from..before, room);
            let skip = shown.len().saturating_sub(room);
            let mut lines: Vec<Line<'static>> = shown.into_iter().skip(skip).collect();
            for (at, _) in &mut new_images {
                *at += lines.len();
            }
            // Pictures whose rows are all put back are drawn again.
            let mut again: Vec<_> = shown_images
                .into_iter()
                .filter(|(at, _)| *at >= skip)
                .map(|(at, image)| (at - skip, image))
                .collect();
            again.append(&mut new_images);
            new_images = again;
            lines.append(&mut new_lines);
            new_lines = lines;
            start = Start::Home;
        }
        let live_area = Rect::new(0, 0, cols, height as u16);
        let mut buf = Buffer::empty(live_area);
        let tail_len = tail.len();
        let cursor = live.render_into(&mut buf, live_area, tail);
        let mut live_rows: Vec<String> = (0..live_area.height).map(|y| row_ansi(&buf, y)).collect();
        let mut printed = print_lines(new_lines, cols);
        self.forget_printed(app, rows as usize);
        if let Some(protocol) = protocol {
            draw_into_rows(&mut printed, &new_images, protocol);
            // The tail sits at the top of the live area, cut at its top when
            // the live area is full.
            let room = (height - fixed.min(height)).max(1);
            let cut = tail_len.saturating_sub(room);
            let visible: Vec<_> = tail_images
                .into_iter()
                .filter(|(at, image)| *at >= cut && at + image.placement.rows as usize <= tail_len)
                .map(|(at, image)| (at - cut, image))
                .collect();
            draw_into_rows(&mut live_rows, &visible, protocol);
        }
        if start == Start::Clear
            && self.started
            && protocol == Some(crate::ui_kit::terminal_image::ImageProtocol::Kitty)
        {
            // The screen and history are cleared: take the images off too.
            let mut out = String::from("\x1b_Ga=d,d=A,q=2\x1b\\");
            out.push_str(&self.write(start, printed, live_rows, cursor));
            return out;
        }
        self.write(start, printed, live_rows, cursor)
    }

    /// Let go of the laid-out lines of printed items above the last
    /// [`KEEP_SCREENS`] screens of them: the terminal holds those rows now.
    fn forget_printed(&self, app: &mut App, rows: usize) {
        let printed_end = self.from + self.committed.len();
        let mut keep_from = printed_end;
        let mut kept = 0;
        while keep_from > self.from && kept < rows * KEEP_SCREENS {
            keep_from -= 1;
            kept += app.cache.item_lines(keep_from).len();
        }
        app.cache.forget(0..keep_from);
    }

    /// Leave the cursor below the live area (at exit), so the shell prompt
    /// follows the conversation.
    pub fn finish(&mut self) -> String {
        let mut out = String::new();
        let down = self.rows.len().saturating_sub(self.cursor_row + 1);
        if down > 0 {
            let _ = write!(out, "\x1b[{down}B");
        }
        out.push_str("\r\n\x1b[?25h");
        self.rows.clear();
        self.cursor_row = 0;
        out
    }

    /// Write `printed` lines, then the live rows, from where `start` says.
    fn write(
        &mut self,
        start: Start,
        printed: Vec<String>,
        live: Vec<String>,
        cursor: Option<Position>,
    ) -> String {
        let mut out = String::from("\r");
        let mut old_rows = std::mem::take(&mut self.rows);
        match start {
            Start::Here => {
                if self.cursor_row > 0 {
                    let _ = write!(out, "\x1b[{}A", self.cursor_row);
                }
            }
            Start::Home => {
                out.push_str("\x1b[0m\x1b[H\x1b[2J");
                old_rows.clear();
            }
            Start::Clear => {
                if self.started {
                    out.push_str("\x1b[0m\x1b[H\x1b[2J\x1b[3J");
                } else if self.cursor_row > 0 {
                    let _ = write!(out, "\x1b[{}A", self.cursor_row);
                }
                old_rows.clear();
            }
        }
        let shifted = !printed.is_empty();
        let total = printed.len() + live.len();
        for (i, text) in printed.iter().chain(live.iter()).enumerate() {
            if i > 0 {
                out.push_str("\r\n");
            }
            let unchanged =
                !shifted && i >= printed.len() && old_rows.get(i - printed.len()) == Some(text);
            if !unchanged {
                out.push_str("\x1b[2K");
                out.push_str(text);
            }
        }
        if old_rows.len() > total {
            // The live area shrank: clear what is left of the old one.
            out.push_str("\r\n\x1b[J\x1b[1A");
        }
        let last = live.len().saturating_sub(1);
        match cursor {
            Some(Position { x, y }) => {
                let y = (y as usize).min(last);
                if last > y {
                    let _ = write!(out, "\x1b[{}A", last - y);
                }
                out.push('\r');
                if x > 0 {
                    let _ = write!(out, "\x1b[{x}C");
                }
                out.push_str(if self.show_cursor {
                    "\x1b[?25h"
                } else {
                    "\x1b[?25l"
                });
                self.cursor_row = y;
            }
            None => {
                out.push_str("\x1b[?25l");
                self.cursor_row = last;
            }
        }
        self.rows = live;
        self.started = true;
        out
    }
}

/// How many screens of a transcript's last items the normal screen prints
/// when it starts (or the session changes); a long resumed session is not
/// laid out whole.
const HISTORY_SCREENS: usize = 3;

/// Screens of printed lines whose layout is kept for redrawing under and
/// after an overlay; those above are laid out again only for a reprint.
const KEEP_SCREENS: usize = 2;

/// The last lines (at least `want`, when there are so many) of `header`
/// followed by the items in `items`, laying out only the items they reach,
/// with the images among them (each with the line it starts on).
fn last_lines(
    app: &mut App,
    options: &crate::tui::transcript::render::RenderOptions,
    header: &[Line<'static>],
    items: std::ops::Range<usize>,
    want: usize,
) -> (Vec<Line<'static>>, Vec<(usize, ImageRows)>) {
    let mut first = items.end;
    let mut have = 0;
    while first > items.start && have < want {
        first -= 1;
        have += app
            .cache
            .lines_of(first, &app.transcript, options, &app.theme)
            .len();
    }
    let mut lines: Vec<Line<'static>> = Vec::with_capacity(have + header.len());
    if first == items.start {
        lines.extend_from_slice(header);
    }
    let mut images = Vec::new();
    for i in first..items.end {
        let at = lines.len();
        lines.extend_from_slice(app.cache.lines_of(i, &app.transcript, options, &app.theme));
        images_at(&mut images, at, app.cache.item_images(i));
    }
    (lines, images)
}

/// The line saying the session has more above what was printed.
fn earlier_not_printed(app: &App) -> Line<'static> {
    Line::styled(
        format!(" {}", crate::t!("pi.tui.transcript.earlier_not_printed")),
        app.theme.fg("muted"),
    )
}

/// Add `images` (laid out in an item whose lines start at `offset`) to `out`,
/// each with the line it starts on.
fn images_at(out: &mut Vec<(usize, ImageRows)>, offset: usize, images: &[ImageRows]) {
    out.extend(images.iter().map(|i| (offset + i.line, i.clone())));
}

/// `lines` laid out `cols` wide, one ANSI string per terminal row.
fn print_lines(lines: Vec<Line<'static>>, cols: u16) -> Vec<String> {
    if lines.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::with_capacity(lines.len());
    // Lay out in slices so a long session never needs one huge buffer.
    for chunk in lines.chunks(256) {
        let area = Rect::new(0, 0, cols, chunk.len() as u16);
        let mut buf = Buffer::empty(area);
        Paragraph::new(chunk.to_vec()).render(area, &mut buf);
        crate::tui::transcript::hyperlink::apply_links(&mut buf);
        out.extend((0..area.height).map(|y| row_ansi(&buf, y)));
    }
    out
}

#[cfg(test)]
#[path = "scrollback_tests.rs"]
mod tests;
