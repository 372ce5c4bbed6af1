//! The `ctx` table handed to handlers, tools and commands: `cwd`, `model`,
//! `hasUI`, `sessionManager.*` and `ui.*` (no-ops without an interactive UI).

use std::collections::HashMap;
use std::rc::Rc;

use mlua::{Function, Lua, Table, Value as LuaValue};
use serde_json::Value;

use super::convert::{str_field, to_lua};
use super::exec::LuaSignal;
use super::view::SessionView;
use super::vm::HostCtx;

const STATIC_KEY: &str = "pi.ctx.static";

/// Entries from the root to `leaf` (pi's `getBranch`).
pub fn branch(view: &SessionView, leaf: Option<&str>) -> Vec<Value> {
    let by_id: HashMap<&str, &Value> = view
        .entries
        .iter()
        .filter_map(|e| str_field(e, "id").map(|id| (id, e)))
        .collect();
    let mut out = Vec::new();
    let mut cursor = leaf.or(view.leaf_id.as_deref()).map(str::to_string);
    while let Some(id) = cursor {
        let Some(entry) = by_id.get(id.as_str()) else {
            break;
        };
        out.push((*entry).clone());
        cursor = str_field(entry, "parentId").map(str::to_string);
    }
    out.reverse();
    out
}

fn session_manager(lua: &Lua, host: &Rc<HostCtx>) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let h = host.clone();
    t.set(
        "getEntries",
        lua.create_function(move |lua, ()| {
            to_lua(lua, &Value::Array(h.view.lock().entries.clone()))
        })?,
    )?;
    let h = host.clone();
    t.set(
        "getBranch",
        lua.create_function(move |lua, from: Option<String>| {
            let view = h.view.lock();
            to_lua(lua, &Value::Array(branch(&view, from.as_deref())))
        })?,
    )?;
    let h = host.clone();
    t.set(
        "getLeafId",
        lua.create_function(move |_, ()| Ok(h.view.lock().leaf_id.clone()))?,
    )?;
    let h = host.clone();
    t.set(
        "getEntry",
        lua.create_function(move |lua, id: String| {
            let view = h.view.lock();
            match view
                .entries
                .iter()
                .find(|e| str_field(e, "id") == Some(&id))
            {
                Some(e) => to_lua(lua, e),
                None => Ok(LuaValue::Nil),
            }
        })?,
    )?;
    let h = host.clone();
    t.set(
        "getHeader",
        lua.create_function(move |lua, ()| to_lua(lua, &h.view.lock().header))?,
    )?;
    let h = host.clone();
    t.set(
        "getSessionFile",
        lua.create_function(move |_, ()| Ok(h.view.lock().session_file.clone()))?,
    )?;
    let h = host.clone();
    t.set(
        "getSessionName",
        lua.create_function(move |_, ()| Ok(h.view.lock().session_name.clone()))?,
    )?;
    Ok(t)
}

/// `ctx.ui` without an interactive UI: dialogs return their defaults,
/// setters do nothing (pi's `hasUI = false` behaviour).
fn headless_ui(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let nothing = lua.create_function(|_, _: mlua::MultiValue| Ok(()))?;
    for name in [
        "notify",
        "setStatus",
        "setWidget",
        "setFooter",
        "setHeader",
        "setTitle",
        "setEditorText",
        "setWorkingMessage",
        "setTheme",
    ] {
        t.set(name, nothing.clone())?;
    }
    t.set(
        "confirm",
        lua.create_function(|_, _: mlua::MultiValue| Ok(false))?,
    )?;
    for name in ["select", "input", "editor", "custom"] {
        t.set(name, nothing.clone())?;
    }
    t.set(
        "getEditorText",
        lua.create_function(|_, _: mlua::MultiValue| Ok(""))?,
    )?;
    Ok(t)
}

/// Create the per-VM parts of `ctx` (call once after the VM is built).
/// With `ui`, `ctx.ui` dialogs go to that front end and `ctx.hasUI` is true.
pub fn install_static(
    lua: &Lua,
    host: &Rc<HostCtx>,
    ui: Option<super::ui::SharedExtensionUi>,
) -> mlua::Result<()> {
    let t = lua.create_table()?;
    t.set("sessionManager", session_manager(lua, host)?)?;
    t.set("hasUI", ui.is_some())?;
    match ui {
        Some(ui) => t.set("ui", super::ui::connected_ui(lua, ui)?)?,
        None => t.set("ui", headless_ui(lua)?)?,
    }
    let h = host.clone();
    let get_system_prompt: Function =
        lua.create_function(move |_, ()| Ok(h.view.lock().system_prompt.clone()))?;
    t.set("getSystemPrompt", get_system_prompt)?;
    lua.set_named_registry_value(STATIC_KEY, t)
}

/// A fresh `ctx` for one call.
pub fn make_ctx(lua: &Lua, host: &HostCtx, signal: Option<&LuaSignal>) -> mlua::Result<Table> {
    let statics: Table = lua.named_registry_value(STATIC_KEY)?;
    let ctx = lua.create_table()?;
    let (cwd, model) = {
        let view = host.view.lock();
        (view.cwd.display().to_string(), view.model.clone())
    };
    ctx.set("cwd", cwd)?;
    ctx.set("model", to_lua(lua, &model)?)?;
    ctx.set("hasUI", statics.get::<bool>("hasUI")?)?;
    ctx.set("sessionManager", statics.get::<Table>("sessionManager")?)?;
    ctx.set("ui", statics.get::<Table>("ui")?)?;
    ctx.set(
        "getSystemPrompt",
        statics.get::<Function>("getSystemPrompt")?,
    )?;
    if let Some(s) = signal {
        ctx.set("signal", s.clone())?;
    }
    Ok(ctx)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn branch_walks_parents_from_the_leaf() {
        let view = SessionView {
            entries: vec![
                json!({"id": "a", "parentId": null}),
                json!({"id": "b", "parentId": "a"}),
                json!({"id": "c", "parentId": "a"}),
            ],
            leaf_id: Some("c".into()),
            ..SessionView::default()
        };
        let ids: Vec<_> = branch(&view, None)
            .iter()
            .map(|e| e["id"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(ids, vec!["a", "c"]);
        assert_eq!(branch(&view, Some("b")).len(), 2);
    }
}
