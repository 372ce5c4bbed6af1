//! The extension host: one OS thread with a current-thread runtime and a
//! `LocalSet` owning the Lua VM, driven by requests from [`ExtensionHandle`].

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::{Arc, Mutex, RwLock};

use mlua::Value as LuaValue;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use crate::lua::command::{complete_command, run_command};
use crate::lua::convert::to_json;
use crate::lua::ctx::install_static;
use crate::lua::dispatch::{Dispatched, dispatch};
use crate::lua::error::{ExtensionError, ToolRunError};
use crate::lua::handle::{Dormant, ExtensionHandle, HostConfig, LoadError, LoadReport};
use crate::lua::loader::load_extension;
use crate::lua::registry::Registrations;
use crate::lua::tool_exec::{execute_tool, prepare_arguments};
use crate::lua::view::SharedView;
use crate::lua::vm::{Subscribed, Vm};

/// A request to the host thread.
pub(crate) enum Request {
    Load(oneshot::Sender<LoadReport>),
    HealthChecks(oneshot::Sender<Vec<crate::lua::health::HealthFinding>>),
    Profile(oneshot::Sender<crate::lua::profile::Profile>),
    Reload(oneshot::Sender<LoadReport>),
    Emit {
        event: String,
        payload: Value,
        reply: oneshot::Sender<Dispatched>,
    },
    Registrations(oneshot::Sender<Registrations>),
    Prepare {
        name: String,
        args: Value,
        reply: std::sync::mpsc::Sender<Value>,
    },
    RunCommand {
        name: String,
        args: String,
        reply: oneshot::Sender<Result<(), ExtensionError>>,
    },
    Shortcut {
        shortcut: String,
        reply: oneshot::Sender<Result<(), ExtensionError>>,
    },
    Complete {
        name: String,
        prefix: String,
        reply: oneshot::Sender<Vec<Value>>,
    },
    TerminalInput {
        key: String,
        reply: oneshot::Sender<Value>,
    },
    Callback {
        id: u64,
        reply: oneshot::Sender<Result<(), ExtensionError>>,
    },
    Autocomplete {
        lines: Vec<String>,
        line: usize,
        col: usize,
        reply: oneshot::Sender<Option<Value>>,
    },
    StopProcesses(oneshot::Sender<()>),
    OAuth {
        provider: String,
        refresh: Option<Value>,
        ui: mpsc::UnboundedSender<crate::lua::oauth::LoginRequest>,
        reply: oneshot::Sender<Result<Value, ExtensionError>>,
    },
    Stream {
        api: String,
        request: [Value; 3],
        signal: CancellationToken,
        events: mpsc::UnboundedSender<crate::lua::provider_stream::StreamEvent>,
        reply: oneshot::Sender<Result<(), ExtensionError>>,
    },
    ExecuteWrapped {
        name: String,
        call_id: String,
        args: Value,
        inner: std::sync::Arc<dyn crate::agent::tool::AgentTool>,
        ctx: crate::agent::tool::ToolContext,
        reply: oneshot::Sender<WrappedResult>,
    },
    ExecuteTool {
        name: String,
        call_id: String,
        params: Value,
        signal: CancellationToken,
        updates: mpsc::UnboundedSender<Value>,
        reply: oneshot::Sender<Result<Value, ToolRunError>>,
    },
}

type WrappedResult = Result<crate::agent::tool::ToolOutput, crate::agent::tool::ToolError>;

struct Host {
    config: HostConfig,
    /// The entry files of the last load, shared with every handle.
    paths: Arc<RwLock<Vec<PathBuf>>>,
    view: SharedView,
    subscribed: Subscribed,
    vm: RefCell<Option<Rc<Vm>>>,
    saved_state: RefCell<HashMap<PathBuf, Value>>,
    /// Lazy extensions known from the spec cache while no VM runs yet, and the load
    /// that starts it (once, however many requests wait for it).
    deferred: RefCell<Option<Deferred>>,
    /// Whether the extensions without declared capabilities were named this session.
    unrestricted_named: std::cell::Cell<bool>,
}

/// The first load, put off until something needs the VM.
struct Deferred {
    specs: Vec<(PathBuf, crate::lua::spec_cache::CachedSpec)>,
    started: Rc<tokio::sync::OnceCell<()>>,
}

impl Host {
    fn current(&self) -> Option<Rc<Vm>> {
        self.vm.borrow().clone()
    }

