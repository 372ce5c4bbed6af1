//! The one definition of display width: how many terminal columns a piece of text takes.
//! Text is measured grapheme cluster by grapheme cluster, the way terminals and the
//! frame buffer draw it; escape sequences take no columns.

use unicode_segmentation::UnicodeSegmentation;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Columns a tab takes (and the number of spaces [`super::sanitize`] turns it into).
pub const TAB_WIDTH: usize = 4;

/// A piece of text as drawn: an escape sequence or one grapheme cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Piece<'a> {
    /// `ESC [ ... final` (CSI, e.g. SGR colours), `ESC ] ... BEL|ESC \` (OSC, e.g. links)
    /// or another two-character escape.
    Escape(&'a str),
    /// One grapheme cluster and its width in columns.
    Char(&'a str, usize),
}

/// `text` split into escape sequences and grapheme clusters.
pub(super) fn pieces(text: &str) -> impl Iterator<Item = Piece<'_>> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let len =
            escape_len(rest).unwrap_or_else(|| rest.graphemes(true).next().map_or(1, str::len));
        let (head, tail) = rest.split_at(len);
        rest = tail;
        if head.starts_with('\x1b') {
            return Some(Piece::Escape(head));
        }
        Some(Piece::Char(head, grapheme_width(head)))
    })
}

/// The grapheme clusters of plain `text`, each with its width in columns.
pub fn graphemes(text: &str) -> impl Iterator<Item = (&str, usize)> {
    text.graphemes(true).map(|g| (g, grapheme_width(g)))
}

/// Columns one grapheme cluster takes: a tab takes [`TAB_WIDTH`], other control characters
/// none; a regional indicator (even a lone one, as seen mid-stream before its flag is
/// complete) takes two, as do emoji sequences (zero-width joiner families, skin tones,
/// variation selector 16) and East Asian wide characters; combining marks add nothing.
pub fn grapheme_width(grapheme: &str) -> usize {
    let Some(first) = grapheme.chars().next() else {
        return 0;
    };
    if first == '\t' {
        return TAB_WIDTH;
    }
    if first.is_control() {
        return 0;
    }
    if ('\u{1F1E6}'..='\u{1F1FF}').contains(&first) {
        return 2;
    }
    UnicodeWidthStr::width(grapheme)
}

/// Length in bytes of the escape sequence `text` starts with, if it starts with one.
pub(super) fn escape_len(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    if bytes.first() != Some(&0x1b) {
        return None;
    }
    match bytes.get(1) {
        Some(b'[') => {
            let end = bytes[2..].iter().position(|b| (0x40..=0x7e).contains(b))?;
            Some(2 + end + 1)
        }
        Some(b']' | b'_') => {
            let mut i = 2;
            while i < bytes.len() {
                if bytes[i] == 0x07 {
                    return Some(i + 1);
                }
                if bytes[i] == 0x1b && bytes.get(i + 1) == Some(&b'\\') {
                    return Some(i + 2);
                }
                i += 1;
            }
            Some(bytes.len())
        }
        // ESC and the character after it (which may take several bytes).
        Some(_) => Some(1 + text[1..].chars().next().map_or(1, char::len_utf8)),
        None => Some(1),
    }
}

/// Columns `text` takes on screen. Grapheme clusters are measured with
/// [`grapheme_width`]; escape sequences take none.
pub fn width(text: &str) -> usize {
    if text.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return text.len();
    }
    if text.chars().all(stands_alone) {
        return text.chars().map(|c| c.width().unwrap_or(0)).sum();
    }
    if !text.contains('\x1b') {
        return graphemes(text).map(|(_, w)| w).sum();
    }
    pieces(text)
        .map(|p| match p {
            Piece::Char(_, w) => w,
            Piece::Escape(_) => 0,
        })
        .sum()
}

/// Whether `c` is always a grapheme cluster of its own, measured alike alone or in
/// context: printable Latin, punctuation, arrows, box drawing and other symbols (no
/// joiners, combining marks, variation selectors, regional indicators or controls). Text
/// made only of these is measured character by character, which is quicker.
fn stands_alone(c: char) -> bool {
    matches!(c,
        '\u{20}'..='\u{7e}'
        | '\u{a0}'..='\u{2ff}'
        | '\u{2010}'..='\u{2027}'
        | '\u{2030}'..='\u{205f}'
        | '\u{2190}'..='\u{2bff}')
}

/// The start of the grapheme cluster before byte `i` of `text` (an emoji with a skin tone
/// or a flag is one step for a cursor).
pub fn prev_boundary(text: &str, i: usize) -> usize {
    text[..i]
        .grapheme_indices(true)
        .next_back()
        .map_or(0, |(b, _)| b)
}

/// The end of the grapheme cluster that starts at byte `i` of `text`.
pub fn next_boundary(text: &str, i: usize) -> usize {
    text[i..].graphemes(true).next().map_or(i, |g| i + g.len())
}

/// The byte offset in plain `text` of the grapheme cluster drawn at `column` (the end of
/// the text when it is narrower); a wide cluster covering `column` counts as there.
pub fn byte_at_column(text: &str, column: usize) -> usize {
    let mut used = 0;
    for (i, g) in text.grapheme_indices(true) {
        let w = grapheme_width(g);
        if used + w > column {
            return i;
        }
        used += w;
    }
    text.len()
}
