//! Lua-native helpers on `pi`: `pi.json`, `pi.log`, `pi.fs` (async file
//! access relative to the working directory) and the truncation helpers.

use std::rc::Rc;

use globset::Glob;
use mlua::{Lua, LuaSerdeExt, Table, Value as LuaValue, Variadic};
use serde_json::Value;

use crate::lua::capabilities::guard::Guard;
use crate::lua::convert::{to_json, to_lua};
use crate::lua::vm::HostCtx;
use crate::tools::truncate::{TruncationLimits, truncate_head, truncate_tail};

/// `pi.json.encode/decode` and `pi.json.null`.
pub fn json_table(lua: &Lua) -> mlua::Result<Table> {
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

/// `pi.log.debug/info/warn/error`: lines on stderr tagged with the
/// extension's name (`debug` only with `PI_DEBUG` set).
pub fn log_table(lua: &Lua, name: String, host: &Rc<HostCtx>) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    for level in ["debug", "info", "warn", "error"] {
        let name = name.clone();
        let h = host.clone();
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
                let label = crate::i18n::t(&format!("pi.ext.log.{level}"), &[]);
                let text = text.join(" ");
                let text = crate::i18n::core_hacks::display(&text);
                h.view.report(format!("[{name}] {label}: {text}"));
                Ok(())
            })?,
        )?;
    }
    Ok(t)
}

/// `pi.fs.read/write/exists/glob/list`: awaited file access, each asking the
/// extension's guard first; `read` and `list` return `nil, message` when the path
/// cannot be read, `glob` lists only what the extension may read.
pub fn fs_table(lua: &Lua, host: &Rc<HostCtx>, guard: &Rc<Guard>) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let h = host.clone();
    let g = guard.clone();
    t.set(
        "read",
        lua.create_async_function(move |lua, path: String| {
            let full = g.read(&path);
            let h = h.clone();
            async move {
                let read = tokio::fs::read(&full?).await;
                h.budget.reset();
                match read {
                    Ok(bytes) => Ok((LuaValue::String(lua.create_string(&bytes)?), None)),
                    Err(e) => Ok((LuaValue::Nil, Some(format!("{path}: {e}")))),
                }
            }
        })?,
    )?;
    let h = host.clone();
    let g = guard.clone();
    t.set(
        "write",
        lua.create_async_function(move |_, (path, content): (String, mlua::String)| {
            let full = g.write(&path);
            let bytes = content.as_bytes().to_vec();
            let h = h.clone();
            async move {
                let full = full?;
                if let Some(parent) = full.parent() {
                    let _ = tokio::fs::create_dir_all(parent).await;
                }
                let written = tokio::fs::write(&full, bytes).await;
                h.budget.reset();
                written.map_err(|e| mlua::Error::runtime(format!("pi.fs.write {path}: {e}")))
            }
        })?,
    )?;
    let g = guard.clone();
    t.set(
        "exists",
        lua.create_async_function(move |_, path: String| {
            let full = g.read(&path);
            async move { Ok(tokio::fs::try_exists(full?).await.unwrap_or(false)) }
        })?,
    )?;
    let h = host.clone();
    let g = guard.clone();
    t.set(
        "list",
        lua.create_async_function(move |lua, path: String| {
            let full = g.read(&path);
            let h = h.clone();
            async move {
                let listed = list_dir(&full?).await;
                h.budget.reset();
                match listed {
                    Ok(entries) => {
                        let out = lua.create_table()?;
                        for (name, is_dir) in entries {
                            let e = lua.create_table()?;
                            e.set("name", name)?;
                            e.set("isDir", is_dir)?;
                            out.push(e)?;
                        }
                        Ok((LuaValue::Table(out), None))
                    }
                    Err(e) => Ok((LuaValue::Nil, Some(format!("{path}: {e}")))),
                }
            }
        })?,
    )?;
    let h = host.clone();
    let g = guard.clone();
    t.set(
        "glob",
        lua.create_async_function(move |_, pattern: String| {
            let cwd = h.cwd.clone();
            let h = h.clone();
            let g = g.clone();
            async move {
                let matcher = Glob::new(&pattern)
                    .map_err(|e| mlua::Error::runtime(format!("pi.fs.glob: {e}")))?
                    .compile_matcher();
                let found = tokio::task::spawn_blocking(move || {
                    let mut out: Vec<String> = ignore::WalkBuilder::new(&cwd)
                        .build()
                        .filter_map(Result::ok)
                        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
                        .filter_map(|e| {
                            let rel = e.path().strip_prefix(&cwd).ok()?.to_path_buf();
                            matcher
                                .is_match(&rel)
                                .then(|| rel.to_string_lossy().into_owned())
                        })
                        .collect();
                    out.sort();
                    out
                })
                .await
                .unwrap_or_default();
                h.budget.reset();
                Ok(found
                    .into_iter()
                    .filter(|rel| g.can_read(&h.cwd.join(rel)))
                    .collect::<Vec<_>>())
            }
        })?,
    )?;
    Ok(t)
}

/// Names in `dir` sorted, each with whether it is a directory (links are
/// followed).
async fn list_dir(dir: &std::path::Path) -> std::io::Result<Vec<(String, bool)>> {
    let mut read = tokio::fs::read_dir(dir).await?;
    let mut out = Vec::new();
    while let Some(entry) = read.next_entry().await? {
        let is_dir = tokio::fs::metadata(entry.path())
            .await
            .is_ok_and(|m| m.is_dir());
        out.push((entry.file_name().to_string_lossy().into_owned(), is_dir));
    }
    out.sort();
    Ok(out)
}

fn limits(opts: Option<Table>) -> mlua::Result<TruncationLimits> {
    let mut limits = TruncationLimits::default();
    if let Some(o) = opts {
        if let Some(n) = o.get::<Option<usize>>("maxLines")? {
            limits.max_lines = n;
        }
        if let Some(n) = o.get::<Option<usize>>("maxBytes")? {
            limits.max_bytes = n;
        }
    }
    Ok(limits)
}

/// `pi.truncateHead(text, {maxLines, maxBytes})` and `pi.truncateTail`:
/// pi's truncation result (`content`, `truncated`, `truncatedBy`, ...).
pub fn add_truncation(lua: &Lua, pi: &Table) -> mlua::Result<()> {
    pi.set(
        "truncateHead",
        lua.create_function(|lua, (text, opts): (String, Option<Table>)| {
            let r = truncate_head(&text, limits(opts)?);
            lua.to_value(&r)
        })?,
    )?;
    pi.set(
        "truncateTail",
        lua.create_function(|lua, (text, opts): (String, Option<Table>)| {
            let r = truncate_tail(&text, limits(opts)?);
            lua.to_value(&r)
        })?,
    )
}