    /// Load the extensions into a fresh VM: the paths of the last load, or found again
    /// on disk when `rediscover` is set (a reload) and the host knows how. Without any
    /// extension no VM is started.
    async fn load(&self, rediscover: bool) -> LoadReport {
        let mut report = LoadReport::default();
        let paths = match (&self.config.rediscover, rediscover) {
            (Some(find), true) => (find.0)(),
            _ => self.paths.read().map(|p| p.clone()).unwrap_or_default(),
        };
        match self.paths.write() {
            Ok(mut shared) => *shared = paths.clone(),
            Err(poisoned) => *poisoned.into_inner() = paths.clone(),
        }
        // Nothing to run: no VM until a reload finds an extension.
        if paths.is_empty() {
            return report;
        }
        if !rediscover && self.defer(&paths) {
            report.loaded = paths;
            return report;
        }
        self.load_vm(&paths, report).await
    }

    /// Put the first load off when every extension is lazy and cached: list what they
    /// declared and let their events reach the host.
    fn defer(&self, paths: &[PathBuf]) -> bool {
        use crate::lua::spec_cache;
        let Some(cache) = &self.config.spec_cache else {
            return false;
        };
        let Some(specs) = spec_cache::lookup(cache, paths) else {
            return false;
        };
        if spec_cache::flag_given(&specs, &self.config.cli_flags) {
            return false;
        }
        if let Ok(mut s) = self.subscribed.write() {
            s.clear();
            s.extend(spec_cache::events(&specs));
        }
        *self.deferred.borrow_mut() = Some(Deferred {
            specs,
            started: Rc::new(tokio::sync::OnceCell::new()),
        });
        true
    }

    /// Run the put-off first load, if there is one; every caller waits for it.
    async fn ensure_loaded(&self) {
        let Some(started) = self.deferred.borrow().as_ref().map(|d| d.started.clone()) else {
            return;
        };
        started
            .get_or_init(|| async {
                let paths = self.paths.read().map(|p| p.clone()).unwrap_or_default();
                self.load_vm(&paths, LoadReport::default()).await;
            })
            .await;
        *self.deferred.borrow_mut() = None;
    }

    /// Load `paths` into a fresh VM.
    async fn load_vm(&self, paths: &[PathBuf], mut report: LoadReport) -> LoadReport {
        let vm = match Vm::new(self.view.clone(), self.subscribed.clone(), &self.config)
            .and_then(|vm| install_static(&vm.lua, &vm.host, self.config.ui.clone()).map(|_| vm))
        {
            Ok(vm) => Rc::new(vm),
            Err(e) => {
                report.errors.push(LoadError {
                    path: PathBuf::new(),
                    message: ExtensionError::VmStart {
                        detail: e.to_string(),
                    }
                    .to_string(),
                });
                return report;
            }
        };
        for path in paths {
            let state = self
                .saved_state
                .borrow()
                .get(path)
                .cloned()
                .unwrap_or(Value::Null);
            match load_extension(&vm, path, &state).await {
                Ok(()) => report.loaded.push(path.clone()),
                Err(failure) => {
                    report.errors.push(LoadError {
                        path: path.clone(),
                        message: failure.to_string(),
                    });
                }
            }
        }
        crate::lua::lazy::for_flags(&vm).await;
        self.name_unrestricted(&vm);
        if let Some(cache) = &self.config.spec_cache {
            crate::lua::spec_cache::store(cache, &vm);
        }
        crate::lua::api::i18n::watch_locale(&vm);
        *self.vm.borrow_mut() = Some(vm);
        report
    }

    /// Once per session: name the extensions that declared no capabilities (they run
    /// with every right pi has).
    fn name_unrestricted(&self, vm: &Vm) {
        if self.unrestricted_named.get() {
            return;
        }
        let names = crate::lua::capabilities::unrestricted_names(&vm.host.reg.borrow());
        if names.is_empty() {
            return;
        }
        self.unrestricted_named.set(true);
        vm.host.view.report(crate::t!(
            "pi.ext.cap.unrestricted_notice",
            names = names.join(", ")
        ));
    }

    /// Keep every extension's `pi.state` for the next VM.
    fn save_state(&self, vm: &Vm) {
        let reg = vm.host.reg.borrow();
        let mut saved = self.saved_state.borrow_mut();
        for (ext, table) in &reg.states {
            if let Ok(v) = to_json(&vm.lua, LuaValue::Table(table.clone())) {
                saved.insert(reg.extensions[*ext].path.clone(), v);
            }
        }
    }

