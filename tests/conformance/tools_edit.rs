//! The edit tool: exact replacement, its errors, fuzzy matching (quotes, dashes, spaces,
//! Unicode forms) and line endings.
//! orig-file: packages/coding-agent/test/tools.test.ts

use std::path::Path;

use pi::agent::tool::{ToolError, ToolOutput};
use serde_json::json;

use crate::tools::{run, text, write};

async fn edit(dir: &Path, file: &str, old: &str, new: &str) -> Result<ToolOutput, ToolError> {
    run(
        "edit",
        dir,
        json!({"path": file, "oldText": old, "newText": new}),
    )
    .await
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap()
}

/// orig: Coding Agent Tools › edit tool › should replace text in file
#[tokio::test]
async fn edit_replaces() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "e.txt", "Hello, world!");
    let out = edit(dir.path(), "e.txt", "world", "testing").await.unwrap();
    assert!(text(&out).contains("Successfully replaced"));
    assert!(
        out.details.unwrap()["diff"]
            .as_str()
            .unwrap()
            .contains("testing")
    );
}

/// orig: Coding Agent Tools › edit tool › should fail if text not found
#[tokio::test]
async fn edit_not_found() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "e.txt", "Hello, world!");
    let err = edit(dir.path(), "e.txt", "nonexistent", "testing")
        .await
        .unwrap_err();
    assert!(
        err.message.contains("Could not find the exact text"),
        "{}",
        err.message
    );
}

/// orig: Coding Agent Tools › edit tool › should fail if text appears multiple times
#[tokio::test]
async fn edit_ambiguous() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "e.txt", "foo foo foo");
    let err = edit(dir.path(), "e.txt", "foo", "bar").await.unwrap_err();
    assert!(
        err.message.contains("Found 3 occurrences"),
        "{}",
        err.message
    );
}

/// `name: file content, oldText, newText => expected file content;` rows that succeed.
macro_rules! fuzzy_ok {
    ($($(#[$m:meta])* $name:ident: $content:expr, $old:expr, $new:expr => |$c:ident| $check:expr;)*) => {$(
        $(#[$m])*
        #[tokio::test]
        async fn $name() {
            let dir = tempfile::tempdir().unwrap();
            write(dir.path(), "f.txt", $content);
            let out = edit(dir.path(), "f.txt", $old, $new).await.unwrap();
            assert!(text(&out).contains("Successfully replaced"));
            let $c = read(dir.path(), "f.txt");
            $check;
        }
    )*};
}

fuzzy_ok! {
    /// orig: edit tool fuzzy matching › should match text with trailing whitespace stripped
    fuzzy_trailing_whitespace: "line one   \nline two  \nline three\n", "line one\nline two\n", "replaced\n"
        => |c| assert_eq!(c, "replaced\nline three\n");
    /// orig: edit tool fuzzy matching › should match fullwidth punctuation in Chinese text
    fuzzy_fullwidth_punctuation: "你好，世界\n你好（世界）\n", "你好,世界\n你好(世界)\n", "你好，pi\n你好(pi)\n"
        => |c| assert_eq!(c, "你好，pi\n你好(pi)\n");
    /// orig: edit tool fuzzy matching › should match compatibility-equivalent Unicode forms
    fuzzy_compatibility_forms: "ＡＢＣ１２３\ncafe\u{0301}\n", "ABC123\ncafé\n", "XYZ789\ncoffee\n"
        => |c| assert_eq!(c, "XYZ789\ncoffee\n");
    /// orig: edit tool fuzzy matching › should match smart single quotes to ASCII quotes
    fuzzy_smart_single_quotes: "console.log(\u{2018}hello\u{2019});\n", "console.log('hello');", "console.log('world');"
        => |c| assert!(c.contains("world"));
    /// orig: edit tool fuzzy matching › should match smart double quotes to ASCII quotes
    fuzzy_smart_double_quotes: "const msg = \u{201C}Hello World\u{201D};\n", "const msg = \"Hello World\";", "const msg = \"Goodbye\";"
        => |c| assert!(c.contains("Goodbye"));
    /// orig: edit tool fuzzy matching › should match Unicode dashes to ASCII hyphen
    fuzzy_unicode_dashes: "range: 1\u{2013}5\nbreak\u{2014}here\n", "range: 1-5\nbreak-here", "range: 10-50\nbreak--here"
        => |c| assert!(c.contains("10-50"));
    /// orig: edit tool fuzzy matching › should match non-breaking space to regular space
    fuzzy_nbsp: "hello\u{00A0}world\n", "hello world", "hello universe" => |c| assert!(c.contains("universe"));
    /// orig: edit tool fuzzy matching › should prefer exact match over fuzzy match
    exact_match_preferred: "const x = 'exact';\nconst y = 'other';\n", "const x = 'exact';", "const x = 'changed';"
        => |c| assert_eq!(c, "const x = 'changed';\nconst y = 'other';\n");
    /// orig: edit tool CRLF handling › should match LF oldText against CRLF file content
    lf_old_text_matches_crlf: "line one\r\nline two\r\nline three\r\n", "line two\n", "replaced line\n"
        => |c| assert!(c.contains("replaced line"));
    /// orig: edit tool CRLF handling › should preserve CRLF line endings after edit
    crlf_kept: "first\r\nsecond\r\nthird\r\n", "second\n", "REPLACED\n" => |c| assert_eq!(c, "first\r\nREPLACED\r\nthird\r\n");
    /// orig: edit tool CRLF handling › should preserve LF line endings for LF files
    lf_kept: "first\nsecond\nthird\n", "second\n", "REPLACED\n" => |c| assert_eq!(c, "first\nREPLACED\nthird\n");
    /// orig: edit tool CRLF handling › should preserve UTF-8 BOM after edit
    bom_kept: "\u{FEFF}first\r\nsecond\r\nthird\r\n", "second\n", "REPLACED\n"
        => |c| assert_eq!(c, "\u{FEFF}first\r\nREPLACED\r\nthird\r\n");
}

/// orig: edit tool fuzzy matching › should still fail when text is not found even with fuzzy matching
#[tokio::test]
async fn fuzzy_still_fails_when_absent() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "f.txt", "completely different content\n");
    let err = edit(dir.path(), "f.txt", "this does not exist", "replacement")
        .await
        .unwrap_err();
    assert!(
        err.message.contains("Could not find the exact text"),
        "{}",
        err.message
    );
}

/// orig: edit tool fuzzy matching › should detect duplicates after fuzzy normalization
#[tokio::test]
async fn fuzzy_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "f.txt", "hello world   \nhello world\n");
    let err = edit(dir.path(), "f.txt", "hello world", "replaced")
        .await
        .unwrap_err();
    assert!(
        err.message.contains("Found 2 occurrences"),
        "{}",
        err.message
    );
}

/// orig: edit tool CRLF handling › should detect duplicates across CRLF/LF variants
#[tokio::test]
async fn crlf_lf_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "f.txt",
        "hello\r\nworld\r\n---\r\nhello\nworld\n",
    );
    let err = edit(dir.path(), "f.txt", "hello\nworld\n", "replaced\n")
        .await
        .unwrap_err();
    assert!(
        err.message.contains("Found 2 occurrences"),
        "{}",
        err.message
    );
}
