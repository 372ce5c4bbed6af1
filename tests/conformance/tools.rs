//! The built-in tools: read, write, edit (with its fuzzy matching and line endings), bash,
//! grep, find and ls.
//! orig-file: packages/coding-agent/test/tools.test.ts

use std::path::Path;

use pi::agent::tool::{ToolContext, ToolError, ToolOutput};
use pi::tools::{ToolOptions, builtin_tool};
use serde_json::{Value, json};

async fn run_with(
    name: &str,
    options: &ToolOptions,
    cwd: &Path,
    args: Value,
) -> Result<ToolOutput, ToolError> {
    let tool = builtin_tool(name, options).unwrap();
    let args = tool.prepare_arguments(args);
    tool.execute("call", args, ToolContext::new(cwd)).await
}

pub(crate) async fn run(name: &str, cwd: &Path, args: Value) -> Result<ToolOutput, ToolError> {
    run_with(name, &ToolOptions::default(), cwd, args).await
}

fn numbered(n: usize) -> String {
    (1..=n)
        .map(|i| format!("Line {i}"))
        .collect::<Vec<_>>()
        .join("\n")
}

pub(crate) fn text(out: &ToolOutput) -> String {
    out.joined_text()
}

pub(crate) fn write(dir: &Path, name: &str, content: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, content).unwrap();
    path
}

/// orig: Coding Agent Tools › read tool › should read file contents that fit within limits
#[tokio::test]
async fn read_small_file() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "test.txt", "Hello, world!\nLine 2\nLine 3");
    let out = run("read", dir.path(), json!({"path": "test.txt"}))
        .await
        .unwrap();
    assert_eq!(text(&out), "Hello, world!\nLine 2\nLine 3");
    assert!(out.details.is_none());
}

/// orig: Coding Agent Tools › read tool › should handle non-existent files
#[tokio::test]
async fn read_missing_file() {
    let dir = tempfile::tempdir().unwrap();
    let err = run("read", dir.path(), json!({"path": "nonexistent.txt"}))
        .await
        .unwrap_err();
    let lower = err.message.to_lowercase();
    assert!(
        lower.contains("not found") || lower.contains("no such file"),
        "{}",
        err.message
    );
}

/// orig: Coding Agent Tools › read tool › should truncate files exceeding line limit
#[tokio::test]
async fn read_truncates_at_2000_lines() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "large.txt", &numbered(2500));
    let out = text(
        &run("read", dir.path(), json!({"path": "large.txt"}))
            .await
            .unwrap(),
    );
    assert!(out.contains("Line 1\n"));
    assert!(out.contains("Line 2000"));
    assert!(!out.contains("Line 2001"));
    assert!(
        out.contains("[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]"),
        "{}",
        &out[out.len() - 200..]
    );
}

/// orig: Coding Agent Tools › read tool › should truncate when byte limit exceeded
#[tokio::test]
async fn read_truncates_at_byte_limit() {
    let dir = tempfile::tempdir().unwrap();
    let content: Vec<String> = (1..=500)
        .map(|i| format!("Line {i}: {}", "x".repeat(200)))
        .collect();
    write(dir.path(), "large-bytes.txt", &content.join("\n"));
    let out = text(
        &run("read", dir.path(), json!({"path": "large-bytes.txt"}))
            .await
            .unwrap(),
    );
    assert!(out.contains("Line 1:"));
    let re = regex::Regex::new(
        r"\[Showing lines 1-\d+ of 500 \(.* limit\)\. Use offset=\d+ to continue\.\]",
    )
    .unwrap();
    assert!(re.is_match(&out), "{}", &out[out.len() - 200..]);
}

/// orig: Coding Agent Tools › read tool › should handle offset parameter
#[tokio::test]
async fn read_offset() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "f.txt", &numbered(100));
    let out = text(
        &run("read", dir.path(), json!({"path": "f.txt", "offset": 51}))
            .await
            .unwrap(),
    );
    assert!(!out.contains("Line 50"));
    assert!(out.contains("Line 51"));
    assert!(out.contains("Line 100"));
    assert!(!out.contains("Use offset="));
}

/// orig: Coding Agent Tools › read tool › should handle limit parameter
#[tokio::test]
async fn read_limit() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "f.txt", &numbered(100));
    let out = text(
        &run("read", dir.path(), json!({"path": "f.txt", "limit": 10}))
            .await
            .unwrap(),
    );
    assert!(out.contains("Line 1\n"));
    assert!(out.contains("Line 10"));
    assert!(!out.contains("Line 11"));
    assert!(
        out.contains("[90 more lines in file. Use offset=11 to continue.]"),
        "{out}"
    );
}

/// orig: Coding Agent Tools › read tool › should handle offset + limit together
#[tokio::test]
async fn read_offset_and_limit() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "f.txt", &numbered(100));
    let out = text(
        &run(
            "read",
            dir.path(),
            json!({"path": "f.txt", "offset": 41, "limit": 20}),
        )
        .await
        .unwrap(),
    );
    assert!(!out.contains("Line 40"));
    assert!(out.contains("Line 41"));
    assert!(out.contains("Line 60"));
    assert!(!out.contains("Line 61"));
    assert!(
        out.contains("[40 more lines in file. Use offset=61 to continue.]"),
        "{out}"
    );
}

