//! The seam behind `ctx.ui`: a front end that shows extension dialogs and
//! chrome (the terminal UI, RPC mode's extension UI sub-protocol). Without
//! one, `ctx.ui` is headless: dialogs return their defaults and setters do
//! nothing.

pub mod chrome;
pub mod component_api;
pub mod component_render;
pub mod components;
pub mod dialogs;
pub mod lib;
pub mod overlay_focus;
pub mod overlay_options;
pub mod surfaces;
pub mod theme;
pub mod tool_render;

use std::rc::Rc;
use std::sync::Arc;

use serde_json::Value;
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use crate::lua::vm::HostCtx;
use crate::ui_kit::theme::Theme;

/// A front end that shows extension dialogs and chrome. Requests are pi's
/// `extension_ui_request` objects without `type` and `id`
/// (`{"method": "confirm", "title": ..., "message": ..., "timeout": ...}`).
pub trait ExtensionUi: Send + Sync {
    /// Show a dialog. The answer (`value`, `confirmed` or `cancelled`)
    /// arrives on the receiver; a dropped sender means "no answer". `closed`
    /// fires when the extension stops waiting (timeout, abort signal), so the
    /// front end can take the dialog down.
    fn dialog(&self, request: Value, closed: CancellationToken) -> oneshot::Receiver<Value>;
    /// Fire-and-forget: notify, setStatus, setWidget, setTitle, ...
    fn fire(&self, request: Value);
    /// Read front-end state: `editorText` (string), `toolsExpanded` (bool).
    /// `Null` when the front end does not know it.
    fn query(&self, _what: &str) -> Value {
        Value::Null
    }
    /// The theme named `name`, or the current one for `None`.
    fn theme(&self, name: Option<&str>) -> Option<Theme> {
        match name {
            None => Some(Theme::default()),
            Some(name) => Theme::builtin(name),
        }
    }
    /// Every theme the front end can switch to, as `{name, path}`.
    fn themes(&self) -> Vec<Value> {
        crate::ui_kit::theme::builtin_theme_names()
            .map(|name| serde_json::json!({ "name": name }))
            .collect()
    }
}

impl std::fmt::Debug for dyn ExtensionUi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ExtensionUi")
    }
}

/// A shared front end.
pub type SharedExtensionUi = Arc<dyn ExtensionUi>;

/// No front end (print and json mode): every dialog answers at once with
/// nothing, setters are dropped; `notify` reaches the session view when it
/// captures messages.
pub struct NoUi {
    /// Where captured notifications go.
    pub view: crate::lua::view::SharedView,
}

impl ExtensionUi for NoUi {
    fn dialog(&self, _request: Value, _closed: CancellationToken) -> oneshot::Receiver<Value> {
        oneshot::channel().1
    }

    fn fire(&self, request: Value) {
        if request["method"] != "notify" || !self.view.lock().capture_messages {
            return;
        }
        let message = request["message"].as_str().unwrap_or_default();
        let text = match request["notifyType"].as_str() {
            Some("error") => format!("Error: {message}"),
            _ => message.to_string(),
        };
        self.view.report(text);
    }
}

/// `ctx.ui` backed by `ui`: dialogs yield the calling coroutine until
/// answered, so the host keeps serving other events meanwhile.
pub fn connected_ui(
    lua: &mlua::Lua,
    host: &Rc<HostCtx>,
    ui: SharedExtensionUi,
) -> mlua::Result<mlua::Table> {
    let t = lua.create_table()?;
    crate::lua::ui::dialogs::install(lua, &t, host, &ui)?;
    crate::lua::ui::chrome::install(lua, &t, &ui)?;
    crate::lua::ui::theme::install(lua, &t, &ui)?;
    crate::lua::autocomplete::install(lua, &t, host)?;
    crate::lua::terminal_input::install(lua, &t, host)?;
    Ok(t)
}

static RECORD_CALL_SITES: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Make every `ctx.ui` request carry `at`: the extension file and line that made it
/// (`pi test` names it when an expectation on the call fails). Off by default.
pub fn record_call_sites(on: bool) {
    RECORD_CALL_SITES.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// `file:line` of the innermost Lua function loaded from a file on the calling stack,
/// when call sites are recorded.
pub fn call_site(lua: &mlua::Lua) -> Option<String> {
    if !RECORD_CALL_SITES.load(std::sync::atomic::Ordering::Relaxed) {
        return None;
    }
    (0..12).find_map(|level| {
        lua.inspect_stack(level, |debug| {
            let source = debug.source().source?.into_owned();
            let file = source.strip_prefix('@')?.to_string();
            let line = debug.current_line()?;
            Some(format!("{file}:{line}"))
        })
        .flatten()
    })
}

/// Put `site` into `request` as `at`.
pub fn add_site(request: &mut Value, site: Option<String>) {
    if let Some(site) = site {
        request["at"] = Value::String(site);
    }
}

/// `request` with the caller's call site added (see [`record_call_sites`]).
pub fn with_call_site(lua: &mlua::Lua, mut request: Value) -> Value {
    add_site(&mut request, call_site(lua));
    request
}
