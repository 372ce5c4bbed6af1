//! Colour themes in pi's theme JSON format: `vars` (named colours) and
//! `colors` (tokens mapped to a var name, `#rrggbb`, a 256-colour index, or
//! `""` for the terminal default).

use crate::t;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::SystemTime;

use ratatui::style::{Color, Modifier, Style};
use serde_json::Value;

use super::theme_error::ThemeError;

/// The built-in dark theme.
pub const DARK_JSON: &str = include_str!("../../themes/dark.json");
/// The built-in light theme.
pub const LIGHT_JSON: &str = include_str!("../../themes/light.json");

/// Every built-in theme as (name, JSON), in the order pickers list them: pi's own, then the
/// eleven themes of the extension playground.
pub const BUILTIN_THEMES: [(&str, &str); 18] = [
    ("dark", DARK_JSON),
    ("light", LIGHT_JSON),
    ("ember", include_str!("../../themes/ember.json")),
    ("glacier", include_str!("../../themes/glacier.json")),
    ("moss", include_str!("../../themes/moss.json")),
    ("nightshade", include_str!("../../themes/nightshade.json")),
    ("paper", include_str!("../../themes/paper.json")),
    ("synthwave", include_str!("../../themes/synthwave.json")),
    (
        "catppuccin-mocha",
        include_str!("../../themes/catppuccin-mocha.json"),
    ),
    ("dracula", include_str!("../../themes/dracula.json")),
    ("tokyo-night", include_str!("../../themes/tokyo-night.json")),
    ("cyberpunk", include_str!("../../themes/cyberpunk.json")),
    ("nord", include_str!("../../themes/nord.json")),
    ("gruvbox", include_str!("../../themes/gruvbox.json")),
    ("rose-pine", include_str!("../../themes/rose-pine.json")),
    ("everforest", include_str!("../../themes/everforest.json")),
    (
        "ocean-breeze",
        include_str!("../../themes/ocean-breeze.json"),
    ),
    (
        "midnight-ocean",
        include_str!("../../themes/midnight-ocean.json"),
    ),
];

/// Names of the built-in themes, in listing order.
pub fn builtin_theme_names() -> impl Iterator<Item = &'static str> {
    BUILTIN_THEMES.iter().map(|(name, _)| *name)
}

/// Colour tokens every theme must define.
pub const REQUIRED_TOKENS: [&str; 51] = [
    "accent",
    "border",
    "borderAccent",
    "borderMuted",
    "success",
    "error",
    "warning",
    "muted",
    "dim",
    "text",
    "thinkingText",
    "selectedBg",
    "userMessageBg",
    "userMessageText",
    "customMessageBg",
    "customMessageText",
    "customMessageLabel",
    "toolPendingBg",
    "toolSuccessBg",
    "toolErrorBg",
    "toolTitle",
    "toolOutput",
    "mdHeading",
    "mdLink",
    "mdLinkUrl",
    "mdCode",
    "mdCodeBlock",
    "mdCodeBlockBorder",
    "mdQuote",
    "mdQuoteBorder",
    "mdHr",
    "mdListBullet",
    "toolDiffAdded",
    "toolDiffRemoved",
    "toolDiffContext",
    "syntaxComment",
    "syntaxKeyword",
    "syntaxFunction",
    "syntaxVariable",
    "syntaxString",
    "syntaxNumber",
    "syntaxType",
    "syntaxOperator",
    "syntaxPunctuation",
    "thinkingOff",
    "thinkingMinimal",
    "thinkingLow",
    "thinkingMedium",
    "thinkingHigh",
    "thinkingXhigh",
    "bashMode",
];

/// The JSON of theme `name` as [`Theme::load`] finds it (built-in first, then
/// `<name>.json` in `dirs`), for pages drawn in the user's colours (the HTML export).
pub fn theme_json(name: &str, dirs: &[&Path]) -> Option<String> {
    if let Some((_, json)) = BUILTIN_THEMES.iter().find(|(n, _)| *n == name) {
        return Some((*json).to_string());
    }
    dirs.iter()
        .map(|d| d.join(format!("{name}.json")))
        .find_map(|p| std::fs::read_to_string(p).ok())
}

