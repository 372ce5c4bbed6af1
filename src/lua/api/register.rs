//! `pi.register*`: tools, commands, shortcuts, flags, message renderers and
//! providers. Registrations live in the VM's [`Registry`](crate::lua::registry::Registry)
//! and vanish with it on reload.

use std::rc::Rc;

use clap::CommandFactory;
use mlua::{Function, Lua, Table, Value as LuaValue};
use serde_json::{Value, json};

use crate::lua::convert::to_json;
use crate::lua::registry::{CommandInfo, FlagInfo, ShortcutInfo, ToolInfo, ToolReg};
use crate::lua::vm::HostCtx;

/// Wire protocols a registered provider may use.
pub const PROVIDER_APIS: [&str; 8] = [
    "anthropic-messages",
    "openai-completions",
    "openai-responses",
    "azure-openai-responses",
    "google-generative-ai",
    "google-vertex",
    "mistral-conversations",
    "bedrock-converse-stream",
];

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
    if let Err(e) = jsonschema::meta::validate(&parameters) {
        return Err(mlua::Error::runtime(format!(
            "registerTool \"{name}\": `parameters` is not a valid JSON Schema: {e}"
        )));
    }
    if let Err(e) = crate::agent::validate::compile_schema(&parameters) {
        return Err(mlua::Error::runtime(format!(
            "registerTool \"{name}\": `parameters` is not a valid JSON Schema: {e}"
        )));
    }
    if let Some(mode) = opt_string(def, "executionMode")?
        && mode != "sequential"
        && mode != "parallel"
    {
        return Err(mlua::Error::runtime(format!(
            "registerTool \"{name}\": `executionMode` must be \"sequential\" or \"parallel\", got \"{mode}\""
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
        has_prepare: def.get::<Option<Function>>("prepareArguments")?.is_some(),
        defined_at: def.get::<Option<Function>>("execute")?.and_then(|f| {
            let info = f.info();
            let file = info.source?.strip_prefix('@')?.to_string();
            Some(format!("{file}:{}", info.line_defined?))
        }),
    })
}

/// The checks of a provider on a built-in wire protocol.
fn check_provider(name: &str, config: &Value) -> mlua::Result<()> {
    let has_models = config
        .get("models")
        .and_then(Value::as_array)
        .is_some_and(|m| !m.is_empty());
    if has_models && config.get("baseUrl").and_then(Value::as_str).is_none() {
        return Err(mlua::Error::runtime(format!(
            "registerProvider \"{name}\": `baseUrl` is required when `models` are given"
        )));
    }
    if let Some(api) = config.get("api").and_then(Value::as_str)
        && !PROVIDER_APIS.contains(&api)
    {
        return Err(mlua::Error::runtime(format!(
            "registerProvider \"{name}\": api \"{api}\" is not supported; use one of {}, or stream it yourself with `streamSimple`",
            PROVIDER_APIS.join(", ")
        )));
    }
    if has_models && config.get("api").is_none() {
        return Err(mlua::Error::runtime(format!(
            "registerProvider \"{name}\": `api` is required when `models` are given ({})",
            PROVIDER_APIS.join(" or ")
        )));
    }
    Ok(())
}

/// Long option names pi itself defines (`help`, `model`, ...).
pub fn builtin_flag_names() -> Vec<String> {
    crate::cli::args::Args::command()
        .get_arguments()
        .filter_map(|a| a.get_long().map(str::to_string))
        .collect()
}

/// Add every `pi.register*` function (and `unregisterProvider`) to `pi`.
pub fn add_registrations(
    lua: &Lua,
    host: &Rc<HostCtx>,
    ext: usize,
    pi: &Table,
) -> mlua::Result<()> {
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
            let prepare = def.get::<Option<Function>>("prepareArguments")?;
            if !crate::lua::wrap::claim(&h, &info.name, ext) {
                return Ok(());
            }
            let store = h.view.lock().surfaces.clone();
            crate::lua::ui::tool_render::register(lua, &store, &info.name, &def)?;
            h.reg.borrow_mut().tools.insert(
                info.name.clone(),
                ToolReg {
                    info,
                    execute,
                    prepare,
                    ext,
                },
            );
            Ok(())
        })?,
    )?;
    let h = host.clone();
    pi.set(
        "wrapTool",
        lua.create_function(move |_, (tool, func): (String, Function)| {
            let wrap = crate::lua::wrap::WrapReg { tool, ext, func };
            h.reg.borrow_mut().wraps.push(wrap);
            Ok(())
        })?,
    )?;
    let h = host.clone();
    pi.set(
        "wrapToolRenderer",
        lua.create_function(move |lua, (tool, def): (String, Table)| {
            let store = h.view.lock().surfaces.clone();
            crate::lua::ui::tool_render::decorate(lua, &store, &tool, &def)
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
            // As in pi 0.73.1 a command named like one of pi's own is registered: RPC and
            // print mode run it, the terminal UI keeps its own command of that name.
            let info = CommandInfo {
                name,
                description: opts.get("description")?,
                extension,
            };
            reg.add_command(info, handler, opts.get("getArgumentCompletions")?);
            Ok(())
        })?,
    )?;
    let h = host.clone();
    pi.set(
        "registerShortcut",
        lua.create_function(move |_, (shortcut, opts): (String, Table)| {
            let handler: Function = opts.get::<Option<Function>>("handler")?.ok_or_else(|| {
                mlua::Error::runtime(format!(
                    "registerShortcut \"{shortcut}\": `handler` must be a function"
                ))
            })?;
            let checked = crate::lua::shortcut::check_key(&shortcut)
                .map_err(|e| mlua::Error::runtime(e.to_string()))?;
            if let Some(warning) = checked {
                // `Warning: ` marks the kind; the host shows it in the user's language.
                h.view.report(format!("Warning: {warning}"));
            }
            let mut reg = h.reg.borrow_mut();
            let extension = reg.extensions[ext].path.clone();
            let info = ShortcutInfo {
                shortcut,
                description: opts.get("description")?,
                extension,
            };
            reg.shortcuts.push((info, handler));
            Ok(())
        })?,
    )?;
    add_flags(lua, host, ext, pi)?;
    let h = host.clone();
    pi.set(
        "registerMessageRenderer",
        lua.create_function(move |_, (custom_type, renderer): (String, Function)| {
            h.reg
                .borrow_mut()
                .renderers
                .insert(custom_type.clone(), (ext, renderer));
            let store = h.view.lock().surfaces.clone();
            store.lock().message_renderers.insert(custom_type);
            Ok(())
        })?,
    )?;
    crate::lua::health::add(lua, host, ext, pi)?;
    add_providers(lua, host, ext, pi)
}

