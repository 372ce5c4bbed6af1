//! The `grep` tool: search file contents in-process (regex or literal),
//! respecting ignore files and including hidden files.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkMatch};
use ignore::overrides::OverrideBuilder;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::agent::tool::{ToolContext, ToolError, ToolOutput};

use super::args::{
    ABORTED_MESSAGE, aborted, check_aborted, directory_arg, limit_arg, object_schema,
    optional_bool, optional_number, optional_str, required_str, run_blocking,
};
use super::listing::{ListingNotices, finish_listing};
use super::truncate::{GREP_MAX_LINE_LENGTH, truncate_line};
use super::walk::{
    Earliest, WalkOptions, WalkOrdered, build_walker, relative_slash_path, walk_parallel,
};

/// Default maximum number of matches.
const DEFAULT_LIMIT: usize = 100;

/// The built-in `grep` tool.
#[derive(Debug, Clone, Default)]
pub struct GrepTool;

impl GrepTool {
    /// A grep tool.
    pub fn new() -> Self {
        GrepTool
    }
}

/// A validated search request.
struct GrepRequest {
    pattern: String,
    search_path: PathBuf,
    glob: Option<String>,
    ignore_case: bool,
    literal: bool,
    context: usize,
    limit: usize,
}

/// One matching line.
struct LineMatch {
    path: PathBuf,
    line_number: u64,
    line: Vec<u8>,
}

impl PartialEq for LineMatch {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == std::cmp::Ordering::Equal
    }
}

impl Eq for LineMatch {}

impl PartialOrd for LineMatch {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Walk order: by path, then by line within a file.
impl Ord for LineMatch {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (&self.path, self.line_number).cmp(&(&other.path, other.line_number))
    }
}

impl WalkOrdered for LineMatch {
    fn path(&self) -> &Path {
        &self.path
    }
}

impl_builtin_tool! {
    GrepTool {
        name: "grep",
        description:
            "Search file contents for a pattern. Returns matching lines with file paths and line \
             numbers. Respects .gitignore. Output is truncated to 100 matches or 50KB (whichever is \
             hit first). Long lines are truncated to 500 chars.",
        snippet: "Search file contents for patterns (respects .gitignore)",
        parameters: object_schema(
            &["pattern"],
            &[
                ("pattern", "string", "Search pattern (regex or literal string)"),
                ("path", "string", "Directory or file to search (default: current directory)"),
                ("glob", "string", "Filter files by glob pattern, e.g. '*.ts' or '**/*.spec.ts'"),
                ("ignoreCase", "boolean", "Case-insensitive search (default: false)"),
                ("literal", "boolean", "Treat pattern as literal string instead of regex (default: false)"),
                ("context", "number", "Number of lines to show before and after each match (default: 0)"),
                ("limit", "number", "Maximum number of matches to return (default: 100)"),
            ],
        ),
    }
}

impl GrepTool {
    async fn run(&self, args: Value, ctx: ToolContext) -> Result<ToolOutput, ToolError> {
        check_aborted(&ctx.signal)?;
        let request = GrepRequest {
            pattern: required_str(&args, "pattern")?.to_string(),
            search_path: directory_arg(&args, &ctx.cwd),
            glob: optional_str(&args, "glob")
                .filter(|g| !g.is_empty())
                .map(str::to_string),
            ignore_case: optional_bool(&args, "ignoreCase").unwrap_or(false),
            literal: optional_bool(&args, "literal").unwrap_or(false),
            context: optional_number(&args, "context")
                .filter(|c| *c > 0.0)
                .map_or(0, |c| c as usize),
            limit: limit_arg(&args, DEFAULT_LIMIT, 1.0),
        };
        run_blocking(&ctx.signal, move |signal| run_grep(&request, signal)).await
    }
}

/// Search and format the result (blocking).
fn run_grep(request: &GrepRequest, signal: &CancellationToken) -> Result<ToolOutput, ToolError> {
    let metadata = std::fs::metadata(&request.search_path).map_err(|_| {
        ToolError::new(format!("Path not found: {}", request.search_path.display()))
    })?;
    let is_directory = metadata.is_dir();
    let matcher = RegexMatcherBuilder::new()
        .case_insensitive(request.ignore_case)
        .fixed_strings(request.literal)
        .line_terminator(Some(b'\n'))
        .build(&request.pattern)
        .map_err(|e| ToolError::new(e.to_string()))?;

    let matches = if is_directory {
        search_directory(request, &matcher, signal)?
    } else {
        let mut matches = Vec::new();
        search_file(&request.search_path, &matcher, request.limit, &mut matches);
        matches
    };
    if signal.is_cancelled() {
        return Err(aborted());
    }
    if matches.is_empty() {
        return Ok(ToolOutput::text("No matches found"));
    }

    let formatter = MatchFormatter {
        root: &request.search_path,
        is_directory,
        context: request.context,
    };
    let (lines, lines_truncated) = formatter.format(&matches);
    let match_limit_reached = matches.len() >= request.limit;
    let notices = ListingNotices {
        limit_reached: match_limit_reached.then(|| {
            (
                request.limit,
                "matchLimitReached",
                format!(
                    "{} matches limit reached. Use limit={} for more, or refine pattern",
                    request.limit,
                    request.limit * 2
                ),
            )
        }),
        lines_truncated,
    };
    Ok(finish_listing(&lines.join("\n"), notices))
}

