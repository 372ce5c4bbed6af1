//! Locale bundles in the BundleV1 format: `{version, namespace, locale, messages}`,
//! validated against the JSON Schema shipped in `locales/schema/`.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::Value;

use super::locale::normalize_tag;
use super::plural::PluralCategory;

/// The JSON Schema every bundle must satisfy.
pub const BUNDLE_SCHEMA: &str = include_str!("../../locales/schema/bundle.schema.json");

/// One translatable message: plain text, or plural forms chosen by `params.count`.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// A single string with `{name}` placeholders.
    Text(String),
    /// CLDR plural forms; `other` is always present.
    Plural(Vec<(PluralCategory, String)>),
}

impl Message {
    /// The form to use for `category`, falling back to `other`.
    pub fn form(&self, category: Option<PluralCategory>) -> &str {
        match self {
            Message::Text(text) => text,
            Message::Plural(forms) => {
                let wanted = category.unwrap_or(PluralCategory::Other);
                forms
                    .iter()
                    .find(|(c, _)| *c == wanted)
                    .or_else(|| forms.iter().find(|(c, _)| *c == PluralCategory::Other))
                    .map(|(_, text)| text.as_str())
                    .unwrap_or("")
            }
        }
    }

    /// Every string this message can render (one, or each plural form).
    pub fn texts(&self) -> Vec<&str> {
        match self {
            Message::Text(text) => vec![text.as_str()],
            Message::Plural(forms) => forms.iter().map(|(_, t)| t.as_str()).collect(),
        }
    }
}

/// A validated bundle: the messages of one namespace in one locale.
#[derive(Debug, Clone)]
pub struct Bundle {
    /// Key prefix the messages live under (`pi`, `ext.todo`).
    pub namespace: String,
    /// Normalised BCP-47 tag (`zh-TW`).
    pub locale: String,
    /// Message key (without the namespace) to message.
    pub messages: HashMap<String, Message>,
    /// Slash-command aliases declared by the bundle (alias -> command).
    pub aliases: Vec<(String, String)>,
    /// Where the bundle came from (file path, `builtin:en`, `ext:todo`).
    pub origin: String,
}

#[expect(
    clippy::expect_used,
    reason = "the data is embedded at build time and a unit test parses it"
)]
fn schema_validator() -> &'static jsonschema::Validator {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| {
        let schema: Value = serde_json::from_str(BUNDLE_SCHEMA).expect("bundle schema is JSON");
        jsonschema::validator_for(&schema).expect("bundle schema is valid")
    })
}

/// Parse bundle JSON text; errors name the file, and the line for syntax errors.
pub fn parse_bundle_text(text: &str, origin: &str) -> Result<Bundle, Vec<String>> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        vec![format!(
            "{origin}:{}:{}: not valid JSON: {e}",
            e.line(),
            e.column()
        )]
    })?;
    parse_bundle_value(&value, origin)
}

/// Parse bundle TOML text (the same fields as JSON; a translator can add `#` comments);
/// errors name the file, and the line and column for syntax errors.
pub fn parse_bundle_toml(text: &str, origin: &str) -> Result<Bundle, Vec<String>> {
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        let (line, column) = e.span().map_or((1, 1), |span| line_col(text, span.start));
        vec![format!(
            "{origin}:{line}:{column}: not valid TOML: {}",
            e.message().trim().replace('\n', "; ")
        )]
    })?;
    let value = serde_json::to_value(table).map_err(|e| vec![format!("{origin}: {e}")])?;
    parse_bundle_value(&value, origin)
}

/// Parse a bundle file's text: TOML when `path` ends in `.toml`, JSON otherwise.
pub fn parse_bundle_file(
    path: &std::path::Path,
    text: &str,
    origin: &str,
) -> Result<Bundle, Vec<String>> {
    if path.extension().is_some_and(|e| e == "toml") {
        parse_bundle_toml(text, origin)
    } else {
        parse_bundle_text(text, origin)
    }
}

/// 1-based line and column of byte `offset` in `text`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// Validate a bundle given as JSON; the errors say which field is wrong and why.
pub fn parse_bundle_value(value: &Value, origin: &str) -> Result<Bundle, Vec<String>> {
    let errors: Vec<String> = schema_validator()
        .iter_errors(value)
        .map(|e| {
            let path = e.instance_path().to_string();
            let at = if path.is_empty() {
                "bundle".to_string()
            } else {
                path
            };
            format!("{origin}: {at}: {e}")
        })
        .collect();
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(bundle_from_checked(value, origin))
}

/// A locale pack shipped inside pi, as plain strings made at build time from
/// `locales/<tag>.json` (its schema is checked by the test suite): no JSON to parse and
/// no pointers for the loader to relocate.
pub(crate) struct ShippedPack {
    /// The pack's file name (`zh-TW.json`).
    pub file: &'static str,
    /// Key prefix of its messages.
    pub namespace: &'static str,
    /// Its locale tag as written in the file.
    pub locale: &'static str,
    /// Records ending in `\x1e`: the key, then (plural category, text) pairs, every field
    /// ending in `\x1f`; the category is empty for plain text.
    pub messages: &'static str,
    /// (alias, command) pairs, every field ending in `\x1f`.
    pub aliases: &'static str,
}

