//! The `pi` table each extension's factory receives.

use std::rc::Rc;

use mlua::{Function, Lua, LuaSerdeExt, Table, Value as LuaValue, Variadic};
use serde_json::{Value, json};

use super::convert::{to_json, to_lua};
use super::exec;
use super::registry::{CommandInfo, HandlerReg, ToolInfo, ToolReg};
use super::view::ExtensionAction;
use super::vm::{HostCtx, Vm};

/// Build the `pi` table for extension number `ext`; `state` seeds `pi.state`.
pub fn build_pi(vm: &Vm, ext: usize, state: &Value) -> mlua::Result<Table> {
    let lua = &vm.lua;
    let host = &vm.host;
    let pi = lua.create_table()?;
    add_events(lua, host, ext, &pi)?;
    add_registrations(lua, host, ext, &pi)?;
    add_async(lua, host, &pi)?;
    add_session(lua, host, &pi)?;
    pi.set("json", json_table(lua)?)?;
    pi.set("log", log_table(lua, host, ext)?)?;
    let state_table = match to_lua(lua, state)? {
        LuaValue::Table(t) => t,
        _ => lua.create_table()?,
    };
    host.reg
        .borrow_mut()
        .states
        .push((ext, state_table.clone()));
    pi.set("state", state_table)?;
    Ok(pi)
}

fn add_events(lua: &Lua, host: &Rc<HostCtx>, ext: usize, pi: &Table) -> mlua::Result<()> {
    let h = host.clone();
    pi.set(
        "on",
        lua.create_function(move |_, (event, func): (String, Function)| {
            h.mark_subscribed(&event);
            h.reg
                .borrow_mut()
                .handlers
                .push(HandlerReg { event, ext, func });
            Ok(())
        })?,
    )
}

fn opt_string(t: &Table, key: &str) -> mlua::Result<Option<String>> {
    t.get(key)
}

fn tool_info(lua: &Lua, host: &HostCtx, ext: usize, def: &Table) -> mlua::Result<ToolInfo> {
    let name: String = def
        .get::<Option<String>>("name")?
        .ok_or_else(|| mlua::Error::runtime("registerTool: `name` is required"))?;
    let description = opt_string(def, "description")?.unwrap_or_default();
    let parameters = match def.get::<LuaValue>("parameters")? {
        LuaValue::Nil => json!({"type": "object", "properties": {}}),
        v => to_json(lua, v)?,
    };
    if let Err(e) = jsonschema::validator_for(&parameters) {
        return Err(mlua::Error::runtime(format!(
            "registerTool \"{name}\": `parameters` is not a valid JSON Schema: {e}"
        )));
    }
    let extension = host.reg.borrow().extensions[ext].path.clone();
    Ok(ToolInfo {
        label: opt_string(def, "label")?.unwrap_or_else(|| name.clone()),
        name,
        description,
        parameters,
        prompt_snippet: opt_string(def, "promptSnippet")?,
        prompt_guidelines: def
            .get::<Option<Vec<String>>>("promptGuidelines")?
            .unwrap_or_default(),
        execution_mode: opt_string(def, "executionMode")?,
        extension,
    })
}

fn add_registrations(lua: &Lua, host: &Rc<HostCtx>, ext: usize, pi: &Table) -> mlua::Result<()> {
    let h = host.clone();
    pi.set(
        "registerTool",
        lua.create_function(move |lua, def: Table| {
            let info = tool_info(lua, &h, ext, &def)?;
            let execute: Function = def.get::<Option<Function>>("execute")?.ok_or_else(|| {
                mlua::Error::runtime(format!(
                    "registerTool \"{}\": `execute` must be a function",
                    info.name
                ))
            })?;
            h.reg
                .borrow_mut()
                .tools
                .insert(info.name.clone(), ToolReg { info, execute, ext });
            Ok(())
        })?,
    )?;
    let h = host.clone();
    pi.set(
        "registerCommand",
        lua.create_function(move |_, (name, opts): (String, Table)| {
            let handler: Function = opts.get::<Option<Function>>("handler")?.ok_or_else(|| {
                mlua::Error::runtime(format!(
                    "registerCommand \"{name}\": `handler` must be a function"
                ))
            })?;
            let mut reg = h.reg.borrow_mut();
            let extension = reg.extensions[ext].path.clone();
            let info = CommandInfo {
                name,
                description: opts.get("description")?,
                extension,
            };
            reg.add_command(info, handler);
            Ok(())
        })?,
    )
}

