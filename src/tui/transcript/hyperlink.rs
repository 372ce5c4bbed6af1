//! Clickable links (OSC 8). Markdown marks link text with a style whose
//! underline colour encodes the link's number; after a frame is laid out,
//! [`apply_links`] turns each run of marked cells into an OSC 8 hyperlink
//! (the escape sequences ride on the first and last cell, with their width
//! forced so layout is unaffected) and clears the marker colour.

use std::num::NonZeroU16;
use std::sync::{Mutex, OnceLock};

use ratatui::buffer::{Buffer, CellDiffOption, CellWidth};
use ratatui::style::{Color, Style};

/// Links seen this run; a link's number is its index.
fn links() -> &'static Mutex<Vec<String>> {
    static LINKS: OnceLock<Mutex<Vec<String>>> = OnceLock::new();
    LINKS.get_or_init(Mutex::default)
}

/// Most links remembered (numbers must fit in 24 bits).
const MAX_LINKS: usize = 1 << 24;

/// A style marking text as a link to `url` (patch it onto the link style).
/// URLs with control characters or of unusual length are not linked.
pub fn link_style(url: &str) -> Style {
    if url.is_empty() || url.len() > 2048 || url.chars().any(char::is_control) {
        return Style::default();
    }
    let mut list = links().lock().unwrap_or_else(|e| e.into_inner());
    let id = match list.iter().position(|u| u == url) {
        Some(i) => i,
        None if list.len() < MAX_LINKS => {
            list.push(url.to_string());
            list.len() - 1
        }
        None => return Style::default(),
    };
    Style::default().underline_color(encode(id))
}

fn encode(id: usize) -> Color {
    Color::Rgb((id >> 16) as u8, (id >> 8) as u8, id as u8)
}

fn decode(color: Color) -> Option<usize> {
    match color {
        Color::Rgb(r, g, b) => Some(((r as usize) << 16) | ((g as usize) << 8) | b as usize),
        _ => None,
    }
}

/// The OSC 8 sequence opening a link to `url`.
pub fn open_sequence(url: &str) -> String {
    format!("\x1b]8;;{url}\x1b\\")
}

/// The OSC 8 sequence closing a link.
pub const CLOSE_SEQUENCE: &str = "\x1b]8;;\x1b\\";

/// Turn marked cells of `buf` into hyperlinks.
pub fn apply_links(buf: &mut Buffer) {
    let area = buf.area;
    let list = links().lock().unwrap_or_else(|e| e.into_inner());
    for y in area.top()..area.bottom() {
        // (link number, first cell x, last cell x) of the run being built.
        let mut run: Option<(usize, u16, u16)> = None;
        let mut covered = 0;
        let mut runs = Vec::new();
        for x in area.left()..area.right() {
            let cell = &mut buf[(x, y)];
            let id = decode(cell.underline_color);
            if id.is_some() {
                cell.underline_color = Color::Reset;
            }
            if covered > 0 {
                covered -= 1;
                continue;
            }
            // The buffer's own measure of the cell, as it laid the row out.
            covered = CellWidth::cell_width(&*cell).saturating_sub(1);
            match (id, run) {
                (Some(id), Some((current, start, _))) if id == current => {
                    run = Some((id, start, x));
                }
                (Some(id), _) => {
                    runs.extend(run);
                    run = Some((id, x, x));
                }
                (None, _) => runs.extend(run.take()),
            }
        }
        runs.extend(run);
        for (id, start, end) in runs {
            let Some(url) = list.get(id) else { continue };
            wrap_cell(buf, start, y, Some(url), start == end);
            if start != end {
                wrap_cell(buf, end, y, None, true);
            }
        }
    }
}

/// Put the opening sequence (when `url` is given) before, and the closing
/// one (when `close`) after, the symbol of cell (`x`, `y`).
fn wrap_cell(buf: &mut Buffer, x: u16, y: u16, url: Option<&String>, close: bool) {
    let cell = &mut buf[(x, y)];
    let symbol = cell.symbol().to_string();
    let cells = CellWidth::cell_width(&*cell).max(1);
    let mut text = url.map(|u| open_sequence(u)).unwrap_or_default();
    text.push_str(&symbol);
    if close {
        text.push_str(CLOSE_SEQUENCE);
    }
    cell.set_symbol(&text);
    if let Some(w) = NonZeroU16::new(cells) {
        cell.set_diff_option(CellDiffOption::ForcedWidth(w));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;

    #[test]
    fn a_marked_run_becomes_one_hyperlink() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 12, 1));
        buf.set_string(0, 0, "see ", Style::default());
        buf.set_string(4, 0, "docs", link_style("https://example.com/docs"));
        buf.set_string(8, 0, " now", Style::default());
        apply_links(&mut buf);
        assert_eq!(
            buf[(4, 0)].symbol(),
            "\x1b]8;;https://example.com/docs\x1b\\d"
        );
        assert_eq!(buf[(5, 0)].symbol(), "o");
        assert_eq!(buf[(7, 0)].symbol(), "s\x1b]8;;\x1b\\");
        assert_eq!(buf[(3, 0)].symbol(), " ");
        assert_eq!(buf[(4, 0)].underline_color, Color::Reset, "marker removed");
    }

    #[test]
    fn urls_with_control_characters_are_not_linked() {
        assert_eq!(link_style("https://x\x1b]0;title\x07"), Style::default());
        let mut buf = Buffer::empty(Rect::new(0, 0, 4, 1));
        buf.set_string(0, 0, "ab", link_style("https://b.example"));
        buf.set_string(2, 0, "c", link_style("https://c.example"));
        apply_links(&mut buf);
        assert!(buf[(1, 0)].symbol().ends_with(CLOSE_SEQUENCE));
        assert_eq!(
            buf[(2, 0)].symbol(),
            "\x1b]8;;https://c.example\x1b\\c\x1b]8;;\x1b\\"
        );
    }
}
