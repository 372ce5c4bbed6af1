//! `pi.createReadTool`, `pi.createWriteTool`, `pi.createEditTool` and `pi.createBashTool`:
//! the built-in tools as tool definitions whose I/O goes through Lua `operations` (and,
//! for bash, a `spawnHook`). The definition has the built-in's name, description, schema
//! and prompt texts, and an `execute` that runs the built-in's own code on the extension
//! thread; pass it to `pi.registerTool` to replace the built-in, or call its `execute`
//! from your own tool.

use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

use mlua::{Function, Lua, Table, Value as LuaValue};
use serde_json::{Map, Value};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::agent::tool::{ToolContext, ToolError, ToolOutput, UpdateFn};
use crate::lua::api::exec::LuaSignal;
use crate::lua::convert::{to_json, to_lua};
use crate::lua::tool_ops::{LuaBashOps, LuaFileOps};
use crate::lua::vm::HostCtx;
use crate::tools::bash::bash_with;
use crate::tools::bash::operations::LocalShell;
use crate::tools::edit::{edit_with, prepare_edit_arguments};
use crate::tools::read::read_with;
use crate::tools::write::write_with;
use crate::tools::{ToolOptions, builtin_tool};

/// Which built-in a created tool runs, with its operations.
enum Kind {
    Read(LuaFileOps),
    Write(LuaFileOps),
    Edit(LuaFileOps),
    Bash {
        ops: LuaBashOps,
        command_prefix: Option<String>,
    },
}

/// Add the four `create*Tool` functions to `pi`. Made with pi's own file access or
/// shell (no `operations`), they need the extension to have declared `fs.read` /
/// `fs.write` of their folder, or `exec` of `bash`.
pub fn add_tool_factories(
    lua: &Lua,
    host: &Rc<HostCtx>,
    guard: &Rc<crate::lua::capabilities::guard::Guard>,
    pi: &Table,
) -> mlua::Result<()> {
    for (function, tool) in [
        ("createReadTool", "read"),
        ("createWriteTool", "write"),
        ("createEditTool", "edit"),
        ("createBashTool", "bash"),
    ] {
        let h = host.clone();
        let g = guard.clone();
        pi.set(
            function,
            lua.create_function(move |lua, (first, second): (LuaValue, LuaValue)| {
                // `(cwd, options)` as in pi's TypeScript API, or just `(options)`.
                let (cwd, options) = match first {
                    LuaValue::String(s) => (Some(PathBuf::from(s.to_str()?.to_string())), second),
                    other => (None, other),
                };
                let options = match options {
                    LuaValue::Table(t) => Some(t),
                    LuaValue::Nil => None,
                    other => {
                        return Err(mlua::Error::runtime(format!(
                            "{function}: options must be a table, got {}",
                            other.type_name()
                        )));
                    }
                };
                let own_ops = match &options {
                    Some(o) => o.get::<Option<Table>>("operations")?,
                    None => None,
                };
                let folder = cwd
                    .as_ref()
                    .map_or_else(|| ".".to_string(), |c| c.display().to_string());
                match (tool, &own_ops) {
                    ("read", None) => g.read(&folder).map(|_| ())?,
                    ("write" | "edit", None) => g.write(&folder).map(|_| ())?,
                    ("bash", ops)
                        if ops
                            .as_ref()
                            .is_none_or(|o| !o.contains_key("exec").unwrap_or(false)) =>
                    {
                        g.exec("bash")?
                    }
                    _ => {}
                }
                let kind = kind_of(lua, tool, options.as_ref())?;
                definition(lua, &h, tool, kind, cwd)
            })?,
        )?;
    }
    Ok(())
}

/// The operations of `options` for the tool `tool`.
fn kind_of(lua: &Lua, tool: &str, options: Option<&Table>) -> mlua::Result<Kind> {
    let ops: Option<Table> = match options {
        Some(o) => o.get("operations")?,
        None => None,
    };
    Ok(match tool {
        "read" => Kind::Read(LuaFileOps::from_table(ops.as_ref())?),
        "write" => Kind::Write(LuaFileOps::from_table(ops.as_ref())?),
        "edit" => Kind::Edit(LuaFileOps::from_table(ops.as_ref())?),
        _ => {
            let field = |key: &str| -> mlua::Result<Option<LuaValue>> {
                options
                    .map(|o| o.get::<Option<LuaValue>>(key))
                    .transpose()
                    .map(Option::flatten)
            };
            let spawn_hook = match field("spawnHook")? {
                Some(LuaValue::Function(f)) => Some(f),
                None => None,
                Some(other) => {
                    return Err(mlua::Error::runtime(format!(
                        "createBashTool: spawnHook must be a function, got {}",
                        other.type_name()
                    )));
                }
            };
            let string = |key: &str| -> mlua::Result<Option<String>> {
                match field(key)? {
                    Some(LuaValue::String(s)) => Ok(Some(s.to_str()?.to_string())),
                    _ => Ok(None),
                }
            };
            Kind::Bash {
                ops: LuaBashOps {
                    lua: lua.clone(),
                    exec: match &ops {
                        Some(o) => o.get("exec")?,
                        None => None,
                    },
                    spawn_hook,
                    local: LocalShell {
                        shell_path: string("shellPath")?.map(PathBuf::from),
                        path_prefix: None,
                    },
                },
                command_prefix: string("commandPrefix")?,
            }
        }
    })
}

