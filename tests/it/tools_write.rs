//! Integration tests for the `write` tool.

use pi::agent::tool::{AgentTool, ToolContext};
use pi::tools::WriteTool;
use serde_json::json;

#[tokio::test]
async fn creates_parent_directories_and_reports_length() {
    let dir = tempfile::tempdir().unwrap();
    let out = WriteTool::new()
        .execute(
            "call",
            json!({"path": "a/b/c.txt", "content": "hello"}),
            ToolContext::new(dir.path()),
        )
        .await
        .unwrap();
    assert_eq!(out.joined_text(), "Successfully wrote 5 bytes to a/b/c.txt");
    assert!(out.details.is_none());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a/b/c.txt")).unwrap(),
        "hello"
    );
}

#[tokio::test]
async fn overwrites_and_counts_utf16_units() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("f.txt"), "old content").unwrap();
    // "é" is one UTF-16 unit, the emoji two.
    let out = WriteTool::new()
        .execute(
            "call",
            json!({"path": "f.txt", "content": "é😀"}),
            ToolContext::new(dir.path()),
        )
        .await
        .unwrap();
    assert_eq!(out.joined_text(), "Successfully wrote 3 bytes to f.txt");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("f.txt")).unwrap(),
        "é😀"
    );
}

#[tokio::test]
async fn writing_below_a_file_fails_with_code() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("file"), "x").unwrap();
    let err = WriteTool::new()
        .execute(
            "call",
            json!({"path": "file/child.txt", "content": "y"}),
            ToolContext::new(dir.path()),
        )
        .await
        .unwrap_err();
    assert!(
        err.message.starts_with("ENOTDIR") || err.message.starts_with("EEXIST"),
        "{}",
        err.message
    );
}

#[tokio::test]
async fn aborted_write_does_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = ToolContext::new(dir.path());
    ctx.signal.cancel();
    let err = WriteTool::new()
        .execute("call", json!({"path": "new.txt", "content": "x"}), ctx)
        .await
        .unwrap_err();
    assert_eq!(err.message, "Operation aborted");
    assert!(!dir.path().join("new.txt").exists());
}
