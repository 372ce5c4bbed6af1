//! Width-safe helpers for text that carries ANSI styling (what Lua components and themed
//! strings return): measuring, truncating, slicing by column and wrapping, with escape
//! sequences kept intact and taking no columns.

use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthChar;

/// A piece of styled text: an escape sequence or one visible character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Piece<'a> {
    /// `ESC [ ... final` (CSI, e.g. SGR colours) or `ESC ] ... BEL|ESC \` (OSC, e.g. links).
    Escape(&'a str),
    /// A character and its width in columns.
    Char(&'a str, usize),
}

fn pieces(text: &str) -> impl Iterator<Item = Piece<'_>> {
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

/// Columns one grapheme cluster takes, as terminals draw it: a regional indicator (even a
/// lone one, as seen mid-stream before its flag is complete) and an emoji sequence (with a
/// variation selector, skin tone or zero-width joiner) take two; otherwise the width of the
/// base character (combining marks add none).
fn grapheme_width(grapheme: &str) -> usize {
    let mut chars = grapheme.chars();
    let Some(first) = chars.next() else {
        return 0;
    };
    if ('\u{1F1E6}'..='\u{1F1FF}').contains(&first) {
        return 2;
    }
    let base = first.width().unwrap_or(0);
    let emoji_sequence = chars
        .any(|c| c == '\u{FE0F}' || c == '\u{200D}' || ('\u{1F3FB}'..='\u{1F3FF}').contains(&c));
    if emoji_sequence { 2 } else { base }
}

/// Length in bytes of the escape sequence `text` starts with, if it starts with one.
fn escape_len(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    if bytes.first() != Some(&0x1b) {
        return None;
    }
    match bytes.get(1) {
        Some(b'[') => {
            let end = bytes[2..].iter().position(|b| (0x40..=0x7e).contains(b))?;
            Some(2 + end + 1)
        }
        Some(b']') => {
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

/// Columns `text` takes on screen; escape sequences take none.
pub fn visible_width(text: &str) -> usize {
    pieces(text)
        .map(|p| match p {
            Piece::Char(_, w) => w,
            Piece::Escape(_) => 0,
        })
        .sum()
}

/// Cut `text` to at most `max` columns, ending with `ellipsis` when cut. Escape sequences
/// are kept, and a reset is appended when styled text was cut.
pub fn truncate_to_width(text: &str, max: usize, ellipsis: &str) -> String {
    if visible_width(text) <= max {
        return text.to_string();
    }
    let room = max.saturating_sub(visible_width(ellipsis));
    let mut out = slice_by_column(text, 0, room);
    if visible_width(ellipsis) <= max {
        out.push_str(ellipsis);
    }
    if out.contains('\x1b') {
        out.push_str("\x1b[0m");
    }
    out
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

/// Wrap `text` (may contain newlines) into lines of at most `width` columns, breaking after
/// spaces where possible. SGR styling active at a break is re-opened on the next line, and
/// every styled line ends with a reset.
pub fn wrap_text_with_ansi(text: &str, width: usize) -> Vec<String> {
    let mut wrapper = Wrapper {
        width: width.max(1),
        ..Wrapper::default()
    };
    for (index, source_line) in text.split('\n').enumerate() {
        if index > 0 {
            wrapper.break_line();
        }
        for piece in pieces(source_line) {
            match piece {
                Piece::Escape(seq) => wrapper.word.push_str(seq),
                Piece::Char(c, w) => {
                    if wrapper.word_width + w > wrapper.width {
                        wrapper.flush_word();
                        if wrapper.line_width + w > wrapper.width {
                            wrapper.flush_word();
                            wrapper.finish_line(true);
                        }
                    }
                    wrapper.word.push_str(c);
                    wrapper.word_width += w;
                    if c == " " {
                        wrapper.flush_word();
                    }
                }
            }
        }
    }
    wrapper.break_line();
    wrapper.lines
}

/// Lines being filled: the current line, the word being read, and the SGR state at the
/// end of the current line.
#[derive(Default)]
struct Wrapper {
    width: usize,
    lines: Vec<String>,
    line: String,
    line_width: usize,
    word: String,
    word_width: usize,
    active: Vec<String>,
}

impl Wrapper {
    /// Move the word onto the line, first breaking the line when the word does not fit.
    fn flush_word(&mut self) {
        if self.line_width + self.word_width > self.width && self.line_width > 0 {
            self.finish_line(true);
            let trimmed = self.word.trim_start_matches(' ');
            self.word_width -= self.word.len() - trimmed.len();
            self.word = trimmed.to_string();
        }
        for piece in pieces(&self.word) {
            if let Piece::Escape(seq) = piece {
                track_sgr(&mut self.active, seq);
            }
        }
        self.line.push_str(&self.word);
        self.line_width += self.word_width;
        self.word.clear();
        self.word_width = 0;
    }

    /// End the current line (after flushing the pending word).
    fn break_line(&mut self) {
        self.flush_word();
        self.finish_line(false);
    }

    /// End the current line; at a wrap (not a newline of the text) the spaces it ends with
    /// are dropped. An underline still open is closed so it does not run into padding;
    /// other styling (a background) is left open for the padding and re-opened on the next
    /// line.
    fn finish_line(&mut self, wrapped: bool) {
        let mut line = std::mem::replace(&mut self.line, self.active.concat());
        if wrapped {
            let kept = line.trim_end_matches(' ').len();
            line.truncate(kept);
        }
        if underline_open(&self.active) && !line.ends_with("\x1b[24m") {
            line.push_str("\x1b[24m");
        }
        self.lines.push(line);
        self.line_width = 0;
    }
}

/// Whether the SGR sequences in `active` leave underline on.
fn underline_open(active: &[String]) -> bool {
    let mut on = false;
    for seq in active {
        for param in seq[2..seq.len() - 1].split(';') {
            match param {
                "4" => on = true,
                "24" | "0" | "" => on = false,
                _ => {}
            }
        }
    }
    on
}

/// Remember SGR sequences so a wrapped line can re-open them; a reset forgets them all.
fn track_sgr(active: &mut Vec<String>, seq: &str) {
    if !seq.starts_with("\x1b[") || !seq.ends_with('m') {
        return;
    }
    let params = &seq[2..seq.len() - 1];
    if params.is_empty() || params == "0" {
        active.clear();
    } else {
        active.push(seq.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_escape_before_a_multibyte_character_is_split_at_a_character_boundary() {
        assert_eq!(visible_width("\x1b\u{200b}ab"), 2);
        assert_eq!(escape_len("\x1b字"), Some(4));
    }

    const RED: &str = "\x1b[31m";
    const RESET: &str = "\x1b[0m";

    #[test]
    fn width_ignores_escapes_and_counts_wide_characters() {
        assert_eq!(visible_width(&format!("{RED}abc{RESET}")), 3);
        assert_eq!(visible_width("你好"), 4);
        assert_eq!(
            visible_width("\x1b]8;;https://x.dev\x07link\x1b]8;;\x07"),
            4
        );
        assert_eq!(visible_width("😀a"), 3);
    }

    #[test]
    fn truncation_keeps_styles_and_resets() {
        let out = truncate_to_width(&format!("{RED}hello world{RESET}"), 8, "…");
        assert_eq!(out, format!("{RED}hello w…{RESET}"));
        assert_eq!(visible_width(&out), 8);
        assert_eq!(truncate_to_width("short", 10, "…"), "short");
        assert_eq!(truncate_to_width("你好世界", 5, "…"), "你好…");
    }

    #[test]
    fn slicing_by_column_drops_straddling_wide_characters() {
        assert_eq!(slice_by_column("abcdef", 2, 4), "cd");
        assert_eq!(slice_by_column("你好世界", 1, 5), "好");
        assert_eq!(
            slice_by_column(&format!("{RED}abc"), 1, 2),
            format!("{RED}b")
        );
    }

    #[test]
    fn wrapping_breaks_at_spaces_and_reopens_styles() {
        let lines = wrap_text_with_ansi(&format!("{RED}one two three{RESET} four"), 8);
        let plain: Vec<String> = lines.iter().map(|l| strip(l)).collect();
        assert_eq!(plain, ["one two", "three", "four"]);
        assert!(lines[1].starts_with(RED), "{:?}", lines[1]);
        assert!(!lines[0].ends_with(RESET));
        for line in &lines {
            assert!(visible_width(line) <= 8);
        }
    }

    #[test]
    fn long_words_and_cjk_are_split_to_fit() {
        let lines = wrap_text_with_ansi("abcdefghij", 4);
        assert_eq!(lines, ["abcd", "efgh", "ij"]);
        let lines = wrap_text_with_ansi("你好世界你好", 5);
        for line in &lines {
            assert!(visible_width(line) <= 5, "{lines:?}");
        }
        assert_eq!(lines.concat(), "你好世界你好");
    }

    #[test]
    fn newlines_start_new_lines() {
        assert_eq!(wrap_text_with_ansi("a\nb", 10), ["a", "b"]);
    }

    fn strip(text: &str) -> String {
        pieces(text)
            .filter_map(|p| match p {
                Piece::Char(c, _) => Some(c),
                Piece::Escape(_) => None,
            })
            .collect()
    }
}
