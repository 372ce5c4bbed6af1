//! Where the time goes: per extension, how long it took to load, how long each of its
//! event handlers ran (count, total, max) and how much the shared Lua VM grew while it
//! loaded. Recorded on the host thread around every call, so it costs two clock reads.

use std::path::PathBuf;
use std::time::Duration;

use indexmap::IndexMap;
use serde::Serialize;

use crate::lua::vm::Vm;
use crate::t;

/// The default of `extensions.slowHandlerMs`: a handler slower than this is named once.
pub const DEFAULT_SLOW_HANDLER_MS: u64 = 200;

/// Where an extension stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ExtStatus {
    /// Its factory (or `setup`) ran.
    Loaded,
    /// It declared lazy triggers and none has fired yet.
    Lazy,
    /// Loading it failed; it is disabled.
    Error,
}

/// Time spent in one handler (an event, a command or a tool) of one extension.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct HandlerTime {
    /// Calls so far.
    pub count: u64,
    /// Their time added up.
    pub total: Duration,
    /// The slowest call.
    pub max: Duration,
}

/// What the host measured of one extension while it ran.
#[derive(Debug, Clone, Default)]
pub struct Measured {
    /// Reading, compiling and running the file, plus its factory or `setup`.
    pub load: Duration,
    /// Bytes the VM grew by while the extension loaded (an estimate: every extension
    /// shares one VM, and a collection during the load can make it smaller).
    pub memory: usize,
    /// Handler times by handler name (`event`, `/command` or `tool:name`).
    pub handlers: IndexMap<String, HandlerTime>,
    /// The last error it raised, loading or in a handler.
    pub last_error: Option<String>,
    /// Whether it declared lazy triggers.
    pub lazy: bool,
    /// Whether it has run its factory or `setup`.
    pub loaded: bool,
    /// Whether loading it failed.
    pub failed: bool,
}

/// One handler's times, as the panel and `pi doctor --profile` show them.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HandlerProfile {
    /// `event`, `/command` or `tool:name`.
    pub name: String,
    /// Calls.
    pub count: u64,
    /// Milliseconds in all calls.
    pub total_ms: f64,
    /// Milliseconds of the slowest call.
    pub max_ms: f64,
}

/// One extension's profile.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExtensionProfile {
    /// Entry file.
    pub path: PathBuf,
    /// Loaded, lazy (not loaded yet) or error.
    pub status: ExtStatus,
    /// Whether it declared lazy triggers.
    pub lazy: bool,
    /// The last error it raised.
    pub last_error: Option<String>,
    /// Milliseconds spent loading it.
    pub load_ms: f64,
    /// Bytes the Lua VM grew by while it loaded.
    pub memory_bytes: usize,
    /// Handler times, slowest total first.
    pub handlers: Vec<HandlerProfile>,
}

/// Every extension's profile plus the VM's memory.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Profile {
    /// Extensions in load order.
    pub extensions: Vec<ExtensionProfile>,
    /// Bytes the one Lua VM holds now (all extensions together).
    pub vm_memory_bytes: usize,
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The profile of every extension of `vm`.
pub fn snapshot(vm: &Vm) -> Profile {
    let reg = vm.host.reg.borrow();
    let extensions = reg
        .extensions
        .iter()
        .map(|info| {
            let m = &info.measured;
            let status = if m.failed {
                ExtStatus::Error
            } else if m.loaded {
                ExtStatus::Loaded
            } else {
                ExtStatus::Lazy
            };
            let mut handlers: Vec<HandlerProfile> = m
                .handlers
                .iter()
                .map(|(name, h)| HandlerProfile {
                    name: name.clone(),
                    count: h.count,
                    total_ms: millis(h.total),
                    max_ms: millis(h.max),
                })
                .collect();
            handlers.sort_by(|a, b| b.total_ms.total_cmp(&a.total_ms));
            ExtensionProfile {
                path: info.path.clone(),
                status,
                lazy: m.lazy,
                last_error: m.last_error.clone(),
                load_ms: millis(m.load),
                memory_bytes: m.memory,
                handlers,
            }
        })
        .collect();
    Profile {
        extensions,
        vm_memory_bytes: vm.lua.used_memory(),
    }
}

/// Add one call of `handler` taking `elapsed` to extension `ext`; an event handler slower
/// than the threshold is named in the transcript, once per extension and event, when
/// `may_warn` (commands and tools are timed only: they may rightly run long).
pub fn record(vm: &Vm, ext: usize, handler: &str, elapsed: Duration, may_warn: bool) {
    let mut reg = vm.host.reg.borrow_mut();
    let Some(info) = reg.extensions.get_mut(ext) else {
        return;
    };
    let time = info
        .measured
        .handlers
        .entry(handler.to_string())
        .or_default();
    time.count += 1;
    time.total += elapsed;
    time.max = time.max.max(elapsed);
    let event = !handler.starts_with('/') && !handler.starts_with("tool:");
    if !may_warn || !event || elapsed <= vm.host.slow_handler {
        return;
    }
    let path = info.path.display().to_string();
    if reg.reported_slow.insert((ext, handler.to_string())) {
        drop(reg);
        vm.host.view.report(format!(
            "Warning: {}",
            t!(
                "pi.ext.slow_handler",
                name = path,
                handler = handler,
                ms = format!("{:.0}", millis(elapsed)),
                limit = vm.host.slow_handler.as_millis().to_string()
            )
        ));
    }
}

/// Remember `message` as extension `ext`'s last error.
pub fn record_error(vm: &Vm, ext: usize, message: &str) {
    if let Some(info) = vm.host.reg.borrow_mut().extensions.get_mut(ext) {
        info.measured.last_error = Some(message.to_string());
    }
}

/// Add a load step of `elapsed` that grew the VM from `memory_before` bytes.
pub fn record_load(vm: &Vm, ext: usize, elapsed: Duration, memory_before: usize) {
    let grown = vm.lua.used_memory().saturating_sub(memory_before);
    if let Some(info) = vm.host.reg.borrow_mut().extensions.get_mut(ext) {
        info.measured.load += elapsed;
        info.measured.memory += grown;
    }
}

/// A byte count as people read it: `512 B`, `3.4 KiB`, `1.2 MiB`.
pub fn human_bytes(bytes: usize) -> String {
    let b = bytes as f64;
    if b < 1024.0 {
        format!("{bytes} B")
    } else if b < 1024.0 * 1024.0 {
        format!("{:.1} KiB", b / 1024.0)
    } else {
        format!("{:.1} MiB", b / (1024.0 * 1024.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_read_in_the_unit_that_fits() {
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(3 * 1024 + 400), "3.4 KiB");
        assert_eq!(human_bytes(5 * 1024 * 1024), "5.0 MiB");
    }
}
