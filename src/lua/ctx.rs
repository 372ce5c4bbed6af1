//! The `ctx` table handed to handlers, tools and commands: `cwd`, `model`,
//! `hasUI`, `sessionManager.*` and `ui.*` (headless without a front end).

use std::collections::HashMap;
use std::rc::Rc;

use mlua::{Function, Lua, Table, Value as LuaValue};
use serde_json::Value;

use crate::lua::api::exec::LuaSignal;
use crate::lua::convert::{str_field, to_lua};
use crate::lua::view::{ExtensionAction, SessionView};
use crate::lua::vm::HostCtx;

const STATIC_KEY: &str = "pi.ctx.static";

/// Entries from the root to `leaf` (pi's `getBranch`).
pub fn branch(view: &SessionView, leaf: Option<&str>) -> Vec<Value> {
    let by_id: HashMap<&str, &Value> = view
        .entries
        .iter()
        .filter_map(|e| str_field(e, "id").map(|id| (id, e)))
        .collect();
    let mut out = Vec::new();
    let mut cursor = leaf.or(view.leaf_id.as_deref()).map(str::to_string);
    while let Some(id) = cursor {
        let Some(entry) = by_id.get(id.as_str()) else {
            break;
        };
        out.push((*entry).clone());
        cursor = str_field(entry, "parentId").map(str::to_string);
    }
    out.reverse();
    out
}

fn session_manager(lua: &Lua, host: &Rc<HostCtx>) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let h = host.clone();
    t.set(
        "getEntries",
        lua.create_function(move |lua, ()| {
            to_lua(lua, &Value::Array(h.view.lock().entries.clone()))
        })?,
    )?;
    let h = host.clone();
    t.set(
        "getBranch",
        lua.create_function(move |lua, from: Option<String>| {
            let view = h.view.lock();
            to_lua(lua, &Value::Array(branch(&view, from.as_deref())))
        })?,
    )?;
    let h = host.clone();
    t.set(
        "getLeafId",
        lua.create_function(move |_, ()| Ok(h.view.lock().leaf_id.clone()))?,
    )?;
    let h = host.clone();
    t.set(
        "getEntry",
        lua.create_function(move |lua, id: Option<String>| {
            let Some(id) = id else {
                return Ok(LuaValue::Nil);
            };
            let view = h.view.lock();
            match view
                .entries
                .iter()
                .find(|e| str_field(e, "id") == Some(&id))
            {
                Some(e) => to_lua(lua, e),
                None => Ok(LuaValue::Nil),
            }
        })?,
    )?;
    let h = host.clone();
    t.set(
        "getHeader",
        lua.create_function(move |lua, ()| to_lua(lua, &h.view.lock().header))?,
    )?;
    let h = host.clone();
    t.set(
        "getSessionFile",
        lua.create_function(move |_, ()| Ok(h.view.lock().session_file.clone()))?,
    )?;
    let h = host.clone();
    t.set(
        "getSessionName",
        lua.create_function(move |_, ()| Ok(h.view.lock().session_name.clone()))?,
    )?;
    let h = host.clone();
    t.set(
        "getLabel",
        lua.create_function(move |_, id: Option<String>| {
            Ok(id.and_then(|id| label_of(&h.view.lock(), &id)))
        })?,
    )?;
    let h = host.clone();
    t.set(
        "getTree",
        lua.create_function(move |lua, ()| to_lua(lua, &tree(&h.view.lock())))?,
    )?;
    Ok(t)
}

/// The current label of entry `id` (the latest `label` entry targeting it).
pub fn label_of(view: &SessionView, id: &str) -> Option<String> {
    view.entries
        .iter()
        .rev()
        .find(|e| str_field(e, "type") == Some("label") && str_field(e, "targetId") == Some(id))
        .and_then(|e| str_field(e, "label"))
        .filter(|l| !l.is_empty())
        .map(str::to_string)
}

