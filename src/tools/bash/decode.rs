//! Turning a command's raw output bytes into text the model can read.
//!
//! Output is decoded incrementally as UTF-8. Control characters other than
//! tab, newline and carriage return are shown as escapes (`\x00`, `\x1b`,
//! `\u0085`), and bytes that are not UTF-8 as `\xNN`, so no raw control byte
//! reaches the model or a terminal. The decoder counts the bytes it had to
//! escape, which tells mostly-binary output apart from text.

/// Incremental UTF-8 decoder that carries incomplete sequences across chunks
/// and escapes control characters and invalid bytes.
#[derive(Debug, Default)]
pub(crate) struct EscapingDecoder {
    pending: Vec<u8>,
    /// Raw bytes shown as escapes so far.
    escaped_bytes: usize,
}

impl EscapingDecoder {
    /// Decode `chunk`, keeping a trailing incomplete sequence for later.
    pub(crate) fn decode(&mut self, chunk: &[u8]) -> String {
        self.pending.extend_from_slice(chunk);
        let pending = std::mem::take(&mut self.pending);
        let mut out = String::with_capacity(pending.len());
        let mut rest: &[u8] = &pending;
        loop {
            match std::str::from_utf8(rest) {
                Ok(valid) => {
                    self.push_text(&mut out, valid);
                    rest = &[];
                    break;
                }
                Err(e) => {
                    let (valid, after) = rest.split_at(e.valid_up_to());
                    // `valid_up_to` guarantees this prefix is UTF-8.
                    self.push_text(&mut out, std::str::from_utf8(valid).unwrap_or_default());
                    match e.error_len() {
                        Some(bad) => {
                            self.push_bytes(&mut out, &after[..bad]);
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
        self.pending = rest.to_vec();
        out
    }

    /// Flush: an incomplete trailing sequence is shown byte by byte.
    pub(crate) fn finish(&mut self) -> String {
        let pending = std::mem::take(&mut self.pending);
        let mut out = String::new();
        self.push_bytes(&mut out, &pending);
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
        group_thousands(total_bytes),
        first.join(" ")
    )
}

/// `4096` → `4,096`.
fn group_thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
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
    fn binary_summary_names_size_and_first_bytes() {
        assert_eq!(
            binary_summary(4096, &[0x7f, 0x45, 0x4c, 0x46]),
            "[binary output: 4,096 bytes, first bytes 7f 45 4c 46 …]"
        );
        assert_eq!(group_thousands(1_234_567), "1,234,567");
        assert_eq!(group_thousands(999), "999");
    }
}
