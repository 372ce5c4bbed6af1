//! `pi.spawn`: start a program and stream its output to Lua line by line (or in
//! raw chunks), with a stdin that stays writable when asked for. Callbacks run on
//! the extension thread; every process still running is killed (with its process
//! group) on `/reload` and when pi quits.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::process::Stdio;
use std::rc::Rc;

use mlua::{Function, IntoLuaMulti, Lua, Table, Value as LuaValue, WeakLua};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;

use crate::lua::api::exec::LuaSignal;
use crate::lua::vm::HostCtx;

/// Registry table holding each process's callbacks, by id.
const CALLBACKS_KEY: &str = "pi.spawn.callbacks";

/// Output kept for `wait()` per stream; callbacks still see every line.
const MAX_COLLECTED: usize = 4 * 1024 * 1024;
/// The longest line handed to `onStdout`/`onStderr` in one piece.
const MAX_LINE: usize = 1024 * 1024;
/// The largest chunk handed to `onStdout`/`onStderr` in raw mode.
const MAX_CHUNK: usize = 64 * 1024;

/// How a process ended.
#[derive(Clone, Debug, Default)]
struct Outcome {
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    killed: bool,
}

/// One started process, shared by its driver task and its Lua handle.
struct Proc {
    pid: Option<u32>,
    killed: Cell<bool>,
    stop: CancellationToken,
    outcome: RefCell<Option<Outcome>>,
    done: watch::Sender<bool>,
    /// Queue of bytes for the program's stdin while it is open.
    stdin: RefCell<Option<mpsc::UnboundedSender<Vec<u8>>>>,
}

impl Proc {
    /// Kill the process group now (synchronously) unless it already ended.
    fn kill(&self) {
        if self.outcome.borrow().is_some() || self.killed.get() {
            return;
        }
        self.killed.set(true);
        self.stdin.borrow_mut().take();
        if let Some(pid) = self.pid {
            crate::tools::bash::process::kill_process_group(pid);
        }
        self.stop.cancel();
    }
}

/// The processes a VM started and that are still running.
#[derive(Default)]
pub struct Processes {
    running: RefCell<HashMap<u64, Rc<Proc>>>,
    next: Cell<u64>,
}

impl Processes {
    /// Kill every running process (used on reload and quit).
    pub fn kill_all(&self) {
        let procs: Vec<Rc<Proc>> = self.running.borrow().values().cloned().collect();
        for p in procs {
            p.kill();
        }
    }

    /// How many started processes have not ended yet.
    pub fn running(&self) -> usize {
        self.running.borrow().len()
    }
}

/// What the program reads on stdin.
enum Stdin {
    /// Nothing (`/dev/null`).
    Null,
    /// This text, then end of input.
    Text(Vec<u8>),
    /// A pipe that stays open for `write()` until `closeStdin()`.
    Open,
}

/// Options of `pi.spawn(cmd, args, opts)`.
struct SpawnOptions {
    cwd: Option<String>,
    env: Vec<(String, Option<String>)>,
    stdin: Stdin,
    /// Hand output over in raw chunks instead of lines.
    raw: bool,
    signal: Option<CancellationToken>,
    callbacks: Table,
}

