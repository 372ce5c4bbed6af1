//! The `---`-delimited YAML frontmatter of skills and prompt templates, read with a YAML
//! parser: block scalars (`|`, `>-`), quoted strings with escapes, lists and nested maps
//! come out as pi reads them. The body after the frontmatter is trimmed.

use std::collections::BTreeMap;

use serde_json::Value;

/// Frontmatter fields and the body after them.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Document {
    /// Top-level scalar fields as text (strings as written; numbers and booleans in their
    /// YAML spelling). Lists and maps are only in [`Document::data`].
    pub fields: BTreeMap<String, String>,
    /// The whole frontmatter as JSON (`{}` when there is none).
    pub data: Value,
    /// The text after the closing `---`, trimmed (the whole text when there is no
    /// frontmatter).
    pub body: String,
}

impl Document {
    /// The top-level field `key` is the boolean `true` (not the string "true").
    pub fn is_true(&self, key: &str) -> bool {
        self.data.get(key) == Some(&Value::Bool(true))
    }
}

/// Frontmatter that is not valid YAML.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrontmatterError {
    /// The 1-based line of the YAML where the parser stopped, when it says.
    pub line: Option<usize>,
    /// The YAML parser's description.
    pub detail: String,
}

impl std::fmt::Display for FrontmatterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.detail)
    }
}

impl std::error::Error for FrontmatterError {}

/// Split `text` into frontmatter and body; `Err` with the parser's message when the
/// frontmatter is not valid YAML.
pub fn parse(text: &str) -> Result<Document, FrontmatterError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let normalized = text.replace("\r\n", "\n").replace('\r', "\n");
    let (yaml, body) = match split(&normalized) {
        Some(parts) => parts,
        None => {
            return Ok(Document {
                fields: BTreeMap::new(),
                data: Value::Object(Default::default()),
                body: normalized,
            });
        }
    };
    let body = body.trim().to_string();
    if yaml.trim().is_empty() {
        return Ok(Document {
            fields: BTreeMap::new(),
            data: Value::Object(Default::default()),
            body,
        });
    }
    // The last frontmatter line ends with a line break (before `---`), so a final block
    // scalar keeps its newline under the default "clip" chomping.
    let data: Value =
        serde_norway::from_str(&format!("{yaml}\n")).map_err(|e| FrontmatterError {
            line: e.location().map(|l| l.line()),
            detail: e.to_string(),
        })?;
    let data = match data {
        Value::Null => Value::Object(Default::default()),
        other => other,
    };
    let mut fields = BTreeMap::new();
    if let Value::Object(map) = &data {
        for (key, value) in map {
            let text = match value {
                Value::String(s) => s.clone(),
                Value::Bool(b) => b.to_string(),
                Value::Number(n) => n.to_string(),
                _ => continue,
            };
            fields.insert(key.clone(), text);
        }
    }
    Ok(Document { fields, data, body })
}

/// The body of `text` without its frontmatter (the whole text, trimmed, when the
/// frontmatter is not valid YAML).
pub fn body(text: &str) -> String {
    match parse(text) {
        Ok(doc) => doc.body,
        Err(_) => split(&text.replace("\r\n", "\n"))
            .map(|(_, body)| body.trim().to_string())
            .unwrap_or_else(|| text.to_string()),
    }
}

/// (frontmatter, body) when `text` opens with `---` and a later line starts with `---`.
fn split(text: &str) -> Option<(&str, &str)> {
    if !text.starts_with("---") {
        return None;
    }
    let end = text[3..].find("\n---")? + 3;
    let yaml = text.get(4..end).unwrap_or("");
    Some((yaml, &text[end + 4..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_and_body() {
        let doc = parse(
            "---\nname: pdf-tools\ndescription: \"Work: with PDFs\"\nmetadata:\n  a: b\n---\n# Body\n",
        )
        .unwrap();
        assert_eq!(doc.fields["name"], "pdf-tools");
        assert_eq!(doc.fields["description"], "Work: with PDFs");
        assert!(!doc.fields.contains_key("a"));
        assert_eq!(doc.data["metadata"]["a"], "b");
        assert_eq!(doc.body, "# Body");
    }

    #[test]
    fn block_scalars_quotes_and_lists() {
        let last = parse("---\nd: |\n  last\n---\n").unwrap();
        assert_eq!(last.fields["d"], "last\n");
        let doc = parse(
            "---\na: |\n  one\n  two\nb: >-\n  folded\n  text\nc: \"tab\\there \\u00e9\"\nd: 'it''s'\ne:\n  - x\n  - y\nf: true\n---\n\n  Body\n\n",
        )
        .unwrap();
        assert_eq!(doc.fields["a"], "one\ntwo\n");
        assert_eq!(doc.fields["b"], "folded text");
        assert_eq!(doc.fields["c"], "tab\there é");
        assert_eq!(doc.fields["d"], "it's");
        assert_eq!(doc.data["e"], serde_json::json!(["x", "y"]));
        assert!(doc.is_true("f"));
        assert_eq!(doc.body, "Body");
    }

    #[test]
    fn empty_frontmatter_is_stripped_and_invalid_yaml_is_an_error() {
        assert_eq!(parse("---\n---\nHello\n").unwrap().body, "Hello");
        assert!(parse("---\nname: [unclosed\n---\nx").is_err());
        assert_eq!(body("---\nname: [unclosed\n---\n x \n"), "x");
    }

    #[test]
    fn no_frontmatter_is_all_body() {
        assert_eq!(parse("just text").unwrap().body, "just text");
        assert!(parse("---\nunterminated").unwrap().fields.is_empty());
    }
}
