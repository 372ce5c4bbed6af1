//! The seam behind `ctx.ui` for front ends that can show dialogs (RPC mode's
//! extension UI sub-protocol). Without one, `ctx.ui` stays headless.

use std::sync::Arc;

use serde_json::Value;

/// A front end that shows extension dialogs and notifications. Requests are
/// pi's `extension_ui_request` objects without `type` and `id`
/// (`{"method": "confirm", "title": ..., "message": ..., "timeout": ...}`).
pub trait ExtensionUi: Send + Sync {
    /// Show a dialog and wait for the answer: the client's response object
    /// (`value`, `confirmed` or `cancelled`), or `None` when it timed out or
    /// the front end went away. Called on the extension thread.
    fn dialog(&self, request: Value) -> Option<Value>;
    /// Fire-and-forget: notify, setStatus, setWidget, setTitle, set_editor_text.
    fn fire(&self, request: Value);
}

impl std::fmt::Debug for dyn ExtensionUi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ExtensionUi")
    }
}

/// A shared front end.
pub type SharedExtensionUi = Arc<dyn ExtensionUi>;

/// `ctx.ui` backed by `ui`: dialogs block the extension until answered.
pub fn connected_ui(lua: &mlua::Lua, ui: SharedExtensionUi) -> mlua::Result<mlua::Table> {
    use mlua::{Table, Value as LuaValue};
    use serde_json::json;

    let t = lua.create_table()?;
    let timeout = |opts: &Option<Table>| {
        opts.as_ref()
            .and_then(|o| o.get::<Option<u64>>("timeout").ok().flatten())
    };
    let with_timeout = |mut request: Value, ms: Option<u64>| {
        if let Some(ms) = ms {
            request["timeout"] = json!(ms);
        }
        request
    };
    let value_of = |answer: Option<Value>| -> Option<String> {
        let answer = answer?;
        if answer["cancelled"] == true {
            return None;
        }
        answer["value"].as_str().map(str::to_string)
    };

    let u = ui.clone();
    t.set(
        "select",
        lua.create_function(
            move |_, (title, options, opts): (String, Vec<String>, Option<Table>)| {
                let request = json!({"method": "select", "title": title, "options": options});
                Ok(value_of(u.dialog(with_timeout(request, timeout(&opts)))))
            },
        )?,
    )?;
    let u = ui.clone();
    t.set(
        "confirm",
        lua.create_function(
            move |_, (title, message, opts): (String, Option<String>, Option<Table>)| {
                let request = json!({"method": "confirm", "title": title, "message": message.unwrap_or_default()});
                let answer = u.dialog(with_timeout(request, timeout(&opts)));
                Ok(answer.is_some_and(|a| a["confirmed"] == true))
            },
        )?,
    )?;
    let u = ui.clone();
    t.set(
        "input",
        lua.create_function(
            move |_, (title, placeholder, opts): (String, Option<String>, Option<Table>)| {
                let mut request = json!({"method": "input", "title": title});
                if let Some(p) = placeholder {
                    request["placeholder"] = json!(p);
                }
                Ok(value_of(u.dialog(with_timeout(request, timeout(&opts)))))
            },
        )?,
    )?;
    let u = ui.clone();
    t.set(
        "editor",
        lua.create_function(move |_, (title, prefill): (String, Option<String>)| {
            let mut request = json!({"method": "editor", "title": title});
            if let Some(p) = prefill {
                request["prefill"] = json!(p);
            }
            Ok(value_of(u.dialog(request)))
        })?,
    )?;
    let u = ui.clone();
    t.set(
        "notify",
        lua.create_function(move |_, (message, kind): (String, Option<String>)| {
            u.fire(json!({"method": "notify", "message": message,
                "notifyType": kind.unwrap_or_else(|| "info".into())}));
            Ok(())
        })?,
    )?;
    let u = ui.clone();
    t.set(
        "setStatus",
        lua.create_function(move |_, (key, text): (String, Option<String>)| {
            let mut request = json!({"method": "setStatus", "statusKey": key});
            if let Some(text) = text {
                request["statusText"] = json!(text);
            }
            u.fire(request);
            Ok(())
        })?,
    )?;
    let u = ui.clone();
    t.set(
        "setWidget",
        lua.create_function(
            move |_, (key, lines, opts): (String, LuaValue, Option<Table>)| {
                let mut request = json!({"method": "setWidget", "widgetKey": key});
                if let LuaValue::Table(lines) = lines {
                    let lines: Vec<String> = lines.sequence_values::<String>().flatten().collect();
                    request["widgetLines"] = json!(lines);
                }
                let placement = opts
                    .and_then(|o| o.get::<Option<String>>("placement").ok().flatten())
                    .unwrap_or_else(|| "aboveEditor".into());
                request["widgetPlacement"] = json!(placement);
                u.fire(request);
                Ok(())
            },
        )?,
    )?;
    let u = ui.clone();
    t.set(
        "setTitle",
        lua.create_function(move |_, title: String| {
            u.fire(json!({"method": "setTitle", "title": title}));
            Ok(())
        })?,
    )?;
    let u = ui;
    t.set(
        "setEditorText",
        lua.create_function(move |_, text: String| {
            u.fire(json!({"method": "set_editor_text", "text": text}));
            Ok(())
        })?,
    )?;
    let nothing = lua.create_function(|_, _: mlua::MultiValue| Ok(()))?;
    for name in [
        "setFooter",
        "setHeader",
        "setWorkingMessage",
        "setTheme",
        "custom",
    ] {
        t.set(name, nothing.clone())?;
    }
    t.set(
        "getEditorText",
        lua.create_function(|_, _: mlua::MultiValue| Ok(""))?,
    )?;
    Ok(t)
}
