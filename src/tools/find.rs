//! The `find` tool: files and directories matching a glob, respecting
//! ignore files and including hidden entries.
//!
//! A pattern without `/` matches entry names; a pattern with `/` matches the
//! whole path (prefixed with `**/` unless it is anchored). Matching is
//! case-insensitive unless the pattern contains an uppercase letter.

use std::path::{Path, PathBuf};

use globset::{GlobBuilder, GlobMatcher};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::agent::tool::{ToolContext, ToolError, ToolOutput};

use super::args::{
    aborted, check_aborted, directory_arg, limit_arg, object_schema, required_str, run_blocking,
};
use super::listing::{ListingNotices, finish_listing};
use super::walk::{
    Earliest, WalkOptions, WalkOrdered, build_walker, relative_slash_path, walk_parallel,
};

/// Default maximum number of results.
const DEFAULT_LIMIT: usize = 1000;

/// The built-in `find` tool.
#[derive(Debug, Clone, Default)]
pub struct FindTool;

impl FindTool {
    /// A find tool.
    pub fn new() -> Self {
        FindTool
    }
}

/// A compiled glob and what it is matched against.
struct PathPattern {
    matcher: GlobMatcher,
    full_path: bool,
}

impl PathPattern {
    fn new(pattern: &str) -> Result<Self, ToolError> {
        let full_path = pattern.contains('/');
        let effective = if full_path
            && !pattern.starts_with('/')
            && !pattern.starts_with("**/")
            && pattern != "**"
        {
            format!("**/{pattern}")
        } else {
            pattern.to_string()
        };
        let case_insensitive = !pattern.chars().any(char::is_uppercase);
        let glob = GlobBuilder::new(&effective)
            .literal_separator(true)
            .case_insensitive(case_insensitive)
            .build()
            .map_err(|e| ToolError::new(e.to_string()))?;
        Ok(PathPattern {
            matcher: glob.compile_matcher(),
            full_path,
        })
    }
}

impl_builtin_tool! {
    FindTool {
        name: "find",
        description:
            "Search for files by glob pattern. Returns matching file paths relative to the search \
             directory. Respects .gitignore. Output is truncated to 1000 results or 50KB (whichever \
             is hit first).",
        snippet: "Find files by glob pattern (respects .gitignore)",
        parameters: object_schema(
            &["pattern"],
            &[
                ("pattern", "string", "Glob pattern to match files, e.g. '*.ts', '**/*.json', or 'src/**/*.spec.ts'"),
                ("path", "string", "Directory to search in (default: current directory)"),
                ("limit", "number", "Maximum number of results (default: 1000)"),
            ],
        ),
    }
}

impl FindTool {
    async fn run(&self, args: Value, ctx: ToolContext) -> Result<ToolOutput, ToolError> {
        check_aborted(&ctx.signal)?;
        let pattern = PathPattern::new(required_str(&args, "pattern")?)?;
        let root = directory_arg(&args, &ctx.cwd);
        let limit = limit_arg(&args, DEFAULT_LIMIT, 1.0);
        run_blocking(&ctx.signal, move |signal| {
            run_find(&pattern, root, limit, signal)
        })
        .await
    }
}

/// A matching entry.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Found {
    path: PathBuf,
    is_dir: bool,
}

impl WalkOrdered for Found {
    fn path(&self) -> &Path {
        &self.path
    }
}

/// Walk `root` and list matching entries (blocking).
fn run_find(
    pattern: &PathPattern,
    root: PathBuf,
    limit: usize,
    signal: &CancellationToken,
) -> Result<ToolOutput, ToolError> {
    match std::fs::metadata(&root) {
        Err(_) => {
            return Err(ToolError::new(format!(
                "Path not found: {}",
                root.display()
            )));
        }
        Ok(meta) if !meta.is_dir() => {
            return Err(ToolError::new(format!(
                "Not a directory: {}",
                root.display()
            )));
        }
        Ok(_) => {}
    }
    let options = WalkOptions {
        gitignore_without_repo: true,
        custom_ignore_file: Some(".fdignore"),
    };
    let earliest = Earliest::new(limit);
    let walker = build_walker(&root, options, None);
    let earliest_ref = &earliest;
    let completed = walk_parallel(&walker, &earliest, signal, || {
        move |entry: &ignore::DirEntry| {
            let matched = if pattern.full_path {
                pattern.matcher.is_match(entry.path())
            } else {
                pattern.matcher.is_match(entry.file_name())
            };
            if matched {
                let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
                earliest_ref.offer([Found {
                    path: entry.path().to_path_buf(),
                    is_dir,
                }]);
            }
        }
    });
    if !completed {
        return Err(aborted());
    }
    let results: Vec<String> = earliest
        .into_sorted()
        .into_iter()
        .map(|found| {
            let mut relative = relative_slash_path(&found.path, &root);
            if found.is_dir {
                relative.push('/');
            }
            relative
        })
        .collect();
    if results.is_empty() {
        return Ok(ToolOutput::text("No files found matching pattern"));
    }
    let notices = ListingNotices {
        limit_reached: (results.len() >= limit).then(|| {
            (
                limit,
                "resultLimitReached",
                format!(
                    "{limit} results limit reached. Use limit={} for more, or refine pattern",
                    limit * 2
                ),
            )
        }),
        lines_truncated: false,
    };
    Ok(finish_listing(&results.join("\n"), notices))
}