/// The tool definition table for `tool`.
fn definition(
    lua: &Lua,
    host: &Rc<HostCtx>,
    tool: &'static str,
    kind: Kind,
    cwd: Option<PathBuf>,
) -> mlua::Result<Table> {
    let builtin = builtin_tool(tool, &ToolOptions::default())
        .ok_or_else(|| mlua::Error::runtime(format!("no built-in tool {tool}")))?;
    let def = lua.create_table()?;
    def.set("name", builtin.name())?;
    def.set("label", builtin.label())?;
    def.set("description", builtin.description())?;
    def.set("parameters", to_lua(lua, &builtin.parameters())?)?;
    if let Some(snippet) = builtin.prompt_snippet() {
        def.set("promptSnippet", snippet)?;
    }
    def.set("promptGuidelines", builtin.prompt_guidelines())?;
    if tool == "edit" {
        def.set(
            "prepareArguments",
            lua.create_function(|lua, args: LuaValue| {
                to_lua(lua, &prepare_edit_arguments(to_json(lua, args)?))
            })?,
        )?;
    }
    let kind = Rc::new(kind);
    let host = host.clone();
    def.set(
        "execute",
        lua.create_async_function(
            move |lua,
                  (_id, params, signal, on_update, ctx): (
                LuaValue,
                LuaValue,
                LuaValue,
                Option<Function>,
                LuaValue,
            )| {
                let kind = kind.clone();
                let host = host.clone();
                let cwd = cwd.clone();
                async move {
                    let cwd = match (cwd, &ctx) {
                        (Some(cwd), _) => cwd,
                        (None, LuaValue::Table(t)) if t.contains_key("cwd")? => {
                            PathBuf::from(t.get::<String>("cwd")?)
                        }
                        _ => host.view.lock().cwd.clone(),
                    };
                    let token = match &signal {
                        LuaValue::UserData(ud) => ud.borrow::<LuaSignal>()?.0.clone(),
                        _ => CancellationToken::new(),
                    };
                    let args = to_json(&lua, params)?;
                    let (tx, rx) = mpsc::unbounded_channel::<ToolOutput>();
                    let tool_ctx = ToolContext {
                        cwd,
                        signal: token,
                        on_update: on_update.is_some().then(|| {
                            Arc::new(move |partial: ToolOutput| {
                                let _ = tx.send(partial);
                            }) as UpdateFn
                        }),
                    };
                    let run = run_kind(&kind, args, &tool_ctx);
                    match forward_updates(&lua, run, rx, on_update.as_ref()).await {
                        Ok(output) => output_to_lua(&lua, &output),
                        Err(e) => Err(mlua::Error::runtime(e.message)),
                    }
                }
            },
        )?,
    )?;
    Ok(def)
}

/// Run the built-in behind `kind`.
async fn run_kind(kind: &Kind, args: Value, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
    match kind {
        Kind::Read(ops) => read_with(ops, &args, ctx, true).await,
        Kind::Write(ops) => write_with(ops, &args, ctx).await,
        Kind::Edit(ops) => edit_with(ops, args, ctx).await,
        Kind::Bash {
            ops,
            command_prefix,
        } => bash_with(ops, command_prefix.as_deref(), &args, ctx).await,
    }
}

/// Await `run`, handing each partial result to the Lua `onUpdate` as it arrives.
async fn forward_updates(
    lua: &Lua,
    run: impl Future<Output = Result<ToolOutput, ToolError>>,
    mut updates: mpsc::UnboundedReceiver<ToolOutput>,
    on_update: Option<&Function>,
) -> Result<ToolOutput, ToolError> {
    tokio::pin!(run);
    let deliver = |partial: ToolOutput| {
        if let Some(f) = on_update
            && let Ok(value) = output_to_lua(lua, &partial)
        {
            let _ = f.call::<()>(value);
        }
    };
    let result = loop {
        tokio::select! {
            Some(partial) = updates.recv() => deliver(partial),
            result = &mut run => break result,
        }
    };
    while let Ok(partial) = updates.try_recv() {
        deliver(partial);
    }
    result
}

/// `{content = {...}, details = {...}}` for Lua.
fn output_to_lua(lua: &Lua, output: &ToolOutput) -> mlua::Result<Table> {
    let mut map = Map::new();
    map.insert(
        "content".into(),
        serde_json::to_value(&output.content).map_err(mlua::Error::external)?,
    );
    let table = match to_lua(lua, &Value::Object(map))? {
        LuaValue::Table(t) => t,
        _ => lua.create_table()?,
    };
    if let Some(details) = &output.details {
        table.set("details", to_lua(lua, details)?)?;
    }
    Ok(table)
}