/// orig: Coding Agent Tools › read tool › should show error when offset is beyond file length
#[tokio::test]
async fn read_offset_past_end() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "short.txt", "Line 1\nLine 2\nLine 3");
    let err = run(
        "read",
        dir.path(),
        json!({"path": "short.txt", "offset": 100}),
    )
    .await
    .unwrap_err();
    assert!(
        err.message
            .contains("Offset 100 is beyond end of file (3 lines total)"),
        "{}",
        err.message
    );
}

/// orig: Coding Agent Tools › read tool › should include truncation details when truncated
#[tokio::test]
async fn read_truncation_details() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "large.txt", &numbered(2500));
    let out = run("read", dir.path(), json!({"path": "large.txt"}))
        .await
        .unwrap();
    let t = &out.details.unwrap()["truncation"];
    assert_eq!(t["truncated"], true);
    assert_eq!(t["truncatedBy"], "lines");
    assert_eq!(t["totalLines"], 2500);
    assert_eq!(t["outputLines"], 2000);
}

const PNG_1X1: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mP8/x8AAwMCAO+X2Z0AAAAASUVORK5CYII=";

/// orig: Coding Agent Tools › read tool › should detect image MIME type from file magic (not extension)
#[tokio::test]
async fn read_image_by_magic() {
    use base64::Engine;
    let dir = tempfile::tempdir().unwrap();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(PNG_1X1)
        .unwrap();
    std::fs::write(dir.path().join("image.txt"), bytes).unwrap();
    let out = run("read", dir.path(), json!({"path": "image.txt"}))
        .await
        .unwrap();
    let blocks = serde_json::to_value(&out.content).unwrap();
    assert_eq!(blocks[0]["type"], "text");
    assert!(
        text(&out).contains("Read image file [image/png]"),
        "{}",
        text(&out)
    );
    let image = blocks
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["type"] == "image")
        .unwrap();
    assert_eq!(image["mimeType"], "image/png");
    assert!(!image["data"].as_str().unwrap().is_empty());
}

/// orig: Coding Agent Tools › read tool › should treat files with image extension but non-image content as text
#[tokio::test]
async fn read_fake_png_as_text() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "not-an-image.png", "definitely not a png");
    let out = run("read", dir.path(), json!({"path": "not-an-image.png"}))
        .await
        .unwrap();
    assert!(text(&out).contains("definitely not a png"));
    let blocks = serde_json::to_value(&out.content).unwrap();
    assert!(
        !blocks
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["type"] == "image")
    );
}

/// orig: Coding Agent Tools › write tool › should write file contents
#[tokio::test]
async fn write_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("write-test.txt");
    let out = run(
        "write",
        dir.path(),
        json!({"path": path, "content": "Test content"}),
    )
    .await
    .unwrap();
    assert!(text(&out).contains("Successfully wrote"));
    assert!(
        text(&out).contains(&path.display().to_string()),
        "{}",
        text(&out)
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "Test content");
}

/// orig: Coding Agent Tools › write tool › should create parent directories
#[tokio::test]
async fn write_creates_parents() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        "write",
        dir.path(),
        json!({"path": "nested/dir/test.txt", "content": "Nested content"}),
    )
    .await
    .unwrap();
    assert!(text(&out).contains("Successfully wrote"));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("nested/dir/test.txt")).unwrap(),
        "Nested content"
    );
}

/// orig: Coding Agent Tools › bash tool › should execute simple commands
#[tokio::test]
async fn bash_simple() {
    let dir = tempfile::tempdir().unwrap();
    let out = run("bash", dir.path(), json!({"command": "echo 'test output'"}))
        .await
        .unwrap();
    assert!(text(&out).contains("test output"));
    assert!(out.details.is_none());
}

/// orig: Coding Agent Tools › bash tool › should handle command errors
#[tokio::test]
async fn bash_failure() {
    let dir = tempfile::tempdir().unwrap();
    let err = run("bash", dir.path(), json!({"command": "exit 1"}))
        .await
        .unwrap_err();
    assert!(
        err.message.contains("Command failed") || err.message.contains("code 1"),
        "{}",
        err.message
    );
}

/// orig: Coding Agent Tools › bash tool › should respect timeout
#[tokio::test]
async fn bash_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let err = run(
        "bash",
        dir.path(),
        json!({"command": "sleep 5", "timeout": 1}),
    )
    .await
    .unwrap_err();
    assert!(
        err.message.to_lowercase().contains("timed out"),
        "{}",
        err.message
    );
}

/// orig: Coding Agent Tools › bash tool › should throw error when cwd does not exist
#[tokio::test]
async fn bash_missing_cwd() {
    let err = run(
        "bash",
        Path::new("/this/directory/definitely/does/not/exist/12345"),
        json!({"command": "echo test"}),
    )
    .await
    .unwrap_err();
    assert!(
        err.message.contains("Working directory does not exist"),
        "{}",
        err.message
    );
}

