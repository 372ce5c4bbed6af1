//! `pi doctor --profile`: every extension pi would load here, loaded together as in a run
//! and sent `session_start`, then the table the `/extensions` panel shows: status, source,
//! load time, memory, handler times and last error. `--json` prints it as JSON; the exit
//! code is 1 when an extension failed.

use std::path::Path;

use serde_json::{Value, json};

use crate::lua::discovery::source_of;
use crate::lua::profile::{ExtStatus, Profile, human_bytes};
use crate::lua::{ExtensionHandle, HostConfig, SharedView};
use crate::t;
use crate::tui::app::extensions::source_label;
use crate::tui::panels::extensions::{ExtensionRow, details, summary};

/// Load every extension of `agent_dir` and `cwd` into one host, start a session, and
/// return what the host measured.
pub async fn measure(agent_dir: &Path, cwd: &Path) -> Profile {
    let (settings, _) = crate::app::doctor_checks::settings(agent_dir, cwd);
    let paths = crate::app::doctor_checks::extension_paths(&settings, agent_dir, cwd);
    if paths.is_empty() {
        return Profile::default();
    }
    let view = SharedView::new(cwd);
    view.lock().capture_messages = true;
    let mut config = HostConfig::new(paths, cwd);
    if let Some(mb) = settings.extension_memory_limit_mb() {
        config.memory_limit_mb = mb;
    }
    if let Some(limit) = settings.extension_startup_limit() {
        config.startup_limit = limit;
    }
    let handle = ExtensionHandle::start(config, view);
    handle.load().await;
    let start = json!({"type": "session_start", "reason": "startup"});
    handle.emit("session_start", start).await;
    let profile = handle.profile().await;
    handle.stop_processes().await;
    profile
}

fn rows(profile: &Profile, agent_dir: &Path, cwd: &Path) -> Vec<ExtensionRow> {
    profile
        .extensions
        .iter()
        .map(|p| ExtensionRow {
            source: source_label(source_of(&p.path, agent_dir, cwd)),
            shown_path: crate::ui_kit::text::tilde_path(&p.path),
            profile: p.clone(),
        })
        .collect()
}

/// The profile as text: a title, then per extension its row and every detail line.
pub fn render(profile: &Profile, agent_dir: &Path, cwd: &Path) -> String {
    let all = rows(profile, agent_dir, cwd);
    let loaded = all
        .iter()
        .filter(|r| r.profile.status == ExtStatus::Loaded)
        .count();
    let mut out = t!(
        "pi.extensions.title",
        count = all.len().to_string(),
        loaded = loaded.to_string(),
        memory = human_bytes(profile.vm_memory_bytes)
    );
    out.push('\n');
    if all.is_empty() {
        out.push_str(&t!("pi.extensions.none"));
        out.push('\n');
    }
    for row in &all {
        out.push_str(&summary(row));
        out.push('\n');
        for line in details(row, usize::MAX) {
            out.push_str("    ");
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

/// The profile as JSON: `{ok, vmMemoryBytes, extensions: [{path, source, status, …}]}`.
pub fn to_json(profile: &Profile, agent_dir: &Path, cwd: &Path) -> Value {
    let extensions: Vec<Value> = profile
        .extensions
        .iter()
        .map(|p| {
            let mut value = serde_json::to_value(p).unwrap_or(Value::Null);
            value["source"] = json!(source_of(&p.path, agent_dir, cwd));
            value
        })
        .collect();
    json!({
        "ok": !failed(profile),
        "vmMemoryBytes": profile.vm_memory_bytes,
        "extensions": extensions,
    })
}

/// Whether an extension failed to load.
pub fn failed(profile: &Profile) -> bool {
    profile
        .extensions
        .iter()
        .any(|e| e.status == ExtStatus::Error)
}
