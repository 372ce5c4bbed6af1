//! Running a shell command in its own process group, with merged output,
//! timeout and abort handling that kill the whole group.

use std::ffi::OsString;
use std::io;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio::net::unix::pipe;
use tokio::time::{Instant, MissedTickBehavior};
use tokio_util::sync::CancellationToken;

/// How long to keep reading after the shell exited, in case a detached
/// descendant still holds the output pipe open.
const EXIT_STDIO_GRACE: Duration = Duration::from_millis(100);
/// Stands in for "no timeout" (about thirty years).
const NO_TIMEOUT: Duration = Duration::from_secs(30 * 365 * 24 * 3600);
/// How often [`OutputSink::on_tick`] is called while a command runs.
const TICK_INTERVAL: Duration = Duration::from_millis(100);

/// Receives output while a command runs.
pub trait OutputSink {
    /// A chunk of merged stdout/stderr, in arrival order.
    fn on_data(&mut self, data: &[u8]);
    /// Called periodically, e.g. to flush throttled updates.
    fn on_tick(&mut self) {}
}

/// Why a command stopped before exiting on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interruption {
    /// The timeout elapsed and the process group was killed.
    TimedOut,
    /// The abort signal fired and the process group was killed.
    Aborted,
}

/// How a command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommandEnd {
    /// The shell exited; `None` when it was terminated by a signal.
    Exited(Option<i32>),
    /// The command was killed.
    Interrupted(Interruption),
}

/// What to run and how.
#[derive(Debug, Clone)]
pub struct CommandSpec<'a> {
    /// Shell executable.
    pub shell: &'a Path,
    /// Command text passed after `-c`.
    pub command: &'a str,
    /// Working directory.
    pub cwd: &'a Path,
    /// Directory prepended to `PATH`, if any.
    pub path_prefix: Option<&'a Path>,
    /// The complete environment; `None` inherits pi's (plus `path_prefix`).
    pub env: Option<&'a std::collections::HashMap<String, String>>,
    /// Kill the command after this long.
    pub timeout: Option<Duration>,
}

/// The configured shell is not there (the bash tool's result, in English for the model).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellNotFound {
    /// The configured path.
    pub path: PathBuf,
}

impl std::fmt::Display for ShellNotFound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Custom shell path not found: {}", self.path.display())
    }
}

impl std::error::Error for ShellNotFound {}

/// The shell to use: the configured one (which must exist), else
/// `/bin/bash`, else `bash` on `PATH`, else `sh`.
pub fn resolve_shell(custom: Option<&Path>) -> Result<PathBuf, ShellNotFound> {
    if let Some(custom) = custom {
        return if custom.exists() {
            Ok(custom.to_path_buf())
        } else {
            Err(ShellNotFound {
                path: custom.to_path_buf(),
            })
        };
    }
    let default = Path::new("/bin/bash");
    if default.exists() {
        return Ok(default.to_path_buf());
    }
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("bash"))
            .find(|candidate| candidate.is_file())
    });
    Ok(on_path.unwrap_or_else(|| PathBuf::from("sh")))
}

/// `PATH` with `prefix` in front, unless it is already listed.
pub fn path_with_prefix(prefix: &Path) -> Option<OsString> {
    let current = std::env::var_os("PATH").unwrap_or_default();
    if std::env::split_paths(&current).any(|dir| dir == prefix) {
        return None;
    }
    let dirs = std::iter::once(prefix.to_path_buf())
        .chain(std::env::split_paths(&current).filter(|d| !d.as_os_str().is_empty()));
    std::env::join_paths(dirs).ok()
}

/// Send SIGKILL to process group `pgid`, falling back to the process itself.
pub fn kill_process_group(pgid: u32) {
    let Ok(pid) = libc::pid_t::try_from(pgid) else {
        return;
    };
    // SAFETY: kill(2) has no memory-safety preconditions.
    unsafe {
        if libc::kill(-pid, libc::SIGKILL) != 0 {
            libc::kill(pid, libc::SIGKILL);
        }
    }
}