    async fn reload(&self) -> LoadReport {
        *self.deferred.borrow_mut() = None;
        if let Some(vm) = self.current() {
            let payload = serde_json::json!({"type": "session_shutdown", "reason": "reload"});
            dispatch(&vm, "session_shutdown", payload).await;
            vm.host.procs.kill_all();
            self.save_state(&vm);
        }
        *self.vm.borrow_mut() = None;
        let report = self.load(true).await;
        if let Some(vm) = self.current() {
            let payload = serde_json::json!({"type": "session_start", "reason": "reload"});
            dispatch(&vm, "session_start", payload).await;
        }
        report
    }
}

async fn serve(host: Rc<Host>, request: Request) {
    let answered_from_cache = match &request {
        Request::Load(_) | Request::Reload(_) => false,
        // Nothing ran yet: no registrations but the cached ones, no process, no callback.
        Request::Registrations(_) | Request::Profile(_) | Request::StopProcesses(_) => {
            host.deferred.borrow().is_some()
        }
        Request::Emit { event, .. }
            if event == crate::lua::compact_callbacks::EVENT
                && host.deferred.borrow().is_some() =>
        {
            true
        }
        _ => {
            host.ensure_loaded().await;
            false
        }
    };
    if answered_from_cache {
        return serve_deferred(&host, request);
    }
    match request {
        Request::Load(reply) => {
            let _ = reply.send(host.load(false).await);
        }
        Request::Reload(reply) => {
            let _ = reply.send(host.reload().await);
        }
        Request::Emit {
            event,
            payload,
            reply,
        } => {
            let out = match host.current() {
                Some(vm) if event == crate::lua::compact_callbacks::EVENT => {
                    crate::lua::compact_callbacks::finish(&vm, payload).await
                }
                Some(vm) => dispatch(&vm, &event, payload).await,
                None => Dispatched::unchanged(payload),
            };
            let _ = reply.send(out);
        }
        Request::Registrations(reply) => {
            let list = host
                .current()
                .map(|vm| vm.host.reg.borrow().snapshot())
                .unwrap_or_default();
            let _ = reply.send(list);
        }
        Request::Prepare { name, args, reply } => {
            let out = match host.current() {
                Some(vm) => prepare_arguments(&vm, &name, args).await,
                None => args,
            };
            let _ = reply.send(out);
        }
        Request::RunCommand { name, args, reply } => {
            let result = match host.current() {
                Some(vm) => {
                    crate::lua::lazy::for_command(&vm, &name).await;
                    run_command(&vm, &name, args).await
                }
                None => Err(ExtensionError::NotLoaded),
            };
            let _ = reply.send(result);
        }
        Request::Profile(reply) => {
            let profile = host
                .current()
                .map(|vm| crate::lua::profile::snapshot(&vm))
                .unwrap_or_default();
            let _ = reply.send(profile);
        }
        Request::HealthChecks(reply) => {
            let found = match host.current() {
                Some(vm) => crate::lua::health::run_all(&vm).await,
                None => Vec::new(),
            };
            let _ = reply.send(found);
        }
        Request::Shortcut { shortcut, reply } => {
            let result = match host.current() {
                Some(vm) => crate::lua::shortcut::run_shortcut(&vm, &shortcut).await,
                None => Err(ExtensionError::NotLoaded),
            };
            let _ = reply.send(result);
        }
        Request::Complete {
            name,
            prefix,
            reply,
        } => {
            let list = match host.current() {
                Some(vm) => {
                    crate::lua::lazy::for_command(&vm, &name).await;
                    complete_command(&vm, &name, &prefix).await
                }
                None => Vec::new(),
            };
            let _ = reply.send(list);
        }
        Request::TerminalInput { key, reply } => {
            let result = match host.current() {
                Some(vm) => crate::lua::terminal_input::dispatch(&vm, key).await,
                None => serde_json::json!({"data": key}),
            };
            let _ = reply.send(result);
        }
        Request::Callback { id, reply } => {
            let result = match host.current() {
                Some(vm) => crate::lua::callbacks::run(&vm, id).await,
                None => Ok(()),
            };
            let _ = reply.send(result);
        }
        Request::Autocomplete {
            lines,
            line,
            col,
            reply,
        } => {
            let result = match host.current() {
                Some(vm) => crate::lua::autocomplete::suggest(&vm, lines, line, col).await,
                None => None,
            };
            let _ = reply.send(result);
        }
        Request::StopProcesses(reply) => {
            if let Some(vm) = host.current() {
                vm.host.procs.kill_all();
            }
            let _ = reply.send(());
        }
        Request::ExecuteWrapped {
            name,
            call_id,
            args,
            inner,
            ctx,
            reply,
        } => {
            let result = match host.current() {
                Some(vm) => {
                    crate::lua::wrap::run_chain(&vm, &name, &call_id, args, inner, ctx).await
                }
                // No wrappers without a VM: the tool runs as it is.
                None => inner.execute(&call_id, args, ctx).await,
            };
            let _ = reply.send(result);
        }
        Request::ExecuteTool {
            name,
            call_id,
            params,
            signal,
            updates,
            reply,
        } => {
            let result = match host.current() {
                Some(vm) => {
                    crate::lua::lazy::for_tool(&vm, &name).await;
                    execute_tool(&vm, &name, &call_id, params, signal, updates).await
                }
                None => Err(ToolRunError::NotLoaded),
            };
            let _ = reply.send(result);
        }
        Request::OAuth {
            provider,
            refresh,
            ui,
            reply,
        } => {
            let result = match host.current() {
                Some(vm) => crate::lua::oauth::run_oauth(&vm, &provider, refresh, ui).await,
                None => Err(ExtensionError::NotLoaded),
            };
            let _ = reply.send(result);
        }
        Request::Stream {
            api,
            request,
            signal,
            events,
            reply,
        } => {
            let result = match host.current() {
                Some(vm) => {
                    crate::lua::provider_stream::run_stream(&vm, &api, request, signal, events)
                        .await
                }
                None => Err(ExtensionError::NoStreamProvider { api }),
            };
            let _ = reply.send(result);
        }
    }
}

