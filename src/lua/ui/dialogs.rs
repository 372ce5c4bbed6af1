//! `ctx.ui.select`, `confirm`, `input` and `editor`: async dialogs that yield
//! the calling coroutine until the front end answers, the `timeout` runs out
//! or `signal` fires. Cancelled, timed-out or unanswered dialogs return pi's
//! defaults (`nil`, or `false` for `confirm`).

use std::rc::Rc;
use std::time::Duration;

use mlua::{Lua, Table, Value as LuaValue};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::lua::api::exec::LuaSignal;
use crate::lua::ui::SharedExtensionUi;
use crate::lua::vm::HostCtx;

/// `timeout` (ms) and `signal` of a dialog's options table.
#[derive(Default)]
struct DialogOptions {
    timeout_ms: Option<u64>,
    signal: Option<CancellationToken>,
}

fn dialog_options(method: &str, opts: Option<Table>) -> mlua::Result<DialogOptions> {
    let Some(t) = opts else {
        return Ok(DialogOptions::default());
    };
    let timeout_ms = match t.get::<LuaValue>("timeout")? {
        LuaValue::Nil => None,
        LuaValue::Integer(ms) if ms > 0 => Some(ms as u64),
        LuaValue::Number(ms) if ms > 0.0 => Some(ms as u64),
        other => {
            return Err(mlua::Error::runtime(format!(
                "ctx.ui.{method}: `timeout` must be a positive number of milliseconds, got {}",
                other.type_name()
            )));
        }
    };
    let signal = match t.get::<LuaValue>("signal")? {
        LuaValue::Nil => None,
        LuaValue::UserData(ud) => Some(ud.borrow::<LuaSignal>()?.0.clone()),
        other => {
            return Err(mlua::Error::runtime(format!(
                "ctx.ui.{method}: `signal` must be an abort signal such as ctx.signal, got {}",
                other.type_name()
            )));
        }
    };
    Ok(DialogOptions { timeout_ms, signal })
}

/// Show `request` and wait for the answer; `None` on cancel, timeout, abort
/// or when the front end has none.
async fn ask(
    ui: &SharedExtensionUi,
    host: &HostCtx,
    mut request: Value,
    opts: DialogOptions,
) -> Option<Value> {
    let signal = opts.signal.unwrap_or_default();
    if signal.is_cancelled() {
        return None;
    }
    if let Some(ms) = opts.timeout_ms {
        request["timeout"] = json!(ms);
    }
    let closed = CancellationToken::new();
    let answer = ui.dialog(request, closed.clone());
    let timer = async {
        match opts.timeout_ms {
            Some(ms) => tokio::time::sleep(Duration::from_millis(ms)).await,
            None => std::future::pending().await,
        }
    };
    let out = tokio::select! {
        a = answer => a.ok(),
        _ = timer => None,
        _ = signal.cancelled() => None,
    };
    closed.cancel();
    host.budget.reset();
    out.filter(|a| a["cancelled"] != true)
}

fn text_answer(answer: Option<Value>) -> Option<String> {
    answer?["value"].as_str().map(str::to_string)
}

fn string_list(method: &str, value: LuaValue) -> mlua::Result<Vec<String>> {
    let LuaValue::Table(t) = value else {
        return Err(mlua::Error::runtime(format!(
            "ctx.ui.{method}: `options` must be a list of strings, got {}",
            value.type_name()
        )));
    };
    let mut out = Vec::new();
    for (i, v) in t.sequence_values::<LuaValue>().enumerate() {
        match v? {
            LuaValue::String(s) => out.push(s.to_str()?.to_string()),
            other => {
                return Err(mlua::Error::runtime(format!(
                    "ctx.ui.{method}: option {} must be a string, got {}",
                    i + 1,
                    other.type_name()
                )));
            }
        }
    }
    Ok(out)
}

/// Add the four dialogs to `t`.
pub fn install(
    lua: &Lua,
    t: &Table,
    host: &Rc<HostCtx>,
    ui: &SharedExtensionUi,
) -> mlua::Result<()> {
    let (u, h) = (ui.clone(), host.clone());
    t.set(
        "select",
        lua.create_async_function(
            move |lua, (title, options, opts): (String, LuaValue, Option<Table>)| {
                let (u, h) = (u.clone(), h.clone());
                let site = super::call_site(&lua);
                async move {
                    let options = string_list("select", options)?;
                    let opts = dialog_options("select", opts)?;
                    let mut request =
                        json!({"method": "select", "title": title, "options": options});
                    super::add_site(&mut request, site);
                    Ok(text_answer(ask(&u, &h, request, opts).await))
                }
            },
        )?,
    )?;
    let (u, h) = (ui.clone(), host.clone());
    t.set(
        "confirm",
        lua.create_async_function(
            move |lua, (title, message, opts): (String, Option<String>, Option<Table>)| {
                let (u, h) = (u.clone(), h.clone());
                let site = super::call_site(&lua);
                async move {
                    let opts = dialog_options("confirm", opts)?;
                    let mut request = json!({"method": "confirm", "title": title,
                        "message": message.unwrap_or_default()});
                    super::add_site(&mut request, site);
                    let answer = ask(&u, &h, request, opts).await;
                    Ok(answer.is_some_and(|a| a["confirmed"] == true))
                }
            },
        )?,
    )?;
    let (u, h) = (ui.clone(), host.clone());
    t.set(
        "input",
        lua.create_async_function(
            move |lua, (title, placeholder, opts): (String, Option<String>, Option<Table>)| {
                let (u, h) = (u.clone(), h.clone());
                let site = super::call_site(&lua);
                async move {
                    let opts = dialog_options("input", opts)?;
                    let mut request = json!({"method": "input", "title": title});
                    if let Some(p) = placeholder {
                        request["placeholder"] = json!(p);
                    }
                    super::add_site(&mut request, site);
                    Ok(text_answer(ask(&u, &h, request, opts).await))
                }
            },
        )?,
    )?;
    let (u, h) = (ui.clone(), host.clone());
    t.set(
        "editor",
        lua.create_async_function(
            move |lua, (title, prefill, opts): (String, Option<String>, Option<Table>)| {
                let (u, h) = (u.clone(), h.clone());
                let site = super::call_site(&lua);
                async move {
                    let opts = dialog_options("editor", opts)?;
                    let mut request = json!({"method": "editor", "title": title});
                    if let Some(p) = prefill {
                        request["prefill"] = json!(p);
                    }
                    super::add_site(&mut request, site);
                    Ok(text_answer(ask(&u, &h, request, opts).await))
                }
            },
        )?,
    )?;
    Ok(())
}
