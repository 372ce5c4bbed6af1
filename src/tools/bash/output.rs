//! Streaming command output with bounded memory.
//!
//! Raw chunks are decoded incrementally (`decode.rs`: control characters and
//! invalid UTF-8 become escapes), only a rolling tail of the decoded text is
//! kept for display, mostly-binary output is summarised instead of shown, and
//! once the output outgrows the display limits everything is written to a
//! temp file (`$TMPDIR/<prefix>-<16 hex>.log`) so nothing is lost.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use super::decode::{EscapingDecoder, binary_summary};
use crate::tools::truncate::{
    TruncatedBy, TruncationLimits, TruncationResult, truncate_tail, utf8_tail,
};

/// A point-in-time view of the output for display.
#[derive(Debug, Clone)]
pub struct OutputSnapshot {
    /// The tail of the output that fits the limits.
    pub content: String,
    /// Truncation facts about the whole output.
    pub truncation: TruncationResult,
    /// Where the full output is saved, once it needed saving.
    pub full_output_path: Option<PathBuf>,
    /// The output is mostly binary: `content` is a summary of it.
    pub binary: bool,
}

/// Bytes of the output's start named in a binary summary.
const HEAD_BYTES: usize = 16;
/// Output shorter than this is always shown as (escaped) text.
const MIN_BINARY_BYTES: usize = 64;

/// Accumulates a command's output (see the module docs).
#[derive(Debug)]
pub struct OutputAccumulator {
    limits: TruncationLimits,
    max_rolling_bytes: usize,
    temp_file_prefix: String,
    decoder: EscapingDecoder,
    head: Vec<u8>,
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
            decoder: EscapingDecoder::for_terminal_output(),
            head: Vec::new(),
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
        let room = HEAD_BYTES - self.head.len();
        self.head.extend_from_slice(&data[..room.min(data.len())]);
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
        let binary = self.is_mostly_binary();
        let content = if binary {
            binary_summary(self.total_raw_bytes, &self.head)
        } else {
            truncation.content.clone()
        };
        Ok(OutputSnapshot {
            content,
            truncation,
            full_output_path: self.temp_file_path.clone(),
            binary,
        })
    }

    /// More than 30% of a not-tiny output had to be escaped.
    fn is_mostly_binary(&self) -> bool {
        self.total_raw_bytes >= MIN_BINARY_BYTES
            && self.decoder.escaped_bytes() * 10 > self.total_raw_bytes * 3
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

    #[test]
    fn mostly_binary_output_is_summarised_and_saved_whole() {
        let mut acc = OutputAccumulator::new(small_limits(), "pi-test");
        let mut elf = b"\x7fELF\x02\x01\x01".to_vec();
        elf.resize(4096, 0);
        acc.append(&elf).unwrap();
        acc.finish().unwrap();
        let snap = acc.snapshot().unwrap();
        assert!(snap.binary);
        assert_eq!(
            snap.content,
            "[binary output: 4,096 bytes, first bytes 7f 45 4c 46 02 01 01 00 00 00 00 00 00 00 00 00 …]"
        );
        let path = snap.full_output_path.expect("saved");
        assert_eq!(std::fs::read(&path).unwrap(), elf);
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn text_with_a_few_escapes_is_shown() {
        let mut acc = OutputAccumulator::new(small_limits(), "pi-test");
        acc.append(&[b'x'; 80]).unwrap();
        acc.append(b"\0\x1b").unwrap();
        acc.finish().unwrap();
        let snap = acc.snapshot().unwrap();
        assert!(!snap.binary);
        assert!(snap.content.ends_with("x\\x00\\x1b"), "{}", snap.content);
    }
}
