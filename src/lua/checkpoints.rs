//! `ctx.checkpoints`: the file checkpoints of the session, read from where they are
//! stored. `list()` gives them newest first (`id`, `entryId`, `kind`, `timestamp`,
//! `files`, `bytes`); `restore(id, {code = true, conversation = false, overwrite = …})`
//! brings the workspace back to its state before that checkpoint's run (conflicting
//! files only when `overwrite` is `true` or lists them) and, with `conversation`, moves
//! the conversation to before its message.

use std::collections::HashSet;
use std::path::PathBuf;
use std::rc::Rc;

use mlua::{Lua, Table, Value as LuaValue};

use crate::checkpoint::record::CheckpointKind;
use crate::checkpoint::{CheckpointStore, record, store::store_root};
use crate::config::settings_keys::CheckpointSettings;
use crate::lua::convert::to_lua;
use crate::lua::view::ExtensionAction;
use crate::lua::vm::HostCtx;

/// The session's folder, id and working folder, when it is stored.
fn where_stored(host: &HostCtx) -> Option<(PathBuf, String, PathBuf)> {
    let view = host.view.lock();
    let file = PathBuf::from(view.session_file.as_deref()?);
    let dir = file.parent()?.to_path_buf();
    let id = view.header.get("id")?.as_str()?.to_string();
    Some((dir, id, view.cwd.clone()))
}

/// Which conflicting files `overwrite` allows: `true` (all), a list of paths, or none.
fn overwrite_choice(value: LuaValue) -> mlua::Result<(bool, HashSet<String>)> {
    match value {
        LuaValue::Boolean(all) => Ok((all, HashSet::new())),
        LuaValue::Table(t) => Ok((
            false,
            t.sequence_values::<String>().collect::<Result<_, _>>()?,
        )),
        _ => Ok((false, HashSet::new())),
    }
}

/// The `ctx.checkpoints` table.
pub fn checkpoints_table(lua: &Lua, host: &Rc<HostCtx>) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let h = host.clone();
    t.set(
        "list",
        lua.create_function(move |lua, ()| {
            let mut list: Vec<serde_json::Value> = match where_stored(&h) {
                Some((dir, id, _)) => record::load_all(&store_root(&dir).join("sessions").join(id))
                    .iter()
                    .filter(|c| c.kind != CheckpointKind::Restore)
                    .map(|c| c.to_json())
                    .collect(),
                None => Vec::new(),
            };
            list.reverse();
            to_lua(lua, &serde_json::Value::Array(list))
        })?,
    )?;
    let h = host.clone();
    t.set(
        "restore",
        lua.create_function(move |lua, (id, opts): (String, Option<Table>)| {
            let get = |k: &str| -> mlua::Result<LuaValue> {
                opts.as_ref().map_or(Ok(LuaValue::Nil), |o| o.get(k))
            };
            let code = get("code")?.as_boolean().unwrap_or(true);
            let conversation = get("conversation")?.as_boolean().unwrap_or(false);
            let (all, listed) = overwrite_choice(get("overwrite")?)?;
            let (dir, session, cwd) = where_stored(&h)
                .ok_or_else(|| mlua::Error::external(crate::t!("pi.checkpoint.off")))?;
            let mut store =
                CheckpointStore::open(&dir, &session, &cwd, CheckpointSettings::default());
            let cp = store
                .checkpoints()
                .iter()
                .find(|c| c.id == id)
                .cloned()
                .ok_or_else(|| {
                    mlua::Error::external(crate::t!("pi.checkpoint.unknown", id = id.clone()))
                })?;
            let result = lua.create_table()?;
            if code {
                let plan = store
                    .plan(&id)
                    .unwrap_or_else(|| crate::checkpoint::RestorePlan {
                        checkpoint_id: id.clone(),
                        changes: Vec::new(),
                    });
                let report = store
                    .apply(&plan, &|p| all || listed.contains(p))
                    .map_err(|e| {
                        mlua::Error::external(crate::t!(
                            "pi.checkpoint.restore_failed",
                            error = e.to_string()
                        ))
                    })?;
                result.set("restored", report.restored)?;
                result.set("kept", report.kept)?;
            }
            if conversation {
                let entry = cp
                    .entry_id
                    .clone()
                    .ok_or_else(|| mlua::Error::external(crate::t!("pi.checkpoint.no_message")))?;
                h.view.push_action(ExtensionAction::NavigateTree {
                    target: entry,
                    summarize: false,
                    custom_instructions: None,
                    replace_instructions: false,
                    label: None,
                });
            }
            Ok(result)
        })?,
    )?;
    Ok(t)
}
