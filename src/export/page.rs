//! The exported page: the template filled with the header's figures and the
//! branch's first screen as plain JSON, the whole session packed (gzip, base64),
//! the theme's colours, the viewer's style and script (`page/*.css`,
//! `page/*.js`) and the viewer's words in the current language.

use serde_json::{Map, Value, json};

use crate::i18n::{Arg, t};
use crate::session::manager::SessionManager;

use super::theme_css::theme_css;

const TEMPLATE: &str = include_str!("template.html");
const STYLES: [&str; 2] = [
    include_str!("page/style.css"),
    include_str!("page/print.css"),
];
/// The viewer's script in order: each part uses only the parts before it
/// (`tree.js` and `view.js` use each other's state only once the page runs).
const SCRIPTS: [&str; 6] = [
    include_str!("page/model.js"),
    include_str!("page/highlight.js"),
    include_str!("page/render.js"),
    include_str!("page/view.js"),
    include_str!("page/tree.js"),
    include_str!("page/app.js"),
];

/// The viewer's words: its key, and the placeholders the script fills in.
const STRINGS: &[(&str, &[&str])] = &[
    ("tree.user", &["text"]),
    ("tree.assistant", &["text"]),
    ("tree.error", &["error"]),
    ("tree.compaction", &["count"]),
    ("tree.branch_summary", &["text"]),
    ("tree.model", &["model"]),
    ("tree.thinking", &["level"]),
    ("tree.name", &["name"]),
    ("tree_status", &["pos", "shown", "total"]),
    ("image", &[]),
    ("more_lines", &["count"]),
    ("turn_usage", &[]),
    ("copy_md", &[]),
    ("copy_md_title", &[]),
    ("copied", &[]),
    ("thinking_head", &[]),
    ("aborted", &[]),
    ("compaction_head", &["count"]),
    ("branch_summary_head", &[]),
    ("model_switch", &[]),
    ("thinking_level", &["level"]),
    ("role_user", &[]),
    ("role_assistant", &[]),
    ("keys_hint", &[]),
    ("toggle_thinking", &[]),
    ("toggle_tools", &[]),
    ("download", &[]),
    ("print", &[]),
    ("count_user", &["count"]),
    ("count_assistant", &["count"]),
    ("count_tool_results", &["count"]),
    ("count_custom", &["count"]),
    ("count_compactions", &["count"]),
    ("count_branch_summaries", &["count"]),
    ("info_date", &[]),
    ("info_folder", &[]),
    ("info_models", &[]),
    ("info_messages", &[]),
    ("info_tool_calls", &[]),
    ("info_tokens", &[]),
    ("info_cost", &[]),
];

/// Entries of the branch the page holds in plain JSON to draw its first screen
/// (the viewer's first chunk).
const FIRST_SCREEN: usize = 25;

/// The tree's filters: the value the script knows and the button's word.
const FILTERS: [(&str, &str); 5] = [
    ("default", "filter_default"),
    ("no-tools", "filter_no_tools"),
    ("user", "filter_user"),
    ("labeled", "filter_labeled"),
    ("all", "filter_all"),
];

fn word(key: &str) -> String {
    t(&format!("pi.export.page.{key}"), &[])
}

/// The viewer's words, placeholders left as `{name}` for the script.
fn strings() -> Value {
    let mut out = Map::new();
    for (key, names) in STRINGS {
        let keep: Vec<String> = names.iter().map(|n| format!("{{{n}}}")).collect();
        let args: Vec<(&str, Arg)> = names
            .iter()
            .zip(&keep)
            .map(|(n, k)| (*n, Arg::from(k.as_str())))
            .collect();
        out.insert(
            (*key).to_string(),
            Value::String(t(&format!("pi.export.page.{key}"), &args)),
        );
    }
    Value::Object(out)
}