fn spawn_options(lua: &Lua, opts: Option<Table>) -> mlua::Result<SpawnOptions> {
    let callbacks = lua.create_table()?;
    let Some(t) = opts else {
        return Ok(SpawnOptions {
            cwd: None,
            env: Vec::new(),
            stdin: Stdin::Null,
            raw: false,
            signal: None,
            callbacks,
        });
    };
    for name in ["onStdout", "onStderr", "onExit"] {
        match t.get::<LuaValue>(name)? {
            LuaValue::Nil => {}
            LuaValue::Function(f) => callbacks.set(name, f)?,
            other => {
                return Err(mlua::Error::runtime(format!(
                    "pi.spawn: option \"{name}\" must be a function, got {}",
                    other.type_name()
                )));
            }
        }
    }
    let mut env = Vec::new();
    if let Some(vars) = t.get::<Option<Table>>("env")? {
        for pair in vars.pairs::<String, LuaValue>() {
            let (name, value) = pair?;
            let value = match value {
                LuaValue::Boolean(false) => None,
                LuaValue::String(s) => Some(s.to_str()?.to_string()),
                LuaValue::Integer(_) | LuaValue::Number(_) => Some(value.to_string()?),
                other => {
                    return Err(mlua::Error::runtime(format!(
                        "pi.spawn: env.{name} must be a string (or false to unset it), got {}",
                        other.type_name()
                    )));
                }
            };
            env.push((name, value));
        }
    }
    let signal = match t.get::<LuaValue>("signal")? {
        LuaValue::UserData(ud) => Some(ud.borrow::<LuaSignal>()?.0.clone()),
        _ => None,
    };
    let stdin = match t.get::<LuaValue>("stdin")? {
        LuaValue::Nil | LuaValue::Boolean(false) => Stdin::Null,
        LuaValue::Boolean(true) => Stdin::Open,
        LuaValue::String(s) => Stdin::Text(s.as_bytes().to_vec()),
        other => {
            return Err(mlua::Error::runtime(format!(
                "pi.spawn: option \"stdin\" must be a string or true, got {}",
                other.type_name()
            )));
        }
    };
    let raw = match t.get::<Option<String>>("mode")?.as_deref() {
        None | Some("lines") => false,
        Some("raw") => true,
        Some(other) => {
            return Err(mlua::Error::runtime(format!(
                "pi.spawn: option \"mode\" must be \"lines\" or \"raw\", got \"{other}\""
            )));
        }
    };
    Ok(SpawnOptions {
        cwd: t.get("cwd")?,
        env,
        stdin,
        raw,
        signal,
        callbacks,
    })
}

fn callbacks_table(lua: &Lua) -> mlua::Result<Table> {
    if let Ok(t) = lua.named_registry_value::<Table>(CALLBACKS_KEY) {
        return Ok(t);
    }
    let t = lua.create_table()?;
    lua.set_named_registry_value(CALLBACKS_KEY, t.clone())?;
    Ok(t)
}

