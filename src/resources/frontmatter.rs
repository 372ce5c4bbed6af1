//! The `---`-delimited frontmatter of skills and prompt templates: the simple `key: value`
//! lines those files use (quoted or plain scalars); nested mappings are skipped.

use std::collections::BTreeMap;

/// Frontmatter fields and the body after them.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Document {
    /// Top-level `key: value` pairs.
    pub fields: BTreeMap<String, String>,
    /// The text after the closing `---` (the whole text when there is no frontmatter).
    pub body: String,
}

/// Split `text` into frontmatter fields and body.
pub fn parse(text: &str) -> Document {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let normalized = text.replace("\r\n", "\n");
    let Some(rest) = normalized.strip_prefix("---\n") else {
        return Document {
            fields: BTreeMap::new(),
            body: normalized,
        };
    };
    let (head, body) = match rest.find("\n---") {
        Some(end) => {
            let after = &rest[end + 4..];
            (&rest[..end], after.strip_prefix('\n').unwrap_or(after))
        }
        None => {
            return Document {
                fields: BTreeMap::new(),
                body: normalized.clone(),
            };
        }
    };
    let mut fields = BTreeMap::new();
    for line in head.lines() {
        if line.starts_with([' ', '\t', '#', '-']) || line.trim().is_empty() {
            continue;
        }
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        fields.insert(key.trim().to_string(), unquote(value.trim()));
    }
    Document {
        fields,
        body: body.to_string(),
    }
}

fn unquote(value: &str) -> String {
    for quote in ['"', '\''] {
        if value.len() >= 2 && value.starts_with(quote) && value.ends_with(quote) {
            return value[1..value.len() - 1].to_string();
        }
    }
    value.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_and_body() {
        let doc = parse(
            "---\nname: pdf-tools\ndescription: \"Work: with PDFs\"\nmetadata:\n  a: b\n---\n# Body\n",
        );
        assert_eq!(doc.fields["name"], "pdf-tools");
        assert_eq!(doc.fields["description"], "Work: with PDFs");
        assert!(!doc.fields.contains_key("a"));
        assert_eq!(doc.body, "# Body\n");
    }

    #[test]
    fn no_frontmatter_is_all_body() {
        assert_eq!(parse("just text").body, "just text");
        assert!(parse("---\nunterminated").fields.is_empty());
    }
}