/// A resolved theme: token name to colour (`None` = terminal default).
#[derive(Debug, Clone)]
pub struct Theme {
    /// Theme name.
    pub name: String,
    colors: HashMap<String, Option<Color>>,
}

impl Default for Theme {
    #[expect(
        clippy::expect_used,
        reason = "the data is embedded at build time and a unit test parses it"
    )]
    fn default() -> Self {
        Theme::builtin("dark").expect("the dark theme is built in")
    }
}

impl Theme {
    /// The built-in light theme.
    #[expect(
        clippy::expect_used,
        reason = "the data is embedded at build time and a unit test parses it"
    )]
    pub fn light() -> Self {
        Theme::builtin("light").expect("the light theme is built in")
    }

    /// The built-in theme called `name`, if there is one (each parsed once per process).
    #[expect(
        clippy::expect_used,
        reason = "the data is embedded at build time and a unit test parses it"
    )]
    pub fn builtin(name: &str) -> Option<Theme> {
        static PARSED: [OnceLock<Theme>; BUILTIN_THEMES.len()] =
            [const { OnceLock::new() }; BUILTIN_THEMES.len()];
        let index = BUILTIN_THEMES.iter().position(|(n, _)| *n == name)?;
        let theme = PARSED[index].get_or_init(|| {
            Theme::parse(BUILTIN_THEMES[index].1).expect("built-in themes are valid")
        });
        Some(theme.clone())
    }

    /// A theme with no colours at all (used by snapshot tests and `NO_COLOR`).
    pub fn plain() -> Self {
        Theme {
            name: "plain".into(),
            colors: REQUIRED_TOKENS
                .iter()
                .map(|t| (t.to_string(), None))
                .collect(),
        }
    }

    /// Parse theme JSON; the error names the offending token.
    pub fn parse(json: &str) -> Result<Theme, ThemeError> {
        let root: Value = serde_json::from_str(json).map_err(|e| ThemeError::InvalidJson {
            detail: crate::config::error::JsonProblem::from_serde(&e).to_string(),
        })?;
        let name = root["name"].as_str().unwrap_or("custom").to_string();
        let empty = serde_json::Map::new();
        let vars = root["vars"].as_object().unwrap_or(&empty);
        let colors = root["colors"]
            .as_object()
            .ok_or(ThemeError::MissingColors)?;
        let mut resolved = HashMap::new();
        for token in REQUIRED_TOKENS {
            let value = colors.get(token).ok_or_else(|| ThemeError::MissingToken {
                token: token.to_string(),
            })?;
            let color = resolve(value, vars, 0).ok_or_else(|| ThemeError::InvalidToken {
                token: token.to_string(),
                value: value.to_string(),
            })?;
            resolved.insert(token.to_string(), color);
        }
        Ok(Theme {
            name,
            colors: resolved,
        })
    }

    /// Load a theme by name: built-ins first, then `<name>.json` in `dirs`.
    /// A missing or malformed theme falls back to `dark` with a warning.
    pub fn load(name: &str, dirs: &[&Path]) -> (Theme, Option<String>) {
        let (theme, warning, _) = Theme::locate(name, dirs);
        (theme, warning)
    }

    /// [`Theme::load`], also returning the file a user theme came from.
    pub fn locate(name: &str, dirs: &[&Path]) -> (Theme, Option<String>, Option<PathBuf>) {
        if let Some(theme) = Theme::builtin(name) {
            return (theme, None, None);
        }
        for dir in dirs {
            let path = dir.join(format!("{name}.json"));
            if path.is_file() {
                let (theme, warnings) = Theme::from_file_checked(&path);
                let notes = (!warnings.is_empty()).then(|| warnings.join("\n"));
                return match theme {
                    Ok(theme) => (theme, notes, Some(path)),
                    Err(e) => {
                        let all = notes.map_or(e.to_string(), |n| format!("{n}\n{e}"));
                        (Theme::default(), Some(all), Some(path))
                    }
                };
            }
        }
        (
            Theme::default(),
            Some(t!("pi.theme.not_found", name = name)),
            None,
        )
    }

    /// Parse a theme file; the error says which file and token is wrong.
    pub fn from_file(path: &Path) -> Result<Theme, ThemeError> {
        Theme::from_file_checked(path).0
    }

    /// [`Theme::from_file`], also checking the file against
    /// `schemas/theme.schema.json`: each wrong-typed or unknown key is named in
    /// the warnings, and a colour of the wrong type takes the dark theme's
    /// colour while the rest of the theme applies.
    pub fn from_file_checked(path: &Path) -> (Result<Theme, ThemeError>, Vec<String>) {
        let failed = |error: ThemeError| ThemeError::InFile {
            path: path.to_path_buf(),
            error: Box::new(error),
        };
        let text = match crate::config::json_file::read_config_text(path) {
            Ok(text) => text,
            Err(e) => {
                let reason = crate::i18n::config_words::io_reason(&e);
                let path = path.to_path_buf();
                return (Err(ThemeError::Unreadable { path, reason }), Vec::new());
            }
        };
        let Ok(mut root) = serde_json::from_str::<Value>(&text) else {
            return (Theme::parse(&text).map_err(failed), Vec::new());
        };
        let before = root.clone();
        let warnings: Vec<String> = crate::config::schema_check::THEME
            .check(path, &mut root)
            .iter()
            .map(ToString::to_string)
            .collect();
        let fallback = Theme::default();
        if let (Some(was), Some(Value::Object(colors))) = (
            before.get("colors").and_then(Value::as_object),
            root.get_mut("colors"),
        ) {
            for token in REQUIRED_TOKENS {
                if was.contains_key(token) && !colors.contains_key(token) {
                    colors.insert(token.to_string(), color_json(fallback.color(token)));
                }
            }
        }
        (Theme::parse(&root.to_string()).map_err(failed), warnings)
    }

    /// The colour of `token` (`None` = terminal default or unknown token).
    pub fn color(&self, token: &str) -> Option<Color> {
        self.colors.get(token).copied().flatten()
    }

    /// A style with `token` as the foreground.
    pub fn fg(&self, token: &str) -> Style {
        match self.color(token) {
            Some(c) => Style::default().fg(c),
            None => Style::default(),
        }
    }

    /// A style with `token` as the background.
    pub fn bg(&self, token: &str) -> Style {
        match self.color(token) {
            Some(c) => Style::default().bg(c),
            None => Style::default(),
        }
    }

    /// Bold foreground.
    pub fn bold(&self, token: &str) -> Style {
        self.fg(token).add_modifier(Modifier::BOLD)
    }
}