/// Kills the process group when dropped while armed, so a cancelled run
/// never leaves its processes behind.
struct GroupKillGuard {
    pgid: Option<u32>,
}

impl GroupKillGuard {
    /// Kill the group now (it stays armed for the drop).
    fn kill_now(&self) {
        if let Some(pgid) = self.pgid {
            kill_process_group(pgid);
        }
    }
}

impl Drop for GroupKillGuard {
    fn drop(&mut self) {
        if let Some(pgid) = self.pgid.take() {
            kill_process_group(pgid);
        }
    }
}

/// Run `spec` to completion, streaming output into `sink`.
///
/// stdin is closed, stdout and stderr share one pipe, and the shell leads its
/// own process group, confined by the sandbox in force. On timeout or abort the whole
/// group receives SIGKILL.
/// Once the shell has exited, output is read for at most a short grace
/// period, so a descendant that escaped the group and keeps the pipe open
/// cannot stall the caller.
pub async fn run_command(
    spec: &CommandSpec<'_>,
    signal: &CancellationToken,
    sink: &mut (dyn OutputSink + Send),
) -> io::Result<CommandEnd> {
    let (reader, writer) = io::pipe()?;
    let stderr_writer = writer.try_clone()?;
    let mut command = tokio::process::Command::new(spec.shell);
    command
        .arg("-c")
        .arg(spec.command)
        .current_dir(spec.cwd)
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(stderr_writer)
        .process_group(0);
    if let Some(env) = spec.env {
        command.env_clear().envs(env);
    } else if let Some(path) = spec.path_prefix.and_then(path_with_prefix) {
        command.env("PATH", path);
    }
    crate::sandbox::confine(command.as_std_mut(), spec.cwd).map_err(io::Error::other)?;
    let mut child = command.spawn()?;
    // Close the parent's copies of the write end so EOF can arrive.
    drop(command);
    let mut guard = GroupKillGuard { pgid: child.id() };
    let mut output = pipe::Receiver::from_owned_fd(OwnedFd::from(reader))?;

    let timeout = tokio::time::sleep(spec.timeout.unwrap_or(NO_TIMEOUT));
    tokio::pin!(timeout);
    let mut ticker = tokio::time::interval(TICK_INTERVAL);
    ticker.set_missed_tick_behavior(MissedTickBehavior::Delay);

    let mut buffer = vec![0u8; 64 * 1024];
    let mut eof = false;
    let mut exit_code: Option<Option<i32>> = None;
    let mut grace_deadline: Option<Instant> = None;
    let mut interruption: Option<Interruption> = None;

    while !(eof && exit_code.is_some()) {
        let grace = tokio::time::sleep_until(grace_deadline.unwrap_or_else(Instant::now));
        tokio::select! {
            read = output.read(&mut buffer), if !eof => match read {
                Ok(0) => eof = true,
                Ok(n) => sink.on_data(&buffer[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => eof = true,
            },
            status = child.wait(), if exit_code.is_none() => {
                exit_code = Some(status?.code());
                grace_deadline = Some(Instant::now() + EXIT_STDIO_GRACE);
            }
            _ = grace, if grace_deadline.is_some() && !eof => break,
            _ = &mut timeout, if spec.timeout.is_some() && interruption.is_none() => {
                interruption = Some(Interruption::TimedOut);
                guard.kill_now();
            }
            _ = signal.cancelled(), if interruption.is_none() => {
                interruption = Some(Interruption::Aborted);
                guard.kill_now();
            }
            _ = ticker.tick() => sink.on_tick(),
        }
    }
    // The shell is gone; background jobs it left in the group keep running,
    // as they would in a terminal.
    guard.pgid = None;

    if signal.is_cancelled() {
        return Ok(CommandEnd::Interrupted(Interruption::Aborted));
    }
    Ok(match interruption {
        Some(reason) => CommandEnd::Interrupted(reason),
        None => CommandEnd::Exited(exit_code.flatten()),
    })
}
