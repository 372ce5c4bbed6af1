//! The built-in tools' operations backed by Lua functions (`pi.createReadTool{operations}`
//! and friends). An operation the extension leaves out falls back to the local one.
//! Everything here runs on the extension host thread; a Lua `error(...)` becomes the
//! message the model reads.

use std::path::Path;
use std::time::Duration;

use mlua::{Function, Lua, Table, Value as LuaValue};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::agent::tool::ToolError;
use crate::lua::api::exec::LuaSignal;
use crate::lua::error::LuaFailure;
use crate::lua::tool_exec::error_text;
use crate::tools::bash::operations::{BashOperations, ExecRequest, LocalShell, SpawnContext};
use crate::tools::bash::process::{CommandEnd, Interruption, OutputSink};
use crate::tools::operations::{
    EditOperations, FileBytes, LocalFs, MAX_READ_BYTES, OperationError, ReadOperations,
    WriteOperations,
};

/// How often the sink gets a tick while a Lua `exec` runs.
const TICK_INTERVAL: Duration = Duration::from_millis(100);

/// File operations given as Lua functions; `None` means the local one.
#[derive(Clone, Default)]
pub struct LuaFileOps {
    /// `readFile(path) -> string`.
    pub read_file: Option<Function>,
    /// `writeFile(path, content)`.
    pub write_file: Option<Function>,
    /// `access(path)`, raising when the file cannot be used.
    pub access: Option<Function>,
    /// `mkdir(dir)`.
    pub mkdir: Option<Function>,
    /// `detectImageMimeType(path) -> string?`.
    pub detect_image_mime_type: Option<Function>,
}

impl LuaFileOps {
    /// Read the functions of an `operations` table (absent table: all local).
    pub fn from_table(ops: Option<&Table>) -> mlua::Result<Self> {
        let Some(ops) = ops else {
            return Ok(LuaFileOps::default());
        };
        Ok(LuaFileOps {
            read_file: ops.get("readFile")?,
            write_file: ops.get("writeFile")?,
            access: ops.get("access")?,
            mkdir: ops.get("mkdir")?,
            detect_image_mime_type: ops.get("detectImageMimeType")?,
        })
    }
}

fn path_arg(path: &Path) -> String {
    path.display().to_string()
}

/// Why a Lua file operation failed. The model reads it, so it stays English.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LuaOpError {
    /// The function raised an error.
    Raised(LuaFailure),
    /// `readFile` returned something other than a string.
    NotAString {
        /// The Lua type it returned.
        got: &'static str,
    },
}

impl std::fmt::Display for LuaOpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LuaOpError::Raised(cause) => write!(f, "{cause}"),
            LuaOpError::NotAString { got } => write!(
                f,
                "operations.readFile must return the file content as a string, got {got}"
            ),
        }
    }
}

impl std::error::Error for LuaOpError {}

/// `e` as the file tools report it.
fn for_tool(e: LuaOpError) -> OperationError {
    OperationError::extension(e)
}

/// Call `f(args...)`, keeping a raised error.
async fn call<R: mlua::FromLuaMulti>(
    f: &Function,
    args: impl mlua::IntoLuaMulti,
) -> Result<R, LuaOpError> {
    f.call_async::<R>(args)
        .await
        .map_err(|e| LuaOpError::Raised(LuaFailure::of(&e)))
}

/// The bytes of a `readFile` result, which must be a string.
fn bytes_of(value: LuaValue) -> Result<Vec<u8>, LuaOpError> {
    match value {
        LuaValue::String(s) => Ok(s.as_bytes().to_vec()),
        other => Err(LuaOpError::NotAString {
            got: other.type_name(),
        }),
    }
}

impl ReadOperations for LuaFileOps {
    async fn access(&self, path: &Path) -> Result<(), OperationError> {
        match &self.access {
            Some(f) => call::<()>(f, path_arg(path)).await.map_err(for_tool),
            None => ReadOperations::access(&LocalFs, path).await,
        }
    }

