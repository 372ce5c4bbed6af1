//! Width-safe text helpers: neutralising terminal escape sequences, measuring
//! and truncating by display width, and word wrapping.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Columns a tab expands to.
const TAB_WIDTH: usize = 4;

/// Make untrusted text (model or tool output) safe to draw: escape sequences
/// are removed (a model cannot move the cursor, recolour or retitle the
/// terminal), tabs become spaces, other control characters are dropped.
/// Newlines are kept.
pub fn sanitize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => out.push('\n'),
            '\t' => out.push_str(&" ".repeat(TAB_WIDTH)),
            '\u{1b}' => skip_escape(&mut chars),
            '\u{9b}' => skip_csi_body(&mut chars),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

fn skip_escape(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    match chars.next() {
        Some('[') => skip_csi_body(chars),
        // OSC, DCS, SOS, PM, APC: until BEL or ST (ESC \).
        Some(']' | 'P' | 'X' | '^' | '_') => {
            while let Some(c) = chars.next() {
                if c == '\u{7}' {
                    break;
                }
                if c == '\u{1b}' {
                    if chars.peek() == Some(&'\\') {
                        chars.next();
                    }
                    break;
                }
            }
        }
        // Two-byte sequences with an intermediate: ESC ( B and the like.
        Some('(' | ')' | '*' | '+' | '#' | '%') => {
            chars.next();
        }
        _ => {}
    }
}

fn skip_csi_body(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    for c in chars.by_ref() {
        if ('\u{40}'..='\u{7e}').contains(&c) {
            break;
        }
    }
}

/// Display width of `text` in terminal columns.
pub fn width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

fn char_width(c: char) -> usize {
    UnicodeWidthChar::width(c).unwrap_or(0)
}

/// Cut `text` to at most `max` columns, ending with `ellipsis` when cut.
pub fn truncate(text: &str, max: usize, ellipsis: &str) -> String {
    if width(text) <= max {
        return text.to_string();
    }
    let room = max.saturating_sub(width(ellipsis));
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = char_width(c);
        if used + w > room {
            break;
        }
        used += w;
        out.push(c);
    }
    if width(ellipsis) <= max {
        out.push_str(ellipsis);
    }
    out
}

/// Wrap one line (no newlines) into pieces of at most `max` columns, breaking
/// after spaces where possible and inside words when a word is too long.
pub fn wrap_line(line: &str, max: usize) -> Vec<String> {
    let max = max.max(1);
    if width(line) <= max {
        return vec![line.to_string()];
    }
    let mut rows = Vec::new();
    let mut row = String::new();
    let mut row_width = 0;
    for word in split_keeping_spaces(line) {
        let w = width(word);
        if row_width + width(word.trim_end()) <= max {
            row.push_str(word);
            row_width += w;
            continue;
        }
        if !row.is_empty() && w <= max {
            rows.push(std::mem::take(&mut row).trim_end().to_string());
            row_width = 0;
            if word.trim().is_empty() {
                continue;
            }
            row.push_str(word);
            row_width = w;
            continue;
        }
        for c in word.chars() {
            let cw = char_width(c);
            if row_width + cw > max && !row.is_empty() {
                rows.push(std::mem::take(&mut row));
                row_width = 0;
            }
            row.push(c);
            row_width += cw;
        }
    }
    if !row.is_empty() || rows.is_empty() {
        rows.push(row);
    }
    rows
}

/// Word-wrap like [`wrap_line`], but keep every character: the pieces joined
/// give `line` back (spaces stay at the end of the row they follow), so an
/// editor can map byte offsets to rows. A row's trailing spaces may run past
/// `max`; they draw as nothing.
pub fn wrap_keeping(line: &str, max: usize) -> Vec<String> {
    let max = max.max(1);
    if width(line) <= max {
        return vec![line.to_string()];
    }
    let mut rows = Vec::new();
    let mut row = String::new();
    let mut row_width = 0;
    for word in split_keeping_spaces(line) {
        let visible = width(word.trim_end());
        if row_width + visible <= max {
            row.push_str(word);
            row_width += width(word);
            continue;
        }
        if !row.is_empty() && visible <= max {
            rows.push(std::mem::take(&mut row));
            row.push_str(word);
            row_width = width(word);
            continue;
        }
        for c in word.chars() {
            let cw = char_width(c);
            if row_width + cw > max && !row.is_empty() && c != ' ' {
                rows.push(std::mem::take(&mut row));
                row_width = 0;
            }
            row.push(c);
            row_width += cw;
        }
    }
    rows.push(row);
    rows
}

/// Split into words, each keeping its trailing spaces.
fn split_keeping_spaces(line: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut in_space = false;
    for (i, c) in line.char_indices() {
        if c == ' ' {
            in_space = true;
        } else if in_space {
            parts.push(&line[start..i]);
            start = i;
            in_space = false;
        }
    }
    parts.push(&line[start..]);
    parts
}

/// Replace the home directory prefix of `path` with `~`.
pub fn tilde_path(path: &std::path::Path) -> String {
    let shown = path.display().to_string();
    match dirs::home_dir() {
        Some(home) => {
            let home = home.display().to_string();
            match shown.strip_prefix(&home) {
                Some(rest) if !home.is_empty() && (rest.is_empty() || rest.starts_with('/')) => {
                    format!("~{rest}")
                }
                _ => shown,
            }
        }
        None => shown,
    }
}

/// The text of rendered lines without styles (for tests and assertions).
#[cfg(test)]
pub(crate) fn plain_lines(lines: &[ratatui::text::Line<'_>]) -> Vec<String> {
    lines
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_are_neutralised() {
        let evil =
            "a\u{1b}[2J\u{1b}[Hb\u{1b}]0;title\u{7}c\u{1b}]8;;http://x\u{1b}\\d\u{9b}31me\r\u{8}f";
        assert_eq!(sanitize(evil), "abcdef");
        assert_eq!(sanitize("x\ty\nz"), "x    y\nz");
    }

    #[test]
    fn truncation_counts_wide_characters() {
        assert_eq!(truncate("日本語のテキスト", 7, "…"), "日本語…");
        assert_eq!(truncate("short", 10, "…"), "short");
        assert!(width(&truncate("日本語", 2, "...")) <= 2);
    }

    #[test]
    fn editor_wrapping_breaks_between_words_and_keeps_every_character() {
        let line = "the quick brown fox jumps over the lazy dog";
        let rows = wrap_keeping(line, 12);
        assert_eq!(rows.concat(), line);
        assert_eq!(rows[0], "the quick ");
        assert!(rows.iter().all(|r| width(r.trim_end()) <= 12), "{rows:?}");
        let long = "x".repeat(30);
        assert_eq!(wrap_keeping(&long, 12).concat(), long);
        assert_eq!(wrap_keeping("中文字中文字", 5).concat(), "中文字中文字");
    }

    #[test]
    fn wrapping_respects_width_and_words() {
        assert_eq!(wrap_line("hello big world", 9), vec!["hello big", "world"]);
        assert_eq!(wrap_line("abcdefghij", 4), vec!["abcd", "efgh", "ij"]);
        for row in wrap_line("漢字漢字漢字 漢字", 5) {
            assert!(width(&row) <= 5, "{row}");
        }
        assert_eq!(wrap_line("", 5), vec![""]);
    }
}
