//! The exported page: the template filled with the session as JSON, the
//! theme's colours, the viewer's style and script (`page/*.css`, `page/*.js`)
//! and the viewer's words in the current language.

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
    ("thinking_head", &["count"]),
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
    let data = json!({
        "header": session.header(),
        "entries": session.entries(),
        "leafId": session.leaf_id(),
        "strings": strings(),
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
    // Filled last: the session's own text can hold anything, `{{...}}` included.
    TEMPLATE
        .replace(
            "{{LANG}}",
            &escape_html(if lang.is_empty() { "en" } else { &lang }),
        )
        .replace("{{TITLE}}", &escape_html(&title))
        .replace("{{SEARCH}}", &escape_html(&word("search")))
        .replace("{{FILTERS}}", &filters)
        .replace("{{THEME_VARS}}", &theme_css(theme_json))
        .replace("{{STYLE}}", &STYLES.concat())
        .replace("{{SCRIPT}}", &SCRIPTS.join("\n"))
        .replace("{{DATA}}", &packed_json(&data))
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
