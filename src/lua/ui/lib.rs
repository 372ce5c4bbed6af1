//! The `pi.ui` module (`local ui = require("pi.ui")`): width-safe string
//! helpers written in Rust, key matching, and the ready components of
//! `runtime-lua/ui/components.lua`.

use mlua::{Lua, Table, Value as LuaValue};

use crate::ui_kit::keybindings::{DEFAULT_BINDINGS, KeyCombo};
use crate::ui_kit::text::{slice_by_column, truncate, width, wrap_text};

/// The components, written in Lua on top of the helpers.
const COMPONENTS: &str = include_str!("../../../runtime-lua/ui/components.lua");
/// Registry key of the built module.
const MODULE_KEY: &str = "pi.ui.module";

/// The combo a key id from `handleInput` stands for: one character is that
/// character as typed (`"A"` is shift+a), anything else is `ctrl+x` style.
fn key_combo(key: &str) -> Option<KeyCombo> {
    let mut chars = key.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Some(KeyCombo::from_event(&crossterm::event::KeyEvent::new(
            crossterm::event::KeyCode::Char(c),
            crossterm::event::KeyModifiers::NONE,
        ))),
        _ => KeyCombo::parse(key),
    }
}

/// Whether `key` is `spec` (`"ctrl+x"`, `"escape"`, `"up"`, `"shift+tab"`): `key` is a key
/// id as passed to `handleInput`, or the raw bytes a terminal sends (`"\x03"`,
/// `"\x1b[27;2;13~"`), decoded as pi's input reader decodes them.
pub fn matches_key(key: &str, spec: &str) -> bool {
    if is_terminal_data(key) {
        let ctx = crate::ui_kit::keys::DecodeContext::from_environment(
            crate::ui_kit::keys::kitty_protocol(),
        );
        return crate::ui_kit::keys::matches_key(key, spec, ctx);
    }
    match (key_combo(key), key_combo(spec)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// Raw terminal input rather than a key id: it holds a control character (ESC, 0x03, …).
fn is_terminal_data(key: &str) -> bool {
    key.chars().any(|c| c.is_control())
}

/// `"<keys> <text>"` for keybinding `id` (its default keys), or for a key
/// spec given directly (`keyHint("ctrl+x", "close")`).
pub fn key_hint(id: &str, text: &str) -> String {
    let keys = DEFAULT_BINDINGS
        .iter()
        .find(|(name, _)| *name == id)
        .map(|(_, keys)| keys.join("/"))
        .unwrap_or_else(|| id.to_string());
    format!("\x1b[2m{keys}\x1b[22m {text}")
}

/// Whether key id `key` triggers keybinding `id` (its default keys).
pub fn binding_matches(key: &str, id: &str) -> bool {
    DEFAULT_BINDINGS
        .iter()
        .find(|(name, _)| *name == id)
        .is_some_and(|(_, keys)| keys.iter().any(|spec| matches_key(key, spec)))
}

fn helpers(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.set(
        "visibleWidth",
        lua.create_function(|_, s: String| Ok(width(&s)))?,
    )?;
    t.set(
        "truncateToWidth",
        lua.create_function(|_, (s, w, e): (String, usize, Option<String>)| {
            Ok(truncate(&s, w, e.as_deref().unwrap_or("…")))
        })?,
    )?;
    t.set(
        "wrapTextWithAnsi",
        lua.create_function(|_, (s, w): (String, usize)| Ok(wrap_text(&s, w)))?,
    )?;
    t.set(
        "sliceByColumn",
        lua.create_function(|_, (s, start, len): (String, usize, Option<usize>)| {
            Ok(slice_by_column(
                &s,
                start,
                start + len.unwrap_or(usize::MAX / 2),
            ))
        })?,
    )?;
    t.set(
        "matchesKey",
        lua.create_function(|_, (key, spec): (String, String)| Ok(matches_key(&key, &spec)))?,
    )?;
    t.set(
        "keyHint",
        lua.create_function(|_, (id, text): (String, Option<String>)| {
            Ok(key_hint(&id, text.as_deref().unwrap_or("")))
        })?,
    )?;
    crate::lua::api::timers::add_timers(lua, &t)?;
    let keybindings = lua.create_table()?;
    keybindings.set(
        "matches",
        lua.create_function(|_, (key, id): (String, String)| Ok(binding_matches(&key, &id)))?,
    )?;
    t.set("keybindings", keybindings)?;
    Ok(t)
}

/// The `pi.ui` module of this VM (built once, then shared).
pub fn module(lua: &Lua) -> mlua::Result<Table> {
    if let Ok(t) = lua.named_registry_value::<Table>(MODULE_KEY) {
        return Ok(t);
    }
    let base = helpers(lua)?;
    let build: mlua::Function = lua
        .load(COMPONENTS)
        .set_name("@runtime-lua/ui/components.lua")
        .into_function()?;
    let t: Table = build.call(base)?;
    lua.set_named_registry_value(MODULE_KEY, t.clone())?;
    Ok(t)
}

/// `require` of a module built into pi, if `name` is one.
pub fn builtin_module(lua: &Lua, name: &str) -> mlua::Result<Option<LuaValue>> {
    match name {
        "pi.ui" => Ok(Some(LuaValue::Table(module(lua)?))),
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_ids_match_specs() {
        assert!(matches_key("ctrl+x", "ctrl+x"));
        assert!(matches_key("escape", "esc"));
        assert!(matches_key("A", "shift+a"));
        assert!(matches_key("j", "j"));
        assert!(!matches_key("j", "k"));
        assert!(!matches_key("ctrl+x", "x"));
    }

    #[test]
    fn lua_matches_key_takes_raw_terminal_data() {
        let lua = Lua::new();
        lua.globals().set("ui", module(&lua).unwrap()).unwrap();
        let results: Vec<bool> = lua
            .load(
                r#"return {
                    ui.matchesKey("\3", "ctrl+c"),
                    ui.matchesKey("\27[27;5;99~", "ctrl+c"),
                    ui.matchesKey("\27[27;5;99~", "ctrl+d"),
                    ui.matchesKey("ctrl+c", "ctrl+c"),
                }"#,
            )
            .eval()
            .unwrap();
        assert_eq!(results, vec![true, true, false, true]);
    }

    #[test]
    fn raw_terminal_data_is_decoded() {
        assert!(matches_key("\x03", "ctrl+c"));
        assert!(!matches_key("\x03", "ctrl+d"));
        assert!(matches_key("\x1b[27;2;13~", "shift+enter"));
        assert!(!matches_key("\x1b[27;2;13~", "enter"));
        assert!(matches_key("\x1b[1089::99;5u", "ctrl+c"));
        assert!(matches_key("\x1b[A", "up"));
        assert!(binding_matches("\x1b", "tui.select.cancel"));
        assert!(!binding_matches("\r", "tui.select.cancel"));
    }

    #[test]
    fn key_hints_use_default_bindings() {
        assert!(key_hint("tui.editor.cursorUp", "move").contains("up"));
        assert!(key_hint("ctrl+q", "quit").ends_with("quit"));
    }
}
