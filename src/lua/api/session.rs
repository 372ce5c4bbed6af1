//! `pi.*` functions that read or change the session and the agent: entries,
//! names, labels, messages, tools, model and thinking level, commands.

use std::rc::Rc;

use mlua::{Lua, Table, Value as LuaValue};
use serde_json::{Value, json};

use crate::lua::convert::{to_json, to_lua};
use crate::lua::view::ExtensionAction;
use crate::lua::vm::HostCtx;

/// Thinking levels `pi.setThinkingLevel` accepts.
pub const THINKING_LEVELS: [&str; 6] = ["off", "minimal", "low", "medium", "high", "xhigh"];

/// The `deliverAs` option of a send function, checked against `allowed`.
pub(crate) fn deliver_as(
    opts: &Option<Table>,
    allowed: &[&str],
    fname: &str,
) -> mlua::Result<Option<String>> {
    let Some(o) = opts else { return Ok(None) };
    let Some(mode) = o.get::<Option<String>>("deliverAs")? else {
        return Ok(None);
    };
    if !allowed.contains(&mode.as_str()) {
        return Err(mlua::Error::runtime(format!(
            "{fname}: `deliverAs` must be one of {}, got \"{mode}\"",
            allowed.join(", ")
        )));
    }
    Ok(Some(mode))
}

/// Whether `provider/id` is a known model (built-in, models.json or registered).
fn model_known(host: &HostCtx, provider: &str, id: &str) -> bool {
    let view = host.view.lock();
    let listed = view.models.iter().any(|m| {
        m.get("provider").and_then(Value::as_str) == Some(provider)
            && m.get("id").and_then(Value::as_str) == Some(id)
    });
    listed
        || view.providers.iter().any(|(name, config)| {
            name == provider
                && config
                    .get("models")
                    .and_then(Value::as_array)
                    .is_some_and(|ms| {
                        ms.iter()
                            .any(|m| m.get("id").and_then(Value::as_str) == Some(id))
                    })
        })
}

/// Add the session functions to `pi`.
pub fn add_session(lua: &Lua, host: &Rc<HostCtx>, pi: &Table) -> mlua::Result<()> {
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
        "setLabel",
        lua.create_function(move |_, (entry_id, label): (String, Option<String>)| {
            h.view
                .push_action(ExtensionAction::SetLabel { entry_id, label });
            Ok(())
        })?,
    )?;
    add_messages(lua, host, pi)?;
    add_tools_and_model(lua, host, pi)
}

fn add_messages(lua: &Lua, host: &Rc<HostCtx>, pi: &Table) -> mlua::Result<()> {
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
            let deliver_as = deliver_as(&opts, &["steer", "followUp", "nextTurn"], "sendMessage")?;
            h.view.push_action(ExtensionAction::SendMessage {
                custom_type: msg.get::<Option<String>>("customType")?.unwrap_or_default(),
                content,
                display: msg.get::<Option<bool>>("display")?.unwrap_or(true),
                details,
                trigger_turn,
                deliver_as,
            });
            Ok(())
        })?,
    )?;
    let h = host.clone();
    pi.set(
        "sendUserMessage",
        lua.create_function(move |lua, (content, opts): (LuaValue, Option<Table>)| {
            let content = to_json(lua, content)?;
            let deliver_as = deliver_as(&opts, &["steer", "followUp"], "sendUserMessage")?;
            h.view.push_action(ExtensionAction::SendUserMessage {
                content,
                deliver_as,
            });
            Ok(())
        })?,
    )
}

fn add_tools_and_model(lua: &Lua, host: &Rc<HostCtx>, pi: &Table) -> mlua::Result<()> {
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
        "setSandbox",
        lua.create_function(move |_, mode: String| {
            let Some(mode) = crate::sandbox::SandboxMode::parse(&mode) else {
                return Ok((false, Some(crate::t!("pi.sandbox.usage"))));
            };
            let mut settings = (*crate::sandbox::current()).clone();
            settings.mode = mode;
            if let Err(e) = crate::sandbox::check_support(&settings, &h.cwd) {
                return Ok((false, Some(e.to_string())));
            }
            // The session puts it in force, as it does every other request.
            h.view.lock().pending_sandbox = Some(mode);
            h.view.push_action(ExtensionAction::SetSandbox(mode));
            Ok((true, None))
        })?,
    )?;
    let h = host.clone();
    pi.set(
        "getSandbox",
        lua.create_function(move |lua, ()| {
            let settings = crate::sandbox::current();
            let mode = h.view.lock().pending_sandbox.unwrap_or(settings.mode);
            to_lua(
                lua,
                &json!({
                    "mode": mode.as_str(),
                    "writableRoots": settings.writable_roots,
                    "network": settings.network,
                    "yolo": crate::sandbox::yolo(),
                }),
            )
        })?,
    )?;
    let h = host.clone();
    pi.set(
        "getThinkingLevel",
        lua.create_function(move |_, ()| Ok(h.view.lock().thinking_level.clone()))?,
    )?;
    let h = host.clone();
    pi.set(
        "setThinkingLevel",
        lua.create_function(move |_, level: String| {
            if !THINKING_LEVELS.contains(&level.as_str()) {
                return Err(mlua::Error::runtime(format!(
                    "setThinkingLevel: unknown level \"{level}\"; use one of {}",
                    THINKING_LEVELS.join(", ")
                )));
            }
            h.view.push_action(ExtensionAction::SetThinkingLevel(level));
            Ok(())
        })?,
    )?;
    let h = host.clone();
    pi.set(
        "setModel",
        lua.create_function(move |_, model: Table| {
            let provider: String = model.get::<Option<String>>("provider")?.unwrap_or_default();
            let id: String = model.get::<Option<String>>("id")?.unwrap_or_default();
            if !model_known(&h, &provider, &id) {
                return Ok(false);
            }
            h.view
                .push_action(ExtensionAction::SetModel { provider, id });
            Ok(true)
        })?,
    )?;
    let h = host.clone();
    pi.set(
        "getCommands",
        lua.create_function(move |lua, ()| {
            let mut list: Vec<Value> = h
                .reg
                .borrow()
                .commands
                .values()
                .map(|c| {
                    json!({
                        "name": c.info.name,
                        "description": c.info.description,
                        "source": "extension",
                        "sourceInfo": {
                            "path": c.info.extension.display().to_string(),
                            "source": "extension",
                            "scope": "user",
                            "origin": "top-level",
                        },
                    })
                })
                .collect();
            list.extend(h.view.lock().resource_commands.iter().cloned());
            to_lua(lua, &Value::Array(list))
        })?,
    )
}
