//! Output truncation shared by the tools: a line limit and a byte limit,
//! whichever is hit first. Complete lines are kept, except when a single
//! trailing line is larger than the byte limit on its own.

use serde::Serialize;

/// Default maximum number of lines kept in tool output.
pub const DEFAULT_MAX_LINES: usize = 2000;
/// Default maximum number of bytes kept in tool output (50 KB).
pub const DEFAULT_MAX_BYTES: usize = 50 * 1024;
/// Maximum characters kept per grep output line.
pub const GREP_MAX_LINE_LENGTH: usize = 500;

/// Which limit caused truncation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TruncatedBy {
    /// The line limit.
    Lines,
    /// The byte limit.
    Bytes,
}

/// Limits for [`truncate_head`] and [`truncate_tail`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TruncationLimits {
    /// Maximum number of lines.
    pub max_lines: usize,
    /// Maximum number of bytes.
    pub max_bytes: usize,
}

impl Default for TruncationLimits {
    fn default() -> Self {
        TruncationLimits {
            max_lines: DEFAULT_MAX_LINES,
            max_bytes: DEFAULT_MAX_BYTES,
        }
    }
}

impl TruncationLimits {
    /// Only the default byte limit applies (used by listings, where the
    /// result count is limited separately). Serialises like pi's
    /// `Number.MAX_SAFE_INTEGER` line limit.
    pub fn bytes_only() -> Self {
        TruncationLimits {
            max_lines: MAX_SAFE_INTEGER,
            max_bytes: DEFAULT_MAX_BYTES,
        }
    }
}

/// The largest integer a JSON consumer can represent exactly.
const MAX_SAFE_INTEGER: usize = 9_007_199_254_740_991;

/// The outcome of a truncation, stored in tool `details` as `truncation`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TruncationResult {
    /// The kept text.
    pub content: String,
    /// Whether anything was dropped.
    pub truncated: bool,
    /// Which limit was hit (`null` when not truncated).
    pub truncated_by: Option<TruncatedBy>,
    /// Lines in the input.
    pub total_lines: usize,
    /// Bytes in the input.
    pub total_bytes: usize,
    /// Lines kept.
    pub output_lines: usize,
    /// Bytes kept.
    pub output_bytes: usize,
    /// The kept text starts in the middle of a line (tail truncation only).
    pub last_line_partial: bool,
    /// The first line alone exceeds the byte limit (head truncation only).
    pub first_line_exceeds_limit: bool,
    /// Line limit used.
    pub max_lines: usize,
    /// Byte limit used.
    pub max_bytes: usize,
}

impl TruncationResult {
    fn untouched(content: &str, limits: TruncationLimits) -> Self {
        let total_lines = content.split('\n').count();
        TruncationResult {
            content: content.to_string(),
            truncated: false,
            truncated_by: None,
            total_lines,
            total_bytes: content.len(),
            output_lines: total_lines,
            output_bytes: content.len(),
            last_line_partial: false,
            first_line_exceeds_limit: false,
            max_lines: limits.max_lines,
            max_bytes: limits.max_bytes,
        }
    }
}