fn add_flags(lua: &Lua, host: &Rc<HostCtx>, ext: usize, pi: &Table) -> mlua::Result<()> {
    let h = host.clone();
    pi.set(
        "registerFlag",
        lua.create_function(move |lua, (name, opts): (String, Option<Table>)| {
            let name = name.trim_start_matches("--").to_string();
            if builtin_flag_names().contains(&name) {
                return Err(mlua::Error::runtime(format!(
                    "registerFlag \"{name}\": --{name} is a built-in pi option; choose another name"
                )));
            }
            let (description, kind, default) = match &opts {
                Some(o) => (
                    o.get::<Option<String>>("description")?,
                    o.get::<Option<String>>("type")?
                        .unwrap_or_else(|| "boolean".into()),
                    to_json(lua, o.get::<LuaValue>("default")?)?,
                ),
                None => (None, "boolean".into(), Value::Null),
            };
            if kind != "boolean" && kind != "string" {
                return Err(mlua::Error::runtime(format!(
                    "registerFlag \"{name}\": `type` must be \"boolean\" or \"string\", got \"{kind}\""
                )));
            }
            let mut reg = h.reg.borrow_mut();
            let extension = reg.extensions[ext].path.clone();
            // As in pi 0.73.1 a flag another extension registered already stays that
            // extension's (its description, type and default), with a warning; both read
            // its value.
            let second = reg.extensions[ext].name.clone();
            let named = |path: &std::path::Path| {
                let e = reg.extensions.iter().find(|e| e.path == path);
                e.map_or_else(|| path.display().to_string(), |e| e.name.clone())
            };
            let first = reg
                .flags
                .get(&name)
                .filter(|f| f.extension != extension)
                .map(|f| named(&f.extension));
            if let Some(first) = first {
                if let Some(kept) = reg.flags.get_mut(&name).filter(|f| f.default.is_null()) {
                    kept.default = default;
                }
                let text = crate::t!(
                    "pi.ext.flag_conflict",
                    flag = name.as_str(),
                    first = first.as_str(),
                    second = second.as_str()
                );
                drop(reg);
                crate::lua::wrap::warn(&h, &text);
                return Ok(());
            }
            reg.flags.insert(
                name.clone(),
                FlagInfo {
                    name,
                    description,
                    kind,
                    default,
                    extension,
                },
            );
            Ok(())
        })?,
    )?;
    let h = host.clone();
    pi.set(
        "getFlag",
        lua.create_function(move |lua, name: String| {
            let name = name.trim_start_matches("--").to_string();
            let Some(flag) = h.reg.borrow().flags.get(&name).cloned() else {
                return Ok(LuaValue::Nil);
            };
            let given = h.cli_flags.iter().find(|(n, _)| *n == name);
            let value = match (given, flag.kind.as_str()) {
                (Some(_), "boolean") => Value::Bool(true),
                (Some((_, v)), _) => Value::String(v.clone().unwrap_or_default()),
                (None, _) => flag.default,
            };
            crate::lua::convert::to_lua(lua, &value)
        })?,
    )
}

