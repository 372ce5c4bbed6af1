//! The words of the schema check's findings ([`SchemaWarning`]): `config/` sits below
//! the locale packs, so its findings are plain data and are worded here, where `t()` may
//! be used.

use std::fmt;

use serde_json::Value;

use crate::config::schema_check::{group_thousands, resolve_ref, schema_node};
use crate::config::schema_warning::{Expectation, SchemaProblem, SchemaWarning};
use crate::t;

/// What the rule `expected` points at accepts, in the user's language.
fn expected_at(expected: &Expectation) -> String {
    let Some(root) = expected.schema.schema() else {
        return t!("pi.error.schema.a_valid_value");
    };
    match schema_node(root, &expected.location) {
        Some(node) => self::expected(root, node, 0),
        None => t!("pi.error.schema.a_valid_value"),
    }
}

/// What a schema node accepts, in words: "a string", "one of \"a\", \"b\"",
/// "a list of strings", "a string or an object".
fn expected(root: &Value, node: &Value, depth: usize) -> String {
    if depth > 6 {
        return t!("pi.error.schema.a_valid_value");
    }
    if let Some(target) = resolve_ref(root, node) {
        return expected(root, target, depth + 1);
    }
    if let Some(options) = node.get("enum").and_then(Value::as_array) {
        let listed: Vec<String> = options.iter().map(Value::to_string).collect();
        return t!("pi.error.schema.one_of", values = listed.join(", "));
    }
    if let Some(constant) = node.get("const") {
        return constant.to_string();
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(branches) = node.get(key).and_then(Value::as_array) {
            let words: Vec<String> = branches
                .iter()
                .map(|b| expected(root, b, depth + 1))
                .collect();
            return words.join(&t!("pi.error.schema.or"));
        }
    }
    match node.get("type") {
        Some(Value::String(kind)) => type_words(root, node, kind, depth),
        Some(Value::Array(kinds)) => kinds
            .iter()
            .filter_map(Value::as_str)
            .map(|k| type_words(root, node, k, depth))
            .collect::<Vec<_>>()
            .join(&t!("pi.error.schema.or")),
        _ => t!("pi.error.schema.a_valid_value"),
    }
}

fn type_words(root: &Value, node: &Value, kind: &str, depth: usize) -> String {
    match kind {
        "string" => t!("pi.error.schema.a_string"),
        "boolean" => t!("pi.error.schema.true_or_false"),
        "null" => "null".into(),
        "object" => t!("pi.error.schema.an_object"),
        "integer" | "number" => {
            let noun = if kind == "integer" {
                t!("pi.error.schema.a_whole_number")
            } else {
                t!("pi.error.schema.a_number")
            };
            match (
                node.get("minimum").and_then(Value::as_f64),
                node.get("maximum").and_then(Value::as_f64),
            ) {
                (Some(lo), Some(hi)) => t!(
                    "pi.error.schema.number_from_to",
                    noun = noun,
                    low = lo.to_string(),
                    high = hi.to_string()
                ),
                (Some(0.0), None) => t!("pi.error.schema.number_or_more", noun = noun),
                _ => noun,
            }
        }
        "array" => match node.get("items") {
            Some(items) if items.get("type") == Some(&Value::from("string")) => {
                t!("pi.error.schema.a_list_of_strings")
            }
            Some(items) => t!(
                "pi.error.schema.a_list_of",
                items = expected(root, items, depth + 1)
            ),
            None => t!("pi.error.schema.a_list"),
        },
        other => t!("pi.error.schema.a_kind", kind = other),
    }
}

impl fmt::Display for SchemaWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SchemaWarning::Key {
                file,
                key,
                problem,
                found,
                ignored,
            } => {
                let file = file.display().to_string();
                let subject = match key.is_empty() {
                    true => t!("pi.error.schema.the_file"),
                    false => format!("\"{key}\""),
                };
                let mut text = match problem {
                    SchemaProblem::Unknown => {
                        t!("pi.error.schema.unknown_key", file = file, key = subject)
                    }
                    SchemaProblem::Invalid { expected } => t!(
                        "pi.error.schema.invalid",
                        file = file,
                        key = subject,
                        expected = expected_at(expected),
                        found = found
                            .clone()
                            .unwrap_or_else(|| t!("pi.error.schema.nothing"))
                    ),
                    SchemaProblem::Missing { property } => t!(
                        "pi.error.schema.missing",
                        file = file,
                        key = subject,
                        property = property.as_str()
                    ),
                    SchemaProblem::Other { message } => format!("{file}: {subject}: {message}"),
                };
                if *ignored && !key.is_empty() {
                    text.push_str(&t!("pi.error.schema.ignored"));
                }
                f.write_str(&text)
            }
            SchemaWarning::ManyUnknown { file, count, first } => f.write_str(&t!(
                "pi.error.schema.many_unknown",
                file = file.display().to_string(),
                count = group_thousands(*count),
                names = first
                    .iter()
                    .map(|k| format!("\"{k}\""))
                    .collect::<Vec<_>>()
                    .join(", "),
                more = group_thousands(count - first.len())
            )),
        }
    }
}
