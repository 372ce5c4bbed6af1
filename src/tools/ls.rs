//! The `ls` tool: one directory's entries, dotfiles included, sorted
//! case-insensitively, directories suffixed with `/`.

use std::cmp::Ordering;
use std::path::PathBuf;

use serde_json::Value;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

use crate::agent::tool::{ToolContext, ToolError, ToolOutput};

use super::args::{check_aborted, directory_arg, limit_arg, object_schema, run_blocking};
use super::fs_errors;
use super::listing::{ListingNotices, finish_listing};

/// Default maximum number of entries.
const DEFAULT_LIMIT: usize = 500;

/// The built-in `ls` tool.
#[derive(Debug, Clone, Default)]
pub struct LsTool;

impl LsTool {
    /// An ls tool.
    pub fn new() -> Self {
        LsTool
    }
}

impl_builtin_tool! {
    LsTool {
        name: "ls",
        description:
            "List directory contents. Returns entries sorted alphabetically, with '/' suffix for \
             directories. Includes dotfiles. Output is truncated to 500 entries or 50KB (whichever \
             is hit first).",
        snippet: "List directory contents",
        parameters: object_schema(
            &[],
            &[
                ("path", "string", "Directory to list (default: current directory)"),
                ("limit", "number", "Maximum number of entries to return (default: 500)"),
            ],
        ),
    }
}

impl LsTool {
    async fn run(&self, args: Value, ctx: ToolContext) -> Result<ToolOutput, ToolError> {
        check_aborted(&ctx.signal)?;
        let dir = directory_arg(&args, &ctx.cwd);
        let limit = limit_arg(&args, DEFAULT_LIMIT, 0.0);
        run_blocking(&ctx.signal, move |_| list_directory(dir, limit)).await
    }
}

/// List `dir` (blocking).
fn list_directory(dir: PathBuf, limit: usize) -> Result<ToolOutput, ToolError> {
    if !dir.exists() {
        return Err(ToolError::new(format!("Path not found: {}", dir.display())));
    }
    let meta = std::fs::metadata(&dir)
        .map_err(|e| ToolError::new(fs_errors::describe(&e, "stat", &dir)))?;
    if !meta.is_dir() {
        return Err(ToolError::new(format!(
            "Not a directory: {}",
            dir.display()
        )));
    }
    let read_error = |e: std::io::Error| {
        ToolError::new(format!(
            "Cannot read directory: {}",
            fs_errors::describe(&e, "scandir", &dir)
        ))
    };
    // Shown names escape bytes that are not UTF-8 (and control characters);
    // the entry itself is looked at by its real name.
    let mut names: Vec<(String, std::ffi::OsString)> = std::fs::read_dir(&dir)
        .map_err(read_error)?
        .filter_map(Result::ok)
        .map(|entry| {
            let name = entry.file_name();
            (display_name(&name), name)
        })
        .collect();
    names.sort_by(|a, b| compare_names(&a.0, &b.0));

    let mut results = Vec::new();
    let mut limit_reached = false;
    for (name, real) in names {
        if results.len() >= limit {
            limit_reached = true;
            break;
        }
        // Entries that cannot be inspected (e.g. dangling links) are skipped.
        let Ok(meta) = std::fs::metadata(dir.join(&real)) else {
            continue;
        };
        let suffix = if meta.is_dir() { "/" } else { "" };
        results.push(format!("{name}{suffix}"));
    }
    if results.is_empty() {
        return Ok(ToolOutput::text("(empty directory)"));
    }
    let notices = ListingNotices {
        limit_reached: limit_reached.then(|| {
            (
                limit,
                "entryLimitReached",
                format!(
                    "{limit} entries limit reached. Use limit={} for more",
                    limit * 2
                ),
            )
        }),
        lines_truncated: false,
    };
    Ok(finish_listing(&results.join("\n"), notices))
}

/// A file name as text: bytes that are not UTF-8 and control characters
/// become escapes (`\xff`, `\x0a`).
fn display_name(name: &std::ffi::OsStr) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        crate::tools::bash::decode::escape_bytes(name.as_bytes())
    }
    #[cfg(not(unix))]
    {
        name.to_string_lossy().into_owned()
    }
}

/// ASCII characters in dictionary order: punctuation and symbols, then
/// digits, then letters (the order of the root collation).
const ASCII_COLLATION_ORDER: &str =
    " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz";

/// Primary collation weight of a lowercase character: ASCII by dictionary
/// order, accented letters like their base letter, everything else after.
fn primary_weight(c: char) -> u32 {
    let base = c.nfd().find(|d| !is_combining_mark(*d)).unwrap_or(c);
    match ASCII_COLLATION_ORDER.find(base) {
        Some(rank) if base.is_ascii() => rank as u32,
        _ => 1000 + base as u32,
    }
}

/// Case-insensitive dictionary comparison of two names (approximating a
/// locale-aware comparison of their lowercase forms).
pub fn compare_names(a: &str, b: &str) -> Ordering {
    let (a, b) = (a.to_lowercase(), b.to_lowercase());
    let weights = |s: &str| s.chars().map(primary_weight).collect::<Vec<_>>();
    weights(&a).cmp(&weights(&b)).then_with(|| a.cmp(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_like_a_dictionary() {
        let mut names = vec![
            "b", "a.b", "a-b", "ab", "a_b", "A", "_x", ".git", "10", "9", "é", "e", "f", "Zeta",
        ];
        names.sort_by(|a, b| compare_names(a, b));
        assert_eq!(
            names,
            [
                "_x", ".git", "10", "9", "A", "a_b", "a-b", "a.b", "ab", "b", "e", "é", "f", "Zeta"
            ]
        );
    }
}
