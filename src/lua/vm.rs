//! One Lua VM with the prelude, the instruction budget and the state every
//! API function shares.

use std::cell::RefCell;
use std::collections::HashSet;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::{Arc, RwLock};

use mlua::{Lua, LuaOptions, StdLib};

use crate::t;

use crate::lua::budget::Budget;
use crate::lua::handle::HostConfig;
use crate::lua::registry::Registry;
use crate::lua::view::SharedView;

/// The Lua prelude run in every fresh VM.
const PRELUDE: &str = include_str!("../../runtime-lua/prelude.lua");

const MIB: u64 = 1024 * 1024;

thread_local! {
    /// The memory limit of the VM on this thread, for error messages.
    static MEMORY_LIMIT_MB: std::cell::Cell<u64> =
        const { std::cell::Cell::new(DEFAULT_MEMORY_LIMIT_MB) };
}

/// How long a `session_start` handler may take by default
/// (`extensions.startupTimeoutSeconds`).
pub const DEFAULT_STARTUP_LIMIT: std::time::Duration = std::time::Duration::from_secs(10);

/// The default memory limit of one Lua VM (`extensions.memoryLimitMb`).
pub const DEFAULT_MEMORY_LIMIT_MB: u64 = 256;

/// Whether `e` (or what caused it) is Lua running out of its memory limit.
pub fn is_memory_error(e: &mlua::Error) -> bool {
    match e {
        mlua::Error::MemoryError(_) => true,
        mlua::Error::CallbackError { cause, .. } => is_memory_error(cause),
        mlua::Error::WithContext { cause, .. } => is_memory_error(cause),
        _ => false,
    }
}

/// The memory limit of this thread's VM, in MiB.
pub fn memory_limit_mb() -> u64 {
    MEMORY_LIMIT_MB.with(|m| m.get())
}

/// What to tell the user when an extension reaches the memory limit.
pub fn memory_error_text() -> String {
    t!("pi.ext.memory_limit", limit = memory_limit_mb().to_string())
}

/// Event names with at least one handler, readable from any thread.
pub type Subscribed = Arc<RwLock<HashSet<String>>>;

/// State shared by the host and every API closure of one VM. Closures hold
/// this, never the `Lua` itself, so dropping the VM frees everything.
pub struct HostCtx {
    /// Registrations of this VM.
    pub reg: RefCell<Registry>,
    /// The session snapshot.
    pub view: SharedView,
    /// The instruction budget.
    pub budget: Rc<Budget>,
    /// Events with handlers (mirrors `reg.handlers`).
    pub subscribed: Subscribed,
    /// Working directory for `pi.exec` and relative paths.
    pub cwd: PathBuf,
    /// Unknown command-line options, for `pi.getFlag`.
    pub cli_flags: Vec<(String, Option<String>)>,
    /// Processes started with `pi.spawn` that are still running.
    pub procs: crate::lua::api::spawn::Processes,
    /// How long one `session_start` handler may take, waits included.
    pub startup_limit: std::time::Duration,
    /// A handler slower than this is named once (`extensions.slowHandlerMs`).
    pub slow_handler: std::time::Duration,
    /// The agent folder, `pi.agentDir`.
    pub agent_dir: PathBuf,
    /// Settings `"tools.owners"` and `"tools.wrapOrder"`.
    pub tool_policy: crate::lua::wrap::ToolPolicy,
    /// The front end, for warnings found while loading (none in print mode).
    pub ui: Option<crate::lua::ui::SharedExtensionUi>,
}

impl HostCtx {
    /// Record that `event` has a handler now.
    pub fn mark_subscribed(&self, event: &str) {
        if let Ok(mut s) = self.subscribed.write() {
            s.insert(event.to_string());
        }
    }
}

/// A VM and its shared state.
pub struct Vm {
    /// The interpreter.
    pub lua: Lua,
    /// Shared state of its API closures.
    pub host: Rc<HostCtx>,
}

impl Vm {
    /// A fresh VM: safe standard libraries, the prelude, the budget hook.
    pub fn new(view: SharedView, subscribed: Subscribed, config: &HostConfig) -> mlua::Result<Vm> {
        let lua = Lua::new_with(StdLib::ALL_SAFE, LuaOptions::default())?;
        lua.load(PRELUDE)
            .set_name("@runtime-lua/prelude.lua")
            .set_mode(mlua::ChunkMode::Text)
            .exec()?;
        let os: mlua::Table = lua.globals().get("os")?;
        os.set(
            "exit",
            lua.create_function(|_, _: mlua::MultiValue| -> mlua::Result<()> {
                Err(mlua::Error::runtime(t!("pi.ext.os_exit_blocked")))
            })?,
        )?;
        crate::lua::capabilities::stdlib::seal_globals(&lua)?;
        let limit_mb = config.memory_limit_mb.max(1);
        lua.set_memory_limit(usize::try_from(limit_mb.saturating_mul(MIB)).unwrap_or(usize::MAX))?;
        MEMORY_LIMIT_MB.with(|m| m.set(limit_mb));
        let budget = Budget::new(config.instruction_budget);
        budget.install(&lua)?;
        if let Ok(mut s) = subscribed.write() {
            s.clear();
        }
        view.lock().providers.clear();
        let host = Rc::new(HostCtx {
            reg: RefCell::new(Registry::default()),
            view,
            budget,
            subscribed,
            cwd: config.cwd.clone(),
            cli_flags: config.cli_flags.clone(),
            procs: crate::lua::api::spawn::Processes::default(),
            startup_limit: config.startup_limit,
            slow_handler: std::time::Duration::from_millis(config.slow_handler_ms),
            agent_dir: config.agent_dir.clone(),
            tool_policy: config.tool_policy.clone(),
            ui: config.ui.clone(),
        });
        Ok(Vm { lua, host })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vm(budget: u64) -> Vm {
        let mut config = HostConfig::new(Vec::new(), ".");
        config.instruction_budget = budget;
        Vm::new(SharedView::default(), Subscribed::default(), &config).unwrap()
    }

    #[test]
    fn blocking_stdlib_calls_point_to_pi_exec() {
        let vm = vm(1_000_000);
        let err = vm.lua.load("os.execute('ls')").exec().unwrap_err();
        assert!(err.to_string().contains("pi.exec"), "{err}");
        let err = vm.lua.load("io.popen('ls')").exec().unwrap_err();
        assert!(err.to_string().contains("pi.exec"), "{err}");
    }

    #[tokio::test]
    async fn runaway_loop_in_a_coroutine_is_stopped_with_its_location() {
        let vm = vm(1_000_000);
        let f: mlua::Function = vm
            .lua
            .load("return function()\n  while true do end\nend")
            .set_name("@spin.lua")
            .eval()
            .unwrap();
        let err = f.call_async::<()>(()).await.unwrap_err().to_string();
        assert!(err.contains("spin.lua:2"), "{err}");
        assert!(err.contains("without yielding"), "{err}");
    }
}
