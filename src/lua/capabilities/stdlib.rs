//! The guarded standard library of an extension's environment: its own `io`, `os`,
//! `load`, `loadfile`, `dofile`, `package` and `_G`, each asking the extension's guard
//! before it touches a file, runs a program or reads a variable. The VM's globals lose
//! `debug`, `package.loadlib` and the C module searchers once, for every extension.

use std::path::Path;
use std::rc::Rc;

use mlua::{Lua, Table};

use crate::lua::capabilities::guard::{Guard, native_code};

/// The Lua side of the guarded environment.
const ENV_LUA: &str = include_str!("../../../runtime-lua/extension_env.lua");

/// Registry key of the standard functions as they were when the VM started.
const PRISTINE: &str = "pi.capabilities.pristine";

/// Keep the standard functions as they are now (after the prelude) for every guarded
/// environment, and take native code and `debug` out of the globals.
pub fn seal_globals(lua: &Lua) -> mlua::Result<()> {
    let pristine: Table = lua
        .load(
            r#"
            local function copy(t) local c = {} for k, v in pairs(t) do c[k] = v end return c end
            local kept = { io = copy(io), os = copy(os), load = load, loadfile = loadfile,
                           dofile = dofile, package_config = package and package.config }
            debug = nil
            if package then
              package.loadlib = nil
              package.cpath = ""
              package.loaded.debug = nil
              -- Keep the preload and Lua-file searchers; drop the C ones.
              if package.searchers then
                for i = #package.searchers, 3, -1 do table.remove(package.searchers, i) end
              end
            end
            return kept
            "#,
        )
        .set_name("=capabilities")
        .set_mode(mlua::ChunkMode::Text)
        .eval()?;
    lua.set_named_registry_value(PRISTINE, pristine)
}

/// Give `env` the guarded standard library of the extension `guard` belongs to; a
/// limited extension's environment is sealed as well (`_G` is the environment itself,
/// its metatable hidden, loaded chunks run in it). `PI_CODING_AGENT_DIR` reads as
/// `agent_dir`, so it always agrees with `pi.agentDir` (`pi test` gives each test its own).
pub fn install(lua: &Lua, env: &Table, guard: &Rc<Guard>, agent_dir: &Path) -> mlua::Result<()> {
    let check = lua.create_table()?;
    check.set("agent_dir", agent_dir.to_string_lossy().into_owned())?;
    for (name, check_path) in [
        (
            "read",
            Guard::read as fn(&Guard, &str) -> mlua::Result<std::path::PathBuf>,
        ),
        ("write", Guard::write),
    ] {
        let g = guard.clone();
        check.set(
            name,
            lua.create_function(move |_, path: String| {
                let full = check_path(&g, &path)?;
                // An unrestricted extension opens the path as it wrote it.
                Ok(if g.is_unrestricted() {
                    path
                } else {
                    full.to_string_lossy().into_owned()
                })
            })?,
        )?;
    }
    let g = guard.clone();
    check.set("tmp", lua.create_function(move |_, ()| g.temp())?)?;
    let g = guard.clone();
    check.set(
        "exec",
        lua.create_function(move |_, program: String| g.exec(&program))?,
    )?;
    let g = guard.clone();
    check.set(
        "env",
        lua.create_function(move |_, name: String| g.env(&name))?,
    )?;
    let name = guard.name.clone();
    check.set(
        "native",
        lua.create_function(move |_, what: String| -> mlua::Result<()> {
            Err(native_code(&name, &what))
        })?,
    )?;
    let pristine: Table = lua.named_registry_value(PRISTINE)?;
    let sealed = !guard.is_unrestricted();
    lua.load(ENV_LUA)
        .set_name("@runtime-lua/extension_env.lua")
        .set_mode(mlua::ChunkMode::Text)
        .call::<()>((env.clone(), pristine, check, sealed))?;
    // A limited extension cannot reach the globals behind its environment.
    if sealed && let Some(meta) = env.metatable() {
        meta.set("__metatable", false)?;
    }
    Ok(())
}
