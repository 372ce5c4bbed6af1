//! `pi.promise()`: a one-shot value one handler waits for and another (a
//! `pi.spawn` callback, a timer) delivers, e.g. the answer to a request written to
//! a process's stdin. Waiting yields to other handlers.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use mlua::{Lua, RegistryKey, Table, Value as LuaValue};
use tokio::sync::watch;

use crate::lua::api::exec::LuaSignal;
use crate::lua::vm::HostCtx;

/// The shared state of one promise.
struct Slot {
    value: RefCell<Option<RegistryKey>>,
    done: watch::Sender<bool>,
}

/// Add `pi.promise` to the `pi` table.
pub fn add_promise(lua: &Lua, pi: &Table) -> mlua::Result<()> {
    pi.set("promise", lua.create_function(|lua, ()| promise(lua))?)
}

fn promise(lua: &Lua) -> mlua::Result<Table> {
    let slot = Rc::new(Slot {
        value: RefCell::new(None),
        done: watch::Sender::new(false),
    });
    let t = lua.create_table()?;
    let s = slot.clone();
    t.set(
        "resolve",
        lua.create_function(move |lua, value: LuaValue| {
            if *s.done.borrow() {
                return Ok(false);
            }
            *s.value.borrow_mut() = Some(lua.create_registry_value(value)?);
            s.done.send_replace(true);
            Ok(true)
        })?,
    )?;
    let s = slot.clone();
    t.set(
        "settled",
        lua.create_function(move |_, ()| Ok(*s.done.borrow()))?,
    )?;
    t.set(
        "await",
        lua.create_async_function(move |lua, (timeout, signal): (Option<u64>, LuaValue)| {
            let s = slot.clone();
            async move {
                let signal = match signal {
                    LuaValue::UserData(ud) => ud.borrow::<LuaSignal>()?.0.clone(),
                    _ => Default::default(),
                };
                let limit = async {
                    match timeout {
                        Some(ms) => tokio::time::sleep(Duration::from_millis(ms)).await,
                        None => std::future::pending().await,
                    }
                };
                let mut rx = s.done.subscribe();
                let why = tokio::select! {
                    _ = rx.wait_for(|d| *d) => None,
                    _ = signal.cancelled() => Some("aborted"),
                    _ = limit => Some("timeout"),
                };
                if let Some(host) = lua.app_data_ref::<Rc<HostCtx>>() {
                    host.budget.reset();
                }
                if let Some(why) = why {
                    return Ok((LuaValue::Nil, Some(why)));
                }
                let value = match s.value.borrow().as_ref() {
                    Some(key) => lua.registry_value::<LuaValue>(key)?,
                    None => LuaValue::Nil,
                };
                Ok((value, None))
            }
        })?,
    )?;
    Ok(t)
}
