//! The shape of `auth.json` entries. Each provider's entry must be
//! `{"type": "api_key", "key": "<string>"}` or
//! `{"type": "oauth", "access": "<string>", "refresh": "<string>", "expires": <number>}`.
//! An entry of another shape is named (provider and key, never the secret it
//! may hold), left out of the credentials in use, and makes pi refuse to
//! rewrite the file, so the user's entry is never dropped.

use serde_json::{Map, Value};

/// A field of an entry, how to tell its value is usable, and what it must be.
type FieldCheck = (&'static str, fn(&Value) -> bool, &'static str);

/// What is wrong with the entry of `provider`, or `None` when pi can use it.
pub fn entry_problem(provider: &str, entry: &Value) -> Option<String> {
    let Some(obj) = entry.as_object() else {
        return Some(format!(
            "\"{provider}\" should be an object such as {{\"type\": \"api_key\", \"key\": \"...\"}}, not {}",
            kind(entry)
        ));
    };
    let fields: &[FieldCheck] = match obj.get("type").and_then(Value::as_str) {
        Some("api_key") => &[("key", Value::is_string, "a string")],
        Some("oauth") => &[
            ("access", Value::is_string, "a string"),
            ("refresh", Value::is_string, "a string"),
            ("expires", Value::is_number, "a number"),
        ],
        _ => {
            let found = match obj.get("type") {
                Some(Value::String(s)) if s.chars().count() <= 20 => format!("\"{s}\""),
                Some(other) => kind(other),
                None => "nothing".to_string(),
            };
            return Some(format!(
                "\"{provider}.type\" should be \"api_key\" or \"oauth\", not {found}"
            ));
        }
    };
    for (field, is_ok, expected) in fields {
        match obj.get(*field) {
            None => return Some(format!("\"{provider}\" is missing \"{field}\"")),
            Some(value) if !is_ok(value) => {
                return Some(format!(
                    "\"{provider}.{field}\" should be {expected}, not {}",
                    kind(value)
                ));
            }
            Some(_) => {}
        }
    }
    None
}

/// Take the entries pi cannot use out of `map`: one problem per entry, and the
/// providers whose entries were taken out.
pub fn take_invalid(map: &mut Map<String, Value>) -> (Vec<String>, Vec<String>) {
    let mut problems = Vec::new();
    let mut providers = Vec::new();
    for (provider, entry) in map.iter() {
        if let Some(problem) = entry_problem(provider, entry) {
            problems.push(problem);
            providers.push(provider.clone());
        }
    }
    for provider in &providers {
        map.shift_remove(provider);
    }
    (problems, providers)
}

/// The kind of a value, never the value itself (it may be a secret).
fn kind(value: &Value) -> String {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "true or false",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn well_formed_entries_pass() {
        assert_eq!(
            entry_problem("a", &json!({"type": "api_key", "key": "k"})),
            None
        );
        let oauth = json!({"type": "oauth", "access": "a", "refresh": "r", "expires": 1, "x": 2});
        assert_eq!(entry_problem("b", &oauth), None);
    }

    #[test]
    fn wrong_shapes_are_named_without_their_secrets() {
        let cases = [
            (json!("sk-secret"), "\"p\" should be an object such as"),
            (
                json!({"type": "api_key", "key": 5}),
                "\"p.key\" should be a string, not a number",
            ),
            (
                json!({"type": "apikey"}),
                "should be \"api_key\" or \"oauth\"",
            ),
            (
                json!({"type": "oauth", "access": "a", "refresh": "r"}),
                "\"p\" is missing \"expires\"",
            ),
        ];
        for (entry, expected) in cases {
            let problem = entry_problem("p", &entry).unwrap();
            assert!(problem.contains(expected), "{problem}");
            assert!(!problem.contains("sk-secret"), "{problem}");
        }
    }
}
