//! `setInterval` / `setTimeout` / `clearInterval` / `clearTimeout` for Lua
//! (on `pi` and on `pi.ui`): callbacks run on the extension thread between
//! other work, never on the UI's draw path.

use std::rc::Rc;
use std::time::Duration;

use mlua::{Function, Lua, Table};

use crate::lua::vm::HostCtx;

const TIMERS_KEY: &str = "pi.timers";

fn timers(lua: &Lua) -> mlua::Result<Table> {
    if let Ok(t) = lua.named_registry_value::<Table>(TIMERS_KEY) {
        return Ok(t);
    }
    let t = lua.create_table()?;
    t.set("next", 0)?;
    lua.set_named_registry_value(TIMERS_KEY, t.clone())?;
    Ok(t)
}

/// Run timer `id` once; `false` when it was cleared or the VM is gone.
async fn fire(weak: &mlua::WeakLua, id: i64, once: bool) -> bool {
    let Some(lua) = weak.try_upgrade() else {
        return false;
    };
    let Ok(table) = timers(&lua) else {
        return false;
    };
    let Ok(Some(callback)) = table.get::<Option<Function>>(id) else {
        return false;
    };
    if once {
        let _ = table.set(id, mlua::Value::Nil);
    }
    let host = lua.app_data_ref::<Rc<HostCtx>>().map(|h| h.clone());
    if let Some(h) = &host {
        h.budget.reset();
    }
    // Asynchronous, so that a callback may call functions that yield (`pi.exec`, dialogs).
    if let Err(e) = callback.call_async::<()>(()).await {
        let message = format!("Extension error: timer callback failed: {e}");
        match host {
            Some(h) => h.view.report(message),
            None => eprintln!("{message}"),
        }
    }
    true
}

fn start(lua: &Lua, callback: Function, ms: Option<u64>, once: bool) -> mlua::Result<i64> {
    let table = timers(lua)?;
    let id: i64 = table.get::<i64>("next")? + 1;
    table.set("next", id)?;
    table.set(id, callback)?;
    let period = Duration::from_millis(ms.unwrap_or(0).max(if once { 0 } else { 1 }));
    let weak = lua.weak();
    tokio::task::spawn_local(async move {
        if once {
            tokio::time::sleep(period).await;
            fire(&weak, id, true).await;
            return;
        }
        let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            tick.tick().await;
            if !fire(&weak, id, false).await {
                break;
            }
        }
    });
    Ok(id)
}

/// Add the four timer functions to `t`.
pub fn add_timers(lua: &Lua, t: &Table) -> mlua::Result<()> {
    t.set(
        "setInterval",
        lua.create_function(|lua, (f, ms): (Function, Option<u64>)| start(lua, f, ms, false))?,
    )?;
    t.set(
        "setTimeout",
        lua.create_function(|lua, (f, ms): (Function, Option<u64>)| start(lua, f, ms, true))?,
    )?;
    let clear = lua.create_function(|lua, id: Option<i64>| {
        if let Some(id) = id {
            timers(lua)?.set(id, mlua::Value::Nil)?;
        }
        Ok(())
    })?;
    t.set("clearInterval", clear.clone())?;
    t.set("clearTimeout", clear)?;
    Ok(())
}