/// Keep the first lines of `content` that fit both limits. Never returns a
/// partial line: when the first line alone is too large, the content is empty
/// and `first_line_exceeds_limit` is set.
pub fn truncate_head(content: &str, limits: TruncationLimits) -> TruncationResult {
    let lines: Vec<&str> = content.split('\n').collect();
    if lines.len() <= limits.max_lines && content.len() <= limits.max_bytes {
        return TruncationResult::untouched(content, limits);
    }
    let base = TruncationResult {
        content: String::new(),
        truncated: true,
        truncated_by: Some(TruncatedBy::Bytes),
        total_lines: lines.len(),
        total_bytes: content.len(),
        output_lines: 0,
        output_bytes: 0,
        last_line_partial: false,
        first_line_exceeds_limit: false,
        max_lines: limits.max_lines,
        max_bytes: limits.max_bytes,
    };
    if lines[0].len() > limits.max_bytes {
        return TruncationResult {
            first_line_exceeds_limit: true,
            ..base
        };
    }

    let mut kept = 0usize;
    let mut bytes = 0usize;
    let mut truncated_by = TruncatedBy::Lines;
    for (index, line) in lines.iter().enumerate().take(limits.max_lines) {
        let line_bytes = line.len() + usize::from(index > 0);
        if bytes + line_bytes > limits.max_bytes {
            truncated_by = TruncatedBy::Bytes;
            break;
        }
        kept += 1;
        bytes += line_bytes;
    }
    if kept >= limits.max_lines && bytes <= limits.max_bytes {
        truncated_by = TruncatedBy::Lines;
    }
    let output = lines[..kept].join("\n");
    TruncationResult {
        output_lines: kept,
        output_bytes: output.len(),
        content: output,
        truncated_by: Some(truncated_by),
        ..base
    }
}

/// Keep the last lines of `content` that fit both limits. When the very last
/// line alone exceeds the byte limit, its UTF-8-safe tail is kept and
/// `last_line_partial` is set.
pub fn truncate_tail(content: &str, limits: TruncationLimits) -> TruncationResult {
    let lines: Vec<&str> = content.split('\n').collect();
    if lines.len() <= limits.max_lines && content.len() <= limits.max_bytes {
        return TruncationResult::untouched(content, limits);
    }

    let mut kept: Vec<&str> = Vec::new();
    let mut bytes = 0usize;
    let mut truncated_by = TruncatedBy::Lines;
    let mut last_line_partial = false;
    for line in lines.iter().rev() {
        if kept.len() >= limits.max_lines {
            break;
        }
        let line_bytes = line.len() + usize::from(!kept.is_empty());
        if bytes + line_bytes > limits.max_bytes {
            truncated_by = TruncatedBy::Bytes;
            if kept.is_empty() {
                let tail = utf8_tail(line, limits.max_bytes);
                bytes = tail.len();
                kept.push(tail);
                last_line_partial = true;
            }
            break;
        }
        kept.push(line);
        bytes += line_bytes;
    }
    if kept.len() >= limits.max_lines && bytes <= limits.max_bytes {
        truncated_by = TruncatedBy::Lines;
    }
    kept.reverse();
    let output = kept.join("\n");
    TruncationResult {
        total_lines: lines.len(),
        total_bytes: content.len(),
        output_lines: kept.len(),
        output_bytes: output.len(),
        content: output,
        truncated: true,
        truncated_by: Some(truncated_by),
        last_line_partial,
        first_line_exceeds_limit: false,
        max_lines: limits.max_lines,
        max_bytes: limits.max_bytes,
    }
}

/// The longest suffix of `text` that is at most `max_bytes` long and starts
/// on a character boundary.
pub fn utf8_tail(text: &str, max_bytes: usize) -> &str {
    if text.len() <= max_bytes {
        return text;
    }
    let mut start = text.len() - max_bytes;
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}

/// A byte count as pi prints it: `512B`, `1.5KB`, `2.0MB`.
pub fn format_size(bytes: usize) -> String {
    /// `bytes / unit` with one decimal, ties rounded up (JavaScript `toFixed(1)`).
    fn one_decimal(bytes: usize, unit: u128) -> String {
        let tenths = (bytes as u128 * 10 + unit / 2) / unit;
        format!("{}.{}", tenths / 10, tenths % 10)
    }
    if bytes < 1024 {
        format!("{bytes}B")
    } else if bytes < 1024 * 1024 {
        format!("{}KB", one_decimal(bytes, 1024))
    } else {
        format!("{}MB", one_decimal(bytes, 1024 * 1024))
    }
}

