//! Tools that compose. `pi.wrapTool(name, function(args, next, ctx) … end)` wrappers run as
//! a chain around any tool, built-in or registered: each gets the call's arguments and a
//! `next` that runs the rest of the chain (finally the tool) and returns its result table.
//! The order is load order (first loaded runs first), overridden per tool by settings
//! `"tools.wrapOrder"`. Two extensions registering one tool name: settings `"tools.owners"`
//! chooses which one is used, else the one loaded first (as pi 0.73.1); either way one warning
//! names both.

use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

use mlua::{Function, Lua, Table, Value as LuaValue};
use serde_json::{Value, json};

use crate::agent::tool::{AgentTool, ToolContext, ToolError, ToolOutput};
use crate::lua::api::exec::LuaSignal;
use crate::lua::convert::{to_json, to_lua};
use crate::lua::ctx::make_ctx;
use crate::lua::tool::output_from_json;
use crate::lua::tool_exec::error_text;
use crate::lua::vm::{HostCtx, Vm};
use crate::t;

/// Settings `"tools.owners"` and `"tools.wrapOrder"`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolPolicy {
    /// Tool name → the extension (by name) whose registration is used.
    pub owners: BTreeMap<String, String>,
    /// Tool name → extension names, outermost wrapper first.
    pub wrap_order: BTreeMap<String, Vec<String>>,
}

impl ToolPolicy {
    /// Read both settings values (anything of the wrong shape is ignored).
    pub fn from_settings(owners: Option<&Value>, wrap_order: Option<&Value>) -> ToolPolicy {
        let owners = owners
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .filter_map(|(tool, ext)| Some((tool.clone(), ext.as_str()?.to_string())))
            .collect();
        let wrap_order = wrap_order
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .filter_map(|(tool, list)| {
                let names = list.as_array()?.iter().filter_map(Value::as_str);
                Some((tool.clone(), names.map(str::to_string).collect()))
            })
            .collect();
        ToolPolicy { owners, wrap_order }
    }
}

/// One `pi.wrapTool` registration.
pub struct WrapReg {
    /// The wrapped tool's name.
    pub tool: String,
    /// Index of the wrapping extension.
    pub ext: usize,
    /// `function(args, next, ctx)`.
    pub func: Function,
}

/// Whether extension `ext` takes the tool `name` it registers. When another extension
/// registered it already, settings `"tools.owners"` decides (else, as in pi 0.73.1, the
/// first keeps it) and one warning names both and the owner.
pub fn claim(host: &HostCtx, name: &str, ext: usize) -> bool {
    let reg = host.reg.borrow();
    let Some(existing) = reg.tools.get(name).filter(|t| t.ext != ext) else {
        return true;
    };
    let first = reg.extensions[existing.ext].name.clone();
    let second = reg.extensions[ext].name.clone();
    drop(reg);
    let takes = host.tool_policy.owners.get(name) == Some(&second);
    let owner = if takes { &second } else { &first };
    let text = t!(
        "pi.ext.tool_conflict",
        tool = name,
        first = first.as_str(),
        second = second.as_str(),
        owner = owner.as_str()
    );
    warn(host, &text);
    takes
}

/// A warning where the user sees it: the front end's notification (terminal UI, RPC
/// `extension_ui_request`), else the host's message stream (stderr in print mode).
pub fn warn(host: &HostCtx, text: &str) {
    match &host.ui {
        Some(ui) => ui.fire(json!({"method": "notify", "message": text, "notifyType": "warning"})),
        None => host.view.report(format!("Warning: {text}")),
    }
}

/// The wrappers of `tool` as (extension name, function), outermost first.
fn ordered_links(host: &HostCtx, tool: &str) -> Vec<(String, Function)> {
    let reg = host.reg.borrow();
    let mut links: Vec<(String, Function)> = reg
        .wraps
        .iter()
        .filter(|w| w.tool == tool)
        .map(|w| (reg.extensions[w.ext].name.clone(), w.func.clone()))
        .collect();
    if let Some(order) = host.tool_policy.wrap_order.get(tool) {
        let rank = |name: &str| order.iter().position(|n| n == name).unwrap_or(order.len());
        links.sort_by_key(|(name, _)| rank(name));
    }
    links
}

/// Names of the tools that have wrappers.
pub fn wrapped_tools(wraps: &[WrapReg]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for w in wraps {
        if !names.contains(&w.tool) {
            names.push(w.tool.clone());
        }
    }
    names
}

