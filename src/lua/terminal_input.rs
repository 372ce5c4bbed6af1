//! `ctx.ui.onTerminalInput(handler)`: handlers that see every key the terminal UI receives
//! before anything else does. A key arrives as the key id components receive (`"a"`, `"up"`,
//! `"ctrl+x"`); a handler returns nothing to pass it on, `{consume = true}` to swallow it, or
//! `{data = "..."}` to hand on another key id (or text to type) instead.

use std::rc::Rc;

use mlua::{Function, Lua, Table, Value as LuaValue};
use serde_json::{Value, json};

use crate::lua::vm::{HostCtx, Vm};

/// Published with the events that have handlers while a terminal input handler exists.
pub const TERMINAL_INPUT_MARK: &str = "@terminal_input";

/// `ctx.ui.onTerminalInput`; returns the function that removes the handler again.
pub fn install(lua: &Lua, ui: &Table, host: &Rc<HostCtx>) -> mlua::Result<()> {
    let h = host.clone();
    ui.set(
        "onTerminalInput",
        lua.create_function(move |lua, handler: Function| {
            let id = {
                let mut reg = h.reg.borrow_mut();
                reg.next_input_id += 1;
                let id = reg.next_input_id;
                reg.terminal_input.push((id, handler));
                id
            };
            h.mark_subscribed(TERMINAL_INPUT_MARK);
            let h = h.clone();
            lua.create_function(move |_, ()| {
                let events = {
                    let mut reg = h.reg.borrow_mut();
                    reg.terminal_input.retain(|(i, _)| *i != id);
                    reg.subscribed_events()
                };
                if let Ok(mut s) = h.subscribed.write() {
                    *s = events;
                }
                Ok(())
            })
        })?,
    )
}

/// Run `key` through the handlers in the order they were added: `{consume = true}` or
/// `{data = key}` (the key to hand on, possibly rewritten).
pub async fn dispatch(vm: &Vm, key: String) -> Value {
    let handlers: Vec<Function> = vm
        .host
        .reg
        .borrow()
        .terminal_input
        .iter()
        .map(|(_, f)| f.clone())
        .collect();
    let mut key = key;
    for handler in handlers {
        vm.host.budget.reset();
        match handler.call_async::<LuaValue>(key.clone()).await {
            Ok(LuaValue::Table(out)) => {
                if out.get::<Option<bool>>("consume").ok().flatten() == Some(true) {
                    return json!({"consume": true});
                }
                if let Ok(Some(data)) = out.get::<Option<String>>("data") {
                    key = data;
                }
            }
            Ok(_) => {}
            Err(e) => vm.host.view.report(format!(
                "Extension error: terminal input handler: {}",
                crate::lua::tool_exec::error_text(&e)
            )),
        }
    }
    json!({"data": key})
}
