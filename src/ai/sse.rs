//! Incremental Server-Sent-Events parser.
//!
//! Bytes may arrive split at any boundary (inside a line, inside a CRLF pair,
//! inside a multi-byte UTF-8 character). The parser buffers raw bytes and only
//! decodes complete lines, so splitting never changes the decoded events.

use memchr::memchr2;

/// One dispatched SSE event.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SseEvent {
    /// The `event:` field, when the server sent one.
    pub event: Option<String>,
    /// All `data:` lines of the event joined with `\n`.
    pub data: String,
}

/// Streaming SSE decoder: feed chunks with [`SseParser::push`], call
/// [`SseParser::finish`] when the body ends.
#[derive(Debug, Default)]
pub struct SseParser {
    buf: Vec<u8>,
    /// Bytes of `buf` already searched for a line break.
    scanned: usize,
    /// The previous chunk ended with `\r`; a leading `\n` belongs to that break.
    skip_lf: bool,
    /// Whether the optional UTF-8 byte-order mark was already handled.
    bom_checked: bool,
    event: Option<String>,
    data: String,
    data_lines: usize,
}

impl SseParser {
    /// A fresh parser.
    pub fn new() -> Self {
        Self::default()
    }

    /// Feed a chunk and return the events it completed.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        let mut events = Vec::new();
        self.push_with(chunk, |ev| events.push(ev));
        events
    }

    /// Feed a chunk, handing each completed event to `sink`.
    pub fn push_with(&mut self, mut chunk: &[u8], mut sink: impl FnMut(SseEvent)) {
        if self.skip_lf && !chunk.is_empty() {
            if chunk[0] == b'\n' {
                chunk = &chunk[1..];
            }
            self.skip_lf = false;
        }
        if self.buf.is_empty() {
            // Fast path: parse straight from the chunk, buffering only the tail.
            let consumed = self.consume_lines(chunk, &mut sink);
            self.buf.extend_from_slice(&chunk[consumed..]);
            self.scanned = self.buf.len();
            return;
        }
        self.buf.extend_from_slice(chunk);
        let buf = std::mem::take(&mut self.buf);
        // The unterminated line in `buf` had no break in its first `scanned`
        // bytes; only the new bytes can hold the next break.
        let first_break = memchr2(b'\r', b'\n', &buf[self.scanned..]).map(|i| i + self.scanned);
        let consumed = match first_break {
            None => 0,
            Some(end) => {
                let mut next = end + 1;
                if buf[end] == b'\r' {
                    if next < buf.len() {
                        if buf[next] == b'\n' {
                            next += 1;
                        }
                    } else {
                        self.skip_lf = true;
                    }
                }
                self.handle_line(&buf[..end], &mut sink);
                next + self.consume_lines(&buf[next..], &mut sink)
            }
        };
        self.buf = buf;
        self.buf.drain(..consumed);
        self.scanned = self.buf.len();
    }

    /// Bytes held for the event being read (its unfinished line and data so
    /// far): what a sender that never ends a line or an event makes grow.
    pub fn pending_bytes(&self) -> usize {
        self.buf.len() + self.data.len()
    }

    /// Flush what remains at end of stream: an unterminated last line and an
    /// event that was not followed by a blank line.
    pub fn finish(&mut self) -> Option<SseEvent> {
        let rest = std::mem::take(&mut self.buf);
        self.scanned = 0;
        self.skip_lf = false;
        let mut out = None;
        if !rest.is_empty() {
            self.handle_line(&rest, &mut |ev| out = Some(ev));
        }
        out.or_else(|| self.dispatch())
    }

    /// Process every complete line of `bytes`; returns how many bytes were consumed.
    fn consume_lines(&mut self, bytes: &[u8], sink: &mut impl FnMut(SseEvent)) -> usize {
        let mut pos = 0;
        while let Some(i) = memchr2(b'\r', b'\n', &bytes[pos..]) {
            let end = pos + i;
            let mut next = end + 1;
            if bytes[end] == b'\r' {
                if next < bytes.len() {
                    if bytes[next] == b'\n' {
                        next += 1;
                    }
                } else {
                    self.skip_lf = true;
                }
            }
            self.handle_line(&bytes[pos..end], sink);
            pos = next;
        }
        pos
    }

    fn handle_line(&mut self, mut line: &[u8], sink: &mut impl FnMut(SseEvent)) {
        if !self.bom_checked {
            self.bom_checked = true;
            if let Some(rest) = line.strip_prefix(b"\xEF\xBB\xBF") {
                line = rest;
            }
        }
        if line.is_empty() {
            if let Some(ev) = self.dispatch() {
                sink(ev);
            }
            return;
        }
        if line[0] == b':' {
            return;
        }
        let (field, value) = match memchr::memchr(b':', line) {
            Some(i) => {
                let v = &line[i + 1..];
                (&line[..i], v.strip_prefix(b" ").unwrap_or(v))
            }
            None => (line, &line[line.len()..]),
        };
        match field {
            b"data" => {
                if self.data_lines > 0 {
                    self.data.push('\n');
                }
                self.data_lines += 1;
                push_utf8(&mut self.data, value);
            }
            b"event" => {
                let mut name = String::with_capacity(value.len());
                push_utf8(&mut name, value);
                self.event = Some(name);
            }
            _ => {}
        }
    }

    fn dispatch(&mut self) -> Option<SseEvent> {
        if self.event.is_none() && self.data_lines == 0 {
            return None;
        }
        self.data_lines = 0;
        Some(SseEvent {
            event: self.event.take(),
            data: std::mem::take(&mut self.data),
        })
    }
}