fn add_providers(lua: &Lua, host: &Rc<HostCtx>, ext: usize, pi: &Table) -> mlua::Result<()> {
    let h = host.clone();
    pi.set(
        "registerProvider",
        lua.create_function(move |lua, (name, table): (String, Table)| {
            let stream = match table.get::<LuaValue>("streamSimple")? {
                LuaValue::Nil => None,
                LuaValue::Function(f) => Some(f),
                other => {
                    return Err(mlua::Error::runtime(format!(
                        "registerProvider \"{name}\": `streamSimple` must be a function, got {}",
                        other.type_name()
                    )));
                }
            };
            let oauth = match table.get::<LuaValue>("oauth")? {
                LuaValue::Nil => None,
                LuaValue::Table(t) => {
                    for key in ["login", "refreshToken"] {
                        if t.get::<Option<Function>>(key)?.is_none() {
                            return Err(mlua::Error::runtime(format!(
                                "registerProvider \"{name}\": `oauth.{key}` must be a function"
                            )));
                        }
                    }
                    Some(t)
                }
                other => {
                    return Err(mlua::Error::runtime(format!(
                        "registerProvider \"{name}\": `oauth` must be a table, got {}",
                        other.type_name()
                    )));
                }
            };
            {
                let mut reg = h.reg.borrow_mut();
                reg.oauth.retain(|(n, _, _)| *n != name);
                if let Some(t) = oauth {
                    reg.oauth.push((name.clone(), t, ext));
                }
            }
            let mut config = to_json(lua, LuaValue::Table(table))?;
            if let Some(stream) = stream {
                // A provider that streams itself: any api name (its own by default), and
                // no server address unless the extension wants one.
                let api = config
                    .get("api")
                    .and_then(Value::as_str)
                    .unwrap_or(&name)
                    .to_string();
                if PROVIDER_APIS.contains(&api.as_str()) {
                    return Err(mlua::Error::runtime(format!(
                        "registerProvider \"{name}\": with `streamSimple`, `api` must be a name of its own, not the built-in \"{api}\""
                    )));
                }
                if let Value::Object(map) = &mut config {
                    map.insert("api".into(), json!(api));
                    map.entry("baseUrl").or_insert_with(|| json!(""));
                }
                let mut reg = h.reg.borrow_mut();
                reg.streams.retain(|(a, n, _, _)| *a != api && *n != name);
                reg.streams.push((api, name.clone(), stream, ext));
            } else {
                h.reg.borrow_mut().streams.retain(|(_, n, _, _)| *n != name);
                check_provider(&name, &config)?;
            }
            let mut reg = h.reg.borrow_mut();
            reg.providers.retain(|(n, _)| *n != name);
            reg.providers.push((name.clone(), ext));
            let mut view = h.view.lock();
            view.providers.retain(|(n, _)| *n != name);
            view.providers.push((name, config));
            Ok(())
        })?,
    )?;
    let h = host.clone();
    pi.set(
        "unregisterProvider",
        lua.create_function(move |_, name: String| {
            let mut reg = h.reg.borrow_mut();
            reg.providers.retain(|(n, _)| *n != name);
            reg.streams.retain(|(_, n, _, _)| *n != name);
            reg.oauth.retain(|(n, _, _)| *n != name);
            h.view.lock().providers.retain(|(n, _)| *n != name);
            Ok(())
        })?,
    )
}