/// orig: Coding Agent Tools › bash tool › should handle process spawn errors
#[tokio::test]
async fn bash_missing_shell() {
    let dir = tempfile::tempdir().unwrap();
    let options = ToolOptions {
        shell_path: Some("/nonexistent-shell-path-xyz123".into()),
        ..Default::default()
    };
    let err = run_with(
        "bash",
        &options,
        dir.path(),
        json!({"command": "echo test"}),
    )
    .await
    .unwrap_err();
    assert!(
        err.message.contains("nonexistent-shell-path-xyz123")
            || err.message.contains("No such file"),
        "{}",
        err.message
    );
}

/// orig: Coding Agent Tools › bash tool › should prepend command prefix when configured
#[tokio::test]
async fn bash_prefix_sets_variable() {
    let dir = tempfile::tempdir().unwrap();
    let options = ToolOptions {
        shell_command_prefix: Some("export TEST_VAR=hello".into()),
        ..Default::default()
    };
    let out = run_with(
        "bash",
        &options,
        dir.path(),
        json!({"command": "echo $TEST_VAR"}),
    )
    .await
    .unwrap();
    assert_eq!(text(&out).trim(), "hello");
}

/// orig: Coding Agent Tools › bash tool › should include output from both prefix and command
#[tokio::test]
async fn bash_prefix_output() {
    let dir = tempfile::tempdir().unwrap();
    let options = ToolOptions {
        shell_command_prefix: Some("echo prefix-output".into()),
        ..Default::default()
    };
    let out = run_with(
        "bash",
        &options,
        dir.path(),
        json!({"command": "echo command-output"}),
    )
    .await
    .unwrap();
    assert_eq!(text(&out).trim(), "prefix-output\ncommand-output");
}

/// orig: Coding Agent Tools › bash tool › should work without command prefix
#[tokio::test]
async fn bash_without_prefix() {
    let dir = tempfile::tempdir().unwrap();
    let out = run("bash", dir.path(), json!({"command": "echo no-prefix"}))
        .await
        .unwrap();
    assert_eq!(text(&out).trim(), "no-prefix");
}

/// orig: Coding Agent Tools › grep tool › should include filename when searching a single file
#[tokio::test]
async fn grep_single_file_names_it() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "example.txt",
        "first line\nmatch line\nlast line",
    );
    let out = text(
        &run(
            "grep",
            dir.path(),
            json!({"pattern": "match", "path": "example.txt"}),
        )
        .await
        .unwrap(),
    );
    assert!(out.contains("example.txt:2: match line"), "{out}");
}

/// orig: Coding Agent Tools › grep tool › should respect global limit and include context lines
#[tokio::test]
async fn grep_limit_and_context() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "context.txt",
        "before\nmatch one\nafter\nmiddle\nmatch two\nafter two",
    );
    let out = text(
        &run(
            "grep",
            dir.path(),
            json!({"pattern": "match", "path": "context.txt", "limit": 1, "context": 1}),
        )
        .await
        .unwrap(),
    );
    assert!(out.contains("context.txt-1- before"), "{out}");
    assert!(out.contains("context.txt:2: match one"));
    assert!(out.contains("context.txt-3- after"));
    assert!(
        out.contains("[1 matches limit reached. Use limit=2 for more, or refine pattern]"),
        "{out}"
    );
    assert!(!out.contains("match two"));
}

/// orig: Coding Agent Tools › find tool › should include hidden files that are not gitignored
#[tokio::test]
async fn find_hidden_files() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), ".secret/hidden.txt", "hidden");
    write(dir.path(), "visible.txt", "visible");
    let out = text(
        &run(
            "find",
            dir.path(),
            json!({"pattern": "**/*.txt", "path": "."}),
        )
        .await
        .unwrap(),
    );
    let lines: Vec<&str> = out
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    assert!(lines.contains(&"visible.txt"), "{out}");
    assert!(lines.contains(&".secret/hidden.txt"), "{out}");
}

/// orig: Coding Agent Tools › find tool › should respect .gitignore
#[tokio::test]
async fn find_respects_gitignore() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), ".gitignore", "ignored.txt\n");
    write(dir.path(), "ignored.txt", "ignored");
    write(dir.path(), "kept.txt", "kept");
    let out = text(
        &run(
            "find",
            dir.path(),
            json!({"pattern": "**/*.txt", "path": "."}),
        )
        .await
        .unwrap(),
    );
    assert!(out.contains("kept.txt"));
    assert!(!out.contains("ignored.txt"), "{out}");
}

/// orig: Coding Agent Tools › ls tool › should list dotfiles and directories
#[tokio::test]
async fn ls_dotfiles() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), ".hidden-file", "secret");
    std::fs::create_dir(dir.path().join(".hidden-dir")).unwrap();
    let out = text(&run("ls", dir.path(), json!({"path": "."})).await.unwrap());
    assert!(out.contains(".hidden-file"));
    assert!(out.contains(".hidden-dir/"), "{out}");
}
