//! HTML export (`/export`, `pi --export`, RPC `export_html`): one
//! self-contained file holding the session's entries as JSON, the theme's
//! colours as CSS variables and a small inline script that renders the
//! conversation, the session tree (any branch selectable) and a search box.
//! Nothing is fetched from the network when the file is opened.

pub mod jsonl;
pub mod share;

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use crate::session::manager::SessionManager;

const TEMPLATE: &str = include_str!("template.html");
const STYLE: &str = include_str!("template.css");
const SCRIPT: &str = include_str!("template.js");

/// Why an export failed.
#[derive(Debug)]
pub enum ExportError {
    /// The session has no entries to show.
    Empty,
    /// Writing the file failed.
    Io(PathBuf, std::io::Error),
}

impl std::fmt::Display for ExportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExportError::Empty => write!(f, "Nothing to export yet - start a conversation first"),
            ExportError::Io(path, e) => write!(f, "cannot write {}: {e}", path.display()),
        }
    }
}

impl std::error::Error for ExportError {}

/// The default output name: `pi-session-<session file stem>.html` in the
/// working directory.
pub fn default_output_path(session: &SessionManager) -> PathBuf {
    let stem = session
        .session_file()
        .and_then(|f| f.file_stem())
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| session.session_id().to_string());
    PathBuf::from(format!("pi-session-{stem}.html"))
}

/// Write `session` as HTML to `out` (default: [`default_output_path`]) in
/// the theme given as JSON (default: the built-in dark theme). Returns the
/// path written.
pub fn export_session(
    session: &SessionManager,
    out: Option<&Path>,
    theme_json: Option<&str>,
) -> Result<PathBuf, ExportError> {
    if !session.entries().iter().any(|e| e.as_message().is_some()) {
        return Err(ExportError::Empty);
    }
    let path = out
        .map(Path::to_path_buf)
        .unwrap_or_else(|| default_output_path(session));
    let html = render_html(
        session,
        theme_json.unwrap_or(crate::ui_kit::theme::DARK_JSON),
    );
    // Replaced whole or not at all; a new page is private to the user.
    crate::config::atomic_file::write_atomically(&path, html.as_bytes())
        .map_err(|e| ExportError::Io(path.clone(), e))?;
    Ok(path)
}

/// The whole HTML document for `session`.
pub fn render_html(session: &SessionManager, theme_json: &str) -> String {
    let data = json!({
        "header": session.header(),
        "entries": session.entries(),
        "leafId": session.leaf_id(),
    });
    let title = session
        .session_name()
        .map(str::to_string)
        .unwrap_or_else(|| format!("Session {}", session.session_id()));
    TEMPLATE
        .replace("{{TITLE}}", &escape_html(&title))
        .replace("{{THEME_VARS}}", &theme_css(theme_json))
        .replace("{{STYLE}}", STYLE)
        .replace("{{SCRIPT}}", SCRIPT)
        .replace("{{DATA}}", &script_safe_json(&data))
}

/// JSON that can sit inside a `<script>` element: `<`, `>`, `&` and the
/// line separators are escaped, so no `</script>` can end it early.
fn script_safe_json(value: &Value) -> String {
    let text = serde_json::to_string(value).unwrap_or_else(|_| "{}".into());
    let mut out = String::with_capacity(text.len());
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

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The theme's colours (and its `export` page colours) as CSS custom
/// properties: `--accent: #8abeb7;` ... Empty colours mean "terminal
/// default" and get readable fallbacks.
fn theme_css(theme_json: &str) -> String {
    let theme: Value = serde_json::from_str(theme_json).unwrap_or(Value::Null);
    let empty = Map::new();
    let vars = theme["vars"].as_object().unwrap_or(&empty);
    let resolve = |value: &Value| -> Option<String> {
        let mut current = value.clone();
        for _ in 0..8 {
            match &current {
                Value::String(s) if s.starts_with('#') => return Some(s.clone()),
                Value::String(s) if !s.is_empty() => current = vars.get(s)?.clone(),
                Value::Number(n) => return n.as_u64().map(ansi256_hex),
                _ => return None,
            }
        }
        None
    };
    let mut css = String::new();
    let mut push = |name: &str, value: String| {
        css.push_str(&format!("--{name}: {value};\n"));
    };
    let colors = theme["colors"].as_object().unwrap_or(&empty);
    for (name, value) in colors {
        let fallback = if name.ends_with("Bg") {
            "transparent"
        } else {
            "#d4d4d4"
        };
        push(name, resolve(value).unwrap_or_else(|| fallback.into()));
    }
    let page = theme["export"].as_object().unwrap_or(&empty);
    for (name, fallback) in [
        ("pageBg", "#18181e"),
        ("cardBg", "#1e1e24"),
        ("infoBg", "#3c3728"),
    ] {
        push(
            name,
            page.get(name)
                .and_then(&resolve)
                .unwrap_or_else(|| fallback.into()),
        );
    }
    css
}

/// An xterm 256-colour index as `#rrggbb`.
fn ansi256_hex(index: u64) -> String {
    const BASE: [u32; 16] = [
        0x000000, 0x800000, 0x008000, 0x808000, 0x000080, 0x800080, 0x008080, 0xc0c0c0, 0x808080,
        0xff0000, 0x00ff00, 0xffff00, 0x0000ff, 0xff00ff, 0x00ffff, 0xffffff,
    ];
    let rgb = match index {
        0..=15 => BASE[index as usize],
        16..=231 => {
            let i = index - 16;
            let level = |v: u64| if v == 0 { 0 } else { 55 + v * 40 } as u32;
            (level(i / 36) << 16) | (level((i / 6) % 6) << 8) | level(i % 6)
        }
        _ => {
            let g = (8 + (index.min(255) - 232) * 10) as u32;
            (g << 16) | (g << 8) | g
        }
    };
    format!("#{rgb:06x}")
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn theme_colours_become_css_variables() {
        let css = theme_css(crate::ui_kit::theme::DARK_JSON);
        assert!(css.contains("--accent: #8abeb7;"), "{css}");
        assert!(css.contains("--toolDiffAdded: #b5bd68;"));
        assert!(css.contains("--pageBg: #18181e;"));
        assert_eq!(ansi256_hex(196), "#ff0000");
        assert_eq!(ansi256_hex(244), "#808080");
    }
}
