//! Small helpers for the JSON files pi reads and writes: lenient `//`-comment
//! stripping, bounded reading, and pretty output.

use std::path::Path;

use serde_json::Value;

use super::error::{FileError, JsonProblem};

/// Remove `//` line comments and trailing commas before `}` / `]`, leaving
/// string literals untouched. Removed characters become spaces so parse
/// errors still point at the right line and column.
pub fn strip_comments_and_trailing_commas(input: &str) -> String {
    let chars: Vec<char> = input.chars().collect();
    let mut out: Vec<char> = Vec::with_capacity(chars.len());
    let mut i = 0;
    let mut in_string = false;
    while i < chars.len() {
        let c = chars[i];
        if in_string {
            out.push(c);
            if c == '\\' && i + 1 < chars.len() {
                out.push(chars[i + 1]);
                i += 2;
                continue;
            }
            if c == '"' {
                in_string = false;
            }
            i += 1;
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    out.push(' ');
                    i += 1;
                }
                continue;
            }
            ',' if next_significant(&chars, i + 1).is_some_and(|n| n == '}' || n == ']') => {
                out.push(' ');
            }
            _ => out.push(c),
        }
        i += 1;
    }
    out.into_iter().collect()
}

/// The next character after `from` that is neither whitespace nor inside a
/// `//` comment.
fn next_significant(chars: &[char], mut from: usize) -> Option<char> {
    while from < chars.len() {
        let c = chars[from];
        if c.is_whitespace() {
            from += 1;
        } else if c == '/' && chars.get(from + 1) == Some(&'/') {
            while from < chars.len() && chars[from] != '\n' {
                from += 1;
            }
        } else {
            return Some(c);
        }
    }
    None
}

/// The largest configuration file pi reads (16 MiB).
pub const MAX_CONFIG_BYTES: u64 = 16 * 1024 * 1024;

/// Read a configuration file as text. Only a regular file is read (a FIFO,
/// a device or a folder is an error at once, never a hang), and at most
/// [`MAX_CONFIG_BYTES`]: a larger file is an error, never gigabytes of memory.
/// A missing file keeps the `NotFound` kind; a leading byte-order mark is dropped.
pub fn read_config_text(path: &Path) -> std::io::Result<String> {
    use std::io::{Error, ErrorKind};
    let bytes =
        super::regular_file::read_regular(path, MAX_CONFIG_BYTES).map_err(|e| match e.kind() {
            ErrorKind::InvalidInput => Error::new(
                ErrorKind::InvalidInput,
                format!("{e} (pi reads configuration only from regular files)"),
            ),
            ErrorKind::InvalidData => Error::new(
                ErrorKind::InvalidData,
                format!("{e}, too large for a configuration file"),
            ),
            _ => e,
        })?;
    let mut text = String::from_utf8(bytes).map_err(|e| Error::new(ErrorKind::InvalidData, e))?;
    // A byte-order mark (some Windows editors write one) is not JSON: accepted and dropped.
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}

/// Serialise as 2-space indented JSON (no trailing newline, like pi).
pub fn to_pretty_json(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| "{}".to_string())
}

/// Create the parent directory (if needed) and replace the file with `value`
/// as pretty JSON, atomically (the previous file stays whole on failure).
pub fn write_pretty_json(path: &Path, value: &Value) -> std::io::Result<()> {
    if let Some(dir) = path.parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir)?;
    }
    super::atomic_file::write_atomically(path, to_pretty_json(value).as_bytes())
}

/// Re-read a JSON object file just before changing it, so edits made by other
/// processes are kept. A missing file is an empty object.
pub fn read_object_for_update(
    path: &Path,
    parse: fn(&str) -> Result<serde_json::Map<String, Value>, JsonProblem>,
) -> Result<serde_json::Map<String, Value>, FileError> {
    match read_config_text(path) {
        Ok(text) => parse(&text).map_err(|problem| match problem {
            JsonProblem::NotAnObject => FileError::NotAnObject {
                path: path.to_path_buf(),
            },
            problem => FileError::Syntax {
                path: path.to_path_buf(),
                problem,
            },
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(serde_json::Map::new()),
        Err(e) => Err(FileError::unreadable(path, &e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_comments_and_trailing_commas_keeping_positions() {
        let src = "{\n  // note\n  \"a\": \"x // y\",\n  \"b\": [1, 2,],\n}";
        let cleaned = strip_comments_and_trailing_commas(src);
        assert_eq!(cleaned.len(), src.len());
        let v: Value = serde_json::from_str(&cleaned).unwrap();
        assert_eq!(v["a"], "x // y");
        assert_eq!(v["b"], serde_json::json!([1, 2]));
    }

    #[test]
    fn escaped_quotes_stay_inside_strings() {
        let src = r#"{"a": "q\" // not a comment", }"#;
        let v: Value = serde_json::from_str(&strip_comments_and_trailing_commas(src)).unwrap();
        assert_eq!(v["a"], "q\" // not a comment");
    }

    #[cfg(unix)]
    #[test]
    fn config_reads_refuse_fifos_and_devices_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("settings.json");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let started = std::time::Instant::now();
        let err = read_config_text(&fifo).unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
        assert!(read_config_text(Path::new("/dev/zero")).is_err());
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
        let missing = read_config_text(&dir.path().join("none")).unwrap_err();
        assert_eq!(missing.kind(), std::io::ErrorKind::NotFound);
    }
}
