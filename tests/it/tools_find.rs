//! Integration tests for the `find` tool.

use std::fs;
use std::path::Path;

use pi::agent::tool::{AgentTool, ToolContext, ToolError, ToolOutput};
use pi::tools::FindTool;
use serde_json::{Value, json};

async fn find(cwd: &Path, args: Value) -> Result<ToolOutput, ToolError> {
    FindTool::new()
        .execute("call", args, ToolContext::new(cwd))
        .await
}

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir_all(root.join(".git/objects")).unwrap();
    fs::write(root.join(".git/objects/x.rs"), "").unwrap();
    fs::write(root.join(".gitignore"), "target/\n*.log\n").unwrap();
    fs::create_dir_all(root.join("src/nested")).unwrap();
    fs::write(root.join("src/main.rs"), "").unwrap();
    fs::write(root.join("src/nested/lib.rs"), "").unwrap();
    fs::write(root.join("src/nested/lib.spec.rs"), "").unwrap();
    fs::create_dir_all(root.join("target")).unwrap();
    fs::write(root.join("target/gen.rs"), "").unwrap();
    fs::write(root.join("debug.log"), "").unwrap();
    fs::write(root.join(".hidden.rs"), "").unwrap();
    fs::write(root.join("README.md"), "").unwrap();
    dir
}

#[tokio::test]
async fn finds_by_name_recursively_respecting_gitignore() {
    let dir = project();
    let out = find(dir.path(), json!({"pattern": "*.rs"})).await.unwrap();
    assert_eq!(
        out.joined_text(),
        ".hidden.rs\nsrc/main.rs\nsrc/nested/lib.rs\nsrc/nested/lib.spec.rs"
    );
    assert!(out.details.is_none());
}

#[tokio::test]
async fn directories_get_trailing_slash() {
    let dir = project();
    let out = find(dir.path(), json!({"pattern": "nest*"})).await.unwrap();
    assert_eq!(out.joined_text(), "src/nested/");
}

#[tokio::test]
async fn patterns_with_slash_match_paths() {
    let dir = project();
    let out = find(dir.path(), json!({"pattern": "src/**/*.spec.rs"}))
        .await
        .unwrap();
    assert_eq!(out.joined_text(), "src/nested/lib.spec.rs");
    let out = find(dir.path(), json!({"pattern": "src/*.rs"}))
        .await
        .unwrap();
    assert_eq!(out.joined_text(), "src/main.rs");
}

#[tokio::test]
async fn search_path_makes_results_relative_to_it() {
    let dir = project();
    let out = find(dir.path(), json!({"pattern": "*.rs", "path": "src/nested"}))
        .await
        .unwrap();
    assert_eq!(out.joined_text(), "lib.rs\nlib.spec.rs");
}

#[tokio::test]
async fn matching_is_smart_case() {
    let dir = project();
    let out = find(dir.path(), json!({"pattern": "readme*"}))
        .await
        .unwrap();
    assert_eq!(out.joined_text(), "README.md");
    let out = find(dir.path(), json!({"pattern": "Readme*"}))
        .await
        .unwrap();
    assert_eq!(out.joined_text(), "No files found matching pattern");
}

#[tokio::test]
async fn gitignore_applies_without_git_dir() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join(".gitignore"), "skip.txt\n").unwrap();
    fs::write(dir.path().join("skip.txt"), "").unwrap();
    fs::write(dir.path().join("keep.txt"), "").unwrap();
    let out = find(dir.path(), json!({"pattern": "*.txt"})).await.unwrap();
    assert_eq!(out.joined_text(), "keep.txt");
}

#[tokio::test]
async fn result_limit_adds_notice() {
    let dir = project();
    let out = find(dir.path(), json!({"pattern": "*.rs", "limit": 2}))
        .await
        .unwrap();
    assert_eq!(
        out.joined_text(),
        ".hidden.rs\nsrc/main.rs\n\n[2 results limit reached. Use limit=4 for more, or refine pattern]"
    );
    assert_eq!(out.details.unwrap(), json!({"resultLimitReached": 2}));
}

#[tokio::test]
async fn missing_path_and_no_results() {
    let dir = project();
    let err = find(dir.path(), json!({"pattern": "*", "path": "nope"}))
        .await
        .unwrap_err();
    assert_eq!(
        err.message,
        format!("Path not found: {}", dir.path().join("nope").display())
    );
    let out = find(dir.path(), json!({"pattern": "*.zig"})).await.unwrap();
    assert_eq!(out.joined_text(), "No files found matching pattern");
}

#[tokio::test]
async fn aborted_signal_stops_find() {
    let dir = project();
    let ctx = ToolContext::new(dir.path());
    ctx.signal.cancel();
    let err = FindTool::new()
        .execute("call", json!({"pattern": "*"}), ctx)
        .await
        .unwrap_err();
    assert_eq!(err.message, "Operation aborted");
}

#[tokio::test]
async fn limited_results_are_the_first_in_walk_order_every_time() {
    let dir = tempfile::tempdir().unwrap();
    for d in 0..20 {
        let sub = dir.path().join(format!("d{d:02}"));
        fs::create_dir_all(&sub).unwrap();
        for f in 0..20 {
            fs::write(sub.join(format!("f{f:02}.txt")), "").unwrap();
        }
    }
    fs::write(dir.path().join("d00.txt"), "").unwrap();
    for _ in 0..5 {
        let out = find(dir.path(), json!({"pattern": "*", "limit": 23}))
            .await
            .unwrap();
        let text = out.joined_text();
        let lines: Vec<&str> = text.lines().collect();
        // A folder, then everything in it, then what sorts after it.
        assert_eq!(lines[0], "d00/");
        assert_eq!(lines[1], "d00/f00.txt");
        assert_eq!(lines[20], "d00/f19.txt");
        assert_eq!(lines[21], "d00.txt");
        assert_eq!(lines[22], "d01/");
        assert!(text.contains("[23 results limit reached"));
    }
    let out = find(dir.path(), json!({"pattern": "*.txt", "limit": 1000}))
        .await
        .unwrap();
    assert_eq!(out.joined_text().lines().count(), 401);
}
