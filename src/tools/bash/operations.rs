//! Where the `bash` tool runs its commands, and the hook that may adjust a command
//! before it runs.
//!
//! The tool keeps its own output handling (streaming, tail truncation, the full-output
//! file, status lines) and only hands the command to [`BashOperations::exec`], so an
//! extension can run it elsewhere (over ssh, in a container). [`LocalShell`] is the
//! local shell the built-in tool uses.

use std::collections::HashMap;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::agent::tool::ToolError;

use super::process::{
    CommandEnd, CommandSpec, OutputSink, path_with_prefix, resolve_shell, run_command,
};

/// A command about to run, as the spawn hook sees and changes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpawnContext {
    /// The command text (after `shellCommandPrefix`).
    pub command: String,
    /// The working directory.
    pub cwd: PathBuf,
    /// The complete environment of the command.
    pub env: HashMap<String, String>,
}

/// One command to run.
#[derive(Debug, Clone)]
pub struct ExecRequest<'a> {
    /// The command text.
    pub command: &'a str,
    /// The working directory.
    pub cwd: &'a Path,
    /// The complete environment, when a spawn hook produced one; else the inherited one.
    pub env: Option<&'a HashMap<String, String>>,
    /// Kill the command after this long.
    pub timeout: Option<Duration>,
}

/// How the `bash` tool runs a command.
pub trait BashOperations {
    /// Whether [`BashOperations::spawn_hook`] changes anything (only then is the
    /// environment collected for it).
    fn has_spawn_hook(&self) -> bool {
        false
    }

    /// The environment handed to the spawn hook: pi's own.
    fn base_env(&self) -> HashMap<String, String> {
        std::env::vars().collect()
    }

    /// Adjust the command, working directory or environment before it runs.
    fn spawn_hook(
        &self,
        context: SpawnContext,
    ) -> impl Future<Output = Result<SpawnContext, ToolError>> {
        async move { Ok(context) }
    }

    /// Run `request`, streaming its merged output into `sink`, until it exits, times out
    /// or `signal` fires.
    fn exec(
        &self,
        request: &ExecRequest<'_>,
        signal: &CancellationToken,
        sink: &mut (dyn OutputSink + Send),
    ) -> impl Future<Output = Result<CommandEnd, ToolError>>;
}

/// The local shell (`settings.shellPath` or bash), with the agent's `bin` directory on
/// `PATH`.
#[derive(Debug, Clone, Default)]
pub struct LocalShell {
    /// The configured shell, if any.
    pub shell_path: Option<PathBuf>,
    /// Directory put in front of `PATH`.
    pub path_prefix: Option<PathBuf>,
}

impl BashOperations for LocalShell {
    /// pi's environment with the `bin` directory on `PATH`.
    fn base_env(&self) -> HashMap<String, String> {
        let mut env: HashMap<String, String> = std::env::vars().collect();
        if let Some(path) = self.path_prefix.as_deref().and_then(path_with_prefix)
            && let Some(path) = path.to_str()
        {
            env.insert("PATH".into(), path.to_string());
        }
        env
    }

    async fn exec(
        &self,
        request: &ExecRequest<'_>,
        signal: &CancellationToken,
        sink: &mut (dyn OutputSink + Send),
    ) -> Result<CommandEnd, ToolError> {
        let shell =
            resolve_shell(self.shell_path.as_deref()).map_err(|e| ToolError::new(e.to_string()))?;
        if !request.cwd.exists() {
            return Err(ToolError::new(format!(
                "Working directory does not exist: {}\nCannot execute bash commands.",
                request.cwd.display()
            )));
        }
        let spec = CommandSpec {
            shell: &shell,
            command: request.command,
            cwd: request.cwd,
            path_prefix: self.path_prefix.as_deref(),
            env: request.env,
            timeout: request.timeout,
        };
        run_command(&spec, signal, sink)
            .await
            .map_err(ToolError::from)
    }
}
