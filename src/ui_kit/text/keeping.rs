//! The editor's word wrap: every byte of a line stays on some row (the rows joined give
//! the line back), so the editor can map a byte offset to a row and column. Breaks fall
//! after the last whitespace before a word; a run of spaces stays with the word before it
//! while it fits and is broken at the edge when it does not; a word that does not fit the
//! rest of a row moves down whole, and is split only when wider than a row (pi 0.73.1's
//! editor wraps the same way).

use std::ops::Range;

use super::width::{graphemes, width};

/// One unit the wrap never splits at a word break: a grapheme, or an atom.
struct Segment {
    start: usize,
    end: usize,
    width: usize,
    space: bool,
}

/// Word-wrap `line` into pieces of at most `max` columns that joined give `line` back.
pub fn wrap_keeping(line: &str, max: usize) -> Vec<String> {
    wrap_ranges(line, max, &[])
        .into_iter()
        .map(|r| line[r].to_string())
        .collect()
}

/// The byte ranges of `line`'s rows at `max` columns. Each of `atoms` (sorted byte
/// ranges, e.g. paste markers) counts as one word-like unit: it is moved down whole, and
/// split at grapheme boundaries only when it alone is wider than a row.
pub fn wrap_ranges(line: &str, max: usize, atoms: &[Range<usize>]) -> Vec<Range<usize>> {
    let max = max.max(1);
    if line.is_empty() || width(line) <= max {
        return std::iter::once(0..line.len()).collect();
    }
    let segments = segments(line, atoms);
    let mut rows = Vec::new();
    let mut row_width = 0;
    let mut row_start = 0;
    // Where a break may go (the start of a word after whitespace) and the row's width there.
    let mut chance: Option<(usize, usize)> = None;
    for (i, seg) in segments.iter().enumerate() {
        if row_width + seg.width > max {
            match chance {
                Some((at, before)) if row_width - before + seg.width <= max => {
                    rows.push(row_start..at);
                    row_start = at;
                    row_width -= before;
                }
                _ if row_start < seg.start => {
                    rows.push(row_start..seg.start);
                    row_start = seg.start;
                    row_width = 0;
                }
                _ => {}
            }
            chance = None;
        }
        let text = &line[seg.start..seg.end];
        if seg.width > max && graphemes(text).nth(1).is_some() {
            // An atom wider than a row: shown split, still one unit for editing.
            let mut pieces = wrap_ranges(text, max, &[]);
            let last = pieces.pop().unwrap_or(0..text.len());
            rows.extend(
                pieces
                    .into_iter()
                    .map(|r| seg.start + r.start..seg.start + r.end),
            );
            row_start = seg.start + last.start;
            row_width = width(&text[last]);
            chance = None;
            continue;
        }
        row_width += seg.width;
        if seg.space && segments.get(i + 1).is_some_and(|next| !next.space) {
            chance = Some((segments[i + 1].start, row_width));
        }
    }
    rows.push(row_start..line.len());
    rows
}

/// `line` cut into graphemes, each atom being one segment.
fn segments(line: &str, atoms: &[Range<usize>]) -> Vec<Segment> {
    let mut out = Vec::new();
    let mut at = 0;
    let mut atoms = atoms.iter().peekable();
    for (g, w) in graphemes(line) {
        let start = at;
        at += g.len();
        while atoms.next_if(|a| a.end <= start).is_some() {}
        if let Some(atom) = atoms.peek().filter(|a| a.start <= start) {
            if start == atom.start {
                out.push(Segment {
                    start,
                    end: atom.end,
                    width: width(&line[atom.start..atom.end]),
                    space: false,
                });
            }
            continue;
        }
        out.push(Segment {
            start,
            end: at,
            width: w,
            space: g.chars().all(char::is_whitespace),
        });
    }
    out
}