    async fn read_file(&self, path: &Path) -> Result<FileBytes, OperationError> {
        match &self.read_file {
            Some(f) => {
                let read = call(f, path_arg(path)).await.and_then(bytes_of);
                let mut bytes = read.map_err(for_tool)?;
                let cut = bytes.len() as u64 > MAX_READ_BYTES;
                bytes.truncate(MAX_READ_BYTES as usize);
                Ok(FileBytes { bytes, cut })
            }
            None => ReadOperations::read_file(&LocalFs, path).await,
        }
    }

    async fn detect_image_mime_type(&self, path: &Path, head: &[u8]) -> Option<String> {
        match &self.detect_image_mime_type {
            Some(f) => call::<Option<String>>(f, path_arg(path))
                .await
                .ok()
                .flatten()
                .filter(|m| !m.is_empty()),
            None => LocalFs.detect_image_mime_type(path, head).await,
        }
    }
}

impl WriteOperations for LuaFileOps {
    async fn mkdir(&self, dir: &Path) -> Result<(), OperationError> {
        match &self.mkdir {
            Some(f) => call::<()>(f, path_arg(dir)).await.map_err(for_tool),
            None => LocalFs.mkdir(dir).await,
        }
    }

    async fn write_file(&self, path: &Path, content: &str) -> Result<(), OperationError> {
        match &self.write_file {
            Some(f) => call::<()>(f, (path_arg(path), content.to_string()))
                .await
                .map_err(for_tool),
            None => WriteOperations::write_file(&LocalFs, path, content).await,
        }
    }
}

impl EditOperations for LuaFileOps {
    async fn access(&self, path: &Path) -> Result<(), OperationError> {
        match &self.access {
            Some(f) => call::<()>(f, path_arg(path)).await.map_err(for_tool),
            None => EditOperations::access(&LocalFs, path).await,
        }
    }

    async fn read_file(&self, path: &Path) -> Result<Vec<u8>, OperationError> {
        match &self.read_file {
            Some(f) => call(f, path_arg(path))
                .await
                .and_then(bytes_of)
                .map_err(for_tool),
            None => EditOperations::read_file(&LocalFs, path).await,
        }
    }

    async fn write_file(&self, path: &Path, content: &str) -> Result<(), OperationError> {
        WriteOperations::write_file(self, path, content).await
    }
}

/// Bash operations and spawn hook given as Lua functions.
#[derive(Clone)]
pub struct LuaBashOps {
    /// The Lua state, for building the tables handed to the functions.
    pub lua: Lua,
    /// `exec(command, cwd, {onData, signal, timeout, env}) -> {exitCode}`; `None` runs locally.
    pub exec: Option<Function>,
    /// `spawnHook({command, cwd, env}) -> {command, cwd, env}`.
    pub spawn_hook: Option<Function>,
    /// The local shell used without `exec`.
    pub local: LocalShell,
}

impl LuaBashOps {
    fn env_table(&self, env: &std::collections::HashMap<String, String>) -> mlua::Result<Table> {
        let t = self.lua.create_table()?;
        for (k, v) in env {
            t.set(k.as_str(), v.as_str())?;
        }
        Ok(t)
    }

    async fn run_hook(&self, hook: &Function, context: SpawnContext) -> mlua::Result<SpawnContext> {
        let input = self.lua.create_table()?;
        input.set("command", context.command.as_str())?;
        input.set("cwd", path_arg(&context.cwd))?;
        input.set("env", self.env_table(&context.env)?)?;
        let returned: Option<Table> = hook.call_async(input.clone()).await?;
        let out = returned.unwrap_or(input);
        let command: Option<String> = out.get("command")?;
        let cwd: Option<String> = out.get("cwd")?;
        let env = match out.get::<Option<Table>>("env")? {
            Some(t) => t
                .pairs::<String, LuaValue>()
                .filter_map(|pair| match pair {
                    Ok((k, LuaValue::String(v))) => Some(Ok((k, v.to_string_lossy()))),
                    Ok((k, LuaValue::Integer(n))) => Some(Ok((k, n.to_string()))),
                    Ok((k, LuaValue::Number(n))) => Some(Ok((k, n.to_string()))),
                    Ok(_) => None,
                    Err(e) => Some(Err(e)),
                })
                .collect::<mlua::Result<_>>()?,
            None => context.env,
        };
        Ok(SpawnContext {
            command: command.unwrap_or(context.command),
            cwd: cwd.map(Into::into).unwrap_or(context.cwd),
            env,
        })
    }

