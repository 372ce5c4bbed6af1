//! Loading one extension: its own environment, a `require` confined to its
//! folder, the factory call, and `file:line` errors.

use crate::t;
use std::path::{Component, Path, PathBuf};

use mlua::{Function, Lua, Table, Value as LuaValue};
use serde_json::Value;

use std::rc::Rc;

use crate::lua::api::build_pi;
use crate::lua::capabilities::guard::Guard;
use crate::lua::error::LuaFailure;
use crate::lua::registry::ExtensionInfo;
use crate::lua::vm::Vm;

/// Standard modules `require` may still return.
const STD_MODULES: [&str; 7] = ["string", "table", "math", "utf8", "os", "io", "coroutine"];

/// A `require` of a module outside the extension's folder.
#[derive(Debug, Clone, PartialEq, Eq)]
struct OutsideFolder {
    /// The module name given to `require`.
    name: String,
    /// The extension's folder.
    dir: PathBuf,
}

impl std::fmt::Display for OutsideFolder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&t!(
            "pi.ext.require_outside",
            name = self.name.as_str(),
            dir = self.dir.display().to_string()
        ))
    }
}

/// Resolve `name` (dots as separators) to `name.lua` or `name/init.lua`
/// under `dir`. `Err` when the name or a link leads outside `dir`.
fn module_path(dir: &Path, name: &str) -> Result<Option<PathBuf>, OutsideFolder> {
    let outside = || OutsideFolder {
        name: name.to_string(),
        dir: dir.to_path_buf(),
    };
    if name.starts_with('/') || name.contains("..") {
        return Err(outside());
    }
    let rel = PathBuf::from(name.replace('.', "/"));
    if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
        return Err(outside());
    }
    let file = dir.join(&rel).with_extension("lua");
    let init = dir.join(rel).join("init.lua");
    let Some(found) = [file, init].into_iter().find(|p| p.is_file()) else {
        return Ok(None);
    };
    let root = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    match std::fs::canonicalize(&found) {
        Ok(real) if real.starts_with(&root) => Ok(Some(found)),
        _ => Err(outside()),
    }
}

pub(crate) fn load_file(lua: &Lua, path: &Path, env: &Table) -> mlua::Result<Function> {
    let source = std::fs::read(path).map_err(|e| {
        mlua::Error::runtime(t!(
            "pi.ext.cannot_read",
            path = path.display().to_string(),
            error = crate::i18n::config_words::io_reason(&e)
        ))
    })?;
    lua.load(source)
        .set_mode(mlua::ChunkMode::Text)
        .set_name(format!("@{}", path.display()))
        .set_environment(env.clone())
        .into_function()
}

/// The native library `name` would load from `dir` (`name.so`, `.dylib`, `.dll`), if
/// one is there.
fn native_module(dir: &Path, name: &str) -> Option<String> {
    let rel = name.replace('.', "/");
    ["so", "dylib", "dll"]
        .iter()
        .map(|ext| dir.join(format!("{rel}.{ext}")))
        .find(|p| p.is_file())
        .and_then(|p| p.file_name().map(|f| f.to_string_lossy().into_owned()))
}

/// A `require` that loads sibling modules of the extension into its environment.
/// The environment and the module cache live in Lua upvalues, not in the Rust
/// closure, so the garbage collector can free an extension that is dropped.
fn make_require(lua: &Lua, dir: PathBuf, env: Table, ext_name: String) -> mlua::Result<Function> {
    let cache = lua.create_table()?;
    let load_module =
        lua.create_function(move |lua, (env, cache, name): (Table, Table, String)| {
            if let Some(v) = cache.get::<Option<LuaValue>>(name.as_str())? {
                return Ok(v);
            }
            if let Some(m) = crate::lua::ui::lib::builtin_module(lua, &name)? {
                return Ok(m);
            }
            if STD_MODULES.contains(&name.as_str()) {
                return env.get::<LuaValue>(name.as_str());
            }
            let outside = |e: OutsideFolder| mlua::Error::runtime(e.to_string());
            let Some(path) = module_path(&dir, &name).map_err(outside)? else {
                if let Some(native) = native_module(&dir, &name) {
                    return Err(crate::lua::capabilities::guard::native_code(
                        &ext_name,
                        &format!("require({name:?}) ({native})"),
                    ));
                }
                return Err(mlua::Error::runtime(t!(
                    "pi.ext.module_not_found",
                    name = name.as_str(),
                    dir = dir.display().to_string()
                )));
            };
            let chunk = load_file(lua, &path, &env)?;
            let value = match chunk.call::<LuaValue>(name.as_str())? {
                LuaValue::Nil => LuaValue::Boolean(true),
                v => v,
            };
            cache.set(name.as_str(), value.clone())?;
            Ok(value)
        })?;
    lua.load("local load_module, env, cache = ...\nreturn function(name) return load_module(env, cache, name) end")
        .set_name("=require")
        .set_mode(mlua::ChunkMode::Text)
        .call((load_module, env, cache))
}

