//! Running an extension's slash command and asking it for argument
//! completions.

use mlua::{Function, Value as LuaValue};
use serde_json::Value;

use crate::lua::convert::to_json;
use crate::lua::ctx::make_command_ctx;
use crate::lua::error::{ExtensionError, Handler, LuaFailure};
use crate::lua::vm::Vm;

/// Run `/name args`; `Err` carries the handler's error with its extension.
pub async fn run_command(vm: &Vm, name: &str, args: String) -> Result<(), ExtensionError> {
    let (handler, path, ext) = {
        let reg = vm.host.reg.borrow();
        match reg.commands.get(name) {
            Some(c) => (
                c.handler.clone(),
                c.info.extension.clone(),
                reg.extensions
                    .iter()
                    .rposition(|e| e.path == c.info.extension),
            ),
            None => {
                return Err(ExtensionError::UnknownCommand {
                    name: name.to_string(),
                });
            }
        }
    };
    let failed = |e: &mlua::Error| ExtensionError::Failed {
        handler: Handler::Command {
            name: name.to_string(),
        },
        extension: Some(path.clone()),
        cause: LuaFailure::of(e),
    };
    let ctx = make_command_ctx(&vm.lua, &vm.host).map_err(|e| failed(&e))?;
    vm.host.budget.reset();
    let started = std::time::Instant::now();
    let result = handler.call_async::<()>((args, ctx)).await;
    if let Some(ext) = ext {
        crate::lua::profile::record(vm, ext, &format!("/{name}"), started.elapsed(), true);
    }
    result.map_err(|e| {
        let error = failed(&e);
        if let Some(ext) = ext {
            crate::lua::profile::record_error(vm, ext, &error.to_string());
        }
        error
    })
}

/// `getArgumentCompletions(prefix)` of command `name`: a list of
/// `{value, label, description}` (or plain strings), empty when it has none.
pub async fn complete_command(vm: &Vm, name: &str, prefix: &str) -> Vec<Value> {
    let complete: Option<Function> = vm
        .host
        .reg
        .borrow()
        .commands
        .get(name)
        .and_then(|c| c.completions.clone());
    let Some(complete) = complete else {
        return Vec::new();
    };
    vm.host.budget.reset();
    match complete.call_async::<LuaValue>(prefix.to_string()).await {
        Ok(v) => match to_json(&vm.lua, v) {
            Ok(Value::Array(items)) => items,
            _ => Vec::new(),
        },
        Err(_) => Vec::new(),
    }
}
