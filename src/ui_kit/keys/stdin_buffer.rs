//! Raw terminal bytes in, complete input sequences out. A read from the terminal can end
//! in the middle of an escape sequence (`ESC [ < 3 5` now, `; 2 0 ; 5 m` in the next read)
//! or of a UTF-8 character; the buffer holds such a tail until the rest arrives, or hands
//! it out as it is once [`StdinBuffer::deadline`] has passed (a lone ESC is the Escape
//! key). A bracketed paste (`ESC [ 200 ~ … ESC [ 201 ~`) comes out as one paste.

use std::time::{Duration, Instant};

const ESC: u8 = 0x1b;
const PASTE_START: &[u8] = b"\x1b[200~";
const PASTE_END: &[u8] = b"\x1b[201~";

/// How long an unfinished sequence waits for its rest by default.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_millis(10);

/// One thing the buffer hands out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StdinEvent {
    /// One key's sequence: a character, or a whole escape sequence.
    Data(String),
    /// The text of one bracketed paste, without its markers.
    Paste(String),
}

/// Splits terminal input into complete sequences (see the module documentation).
#[derive(Debug)]
pub struct StdinBuffer {
    pending: Vec<u8>,
    paste: Option<Vec<u8>>,
    /// How much of the paste has been searched for its end marker.
    paste_searched: usize,
    timeout: Duration,
    deadline: Option<Instant>,
    /// A Kitty CSI-u sequence for this printable code point was just handed out; some
    /// terminals send the plain character right after it, which is then dropped.
    echoed_printable: Option<u32>,
}

/// Whether the bytes at the start of a buffer make a whole sequence yet.
enum Extent {
    Complete(usize),
    Incomplete,
}

impl StdinBuffer {
    /// An empty buffer whose unfinished sequences wait `timeout` for their rest.
    pub fn new(timeout: Duration) -> StdinBuffer {
        StdinBuffer {
            pending: Vec::new(),
            paste: None,
            paste_searched: 0,
            timeout,
            deadline: None,
            echoed_printable: None,
        }
    }

    /// Take one read's bytes; returns every sequence now complete, in order.
    pub fn process(&mut self, data: &[u8]) -> Vec<StdinEvent> {
        let mut out = Vec::new();
        self.process_into(data, &mut out);
        out
    }

    fn process_into(&mut self, data: &[u8], out: &mut Vec<StdinEvent>) {
        self.deadline = None;
        // A lone byte with the high bit set is Meta+key from a terminal that sets bit 8,
        // unless it continues a character cut between reads.
        let converted;
        let data =
            if data.len() == 1 && data[0] > 0x7f && self.pending.is_empty() && self.paste.is_none()
            {
                converted = [ESC, data[0] - 0x80];
                &converted[..]
            } else {
                data
            };
        if data.is_empty() && self.pending.is_empty() && self.paste.is_none() {
            self.emit(String::new(), out);
            return;
        }
        if let Some(paste) = &mut self.paste {
            paste.extend_from_slice(&self.pending);
            paste.extend_from_slice(data);
            self.pending.clear();
            self.finish_paste(out);
            return;
        }
        self.pending.extend_from_slice(data);
        if let Some(start) = find(&self.pending, PASTE_START) {
            let before: Vec<u8> = self.pending[..start].to_vec();
            let after: Vec<u8> = self.pending[start + PASTE_START.len()..].to_vec();
            self.pending.clear();
            let (sequences, _) = split_sequences(&before);
            for sequence in sequences {
                self.emit(sequence, out);
            }
            self.echoed_printable = None;
            self.paste = Some(after);
            self.paste_searched = 0;
            self.finish_paste(out);
            return;
        }
        let (sequences, rest) = split_sequences(&self.pending);
        self.pending = rest;
        for sequence in sequences {
            self.emit(sequence, out);
        }
        if !self.pending.is_empty() {
            self.deadline = Some(Instant::now() + self.timeout);
        }
    }

