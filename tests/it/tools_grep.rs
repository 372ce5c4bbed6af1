//! Integration tests for the `grep` tool.

use std::fs;
use std::path::Path;

use pi::agent::tool::{AgentTool, ToolContext, ToolError, ToolOutput};
use pi::tools::GrepTool;
use serde_json::{Value, json};

async fn grep(cwd: &Path, args: Value) -> Result<ToolOutput, ToolError> {
    GrepTool::new()
        .execute("call", args, ToolContext::new(cwd))
        .await
}

/// A small git-like project: `.git` dir, `.gitignore`, hidden and nested files.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir_all(root.join(".git")).unwrap();
    fs::write(root.join(".git/config"), "needle in git internals\n").unwrap();
    fs::write(root.join(".gitignore"), "ignored.txt\nbuild/\n").unwrap();
    fs::write(root.join("a.txt"), "first line\nneedle here\nlast line\n").unwrap();
    fs::write(root.join("ignored.txt"), "needle ignored\n").unwrap();
    fs::create_dir_all(root.join("build")).unwrap();
    fs::write(root.join("build/out.txt"), "needle built\n").unwrap();
    fs::write(root.join(".hidden.txt"), "needle hidden\n").unwrap();
    fs::create_dir_all(root.join("src")).unwrap();
    fs::write(
        root.join("src/main.rs"),
        "fn main() {\n    // Needle upper\n}\n",
    )
    .unwrap();
    dir
}

#[tokio::test]
async fn finds_matches_respecting_gitignore_and_including_hidden() {
    let dir = project();
    let out = grep(dir.path(), json!({"pattern": "needle"}))
        .await
        .unwrap();
    assert_eq!(
        out.joined_text(),
        ".hidden.txt:1: needle hidden\na.txt:2: needle here"
    );
    assert!(out.details.is_none());
}

#[tokio::test]
async fn ignore_case_and_glob_filter() {
    let dir = project();
    let out = grep(
        dir.path(),
        json!({"pattern": "needle", "ignoreCase": true, "glob": "*.rs"}),
    )
    .await
    .unwrap();
    assert_eq!(out.joined_text(), "src/main.rs:2:     // Needle upper");
}

#[tokio::test]
async fn literal_and_regex_modes_differ() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("f.txt"), "a.c\nabc\n").unwrap();
    let regex = grep(dir.path(), json!({"pattern": "a.c"})).await.unwrap();
    assert_eq!(regex.joined_text(), "f.txt:1: a.c\nf.txt:2: abc");
    let literal = grep(dir.path(), json!({"pattern": "a.c", "literal": true}))
        .await
        .unwrap();
    assert_eq!(literal.joined_text(), "f.txt:1: a.c");
}

#[tokio::test]
async fn context_lines_use_dash_separators() {
    let dir = project();
    let out = grep(
        dir.path(),
        json!({"pattern": "needle", "path": "a.txt", "context": 1}),
    )
    .await
    .unwrap();
    assert_eq!(
        out.joined_text(),
        "a.txt-1- first line\na.txt:2: needle here\na.txt-3- last line"
    );
}

#[tokio::test]
async fn match_limit_adds_notice_and_details() {
    let dir = tempfile::tempdir().unwrap();
    let content: String = (1..=10).map(|i| format!("hit {i}\n")).collect();
    fs::write(dir.path().join("f.txt"), content).unwrap();
    let out = grep(dir.path(), json!({"pattern": "hit", "limit": 3}))
        .await
        .unwrap();
    assert_eq!(
        out.joined_text(),
        "f.txt:1: hit 1\nf.txt:2: hit 2\nf.txt:3: hit 3\n\n[3 matches limit reached. Use limit=6 for more, or refine pattern]"
    );
    assert_eq!(out.details.unwrap(), json!({"matchLimitReached": 3}));
}

#[tokio::test]
async fn long_lines_are_cut_to_500_chars() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("f.txt"), format!("x{}\n", "y".repeat(700))).unwrap();
    let out = grep(dir.path(), json!({"pattern": "x"})).await.unwrap();
    let text = out.joined_text();
    let expected_line = format!("f.txt:1: x{}... [truncated]", "y".repeat(499));
    assert_eq!(
        text,
        format!(
            "{expected_line}\n\n[Some lines truncated to 500 chars. Use read tool to see full lines]"
        )
    );
    assert_eq!(out.details.unwrap()["linesTruncated"], true);
}

