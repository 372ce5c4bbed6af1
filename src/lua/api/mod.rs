//! The `pi` table each extension's factory receives: `pi.on`, the
//! `pi.events` bus, and the parts built in the `api_*` modules.

pub mod exec;
pub mod formats;
pub mod helpers;
pub mod http;
pub mod i18n;
pub mod promise;
pub mod regex;
pub mod register;
pub mod session;
pub mod spawn;
pub mod timers;
pub mod tool_factories;

use crate::t;
use std::rc::Rc;

use mlua::{Function, Lua, Table, Value as LuaValue};
use serde_json::Value;

use crate::lua::api::helpers::{add_truncation, fs_table, json_table, log_table};
use crate::lua::api::register::add_registrations;
use crate::lua::api::session::add_session;
use crate::lua::capabilities::guard::Guard;
use crate::lua::convert::to_lua;
use crate::lua::registry::{BusHandler, HandlerReg};
use crate::lua::vm::{HostCtx, Vm};

/// Every event name `pi.on` accepts.
pub const EVENTS: &[&str] = &[
    "resources_discover",
    "session_start",
    "session_before_switch",
    "session_before_fork",
    "session_before_compact",
    "session_compact",
    "session_before_tree",
    "session_tree",
    "session_shutdown",
    "before_agent_start",
    "agent_start",
    "agent_end",
    "turn_start",
    "turn_end",
    "message_start",
    "message_update",
    "message_end",
    "tool_execution_start",
    "tool_execution_update",
    "tool_execution_end",
    "checkpoint",
    "run_limit",
    "context",
    "before_provider_request",
    "after_provider_response",
    "model_select",
    "thinking_level_select",
    "tool_call",
    "permission",
    "tool_result",
    "user_bash",
    "input",
    "project_trust",
];

/// Build the `pi` table for extension number `ext`; `state` seeds `pi.state`.
pub fn build_pi(vm: &Vm, ext: usize, state: &Value) -> mlua::Result<Table> {
    let lua = &vm.lua;
    let host = &vm.host;
    let pi = lua.create_table()?;
    let guard = host.reg.borrow().extensions[ext].guard.clone();
    add_on(lua, host, ext, &pi)?;
    add_registrations(lua, host, ext, &pi)?;
    add_async(lua, host, &guard, &pi)?;
    add_session(lua, host, &pi)?;
    add_truncation(lua, &pi)?;
    crate::lua::api::tool_factories::add_tool_factories(lua, host, &guard, &pi)?;
    crate::lua::api::timers::add_timers(lua, &pi)?;
    pi.set("ui", crate::lua::ui::lib::module(lua)?)?;
    pi.set("events", events_table(lua, host, ext)?)?;
    pi.set("json", json_table(lua)?)?;
    crate::lua::api::formats::add_formats(lua, &pi)?;
    crate::lua::api::regex::add_regex(lua, &pi)?;
    let name = host.reg.borrow().extensions[ext].name.clone();
    let dir = host.reg.borrow().extensions[ext]
        .path
        .parent()
        .map(|d| d.display().to_string())
        .unwrap_or_else(|| ".".into());
    pi.set("extensionDir", dir)?;
    pi.set("agentDir", host.agent_dir.display().to_string())?;
    pi.set("log", log_table(lua, name, host)?)?;
    pi.set("fs", fs_table(lua, host, &guard)?)?;
    crate::lua::api::i18n::add_i18n(vm, ext, &pi)?;
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

fn add_on(lua: &Lua, host: &Rc<HostCtx>, ext: usize, pi: &Table) -> mlua::Result<()> {
    let h = host.clone();
    pi.set(
        "on",
        lua.create_function(move |_, (event, func): (String, Function)| {
            let known = EVENTS.contains(&event.as_str());
            if !known
                && !h
                    .reg
                    .borrow()
                    .handlers
                    .iter()
                    .any(|r| r.ext == ext && r.event == event)
            {
                // Older or newer pi versions name events this one never emits: the
                // handler is kept (harmless) and the author is told once.
                let path = h.reg.borrow().extensions[ext].path.display().to_string();
                h.view.report(format!(
                    "Warning: {}",
                    crate::t!("pi.ext.unknown_event", event = event.as_str(), path = path)
                ));
            }
            h.mark_subscribed(&event);
            h.reg
                .borrow_mut()
                .handlers
                .push(HandlerReg { event, ext, func });
            Ok(())
        })?,
    )
}

/// `pi.events`: `on(channel, function(data, reply))` and
/// `emit(channel, data, onReply)`; handlers run at once, in subscription
/// order, and may answer through `reply(value)`.
fn events_table(lua: &Lua, host: &Rc<HostCtx>, ext: usize) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let h = host.clone();
    t.set(
        "on",
        lua.create_function(move |_, (channel, func): (String, Function)| {
            h.reg
                .borrow_mut()
                .bus
                .push(BusHandler { channel, ext, func });
            Ok(())
        })?,
    )?;
    let h = host.clone();
    t.set(
        "emit",
        lua.create_function(
            move |lua, (channel, data, on_reply): (String, LuaValue, Option<Function>)| {
                let core = crate::lua::api::i18n::core_bus(
                    lua,
                    &h,
                    ext,
                    &channel,
                    &data,
                    on_reply.as_ref(),
                )?;
                let handlers: Vec<(usize, Function)> = h
                    .reg
                    .borrow()
                    .bus
                    .iter()
                    .filter(|b| b.channel == channel)
                    .map(|b| (b.ext, b.func.clone()))
                    .collect();
                let reply = match on_reply {
                    Some(f) => LuaValue::Function(f),
                    None => LuaValue::Function(lua.create_function(|_, _: LuaValue| Ok(()))?),
                };
                for (from, func) in &handlers {
                    if let Err(e) = func.call::<()>((data.clone(), reply.clone())) {
                        let name = h.reg.borrow().extensions[*from].path.display().to_string();
                        h.view.report(format!(
                            "Extension error: {}",
                            t!(
                                "pi.ext.bus_handler_failed",
                                name = name,
                                channel = channel.as_str(),
                                error = e.to_string()
                            )
                        ));
                    }
                }
                Ok(handlers.len() + usize::from(core))
            },
        )?,
    )?;
    Ok(t)
}

