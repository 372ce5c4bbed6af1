//! The theme's colours as CSS custom properties for the exported page.

use serde_json::{Map, Value};

/// The theme's colours (and its `export` page colours) as CSS custom
/// properties: `--accent: #8abeb7;` ... Empty colours mean "terminal
/// default" and get readable fallbacks.
pub fn theme_css(theme_json: &str) -> String {
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
    fn theme_colours_become_css_variables() {
        let css = theme_css(crate::ui_kit::theme::DARK_JSON);
        assert!(css.contains("--accent: #8abeb7;"), "{css}");
        assert!(css.contains("--toolDiffAdded: #b5bd68;"));
        assert!(css.contains("--pageBg: #18181e;"));
        assert_eq!(ansi256_hex(196), "#ff0000");
        assert_eq!(ansi256_hex(244), "#808080");
    }
}
