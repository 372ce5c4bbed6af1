//! `ctx.ui` setters and getters for the screen around the conversation:
//! notifications, footer status slots, text widgets, the terminal title, the
//! editor's text, the working message and indicator, and tool expansion.
//! Each setter becomes a fire-and-forget request to the front end.

use mlua::{Lua, Table, Value as LuaValue};
use serde_json::{Value, json};

use crate::lua::ui::SharedExtensionUi;

const LEVELS: [&str; 4] = ["info", "success", "warning", "error"];

/// Lines of `setWidget`: every item must be a string (the error names the index).
fn widget_lines(key: &str, lines: &Table) -> mlua::Result<Vec<String>> {
    let mut out = Vec::new();
    for (i, v) in lines.sequence_values::<LuaValue>().enumerate() {
        match v? {
            LuaValue::String(s) => out.push(s.to_str()?.to_string()),
            other => {
                return Err(mlua::Error::runtime(format!(
                    "ctx.ui.setWidget(\"{key}\"): line {} must be a string, got {}",
                    i + 1,
                    other.type_name()
                )));
            }
        }
    }
    Ok(out)
}

fn placement(opts: Option<Table>) -> mlua::Result<String> {
    let p = opts
        .map(|o| o.get::<Option<String>>("placement"))
        .transpose()?
        .flatten()
        .unwrap_or_else(|| "aboveEditor".into());
    if p != "aboveEditor" && p != "belowEditor" {
        return Err(mlua::Error::runtime(format!(
            "ctx.ui.setWidget: placement must be \"aboveEditor\" or \"belowEditor\", got \"{p}\""
        )));
    }
    Ok(p)
}

fn indicator(opts: Option<Table>) -> mlua::Result<Value> {
    let Some(opts) = opts else {
        return Ok(json!({"method": "setWorkingIndicator"}));
    };
    let mut request = json!({"method": "setWorkingIndicator"});
    if let Some(frames) = opts.get::<Option<Table>>("frames")? {
        let frames: Vec<String> = frames
            .sequence_values::<LuaValue>()
            .enumerate()
            .map(|(i, v)| match v? {
                LuaValue::String(s) => Ok(s.to_str()?.to_string()),
                other => Err(mlua::Error::runtime(format!(
                    "ctx.ui.setWorkingIndicator: frame {} must be a string, got {}",
                    i + 1,
                    other.type_name()
                ))),
            })
            .collect::<mlua::Result<_>>()?;
        request["frames"] = json!(frames);
    }
    match opts.get::<Option<f64>>("intervalMs")? {
        Some(ms) if ms >= 1.0 => request["intervalMs"] = json!(ms as u64),
        Some(ms) => {
            return Err(mlua::Error::runtime(format!(
                "ctx.ui.setWorkingIndicator: intervalMs must be at least 1, got {ms}"
            )));
        }
        None => {}
    }
    Ok(request)
}