/// Walk `request.search_path` and collect up to `request.limit` matches.
fn search_directory(
    request: &GrepRequest,
    matcher: &RegexMatcher,
    signal: &CancellationToken,
) -> Result<Vec<LineMatch>, ToolError> {
    let overrides = match &request.glob {
        Some(glob) => {
            let mut builder = OverrideBuilder::new(&request.search_path);
            builder
                .add(glob)
                .map_err(|e| ToolError::new(e.to_string()))?;
            Some(builder.build().map_err(|e| ToolError::new(e.to_string()))?)
        }
        None => None,
    };
    let options = WalkOptions {
        gitignore_without_repo: false,
        custom_ignore_file: None,
    };
    let earliest = Earliest::new(request.limit);
    let walker = build_walker(&request.search_path, options, overrides);
    let earliest_ref = &earliest;
    let completed = walk_parallel(&walker, &earliest, signal, || {
        let mut searcher = new_searcher();
        let mut found = Vec::new();
        move |entry: &ignore::DirEntry| {
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                return;
            }
            search_with(
                &mut searcher,
                entry.path(),
                matcher,
                request.limit,
                &mut found,
            );
            earliest_ref.offer(found.drain(..));
        }
    });
    if !completed {
        return Err(ToolError::new(ABORTED_MESSAGE));
    }
    Ok(earliest.into_sorted())
}

/// A line searcher that quits on binary files.
fn new_searcher() -> Searcher {
    SearcherBuilder::new()
        .line_number(true)
        .binary_detection(BinaryDetection::quit(b'\x00'))
        .build()
}

/// Append the matches in one file (stopping at `limit` in total). Unreadable
/// and binary files contribute nothing.
fn search_file(path: &Path, matcher: &RegexMatcher, limit: usize, matches: &mut Vec<LineMatch>) {
    search_with(&mut new_searcher(), path, matcher, limit, matches);
}

/// [`search_file`] with a searcher reused across files.
fn search_with(
    searcher: &mut Searcher,
    path: &Path,
    matcher: &RegexMatcher,
    limit: usize,
    matches: &mut Vec<LineMatch>,
) {
    let mut sink = CollectSink {
        path,
        limit,
        matches,
    };
    // Per-file read errors are skipped, like files that cannot be opened.
    let _ = searcher.search_path(matcher, path, &mut sink);
}

/// Collects matches into a shared list until the limit is reached.
struct CollectSink<'a> {
    path: &'a Path,
    limit: usize,
    matches: &'a mut Vec<LineMatch>,
}

impl Sink for CollectSink<'_> {
    type Error = io::Error;

    fn matched(&mut self, _searcher: &Searcher, mat: &SinkMatch<'_>) -> Result<bool, io::Error> {
        self.matches.push(LineMatch {
            path: self.path.to_path_buf(),
            line_number: mat.line_number().unwrap_or(0),
            line: mat.bytes().to_vec(),
        });
        Ok(self.matches.len() < self.limit)
    }
}

/// Turns matches into `path:LINE: text` and `path-LINE- text` lines.
struct MatchFormatter<'a> {
    root: &'a Path,
    is_directory: bool,
    context: usize,
}

impl MatchFormatter<'_> {
    /// Output lines and whether any line was shortened.
    fn format(&self, matches: &[LineMatch]) -> (Vec<String>, bool) {
        let mut lines = Vec::new();
        let mut truncated = false;
        let mut file_cache: HashMap<&Path, Option<Vec<String>>> = HashMap::new();
        for m in matches {
            let display_path = self.display_path(&m.path);
            if self.context == 0 {
                let text = String::from_utf8_lossy(&m.line).replace("\r\n", "\n");
                let text = text.replace('\r', "");
                let text = text.strip_suffix('\n').unwrap_or(&text);
                let (text, cut) = truncate_line(text, GREP_MAX_LINE_LENGTH);
                truncated |= cut;
                lines.push(format!("{display_path}:{}: {text}", m.line_number));
                continue;
            }
            let file_lines = file_cache
                .entry(m.path.as_path())
                .or_insert_with(|| read_lines(&m.path));
            let Some(file_lines) = file_lines else {
                lines.push(format!(
                    "{display_path}:{}: (unable to read file)",
                    m.line_number
                ));
                continue;
            };
            let line_number = m.line_number as usize;
            let start = line_number.saturating_sub(self.context).max(1);
            let end = (line_number + self.context).min(file_lines.len());
            for current in start..=end {
                let raw = file_lines.get(current - 1).map_or("", String::as_str);
                let (text, cut) = truncate_line(&raw.replace('\r', ""), GREP_MAX_LINE_LENGTH);
                truncated |= cut;
                let separator = if current == line_number { ':' } else { '-' };
                lines.push(format!(
                    "{display_path}{separator}{current}{separator} {text}"
                ));
            }
        }
        (lines, truncated)
    }

    /// Relative path under a searched directory, else the file name.
    fn display_path(&self, path: &Path) -> String {
        if self.is_directory {
            let relative = relative_slash_path(path, self.root);
            if !relative.is_empty() && !relative.starts_with("..") && path.starts_with(self.root) {
                return relative;
            }
        }
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }
}

/// The lines of a file with all line endings normalised, or `None` if unreadable.
fn read_lines(path: &Path) -> Option<Vec<String>> {
    let bytes = std::fs::read(path).ok()?;
    let text = String::from_utf8_lossy(&bytes)
        .replace("\r\n", "\n")
        .replace('\r', "\n");
    Some(text.split('\n').map(str::to_string).collect())
}
