//! Integration tests for the `edit` tool.

use std::path::Path;
use std::sync::Arc;

use pi::agent::tool::{AgentTool, ToolContext, ToolError, ToolOutput};
use pi::tools::EditTool;
use serde_json::{Value, json};

async fn edit(cwd: &Path, args: Value) -> Result<ToolOutput, ToolError> {
    let tool = EditTool::new();
    let args = tool.prepare_arguments(args);
    tool.execute("call", args, ToolContext::new(cwd)).await
}

fn one(path: &str, old: &str, new: &str) -> Value {
    json!({"path": path, "edits": [{"oldText": old, "newText": new}]})
}

#[tokio::test]
async fn replaces_text_and_reports_diff() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f.txt");
    std::fs::write(&file, "alpha\nbeta\ngamma\n").unwrap();
    let out = edit(dir.path(), one("f.txt", "beta", "BETA"))
        .await
        .unwrap();
    assert_eq!(
        out.joined_text(),
        "Successfully replaced 1 block(s) in f.txt."
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "alpha\nBETA\ngamma\n"
    );
    let details = out.details.unwrap();
    assert_eq!(details["diff"], " 1 alpha\n-2 beta\n+2 BETA\n 3 gamma");
    assert_eq!(details["firstChangedLine"], 2);
}

#[tokio::test]
async fn applies_multiple_disjoint_edits_against_original() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f.rs");
    std::fs::write(&file, "fn a() {}\nfn b() {}\nfn c() {}\n").unwrap();
    let args = json!({"path": "f.rs", "edits": [
        {"oldText": "fn c", "newText": "fn c2"},
        {"oldText": "fn a", "newText": "fn a2"}
    ]});
    let out = edit(dir.path(), args).await.unwrap();
    assert_eq!(
        out.joined_text(),
        "Successfully replaced 2 block(s) in f.rs."
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "fn a2() {}\nfn b() {}\nfn c2() {}\n"
    );
}

#[tokio::test]
async fn legacy_old_new_text_arguments_still_work() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f.txt");
    std::fs::write(&file, "one two").unwrap();
    let args = json!({"path": "f.txt", "oldText": "two", "newText": "2"});
    // Both through prepare_arguments and directly.
    edit(dir.path(), args.clone()).await.unwrap();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "one 2");
    let args = json!({"path": "f.txt", "oldText": "one", "newText": "1"});
    EditTool::new()
        .execute("call", args, ToolContext::new(dir.path()))
        .await
        .unwrap();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "1 2");
}

#[tokio::test]
async fn missing_text_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("f.txt"), "abc").unwrap();
    let err = edit(dir.path(), one("f.txt", "xyz", "q"))
        .await
        .unwrap_err();
    assert_eq!(
        err.message,
        "Could not find the exact text in f.txt. The old text must match exactly including all whitespace and newlines."
    );
}

#[tokio::test]
async fn ambiguous_text_is_an_error_and_file_is_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f.txt");
    std::fs::write(&file, "x = 1\nx = 1\n").unwrap();
    let err = edit(dir.path(), one("f.txt", "x = 1", "x = 2"))
        .await
        .unwrap_err();
    assert_eq!(
        err.message,
        "Found 2 occurrences of the text in f.txt. The text must be unique. Please provide more context to make it unique."
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x = 1\nx = 1\n");
}

#[tokio::test]
async fn identical_replacement_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("f.txt"), "same").unwrap();
    let err = edit(dir.path(), one("f.txt", "same", "same"))
        .await
        .unwrap_err();
    assert!(
        err.message
            .starts_with("No changes made to f.txt. The replacement produced identical content.")
    );
}

#[tokio::test]
async fn overlapping_edits_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("f.txt"), "abcdef").unwrap();
    let args = json!({"path": "f.txt", "edits": [
        {"oldText": "abcd", "newText": "1"},
        {"oldText": "cdef", "newText": "2"}
    ]});
    let err = edit(dir.path(), args).await.unwrap_err();
    assert_eq!(
        err.message,
        "edits[0] and edits[1] overlap in f.txt. Merge them into one edit or target disjoint regions."
    );
}

#[tokio::test]
async fn missing_file_and_empty_edits_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let err = edit(dir.path(), one("nope.txt", "a", "b"))
        .await
        .unwrap_err();
    assert_eq!(
        err.message,
        "Could not edit file: nope.txt. Error code: ENOENT."
    );
    let err = edit(dir.path(), json!({"path": "nope.txt", "edits": []}))
        .await
        .unwrap_err();
    assert_eq!(
        err.message,
        "Edit tool input is invalid. edits must contain at least one replacement."
    );
}

#[tokio::test]
async fn preserves_crlf_and_bom() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("win.txt");
    std::fs::write(&file, "\u{FEFF}first\r\nsecond\r\nthird\r\n").unwrap();
    edit(dir.path(), one("win.txt", "first\nsecond", "1st\n2nd"))
        .await
        .unwrap();
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "\u{FEFF}1st\r\n2nd\r\nthird\r\n"
    );
}

#[tokio::test]
async fn fuzzy_match_tolerates_smart_quotes_and_trailing_spaces() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("q.js");
    std::fs::write(&file, "say(\u{201C}hi\u{201D});   \nok \u{2014} done\n").unwrap();
    edit(
        dir.path(),
        one(
            "q.js",
            "say(\"hi\");\nok - done",
            "say(\"bye\");\nok - done",
        ),
    )
    .await
    .unwrap();
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "say(\"bye\");\nok - done\n"
    );
}

#[tokio::test]
async fn concurrent_edits_of_one_file_are_all_applied() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("many.txt");
    let original: String = (0..20).map(|i| format!("item {i:02}\n")).collect();
    std::fs::write(&file, &original).unwrap();
    let cwd = Arc::new(dir.path().to_path_buf());
    let tasks: Vec<_> = (0..20)
        .map(|i| {
            let cwd = cwd.clone();
            tokio::spawn(async move {
                edit(
                    &cwd,
                    one(
                        "many.txt",
                        &format!("item {i:02}\n"),
                        &format!("done {i:02}\n"),
                    ),
                )
                .await
            })
        })
        .collect();
    for task in tasks {
        task.await.unwrap().unwrap();
    }
    let expected: String = (0..20).map(|i| format!("done {i:02}\n")).collect();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), expected);
}

#[tokio::test]
async fn aborted_edit_leaves_file_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f.txt");
    std::fs::write(&file, "keep").unwrap();
    let ctx = ToolContext::new(dir.path());
    ctx.signal.cancel();
    let err = EditTool::new()
        .execute("call", one("f.txt", "keep", "lose"), ctx)
        .await
        .unwrap_err();
    assert_eq!(err.message, "Operation aborted");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep");
}
