//! Times the Lua extension host: loading 20 typical extensions, a full reload
//! with 20 extensions, dispatching one `tool_call` through 20 handlers, the
//! RSS the VM adds, and loading and reloading every example extension in
//! `extensions/examples/` together.
//!
//! Run with `cargo run --release --example lua_bench`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use pi::lua::{ExtensionHandle, HostConfig, SharedView};
use serde_json::json;

const EXTENSIONS: usize = 20;

fn typical_extension(i: usize) -> String {
    format!(
        r#"-- typical extension {i}: a guard, a tool and a command
local blocked = {{ "rm %-rf", "sudo ", "mkfs" }}
return function(pi)
  pi.state.count = pi.state.count or 0
  pi.on("tool_call", function(event, ctx)
    if event.toolName ~= "bash" then return nil end
    local cmd = event.input.command or ""
    for _, pattern in ipairs(blocked) do
      if cmd:find(pattern) then
        return {{ block = true, reason = "blocked by extension {i}" }}
      end
    end
    pi.state.count = pi.state.count + 1
  end)
  pi.on("session_start", function(event, ctx) end)
  pi.registerTool({{
    name = "tool_{i}",
    description = "Example tool {i}",
    parameters = {{ type = "object", properties = {{ text = {{ type = "string" }} }}, required = {{ "text" }} }},
    execute = function(id, params) return {{ content = {{ {{ type = "text", text = params.text }} }} }} end,
  }})
  pi.registerCommand("cmd{i}", {{ description = "command {i}", handler = function(args, ctx) end }})
end
"#
    )
}

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let paths: Vec<PathBuf> = (0..EXTENSIONS)
        .map(|i| {
            let p = dir.path().join(format!("ext{i}.lua"));
            std::fs::write(&p, typical_extension(i)).expect("write extension");
            p
        })
        .collect();

    // RSS first, with exactly one VM, so freed VMs do not count.
    let rss_before = rss_kib();
    let handle = ExtensionHandle::start(
        HostConfig::new(paths.clone(), dir.path()),
        SharedView::new("."),
    );
    let report = handle.load().await;
    assert_eq!(report.loaded.len(), EXTENSIONS, "{:?}", report.errors);
    tokio::time::sleep(Duration::from_millis(50)).await;
    let rss_after = rss_kib();

    let mut loads = Vec::new();
    let mut handles = Vec::new();
    for _ in 0..11 {
        let handle = ExtensionHandle::start(
            HostConfig::new(paths.clone(), dir.path()),
            SharedView::new("."),
        );
        let started = Instant::now();
        let report = handle.load().await;
        loads.push(started.elapsed());
        assert_eq!(report.loaded.len(), EXTENSIONS, "{:?}", report.errors);
        handles.push(handle);
    }
    drop(handles);

    let mut reloads = Vec::new();
    for _ in 0..11 {
        let started = Instant::now();
        handle.reload().await;
        reloads.push(started.elapsed());
    }

    let event = json!({"type": "tool_call", "toolCallId": "c1", "toolName": "bash", "input": {"command": "ls -la"}});
    let mut dispatches = Vec::new();
    for _ in 0..2000 {
        let started = Instant::now();
        let out = handle.emit("tool_call", event.clone()).await;
        dispatches.push(started.elapsed());
        assert!(out.errors.is_empty());
    }

    println!(
        "load {EXTENSIONS} extensions:            median {:?}",
        median(loads)
    );
    println!(
        "reload with {EXTENSIONS} extensions:     median {:?}",
        median(reloads)
    );
    println!(
        "tool_call through {EXTENSIONS} handlers: median {:?}",
        median(dispatches)
    );
    println!(
        "RSS with one VM of {EXTENSIONS} extensions:  +{:.1} MiB (process before: {:.1} MiB)",
        rss_after.saturating_sub(rss_before) as f64 / 1024.0,
        rss_before as f64 / 1024.0
    );
    examples_together().await;
}

/// Load and reload every example extension at once (median of 11 each).
async fn examples_together() {
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("extensions/examples");
    let paths = pi::lua::discovery::extensions_in_dir(&folder);
    let cwd = tempfile::tempdir().expect("temp dir");
    let mut loads = Vec::new();
    let mut last = None;
    for _ in 0..11 {
        let handle = ExtensionHandle::start(
            HostConfig::new(paths.clone(), cwd.path()),
            SharedView::new(cwd.path()),
        );
        let started = Instant::now();
        let report = handle.load().await;
        loads.push(started.elapsed());
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        last = Some(handle);
    }
    let handle = last.expect("loaded");
    let mut reloads = Vec::new();
    for _ in 0..11 {
        let started = Instant::now();
        handle.reload().await;
        reloads.push(started.elapsed());
    }
    println!(
        "load all {} example extensions:    median {:?}",
        paths.len(),
        median(loads)
    );
    println!(
        "reload all {} example extensions:  median {:?}",
        paths.len(),
        median(reloads)
    );
}