/// Every entry as `{entry, children, label}` nodes (pi's `getTree`).
pub fn tree(view: &SessionView) -> Value {
    let mut children: HashMap<Option<&str>, Vec<&Value>> = HashMap::new();
    let ids: std::collections::HashSet<&str> = view
        .entries
        .iter()
        .filter_map(|e| str_field(e, "id"))
        .collect();
    for e in &view.entries {
        let parent = str_field(e, "parentId").filter(|p| ids.contains(p));
        children.entry(parent).or_default().push(e);
    }
    fn node(
        e: &Value,
        children: &HashMap<Option<&str>, Vec<&Value>>,
        view: &SessionView,
        depth: usize,
    ) -> Value {
        let id = str_field(e, "id");
        let kids: Vec<Value> = if depth > 2000 {
            Vec::new()
        } else {
            children
                .get(&id)
                .map(|k| {
                    k.iter()
                        .map(|c| node(c, children, view, depth + 1))
                        .collect()
                })
                .unwrap_or_default()
        };
        let mut n = serde_json::json!({"entry": e, "children": kids});
        if let Some(label) = id.and_then(|id| label_of(view, id)) {
            n["label"] = Value::String(label);
        }
        n
    }
    Value::Array(
        children
            .get(&None)
            .map(|roots| roots.iter().map(|r| node(r, &children, view, 0)).collect())
            .unwrap_or_default(),
    )
}

fn model_registry(lua: &Lua, host: &Rc<HostCtx>) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let h = host.clone();
    t.set(
        "getAll",
        lua.create_function(move |lua, ()| to_lua(lua, &Value::Array(all_models(&h.view.lock()))))?,
    )?;
    let h = host.clone();
    t.set(
        "getAvailable",
        lua.create_function(move |lua, ()| to_lua(lua, &Value::Array(all_models(&h.view.lock()))))?,
    )?;
    let h = host.clone();
    t.set(
        "find",
        lua.create_function(move |lua, (provider, id): (String, String)| {
            let found = all_models(&h.view.lock()).into_iter().find(|m| {
                str_field(m, "provider") == Some(&provider) && str_field(m, "id") == Some(&id)
            });
            match found {
                Some(m) => to_lua(lua, &m),
                None => Ok(LuaValue::Nil),
            }
        })?,
    )?;
    Ok(t)
}

/// Selectable models plus those of providers registered by extensions.
pub fn all_models(view: &SessionView) -> Vec<Value> {
    let mut out = view.models.clone();
    for (name, config) in &view.providers {
        let Some(models) = config.get("models").and_then(Value::as_array) else {
            continue;
        };
        out.retain(|m| str_field(m, "provider") != Some(name));
        for m in models {
            let mut m = m.clone();
            m["provider"] = Value::String(name.clone());
            if m.get("api").is_none() {
                m["api"] = config.get("api").cloned().unwrap_or(Value::Null);
            }
            if m.get("baseUrl").is_none() {
                m["baseUrl"] = config.get("baseUrl").cloned().unwrap_or(Value::Null);
            }
            out.push(m);
        }
    }
    out
}

fn action_fn(lua: &Lua, host: &Rc<HostCtx>, action: ExtensionAction) -> mlua::Result<Function> {
    let h = host.clone();
    lua.create_function(move |_, _: mlua::MultiValue| {
        h.view.push_action(action.clone());
        Ok(())
    })
}

