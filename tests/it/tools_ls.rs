//! Integration tests for the `ls` tool.

use std::fs;
use std::path::Path;

use pi::agent::tool::{AgentTool, ToolContext, ToolError, ToolOutput};
use pi::tools::LsTool;
use serde_json::{Value, json};

async fn ls(cwd: &Path, args: Value) -> Result<ToolOutput, ToolError> {
    LsTool::new()
        .execute("call", args, ToolContext::new(cwd))
        .await
}

fn populated() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in ["b.txt", "A.md", ".env", "_x", "10", "9"] {
        fs::write(dir.path().join(name), "").unwrap();
    }
    fs::create_dir(dir.path().join("Src")).unwrap();
    dir
}

#[tokio::test]
async fn lists_sorted_with_dotfiles_and_dir_suffix() {
    let dir = populated();
    let out = ls(dir.path(), json!({})).await.unwrap();
    assert_eq!(out.joined_text(), "_x\n.env\n10\n9\nA.md\nb.txt\nSrc/");
    assert!(out.details.is_none());
}

#[tokio::test]
async fn entry_limit_adds_notice() {
    let dir = populated();
    let out = ls(dir.path(), json!({"limit": 2})).await.unwrap();
    assert_eq!(
        out.joined_text(),
        "_x\n.env\n\n[2 entries limit reached. Use limit=4 for more]"
    );
    assert_eq!(out.details.unwrap(), json!({"entryLimitReached": 2}));
}

#[tokio::test]
async fn relative_path_and_empty_directory() {
    let dir = populated();
    let out = ls(dir.path(), json!({"path": "Src"})).await.unwrap();
    assert_eq!(out.joined_text(), "(empty directory)");
}

#[tokio::test]
async fn errors_name_the_resolved_path() {
    let dir = populated();
    let err = ls(dir.path(), json!({"path": "missing"}))
        .await
        .unwrap_err();
    assert_eq!(
        err.message,
        format!("Path not found: {}", dir.path().join("missing").display())
    );
    let err = ls(dir.path(), json!({"path": "b.txt"})).await.unwrap_err();
    assert_eq!(
        err.message,
        format!("Not a directory: {}", dir.path().join("b.txt").display())
    );
}

#[tokio::test]
async fn dangling_symlinks_are_skipped() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("real"), "").unwrap();
    std::os::unix::fs::symlink(dir.path().join("gone"), dir.path().join("link")).unwrap();
    let out = ls(dir.path(), json!({})).await.unwrap();
    assert_eq!(out.joined_text(), "real");
}

#[tokio::test]
async fn aborted_signal_stops_ls() {
    let dir = populated();
    let ctx = ToolContext::new(dir.path());
    ctx.signal.cancel();
    let err = LsTool::new()
        .execute("call", json!({}), ctx)
        .await
        .unwrap_err();
    assert_eq!(err.message, "Operation aborted");
}
