//! The label `/tree` shows for a tool result: the call that produced it, in a
//! few words (`[bash: ls -la]`, `[read: ~/src/main.rs:1-40]`, …). Arguments
//! are read loosely, as a script reads an object: a missing or empty field
//! falls back, and a value that is not a string is shown as text.

use std::sync::OnceLock;

use serde_json::Value;

/// Characters of a command kept in a `bash` label (then `...`).
const COMMAND_CHARS: usize = 50;

/// Characters of the arguments' JSON kept in another tool's label (then `...`).
const ARGUMENTS_CHARS: usize = 40;

/// Longest label kept (in characters): a path is shown whole up to here, and
/// a terminal never shows more of a tree row.
const MAX_LABEL_CHARS: usize = 256;

/// The home directory as the environment gives it (`HOME`, else
/// `USERPROFILE`; empty when neither is set), read once.
pub fn home() -> &'static str {
    static HOME: OnceLock<String> = OnceLock::new();
    HOME.get_or_init(|| {
        ["HOME", "USERPROFILE"]
            .iter()
            .filter_map(|key| std::env::var(key).ok())
            .find(|value| !value.is_empty())
            .unwrap_or_default()
    })
}

/// The tools whose labels read named fields of the arguments; any other tool's
/// label shows the start of its arguments' JSON.
const KNOWN_TOOLS: [&str; 7] = ["read", "write", "edit", "bash", "grep", "find", "ls"];

/// The label of a call to tool `name` with `args`, paths under `home` shown
/// from `~` (nothing is shortened when `home` is empty).
pub fn call_label(name: &str, args: &Value, home: &str) -> String {
    if is_known_tool(name) {
        known_label(name, |key| args.as_object().and_then(|o| o.get(key)), home)
    } else {
        other_label(name, &args.to_string())
    }
}

/// Whether `name` is a tool whose label reads named fields of its arguments.
pub(super) fn is_known_tool(name: &str) -> bool {
    KNOWN_TOOLS.contains(&name)
}

/// The label of a built-in tool, its arguments' fields read by `field`.
pub(super) fn known_label<'v>(
    name: &str,
    field: impl Fn(&str) -> Option<&'v Value>,
    home: &str,
) -> String {
    let text = |keys: &[&str], fallback: &str| {
        keys.iter()
            .filter_map(|key| field(key))
            .find(|value| truthy(value))
            .map_or_else(|| fallback.to_string(), as_text)
    };
    let path = |keys: &[&str], fallback: &str| shorten(&text(keys, fallback), home);
    let label = match name {
        "read" => {
            let mut shown = path(&["path", "file_path"], "");
            shown.push_str(&read_range(field("offset"), field("limit")));
            format!("[read: {shown}]")
        }
        "bash" => {
            let command = text(&["command"], "");
            let line = command.replace(['\n', '\t'], " ");
            let more = if utf16_len(&command) > COMMAND_CHARS {
                "..."
            } else {
                ""
            };
            format!("[bash: {}{more}]", utf16_prefix(line.trim(), COMMAND_CHARS))
        }
        "grep" => format!(
            "[grep: /{}/ in {}]",
            text(&["pattern"], ""),
            path(&["path"], ".")
        ),
        "find" => format!(
            "[find: {} in {}]",
            text(&["pattern"], ""),
            path(&["path"], ".")
        ),
        "ls" => format!("[ls: {}]", path(&["path"], ".")),
        // `write` and `edit`.
        _ => format!("[{name}: {}]", path(&["path", "file_path"], "")),
    };
    capped(label)
}

/// The label of any other tool: its name and the start of its arguments' JSON.
fn other_label(name: &str, json: &str) -> String {
    let more = if utf16_len(json) > ARGUMENTS_CHARS {
        "..."
    } else {
        ""
    };
    capped(format!(
        "[{name}: {}{more}]",
        utf16_prefix(json, ARGUMENTS_CHARS)
    ))
}

/// The label of a result whose call is not found: the tool's name.
pub fn missing_call_label(tool: &str) -> String {
    format!("[{tool}]")
}

