//! Turning a command's raw output bytes into text the model can read.
//!
//! Output is decoded incrementally as UTF-8. A command's terminal escape
//! sequences (colours, cursor moves, titles: `ESC [ … m`, `ESC ] … BEL`) are
//! removed, as a terminal would not print them either. Other control
//! characters than tab, newline and carriage return are shown as escapes
//! (`\x00`, `\x1b`, `\u0085`), and bytes that are not UTF-8 as `\xNN`, so no
//! raw control byte reaches the model or a terminal. The decoder counts the
//! bytes it had to escape, which tells mostly-binary output apart from text.

/// The longest escape sequence kept waiting for its end across chunks;
/// an `ESC` that starts a longer one is shown as an escape.
const MAX_SEQUENCE_BYTES: usize = 4096;

/// Incremental UTF-8 decoder that carries incomplete sequences across chunks
/// and escapes control characters and invalid bytes.
#[derive(Debug, Default)]
pub(crate) struct EscapingDecoder {
    pending: Vec<u8>,
    /// Raw bytes shown as escapes so far.
    escaped_bytes: usize,
    /// Whether terminal escape sequences are removed (command output) rather
    /// than shown (names of files).
    strip_sequences: bool,
}

impl EscapingDecoder {
    /// A decoder for a command's output: terminal escape sequences removed.
    pub(crate) fn for_terminal_output() -> Self {
        EscapingDecoder {
            strip_sequences: true,
            ..EscapingDecoder::default()
        }
    }

    /// Decode `chunk`, keeping a trailing incomplete sequence for later.
    pub(crate) fn decode(&mut self, chunk: &[u8]) -> String {
        self.pending.extend_from_slice(chunk);
        let pending = std::mem::take(&mut self.pending);
        let (clean, unfinished) = if self.strip_sequences && pending.contains(&0x1b) {
            strip_escape_sequences(&pending)
        } else {
            (std::borrow::Cow::Borrowed(&pending[..]), &[][..])
        };
        let mut out = String::with_capacity(clean.len());
        let rest = self.decode_utf8(&mut out, &clean);
        if unfinished.is_empty() {
            self.pending = rest.to_vec();
        } else {
            // A partial character cannot be followed by `ESC`: it was invalid.
            self.push_bytes(&mut out, rest);
            self.pending = unfinished.to_vec();
        }
        out
    }

    /// Decode the valid UTF-8 of `bytes` into `out`, escaping invalid bytes;
    /// returns an incomplete trailing character.
    fn decode_utf8<'a>(&mut self, out: &mut String, bytes: &'a [u8]) -> &'a [u8] {
        let mut rest = bytes;
        loop {
            match std::str::from_utf8(rest) {
                Ok(valid) => {
                    self.push_text(out, valid);
                    rest = &[];
                    break;
                }
                Err(e) => {
                    let (valid, after) = rest.split_at(e.valid_up_to());
                    // `valid_up_to` guarantees this prefix is UTF-8.
                    self.push_text(out, std::str::from_utf8(valid).unwrap_or_default());
                    match e.error_len() {
                        Some(bad) => {
                            self.push_bytes(out, &after[..bad]);
                            rest = &after[bad..];
                        }
                        None => {
                            rest = after;
                            break;
                        }
                    }
                }
            }
        }
        rest
    }

    /// Flush: an incomplete trailing sequence is shown byte by byte.
    pub(crate) fn finish(&mut self) -> String {
        let pending = std::mem::take(&mut self.pending);
        let mut out = String::new();
        let rest = self.decode_utf8(&mut out, &pending);
        self.push_bytes(&mut out, rest);
        out
    }

    /// Raw bytes shown as escapes so far.
    pub(super) fn escaped_bytes(&self) -> usize {
        self.escaped_bytes
    }

    fn push_bytes(&mut self, out: &mut String, bytes: &[u8]) {
        for b in bytes {
            out.push_str(&format!("\\x{b:02x}"));
        }
        self.escaped_bytes += bytes.len();
    }

    fn push_text(&mut self, out: &mut String, text: &str) {
        if !text.chars().any(needs_escape) {
            out.push_str(text);
            return;
        }
        for c in text.chars() {
            if !needs_escape(c) {
                out.push(c);
            } else if (c as u32) < 0x80 {
                out.push_str(&format!("\\x{:02x}", c as u32));
                self.escaped_bytes += 1;
            } else {
                out.push_str(&format!("\\u{:04x}", c as u32));
                self.escaped_bytes += c.len_utf8();
            }
        }
    }
}

/// `bytes` as text, with control characters and invalid UTF-8 escaped (for
/// names of files, which may be any bytes).
pub(crate) fn escape_bytes(bytes: &[u8]) -> String {
    let mut decoder = EscapingDecoder::default();
    let mut text = decoder.decode(bytes);
    text.push_str(&decoder.finish());
    text
}

/// `bytes` without its complete terminal escape sequences, and the start of
/// one that is still unfinished at the end (to wait for the next chunk).
fn strip_escape_sequences(bytes: &[u8]) -> (std::borrow::Cow<'_, [u8]>, &[u8]) {
    let mut clean = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(offset) = bytes[i..].iter().position(|&b| b == 0x1b) {
        let start = i + offset;
        clean.extend_from_slice(&bytes[i..start]);
        match sequence_length(&bytes[start..]) {
            Sequence::Complete(len) => i = start + len,
            Sequence::Unfinished if bytes.len() - start <= MAX_SEQUENCE_BYTES => {
                return (clean.into(), &bytes[start..]);
            }
            Sequence::Unfinished | Sequence::NotOne => {
                clean.push(0x1b);
                i = start + 1;
            }
        }
    }
    clean.extend_from_slice(&bytes[i..]);
    (clean.into(), &[])
}