    async fn exec_lua(
        &self,
        exec: &Function,
        request: &ExecRequest<'_>,
        signal: &CancellationToken,
        sink: &mut (dyn OutputSink + Send),
    ) -> Result<CommandEnd, ToolError> {
        let (tx, mut rx) = mpsc::unbounded_channel::<Vec<u8>>();
        let prepared = (|| {
            let opts = self.lua.create_table()?;
            opts.set(
                "onData",
                self.lua.create_function(move |_, data: mlua::String| {
                    let _ = tx.send(data.as_bytes().to_vec());
                    Ok(())
                })?,
            )?;
            opts.set("signal", LuaSignal(signal.clone()))?;
            if let Some(timeout) = request.timeout {
                opts.set("timeout", timeout.as_secs_f64())?;
            }
            if let Some(env) = request.env {
                opts.set("env", self.env_table(env)?)?;
            }
            Ok::<_, mlua::Error>(opts)
        })();
        let opts = prepared.map_err(|e| ToolError::new(error_text(&e)))?;
        let run =
            exec.call_async::<LuaValue>((request.command.to_string(), path_arg(request.cwd), opts));
        tokio::pin!(run);
        let timeout = tokio::time::sleep(request.timeout.unwrap_or(Duration::MAX / 4));
        tokio::pin!(timeout);
        let mut ticker = tokio::time::interval(TICK_INTERVAL);
        let end = loop {
            tokio::select! {
                Some(chunk) = rx.recv() => sink.on_data(&chunk),
                result = &mut run => break exec_end(result),
                _ = signal.cancelled() => break Ok(CommandEnd::Interrupted(Interruption::Aborted)),
                _ = &mut timeout, if request.timeout.is_some() => {
                    break Ok(CommandEnd::Interrupted(Interruption::TimedOut))
                }
                _ = ticker.tick() => sink.on_tick(),
            }
        };
        while let Ok(chunk) = rx.try_recv() {
            sink.on_data(&chunk);
        }
        end
    }
}

/// How a Lua `exec` ended: `{exitCode = n}` (nil when killed), or an error; `"aborted"`
/// and `"timeout:<seconds>"` mean the command was stopped.
fn exec_end(result: mlua::Result<LuaValue>) -> Result<CommandEnd, ToolError> {
    match result {
        Ok(LuaValue::Table(t)) => {
            let code: Option<f64> = t
                .get("exitCode")
                .map_err(|e| ToolError::new(error_text(&e)))?;
            Ok(CommandEnd::Exited(code.map(|c| c as i32)))
        }
        Ok(LuaValue::Nil) => Ok(CommandEnd::Exited(None)),
        Ok(other) => Err(ToolError::new(format!(
            "operations.exec must return {{exitCode = number}}, got {}",
            other.type_name()
        ))),
        Err(e) => {
            let text = error_text(&e);
            if text == "aborted" {
                Ok(CommandEnd::Interrupted(Interruption::Aborted))
            } else if text.starts_with("timeout:") {
                Ok(CommandEnd::Interrupted(Interruption::TimedOut))
            } else {
                Err(ToolError::new(text))
            }
        }
    }
}

impl BashOperations for LuaBashOps {
    fn has_spawn_hook(&self) -> bool {
        self.spawn_hook.is_some()
    }

    fn base_env(&self) -> std::collections::HashMap<String, String> {
        self.local.base_env()
    }

    async fn spawn_hook(&self, context: SpawnContext) -> Result<SpawnContext, ToolError> {
        match &self.spawn_hook {
            Some(hook) => self
                .run_hook(hook, context)
                .await
                .map_err(|e| ToolError::new(format!("spawnHook failed: {}", error_text(&e)))),
            None => Ok(context),
        }
    }

    async fn exec(
        &self,
        request: &ExecRequest<'_>,
        signal: &CancellationToken,
        sink: &mut (dyn OutputSink + Send),
    ) -> Result<CommandEnd, ToolError> {
        match &self.exec {
            Some(exec) => self.exec_lua(exec, request, signal, sink).await,
            None => self.local.exec(request, signal, sink).await,
        }
    }
}