fn resolve(
    value: &Value,
    vars: &serde_json::Map<String, Value>,
    depth: usize,
) -> Option<Option<Color>> {
    if depth > 8 {
        return None;
    }
    match value {
        Value::Number(n) => n
            .as_u64()
            .filter(|i| *i < 256)
            .map(|i| Some(Color::Indexed(i as u8))),
        Value::String(s) if s.is_empty() => Some(None),
        Value::String(s) if s.starts_with('#') => parse_hex(s).map(Some),
        Value::String(s) => resolve(vars.get(s)?, vars, depth + 1),
        _ => None,
    }
}

/// A resolved colour written back as theme JSON.
fn color_json(color: Option<Color>) -> Value {
    match color {
        Some(Color::Rgb(r, g, b)) => Value::from(format!("#{r:02x}{g:02x}{b:02x}")),
        Some(Color::Indexed(i)) => Value::from(i),
        _ => Value::from(""),
    }
}

fn parse_hex(s: &str) -> Option<Color> {
    let hex = s.strip_prefix('#')?;
    if hex.len() != 6 {
        return None;
    }
    let n = u32::from_str_radix(hex, 16).ok()?;
    Some(Color::Rgb((n >> 16) as u8, (n >> 8) as u8, n as u8))
}

/// Watches a user theme file and reloads it when it changes.
#[derive(Debug)]
pub struct ThemeWatcher {
    path: PathBuf,
    modified: Option<SystemTime>,
}

impl ThemeWatcher {
    /// Watch `path` from its current state.
    pub fn new(path: PathBuf) -> Self {
        let modified = modified(&path);
        ThemeWatcher { path, modified }
    }