impl ShippedPack {
    /// The pack as a bundle.
    pub(crate) fn to_bundle(&self) -> Bundle {
        // Sized up front: growing the table record by record rehashed it a dozen times.
        let mut messages = HashMap::with_capacity(self.messages.matches('\x1e').count());
        let records = self.messages.split_terminator('\x1e').filter_map(|record| {
            let mut fields = record.split_terminator('\x1f');
            let key = fields.next()?.to_string();
            let mut forms = std::iter::from_fn(|| Some((fields.next()?, fields.next()?)));
            let message = match (forms.next(), forms.next()) {
                (Some(("", text)), None) => Message::Text(text.to_string()),
                (first, second) => Message::Plural(
                    first
                        .into_iter()
                        .chain(second)
                        .chain(forms)
                        .filter_map(|(c, t)| Some((PluralCategory::parse(c)?, t.to_string())))
                        .collect(),
                ),
            };
            Some((key, message))
        });
        messages.extend(records);
        let mut fields = self.aliases.split_terminator('\x1f');
        let mut aliases = Vec::new();
        while let (Some(alias), Some(command)) = (fields.next(), fields.next()) {
            aliases.push((alias.to_string(), command.to_string()));
        }
        Bundle {
            namespace: self.namespace.to_string(),
            locale: normalize_tag(self.locale),
            messages,
            aliases,
            origin: format!("builtin:{}", self.file),
        }
    }
}

/// A bundle from JSON that satisfies the bundle schema.
fn bundle_from_checked(value: &Value, origin: &str) -> Bundle {
    let namespace = value["namespace"].as_str().unwrap_or_default().to_string();
    let locale = normalize_tag(value["locale"].as_str().unwrap_or_default());
    let mut messages = HashMap::new();
    if let Some(map) = value["messages"].as_object() {
        for (key, raw) in map {
            messages.insert(key.clone(), message_from(raw));
        }
    }
    let aliases = value["aliases"]
        .as_object()
        .map(|m| {
            m.iter()
                .filter_map(|(a, c)| Some((a.clone(), c.as_str()?.to_string())))
                .collect()
        })
        .unwrap_or_default();
    Bundle {
        namespace,
        locale,
        messages,
        aliases,
        origin: origin.to_string(),
    }
}

fn message_from(raw: &Value) -> Message {
    let value = match raw {
        Value::Object(obj) => obj.get("value").unwrap_or(&Value::Null),
        other => other,
    };
    match value {
        Value::String(text) => Message::Text(text.clone()),
        Value::Object(forms) => Message::Plural(
            forms
                .iter()
                .filter_map(|(name, text)| {
                    Some((PluralCategory::parse(name)?, text.as_str()?.to_string()))
                })
                .collect(),
        ),
        _ => Message::Text(String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn accepts_strings_descriptions_and_plurals() {
        let bundle = parse_bundle_value(
            &json!({
                "version": 1, "namespace": "ext.todo", "locale": "zh_tw",
                "messages": {
                    "a": "甲",
                    "b": {"value": "乙", "description": "second"},
                    "c": {"value": {"one": "{count} file", "other": "{count} files"}}
                }
            }),
            "test",
        )
        .unwrap();
        assert_eq!(bundle.locale, "zh-TW");
        assert_eq!(bundle.messages["a"], Message::Text("甲".into()));
        assert_eq!(bundle.messages["b"], Message::Text("乙".into()));
        let c = &bundle.messages["c"];
        assert_eq!(c.form(Some(PluralCategory::One)), "{count} file");
        assert_eq!(c.form(Some(PluralCategory::Few)), "{count} files");
    }

    #[test]
    fn rejects_numbers_where_strings_belong_with_the_path() {
        let errors = parse_bundle_value(
            &json!({"version": 1, "namespace": "pi", "locale": "en", "messages": {"x": 3}}),
            "bad.json",
        )
        .unwrap_err();
        assert!(
            errors.iter().any(|e| e.contains("/messages/x")),
            "{errors:?}"
        );
    }

    #[test]
    fn rejects_missing_fields_and_wrong_version() {
        let errors = parse_bundle_value(&json!({"version": 2, "messages": {}}), "b").unwrap_err();
        let all = errors.join("\n");
        assert!(all.contains("namespace"), "{all}");
        assert!(all.contains("/version"), "{all}");
    }

    #[test]
    fn plural_without_other_is_rejected() {
        let errors = parse_bundle_value(
            &json!({"version": 1, "namespace": "pi", "locale": "en",
                    "messages": {"x": {"value": {"one": "a"}}}}),
            "b",
        );
        assert!(errors.is_err());
    }

    #[test]
    fn syntax_errors_name_file_and_line() {
        let errors =
            parse_bundle_text("{\n  \"version\": 1,\n  oops\n}", "zh-TW.json").unwrap_err();
        assert!(errors[0].starts_with("zh-TW.json:3:"), "{errors:?}");
    }
}
