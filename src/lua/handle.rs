//! [`ExtensionHandle`]: the cloneable, thread-safe way the rest of pi talks to
//! the extension host.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock};

use serde_json::Value;
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use crate::lua::budget::DEFAULT_INSTRUCTION_BUDGET;
use crate::lua::dispatch::Dispatched;
use crate::lua::error::{ExtensionError, ToolRunError};
use crate::lua::host::{Request, spawn};
use crate::lua::registry::{CommandInfo, Registrations, ToolInfo};
use crate::lua::view::SharedView;
use crate::lua::vm::Subscribed;

/// How the host is set up.
#[derive(Debug, Clone)]
pub struct HostConfig {
    /// Extension entry files, in load order.
    pub paths: Vec<PathBuf>,
    /// Working directory.
    pub cwd: PathBuf,
    /// Instructions a handler may run without yielding before it is stopped.
    pub instruction_budget: u64,
    /// The most memory the VM may hold, in MiB (`extensions.memoryLimitMb`).
    pub memory_limit_mb: u64,
    /// How long one `session_start` handler may take, waits included
    /// (`extensions.startupTimeoutSeconds`).
    pub startup_limit: std::time::Duration,
    /// A handler slower than this many milliseconds is named once in the transcript
    /// (`extensions.slowHandlerMs`).
    pub slow_handler_ms: u64,
    /// Command-line options pi itself does not know, for `pi.getFlag`:
    /// name (without `--`) and the word after it, if any.
    pub cli_flags: Vec<(String, Option<String>)>,
    /// Where `ctx.ui` dialogs go; `None` keeps `ctx.ui` headless.
    pub ui: Option<crate::lua::ui::SharedExtensionUi>,
    /// Where lazy extensions' declarations are cached; with a fresh entry for every
    /// extension the first load starts no VM (see [`crate::lua::spec_cache`]).
    pub spec_cache: Option<PathBuf>,
    /// Finds the extension entry files again before every load, so `/reload` sees files
    /// added or removed since start; without it every load uses `paths`.
    pub rediscover: Option<Rediscover>,
    /// The agent folder extensions see as `pi.agentDir` (`pi test` gives each test its own).
    pub agent_dir: PathBuf,
    /// Who owns a tool two extensions register, and the order of wrappers.
    pub tool_policy: crate::lua::wrap::ToolPolicy,
}

/// A function that lists the extension entry files as they are on disk now.
#[derive(Clone)]
pub struct Rediscover(pub Arc<dyn Fn() -> Vec<PathBuf> + Send + Sync>);

impl std::fmt::Debug for Rediscover {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Rediscover")
    }
}

impl HostConfig {
    /// Load `paths` in `cwd` with the default budget.
    pub fn new(paths: Vec<PathBuf>, cwd: impl Into<PathBuf>) -> Self {
        HostConfig {
            paths,
            cwd: cwd.into(),
            instruction_budget: DEFAULT_INSTRUCTION_BUDGET,
            memory_limit_mb: crate::lua::vm::DEFAULT_MEMORY_LIMIT_MB,
            startup_limit: crate::lua::vm::DEFAULT_STARTUP_LIMIT,
            slow_handler_ms: crate::lua::profile::DEFAULT_SLOW_HANDLER_MS,
            cli_flags: Vec::new(),
            ui: None,
            spec_cache: None,
            rediscover: None,
            agent_dir: crate::config::paths::agent_dir(),
            tool_policy: Default::default(),
        }
    }
}

/// An extension that failed to load.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadError {
    /// Its entry file.
    pub path: PathBuf,
    /// `file:line: message`.
    pub message: String,
}

/// The result of loading or reloading.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LoadReport {
    /// Extensions that loaded.
    pub loaded: Vec<PathBuf>,
    /// Extensions that failed (and are disabled).
    pub errors: Vec<LoadError>,
}

/// A handle to the extension host thread. Cheap to clone; the host stops
/// when the last handle is dropped.
#[derive(Clone)]
pub struct ExtensionHandle {
    tx: mpsc::UnboundedSender<Request>,
    subscribed: Subscribed,
    paths: Arc<RwLock<Vec<PathBuf>>>,
    dormant: Dormant,
}

/// Starts the host thread; held back while the host has nothing to load.
pub(crate) type Dormant = Arc<Mutex<Option<Box<dyn FnOnce() + Send>>>>;

impl ExtensionHandle {
    /// Start a host for `config`, reading session data from `view`. Call
    /// [`ExtensionHandle::load`] next.
    pub fn start(config: HostConfig, view: SharedView) -> Self {
        spawn(config, view)
    }

    pub(crate) fn new(
        tx: mpsc::UnboundedSender<Request>,
        subscribed: Subscribed,
        paths: Arc<RwLock<Vec<PathBuf>>>,
        dormant: Dormant,
    ) -> Self {
        ExtensionHandle {
            tx,
            subscribed,
            paths,
            dormant,
        }
    }

    /// Whether the host thread runs: a host started with no extension files
    /// waits for a reload that finds some.
    pub fn is_started(&self) -> bool {
        self.dormant
            .lock()
            .map(|d| d.is_none())
            .unwrap_or_else(|e| e.into_inner().is_none())
    }