/// The extra functions of a command handler's `ctx`.
fn command_statics(lua: &Lua, host: &Rc<HostCtx>) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.set("waitForIdle", lua.create_function(|_, ()| Ok(()))?)?;
    let h = host.clone();
    t.set(
        "newSession",
        lua.create_function(move |lua, opts: Option<Table>| {
            let (parent, with_session) = match &opts {
                Some(o) => (
                    o.get::<Option<String>>("parentSession")?,
                    o.get::<Option<mlua::Function>>("withSession")?,
                ),
                None => (None, None),
            };
            let with_session = with_session
                .map(|f| crate::lua::callbacks::keep(lua, f))
                .transpose()?;
            h.view.push_action(ExtensionAction::NewSession {
                parent,
                with_session,
            });
            let r = lua.create_table()?;
            r.set("cancelled", false)?;
            Ok(r)
        })?,
    )?;
    t.set("reload", action_fn(lua, host, ExtensionAction::Reload)?)?;
    let h = host.clone();
    t.set(
        "fork",
        lua.create_function(move |lua, (entry_id, _): (String, mlua::Value)| {
            h.view.push_action(ExtensionAction::Fork(entry_id));
            let r = lua.create_table()?;
            r.set("cancelled", false)?;
            Ok(r)
        })?,
    )?;
    let h = host.clone();
    t.set(
        "navigateTree",
        lua.create_function(move |lua, (target, opts): (String, Option<Table>)| {
            let field = |key: &str| -> mlua::Result<LuaValue> {
                match &opts {
                    Some(o) => o.get(key),
                    None => Ok(LuaValue::Nil),
                }
            };
            h.view.push_action(ExtensionAction::NavigateTree {
                target,
                summarize: field("summarize")?.as_boolean().unwrap_or(false),
                custom_instructions: lua.unpack(field("customInstructions")?)?,
                replace_instructions: field("replaceInstructions")?.as_boolean().unwrap_or(false),
                label: lua.unpack(field("label")?)?,
            });
            let r = lua.create_table()?;
            r.set("cancelled", false)?;
            Ok(r)
        })?,
    )?;
    let h = host.clone();
    t.set(
        "switchSession",
        lua.create_function(move |lua, (path, _): (String, mlua::Value)| {
            h.view.push_action(ExtensionAction::SwitchSession(path));
            let r = lua.create_table()?;
            r.set("cancelled", false)?;
            Ok(r)
        })?,
    )?;
    Ok(t)
}

/// Create the per-VM parts of `ctx` (call once after the VM is built).
/// With `ui`, `ctx.ui` dialogs go to that front end and `ctx.hasUI` is true.
pub fn install_static(
    lua: &Lua,
    host: &Rc<HostCtx>,
    ui: Option<crate::lua::ui::SharedExtensionUi>,
) -> mlua::Result<()> {
    let t = lua.create_table()?;
    t.set("sessionManager", session_manager(lua, host)?)?;
    t.set(
        "checkpoints",
        crate::lua::checkpoints::checkpoints_table(lua, host)?,
    )?;
    let has_ui = ui.is_some();
    t.set("hasUI", has_ui)?;
    let ui = ui.unwrap_or_else(|| {
        std::sync::Arc::new(crate::lua::ui::NoUi {
            view: host.view.clone(),
        })
    });
    let ui_table = crate::lua::ui::connected_ui(lua, host, ui)?;
    crate::lua::ui::components::install(lua, host, &ui_table)?;
    if has_ui {
        // Components drawn in a real terminal use its theme, not the plain ANSI fallback.
        crate::lua::ui::lib::module(lua)?
            .set("defaultTheme", ui_table.get::<LuaValue>("theme")?)?;
    }
    t.set("ui", ui_table)?;
    let h = host.clone();
    let get_system_prompt: Function =
        lua.create_function(move |_, ()| Ok(h.view.lock().system_prompt.clone()))?;
    t.set("getSystemPrompt", get_system_prompt)?;
    t.set("modelRegistry", model_registry(lua, host)?)?;
    let h = host.clone();
    t.set(
        "isIdle",
        lua.create_function(move |_, ()| Ok(h.view.lock().idle))?,
    )?;
    let h = host.clone();
    t.set(
        "hasPendingMessages",
        lua.create_function(move |_, ()| Ok(h.view.lock().pending_messages))?,
    )?;
    let h = host.clone();
    t.set(
        "getContextUsage",
        lua.create_function(move |lua, ()| {
            let usage = h.view.lock().context_usage.clone();
            if usage.is_null() {
                Ok(LuaValue::Nil)
            } else {
                to_lua(lua, &usage)
            }
        })?,
    )?;
    t.set("abort", action_fn(lua, host, ExtensionAction::Abort)?)?;
    let h = host.clone();
    t.set(
        "sendUserMessage",
        lua.create_function(move |lua, (content, opts): (LuaValue, Option<Table>)| {
            let content = crate::lua::convert::to_json(lua, content)?;
            let deliver_as = crate::lua::api::session::deliver_as(
                &opts,
                &["steer", "followUp"],
                "ctx.sendUserMessage",
            )?;
            h.view.push_action(ExtensionAction::SendUserMessage {
                content,
                deliver_as,
            });
            Ok(())
        })?,
    )?;
    t.set("shutdown", action_fn(lua, host, ExtensionAction::Shutdown)?)?;
    let h = host.clone();
    t.set(
        "compact",
        lua.create_function(move |lua, opts: Option<Table>| {
            let instructions = opts
                .as_ref()
                .and_then(|o| o.get::<Option<String>>("customInstructions").ok().flatten());
            let callback = match &opts {
                Some(o) => crate::lua::compact_callbacks::keep(lua, o)?,
                None => None,
            };
            h.view.push_action(ExtensionAction::Compact {
                instructions,
                callback,
            });
            Ok(())
        })?,
    )?;
    t.set("command", command_statics(lua, host)?)?;
    lua.set_named_registry_value(STATIC_KEY, t)
}