/// `:start-end` of a read (`:start` without a limit; nothing without either).
fn read_range(offset: Option<&Value>, limit: Option<&Value>) -> String {
    if offset.is_none() && limit.is_none() {
        return String::new();
    }
    let start = offset.filter(|v| !v.is_null()).cloned();
    let start = start.unwrap_or_else(|| Value::from(1));
    let mut out = format!(":{}", as_text(&start));
    if let Some(limit) = limit {
        let end = match (as_number(&start), as_number(limit)) {
            (Some(start), Some(limit)) => start + limit - 1.0,
            // A text on either side joins the two, then reads the whole as a number.
            _ => text_number(&format!("{}{}", as_text(&start), as_text(limit))) - 1.0,
        };
        if end != 0.0 && !end.is_nan() {
            out.push('-');
            out.push_str(&number_text(end));
        }
    }
    out
}

/// `path` from `~` when it starts with `home`.
fn shorten(path: &str, home: &str) -> String {
    match path.strip_prefix(home) {
        Some(rest) if !home.is_empty() => format!("~{rest}"),
        _ => path.to_string(),
    }
}

/// Whether a value counts as given: not null, false, 0 or empty text.
fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|n| n != 0.0 && !n.is_nan()),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// A value shown as text: a string as it is, a number as written, a list's
/// items joined by `,`, an object as `[object Object]`.
fn as_text(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (_, Some(u), _) => u.to_string(),
            (_, _, Some(f)) => number_text(f),
            _ => n.to_string(),
        },
        Value::String(s) => s.clone(),
        Value::Array(items) => items
            .iter()
            .map(|item| match item {
                Value::Null => String::new(),
                item => as_text(item),
            })
            .collect::<Vec<_>>()
            .join(","),
        Value::Object(_) => "[object Object]".into(),
    }
}

/// A value read as a number when it is not text (null is 0, a boolean 0 or 1).
fn as_number(value: &Value) -> Option<f64> {
    match value {
        Value::Null => Some(0.0),
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        Value::Number(n) => n.as_f64(),
        _ => None,
    }
}

/// A text read as a number: blank is 0, anything else not a number is NaN.
fn text_number(text: &str) -> f64 {
    let text = text.trim();
    if text.is_empty() {
        return 0.0;
    }
    text.parse().unwrap_or(f64::NAN)
}