/// Answer a question about the registrations or the profile from the spec cache.
fn serve_deferred(host: &Host, request: Request) {
    let deferred = host.deferred.borrow();
    let specs = deferred.as_ref().map(|d| d.specs.as_slice()).unwrap_or(&[]);
    match request {
        Request::Registrations(reply) => {
            let _ = reply.send(crate::lua::spec_cache::registrations(specs));
        }
        Request::Profile(reply) => {
            let _ = reply.send(crate::lua::spec_cache::profile(specs));
        }
        Request::StopProcesses(reply) => {
            let _ = reply.send(());
        }
        Request::Emit { payload, reply, .. } => {
            let _ = reply.send(Dispatched::unchanged(payload));
        }
        _ => {}
    }
}

/// Stack of the extension host's thread (see [`spawn`]).
const EXTENSION_THREAD_STACK: usize = 16 << 20;

/// Start the host thread; it ends when every handle is dropped.
#[expect(
    clippy::expect_used,
    reason = "without a thread for the extension host pi cannot run extensions at all"
)]
pub(crate) fn spawn(config: HostConfig, view: SharedView) -> ExtensionHandle {
    let (tx, mut rx) = mpsc::unbounded_channel::<Request>();
    let subscribed = Subscribed::default();
    let paths = Arc::new(RwLock::new(config.paths.clone()));
    let host_paths = paths.clone();
    let host_subscribed = subscribed.clone();
    let nothing_to_load = config.paths.is_empty();
    let start = move || {
        std::thread::Builder::new()
            .name("pi-extensions".into())
            // Room for Lua's own limit of nested calls through Rust (about 200) to be
            // reached first, as an error; only the pages used are ever touched.
            .stack_size(EXTENSION_THREAD_STACK)
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt,
                    Err(e) => {
                        eprintln!("Error: cannot start the extension host: {e}");
                        return;
                    }
                };
                let local = tokio::task::LocalSet::new();
                let host = Rc::new(Host {
                    config,
                    paths: host_paths,
                    view,
                    subscribed: host_subscribed,
                    vm: RefCell::new(None),
                    saved_state: RefCell::new(HashMap::new()),
                    deferred: RefCell::new(None),
                    unrestricted_named: std::cell::Cell::new(false),
                });
                local.block_on(&runtime, async move {
                    while let Some(request) = rx.recv().await {
                        match request {
                            r @ (Request::Load(_) | Request::Reload(_)) => {
                                serve(host.clone(), r).await
                            }
                            r => {
                                tokio::task::spawn_local(serve(host.clone(), r));
                            }
                        }
                    }
                    if let Some(vm) = host.current() {
                        vm.host.procs.kill_all();
                    }
                    *host.vm.borrow_mut() = None;
                });
            })
            .expect("spawn the extension host thread");
    };
    // With no extension files there is nothing to run until a reload finds some.
    let dormant: Dormant = Arc::new(Mutex::new(None));
    if nothing_to_load {
        *dormant.lock().unwrap_or_else(|e| e.into_inner()) = Some(Box::new(start));
    } else {
        start();
    }
    ExtensionHandle::new(tx, subscribed, paths, dormant)
}
