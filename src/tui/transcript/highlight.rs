//! Syntax highlighting of fenced code blocks (syntect), coloured with the
//! theme's `syntax*` tokens so every pi theme styles code consistently.

use std::str::FromStr;
use std::sync::OnceLock;

use ratatui::style::{Color, Style};
use syntect::easy::HighlightLines;
use syntect::highlighting::{
    Color as SyntectColor, ScopeSelectors, StyleModifier, Theme as SyntectTheme, ThemeItem,
    ThemeSettings,
};
use syntect::parsing::SyntaxSet;
use syntect::util::LinesWithEndings;

use crate::ui_kit::theme::Theme;

/// Scope selectors and the theme token that colours them (later wins).
const SCOPES: [(&str, &str); 9] = [
    ("variable, support.variable", "syntaxVariable"),
    ("punctuation", "syntaxPunctuation"),
    ("keyword.operator", "syntaxOperator"),
    ("string, string.quoted", "syntaxString"),
    ("constant.numeric, constant.language", "syntaxNumber"),
    (
        "storage.type, entity.name.type, support.type, support.class",
        "syntaxType",
    ),
    (
        "keyword, storage.modifier, keyword.control, storage.type.function",
        "syntaxKeyword",
    ),
    (
        "entity.name.function, support.function, meta.function-call",
        "syntaxFunction",
    ),
    ("comment, punctuation.definition.comment", "syntaxComment"),
];

/// Marks a colour that stands for a 256-colour palette index.
const INDEXED_ALPHA: u8 = 1;

/// Load the syntax definitions in the background so the first code block
/// does not wait for them.
pub fn preload() {
    std::thread::spawn(|| {
        syntaxes();
    });
}

fn syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(SyntaxSet::load_defaults_newlines)
}

fn to_syntect(color: Color) -> Option<SyntectColor> {
    match color {
        Color::Rgb(r, g, b) => Some(SyntectColor { r, g, b, a: 255 }),
        Color::Indexed(i) => Some(SyntectColor {
            r: i,
            g: 0,
            b: 0,
            a: INDEXED_ALPHA,
        }),
        _ => None,
    }
}

fn from_syntect(color: SyntectColor) -> Option<Color> {
    match color.a {
        0 => None,
        INDEXED_ALPHA => Some(Color::Indexed(color.r)),
        _ => Some(Color::Rgb(color.r, color.g, color.b)),
    }
}

fn syntect_theme(theme: &Theme) -> SyntectTheme {
    let scopes = SCOPES
        .iter()
        .filter_map(|(selector, token)| {
            let foreground = to_syntect(theme.color(token)?)?;
            Some(ThemeItem {
                scope: ScopeSelectors::from_str(selector).ok()?,
                style: StyleModifier {
                    foreground: Some(foreground),
                    background: None,
                    font_style: None,
                },
            })
        })
        .collect();
    SyntectTheme {
        settings: ThemeSettings {
            foreground: Some(SyntectColor {
                r: 0,
                g: 0,
                b: 0,
                a: 0,
            }),
            ..ThemeSettings::default()
        },
        scopes,
        ..SyntectTheme::default()
    }
}

/// Highlight `code` written in `lang` (a name or file extension); `None`
/// when the language is unknown. Each returned line is a list of styled runs.
pub fn highlight(code: &str, lang: &str, theme: &Theme) -> Option<Vec<Vec<(String, Style)>>> {
    let lang = lang.split_whitespace().next()?;
    let set = syntaxes();
    let syntax = set
        .find_syntax_by_token(lang)
        .or_else(|| set.find_syntax_by_extension(lang))?;
    let syntect_theme = syntect_theme(theme);
    let mut lines = HighlightLines::new(syntax, &syntect_theme);
    let mut out = Vec::new();
    for line in LinesWithEndings::from(code) {
        let ranges = lines.highlight_line(line, set).ok()?;
        let runs = ranges
            .into_iter()
            .map(|(style, text)| {
                let fg = from_syntect(style.foreground);
                let style = fg.map(|c| Style::default().fg(c)).unwrap_or_default();
                (text.trim_end_matches(['\n', '\r']).to_string(), style)
            })
            .filter(|(t, _)| !t.is_empty())
            .collect();
        out.push(runs);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_keywords_and_strings_get_theme_colours() {
        let theme = Theme::default();
        let lines = highlight("fn main() {\n    let s = \"hi\";\n}\n", "rust", &theme).unwrap();
        assert_eq!(lines.len(), 3);
        let keyword = theme.color("syntaxKeyword");
        let string = theme.color("syntaxString");
        let find = |text: &str| {
            lines
                .iter()
                .flatten()
                .find(|(t, _)| t.contains(text))
                .map(|(_, s)| s.fg)
                .unwrap()
        };
        assert_eq!(find("fn"), keyword);
        assert_eq!(find("hi"), string);
        assert!(highlight("x", "no-such-language", &theme).is_none());
    }
}
