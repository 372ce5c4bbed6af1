//! `ctx.compact{onComplete = f, onError = g}`: the two functions are kept in the VM under a
//! number until the compaction the call queued has run; then the host is sent
//! [`EVENT`] with that number and the outcome, and calls `onComplete(result)` (the
//! `{summary, firstKeptEntryId, tokensBefore, details}` table) or `onError(error)` (a
//! `{message}` table).

use mlua::{Function, Lua, Table, Value as LuaValue};
use serde_json::Value;

use crate::lua::convert::to_lua;
use crate::lua::dispatch::Dispatched;
use crate::lua::vm::Vm;

/// The internal event that carries a finished compaction back to its callbacks.
pub const EVENT: &str = "__pi_compact_done";

const TABLE: &str = "pi.compact_callbacks";
const NEXT: &str = "pi.compact_callbacks_next";

/// Keep `opts.onComplete` / `opts.onError` (when either is a function); returns the
/// number they are kept under.
pub fn keep(lua: &Lua, opts: &Table) -> mlua::Result<Option<u64>> {
    let on_complete: Option<Function> = opts.get("onComplete").ok().flatten();
    let on_error: Option<Function> = opts.get("onError").ok().flatten();
    if on_complete.is_none() && on_error.is_none() {
        return Ok(None);
    }
    let table: Table = match lua.named_registry_value::<Option<Table>>(TABLE)? {
        Some(t) => t,
        None => {
            let t = lua.create_table()?;
            lua.set_named_registry_value(TABLE, t.clone())?;
            t
        }
    };
    let id = lua.named_registry_value::<Option<u64>>(NEXT)?.unwrap_or(1);
    lua.set_named_registry_value(NEXT, id + 1)?;
    let pair = lua.create_table()?;
    pair.set("onComplete", on_complete)?;
    pair.set("onError", on_error)?;
    table.set(id, pair)?;
    Ok(Some(id))
}

/// Run the callbacks kept under `payload.id` with the outcome, then forget them.
pub async fn finish(vm: &Vm, payload: Value) -> Dispatched {
    let mut out = Dispatched::unchanged(payload.clone());
    let lua = &vm.lua;
    let Some(id) = payload.get("id").and_then(Value::as_u64) else {
        return out;
    };
    let Ok(Some(table)) = lua.named_registry_value::<Option<Table>>(TABLE) else {
        return out;
    };
    let Ok(Some(pair)) = table.get::<Option<Table>>(id) else {
        return out;
    };
    let _ = table.set(id, LuaValue::Nil);
    let ok = payload.get("ok").and_then(Value::as_bool).unwrap_or(false);
    let (name, argument) = if ok {
        (
            "onComplete",
            payload.get("result").cloned().unwrap_or(Value::Null),
        )
    } else {
        let message = payload.get("error").cloned().unwrap_or(Value::Null);
        ("onError", serde_json::json!({ "message": message }))
    };
    let Ok(Some(func)) = pair.get::<Option<Function>>(name) else {
        return out;
    };
    vm.host.budget.reset();
    let result = match to_lua(lua, &argument) {
        Ok(arg) => func.call_async::<()>(arg).await,
        Err(e) => Err(e),
    };
    if let Err(e) = result {
        out.errors.push(format!(
            "ctx.compact {name}: {}",
            crate::lua::tool_exec::error_text(&e)
        ));
    }
    out
}
