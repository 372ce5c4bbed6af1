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
use crate::lua::error::{LuaFailure, ToolRunError};
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
) -> Result<Value, ToolRunError> {
    let (execute, ext) = match vm.host.reg.borrow().tools.get(name) {
        Some(t) => (t.execute.clone(), t.ext),
        None => {
            return Err(ToolRunError::Gone {
                name: name.to_string(),
            });
        }
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
    let (params, on_update, ctx) =
        prepared.map_err(|e| ToolRunError::Raised(LuaFailure::of(&e)))?;
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
            return Err(ToolRunError::Raised(LuaFailure::of(&e)));
        }
    };
    if !matches!(result, LuaValue::Table(_) | LuaValue::Nil) {
        return Err(ToolRunError::BadResult {
            name: name.to_string(),
            kind: match result {
                LuaValue::Integer(_) | LuaValue::Number(_) => "number",
                ref other => other.type_name(),
            },
        });
    }
    to_json(lua, result).map_err(|e| ToolRunError::Raised(LuaFailure::of(&e)))
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
    LuaFailure::of(e).to_string()
}

/// [`error_text`], prefixed with the extension's line that called the pi function which
/// raised it (a load error names where in the file it happened).
pub fn error_text_at(e: &mlua::Error) -> String {
    LuaFailure::at(e).to_string()
}
