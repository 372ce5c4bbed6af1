//! The lazy-spec cache: what each lazy extension declared (commands, tools with their
//! schemas, events, flags, file types), keyed by its entry file's size and modification
//! time. When every extension of a start has a fresh entry, the host starts no Lua VM
//! at all until the first trigger fires: the declarations are listed from the cache.
//! A change to the entry file (not to a module it `require`s) makes its entry stale.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::lua::registry::{CommandInfo, Registrations, ToolInfo};
use crate::lua::vm::Vm;

/// One lazy extension's declarations as cached.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CachedSpec {
    /// Entry file size in bytes when cached.
    pub size: u64,
    /// Entry file modification time (nanoseconds since the epoch) when cached.
    pub modified: u64,
    /// Declared commands.
    pub commands: Vec<CommandInfo>,
    /// Declared tools with their schemas.
    pub tools: Vec<ToolInfo>,
    /// Declared events.
    pub events: Vec<String>,
    /// Declared flags.
    pub flags: Vec<String>,
    /// Declared file types.
    pub file_types: Vec<String>,
}

type Entries = BTreeMap<PathBuf, CachedSpec>;

/// `(size, modified)` of `path`, when it can be read.
fn stamp(path: &Path) -> Option<(u64, u64)> {
    let meta = std::fs::metadata(path).ok()?;
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    Some((meta.len(), u64::try_from(modified.as_nanos()).ok()?))
}

fn read_entries(cache: &Path) -> Entries {
    std::fs::read(cache)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}

/// The cached specs of `paths`, in their order, when every one is cached and fresh.
pub fn lookup(cache: &Path, paths: &[PathBuf]) -> Option<Vec<(PathBuf, CachedSpec)>> {
    let entries = read_entries(cache);
    paths
        .iter()
        .map(|path| {
            let spec = entries.get(path)?;
            let (size, modified) = stamp(path)?;
            (spec.size == size && spec.modified == modified).then(|| (path.clone(), spec.clone()))
        })
        .collect()
}

/// Store the specs of the lazy extensions of `vm` (others are dropped from the cache, so
/// they load at start); the file is written only when something changed.
pub fn store(cache: &Path, vm: &Vm) {
    let reg = vm.host.reg.borrow();
    let mut entries = Entries::new();
    for spec in &reg.lazy {
        let path = &reg.extensions[spec.ext].path;
        let Some((size, modified)) = stamp(path) else {
            continue;
        };
        entries.insert(
            path.clone(),
            CachedSpec {
                size,
                modified,
                commands: spec.commands.clone(),
                tools: spec.tools.clone(),
                events: spec.events.clone(),
                flags: spec.flags.clone(),
                file_types: spec.file_types.clone(),
            },
        );
    }
    drop(reg);
    let old = read_entries(cache);
    if old == entries || (entries.is_empty() && !cache.exists()) {
        return;
    }
    if let Ok(text) = serde_json::to_vec(&entries) {
        if let Some(dir) = cache.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = crate::config::atomic_file::write_atomically(cache, &text);
    }
}

/// What the cached extensions declare, as registrations.
pub fn registrations(specs: &[(PathBuf, CachedSpec)]) -> Registrations {
    Registrations {
        tools: specs.iter().flat_map(|(_, s)| s.tools.clone()).collect(),
        commands: specs.iter().flat_map(|(_, s)| s.commands.clone()).collect(),
        ..Registrations::default()
    }
}

/// The events that must reach the host for the cached extensions.
pub fn events(specs: &[(PathBuf, CachedSpec)]) -> Vec<String> {
    let mut out: Vec<String> = specs
        .iter()
        .flat_map(|(_, s)| s.events.iter().cloned())
        .collect();
    if specs.iter().any(|(_, s)| !s.file_types.is_empty()) {
        out.push(crate::lua::lazy::FILE_TYPE_EVENT.to_string());
    }
    out
}

/// Whether a cached extension declared one of the given command-line flags.
pub fn flag_given(specs: &[(PathBuf, CachedSpec)], given: &[(String, Option<String>)]) -> bool {
    specs
        .iter()
        .any(|(_, s)| s.flags.iter().any(|f| given.iter().any(|(g, _)| g == f)))
}

/// The profile of extensions not loaded yet: every one lazy, nothing measured.
pub fn profile(specs: &[(PathBuf, CachedSpec)]) -> crate::lua::profile::Profile {
    use crate::lua::profile::{ExtStatus, ExtensionProfile, Profile};
    Profile {
        extensions: specs
            .iter()
            .map(|(path, _)| ExtensionProfile {
                path: path.clone(),
                status: ExtStatus::Lazy,
                lazy: true,
                last_error: None,
                load_ms: 0.0,
                memory_bytes: 0,
                handlers: Vec::new(),
            })
            .collect(),
        vm_memory_bytes: 0,
    }
}
