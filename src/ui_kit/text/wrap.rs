//! Word wrap: break at spaces, and inside a word only when the word alone is wider than
//! the row. Works on plain and ANSI-styled text (styles re-opened on the next row).

use super::width::{Piece, pieces, width};

/// Wrap `text` (may contain newlines and ANSI styling) into lines of at most `max`
/// columns, breaking after spaces where possible and inside a word only when it is wider
/// than a line. Spaces at a break are dropped. SGR styling active at a break is re-opened
/// on the next line; an underline still open at a break is closed.
pub fn wrap_text(text: &str, max: usize) -> Vec<String> {
    let mut wrapper = Wrapper {
        width: max.max(1),
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

/// Wrap one line of plain text into rows of at most `max` columns (see [`wrap_text`]).
pub fn wrap_line(line: &str, max: usize) -> Vec<String> {
    if width(line) <= max.max(1) && !line.contains('\n') {
        return vec![line.to_string()];
    }
    wrap_text(line, max)
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
        // Spaces after a word may hang past the edge: they are dropped at the break.
        let visible = self.word_width - trailing_spaces(&self.word);
        if self.line_width + visible > self.width && self.line_width > 0 {
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
            let kept = line.len() - trailing_space_bytes(&line);
            line.truncate(kept);
        } else {
            // Spaces at the end of the text are kept, as far as the edge.
            let mut over = self.line_width.saturating_sub(self.width);
            while over > 0 && line.ends_with(' ') {
                line.pop();
                over -= 1;
            }
        }
        if underline_open(&self.active) && !line.ends_with("\x1b[24m") {
            line.push_str("\x1b[24m");
        }
        self.lines.push(line);
        self.line_width = 0;
    }
}

/// How many space characters `word` ends with; a space inside an escape sequence (such
/// as `ESC SP`) is not one, and escapes among the spaces do not end the count.
fn trailing_spaces(word: &str) -> usize {
    pieces(word).fold(0, |count, piece| match piece {
        Piece::Char(" ", _) => count + 1,
        Piece::Char(..) => 0,
        Piece::Escape(_) => count,
    })
}

/// Bytes of the spaces `line` ends with, stopping at an escape sequence so none is cut.
fn trailing_space_bytes(line: &str) -> usize {
    pieces(line).fold(0, |bytes, piece| match piece {
        Piece::Char(" ", _) => bytes + 1,
        _ => 0,
    })
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

/// `line` split into words, each keeping the spaces that follow it (a line starting
/// with spaces starts with a word of only spaces).
pub(super) fn split_words(line: &str) -> Vec<&str> {
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
    if start < line.len() || parts.is_empty() {
        parts.push(&line[start..]);
    }
    parts
}
