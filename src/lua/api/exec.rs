//! `pi.exec`, `pi.sleep` and the abort signal handed to Lua.

use std::process::Stdio;
use std::rc::Rc;
use std::time::Duration;

use mlua::{Lua, Table, UserData, UserDataFields, Value as LuaValue};
use tokio_util::sync::CancellationToken;

use crate::lua::vm::HostCtx;

/// An `AbortSignal` for Lua: `signal.aborted` reads whether it fired.
#[derive(Clone, Debug, Default)]
pub struct LuaSignal(pub CancellationToken);

impl UserData for LuaSignal {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get("aborted", |_, s| Ok(s.0.is_cancelled()));
    }
}

/// Options of `pi.exec(cmd, args, {timeout, signal, cwd})`.
struct ExecOptions {
    timeout_ms: Option<u64>,
    signal: Option<CancellationToken>,
    cwd: Option<String>,
}

fn exec_options(opts: Option<Table>) -> mlua::Result<ExecOptions> {
    let Some(t) = opts else {
        return Ok(ExecOptions {
            timeout_ms: None,
            signal: None,
            cwd: None,
        });
    };
    let signal = match t.get::<LuaValue>("signal")? {
        LuaValue::UserData(ud) => Some(ud.borrow::<LuaSignal>()?.0.clone()),
        _ => None,
    };
    Ok(ExecOptions {
        timeout_ms: t.get("timeout")?,
        signal,
        cwd: t.get("cwd")?,
    })
}

/// `pi.exec(cmd, args, opts)`: run a program without a shell; resolves to
/// `{stdout, stderr, code, killed}`. A timeout or a fired signal kills it.
pub async fn exec(
    lua: Lua,
    host: Rc<HostCtx>,
    cmd: String,
    args: Option<Vec<String>>,
    opts: Option<Table>,
) -> mlua::Result<Table> {
    let opts = exec_options(opts)?;
    let cwd = opts
        .cwd
        .map(|c| host.cwd.join(c))
        .unwrap_or_else(|| host.cwd.clone());
    let mut command = tokio::process::Command::new(&cmd);
    command
        .args(args.unwrap_or_default())
        .current_dir(&cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    // Extension processes run in the sandbox in force, like the bash tool's.
    let child = crate::sandbox::confine(command.as_std_mut(), &cwd)
        .map_err(std::io::Error::other)
        .and_then(|()| command.spawn());
    let result = lua.create_table()?;
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            host.budget.reset();
            result.set("stdout", "")?;
            result.set("stderr", format!("{cmd}: {e}"))?;
            result.set("code", 127)?;
            result.set("killed", false)?;
            return Ok(result);
        }
    };
    let signal = opts.signal.unwrap_or_default();
    let timeout = async {
        match opts.timeout_ms {
            Some(ms) => tokio::time::sleep(Duration::from_millis(ms)).await,
            None => std::future::pending().await,
        }
    };
    let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
    let finished = async {
        let (out, err) = tokio::join!(read_capped(stdout), read_capped(stderr));
        child.wait().await.map(|status| std::process::Output {
            status,
            stdout: out,
            stderr: err,
        })
    };
    let output = tokio::select! {
        out = finished => Some(out),
        _ = signal.cancelled() => None,
        _ = timeout => None,
    };
    host.budget.reset();
    match output {
        Some(Ok(out)) => {
            result.set("stdout", lua.create_string(&out.stdout)?)?;
            result.set("stderr", lua.create_string(&out.stderr)?)?;
            result.set("code", out.status.code())?;
            result.set("killed", false)?;
        }
        Some(Err(e)) => {
            result.set("stdout", "")?;
            result.set("stderr", e.to_string())?;
            result.set("code", 1)?;
            result.set("killed", false)?;
        }
        None => {
            result.set("stdout", "")?;
            result.set("stderr", "")?;
            result.set("killed", true)?;
        }
    }
    Ok(result)
}

/// The most output `pi.exec` keeps per stream; the rest is read and dropped
/// so the process never blocks on a full pipe.
pub const MAX_EXEC_OUTPUT: usize = 16 * 1024 * 1024;

async fn read_capped<R: tokio::io::AsyncRead + Unpin>(reader: Option<R>) -> Vec<u8> {
    use tokio::io::AsyncReadExt;
    let mut kept = Vec::new();
    let Some(mut reader) = reader else {
        return kept;
    };
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        match reader.read(&mut chunk).await {
            Ok(0) | Err(_) => return kept,
            Ok(n) => {
                let room = MAX_EXEC_OUTPUT.saturating_sub(kept.len());
                kept.extend_from_slice(&chunk[..n.min(room)]);
            }
        }
    }
}

/// `pi.sleep(ms)`: wait without blocking other handlers.
pub async fn sleep(host: Rc<HostCtx>, ms: u64) -> mlua::Result<()> {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    host.budget.reset();
    Ok(())
}