fn add_async(lua: &Lua, host: &Rc<HostCtx>, pi: &Table) -> mlua::Result<()> {
    let h = host.clone();
    pi.set(
        "exec",
        lua.create_async_function(
            move |lua, (cmd, args, opts): (String, Option<Vec<String>>, Option<Table>)| {
                exec::exec(lua, h.clone(), cmd, args, opts)
            },
        )?,
    )?;
    let h = host.clone();
    pi.set(
        "sleep",
        lua.create_async_function(move |_, ms: u64| exec::sleep(h.clone(), ms))?,
    )
}

fn add_session(lua: &Lua, host: &Rc<HostCtx>, pi: &Table) -> mlua::Result<()> {
    let h = host.clone();
    pi.set(
        "appendEntry",
        lua.create_function(move |lua, (custom_type, data): (String, LuaValue)| {
            let data = (!data.is_nil()).then(|| to_json(lua, data)).transpose()?;
            h.view
                .push_action(ExtensionAction::AppendEntry { custom_type, data });
            Ok(())
        })?,
    )?;
    let h = host.clone();
    pi.set(
        "setSessionName",
        lua.create_function(move |_, name: String| {
            h.view.lock().session_name = Some(name.clone());
            h.view.push_action(ExtensionAction::SetSessionName(name));
            Ok(())
        })?,
    )?;
    let h = host.clone();
    pi.set(
        "getSessionName",
        lua.create_function(move |_, ()| Ok(h.view.lock().session_name.clone()))?,
    )?;
    let h = host.clone();
    pi.set(
        "sendMessage",
        lua.create_function(move |lua, (msg, opts): (Table, Option<Table>)| {
            let content = to_json(lua, msg.get::<LuaValue>("content")?)?;
            let details = match msg.get::<LuaValue>("details")? {
                LuaValue::Nil => None,
                v => Some(to_json(lua, v)?),
            };
            let trigger_turn = match &opts {
                Some(o) => o.get::<Option<bool>>("triggerTurn")?.unwrap_or(false),
                None => false,
            };
            h.view.push_action(ExtensionAction::SendMessage {
                custom_type: msg.get::<Option<String>>("customType")?.unwrap_or_default(),
                content,
                display: msg.get::<Option<bool>>("display")?.unwrap_or(true),
                details,
                trigger_turn,
            });
            Ok(())
        })?,
    )?;
    let h = host.clone();
    pi.set(
        "sendUserMessage",
        lua.create_function(move |_, (text, _opts): (String, Option<Table>)| {
            h.view.push_action(ExtensionAction::SendUserMessage(text));
            Ok(())
        })?,
    )?;
    let h = host.clone();
    pi.set(
        "getActiveTools",
        lua.create_function(move |_, ()| Ok(h.view.lock().active_tools.clone()))?,
    )?;
    let h = host.clone();
    pi.set(
        "getAllTools",
        lua.create_function(move |lua, ()| {
            to_lua(lua, &Value::Array(h.view.lock().all_tools.clone()))
        })?,
    )?;
    let h = host.clone();
    pi.set(
        "setActiveTools",
        lua.create_function(move |_, names: Vec<String>| {
            h.view.lock().active_tools = names.clone();
            h.view.push_action(ExtensionAction::SetActiveTools(names));
            Ok(())
        })?,
    )?;
    let h = host.clone();
    pi.set(
        "getThinkingLevel",
        lua.create_function(move |_, ()| Ok(h.view.lock().thinking_level.clone()))?,
    )
}

fn json_table(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.set(
        "encode",
        lua.create_function(|lua, v: LuaValue| {
            serde_json::to_string(&to_json(lua, v)?).map_err(mlua::Error::external)
        })?,
    )?;
    t.set(
        "decode",
        lua.create_function(|lua, s: String| {
            let v: Value = serde_json::from_str(&s)
                .map_err(|e| mlua::Error::runtime(format!("pi.json.decode: {e}")))?;
            to_lua(lua, &v)
        })?,
    )?;
    t.set("null", lua.null())?;
    Ok(t)
}

fn log_table(lua: &Lua, host: &Rc<HostCtx>, ext: usize) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let name = host.reg.borrow().extensions[ext].name.clone();
    for level in ["debug", "info", "warn", "error"] {
        let name = name.clone();
        t.set(
            level,
            lua.create_function(move |_, parts: Variadic<LuaValue>| {
                if level == "debug" && std::env::var_os("PI_DEBUG").is_none() {
                    return Ok(());
                }
                let text: Vec<String> = parts
                    .iter()
                    .map(|p| p.to_string().unwrap_or_else(|_| format!("{p:?}")))
                    .collect();
                eprintln!("[{name}] {level}: {}", text.join(" "));
                Ok(())
            })?,
        )?;
    }
    Ok(t)
}
