//! Streaming command output with bounded memory.
//!
//! Raw chunks are decoded incrementally as UTF-8 (invalid sequences become
//! U+FFFD), only a rolling tail of the decoded text is kept for display, and
//! once the output outgrows the display limits everything is written to a
//! temp file (`$TMPDIR/<prefix>-<16 hex>.log`) so nothing is lost.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use crate::tools::truncate::{
    TruncatedBy, TruncationLimits, TruncationResult, truncate_tail, utf8_tail,
};

/// Incremental UTF-8 decoder that carries incomplete sequences across chunks.
#[derive(Debug, Default)]
struct Utf8StreamDecoder {
    pending: Vec<u8>,
}

impl Utf8StreamDecoder {
    /// Decode `chunk`, keeping a trailing incomplete sequence for later.
    fn decode(&mut self, chunk: &[u8]) -> String {
        self.pending.extend_from_slice(chunk);
        let mut out = String::new();
        let mut rest: &[u8] = &self.pending;
        loop {
            match std::str::from_utf8(rest) {
                Ok(valid) => {
                    out.push_str(valid);
                    rest = &[];
                    break;
                }
                Err(e) => {
                    let (valid, after) = rest.split_at(e.valid_up_to());
                    // `valid_up_to` guarantees this prefix is UTF-8.
                    out.push_str(std::str::from_utf8(valid).unwrap_or_default());
                    match e.error_len() {
                        Some(bad) => {
                            out.push('\u{FFFD}');
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

    /// Flush: an incomplete trailing sequence becomes U+FFFD.
    fn finish(&mut self) -> String {
        if self.pending.is_empty() {
            String::new()
        } else {
            self.pending.clear();
            "\u{FFFD}".to_string()
        }
    }
}

/// A point-in-time view of the output for display.
#[derive(Debug, Clone)]
pub struct OutputSnapshot {
    /// The tail of the output that fits the limits.
    pub content: String,
    /// Truncation facts about the whole output.
    pub truncation: TruncationResult,
    /// Where the full output is saved, once it needed saving.
    pub full_output_path: Option<PathBuf>,
}

/// Accumulates a command's output (see the module docs).
#[derive(Debug)]
pub struct OutputAccumulator {
    limits: TruncationLimits,
    max_rolling_bytes: usize,
    temp_file_prefix: String,
    decoder: Utf8StreamDecoder,
    raw_chunks: Vec<Vec<u8>>,
    tail_text: String,
    tail_starts_at_line_boundary: bool,
    total_raw_bytes: usize,
    total_decoded_bytes: usize,
    total_lines: usize,
    current_line_bytes: usize,
    finished: bool,
    temp_file_path: Option<PathBuf>,
    temp_file: Option<BufWriter<File>>,
}

impl OutputAccumulator {
    /// An empty accumulator with the given display limits and temp file prefix.
    pub fn new(limits: TruncationLimits, temp_file_prefix: &str) -> Self {
        OutputAccumulator {
            limits,
            max_rolling_bytes: (limits.max_bytes * 2).max(1),
            temp_file_prefix: temp_file_prefix.to_string(),
            decoder: Utf8StreamDecoder::default(),
            raw_chunks: Vec::new(),
            tail_text: String::new(),
            tail_starts_at_line_boundary: true,
            total_raw_bytes: 0,
            total_decoded_bytes: 0,
            total_lines: 1,
            current_line_bytes: 0,
            finished: false,
            temp_file_path: None,
            temp_file: None,
        }
    }

    /// Add a raw chunk of output.
    pub fn append(&mut self, data: &[u8]) -> io::Result<()> {
        if self.finished {
            return Err(io::Error::other(
                "cannot append to a finished output accumulator",
            ));
        }
        self.total_raw_bytes += data.len();
        let text = self.decoder.decode(data);
        self.append_decoded(&text);
        if self.temp_file.is_some() || self.needs_temp_file() {
            self.ensure_temp_file()?;
            if let Some(file) = &mut self.temp_file {
                file.write_all(data)?;
            }
        } else if !data.is_empty() {
            self.raw_chunks.push(data.to_vec());
        }
        Ok(())
    }

    /// Mark the end of output: flush the decoder and the temp file.
    pub fn finish(&mut self) -> io::Result<()> {
        if self.finished {
            return Ok(());
        }
        self.finished = true;
        let rest = self.decoder.finish();
        self.append_decoded(&rest);
        if self.needs_temp_file() {
            self.ensure_temp_file()?;
        }
        if let Some(mut file) = self.temp_file.take() {
            file.flush()?;
        }
        Ok(())
    }

    /// The current tail, truncation facts and temp file path. When the
    /// output is truncated, the temp file is created if it does not exist yet.
    pub fn snapshot(&mut self) -> io::Result<OutputSnapshot> {
        let tail = truncate_tail(self.snapshot_text(), self.limits);
        let truncated = self.total_lines > self.limits.max_lines
            || self.total_decoded_bytes > self.limits.max_bytes;
        let truncated_by = if truncated {
            tail.truncated_by
                .or(Some(if self.total_decoded_bytes > self.limits.max_bytes {
                    TruncatedBy::Bytes
                } else {
                    TruncatedBy::Lines
                }))
        } else {
            None
        };
        let truncation = TruncationResult {
            truncated,
            truncated_by,
            total_lines: self.total_lines,
            total_bytes: self.total_decoded_bytes,
            max_lines: self.limits.max_lines,
            max_bytes: self.limits.max_bytes,
            ..tail
        };
        if truncation.truncated {
            self.ensure_temp_file()?;
        }
        if let Some(file) = &mut self.temp_file {
            file.flush()?;
        }
        Ok(OutputSnapshot {
            content: truncation.content.clone(),
            truncation,
            full_output_path: self.temp_file_path.clone(),
        })
    }

    /// Bytes of the last (possibly unterminated) line.
    pub fn last_line_bytes(&self) -> usize {
        self.current_line_bytes
    }

    fn append_decoded(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        self.total_decoded_bytes += text.len();
        self.tail_text.push_str(text);
        if self.tail_text.len() > self.max_rolling_bytes * 2 {
            self.trim_tail();
        }
        match text.rfind('\n') {
            None => self.current_line_bytes += text.len(),
            Some(last) => {
                self.total_lines += text.matches('\n').count();
                self.current_line_bytes = text.len() - last - 1;
            }
        }
    }

    /// Keep only the last `max_rolling_bytes` of decoded text.
    fn trim_tail(&mut self) {
        let kept_len = utf8_tail(&self.tail_text, self.max_rolling_bytes).len();
        let start = self.tail_text.len() - kept_len;
        if start == 0 {
            return;
        }
        self.tail_starts_at_line_boundary = self.tail_text.as_bytes()[start - 1] == b'\n';
        self.tail_text.drain(..start);
    }

    /// The tail text, starting at a line boundary when the tail was trimmed.
    fn snapshot_text(&self) -> &str {
        if self.tail_starts_at_line_boundary {
            return &self.tail_text;
        }
        match self.tail_text.find('\n') {
            Some(first) => &self.tail_text[first + 1..],
            None => &self.tail_text,
        }
    }

    fn needs_temp_file(&self) -> bool {
        self.total_raw_bytes > self.limits.max_bytes
            || self.total_decoded_bytes > self.limits.max_bytes
            || self.total_lines > self.limits.max_lines
    }

    fn ensure_temp_file(&mut self) -> io::Result<()> {
        if self.temp_file_path.is_some() {
            return Ok(());
        }
        let (path, file) = super::logs::create(&self.temp_file_prefix)?;
        let mut file = BufWriter::new(file);
        for chunk in self.raw_chunks.drain(..) {
            file.write_all(&chunk)?;
        }
        self.temp_file_path = Some(path);
        self.temp_file = Some(file);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small_limits() -> TruncationLimits {
        TruncationLimits {
            max_lines: 3,
            max_bytes: 100,
        }
    }

    #[test]
    fn decodes_split_multibyte_characters() {
        let mut decoder = Utf8StreamDecoder::default();
        let bytes = "é".as_bytes();
        assert_eq!(decoder.decode(&bytes[..1]), "");
        assert_eq!(decoder.decode(&bytes[1..]), "é");
        assert_eq!(decoder.decode(b"a\xffb"), "a\u{FFFD}b");
        assert_eq!(decoder.decode(&bytes[..1]), "");
        assert_eq!(decoder.finish(), "\u{FFFD}");
    }

    #[test]
    fn small_output_is_not_truncated_and_has_no_file() {
        let mut acc = OutputAccumulator::new(small_limits(), "pi-test");
        acc.append(b"one\ntwo").unwrap();
        acc.finish().unwrap();
        let snap = acc.snapshot().unwrap();
        assert_eq!(snap.content, "one\ntwo");
        assert!(!snap.truncation.truncated);
        assert!(snap.full_output_path.is_none());
    }

    #[test]
    fn long_output_keeps_tail_and_saves_everything() {
        let mut acc = OutputAccumulator::new(small_limits(), "pi-test");
        for i in 1..=10 {
            acc.append(format!("line {i}\n").as_bytes()).unwrap();
        }
        acc.finish().unwrap();
        let snap = acc.snapshot().unwrap();
        assert!(snap.truncation.truncated);
        assert_eq!(snap.truncation.truncated_by, Some(TruncatedBy::Lines));
        assert_eq!(snap.truncation.total_lines, 11);
        assert_eq!(snap.content, "line 9\nline 10\n");
        let path = snap.full_output_path.expect("temp file");
        let saved = std::fs::read_to_string(&path).unwrap();
        assert!(saved.starts_with("line 1\n") && saved.ends_with("line 10\n"));
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn rolling_tail_stays_bounded() {
        let mut acc = OutputAccumulator::new(small_limits(), "pi-test");
        for _ in 0..1000 {
            acc.append(b"0123456789abcdef\n").unwrap();
        }
        assert!(acc.tail_text.len() <= acc.max_rolling_bytes * 2);
        acc.finish().unwrap();
        let snap = acc.snapshot().unwrap();
        assert_eq!(snap.truncation.total_bytes, 17_000);
        let path = snap.full_output_path.unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 17_000);
        std::fs::remove_file(path).unwrap();
    }
}