/// What follows an `ESC` byte.
enum Sequence {
    /// A whole escape sequence of this many bytes.
    Complete(usize),
    /// The start of one whose end has not arrived yet.
    Unfinished,
    /// A lone `ESC`, shown as an escape.
    NotOne,
}

/// The escape sequence at the start of `bytes` (which starts with `ESC`):
/// CSI (`ESC [` parameters, final byte), OSC/DCS/APC/PM/SOS strings ended by
/// BEL or `ESC \`, character-set selections and single-character sequences.
fn sequence_length(bytes: &[u8]) -> Sequence {
    let Some(&kind) = bytes.get(1) else {
        return Sequence::Unfinished;
    };
    match kind {
        b'[' => {
            for (i, &b) in bytes.iter().enumerate().skip(2) {
                match b {
                    0x20..=0x3f => {}
                    0x40..=0x7e => return Sequence::Complete(i + 1),
                    _ => return Sequence::NotOne,
                }
            }
            Sequence::Unfinished
        }
        b']' | b'P' | b'X' | b'^' | b'_' => {
            for (i, &b) in bytes.iter().enumerate().skip(2) {
                if b == 0x07 {
                    return Sequence::Complete(i + 1);
                }
                if b == 0x1b {
                    return match bytes.get(i + 1) {
                        Some(b'\\') => Sequence::Complete(i + 2),
                        Some(_) => Sequence::NotOne,
                        None => Sequence::Unfinished,
                    };
                }
            }
            Sequence::Unfinished
        }
        b'(' | b')' | b'*' | b'+' | b'#' | b'%' => match bytes.get(2) {
            Some(_) => Sequence::Complete(3),
            None => Sequence::Unfinished,
        },
        0x30..=0x7e => Sequence::Complete(2),
        _ => Sequence::NotOne,
    }
}

/// Control characters (C0, DEL, C1) other than tab, newline and carriage return.
fn needs_escape(c: char) -> bool {
    c.is_control() && !matches!(c, '\t' | '\n' | '\r')
}

/// `[binary output: 4,096 bytes, first bytes 7f 45 4c 46 …]`.
pub(super) fn binary_summary(total_bytes: usize, head: &[u8]) -> String {
    let first: Vec<String> = head.iter().map(|b| format!("{b:02x}")).collect();
    let more = if total_bytes > head.len() { " …" } else { "" };
    format!(
        "[binary output: {} bytes, first bytes {}{more}]",
        crate::config::schema_check::group_thousands(total_bytes),
        first.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_split_multibyte_characters() {
        let mut decoder = EscapingDecoder::default();
        let bytes = "é".as_bytes();
        assert_eq!(decoder.decode(&bytes[..1]), "");
        assert_eq!(decoder.decode(&bytes[1..]), "é");
        assert_eq!(decoder.escaped_bytes(), 0);
        assert_eq!(decoder.decode(b"a\xffb"), "a\\xffb");
        assert_eq!(decoder.decode(&bytes[..1]), "");
        assert_eq!(decoder.finish(), "\\xc3");
        assert_eq!(decoder.escaped_bytes(), 2);
    }

    #[test]
    fn control_characters_become_escapes_and_text_passes_unchanged() {
        let mut decoder = EscapingDecoder::default();
        assert_eq!(decoder.decode(b"a\0b\x1b[2Jc\x7f"), "a\\x00b\\x1b[2Jc\\x7f");
        assert_eq!(decoder.decode("\u{85}".as_bytes()), "\\u0085");
        assert_eq!(decoder.escaped_bytes(), 5);
        let text = "tab\there\r\nnew line 漢字 ✓\n";
        assert_eq!(decoder.decode(text.as_bytes()), text);
        assert_eq!(decoder.escaped_bytes(), 5);
    }

    #[test]
    fn terminal_escape_sequences_are_removed_even_across_chunks() {
        let mut decoder = EscapingDecoder::for_terminal_output();
        let coloured = b"\x1b[1;31merror\x1b[0m: \x1b]0;title\x07x\x1b]8;;http://a\x1b\\y\x1b(Bz";
        assert_eq!(decoder.decode(coloured), "error: xyz");
        assert_eq!(decoder.decode(b"a\x1b[3"), "a");
        assert_eq!(decoder.decode(b"2mb\x1b"), "b");
        assert_eq!(decoder.decode(b"[0m\xc3"), "");
        assert_eq!(decoder.decode(b"\xa9"), "\u{e9}");
        assert_eq!(decoder.escaped_bytes(), 0);
        // A lone ESC and other control characters are still shown.
        assert_eq!(decoder.decode(b"\x1b\x01q\0"), "\\x1b\\x01q\\x00");
        assert_eq!(decoder.decode(b"end\x1b["), "end");
        assert_eq!(decoder.finish(), "\\x1b[");
        // File names keep every byte visible.
        assert_eq!(escape_bytes(b"a\x1b[31mb"), "a\\x1b[31mb");
    }

    #[test]
    fn binary_summary_names_size_and_first_bytes() {
        assert_eq!(
            binary_summary(4096, &[0x7f, 0x45, 0x4c, 0x46]),
            "[binary output: 4,096 bytes, first bytes 7f 45 4c 46 …]"
        );
    }
}
