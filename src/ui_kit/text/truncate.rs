//! Fitting text into a number of columns: truncating with an ellipsis, slicing by
//! column and padding. All of it works on plain and ANSI-styled text alike.

use super::width::{Piece, pieces, width};

/// Cut `text` to at most `max` columns, ending with `ellipsis` when cut. Grapheme
/// clusters are never split; escape sequences are kept. When styled text was cut, a reset
/// ends its styles before the ellipsis (drawn unstyled, as pi 0.73.1 draws it) and after.
pub fn truncate(text: &str, max: usize, ellipsis: &str) -> String {
    if width(text) <= max {
        return text.to_string();
    }
    let room = max.saturating_sub(width(ellipsis));
    let mut out = slice_by_column(text, 0, room);
    let styled = out.contains('\x1b');
    if styled {
        drop_dangling_escape(&mut out);
        out.push_str("\x1b[0m");
    }
    if width(ellipsis) <= max && !ellipsis.is_empty() {
        out.push_str(ellipsis);
        if styled {
            out.push_str("\x1b[0m");
        }
    }
    out
}

/// Remove an escape sequence left unfinished at the end of `out` (a cut text may end
/// inside one), so the reset appended after it is read as a reset, not as its tail.
fn drop_dangling_escape(out: &mut String) {
    // Removing one may uncover another (`ESC [` just before an unfinished `ESC ] 8`).
    while let Some(at) = out.rfind('\x1b') {
        let tail = &out[at + 1..];
        let complete = match tail.as_bytes().first() {
            None => false,
            Some(b'[') => tail[1..].bytes().any(|b| (0x40..=0x7e).contains(&b)),
            Some(b']') => tail.contains('\x07'),
            Some(_) => true,
        };
        if complete {
            return;
        }
        out.truncate(at);
    }
}

/// The columns `[start, end)` of `text`, with every escape sequence met before the end kept
/// (so colours still apply). A wide character that straddles either edge is left out.
pub fn slice_by_column(text: &str, start: usize, end: usize) -> String {
    let mut out = String::new();
    let mut column = 0;
    for piece in pieces(text) {
        match piece {
            Piece::Escape(seq) => {
                if column < end {
                    out.push_str(seq);
                }
            }
            Piece::Char(c, w) => {
                if column >= start && column + w <= end {
                    out.push_str(c);
                }
                column += w;
            }
        }
    }
    out
}

/// `text` followed by spaces up to `columns` display columns (unchanged when it is
/// already as wide).
pub fn pad(text: &str, columns: usize) -> String {
    let gap = columns.saturating_sub(width(text));
    format!("{text}{}", " ".repeat(gap))
}

/// `text` cut to `columns` (with `ellipsis`) and padded to exactly that many columns, so
/// cells of a table line up whatever script they are written in.
pub fn fit(text: &str, columns: usize, ellipsis: &str) -> String {
    pad(&truncate(text, columns, ellipsis), columns)
}

/// A row of styled spans cut to `max` columns in all: spans past the edge are dropped and
/// the one crossing it is truncated (without an ellipsis).
pub fn clip_spans(
    spans: Vec<ratatui::text::Span<'static>>,
    max: usize,
) -> ratatui::text::Line<'static> {
    let mut room = max;
    let mut out = Vec::new();
    for span in spans {
        if room == 0 {
            break;
        }
        let text = truncate(&span.content, room, "");
        room = room.saturating_sub(width(&text));
        out.push(ratatui::text::Span::styled(text, span.style));
    }
    ratatui::text::Line::from(out)
}