    /// Hand out the paste once its end marker is in, then go on with what follows it.
    fn finish_paste(&mut self, out: &mut Vec<StdinEvent>) {
        let Some(paste) = &self.paste else { return };
        // The marker may begin in bytes searched before, up to its length minus one back.
        let from = self.paste_searched.saturating_sub(PASTE_END.len() - 1);
        let Some(end) = find(&paste[from..], PASTE_END).map(|at| from + at) else {
            self.paste_searched = paste.len();
            return;
        };
        let text = String::from_utf8_lossy(&paste[..end]).into_owned();
        let rest = paste[end + PASTE_END.len()..].to_vec();
        self.paste = None;
        self.echoed_printable = None;
        out.push(StdinEvent::Paste(text));
        if !rest.is_empty() {
            self.process_into(&rest, out);
        }
    }

    fn emit(&mut self, sequence: String, out: &mut Vec<StdinEvent>) {
        let mut chars = sequence.chars();
        let single = match (chars.next(), chars.next()) {
            (Some(c), None) => Some(c as u32),
            _ => None,
        };
        if single.is_some() && single == self.echoed_printable {
            self.echoed_printable = None;
            return;
        }
        self.echoed_printable = unmodified_kitty_printable(&sequence);
        out.push(StdinEvent::Data(sequence));
    }

    /// When the unfinished tail is to be handed out as it is (`None` when nothing waits).
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Hand out the unfinished tail when its deadline has passed by `now`.
    pub fn expire(&mut self, now: Instant) -> Vec<StdinEvent> {
        match self.deadline {
            Some(at) if now >= at => self.flush().into_iter().map(StdinEvent::Data).collect(),
            _ => Vec::new(),
        }
    }

    /// Hand out the unfinished tail at once (empty when nothing waits).
    pub fn flush(&mut self) -> Vec<String> {
        self.deadline = None;
        if self.pending.is_empty() {
            return Vec::new();
        }
        let tail = String::from_utf8_lossy(&std::mem::take(&mut self.pending)).into_owned();
        self.echoed_printable = None;
        vec![tail]
    }

    /// Forget everything held, a paste in progress included, without handing it out.
    pub fn clear(&mut self) {
        self.pending.clear();
        self.paste = None;
        self.paste_searched = 0;
        self.deadline = None;
        self.echoed_printable = None;
    }

    /// The unfinished tail held now.
    pub fn pending(&self) -> String {
        String::from_utf8_lossy(&self.pending).into_owned()
    }
}

impl Default for StdinBuffer {
    fn default() -> Self {
        StdinBuffer::new(DEFAULT_TIMEOUT)
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The complete sequences at the start of `bytes`, and the unfinished rest.
fn split_sequences(bytes: &[u8]) -> (Vec<String>, Vec<u8>) {
    let mut sequences = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let rest = &bytes[at..];
        let extent = if rest[0] == ESC {
            escape_extent(rest)
        } else {
            char_extent(rest)
        };
        match extent {
            Extent::Complete(len) => {
                sequences.push(String::from_utf8_lossy(&rest[..len]).into_owned());
                at += len;
            }
            Extent::Incomplete => return (sequences, rest.to_vec()),
        }
    }
    (sequences, Vec::new())
}

/// One UTF-8 character (an invalid byte counts as one character).
fn char_extent(bytes: &[u8]) -> Extent {
    let len = match bytes[0] {
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => 1,
    };
    if bytes.len() < len {
        return Extent::Incomplete;
    }
    if std::str::from_utf8(&bytes[..len]).is_ok() {
        Extent::Complete(len)
    } else {
        Extent::Complete(1)
    }
}

/// The extent of the escape sequence at the start of `bytes` (which begins with ESC).
fn escape_extent(bytes: &[u8]) -> Extent {
    let Some(&kind) = bytes.get(1) else {
        return Extent::Incomplete;
    };
    match kind {
        b'[' if bytes.get(2) == Some(&b'M') => {
            // X10 mouse report: ESC [ M and three bytes.
            if bytes.len() >= 6 {
                Extent::Complete(6)
            } else {
                Extent::Incomplete
            }
        }
        b'[' => csi_extent(bytes),
        b']' => string_extent(bytes, true),
        b'P' | b'_' => string_extent(bytes, false),
        // Escape pressed just before a key with a sequence of its own (Escape then Down
        // read together): the first ESC is the Escape key.
        ESC if matches!(bytes.get(2), Some(b'[' | b'O' | b']' | b'P' | b'_')) => {
            Extent::Complete(1)
        }
        b'O' => {
            if bytes.len() >= 3 {
                Extent::Complete(3)
            } else {
                Extent::Incomplete
            }
        }
        // ESC and one character: Alt+key.
        _ => match char_extent(&bytes[1..]) {
            Extent::Complete(len) => Extent::Complete(1 + len),
            Extent::Incomplete => Extent::Incomplete,
        },
    }
}

/// A CSI sequence ends at its first final byte (0x40..=0x7e); an SGR mouse report
/// (`ESC [ < b ; x ; y M`) only once its three numbers are whole.
fn csi_extent(bytes: &[u8]) -> Extent {
    let mouse = bytes.get(2) == Some(&b'<');
    for (i, &b) in bytes.iter().enumerate().skip(2) {
        if !(0x40..=0x7e).contains(&b) {
            continue;
        }
        if !mouse || ((b == b'M' || b == b'm') && is_sgr_mouse_body(&bytes[3..i])) {
            return Extent::Complete(i + 1);
        }
    }
    Extent::Incomplete
}

/// `digits;digits;digits`.
fn is_sgr_mouse_body(body: &[u8]) -> bool {
    let parts: Vec<&[u8]> = body.split(|&b| b == b';').collect();
    parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.iter().all(u8::is_ascii_digit))
}