    /// `Some` when the file changed since the last call: the new theme, or
    /// why it could not be used.
    pub fn poll(&mut self) -> Option<Result<Theme, ThemeError>> {
        let now = modified(&self.path);
        if now == self.modified {
            return None;
        }
        self.modified = now;
        Some(Theme::from_file(&self.path))
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_themes_resolve_vars_hex_and_defaults() {
        let dark = Theme::default();
        assert_eq!(dark.color("error"), Some(Color::Rgb(0xcc, 0x66, 0x66)));
        assert_eq!(dark.color("text"), None);
        assert_eq!(Theme::light().name, "light");
    }

    #[test]
    fn every_built_in_theme_parses_under_its_own_name() {
        for (name, json) in BUILTIN_THEMES {
            let theme = Theme::parse(json).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(theme.name, name);
            assert!(theme.color("accent").is_some(), "{name} has an accent");
        }
        let (ember, warning, path) = Theme::locate("ember", &[]);
        assert_eq!((ember.name.as_str(), warning, path), ("ember", None, None));
        assert_eq!(builtin_theme_names().count(), 18);
    }

    #[test]
    fn a_wrong_typed_colour_is_named_and_the_rest_of_the_theme_applies() {
        let dir = tempfile::tempdir().unwrap();
        let mut v: Value = serde_json::from_str(DARK_JSON).unwrap();
        v["name"] = Value::from("mine");
        v["colors"]["accent"] = Value::Bool(true);
        v["colors"]["error"] = Value::from("#010203");
        v["sparkle"] = Value::from(1);
        let path = dir.path().join("mine.json");
        std::fs::write(&path, v.to_string()).unwrap();
        let (theme, warning, _) = Theme::locate("mine", &[dir.path()]);
        let warning = warning.unwrap();
        assert!(
            warning.contains("\"colors.accent\" should be a string or a whole number"),
            "{warning}"
        );
        assert!(warning.contains("unknown key \"sparkle\""), "{warning}");
        assert!(warning.contains("mine.json"), "{warning}");
        assert_eq!(theme.name, "mine");
        assert_eq!(theme.color("error"), Some(Color::Rgb(1, 2, 3)));
        assert_eq!(theme.color("accent"), Theme::default().color("accent"));
    }

    #[test]
    fn malformed_theme_names_the_bad_token() {
        let mut v: Value = serde_json::from_str(DARK_JSON).unwrap();
        v["colors"]["mdHeading"] = Value::String("#zzz".into());
        let err = Theme::parse(&v.to_string()).unwrap_err();
        assert!(
            matches!(&err, ThemeError::InvalidToken { token, .. } if token == "mdHeading"),
            "{err:?}"
        );
        assert!(err.to_string().contains("mdHeading"), "{err}");
        v["colors"]["mdHeading"] = Value::from(214);
        assert_eq!(
            Theme::parse(&v.to_string()).unwrap().color("mdHeading"),
            Some(Color::Indexed(214))
        );
    }

    #[test]
    fn watcher_reloads_an_edited_theme_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mine.json");
        std::fs::write(&path, DARK_JSON).unwrap();
        let (theme, warning, found) = Theme::locate("mine", &[dir.path()]);
        assert!(warning.is_none());
        assert_eq!(found.as_deref(), Some(path.as_path()));
        assert_eq!(theme.color("error"), Some(Color::Rgb(0xcc, 0x66, 0x66)));
        let mut watcher = ThemeWatcher::new(path.clone());
        assert!(watcher.poll().is_none());
        let mut v: Value = serde_json::from_str(DARK_JSON).unwrap();
        v["colors"]["error"] = Value::String("#ff0000".into());
        std::fs::write(&path, v.to_string()).unwrap();
        let file = std::fs::File::options().write(true).open(&path).unwrap();
        file.set_modified(SystemTime::now() + std::time::Duration::from_secs(5))
            .unwrap();
        let reloaded = watcher.poll().expect("change seen").unwrap();
        assert_eq!(reloaded.color("error"), Some(Color::Rgb(0xff, 0, 0)));
    }
}