/// A line cut to `max_chars` characters with a `... [truncated]` suffix, and
/// whether it was cut.
pub fn truncate_line(line: &str, max_chars: usize) -> (String, bool) {
    match line.char_indices().nth(max_chars) {
        None => (line.to_string(), false),
        Some((cut, _)) => (format!("{}... [truncated]", &line[..cut]), true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(max_lines: usize, max_bytes: usize) -> TruncationLimits {
        TruncationLimits {
            max_lines,
            max_bytes,
        }
    }

    #[test]
    fn head_keeps_everything_under_limits() {
        let r = truncate_head("a\nb\nc", TruncationLimits::default());
        assert!(!r.truncated);
        assert_eq!(r.truncated_by, None);
        assert_eq!(r.total_lines, 3);
        assert_eq!(r.content, "a\nb\nc");
    }

    #[test]
    fn head_cuts_by_lines() {
        let r = truncate_head("1\n2\n3\n4\n5", limits(3, 1000));
        assert_eq!(r.content, "1\n2\n3");
        assert_eq!(r.truncated_by, Some(TruncatedBy::Lines));
        assert_eq!(r.output_lines, 3);
        assert_eq!(r.total_lines, 5);
    }

    #[test]
    fn head_cuts_by_bytes_on_line_boundary() {
        let r = truncate_head("aaaa\nbbbb\ncccc", limits(100, 11));
        assert_eq!(r.content, "aaaa\nbbbb");
        assert_eq!(r.truncated_by, Some(TruncatedBy::Bytes));
        assert_eq!(r.output_bytes, 9);
    }

    #[test]
    fn head_reports_oversized_first_line() {
        let r = truncate_head("abcdefgh\nx", limits(100, 4));
        assert!(r.first_line_exceeds_limit);
        assert_eq!(r.content, "");
        assert_eq!(r.output_lines, 0);
    }

    #[test]
    fn tail_keeps_last_lines() {
        let r = truncate_tail("1\n2\n3\n4\n5", limits(2, 1000));
        assert_eq!(r.content, "4\n5");
        assert_eq!(r.truncated_by, Some(TruncatedBy::Lines));
    }

    #[test]
    fn tail_keeps_partial_last_line_utf8_safely() {
        let line = "é".repeat(10); // 20 bytes
        let r = truncate_tail(&format!("x\n{line}"), limits(100, 5));
        assert!(r.last_line_partial);
        assert_eq!(r.content, "éé");
        assert_eq!(r.output_bytes, 4);
        assert_eq!(r.truncated_by, Some(TruncatedBy::Bytes));
    }

    #[test]
    fn sizes_format_like_pi() {
        assert_eq!(format_size(512), "512B");
        assert_eq!(format_size(51200), "50.0KB");
        assert_eq!(format_size(1536), "1.5KB");
        assert_eq!(format_size(3 * 1024 * 1024), "3.0MB");
        assert_eq!(format_size(1280), "1.3KB");
        assert_eq!(format_size(1024 * 1024 - 1), "1024.0KB");
    }

    #[test]
    fn lines_are_cut_by_characters() {
        assert_eq!(truncate_line("héllo", 10), ("héllo".to_string(), false));
        assert_eq!(
            truncate_line("héllo", 2),
            ("hé... [truncated]".to_string(), true)
        );
    }

    #[test]
    fn serialises_with_camel_case_names() {
        let r = truncate_head("a", TruncationLimits::bytes_only());
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["truncatedBy"], serde_json::Value::Null);
        assert_eq!(v["maxLines"], 9_007_199_254_740_991u64);
        assert_eq!(v["firstLineExceedsLimit"], false);
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        assert_eq!(
            keys,
            [
                "content",
                "truncated",
                "truncatedBy",
                "totalLines",
                "totalBytes",
                "outputLines",
                "outputBytes",
                "lastLinePartial",
                "firstLineExceedsLimit",
                "maxLines",
                "maxBytes"
            ]
        );
    }
}