/// A fresh `ctx` for a command handler: the event `ctx` plus
/// `waitForIdle`, `newSession`, `reload`, `fork`, `navigateTree`, `switchSession`.
pub fn make_command_ctx(lua: &Lua, host: &HostCtx) -> mlua::Result<Table> {
    let ctx = make_ctx(lua, host, None)?;
    let statics: Table = lua.named_registry_value(STATIC_KEY)?;
    let command: Table = statics.get("command")?;
    for pair in command.pairs::<String, LuaValue>() {
        let (k, v) = pair?;
        ctx.set(k, v)?;
    }
    Ok(ctx)
}

/// A fresh `ctx` for one call.
pub fn make_ctx(lua: &Lua, host: &HostCtx, signal: Option<&LuaSignal>) -> mlua::Result<Table> {
    let statics: Table = lua.named_registry_value(STATIC_KEY)?;
    let ctx = lua.create_table()?;
    let (cwd, model, permissions) = {
        let view = host.view.lock();
        let permissions = match &view.permissions {
            // No policy reached the host: the shape of one with nothing in it.
            Value::Null => serde_json::json!({
                "active": false, "yolo": false, "mode": "full",
                "projectTrusted": false, "rules": [],
            }),
            p => p.clone(),
        };
        (
            view.cwd.display().to_string(),
            view.model.clone(),
            permissions,
        )
    };
    ctx.set("cwd", cwd)?;
    ctx.set("permissions", to_lua(lua, &permissions)?)?;
    ctx.set("model", to_lua(lua, &model)?)?;
    ctx.set("hasUI", statics.get::<bool>("hasUI")?)?;
    ctx.set("sessionManager", statics.get::<Table>("sessionManager")?)?;
    ctx.set("checkpoints", statics.get::<Table>("checkpoints")?)?;
    ctx.set("ui", statics.get::<Table>("ui")?)?;
    for key in [
        "getSystemPrompt",
        "modelRegistry",
        "isIdle",
        "hasPendingMessages",
        "getContextUsage",
        "abort",
        "shutdown",
        "compact",
        "sendUserMessage",
    ] {
        ctx.set(key, statics.get::<LuaValue>(key)?)?;
    }
    if let Some(s) = signal {
        ctx.set("signal", s.clone())?;
    }
    Ok(ctx)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn branch_walks_parents_from_the_leaf() {
        let view = SessionView {
            entries: vec![
                json!({"id": "a", "parentId": null}),
                json!({"id": "b", "parentId": "a"}),
                json!({"id": "c", "parentId": "a"}),
            ],
            leaf_id: Some("c".into()),
            ..SessionView::default()
        };
        let ids: Vec<_> = branch(&view, None)
            .iter()
            .map(|e| e["id"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(ids, vec!["a", "c"]);
        assert_eq!(branch(&view, Some("b")).len(), 2);
    }
}