/// `pi.spawn(cmd, args, opts)`: start `cmd` without a shell and return its
/// handle `{pid, kill, wait, running}`.
pub fn spawn(
    lua: &Lua,
    host: &Rc<HostCtx>,
    cmd: String,
    args: Option<Vec<String>>,
    opts: Option<Table>,
) -> mlua::Result<Table> {
    let opts = spawn_options(lua, opts)?;
    let cwd = opts
        .cwd
        .as_ref()
        .map(|c| host.cwd.join(c))
        .unwrap_or_else(|| host.cwd.clone());
    let mut command = tokio::process::Command::new(&cmd);
    command
        .args(args.unwrap_or_default())
        .current_dir(&cwd)
        .stdin(match opts.stdin {
            Stdin::Null => Stdio::null(),
            Stdin::Text(_) | Stdin::Open => Stdio::piped(),
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    #[cfg(unix)]
    command.process_group(0);
    for (name, value) in &opts.env {
        match value {
            Some(v) => command.env(name, v),
            None => command.env_remove(name),
        };
    }
    // Extension processes run in the sandbox in force, like the bash tool's.
    crate::sandbox::confine(command.as_std_mut(), &cwd)
        .map_err(|e| mlua::Error::runtime(format!("pi.spawn: {e}")))?;
    let mut child = command.spawn().map_err(|e| {
        mlua::Error::runtime(format!(
            "pi.spawn: cannot start \"{cmd}\" in {}: {e} (check the program name and that it is on PATH)",
            cwd.display()
        ))
    })?;
    let id = host.procs.next.get() + 1;
    host.procs.next.set(id);
    callbacks_table(lua)?.set(id, opts.callbacks)?;
    let proc = Rc::new(Proc {
        pid: child.id(),
        killed: Cell::new(false),
        stop: CancellationToken::new(),
        outcome: RefCell::new(None),
        done: watch::Sender::new(false),
        stdin: RefCell::new(None),
    });
    host.procs.running.borrow_mut().insert(id, proc.clone());
    if let Some(pipe) = child.stdin.take() {
        let (tx, rx) = mpsc::unbounded_channel();
        if let Stdin::Text(data) = opts.stdin {
            let _ = tx.send(data);
        } else {
            *proc.stdin.borrow_mut() = Some(tx);
        }
        tokio::task::spawn_local(feed_stdin(pipe, rx));
    }
    let signal = opts.signal.unwrap_or_default();
    let raw = opts.raw;
    tokio::task::spawn_local(drive(lua.weak(), id, proc.clone(), child, signal, raw));
    handle_table(lua, proc)
}

/// Write what `write()` queued to the program, in order, until the queue is
/// closed (`closeStdin()`, the end of the process) or the program stops reading.
async fn feed_stdin(
    mut pipe: tokio::process::ChildStdin,
    mut queue: mpsc::UnboundedReceiver<Vec<u8>>,
) {
    while let Some(data) = queue.recv().await {
        if pipe.write_all(&data).await.is_err() || pipe.flush().await.is_err() {
            return;
        }
    }
}

fn handle_table(lua: &Lua, proc: Rc<Proc>) -> mlua::Result<Table> {
    let handle = lua.create_table()?;
    handle.set("pid", proc.pid)?;
    let p = proc.clone();
    handle.set(
        "kill",
        lua.create_function(move |_, ()| {
            p.kill();
            Ok(())
        })?,
    )?;
    let p = proc.clone();
    handle.set(
        "write",
        lua.create_function(move |_, data: mlua::String| {
            let sent = p
                .stdin
                .borrow()
                .as_ref()
                .is_some_and(|tx| tx.send(data.as_bytes().to_vec()).is_ok());
            Ok(sent)
        })?,
    )?;
    let p = proc.clone();
    handle.set(
        "closeStdin",
        lua.create_function(move |_, ()| {
            p.stdin.borrow_mut().take();
            Ok(())
        })?,
    )?;
    let p = proc.clone();
    handle.set(
        "running",
        lua.create_function(move |_, ()| Ok(p.outcome.borrow().is_none()))?,
    )?;
    handle.set(
        "wait",
        lua.create_async_function(move |lua, ()| {
            let p = proc.clone();
            async move {
                let mut rx = p.done.subscribe();
                let _ = rx.wait_for(|done| *done).await;
                if let Some(host) = lua.app_data_ref::<Rc<HostCtx>>() {
                    host.budget.reset();
                }
                let outcome = p.outcome.borrow().clone().unwrap_or_default();
                let result = lua.create_table()?;
                result.set("code", outcome.code)?;
                result.set("stdout", lua.create_string(&outcome.stdout)?)?;
                result.set("stderr", lua.create_string(&outcome.stderr)?)?;
                result.set("killed", outcome.killed)?;
                Ok(result)
            }
        })?,
    )?;
    Ok(handle)
}

/// Call callback `name` of process `id` with `args`, reporting failures.
async fn call_back(weak: &WeakLua, id: u64, name: &str, args: impl IntoLuaMulti) {
    let Some(lua) = weak.try_upgrade() else {
        return;
    };
    let Ok(Some(callbacks)) = callbacks_table(&lua).and_then(|t| t.get::<Option<Table>>(id)) else {
        return;
    };
    let Ok(Some(f)) = callbacks.get::<Option<Function>>(name) else {
        return;
    };
    let host = lua.app_data_ref::<Rc<HostCtx>>().map(|h| h.clone());
    if let Some(h) = &host {
        h.budget.reset();
    }
    if let Err(e) = f.call_async::<()>(args).await {
        let message = format!("Extension error: pi.spawn {name} callback failed: {e}");
        match host {
            Some(h) => h.view.report(message),
            None => eprintln!("{message}"),
        }
    }
}

/// Read on into `buf` up to a line end, or until the line holds
/// [`MAX_LINE`] bytes (a longer line arrives in pieces); `false` at the end of
/// input (`buf` may still hold a last line without a line end read by a
/// cancelled call).
async fn next_line<R: AsyncRead + Unpin>(
    reader: Option<&mut BufReader<R>>,
    buf: &mut Vec<u8>,
) -> bool {
    let Some(reader) = reader else {
        return false;
    };
    loop {
        let chunk = match reader.fill_buf().await {
            Ok(c) => c,
            Err(_) => return !buf.is_empty(),
        };
        if chunk.is_empty() {
            return !buf.is_empty();
        }
        let room = MAX_LINE.saturating_sub(buf.len()).max(1);
        let (n, done) = match chunk.iter().take(room).position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => {
                let n = chunk.len().min(room);
                (n, buf.len() + n >= MAX_LINE)
            }
        };
        buf.extend_from_slice(&chunk[..n]);
        reader.consume(n);
        if done {
            return true;
        }
    }
}

/// Read what is available (at most [`MAX_CHUNK`] bytes) into `buf`; `false`
/// at the end of input.
async fn next_chunk<R: AsyncRead + Unpin>(
    reader: Option<&mut BufReader<R>>,
    buf: &mut Vec<u8>,
) -> bool {
    let Some(reader) = reader else {
        return false;
    };
    let n = match reader.fill_buf().await {
        Ok(chunk) if !chunk.is_empty() => {
            let n = chunk.len().min(MAX_CHUNK);
            buf.extend_from_slice(&chunk[..n]);
            n
        }
        _ => return false,
    };
    reader.consume(n);
    true
}

/// The next line, or in raw mode the next chunk, of `reader` into `buf`.
async fn next_piece<R: AsyncRead + Unpin>(
    reader: Option<&mut BufReader<R>>,
    buf: &mut Vec<u8>,
    raw: bool,
) -> bool {
    if raw {
        next_chunk(reader, buf).await
    } else {
        next_line(reader, buf).await
    }
}

/// Hand one piece of output to callback `name`: a line without its line end, or
/// in raw mode the bytes as they came.
async fn deliver(weak: &WeakLua, id: u64, name: &str, buf: &[u8], raw: bool) {
    if raw {
        let Some(text) = weak.try_upgrade().and_then(|l| l.create_string(buf).ok()) else {
            return;
        };
        call_back(weak, id, name, text).await;
    } else {
        call_back(weak, id, name, line_text(buf)).await;
    }
}

fn line_text(buf: &[u8]) -> String {
    let line = buf.strip_suffix(b"\n").unwrap_or(buf);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    String::from_utf8_lossy(line).into_owned()
}

fn collect(into: &mut Vec<u8>, line: &[u8]) {
    let room = MAX_COLLECTED.saturating_sub(into.len());
    into.extend_from_slice(&line[..line.len().min(room)]);
}

/// Read both streams until they close (or the process is killed), then reap
/// the process, record the outcome and call `onExit`.
async fn drive(
    weak: WeakLua,
    id: u64,
    proc: Rc<Proc>,
    mut child: tokio::process::Child,
    signal: CancellationToken,
    raw: bool,
) {
    let mut out = child.stdout.take().map(BufReader::new);
    let mut err = child.stderr.take().map(BufReader::new);
    let (mut out_buf, mut err_buf) = (Vec::new(), Vec::new());
    let mut outcome = Outcome::default();
    while out.is_some() || err.is_some() {
        tokio::select! {
            more = async { next_piece(out.as_mut(), &mut out_buf, raw).await }, if out.is_some() => {
                if !more {
                    out = None;
                    if out_buf.is_empty() {
                        continue;
                    }
                }
                collect(&mut outcome.stdout, &out_buf);
                deliver(&weak, id, "onStdout", &out_buf, raw).await;
                out_buf.clear();
            }
            more = async { next_piece(err.as_mut(), &mut err_buf, raw).await }, if err.is_some() => {
                if !more {
                    err = None;
                    if err_buf.is_empty() {
                        continue;
                    }
                }
                collect(&mut outcome.stderr, &err_buf);
                deliver(&weak, id, "onStderr", &err_buf, raw).await;
                err_buf.clear();
            }
            _ = signal.cancelled() => proc.kill(),
            _ = proc.stop.cancelled() => break,
        }
    }
    if signal.is_cancelled() {
        proc.kill();
    }
    proc.stdin.borrow_mut().take();
    let status = child.wait().await.ok();
    outcome.killed = proc.killed.get();
    outcome.code = if outcome.killed {
        None
    } else {
        status.and_then(|s| s.code())
    };
    let (code, killed) = (outcome.code, outcome.killed);
    *proc.outcome.borrow_mut() = Some(outcome);
    if let Some(lua) = weak.try_upgrade()
        && let Some(host) = lua.app_data_ref::<Rc<HostCtx>>()
    {
        host.procs.running.borrow_mut().remove(&id);
    }
    call_back(&weak, id, "onExit", (code, killed)).await;
    if let Some(lua) = weak.try_upgrade()
        && let Ok(t) = callbacks_table(&lua)
    {
        let _ = t.set(id, LuaValue::Nil);
    }
    proc.done.send_replace(true);
}

/// `pi.execPath`: the pi program that is running, for starting sub-agents.
pub fn exec_path() -> String {
    std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "pi".to_string())
}
