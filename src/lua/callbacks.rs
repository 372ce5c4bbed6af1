//! Lua functions kept for later: the `withSession` callback of `ctx.newSession`, run once pi
//! has switched to the new session, with a `ctx` of that session.

use mlua::{Function, Lua, Table};

use crate::lua::ctx::make_command_ctx;
use crate::lua::error::{ExtensionError, Handler, LuaFailure};
use crate::lua::vm::Vm;

const CALLBACKS_KEY: &str = "pi.callbacks";

fn callbacks(lua: &Lua) -> mlua::Result<Table> {
    if let Ok(t) = lua.named_registry_value::<Table>(CALLBACKS_KEY) {
        return Ok(t);
    }
    let t = lua.create_table()?;
    t.set("next", 0)?;
    lua.set_named_registry_value(CALLBACKS_KEY, t.clone())?;
    Ok(t)
}

/// Keep `callback` and return its id.
pub fn keep(lua: &Lua, callback: Function) -> mlua::Result<u64> {
    let table = callbacks(lua)?;
    let id: u64 = table.get::<u64>("next")? + 1;
    table.set("next", id)?;
    table.set(id, callback)?;
    Ok(id)
}

/// Run (and forget) callback `id` with a fresh command `ctx`; a callback that is gone (the
/// extensions were reloaded since) does nothing.
pub async fn run(vm: &Vm, id: u64) -> Result<(), ExtensionError> {
    let failed = |e: mlua::Error| ExtensionError::Failed {
        handler: Handler::WithSession,
        extension: None,
        cause: LuaFailure::of(&e),
    };
    let table = callbacks(&vm.lua).map_err(failed)?;
    let Some(callback) = table.get::<Option<Function>>(id).map_err(failed)? else {
        return Ok(());
    };
    table.set(id, mlua::Value::Nil).map_err(failed)?;
    let ctx = make_command_ctx(&vm.lua, &vm.host).map_err(failed)?;
    vm.host.budget.reset();
    callback.call_async::<()>(ctx).await.map_err(failed)
}