/// A number as a script prints it: whole numbers without a fraction.
fn number_text(n: f64) -> String {
    if n.is_infinite() {
        return if n > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if n.fract() == 0.0 && n.abs() < 1e21 {
        format!("{n:.0}")
    } else {
        n.to_string()
    }
}

/// The length of `text` in UTF-16 units.
fn utf16_len(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}

/// The longest start of `text` of at most `units` UTF-16 units.
fn utf16_prefix(text: &str, units: usize) -> &str {
    let mut used = 0;
    for (at, c) in text.char_indices() {
        used += c.len_utf16();
        if used > units {
            return &text[..at];
        }
    }
    text
}

/// `label` cut to [`MAX_LABEL_CHARS`], still closed by `]`.
fn capped(label: String) -> String {
    match label.char_indices().nth(MAX_LABEL_CHARS - 2) {
        Some((at, _)) => format!("{}…]", &label[..at]),
        None => label,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn label(name: &str, args: Value) -> String {
        call_label(name, &args, "/home/me")
    }

    #[test]
    fn a_command_is_shown_on_one_line_and_cut_at_fifty_characters() {
        assert_eq!(
            label("bash", json!({"command": "ls -la"})),
            "[bash: ls -la]"
        );
        assert_eq!(
            label("bash", json!({"command": " cd x\n\tmake \n"})),
            "[bash: cd x  make]"
        );
        let long = format!("echo {}", "a".repeat(60));
        assert_eq!(
            label("bash", json!({ "command": long })),
            format!("[bash: echo {}...]", "a".repeat(45))
        );
        let fifty = "b".repeat(50);
        assert_eq!(
            label("bash", json!({ "command": fifty })),
            format!("[bash: {fifty}]")
        );
        // The ellipsis follows the command as written, spaces included.
        assert_eq!(
            label("bash", json!({"command": format!("ls{}", " ".repeat(60))})),
            "[bash: ls...]"
        );
        assert_eq!(label("bash", json!({})), "[bash: ]");
    }

    #[test]
    fn a_read_shows_its_lines() {
        let read = |args| label("read", args);
        assert_eq!(read(json!({"path": "src/a.rs"})), "[read: src/a.rs]");
        assert_eq!(
            read(json!({"path": "a", "offset": 10, "limit": 5})),
            "[read: a:10-14]"
        );
        assert_eq!(read(json!({"path": "a", "offset": 10})), "[read: a:10]");
        assert_eq!(read(json!({"path": "a", "limit": 20})), "[read: a:1-20]");
        assert_eq!(
            read(json!({"path": "a", "offset": 3, "limit": 1})),
            "[read: a:3-3]"
        );
        assert_eq!(
            read(json!({"path": "a", "offset": 1, "limit": 0})),
            "[read: a:1]"
        );
        assert_eq!(read(json!({"file_path": "b", "offset": 2})), "[read: b:2]");
        assert_eq!(
            read(json!({"path": "a", "offset": "7", "limit": 3})),
            "[read: a:7-72]"
        );
        assert_eq!(
            read(json!({"path": "a", "offset": null, "limit": null})),
            "[read: a:1]"
        );
        assert_eq!(
            read(json!({"path": "a", "offset": 5, "limit": null})),
            "[read: a:5-4]"
        );
        assert_eq!(read(json!({"path": ["a", "b"]})), "[read: a,b]");
        assert_eq!(label("bash", json!({"command": 42})), "[bash: 42]");
    }

    #[test]
    fn paths_under_the_home_directory_start_with_a_tilde() {
        assert_eq!(
            label("read", json!({"path": "/home/me/x/y.rs"})),
            "[read: ~/x/y.rs]"
        );
        assert_eq!(label("write", json!({"path": "/home/me"})), "[write: ~]");
        assert_eq!(label("edit", json!({"path": "/tmp/e"})), "[edit: /tmp/e]");
        assert_eq!(label("ls", json!({"path": "/home/me/d"})), "[ls: ~/d]");
        assert_eq!(call_label("ls", &json!({"path": "/x"}), ""), "[ls: /x]");
    }

    #[test]
    fn searches_show_their_pattern_and_where() {
        assert_eq!(
            label(
                "grep",
                json!({"pattern": "fn main", "path": "/home/me/src"})
            ),
            "[grep: /fn main/ in ~/src]"
        );
        assert_eq!(label("grep", json!({"pattern": "x"})), "[grep: /x/ in .]");
        assert_eq!(
            label("find", json!({"pattern": "*.rs", "path": "src"})),
            "[find: *.rs in src]"
        );
        assert_eq!(
            label("find", json!({"pattern": "*.md"})),
            "[find: *.md in .]"
        );
        assert_eq!(label("ls", json!({})), "[ls: .]");
        assert_eq!(label("ls", json!({"path": ""})), "[ls: .]");
    }

    #[test]
    fn other_tools_show_the_start_of_their_arguments() {
        assert_eq!(label("todo", json!({"a": 1})), r#"[todo: {"a":1}]"#);
        let args = json!({"query": "rust tree", "limit": 10, "site": "docs.rs"});
        assert_eq!(
            label("search", args),
            r#"[search: {"query":"rust tree","limit":10,"site":"...]"#
        );
        let exact = json!({ "k": "x".repeat(32) });
        assert_eq!(exact.to_string().len(), 40);
        assert_eq!(label("t", exact.clone()), format!("[t: {exact}]"));
    }

    #[test]
    fn a_result_whose_call_is_missing_shows_the_tool() {
        assert_eq!(missing_call_label("bash"), "[bash]");
    }

    #[test]
    fn a_long_path_is_cut_and_stays_closed() {
        let shown = label("write", json!({ "path": "p".repeat(400) }));
        assert_eq!(shown.chars().count(), MAX_LABEL_CHARS);
        assert!(shown.starts_with("[write: ppp") && shown.ends_with("p…]"));
    }
}
