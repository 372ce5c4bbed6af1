//! Lazy activation: an extension file that returns
//! `{ setup = function(pi) … end, activate = { commands, tools, events, flags, fileTypes } }`
//! is not set up at start. Its declared commands and tools are listed (tool schemas
//! included) from the spec; the first use of one of them, a declared event, a declared
//! flag on the command line or a `read` of a declared file type runs `setup` and then
//! hands the use on to what it registered. Keys the host does not know are ignored.

use std::path::Path;
use std::rc::Rc;
use std::time::Instant;

use mlua::{Function, Table, Value as LuaValue};
use serde_json::Value;

use crate::lua::convert::to_json;
use crate::lua::registry::{CommandInfo, ToolInfo};
use crate::lua::vm::Vm;
use crate::t;

/// A lazy extension's declaration, kept until it is set up.
pub struct LazySpec {
    /// Index of the extension.
    pub ext: usize,
    /// Its `setup(pi)`.
    pub setup: Function,
    /// The `pi.state` it gets when it is set up.
    pub state: Value,
    /// Commands it will register, listed before it loads.
    pub commands: Vec<CommandInfo>,
    /// Tools it will register, with their schemas, listed before it loads.
    pub tools: Vec<ToolInfo>,
    /// Events that load it.
    pub events: Vec<String>,
    /// Command-line flags (without `--`) that load it at start.
    pub flags: Vec<String>,
    /// File extensions (without the dot, lower case) whose `read` loads it.
    pub file_types: Vec<String>,
    /// Set once `setup` ran (or failed); later triggers wait on the first.
    pub once: Rc<tokio::sync::OnceCell<()>>,
}

impl LazySpec {
    /// Whether it still waits for its first trigger.
    pub fn pending(&self) -> bool {
        !self.once.initialized()
    }
}

/// The event a `fileTypes` trigger listens on.
pub const FILE_TYPE_EVENT: &str = "tool_call";

fn strings(list: Option<Table>, what: &str) -> mlua::Result<Vec<String>> {
    let Some(list) = list else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for item in list.sequence_values::<LuaValue>() {
        match item? {
            LuaValue::String(s) => out.push(s.to_str()?.to_string()),
            LuaValue::Table(t) => out.push(t.get::<String>("name")?),
            other => {
                return Err(mlua::Error::runtime(t!(
                    "pi.ext.activate_bad_entry",
                    list = what,
                    kind = other.type_name()
                )));
            }
        }
    }
    Ok(out)
}

fn commands(list: Option<Table>, path: &Path) -> mlua::Result<Vec<CommandInfo>> {
    let Some(list) = list else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for item in list.sequence_values::<LuaValue>() {
        let (name, description) = match item? {
            LuaValue::String(s) => (s.to_str()?.to_string(), None),
            LuaValue::Table(t) => (t.get::<String>("name")?, t.get("description")?),
            other => {
                return Err(mlua::Error::runtime(t!(
                    "pi.ext.activate_bad_entry",
                    list = "commands",
                    kind = other.type_name()
                )));
            }
        };
        out.push(CommandInfo {
            name: name.trim_start_matches('/').to_string(),
            description,
            extension: path.to_path_buf(),
        });
    }
    Ok(out)
}

fn tools(lua: &mlua::Lua, list: Option<Table>, path: &Path) -> mlua::Result<Vec<ToolInfo>> {
    let Some(list) = list else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for item in list.sequence_values::<LuaValue>() {
        let LuaValue::Table(t) = item? else {
            return Err(mlua::Error::runtime(t!("pi.ext.activate_tool_shape")));
        };
        let name: Option<String> = t.get("name")?;
        let description: Option<String> = t.get("description")?;
        let parameters: LuaValue = t.get("parameters")?;
        let (Some(name), Some(description), LuaValue::Table(_)) = (name, description, &parameters)
        else {
            return Err(mlua::Error::runtime(t!("pi.ext.activate_tool_shape")));
        };
        out.push(ToolInfo {
            label: t.get::<Option<String>>("label")?.unwrap_or(name.clone()),
            name,
            description,
            parameters: to_json(lua, parameters)?,
            prompt_snippet: None,
            prompt_guidelines: Vec::new(),
            execution_mode: None,
            extension: path.to_path_buf(),
            has_prepare: false,
            defined_at: None,
        });
    }
    Ok(out)
}

