//! Health checks extensions register for `pi doctor`:
//! `pi.registerHealthCheck(function(h) h.ok(msg) h.warn(msg) h.error(msg) end)`.
//! Each check runs with a fresh `h` whose calls are the check's findings; a check that
//! raises an error is an error finding naming it.

use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

use mlua::{Function, Lua, Table};

use crate::lua::vm::{HostCtx, Vm};

/// One finding of an extension's health check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HealthFinding {
    /// The extension that registered the check.
    pub extension: PathBuf,
    /// `ok`, `warn` or `error`.
    pub status: String,
    /// What the check said.
    pub message: String,
}

/// Add `pi.registerHealthCheck` for extension `ext`.
pub fn add(lua: &Lua, host: &Rc<HostCtx>, ext: usize, pi: &Table) -> mlua::Result<()> {
    let h = host.clone();
    pi.set(
        "registerHealthCheck",
        lua.create_function(move |_, check: Function| {
            h.reg.borrow_mut().health_checks.push((ext, check));
            Ok(())
        })?,
    )
}

/// Run every registered check, in registration order.
pub async fn run_all(vm: &Vm) -> Vec<HealthFinding> {
    let checks: Vec<(PathBuf, Function)> = {
        let reg = vm.host.reg.borrow();
        reg.health_checks
            .iter()
            .map(|(ext, f)| (reg.extensions[*ext].path.clone(), f.clone()))
            .collect()
    };
    let mut out = Vec::new();
    for (extension, check) in checks {
        let found = Rc::new(RefCell::new(Vec::new()));
        let result = match reporter(&vm.lua, &found) {
            Ok(h) => {
                vm.host.budget.reset();
                check.call_async::<()>(h).await
            }
            Err(e) => Err(e),
        };
        let mut findings: Vec<(String, String)> = found.borrow_mut().drain(..).collect();
        if let Err(e) = result {
            findings.push((
                "error".into(),
                crate::t!(
                    "pi.doctor.health.failed",
                    error = crate::lua::tool_exec::error_text(&e)
                ),
            ));
        }
        out.extend(findings.into_iter().map(|(status, message)| HealthFinding {
            extension: extension.clone(),
            status,
            message,
        }));
    }
    out
}

/// The `h` table: `ok`, `warn` and `error`, each adding one finding.
fn reporter(lua: &Lua, found: &Rc<RefCell<Vec<(String, String)>>>) -> mlua::Result<Table> {
    let h = lua.create_table()?;
    for status in ["ok", "warn", "error"] {
        let found = found.clone();
        h.set(
            status,
            lua.create_function(move |_, message: String| {
                found.borrow_mut().push((status.to_string(), message));
                Ok(())
            })?,
        )?;
    }
    Ok(h)
}
