//! `ctx.ui.theme` (`fg`, `bg`, `bold`, `italic`, `underline`, `inverse`,
//! `strikethrough`, `dim`), `getTheme`, `getAllThemes` and `setTheme`.
//! Styling produces ANSI escape sequences the terminal UI turns back into
//! colours.

use std::sync::Arc;

use mlua::{Lua, Table, Value as LuaValue};
use ratatui::style::Color;
use serde_json::json;

use crate::lua::convert::{to_json, to_lua};
use crate::lua::ui::SharedExtensionUi;
use crate::ui_kit::theme::{REQUIRED_TOKENS, Theme};

/// Where a theme table reads its colours: the live theme or a fixed one.
#[derive(Clone)]
enum Source {
    Current(SharedExtensionUi),
    Fixed(Arc<Theme>),
}

impl Source {
    fn theme(&self) -> Theme {
        match self {
            Source::Current(ui) => ui.theme(None).unwrap_or_default(),
            Source::Fixed(t) => (**t).clone(),
        }
    }
}

/// The SGR parameters of `color` as a foreground (`base` 38) or background (48).
fn sgr(color: Color, base: u8) -> Option<String> {
    match color {
        Color::Rgb(r, g, b) => Some(format!("{base};2;{r};{g};{b}")),
        Color::Indexed(i) => Some(format!("{base};5;{i}")),
        _ => None,
    }
}

fn colored(
    source: &Source,
    method: &str,
    token: &str,
    text: &str,
    base: u8,
) -> mlua::Result<String> {
    if !REQUIRED_TOKENS.contains(&token) {
        return Err(mlua::Error::runtime(format!(
            "theme.{method}: unknown colour token \"{token}\" (see docs/themes.md for the list)"
        )));
    }
    let reset = if base == 38 { 39 } else { 49 };
    Ok(
        match source.theme().color(token).and_then(|c| sgr(c, base)) {
            Some(code) => format!("\x1b[{code}m{text}\x1b[{reset}m"),
            None => text.to_string(),
        },
    )
}

/// A theme table for Lua reading colours from `source`.
fn theme_table(lua: &Lua, source: Source) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    match &source {
        Source::Fixed(theme) => t.set("name", theme.name.clone())?,
        // The current theme changes under the table: read its name on access.
        Source::Current(_) => {
            let s = source.clone();
            let meta = lua.create_table()?;
            meta.set(
                "__index",
                lua.create_function(move |_, (_, key): (Table, String)| {
                    Ok((key == "name").then(|| s.theme().name))
                })?,
            )?;
            t.set_metatable(Some(meta))?;
        }
    }
    let s = source.clone();
    t.set(
        "fg",
        lua.create_function(move |_, (token, text): (String, String)| {
            colored(&s, "fg", &token, &text, 38)
        })?,
    )?;
    let s = source;
    t.set(
        "bg",
        lua.create_function(move |_, (token, text): (String, String)| {
            colored(&s, "bg", &token, &text, 48)
        })?,
    )?;
    for (name, on, off) in [
        ("bold", 1, 22),
        ("dim", 2, 22),
        ("italic", 3, 23),
        ("underline", 4, 24),
        ("inverse", 7, 27),
        ("strikethrough", 9, 29),
    ] {
        t.set(
            name,
            lua.create_function(move |_, text: String| Ok(format!("\x1b[{on}m{text}\x1b[{off}m")))?,
        )?;
    }
    Ok(t)
}

/// Add `theme`, `getTheme`, `getAllThemes` and `setTheme` to `t`.
pub fn install(lua: &Lua, t: &Table, ui: &SharedExtensionUi) -> mlua::Result<()> {
    t.set("theme", theme_table(lua, Source::Current(ui.clone()))?)?;
    let u = ui.clone();
    t.set(
        "getTheme",
        lua.create_function(move |lua, name: String| match u.theme(Some(&name)) {
            Some(theme) => Ok(LuaValue::Table(theme_table(
                lua,
                Source::Fixed(Arc::new(theme)),
            )?)),
            None => Ok(LuaValue::Nil),
        })?,
    )?;
    let u = ui.clone();
    t.set(
        "getAllThemes",
        lua.create_function(move |lua, ()| to_lua(lua, &serde_json::Value::Array(u.themes())))?,
    )?;
    let u = ui.clone();
    t.set(
        "setTheme",
        lua.create_function(move |lua, theme: LuaValue| {
            let result = lua.create_table()?;
            let request = match &theme {
                LuaValue::String(name) => {
                    let name = name.to_str()?.to_string();
                    match u.theme(Some(&name)) {
                        Some(_) => Ok(json!({"method": "setTheme", "name": name})),
                        None => Err(format!("Theme \"{name}\" not found")),
                    }
                }
                LuaValue::Table(_) => {
                    let value = to_json(lua, theme.clone())?;
                    Theme::parse(&value.to_string())
                        .map(|_| json!({"method": "setTheme", "theme": value}))
                        .map_err(|e| e.to_string())
                }
                other => Err(format!(
                    "setTheme expects a theme name or a theme table, got {}",
                    other.type_name()
                )),
            };
            match request {
                Ok(request) => {
                    u.fire(request);
                    result.set("success", true)?;
                }
                Err(error) => {
                    result.set("success", false)?;
                    result.set("error", error)?;
                }
            }
            Ok(result)
        })?,
    )?;
    Ok(())
}
