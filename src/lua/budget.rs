//! Instruction budget: a hook counts VM instructions executed since the last
//! point where Lua code entered from the host (a handler start or the resume
//! after an awaited host call) and stops code that never yields.

use std::cell::Cell;
use std::rc::Rc;

use mlua::{HookTriggers, Lua, VmState};

/// How often the hook runs (instructions).
const HOOK_INTERVAL: u32 = 10_000;

/// Default budget: about a second of tight-loop execution.
pub const DEFAULT_INSTRUCTION_BUDGET: u64 = 200_000_000;

/// The counter shared by the hook and the host.
#[derive(Debug)]
pub struct Budget {
    used: Cell<u64>,
    limit: u64,
}

impl Budget {
    /// A budget of `limit` instructions between host entries.
    pub fn new(limit: u64) -> Rc<Self> {
        Rc::new(Budget {
            used: Cell::new(0),
            limit: limit.max(u64::from(HOOK_INTERVAL)),
        })
    }

    /// Lua code starts or resumes: the count starts over.
    pub fn reset(&self) {
        self.used.set(0);
    }

    /// Install the counting hook on every thread of `lua`.
    pub fn install(self: &Rc<Self>, lua: &Lua) -> mlua::Result<()> {
        let budget = Rc::clone(self);
        lua.set_global_hook(
            HookTriggers::new().every_nth_instruction(HOOK_INTERVAL),
            move |_lua, debug| {
                let used = budget.used.get() + u64::from(HOOK_INTERVAL);
                budget.used.set(used);
                if used <= budget.limit {
                    return Ok(VmState::Continue);
                }
                let source = debug.source();
                let file = source.short_src.as_deref().unwrap_or("?").to_string();
                let line = debug
                    .current_line()
                    .map(|l| l.to_string())
                    .unwrap_or_else(|| "?".into());
                Err(mlua::Error::RuntimeError(format!(
                    "{file}:{line}: stopped after {} instructions without yielding (runaway code?)",
                    budget.limit
                )))
            },
        )
    }
}
