//! The exported page: the template filled with the header's figures and the
//! branch's first screen as plain JSON, the whole session packed (gzip, base64),
//! the theme's colours, the viewer's style and script (`page/*.css`,
//! `page/*.js`) and the viewer's words in the current language.

use serde_json::{Map, Value, json};

use crate::i18n::{Arg, t};
use crate::session::manager::SessionManager;

use super::figures::Figures;
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

/// The whole HTML document for `session` in the theme given as JSON. The
/// entries pass through one at a time (counted for the header and packed), so
/// a long session is never held whole.
pub fn render_html(session: &SessionManager, theme_json: &str) -> String {
    let mut figures = Figures::default();
    let packed = packed_session(session, &mut figures);
    // The first screen of the current branch, drawn before the whole session is unpacked.
    let first: Vec<&crate::session::entries::SessionEntry> = session
        .branch_ids(None)
        .into_iter()
        .take(FIRST_SCREEN)
        .filter_map(|id| session.entry(id))
        .collect();
    let head = json!({
        "header": session.header(),
        "strings": strings(),
        "stats": figures.to_json(),
        "entries": first,
        "leafId": first.last().map(|e| e.id()),
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
            ("DATA", packed),
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

/// The session (`{"header", "entries", "leafId"}`) as gzip-compressed JSON in
/// base64: nothing in it can end the `<script>` element, and a large session
/// loads in a fraction of the bytes. Each entry is counted into `figures` on
/// its way through.
fn packed_session(session: &SessionManager, figures: &mut Figures) -> String {
    let mut packer = Packer::new();
    packer.write(br#"{"header":"#);
    packer.json(session.header());
    packer.write(br#","entries":["#);
    for (k, entry) in session.entries().loaded().enumerate() {
        let Ok(value) = serde_json::to_value(&*entry) else {
            continue;
        };
        figures.add(&value);
        if k > 0 {
            packer.write(b",");
        }
        packer.json(&value);
    }
    packer.write(br#"],"leafId":"#);
    packer.json(&session.leaf_id());
    packer.write(b"}");
    packer.finish()
}

/// JSON written through gzip (in large writes: the compressor is slow with
/// many small ones) and then base64.
struct Packer {
    gz: std::io::BufWriter<flate2::write::GzEncoder<Vec<u8>>>,
    ok: bool,
}

impl Packer {
    fn new() -> Self {
        let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        Packer {
            gz: std::io::BufWriter::with_capacity(256 * 1024, gz),
            ok: true,
        }
    }

    fn write(&mut self, bytes: &[u8]) {
        use std::io::Write;
        self.ok = self.ok && self.gz.write_all(bytes).is_ok();
    }

    fn json(&mut self, value: &impl serde::Serialize) {
        self.ok = self.ok && serde_json::to_writer(&mut self.gz, value).is_ok();
    }

    /// The packed text (empty when compressing failed).
    fn finish(self) -> String {
        use base64::Engine;
        let packed = match (self.ok, self.gz.into_inner()) {
            (true, Ok(gz)) => gz.finish().unwrap_or_default(),
            _ => Vec::new(),
        };
        base64::engine::general_purpose::STANDARD.encode(packed)
    }
}

/// `value` alone, packed as [`packed_session`] packs a session.
#[cfg(test)]
fn packed_json(value: &Value) -> String {
    let mut packer = Packer::new();
    packer.json(value);
    packer.finish()
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

    /// The packed session of `html`, unpacked.
    fn unpacked(html: &str) -> Value {
        use base64::Engine;
        use std::io::Read;
        let start = html.find("H4sI").expect("a gzip stream in base64");
        let len = html[start..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || "+/=".contains(c)))
            .unwrap();
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(&html[start..start + len])
            .unwrap();
        let mut json = String::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut json)
            .unwrap();
        serde_json::from_str(&json).unwrap()
    }

    #[test]
    fn a_long_session_is_exported_whole_without_being_held() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("long.jsonl");
        let mut text = String::from(
            "{\"type\":\"session\",\"version\":3,\"id\":\"s1\",\"timestamp\":\"2025-01-01T00:00:00.000Z\",\"cwd\":\"/w\"}\n",
        );
        let mut parent = "null".to_string();
        // 2,400 messages of 2 KB: past the size up to which bodies are kept on opening.
        for i in 0..2400 {
            let body = format!("{i:06}-{}", "x".repeat(2048));
            let message = if i % 2 == 0 {
                format!(r#"{{"role":"user","content":"{body}","timestamp":{i}}}"#)
            } else {
                format!(
                    r#"{{"role":"assistant","content":[{{"type":"text","text":"{body}"}}],"api":"a","provider":"p","model":"m","usage":{{"input":1,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":3,"cost":{{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}}},"stopReason":"stop","timestamp":{i}}}"#
                )
            };
            text.push_str(&format!(
                "{{\"type\":\"message\",\"id\":\"m{i}\",\"parentId\":{parent},\"timestamp\":\"2025-01-01T00:00:01.000Z\",\"message\":{message}}}\n"
            ));
            parent = format!("\"m{i}\"");
        }
        std::fs::write(&path, text).unwrap();
        let session = SessionManager::open(&path).unwrap();
        let before = session.bodies_in_memory();
        assert!(before < 100, "{before} bodies held after opening");

        let html = render_html(&session, crate::ui_kit::theme::DARK_JSON);

        // Only the first screen's entries were kept; the rest passed through.
        let after = session.bodies_in_memory();
        assert!(after <= before + FIRST_SCREEN, "{after} bodies held");
        let data = unpacked(&html);
        let entries = data["entries"].as_array().unwrap();
        assert_eq!(entries.len(), 2400);
        assert_eq!(
            entries[2399]["message"]["content"][0]["text"]
                .as_str()
                .unwrap()[..7],
            *"002399-"
        );
        assert_eq!(data["leafId"], "m2399");
        assert_eq!(data["header"]["id"], "s1");
        assert!(html.contains(r#""assistant":1200"#), "the header's figures");
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