/// Load the extension at `path` as number `ext`: run the file, then await its
/// factory with a fresh `pi` (or keep its lazy spec). Errors carry `file:line` (Lua's
/// traceback left out), and are reported.
pub async fn load_extension(vm: &Vm, path: &Path, state: &Value) -> Result<(), LuaFailure> {
    crate::lua::api::i18n::forget_bundles(path);
    let ext = {
        let mut reg = vm.host.reg.borrow_mut();
        reg.extensions.push(ExtensionInfo::new(path.to_path_buf()));
        reg.extensions.len() - 1
    };
    let started = std::time::Instant::now();
    let memory = vm.lua.used_memory();
    let result = run_factory(vm, ext, path, state).await;
    crate::lua::profile::record_load(vm, ext, started.elapsed(), memory);
    match result {
        Ok(()) => Ok(()),
        Err(e) => {
            remove_registrations(vm, ext);
            let failure = error_message(vm, e);
            fail(vm, ext, path, &failure);
            Err(failure)
        }
    }
}

/// The failure of a load (`file:line` in front); a memory error frees what it can first.
pub(crate) fn error_message(vm: &Vm, e: mlua::Error) -> LuaFailure {
    let failure = LuaFailure::at(&e);
    if failure.is_out_of_memory() {
        let _ = vm.lua.gc_collect();
    }
    failure
}

/// Mark extension `ext` failed with `failure` and tell the user.
pub(crate) fn fail(vm: &Vm, ext: usize, path: &Path, failure: &LuaFailure) {
    crate::lua::api::i18n::forget_bundles(path);
    let message = failure.to_string();
    if let Some(info) = vm.host.reg.borrow_mut().extensions.get_mut(ext) {
        info.measured.failed = true;
        info.measured.last_error = Some(message.clone());
    }
    vm.host.view.report(format!(
        "Extension error: {}",
        t!(
            "pi.ext.load_failed",
            path = path.display().to_string(),
            error = message
        )
    ));
}

/// A fresh environment for the extension at `path`: its own guarded standard
/// library and a `require` confined to its folder, the VM's globals behind them.
/// Its `os.getenv("PI_CODING_AGENT_DIR")` is `agent_dir`, the folder `pi.agentDir` names.
pub(crate) fn extension_env(
    lua: &Lua,
    path: &Path,
    guard: &Rc<Guard>,
    agent_dir: &Path,
) -> mlua::Result<Table> {
    let env = lua.create_table()?;
    let meta = lua.create_table()?;
    meta.set("__index", lua.globals())?;
    env.set_metatable(Some(meta))?;
    let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    env.set(
        "require",
        make_require(lua, dir, env.clone(), guard.name.clone())?,
    )?;
    crate::lua::capabilities::stdlib::install(lua, &env, guard, agent_dir)?;
    Ok(env)
}

async fn run_factory(vm: &Vm, ext: usize, path: &Path, state: &Value) -> mlua::Result<()> {
    let lua = &vm.lua;
    let guard = {
        let mut reg = vm.host.reg.borrow_mut();
        let info = &mut reg.extensions[ext];
        info.guard = Guard::unrestricted(&info.name, &vm.host.cwd);
        info.guard.clone()
    };
    let prepared =
        crate::lua::capabilities::load::prepare(&guard, path, &vm.host.cwd, &vm.host.agent_dir)?;
    let env = extension_env(lua, path, &guard, &vm.host.agent_dir)?;
    let chunk = load_file(lua, path, &env)?;
    vm.host.budget.reset();
    let factory = match chunk.call_async::<LuaValue>(()).await? {
        LuaValue::Function(f) => {
            crate::lua::capabilities::load::settle(&guard, prepared, None)?;
            f
        }
        // A spec table: `setup`, optional `activate` triggers and `capabilities`;
        // other keys are left for later versions.
        LuaValue::Table(spec) => {
            let declared = crate::lua::capabilities::load::of_spec(lua, &spec)?;
            crate::lua::capabilities::load::settle(&guard, prepared, declared)?;
            let Some(setup) = spec.get::<Option<Function>>("setup")? else {
                return Err(mlua::Error::runtime(t!("pi.ext.spec_without_setup")));
            };
            let activate: Option<Table> = spec.get("activate")?;
            match crate::lua::lazy::parse(vm, ext, setup.clone(), activate, state)? {
                Some(lazy) => {
                    crate::lua::lazy::store(vm, lazy);
                    return Ok(());
                }
                None => setup,
            }
        }
        other => {
            return Err(mlua::Error::runtime(t!(
                "pi.ext.bad_factory",
                kind = other.type_name()
            )));
        }
    };
    let pi = build_pi(vm, ext, state)?;
    vm.host.budget.reset();
    factory.call_async::<()>(pi).await?;
    if let Some(info) = vm.host.reg.borrow_mut().extensions.get_mut(ext) {
        info.measured.loaded = true;
    }
    Ok(())
}

/// Forget everything extension `ext` registered before it failed.
pub(crate) fn remove_registrations(vm: &Vm, ext: usize) {
    let mut reg = vm.host.reg.borrow_mut();
    reg.remove_extension(ext);
    let providers: Vec<String> = reg.providers.iter().map(|(n, _)| n.clone()).collect();
    let events = reg.subscribed_events();
    drop(reg);
    vm.host
        .view
        .lock()
        .providers
        .retain(|(n, _)| providers.contains(n));
    if let Ok(mut s) = vm.host.subscribed.write() {
        *s = events;
    }
}