struct Chain {
    tool: String,
    links: Vec<(String, Function)>,
    inner: Arc<dyn AgentTool>,
    call_id: String,
    ctx: ToolContext,
    lua_ctx: Table,
}

/// A result table: `{content = …, details = …, isError = …}`.
fn result_table(lua: &Lua, result: Result<ToolOutput, ToolError>) -> mlua::Result<LuaValue> {
    let value = match result {
        Ok(out) => json!({
            "content": serde_json::to_value(&out.content).unwrap_or(Value::Null),
            "details": out.details,
            "isError": false,
        }),
        Err(e) => json!({
            "content": [{"type": "text", "text": e.message}],
            "details": e.details,
            "isError": true,
        }),
    };
    to_lua(lua, &value)
}

/// What a wrapper (or the tool) gave: a result, or an error message for the model.
fn read_result(value: &Value, ext: &str, tool: &str) -> Result<ToolOutput, ToolError> {
    if value.is_null() {
        return Err(ToolError::new(t!(
            "pi.ext.wrap_no_result",
            ext = ext,
            tool = tool
        )));
    }
    if value.get("block").and_then(Value::as_bool) == Some(true) {
        let reason = value.get("reason").and_then(Value::as_str);
        return Err(ToolError::new(match reason {
            Some(r) => r.to_string(),
            None => t!("pi.ext.wrap_blocked", ext = ext, tool = tool),
        }));
    }
    let out = output_from_json(value).map_err(|e| {
        ToolError::new(t!(
            "pi.ext.wrap_bad_result",
            ext = ext,
            error = e.to_string()
        ))
    })?;
    if value.get("isError").and_then(Value::as_bool) == Some(true) {
        let text: Vec<String> = out
            .content
            .iter()
            .filter_map(|b| serde_json::to_value(b).ok())
            .filter_map(|b| b.get("text").and_then(Value::as_str).map(str::to_string))
            .collect();
        return Err(ToolError {
            message: text.join("\n"),
            details: out.details,
        });
    }
    Ok(out)
}

/// Run link `i` of the chain (past the last link: the tool itself) with `args`.
fn call_link(
    lua: Lua,
    chain: Rc<Chain>,
    i: usize,
    args: LuaValue,
) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<ToolOutput, ToolError>>>> {
    Box::pin(async move {
        let json_args = to_json(&lua, args).map_err(|e| ToolError::new(e.to_string()))?;
        let Some((ext, func)) = chain.links.get(i).cloned() else {
            let ctx = chain.ctx.clone();
            return chain.inner.execute(&chain.call_id, json_args, ctx).await;
        };
        let next_chain = chain.clone();
        let next = lua
            .create_async_function(move |lua, next_args: LuaValue| {
                let chain = next_chain.clone();
                async move {
                    let result = call_link(lua.clone(), chain, i + 1, next_args).await;
                    result_table(&lua, result)
                }
            })
            .map_err(|e| ToolError::new(e.to_string()))?;
        // Each wrapper gets its own copy: what an inner one changes stays out of its caller's.
        let own_args = to_lua(&lua, &json_args).map_err(|e| ToolError::new(e.to_string()))?;
        let returned = func
            .call_async::<LuaValue>((own_args, next, chain.lua_ctx.clone()))
            .await
            .map_err(|e| {
                ToolError::new(t!(
                    "pi.ext.wrap_failed",
                    ext = ext.as_str(),
                    tool = chain.tool.as_str(),
                    error = error_text(&e)
                ))
            })?;
        let value = to_json(&lua, returned).map_err(|e| ToolError::new(e.to_string()))?;
        read_result(&value, &ext, &chain.tool)
    })
}

/// Run `tool` through its wrappers, `inner` being the tool itself.
pub async fn run_chain(
    vm: &Vm,
    tool: &str,
    call_id: &str,
    args: Value,
    inner: Arc<dyn AgentTool>,
    ctx: ToolContext,
) -> Result<ToolOutput, ToolError> {
    let links = ordered_links(&vm.host, tool);
    let signal = LuaSignal(ctx.signal.clone());
    let lua = vm.lua.clone();
    let prepared =
        make_ctx(&lua, &vm.host, Some(&signal)).and_then(|c| Ok((c, to_lua(&lua, &args)?)));
    let (lua_ctx, args) = prepared.map_err(|e| ToolError::new(e.to_string()))?;
    let chain = Rc::new(Chain {
        tool: tool.to_string(),
        links,
        inner,
        call_id: call_id.to_string(),
        ctx,
        lua_ctx,
    });
    vm.host.budget.reset();
    call_link(lua, chain, 0, args).await
}
