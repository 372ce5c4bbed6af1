//! Wrapping rows made of styled runs (pieces of plain text that each carry a style, as a
//! markdown paragraph or a highlighted code line is built), by the same width rules as
//! the rest of the text module.

use super::width::{graphemes, width};
use super::wrap::{split_words, wrap_line};

/// Word-wrap styled runs into rows: the first row has `first_limit` columns, the others
/// `rest_limit`. Breaks fall at spaces; a word wider than a row is split between grapheme
/// clusters. Each row's trailing spaces are dropped.
pub fn wrap_runs<S: Copy>(
    runs: &[(String, S)],
    first_limit: usize,
    rest_limit: usize,
) -> Vec<Vec<(String, S)>> {
    let mut rows: Vec<Vec<(String, S)>> = vec![Vec::new()];
    let mut used = 0usize;
    let mut limit = first_limit.max(1);
    let rest_limit = rest_limit.max(1);
    for (text, style) in runs {
        if text.is_empty() {
            continue;
        }
        for word in split_words(text) {
            if used + width(word.trim_end()) > limit && used > 0 {
                rows.push(Vec::new());
                used = 0;
                limit = rest_limit;
                if word.trim().is_empty() {
                    continue;
                }
            }
            let pieces = if width(word) > limit {
                // Its later pieces land on later rows, which may be narrower.
                wrap_line(word, limit.min(rest_limit))
            } else {
                vec![word.to_string()]
            };
            let count = pieces.len();
            for (i, piece) in pieces.into_iter().enumerate() {
                used += width(&piece);
                if let Some(row) = rows.last_mut() {
                    row.push((piece, *style));
                }
                if i + 1 < count {
                    rows.push(Vec::new());
                    used = 0;
                    limit = rest_limit;
                }
            }
        }
    }
    for row in &mut rows {
        if let Some(last) = row.last_mut() {
            let trimmed = last.0.trim_end().to_string();
            last.0 = trimmed;
        }
    }
    rows
}

/// Break styled runs into rows of at most `max` columns wherever the row is full (for
/// code, where every space matters), never inside a grapheme cluster.
pub fn hard_wrap_runs<S: Copy>(runs: &[(String, S)], max: usize) -> Vec<Vec<(String, S)>> {
    let max = max.max(1);
    let mut rows = vec![Vec::new()];
    let mut used = 0;
    for (text, style) in runs {
        let mut piece = String::new();
        for (g, w) in graphemes(text) {
            if used + w > max && used > 0 {
                if !piece.is_empty()
                    && let Some(row) = rows.last_mut()
                {
                    row.push((std::mem::take(&mut piece), *style));
                }
                rows.push(Vec::new());
                used = 0;
            }
            piece.push_str(g);
            used += w;
        }
        if let (false, Some(row)) = (piece.is_empty(), rows.last_mut()) {
            row.push((piece, *style));
        }
    }
    rows
}