/// Append bytes as UTF-8, replacing invalid sequences.
fn push_utf8(out: &mut String, bytes: &[u8]) {
    match std::str::from_utf8(bytes) {
        Ok(s) => out.push_str(s),
        Err(_) => out.push_str(&String::from_utf8_lossy(bytes)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(event: Option<&str>, data: &str) -> SseEvent {
        SseEvent {
            event: event.map(str::to_string),
            data: data.to_string(),
        }
    }

    fn parse_all(chunks: &[&[u8]]) -> Vec<SseEvent> {
        let mut p = SseParser::new();
        let mut out = Vec::new();
        for c in chunks {
            out.extend(p.push(c));
        }
        out.extend(p.finish());
        out
    }

    #[test]
    fn parses_events_with_names_and_multiline_data() {
        let input = b"event: a\ndata: one\ndata: two\n\n: comment\ndata:x\n\n";
        assert_eq!(
            parse_all(&[input]),
            vec![ev(Some("a"), "one\ntwo"), ev(None, "x")]
        );
    }

    #[test]
    fn handles_crlf_cr_and_lf_line_endings() {
        let expected = vec![ev(Some("e"), "1"), ev(None, "2")];
        assert_eq!(
            parse_all(&[b"event: e\r\ndata: 1\r\n\r\ndata: 2\r\n\r\n"]),
            expected
        );
        assert_eq!(parse_all(&[b"event: e\rdata: 1\r\rdata: 2\r\r"]), expected);
        assert_eq!(parse_all(&[b"event: e\ndata: 1\n\ndata: 2\n\n"]), expected);
    }

    #[test]
    fn crlf_split_across_chunks_is_one_break() {
        assert_eq!(
            parse_all(&[b"data: 1\r", b"\n\r", b"\ndata: 2\n\n"]),
            vec![ev(None, "1"), ev(None, "2")]
        );
    }

    #[test]
    fn every_split_point_yields_identical_events() {
        let input = "event: x\r\ndata: {\"t\":\"h\u{e9}llo \u{4f60}\u{597d}\"}\r\n\r\n: ping\ndata: a\rdata: b\r\r\
                     event: y\ndata\ndata:  two spaces\n\n"
            .as_bytes();
        let whole = parse_all(&[input]);
        assert_eq!(whole.len(), 3);
        assert_eq!(whole[0].data, "{\"t\":\"h\u{e9}llo \u{4f60}\u{597d}\"}");
        assert_eq!(whole[1], ev(None, "a\nb"));
        assert_eq!(whole[2], ev(Some("y"), "\n two spaces"));
        for i in 0..=input.len() {
            for j in i..=input.len() {
                let got = parse_all(&[&input[..i], &input[i..j], &input[j..]]);
                assert_eq!(got, whole, "split at {i}/{j}");
            }
        }
        let bytes: Vec<&[u8]> = input.chunks(1).collect();
        assert_eq!(parse_all(&bytes), whole);
    }

    #[test]
    fn finish_flushes_unterminated_event() {
        let mut p = SseParser::new();
        assert!(p.push(b"event: done\ndata: [DONE]").is_empty());
        assert_eq!(p.finish(), Some(ev(Some("done"), "[DONE]")));
        assert_eq!(p.finish(), None);
    }

    #[test]
    fn empty_data_line_still_dispatches_and_bom_is_skipped() {
        assert_eq!(parse_all(&[b"\xEF\xBB\xBFdata:\n\n"]), vec![ev(None, "")]);
        assert!(parse_all(&[b"id: 5\nretry: 10\n\n"]).is_empty());
    }

    #[test]
    fn invalid_utf8_is_replaced_not_dropped() {
        assert_eq!(
            parse_all(&[b"data: a\xFFb\n\n"]),
            vec![ev(None, "a\u{fffd}b")]
        );
    }
}
