//! YAML frontmatter of skills and prompt templates.
//! orig-file: packages/coding-agent/test/frontmatter.test.ts

use pi::resources::frontmatter::{body, parse};

/// orig: parseFrontmatter › parses keys, strips quotes, and returns body
#[test]
fn keys_quotes_and_body() {
    let doc =
        parse("---\nname: \"skill-name\"\ndescription: 'A desc'\nfoo-bar: value\n---\n\nBody text")
            .unwrap();
    assert_eq!(doc.fields["name"], "skill-name");
    assert_eq!(doc.fields["description"], "A desc");
    assert_eq!(doc.fields["foo-bar"], "value");
    assert_eq!(doc.body, "Body text");
}

/// orig: parseFrontmatter › normalizes newlines and handles CRLF
#[test]
fn crlf_is_normalized() {
    let doc = parse("---\r\nname: test\r\n---\r\nLine one\r\nLine two").unwrap();
    assert_eq!(doc.body, "Line one\nLine two");
    assert_eq!(doc.fields["name"], "test");
}

/// orig: parseFrontmatter › throws on invalid YAML frontmatter
#[test]
fn invalid_yaml_is_an_error_with_its_position() {
    let err = parse("---\nfoo: [bar\n---\nBody").unwrap_err();
    assert!(err.line.is_some(), "{err:?}");
    assert!(err.to_string().contains("line"), "{err}");
}

/// orig: parseFrontmatter › parses | multiline yaml syntax
#[test]
fn literal_block_scalar() {
    let doc = parse("---\ndescription: |\n  Line one\n  Line two\n---\n\nBody").unwrap();
    assert_eq!(doc.fields["description"], "Line one\nLine two\n");
    assert_eq!(doc.body, "Body");
}

/// orig: parseFrontmatter › returns original content when frontmatter is missing or unterminated
#[test]
fn missing_or_unterminated_frontmatter_keeps_the_text() {
    assert_eq!(
        parse("Just text\nsecond line").unwrap().body,
        "Just text\nsecond line"
    );
    let unterminated = "---\nname: test\nBody without terminator";
    let doc = parse(unterminated).unwrap();
    assert_eq!(doc.body, unterminated);
    assert!(doc.fields.is_empty());
}

/// orig: parseFrontmatter › returns empty object for empty or comment-only frontmatter
#[test]
fn comment_only_frontmatter_is_empty() {
    let doc = parse("---\n# just a comment\n---\nBody").unwrap();
    assert_eq!(doc.data, serde_json::json!({}));
    assert_eq!(doc.body, "Body");
}

/// orig: stripFrontmatter › removes frontmatter and trims body
#[test]
fn strip_removes_frontmatter_and_trims() {
    assert_eq!(body("---\nkey: value\n---\n\nBody\n"), "Body");
}

/// orig: stripFrontmatter › returns body when no frontmatter present
#[test]
fn strip_without_frontmatter_keeps_text() {
    assert_eq!(
        body("\n  No frontmatter body  \n"),
        "\n  No frontmatter body  \n"
    );
}