/// Add the chrome setters and getters to `t`.
pub fn install(lua: &Lua, t: &Table, ui: &SharedExtensionUi) -> mlua::Result<()> {
    let u = ui.clone();
    t.set(
        "notify",
        lua.create_function(move |lua, (message, level): (String, Option<String>)| {
            let level = level.unwrap_or_else(|| "info".into());
            if !LEVELS.contains(&level.as_str()) {
                return Err(mlua::Error::runtime(format!(
                    "ctx.ui.notify: level must be one of info, success, warning, error; got \"{level}\""
                )));
            }
            u.fire(super::with_call_site(lua, json!({"method": "notify", "message": message, "notifyType": level})));
            Ok(())
        })?,
    )?;
    let u = ui.clone();
    t.set(
        "setStatus",
        lua.create_function(move |lua, (key, text): (String, Option<String>)| {
            let mut request = json!({"method": "setStatus", "statusKey": key});
            if let Some(text) = text {
                request["statusText"] = json!(text);
            }
            u.fire(super::with_call_site(lua, request));
            Ok(())
        })?,
    )?;
    let u = ui.clone();
    t.set(
        "setWidget",
        lua.create_function(
            move |lua, (key, lines, opts): (String, LuaValue, Option<Table>)| {
                let drawn = opts.as_ref().and_then(|o| {
                    o.get::<Option<bool>>(super::component_api::DRAWN_BY_COMPONENTS)
                        .ok()
                        .flatten()
                }) == Some(true);
                let mut request = json!({"method": "setWidget", "widgetKey": key,
                    "widgetPlacement": placement(opts)?});
                if drawn {
                    request["drawnByComponents"] = json!(true);
                }
                match lines {
                    // Component factories need a front end with components.
                    LuaValue::Function(_) => return Ok(()),
                    LuaValue::Nil => {}
                    LuaValue::Table(lines) => {
                        request["widgetLines"] = json!(widget_lines(&key, &lines)?);
                    }
                    other => {
                        return Err(mlua::Error::runtime(format!(
                            "ctx.ui.setWidget(\"{key}\"): expected a list of lines or nil, got {}",
                            other.type_name()
                        )));
                    }
                }
                u.fire(super::with_call_site(lua, request));
                Ok(())
            },
        )?,
    )?;
    let u = ui.clone();
    t.set(
        "setTitle",
        lua.create_function(move |lua, title: String| {
            u.fire(super::with_call_site(
                lua,
                json!({"method": "setTitle", "title": title}),
            ));
            Ok(())
        })?,
    )?;
    let u = ui.clone();
    t.set(
        "setEditorText",
        lua.create_function(move |lua, text: String| {
            u.fire(super::with_call_site(
                lua,
                json!({"method": "set_editor_text", "text": text}),
            ));
            Ok(())
        })?,
    )?;
    let u = ui.clone();
    t.set(
        "pasteToEditor",
        lua.create_function(move |lua, text: String| {
            u.fire(super::with_call_site(
                lua,
                json!({"method": "pasteToEditor", "text": text}),
            ));
            Ok(())
        })?,
    )?;
    let u = ui.clone();
    t.set(
        "getEditorText",
        lua.create_function(move |_, ()| {
            Ok(u.query("editorText")
                .as_str()
                .unwrap_or_default()
                .to_string())
        })?,
    )?;
    let u = ui.clone();
    t.set(
        "setWorkingMessage",
        lua.create_function(move |lua, message: Option<String>| {
            u.fire(super::with_call_site(
                lua,
                json!({"method": "setWorkingMessage", "message": message}),
            ));
            Ok(())
        })?,
    )?;
    let u = ui.clone();
    t.set(
        "setWorkingVisible",
        lua.create_function(move |lua, visible: bool| {
            u.fire(super::with_call_site(
                lua,
                json!({"method": "setWorkingVisible", "visible": visible}),
            ));
            Ok(())
        })?,
    )?;
    let u = ui.clone();
    t.set(
        "setHiddenThinkingLabel",
        lua.create_function(move |lua, label: Option<String>| {
            u.fire(super::with_call_site(
                lua,
                json!({"method": "setHiddenThinkingLabel", "label": label}),
            ));
            Ok(())
        })?,
    )?;
    let u = ui.clone();
    t.set(
        "setWorkingIndicator",
        lua.create_function(move |lua, opts: Option<Table>| {
            u.fire(super::with_call_site(lua, indicator(opts)?));
            Ok(())
        })?,
    )?;
    let u = ui.clone();
    t.set(
        "setToolsExpanded",
        lua.create_function(move |lua, expanded: bool| {
            u.fire(super::with_call_site(
                lua,
                json!({"method": "setToolsExpanded", "expanded": expanded}),
            ));
            Ok(())
        })?,
    )?;
    let u = ui.clone();
    t.set(
        "getToolsExpanded",
        lua.create_function(move |_, ()| Ok(u.query("toolsExpanded").as_bool().unwrap_or(false)))?,
    )?;
    // Component-based chrome; front ends without components ignore it.
    let nothing = lua.create_function(|_, _: mlua::MultiValue| Ok(()))?;
    for name in ["setFooter", "setHeader", "setEditorComponent", "custom"] {
        t.set(name, nothing.clone())?;
    }
    t.set("getEditorComponent", nothing)?;
    Ok(())
}
