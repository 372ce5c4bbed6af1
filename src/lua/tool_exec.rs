//! Running a Lua tool's `execute(toolCallId, params, signal, onUpdate, ctx)`
//! on the host thread.

use crate::t;
use mlua::Value as LuaValue;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::lua::api::exec::LuaSignal;
use crate::lua::convert::{to_json, to_lua};
use crate::lua::ctx::make_ctx;
use crate::lua::vm::Vm;

/// Call the tool `name`; `Ok` holds the returned `{content, details}` table
/// as JSON, `Err` the message of an `error(...)` raised by the tool.
pub async fn execute_tool(
    vm: &Vm,
    name: &str,
    call_id: &str,
    params: Value,
    signal: CancellationToken,
    updates: mpsc::UnboundedSender<Value>,
) -> Result<Value, String> {
    let (execute, ext) = match vm.host.reg.borrow().tools.get(name) {
        Some(t) => (t.execute.clone(), t.ext),
        None => return Err(format!("Tool {name} is no longer registered")),
    };
    let lua = &vm.lua;
    let signal = LuaSignal(signal);
    let prepared = (|| {
        let params = to_lua(lua, &params)?;
        let on_update = lua.create_function(move |lua, partial: LuaValue| {
            let _ = updates.send(to_json(lua, partial)?);
            Ok(())
        })?;
        let ctx = make_ctx(lua, &vm.host, Some(&signal))?;
        Ok::<_, mlua::Error>((params, on_update, ctx))
    })();
    let (params, on_update, ctx) = prepared.map_err(|e| e.to_string())?;
    vm.host.budget.reset();
    let started = std::time::Instant::now();
    let result = execute
        .call_async::<LuaValue>((call_id.to_string(), params, signal, on_update, ctx))
        .await;
    crate::lua::profile::record(vm, ext, &format!("tool:{name}"), started.elapsed(), true);
    let result = match result {
        Ok(v) => v,
        Err(e) => {
            if crate::lua::vm::is_memory_error(&e) {
                // As for handlers: disable the extension so what it holds is freed.
                drop(execute);
                crate::lua::loader::remove_registrations(vm, ext);
                let _ = vm.lua.gc_collect();
                let _ = vm.lua.gc_collect();
            }
            return Err(error_text(&e));
        }
    };
    if !matches!(result, LuaValue::Table(_) | LuaValue::Nil) {
        return Err(crate::t!(
            "pi.ext.tool_bad_result",
            name = name,
            kind = match result {
                LuaValue::Integer(_) | LuaValue::Number(_) => "number",
                ref other => other.type_name(),
            }
        ));
    }
    to_json(lua, result).map_err(|e| e.to_string())
}

/// Run a tool's `prepareArguments(args)`; the arguments come back unchanged
/// when it has none or it fails (the failure is logged).
pub async fn prepare_arguments(vm: &Vm, name: &str, args: Value) -> Value {
    let prepare = vm
        .host
        .reg
        .borrow()
        .tools
        .get(name)
        .and_then(|t| t.prepare.clone());
    let Some(prepare) = prepare else { return args };
    let lua = &vm.lua;
    vm.host.budget.reset();
    let result = match to_lua(lua, &args) {
        Ok(v) => prepare.call_async::<LuaValue>(v).await,
        Err(e) => Err(e),
    };
    match result.and_then(|v| to_json(lua, v)) {
        Ok(Value::Null) => args,
        Ok(v) => v,
        Err(e) => {
            vm.host.view.report(format!(
                "Extension error: {}",
                t!("pi.ext.prepare_failed", name = name, error = error_text(&e))
            ));
            args
        }
    }
}

/// The message of a Lua error without mlua's wrapping ("callback error", traceback).
pub fn error_text(e: &mlua::Error) -> String {
    if crate::lua::vm::is_memory_error(e) {
        return crate::lua::vm::memory_error_text();
    }
    match e {
        mlua::Error::CallbackError { cause, .. } => error_text(cause),
        mlua::Error::RuntimeError(m) => m
            .split("\nstack traceback:")
            .next()
            .unwrap_or(m)
            .to_string(),
        other => other.to_string(),
    }
}

/// [`error_text`], prefixed with the extension's line that called the pi function which
/// raised it (a load error names where in the file it happened).
pub fn error_text_at(e: &mlua::Error) -> String {
    let text = error_text(e);
    let mlua::Error::CallbackError { traceback, .. } = e else {
        return text;
    };
    match lua_position(traceback) {
        Some(at) if !text.contains(at) => format!("{at}: {text}"),
        _ => text,
    }
}

/// `file:line` of the innermost frame of a traceback that is an extension's file (not
/// pi's own `[C]` functions or built-in chunks).
fn lua_position(traceback: &str) -> Option<&str> {
    traceback
        .lines()
        .map(str::trim)
        .filter(|line| !line.starts_with('[') && !line.starts_with("stack traceback"))
        .find_map(|line| line.split_once(": in ").map(|(at, _)| at))
}

#[cfg(test)]
mod position_tests {
    use super::lua_position;

    #[test]
    fn the_innermost_lua_frame_is_named() {
        let traceback = "stack traceback:\n\t[C]: in function 'registerShortcut'\n\t/x/bad.lua:2: in function </x/bad.lua:1>\n\t[C]: in ?";
        assert_eq!(lua_position(traceback), Some("/x/bad.lua:2"));
        assert_eq!(lua_position("stack traceback:\n\t[C]: in ?"), None);
        let builtin = "stack traceback:\n\t[string \"?\"]:28: in function <x>";
        assert_eq!(lua_position(builtin), None);
    }
}