/// Read the `activate` table of a spec; `None` when it declares no trigger (the
/// extension is then set up at once, like one that returns a function).
pub fn parse(
    vm: &Vm,
    ext: usize,
    setup: Function,
    activate: Option<Table>,
    state: &Value,
) -> mlua::Result<Option<LazySpec>> {
    let Some(activate) = activate else {
        return Ok(None);
    };
    let lua = &vm.lua;
    let path = vm.host.reg.borrow().extensions[ext].path.clone();
    let spec = LazySpec {
        ext,
        setup,
        state: state.clone(),
        commands: commands(activate.get("commands")?, &path)?,
        tools: tools(lua, activate.get("tools")?, &path)?,
        events: strings(activate.get("events")?, "events")?,
        flags: strings(activate.get("flags")?, "flags")?
            .into_iter()
            .map(|f| f.trim_start_matches('-').to_string())
            .collect(),
        file_types: strings(activate.get("fileTypes")?, "fileTypes")?
            .into_iter()
            .map(|f| f.trim_start_matches('.').to_ascii_lowercase())
            .collect(),
        once: Rc::new(tokio::sync::OnceCell::new()),
    };
    let empty = spec.commands.is_empty()
        && spec.tools.is_empty()
        && spec.events.is_empty()
        && spec.flags.is_empty()
        && spec.file_types.is_empty();
    Ok((!empty).then_some(spec))
}

/// Keep `spec` and make its events reach the host.
pub fn store(vm: &Vm, spec: LazySpec) {
    for event in &spec.events {
        vm.host.mark_subscribed(event);
    }
    if !spec.file_types.is_empty() {
        vm.host.mark_subscribed(FILE_TYPE_EVENT);
    }
    let mut reg = vm.host.reg.borrow_mut();
    if let Some(info) = reg.extensions.get_mut(spec.ext) {
        info.measured.lazy = true;
    }
    reg.lazy.push(spec);
}

/// Set up the lazy extension at `index` of the lazy list, once; every caller waits
/// for the first.
async fn activate(vm: &Vm, index: usize) {
    let Some((ext, setup, state, once)) = vm
        .host
        .reg
        .borrow()
        .lazy
        .get(index)
        .map(|s| (s.ext, s.setup.clone(), s.state.clone(), s.once.clone()))
    else {
        return;
    };
    once.get_or_init(|| run_setup(vm, ext, setup, state)).await;
}

async fn run_setup(vm: &Vm, ext: usize, setup: Function, state: Value) {
    let started = Instant::now();
    let memory = vm.lua.used_memory();
    let result = async {
        let pi = crate::lua::api::build_pi(vm, ext, &state)?;
        vm.host.budget.reset();
        setup.call_async::<()>(pi).await
    }
    .await;
    crate::lua::profile::record_load(vm, ext, started.elapsed(), memory);
    match result {
        Ok(()) => {
            if let Some(info) = vm.host.reg.borrow_mut().extensions.get_mut(ext) {
                info.measured.loaded = true;
            }
        }
        Err(e) => {
            let failure = crate::lua::loader::error_message(vm, e);
            crate::lua::loader::remove_registrations(vm, ext);
            let path = vm.host.reg.borrow().extensions[ext].path.clone();
            crate::lua::loader::fail(vm, ext, &path, &failure);
        }
    }
    // The spec's own events stop counting once it is set up.
    let events = vm.host.reg.borrow().subscribed_events();
    if let Ok(mut s) = vm.host.subscribed.write() {
        *s = events;
    }
}

/// Set up every pending extension for which `wanted` holds.
async fn activate_where(vm: &Vm, wanted: impl Fn(&LazySpec) -> bool) {
    let indexes: Vec<usize> = vm
        .host
        .reg
        .borrow()
        .lazy
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.once.initialized() && wanted(s))
        .map(|(i, _)| i)
        .collect();
    for index in indexes {
        activate(vm, index).await;
    }
}

/// Before `/name` runs (or completes): set up the extension that declared it.
pub async fn for_command(vm: &Vm, name: &str) {
    if vm.host.reg.borrow().commands.contains_key(name) {
        return;
    }
    activate_where(vm, |s| s.commands.iter().any(|c| c.name == name)).await;
}

/// Before tool `name` runs: set up the extension that declared it.
pub async fn for_tool(vm: &Vm, name: &str) {
    if vm.host.reg.borrow().tools.contains_key(name) {
        return;
    }
    activate_where(vm, |s| s.tools.iter().any(|t| t.name == name)).await;
}

/// Before `event` is dispatched: set up the extensions that declared it, and for a
/// `read` call those that declared the type of the file it reads.
pub async fn for_event(vm: &Vm, event: &str, payload: &Value) {
    let file_type = (event == FILE_TYPE_EVENT
        && payload.get("toolName").and_then(Value::as_str) == Some("read"))
    .then(|| {
        let path = payload.pointer("/input/path").and_then(Value::as_str)?;
        Path::new(path)
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
    })
    .flatten();
    activate_where(vm, |s| {
        s.events.iter().any(|e| e == event)
            || file_type
                .as_ref()
                .is_some_and(|ft| s.file_types.contains(ft))
    })
    .await;
}

/// At start: set up the extensions whose declared flag was given.
pub async fn for_flags(vm: &Vm) {
    let given: Vec<String> = vm.host.cli_flags.iter().map(|(n, _)| n.clone()).collect();
    activate_where(vm, |s| s.flags.iter().any(|f| given.contains(f))).await;
}