/// The whole HTML document for `session` in the theme given as JSON.
pub fn render_html(session: &SessionManager, theme_json: &str) -> String {
    let entries: Vec<Value> = session
        .entries()
        .iter()
        .filter_map(|e| serde_json::to_value(e).ok())
        .collect();
    // The first screen of the current branch, drawn before the whole session is unpacked.
    let first: Vec<&crate::session::entries::SessionEntry> = session
        .get_branch(None)
        .into_iter()
        .take(FIRST_SCREEN)
        .collect();
    let head = json!({
        "header": session.header(),
        "strings": strings(),
        "stats": super::figures::figures(&entries),
        "entries": first,
        "leafId": first.last().map(|e| e.id()),
    });
    let data = json!({
        "header": session.header(),
        "entries": entries,
        "leafId": session.leaf_id(),
    });
    let title = session
        .session_name()
        .map(str::to_string)
        .unwrap_or_else(|| {
            t(
                "pi.export.page.title",
                &[("id", Arg::from(session.session_id()))],
            )
        });
    let filters: String = FILTERS
        .iter()
        .map(|(value, key)| {
            format!(
                "<button type=\"button\" data-filter=\"{value}\">{}</button>",
                escape_html(&word(key))
            )
        })
        .collect();
    let lang = crate::i18n::current_locale();
    let lang = if lang.is_empty() {
        "en".to_string()
    } else {
        lang
    };
    fill(
        TEMPLATE,
        &[
            ("LANG", escape_html(&lang)),
            ("TITLE", escape_html(&title)),
            ("SEARCH", escape_html(&word("search"))),
            ("FILTERS", filters),
            ("THEME_VARS", theme_css(theme_json)),
            ("STYLE", STYLES.concat()),
            ("SCRIPT", SCRIPTS.join("\n")),
            ("HEAD", script_safe_json(&head)),
            ("DATA", packed_json(&data)),
        ],
    )
}

/// `template` with each `{{NAME}}` replaced by its value, in one pass: a value
/// (the session's text) is never searched for placeholders itself.
fn fill(template: &str, values: &[(&str, String)]) -> String {
    let mut out =
        String::with_capacity(template.len() + values.iter().map(|(_, v)| v.len()).sum::<usize>());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find("}}").and_then(|end| {
            let name = &after[..end];
            values
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (v, end))
        }) {
            Some((value, end)) => {
                out.push_str(value);
                rest = &after[end + 2..];
            }
            None => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// JSON that can sit inside a `<script>` element: `<`, `>`, `&` and the
/// line separators are escaped, so no `</script>` can end it early.
fn script_safe_json(value: &Value) -> String {
    let text = serde_json::to_string(value).unwrap_or_else(|_| "{}".into());
    let mut out = String::with_capacity(text.len() + text.len() / 50);
    for c in text.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// `value` as gzip-compressed JSON in base64: nothing in it can end the
/// `<script>` element, and a large session loads in a fraction of the bytes.
fn packed_json(value: &Value) -> String {
    use base64::Engine;
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let packed = serde_json::to_writer(&mut gz, value)
        .ok()
        .and_then(|()| gz.flush().ok())
        .and_then(|()| gz.finish().ok())
        .unwrap_or_default();
    base64::engine::general_purpose::STANDARD.encode(packed)
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_filled_once() {
        let filled = fill(
            "<{{A}}|{{B}}|{{C}}>",
            &[("A", "{{B}}".into()), ("B", "b".into())],
        );
        assert_eq!(filled, "<{{B}}|b|{{C}}>");
    }

    #[test]
    fn script_json_cannot_close_the_script_element() {
        let s = script_safe_json(&json!({"text": "</script><b>&"}));
        assert!(!s.contains("</script>"));
        assert_eq!(
            serde_json::from_str::<Value>(&s).unwrap()["text"],
            "</script><b>&"
        );
    }

    #[test]
    fn the_session_is_packed_and_comes_back_whole() {
        use base64::Engine;
        use std::io::Read;
        let value = json!({"text": "</script><b>&", "n": [1, 2, 3]});
        let packed = packed_json(&value);
        assert!(
            packed
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b))
        );
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(&packed)
            .unwrap();
        let mut json = String::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut json)
            .unwrap();
        assert_eq!(serde_json::from_str::<Value>(&json).unwrap(), value);
    }

    #[test]
    fn the_viewer_gets_its_words_with_placeholders_kept() {
        let words = strings();
        assert_eq!(words["more_lines"], "… ({count} more lines)");
        assert_eq!(
            words["tree_status"],
            "{pos} / {shown} shown · {total} entries"
        );
        assert_eq!(words.as_object().unwrap().len(), STRINGS.len());
    }
}