    /// Hand `request` to the host; false when it was not taken (the caller
    /// gives the empty answer). A host started without extension files stays
    /// dormant (no thread, no VM: nothing is registered, so every question
    /// has the empty answer) until a reload may find some.
    fn deliver(&self, request: Request) -> bool {
        let mut dormant = self.dormant.lock().unwrap_or_else(|e| e.into_inner());
        if dormant.is_some() {
            if !matches!(request, Request::Reload(_)) {
                return false;
            }
            if let Some(start) = dormant.take() {
                start();
            }
        }
        drop(dormant);
        self.tx.send(request).is_ok()
    }

    /// The extension entry files of the last load.
    pub fn paths(&self) -> Vec<PathBuf> {
        self.paths
            .read()
            .map(|p| p.clone())
            .unwrap_or_else(|e| e.into_inner().clone())
    }

    async fn ask<T: Default>(&self, make: impl FnOnce(oneshot::Sender<T>) -> Request) -> T {
        let (reply, rx) = oneshot::channel();
        if !self.deliver(make(reply)) {
            return T::default();
        }
        rx.await.unwrap_or_default()
    }

    /// Load every configured extension into a fresh VM.
    pub async fn load(&self) -> LoadReport {
        self.ask(Request::Load).await
    }

    /// `session_shutdown`, drop the VM and every registration, load again,
    /// then `session_start{reason="reload"}`. `pi.state` survives.
    pub async fn reload(&self) -> LoadReport {
        self.ask(Request::Reload).await
    }

    /// Run the extensions' `pi.registerHealthCheck` checks (for `pi doctor`).
    pub async fn health_checks(&self) -> Vec<crate::lua::health::HealthFinding> {
        self.ask(Request::HealthChecks).await
    }

    /// Every extension's load time, handler times, memory, status and last error.
    pub async fn profile(&self) -> crate::lua::profile::Profile {
        self.ask(Request::Profile).await
    }

    /// Kill every process extensions started with `pi.spawn` (pi is quitting).
    pub async fn stop_processes(&self) {
        self.ask(Request::StopProcesses).await
    }

    /// Whether some extension handles `event`.
    pub fn has_handlers(&self, event: &str) -> bool {
        self.subscribed
            .read()
            .map(|s| s.contains(event))
            .unwrap_or(false)
    }

    /// Run `payload` through the handlers of `event` (returned unchanged when
    /// there are none).
    pub async fn emit(&self, event: &str, payload: Value) -> Dispatched {
        let internal = event == crate::lua::compact_callbacks::EVENT;
        if !internal && !self.has_handlers(event) {
            return Dispatched::unchanged(payload);
        }
        let fallback = payload.clone();
        let (reply, rx) = oneshot::channel();
        let request = Request::Emit {
            event: event.to_string(),
            payload,
            reply,
        };
        if !self.deliver(request) {
            return Dispatched::unchanged(fallback);
        }
        rx.await.unwrap_or_else(|_| Dispatched::unchanged(fallback))
    }

    /// Everything the extensions registered.
    pub async fn registrations(&self) -> Registrations {
        self.ask(Request::Registrations).await
    }

    /// Tools registered by extensions.
    pub async fn tools(&self) -> Vec<ToolInfo> {
        self.registrations().await.tools
    }

    /// Commands registered by extensions.
    pub async fn commands(&self) -> Vec<CommandInfo> {
        self.registrations().await.commands
    }

    /// Run a tool's `prepareArguments` and wait for it (blocks the calling
    /// thread; the host runs on its own).
    pub fn prepare_arguments_blocking(&self, name: &str, args: Value) -> Value {
        let (reply, rx) = std::sync::mpsc::channel();
        let request = Request::Prepare {
            name: name.to_string(),
            args: args.clone(),
            reply,
        };
        if !self.deliver(request) {
            return args;
        }
        rx.recv().unwrap_or(args)
    }

    /// Run the extension command `/name args`.
    pub async fn run_command(&self, name: &str, args: &str) -> Result<(), ExtensionError> {
        let (reply, rx) = oneshot::channel();
        let request = Request::RunCommand {
            name: name.to_string(),
            args: args.to_string(),
            reply,
        };
        if !self.deliver(request) {
            return Err(ExtensionError::HostStopped);
        }
        rx.await.unwrap_or(Err(ExtensionError::HostStopped))
    }

    /// Run the handler of the extension shortcut for key `shortcut`.
    pub async fn run_shortcut(&self, shortcut: &str) -> Result<(), ExtensionError> {
        let (reply, rx) = oneshot::channel();
        let request = Request::Shortcut {
            shortcut: shortcut.to_string(),
            reply,
        };
        if !self.deliver(request) {
            return Err(ExtensionError::HostStopped);
        }
        rx.await.unwrap_or(Err(ExtensionError::HostStopped))
    }

    /// Argument completions of the extension command `name` for `prefix`.
    pub async fn complete_command(&self, name: &str, prefix: &str) -> Vec<Value> {
        self.ask(|reply| Request::Complete {
            name: name.to_string(),
            prefix: prefix.to_string(),
            reply,
        })
        .await
    }