/// OSC (ended by BEL or ST), DCS and APC (ended by ST, `ESC \`).
fn string_extent(bytes: &[u8], bel_ends: bool) -> Extent {
    for i in 2..bytes.len() {
        if bel_ends && bytes[i] == 0x07 {
            return Extent::Complete(i + 1);
        }
        if bytes[i] == ESC && bytes.get(i + 1) == Some(&b'\\') {
            return Extent::Complete(i + 2);
        }
    }
    Extent::Incomplete
}

/// The printable code point of an unmodified Kitty CSI-u key (`ESC [ 97 u`).
fn unmodified_kitty_printable(sequence: &str) -> Option<u32> {
    let body = sequence.strip_prefix("\x1b[")?.strip_suffix('u')?;
    let mut parts = body.split(':');
    let code: u32 = parts.next()?.parse().ok()?;
    let shifted = parts.next();
    let base = parts.next();
    let well_formed = shifted.is_none_or(|s| s.bytes().all(|b| b.is_ascii_digit()))
        && base.is_none_or(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
        && parts.next().is_none();
    (well_formed && code >= 32).then_some(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4 MiB paste read 4 KiB at a time: the end marker is looked for in the new bytes
    /// only, so the cost grows with the paste, not with its square.
    #[test]
    fn a_large_paste_in_small_reads_is_one_paste_quickly() {
        let body = "0123456789abcdef".repeat(4 << 16);
        let input = format!("\x1b[200~{body}\x1b[201~");
        let mut buffer = StdinBuffer::default();
        let started = Instant::now();
        let mut out = Vec::new();
        for chunk in input.as_bytes().chunks(4096) {
            out.extend(buffer.process(chunk));
        }
        let took = started.elapsed();
        eprintln!("4 MiB paste in 4 KiB reads: {took:?}");
        assert_eq!(out, vec![StdinEvent::Paste(body)]);
        assert!(took < Duration::from_secs(2), "{took:?}");
    }

    #[test]
    fn escape_read_together_with_the_next_key_is_escape_then_that_key() {
        let mut buffer = StdinBuffer::default();
        let data = |items: &[&str]| -> Vec<StdinEvent> {
            items
                .iter()
                .map(|s| StdinEvent::Data(s.to_string()))
                .collect()
        };
        assert_eq!(buffer.process(b"\x1b\x1b[B"), data(&["\x1b", "\x1b[B"]));
        assert_eq!(buffer.process(b"\x1b\x1bOA"), data(&["\x1b", "\x1bOA"]));
        // ESC ESC alone stays one sequence (Ctrl+Alt+[ or two Escapes).
        assert_eq!(buffer.process(b"\x1b\x1b"), data(&["\x1b\x1b"]));
    }

    #[test]
    fn an_end_marker_cut_between_reads_still_ends_the_paste() {
        let mut buffer = StdinBuffer::default();
        assert!(buffer.process(b"\x1b[200~abc\x1b[2").is_empty());
        assert!(buffer.process(b"01").is_empty());
        assert_eq!(
            buffer.process(b"~x"),
            vec![
                StdinEvent::Paste("abc".into()),
                StdinEvent::Data("x".into())
            ]
        );
    }
}