fn add_async(lua: &Lua, host: &Rc<HostCtx>, guard: &Rc<Guard>, pi: &Table) -> mlua::Result<()> {
    let h = host.clone();
    let g = guard.clone();
    pi.set(
        "exec",
        lua.create_async_function(
            move |lua, (cmd, args, opts): (String, Option<Vec<String>>, Option<Table>)| {
                let allowed = g.exec(&cmd);
                let h = h.clone();
                async move {
                    allowed?;
                    exec::exec(lua, h, cmd, args, opts).await
                }
            },
        )?,
    )?;
    let h = host.clone();
    let g = guard.clone();
    pi.set(
        "spawn",
        lua.create_function(
            move |lua, (cmd, args, opts): (String, Option<Vec<String>>, Option<Table>)| {
                g.exec(&cmd)?;
                crate::lua::api::spawn::spawn(lua, &h, cmd, args, opts)
            },
        )?,
    )?;
    pi.set("execPath", crate::lua::api::spawn::exec_path())?;
    crate::lua::api::http::add_http(lua, host, guard, pi)?;
    crate::lua::api::promise::add_promise(lua, pi)?;
    let h = host.clone();
    pi.set(
        "sleep",
        lua.create_async_function(move |_, ms: u64| exec::sleep(h.clone(), ms))?,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lua::ctx::{install_static, make_command_ctx};
    use crate::lua::handle::HostConfig;
    use crate::lua::registry::ExtensionInfo;
    use crate::lua::view::SharedView;
    use crate::lua::vm::Subscribed;

    const TYPES: &str = include_str!("../../../runtime-lua/types/pi.lua");

    /// The `---@field` names of `---@class name` in the type file.
    fn fields_of(class: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut inside = false;
        for line in TYPES.lines() {
            if let Some(rest) = line.strip_prefix("---@class ") {
                inside = rest.split([':', ' ']).next() == Some(class);
                continue;
            }
            if inside {
                match line.strip_prefix("---@field ") {
                    Some(f) => out.push(f.split([' ', '?']).next().unwrap().to_string()),
                    None => inside = false,
                }
            }
        }
        out
    }

    fn keys(t: &Table) -> Vec<String> {
        let mut k: Vec<String> = t
            .pairs::<String, LuaValue>()
            .map(|p| p.unwrap().0)
            .collect();
        k.sort();
        k
    }

    fn missing(actual: &[String], class: &str) -> Vec<String> {
        let declared = fields_of(class);
        actual
            .iter()
            .filter(|k| !declared.contains(k))
            .cloned()
            .collect()
    }

    #[test]
    fn luals_types_cover_the_whole_api() {
        let vm = Vm::new(
            SharedView::default(),
            Subscribed::default(),
            &HostConfig::new(Vec::new(), "."),
        )
        .unwrap();
        install_static(&vm.lua, &vm.host, None).unwrap();
        vm.host
            .reg
            .borrow_mut()
            .extensions
            .push(ExtensionInfo::new("x.lua".into()));
        let pi = build_pi(&vm, 0, &Value::Null).unwrap();
        assert_eq!(missing(&keys(&pi), "pi.API"), Vec::<String>::new());
        for (name, class) in [
            ("events", "pi.Events"),
            ("json", "pi.Json"),
            ("log", "pi.Log"),
            ("fs", "pi.Fs"),
            ("i18n", "pi.I18nApi"),
        ] {
            let t: Table = pi.get(name).unwrap();
            assert_eq!(missing(&keys(&t), class), Vec::<String>::new(), "{name}");
        }
        let ctx = make_command_ctx(&vm.lua, &vm.host).unwrap();
        let mut ctx_fields = fields_of("pi.Context");
        ctx_fields.extend(fields_of("pi.CommandContext"));
        let undeclared: Vec<String> = keys(&ctx)
            .into_iter()
            .filter(|k| !ctx_fields.contains(k))
            .collect();
        assert_eq!(undeclared, Vec::<String>::new());
        for (name, class) in [
            ("ui", "pi.UI"),
            ("sessionManager", "pi.SessionManager"),
            ("modelRegistry", "pi.ModelRegistry"),
        ] {
            let t: Table = ctx.get(name).unwrap();
            assert_eq!(missing(&keys(&t), class), Vec::<String>::new(), "{name}");
        }
        for event in EVENTS {
            assert!(
                TYPES.contains(&format!("---| \"{event}\"")),
                "{event} missing from pi.EventName"
            );
        }
    }
}