#[tokio::test]
async fn output_is_truncated_at_50kb() {
    let dir = tempfile::tempdir().unwrap();
    let line = format!("match {}\n", "z".repeat(400));
    fs::write(dir.path().join("f.txt"), line.repeat(300)).unwrap();
    let out = grep(dir.path(), json!({"pattern": "match", "limit": 1000}))
        .await
        .unwrap();
    assert!(out.joined_text().ends_with("\n\n[50.0KB limit reached]"));
    let details = out.details.unwrap();
    assert_eq!(details["truncation"]["truncatedBy"], "bytes");
    assert!(details.get("matchLimitReached").is_none());
}

#[tokio::test]
async fn ignore_file_applies_without_git_repo() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join(".ignore"), "skip.txt\n").unwrap();
    fs::write(dir.path().join("skip.txt"), "token\n").unwrap();
    fs::write(dir.path().join("keep.txt"), "token\n").unwrap();
    let out = grep(dir.path(), json!({"pattern": "token"})).await.unwrap();
    assert_eq!(out.joined_text(), "keep.txt:1: token");
}

#[tokio::test]
async fn no_match_missing_path_and_bad_regex() {
    let dir = project();
    let out = grep(dir.path(), json!({"pattern": "zebra"})).await.unwrap();
    assert_eq!(out.joined_text(), "No matches found");
    let err = grep(dir.path(), json!({"pattern": "x", "path": "nope"}))
        .await
        .unwrap_err();
    assert_eq!(
        err.message,
        format!("Path not found: {}", dir.path().join("nope").display())
    );
    let err = grep(dir.path(), json!({"pattern": "("})).await.unwrap_err();
    assert!(err.message.contains("regex parse error"), "{}", err.message);
}

#[tokio::test]
async fn crlf_line_endings_are_stripped() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("w.txt"), "one\r\ntwo\r\n").unwrap();
    let out = grep(dir.path(), json!({"pattern": "two"})).await.unwrap();
    assert_eq!(out.joined_text(), "w.txt:2: two");
}

#[tokio::test]
async fn aborted_signal_stops_search() {
    let dir = project();
    let ctx = ToolContext::new(dir.path());
    ctx.signal.cancel();
    let err = GrepTool::new()
        .execute("call", json!({"pattern": "needle"}), ctx)
        .await
        .unwrap_err();
    assert_eq!(err.message, "Operation aborted");
}

/// A tree wide and deep enough for the parallel walk to interleave folders:
/// `d00/f00.txt` … `d19/f19.txt`, each file two matching lines; plus `d05.txt`
/// between `d05/` and `d06/` in walk order.
fn wide_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for d in 0..20 {
        let sub = dir.path().join(format!("d{d:02}"));
        fs::create_dir_all(&sub).unwrap();
        for f in 0..20 {
            fs::write(sub.join(format!("f{f:02}.txt")), "hit one\nmiss\nhit two\n").unwrap();
        }
    }
    fs::write(dir.path().join("d05.txt"), "hit top\n").unwrap();
    dir
}

#[tokio::test]
async fn limited_results_are_the_first_in_walk_order_every_time() {
    let dir = wide_tree();
    // Matches 239 and 240 are in the last file of d05, 241 in d05.txt.
    let expected_tail = "d05/f19.txt:1: hit one\nd05/f19.txt:3: hit two\nd05.txt:1: hit top";
    for _ in 0..5 {
        let out = grep(dir.path(), json!({"pattern": "hit", "limit": 241}))
            .await
            .unwrap();
        let text = out.joined_text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "d00/f00.txt:1: hit one");
        assert_eq!(lines[1], "d00/f00.txt:3: hit two");
        assert_eq!(lines[2], "d00/f01.txt:1: hit one");
        assert_eq!(lines[238..241].join("\n"), expected_tail);
        assert!(text.contains("[241 matches limit reached"));
    }
    // Without a limit in reach, every match of all 401 files is listed.
    let out = grep(dir.path(), json!({"pattern": "hit", "limit": 2000}))
        .await
        .unwrap();
    assert_eq!(out.joined_text().lines().count(), 801);
}
