//! Loading playground extensions headless: a surface store for components
//! and, optionally, a scripted `ctx.ui` front end.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use pi::lua::ui::surfaces::{SurfaceStore, Surfaces};
use pi::lua::{ExtensionHandle, HostConfig, SharedExtensionUi, SharedView};

use super::fake_ui::FakeUi;

/// `extensions/playground/<name>`.
pub fn playground(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("extensions/playground")
        .join(name)
}

/// Load `names` (in order) into one host over `view`, with `ui` as the front
/// end; components publish to an 80×24 store.
pub async fn load(
    names: &[&str],
    view: SharedView,
    ui: Option<Arc<FakeUi>>,
) -> (ExtensionHandle, SurfaceStore) {
    let store = view.lock().surfaces.clone();
    let cwd = view.lock().cwd.clone();
    let mut config = HostConfig::new(names.iter().map(|n| playground(n)).collect(), cwd);
    config.ui = ui.map(|u| u as SharedExtensionUi);
    let handle = ExtensionHandle::start(config, view);
    let report = handle.load().await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    store.attach(80, 24);
    (handle, store)
}

/// Poll the store until `check` answers (20 s at most).
pub async fn until<T>(
    store: &SurfaceStore,
    what: &str,
    check: impl Fn(&Surfaces) -> Option<T>,
) -> T {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(v) = check(&store.lock()) {
            return v;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The lines of widget `key`, once it has some.
pub async fn widget(store: &SurfaceStore, key: &str) -> Vec<String> {
    until(store, key, |s| {
        s.widgets
            .get(key)
            .filter(|w| !w.1.is_empty())
            .map(|w| w.1.iter().map(|l| plain(l)).collect())
    })
    .await
}

/// `line` without ANSI escape sequences.
pub fn plain(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A branch entry holding `message`, chained after the previous id.
pub fn message(id: u32, time: &str, message: serde_json::Value) -> serde_json::Value {
    let parent = (id > 1).then(|| (id - 1).to_string());
    serde_json::json!({"type": "message", "id": id.to_string(), "parentId": parent,
        "timestamp": format!("2026-11-23T{time}.000Z"), "message": message})
}

/// Make `entries` (a chain) the session branch of `view`.
pub fn set_branch(view: &SharedView, entries: Vec<serde_json::Value>) {
    let leaf = entries
        .last()
        .and_then(|e| e["id"].as_str().map(String::from));
    let mut v = view.lock();
    v.entries = entries;
    v.leaf_id = leaf;
}
