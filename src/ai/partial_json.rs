//! Best-effort parsing of JSON that is still streaming in (tool-call arguments).

use serde_json::{Map, Value};

/// Parse a possibly incomplete JSON object. Complete input parses exactly;
/// incomplete input is closed at the last complete value; anything
/// unparseable yields an empty object.
pub fn parse_partial_object(raw: &str) -> Value {
    let trimmed = raw.trim();
    if trimmed.is_empty() {
        return Value::Object(Map::new());
    }
    if let Ok(v @ Value::Object(_)) = serde_json::from_str::<Value>(trimmed) {
        return v;
    }
    match serde_json::from_str::<Value>(&close_json(trimmed)) {
        Ok(v @ Value::Object(_)) => v,
        _ => Value::Object(Map::new()),
    }
}

/// The complete arguments text `raw` when it is not a JSON object (another
/// JSON type, or not JSON at all), cut to 2,000 characters; `None` for an
/// object or nothing.
pub fn not_an_object(raw: &str) -> Option<String> {
    let trimmed = raw.trim();
    if trimmed.is_empty() || matches!(serde_json::from_str::<Value>(trimmed), Ok(Value::Object(_)))
    {
        return None;
    }
    let mut shown: String = trimmed.chars().take(2000).collect();
    if shown.len() < trimmed.len() {
        shown.push('…');
    }
    Some(shown)
}

/// Close open strings, arrays and objects, dropping a dangling key or separator.
fn close_json(s: &str) -> String {
    let mut stack: Vec<char> = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    for c in s.chars() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' => stack.push('}'),
            '[' => stack.push(']'),
            '}' | ']' => {
                stack.pop();
            }
            _ => {}
        }
    }
    let mut out = s.to_string();
    if in_string {
        if escaped {
            out.pop();
        }
        // Drop a trailing partial \uXXXX escape.
        if let Some(pos) = out.rfind("\\u")
            && out.len() - pos < 6
        {
            out.truncate(pos);
        }
        out.push('"');
    }
    loop {
        let t = out.trim_end();
        let cut = if t.ends_with(',') || t.ends_with(':') {
            Some(t.len() - 1)
        } else if t.ends_with('"')
            && t.len() > 1
            && stack.last() == Some(&'}')
            && is_key_position(t)
        {
            Some(key_start(t))
        } else {
            dangling_literal(t)
        };
        match cut {
            Some(n) => out.truncate(n),
            None => break,
        }
    }
    for closer in stack.iter().rev() {
        out.push(*closer);
    }
    out
}

/// Position of an incomplete bare literal (`tru`, `nul`, `-`, `1.`) at the end, if any.
fn dangling_literal(t: &str) -> Option<usize> {
    let tail_start = t
        .rfind(|c: char| matches!(c, ',' | ':' | '[' | '{' | '"') || c.is_whitespace())
        .map(|i| i + 1)
        .unwrap_or(0);
    let tail = &t[tail_start..];
    if tail.is_empty() {
        return None;
    }
    let complete = matches!(tail, "true" | "false" | "null")
        || (tail.parse::<f64>().is_ok() && !tail.ends_with('.') && !tail.ends_with('e'));
    if complete { None } else { Some(tail_start) }
}

/// True when the string ending `t` is an object key (preceded by `{` or `,`).
fn is_key_position(t: &str) -> bool {
    let start = key_start(t);
    let before = t[..start].trim_end();
    before.ends_with('{') || before.ends_with(',')
}

/// Byte index of the opening quote of the string that ends `t`.
fn key_start(t: &str) -> usize {
    let bytes = t.as_bytes();
    let mut i = bytes.len().saturating_sub(1);
    while i > 0 {
        i -= 1;
        if bytes[i] == b'"' {
            let mut backslashes = 0;
            let mut j = i;
            while j > 0 && bytes[j - 1] == b'\\' {
                backslashes += 1;
                j -= 1;
            }
            if backslashes % 2 == 0 {
                return i;
            }
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_complete_and_partial_objects() {
        assert_eq!(parse_partial_object(r#"{"a":1}"#), json!({"a":1}));
        assert_eq!(
            parse_partial_object(r#"{"path":"src/ma"#),
            json!({"path":"src/ma"})
        );
        assert_eq!(parse_partial_object(r#"{"a":1,"b"#), json!({"a":1}));
        assert_eq!(parse_partial_object(r#"{"a":1,"b":"#), json!({"a":1}));
        assert_eq!(parse_partial_object(r#"{"a":[1,2"#), json!({"a":[1,2]}));
        assert_eq!(parse_partial_object(r#"{"a":tru"#), json!({}));
        assert_eq!(parse_partial_object(r#"{"a":"x\"#), json!({"a":"x"}));
        assert_eq!(parse_partial_object(""), json!({}));
        assert_eq!(parse_partial_object("garbage"), json!({}));
    }

    #[test]
    fn every_prefix_parses_without_panicking() {
        let full = r#"{"command":"echo \"hi\" \u00e9","timeout":10,"edits":[{"oldText":"a","newText":null}]}"#;
        for i in 0..=full.len() {
            if full.is_char_boundary(i) {
                assert!(parse_partial_object(&full[..i]).is_object());
            }
        }
        assert_eq!(parse_partial_object(full)["timeout"], json!(10));
    }
}