    /// Run a callback an extension handed over earlier (`withSession` of `ctx.newSession`).
    pub async fn run_callback(&self, id: u64) -> Result<(), ExtensionError> {
        let (reply, rx) = oneshot::channel();
        if !self.deliver(Request::Callback { id, reply }) {
            return Err(ExtensionError::HostStopped);
        }
        rx.await.unwrap_or(Err(ExtensionError::HostStopped))
    }

    /// Whether an extension listens to terminal input (`ctx.ui.onTerminalInput`).
    pub fn has_terminal_input(&self) -> bool {
        self.has_handlers(crate::lua::terminal_input::TERMINAL_INPUT_MARK)
    }

    /// Run the key id `key` through the terminal input handlers, waiting at most `limit`
    /// (the terminal UI waits for the answer): `{consume = true}` or `{data}`, the key to hand
    /// on; `None` when the extension thread did not answer in time.
    pub fn terminal_input_blocking(
        &self,
        key: String,
        limit: std::time::Duration,
    ) -> Option<Value> {
        let (reply, mut rx) = oneshot::channel();
        if !self.deliver(Request::TerminalInput { key, reply }) {
            return None;
        }
        let deadline = std::time::Instant::now() + limit;
        loop {
            match rx.try_recv() {
                Ok(answer) => return Some(answer),
                Err(oneshot::error::TryRecvError::Closed) => return None,
                Err(oneshot::error::TryRecvError::Empty) => {}
            }
            if std::time::Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
    }

    /// Whether an extension added an autocomplete provider.
    pub fn has_autocomplete(&self) -> bool {
        self.has_handlers(crate::lua::autocomplete::AUTOCOMPLETE_MARK)
    }

    /// Suggestions of the extensions' autocomplete providers for the cursor at byte `col`
    /// of line `line` (1-based): `{prefix, items}`, or `None` for the editor's own.
    pub async fn autocomplete(&self, lines: Vec<String>, line: usize, col: usize) -> Option<Value> {
        self.ask(|reply| Request::Autocomplete {
            lines,
            line,
            col,
            reply,
        })
        .await
    }

    /// Run the Lua login of `provider` (or, given stored credentials, its
    /// `refreshToken`); the login's questions go to `ui`.
    pub async fn oauth(
        &self,
        provider: &str,
        refresh: Option<Value>,
        ui: mpsc::UnboundedSender<crate::lua::oauth::LoginRequest>,
    ) -> Result<Value, ExtensionError> {
        let (reply, rx) = oneshot::channel();
        let request = Request::OAuth {
            provider: provider.to_string(),
            refresh,
            ui,
            reply,
        };
        if !self.deliver(request) {
            return Err(ExtensionError::HostStopped);
        }
        rx.await.unwrap_or(Err(ExtensionError::HostStopped))
    }

    /// Stream a reply from the Lua provider serving `api` (`streamSimple` with the
    /// request's `[model, context, options]`), its events going to `events`.
    pub async fn stream_provider(
        &self,
        api: &str,
        request: [Value; 3],
        signal: CancellationToken,
        events: mpsc::UnboundedSender<crate::lua::provider_stream::StreamEvent>,
    ) -> Result<(), ExtensionError> {
        let (reply, rx) = oneshot::channel();
        let request = Request::Stream {
            api: api.to_string(),
            request,
            signal,
            events,
            reply,
        };
        if !self.deliver(request) {
            return Err(ExtensionError::HostStopped);
        }
        rx.await.unwrap_or(Err(ExtensionError::HostStopped))
    }

    /// Run the tool `inner` through the `pi.wrapTool` wrappers of `name`.
    pub async fn execute_wrapped(
        &self,
        name: &str,
        call_id: &str,
        args: Value,
        inner: std::sync::Arc<dyn crate::agent::tool::AgentTool>,
        ctx: crate::agent::tool::ToolContext,
    ) -> Result<crate::agent::tool::ToolOutput, crate::agent::tool::ToolError> {
        let stopped = || crate::agent::tool::ToolError::new("the extension host has stopped");
        let (reply, rx) = oneshot::channel();
        let request = Request::ExecuteWrapped {
            name: name.to_string(),
            call_id: call_id.to_string(),
            args,
            inner,
            ctx,
            reply,
        };
        if !self.deliver(request) {
            return Err(stopped());
        }
        rx.await.unwrap_or_else(|_| Err(stopped()))
    }

    /// Run an extension tool. Partial results arrive on `updates`.
    pub async fn execute_tool(
        &self,
        name: &str,
        call_id: &str,
        params: Value,
        signal: CancellationToken,
        updates: mpsc::UnboundedSender<Value>,
    ) -> Result<Value, ToolRunError> {
        let (reply, rx) = oneshot::channel();
        let request = Request::ExecuteTool {
            name: name.to_string(),
            call_id: call_id.to_string(),
            params,
            signal,
            updates,
            reply,
        };
        if !self.deliver(request) {
            return Err(ToolRunError::HostStopped);
        }
        rx.await.unwrap_or(Err(ToolRunError::HostStopped))
    }
}
