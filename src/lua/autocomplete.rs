//! `ctx.ui.addAutocompleteProvider(factory)`: completion providers stacked over the editor's
//! own (`/` commands and `@` paths). The factory receives the provider below it (`current`)
//! and returns its own `{getSuggestions, applyCompletion?, shouldTriggerFileCompletion?}`;
//! delegating to `current.getSuggestions` at the bottom of the stack returns `nil`, which
//! lets the editor's own completion answer.

use std::rc::Rc;

use mlua::{Function, Lua, Table, Value as LuaValue};
use serde_json::Value;

use crate::lua::convert::to_json;
use crate::lua::vm::{HostCtx, Vm};

/// The name under which "an autocomplete provider exists" is published with the events that
/// have handlers, so that front ends ask only when there is one.
pub const AUTOCOMPLETE_MARK: &str = "@autocomplete";

/// The bottom of the stack: the editor's own completion, which answers when this says `nil`.
fn builtin(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.set(
        "getSuggestions",
        lua.create_function(|_, _: mlua::MultiValue| Ok(LuaValue::Nil))?,
    )?;
    t.set(
        "applyCompletion",
        lua.create_function(|_, _: mlua::MultiValue| Ok(LuaValue::Nil))?,
    )?;
    t.set(
        "shouldTriggerFileCompletion",
        lua.create_function(|_, _: mlua::MultiValue| Ok(true))?,
    )?;
    Ok(t)
}

/// `ctx.ui.addAutocompleteProvider`.
pub fn install(lua: &Lua, ui: &Table, host: &Rc<HostCtx>) -> mlua::Result<()> {
    let h = host.clone();
    ui.set(
        "addAutocompleteProvider",
        lua.create_function(move |lua, factory: Function| {
            let current = h.reg.borrow().autocomplete.clone();
            let current = match current {
                Some(provider) => provider,
                None => builtin(lua)?,
            };
            let provider: Table = factory.call(current).map_err(|e| {
                mlua::Error::runtime(format!(
                    "ctx.ui.addAutocompleteProvider: the factory must return a provider table: {e}"
                ))
            })?;
            if provider
                .get::<Option<Function>>("getSuggestions")?
                .is_none()
            {
                return Err(mlua::Error::runtime(
                    "ctx.ui.addAutocompleteProvider: the provider has no getSuggestions function",
                ));
            }
            h.reg.borrow_mut().autocomplete = Some(provider);
            h.mark_subscribed(AUTOCOMPLETE_MARK);
            Ok(())
        })?,
    )
}

/// Suggestions of the provider stack for the cursor at byte `col` of line `line` (1-based):
/// `{prefix, items = {{value, label?, description?}}}`, or `None` to let the editor answer.
pub async fn suggest(vm: &Vm, lines: Vec<String>, line: usize, col: usize) -> Option<Value> {
    let provider = vm.host.reg.borrow().autocomplete.clone()?;
    let get: Function = provider.get("getSuggestions").ok()?;
    let lines = vm.lua.create_sequence_from(lines).ok()?;
    let options = vm.lua.create_table().ok()?;
    vm.host.budget.reset();
    let result = match get
        .call_async::<LuaValue>((lines, line, col, options))
        .await
    {
        Ok(result) => result,
        Err(e) => {
            vm.host.view.report(format!(
                "Extension error: autocomplete provider: {}",
                crate::lua::tool_exec::error_text(&e)
            ));
            return None;
        }
    };
    let result = to_json(&vm.lua, result).ok()?;
    let items = result.get("items")?.as_array()?;
    let valid = result.get("prefix")?.is_string() && items.iter().all(|i| i["value"].is_string());
    valid.then_some(result)
}
