//! Integration tests for the `read` tool.

use std::path::Path;

use pi::agent::tool::{AgentTool, ToolContext, ToolError, ToolOutput};
use pi::ai::types::ContentBlock;
use pi::tools::ReadTool;
use serde_json::{Value, json};

async fn read(cwd: &Path, args: Value) -> Result<ToolOutput, ToolError> {
    ReadTool::new()
        .execute("call", args, ToolContext::new(cwd))
        .await
}

fn numbered_lines(count: usize) -> String {
    (1..=count).map(|i| format!("line {i}\n")).collect()
}

#[tokio::test]
async fn reads_whole_small_file_without_details() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "hello\nworld\n").unwrap();
    let out = read(dir.path(), json!({"path": "a.txt"})).await.unwrap();
    assert_eq!(out.joined_text(), "hello\nworld\n");
    assert!(out.details.is_none());
}

#[tokio::test]
async fn at_prefix_and_absolute_paths_resolve() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.txt");
    std::fs::write(&file, "x").unwrap();
    let out = read(dir.path(), json!({"path": "@a.txt"})).await.unwrap();
    assert_eq!(out.joined_text(), "x");
    let elsewhere = tempfile::tempdir().unwrap();
    let out = read(elsewhere.path(), json!({"path": file.to_str().unwrap()}))
        .await
        .unwrap();
    assert_eq!(out.joined_text(), "x");
}

#[tokio::test]
async fn offset_and_limit_add_continuation_notice() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), numbered_lines(10)).unwrap();
    let out = read(
        dir.path(),
        json!({"path": "a.txt", "offset": 3, "limit": 2}),
    )
    .await
    .unwrap();
    // 10 lines plus the empty string after the final newline = 11 lines.
    assert_eq!(
        out.joined_text(),
        "line 3\nline 4\n\n[7 more lines in file. Use offset=5 to continue.]"
    );
    let out = read(dir.path(), json!({"path": "a.txt", "offset": 9}))
        .await
        .unwrap();
    assert_eq!(out.joined_text(), "line 9\nline 10\n");
}

#[tokio::test]
async fn offset_beyond_end_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "a\nb").unwrap();
    let err = read(dir.path(), json!({"path": "a.txt", "offset": 5}))
        .await
        .unwrap_err();
    assert_eq!(
        err.message,
        "Offset 5 is beyond end of file (2 lines total)"
    );
}

#[tokio::test]
async fn long_file_is_truncated_by_lines() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("big.txt"), numbered_lines(2500)).unwrap();
    let out = read(dir.path(), json!({"path": "big.txt"})).await.unwrap();
    let text = out.joined_text();
    assert!(text.starts_with("line 1\n"));
    assert!(
        text.ends_with("line 2000\n\n[Showing lines 1-2000 of 2501. Use offset=2001 to continue.]")
    );
    let truncation = &out.details.unwrap()["truncation"];
    assert_eq!(truncation["truncatedBy"], "lines");
    assert_eq!(truncation["outputLines"], 2000);
    assert_eq!(truncation["totalLines"], 2501);
}

#[tokio::test]
async fn wide_file_is_truncated_by_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let content = format!("{}\n", "x".repeat(999)).repeat(100);
    std::fs::write(dir.path().join("wide.txt"), content).unwrap();
    let out = read(dir.path(), json!({"path": "wide.txt"})).await.unwrap();
    assert!(
        out.joined_text().ends_with(
            "\n\n[Showing lines 1-51 of 101 (50.0KB limit). Use offset=52 to continue.]"
        )
    );
    assert_eq!(out.details.unwrap()["truncation"]["truncatedBy"], "bytes");
}

#[tokio::test]
async fn oversized_first_line_points_to_bash() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("one.txt"), "y".repeat(60_000)).unwrap();
    let out = read(dir.path(), json!({"path": "one.txt"})).await.unwrap();
    assert_eq!(
        out.joined_text(),
        "[Line 1 is 58.6KB, exceeds 50.0KB limit. Use bash: sed -n '1p' one.txt | head -c 51200]"
    );
    assert_eq!(
        out.details.unwrap()["truncation"]["firstLineExceedsLimit"],
        true
    );
}

#[tokio::test]
async fn missing_file_error_names_resolved_path() {
    let dir = tempfile::tempdir().unwrap();
    let err = read(dir.path(), json!({"path": "nope.txt"}))
        .await
        .unwrap_err();
    let expected = dir.path().join("nope.txt");
    assert_eq!(
        err.message,
        format!(
            "ENOENT: no such file or directory, access '{}'",
            expected.display()
        )
    );
}

#[tokio::test]
async fn directory_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let err = read(dir.path(), json!({"path": "."})).await.unwrap_err();
    assert_eq!(
        err.message,
        "EISDIR: illegal operation on a directory, read"
    );
}

#[tokio::test]
async fn png_is_returned_as_image_block_by_magic_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let png: Vec<u8> = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    // The extension is irrelevant: only the content decides.
    std::fs::write(dir.path().join("picture.dat"), &png).unwrap();
    let out = read(dir.path(), json!({"path": "picture.dat"}))
        .await
        .unwrap();
    assert_eq!(out.content.len(), 2);
    assert_eq!(
        out.content[0].as_text(),
        Some("Read image file [image/png]")
    );
    match &out.content[1] {
        ContentBlock::Image(image) => {
            assert_eq!(image.mime_type, "image/png");
            use base64::Engine;
            let decoded = base64::engine::general_purpose::STANDARD
                .decode(&image.data)
                .unwrap();
            assert_eq!(decoded, png);
        }
        other => panic!("expected image, got {other:?}"),
    }
}

#[tokio::test]
async fn text_named_png_is_read_as_text() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("fake.png"), "not an image").unwrap();
    let out = read(dir.path(), json!({"path": "fake.png"})).await.unwrap();
    assert_eq!(out.joined_text(), "not an image");
}

#[tokio::test]
async fn binary_file_gives_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("blob.bin"), b"ELF\0\x01\x02\x03garbage").unwrap();
    let err = read(dir.path(), json!({"path": "blob.bin"}))
        .await
        .unwrap_err();
    assert!(
        err.message.starts_with("Cannot read binary file: "),
        "{}",
        err.message
    );
    assert!(err.message.contains("blob.bin"));
}

#[tokio::test]
async fn non_utf8_text_is_decoded_lossily_with_note() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("latin1.txt"), b"caf\xe9 au lait\n").unwrap();
    let out = read(dir.path(), json!({"path": "latin1.txt"}))
        .await
        .unwrap();
    let text = out.joined_text();
    assert!(text.starts_with("caf\u{FFFD} au lait\n"));
    assert!(
        text.ends_with("[File is not valid UTF-8: invalid byte sequences are shown as \u{FFFD}.]")
    );
}

#[tokio::test]
async fn aborted_signal_stops_read() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "x").unwrap();
    let ctx = ToolContext::new(dir.path());
    ctx.signal.cancel();
    let err = ReadTool::new()
        .execute("call", json!({"path": "a.txt"}), ctx)
        .await
        .unwrap_err();
    assert_eq!(err.message, "Operation aborted");
}
