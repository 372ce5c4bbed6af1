//! Lua components on the extension thread: `ctx.ui.custom`, `setFooter`,
//! `setHeader`, `setWidget(key, factory)` and `setEditorComponent`. The
//! components live here; a local task renders the dirty ones when the UI,
//! an input or a timer asks, and publishes their lines to the
//! [`SurfaceStore`]. The UI only ever reads what was published.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use mlua::{Function, Lua, Table, Value as LuaValue};
use tokio::sync::oneshot;

use crate::lua::ui::component_render::{Rendered, render_component};
use crate::lua::ui::overlay_options::overlay_options;
use crate::lua::ui::surfaces::{CustomSurface, OverlayOptions, Placement, SurfaceStore};
use crate::lua::vm::HostCtx;

mod overlay_handle;

/// What a mounted component stands for.
#[derive(Debug, Clone, PartialEq)]
pub enum Slot {
    /// `ctx.ui.custom` (overlay or in place of the editor).
    Custom(Option<OverlayOptions>),
    /// `setWidget(key, factory)`.
    Widget(String, Placement),
    /// `setFooter(factory)`.
    Footer,
    /// `setHeader(factory)`.
    Header,
    /// `setEditorComponent(factory)`.
    Editor,
}

struct Mounted {
    id: u64,
    slot: Slot,
    component: Table,
    extension: String,
    dirty: bool,
    /// Overran its budget: shows its error box until replaced.
    broken: bool,
    warned_wide: bool,
    done: Option<oneshot::Sender<LuaValue>>,
    /// An overlay's `visible(width, height)`.
    visible: Option<Function>,
}

/// The components of one VM.
pub struct Components {
    store: SurfaceStore,
    host: Rc<HostCtx>,
    mounted: RefCell<Vec<Mounted>>,
    next_id: Cell<u64>,
    tools: RefCell<crate::lua::ui::tool_render::ToolContexts>,
    weak: RefCell<Option<mlua::WeakLua>>,
    last_jobs:
        RefCell<std::collections::HashMap<String, crate::lua::ui::tool_render::ToolRenderJob>>,
}

/// The id the editor component's keys carry.
pub const EDITOR_ID: u64 = 0;

fn extension_name(f: &Function) -> String {
    let source = f.info().source.unwrap_or_default();
    let path = source.trim_start_matches('@');
    std::path::Path::new(path)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "extension".into())
}

impl Components {
    fn get(lua: &Lua) -> mlua::Result<Rc<Components>> {
        lua.app_data_ref::<Rc<Components>>()
            .map(|c| c.clone())
            .ok_or_else(|| mlua::Error::runtime("components are not set up in this VM"))
    }

    fn tui(&self, lua: &Lua, id: u64) -> mlua::Result<Table> {
        let t = lua.create_table()?;
        t.set(
            "requestRender",
            lua.create_function(move |lua, _: mlua::MultiValue| {
                Components::get(lua)?.request_render(Some(id));
                Ok(())
            })?,
        )?;
        let (cols, rows) = self.store.lock().size;
        t.set("width", cols)?;
        t.set("height", rows)?;
        let ui = crate::lua::ui::lib::module(lua)?;
        t.set("setInterval", ui.get::<Function>("setInterval")?)?;
        t.set("clearInterval", ui.get::<Function>("clearInterval")?)?;
        Ok(t)
    }

    /// Mark `id` (or every component) for rendering and wake the loop.
    pub fn request_render(&self, id: Option<u64>) {
        for m in self.mounted.borrow_mut().iter_mut() {
            if id.is_none_or(|id| m.id == id) {
                m.dirty = true;
            }
        }
        self.store.wake_host();
    }

    /// Build a component with `factory(tui, theme, keybindings, done?)`
    /// and mount it in `slot`, replacing one in the same non-custom slot.
    fn mount(
        &self,
        lua: &Lua,
        factory: Function,
        slot: Slot,
        done: Option<oneshot::Sender<LuaValue>>,
        visible: Option<Function>,
    ) -> mlua::Result<u64> {
        let id = if slot == Slot::Editor {
            EDITOR_ID
        } else {
            self.next_id.set(self.next_id.get() + 1);
            self.next_id.get()
        };
        let tui = self.tui(lua, id)?;
        let ui = crate::lua::ui::lib::module(lua)?;
        let theme: LuaValue = ui.get("defaultTheme")?;
        let keybindings: LuaValue = ui.get("keybindings")?;
        let done_fn = lua.create_function(move |lua, value: LuaValue| {
            Components::get(lua)?.finish(id, value);
            Ok(())
        })?;
        self.host.budget.reset();
        let component = match factory.call::<LuaValue>((tui, theme, keybindings, done_fn))? {
            LuaValue::Table(t) => t,
            other => {
                return Err(mlua::Error::runtime(format!(
                    "the component factory returned {} — it must return a table with render(width)",
                    other.type_name()
                )));
            }
        };
        if !matches!(slot, Slot::Editor) && component.get::<Option<Function>>("render")?.is_none() {
            return Err(mlua::Error::runtime(
                "the component has no render(width) function; return { render = function(width) return {lines} end }",
            ));
        }
        self.unmount_slot(&slot);
        if let Slot::Custom(overlay) = &slot {
            let shown = self.visible_now(visible.as_ref());
            self.store.lock().show(CustomSurface {
                id,
                overlay: overlay.clone(),
                shown,
                ..CustomSurface::default()
            });
        }
        self.mounted.borrow_mut().push(Mounted {
            id,
            slot,
            component,
            extension: extension_name(&factory),
            dirty: true,
            broken: false,
            warned_wide: false,
            done,
            visible,
        });
        self.store.wake_host();
        Ok(id)
    }

    /// Remove what occupies `slot` (customs stack instead).
    fn unmount_slot(&self, slot: &Slot) {
        if matches!(slot, Slot::Custom(_)) {
            return;
        }
        self.mounted.borrow_mut().retain(|m| &m.slot != slot);
        let mut s = self.store.lock();
        match slot {
            Slot::Footer => s.footer = None,
            Slot::Header => s.header = None,
            Slot::Editor => s.editor = None,
            Slot::Widget(key, _) => {
                s.widgets.shift_remove(key);
            }
            Slot::Custom(_) => {}
        }
        drop(s);
        self.store.published();
    }

    /// `done(value)` of custom `id`: close it and hand `value` to the
    /// waiting `ctx.ui.custom`. A second call finds nothing and is ignored.
    fn finish(&self, id: u64, value: LuaValue) {
        let taken = {
            let mut mounted = self.mounted.borrow_mut();
            let index = mounted.iter().position(|m| m.id == id);
            index.map(|i| mounted.remove(i))
        };
        let Some(mut m) = taken else {
            return;
        };
        self.store.lock().hide(id);
        self.store.published();
        if let Some(tx) = m.done.take() {
            let _ = tx.send(value);
        }
        if let Ok(Some(dispose)) = m.component.get::<Option<Function>>("dispose") {
            let _ = dispose.call::<()>(());
        }
    }

    /// Feed queued keys, then render and publish what is dirty.
    pub fn process(&self) {
        let (keys, redraw_all, (cols, _)) = {
            let mut s = self.store.lock();
            let keys: Vec<(u64, String)> = s.keys.drain(..).collect();
            (keys, std::mem::take(&mut s.redraw_all), s.size)
        };
        if redraw_all {
            self.request_render(None);
        }
        if self.refresh_visibility() {
            self.store.published();
        }
        for (id, key) in keys {
            self.deliver_key(id, key);
        }
        self.render_transcript(cols as usize);
        let dirty: Vec<(u64, Slot, Table, String, bool)> = self
            .mounted
            .borrow_mut()
            .iter_mut()
            .filter(|m| m.dirty && !m.broken)
            .map(|m| {
                m.dirty = false;
                (
                    m.id,
                    m.slot.clone(),
                    m.component.clone(),
                    m.extension.clone(),
                    m.warned_wide,
                )
            })
            .collect();
        if dirty.is_empty() {
            return;
        }
        let mut changed = false;
        for (id, slot, component, extension, warned) in dirty {
            let width = match &slot {
                Slot::Custom(Some(o)) => o.content_width(cols),
                _ => cols,
            } as usize;
            if slot == Slot::Editor
                && component
                    .get::<Option<Function>>("render")
                    .ok()
                    .flatten()
                    .is_none()
            {
                self.store.lock().editor = Some(Vec::new());
                continue;
            }
            self.host.budget.reset();
            let Rendered {
                lines,
                overran,
                too_wide,
            } = render_component(&component, width, &extension);
            if too_wide && !warned {
                self.host.view.report(format!(
                    "Warning: extension {extension}: render({width}) returned lines wider than {width} columns; they were cut. Use ui.truncateToWidth."
                ));
            }
            if let Some(m) = self.mounted.borrow_mut().iter_mut().find(|m| m.id == id) {
                m.warned_wide |= too_wide;
                m.broken |= overran;
            }
            changed |= self.publish(id, &slot, lines);
        }
        // Unchanged lines are not announced, so asking every component to
        // render again after each frame settles instead of looping.
        if changed {
            self.store.published();
        }
    }

    /// Render queued tool rows and custom messages.
    fn render_transcript(&self, width: usize) {
        let (tool_jobs, message_jobs) = {
            let mut s = self.store.lock();
            let t: Vec<_> = s.tool_jobs.drain(..).collect();
            let m: Vec<_> = s.message_jobs.drain(..).collect();
            (t, m)
        };
        if tool_jobs.is_empty() && message_jobs.is_empty() {
            return;
        }
        let Some(lua) = self.weak_lua() else {
            return;
        };
        let theme: LuaValue = crate::lua::ui::lib::module(&lua)
            .and_then(|m| m.get("defaultTheme"))
            .unwrap_or(LuaValue::Nil);
        for job in tool_jobs {
            let self_shell = self
                .store
                .lock()
                .tool_renderers
                .get(&job.name)
                .copied()
                .unwrap_or(false);
            self.host.budget.reset();
            let lines = self
                .tools
                .borrow_mut()
                .render(&lua, &job, width, &theme, self_shell);
            self.last_jobs
                .borrow_mut()
                .insert(job.call_id.clone(), job.clone());
            match lines {
                Ok(lines) => self.store.lock().tool_lines.push((job.call_id, lines)),
                Err(e) => self.host.view.report(format!(
                    "Extension error: tool renderer of {}: {e}",
                    job.name
                )),
            }
        }
        for job in message_jobs {
            let custom_type = job.message["customType"].as_str().unwrap_or_default();
            let renderer = self
                .host
                .reg
                .borrow()
                .renderers
                .get(custom_type)
                .map(|(_, f)| f.clone());
            self.host.budget.reset();
            let lines = renderer.and_then(|f| {
                crate::lua::ui::tool_render::render_message(
                    &lua,
                    &f,
                    &job,
                    width.saturating_sub(2),
                    &theme,
                )
            });
            self.store.lock().message_lines.push((job.key, lines));
        }
        self.store.published();
    }

    /// `context.invalidate()` of a tool renderer: render that row again.
    pub fn invalidate_tool(&self, call_id: &str) {
        if let Some(job) = self.last_jobs.borrow().get(call_id) {
            self.store.lock().tool_jobs.push_back(job.clone());
            self.store.wake_host();
        }
    }

    fn weak_lua(&self) -> Option<Lua> {
        self.weak.borrow().as_ref().and_then(|w| w.try_upgrade())
    }

    /// Store a component's lines; `true` when they differ from the last ones.
    fn publish(&self, id: u64, slot: &Slot, lines: Vec<String>) -> bool {
        let mut s = self.store.lock();
        let target = match slot {
            Slot::Custom(_) => match s.customs.iter_mut().find(|c| c.id == id) {
                Some(c) => &mut c.lines,
                None => return false,
            },
            Slot::Widget(key, placement) => {
                let entry = s
                    .widgets
                    .entry(key.clone())
                    .or_insert_with(|| (*placement, Vec::new()));
                if entry.0 != *placement {
                    entry.0 = *placement;
                    entry.1 = lines;
                    return true;
                }
                &mut entry.1
            }
            Slot::Footer => s.footer.get_or_insert_with(|| vec![String::from("\0")]),
            Slot::Header => s.header.get_or_insert_with(|| vec![String::from("\0")]),
            Slot::Editor => s.editor.get_or_insert_with(|| vec![String::from("\0")]),
        };
        if *target == lines {
            return false;
        }
        *target = lines;
        true
    }

    fn deliver_key(&self, id: u64, key: String) {
        let component = self
            .mounted
            .borrow_mut()
            .iter_mut()
            .find(|m| m.id == id)
            .map(|m| {
                m.dirty = true;
                (m.component.clone(), m.extension.clone())
            });
        let Some((component, extension)) = component else {
            if id == EDITOR_ID {
                self.store.lock().editor_keys.push_back(key);
                self.store.published();
            }
            return;
        };
        let handler = component
            .get::<Option<Function>>("handleInput")
            .ok()
            .flatten();
        self.host.budget.reset();
        let result = match handler {
            Some(f) => f.call::<LuaValue>(key.clone()),
            None => Ok(LuaValue::Nil),
        };
        let result = match result {
            Ok(v) => v,
            Err(e) => {
                self.host.view.report(format!(
                    "Extension error: {extension}: handleInput failed: {e}"
                ));
                LuaValue::Boolean(true)
            }
        };
        if id != EDITOR_ID {
            return;
        }
        // The editor component hands keys back to the built-in editor:
        // false/nil passes `key` on, a string or list passes those instead.
        let passed: Vec<String> = match result {
            LuaValue::Boolean(true) => Vec::new(),
            LuaValue::String(s) => vec![s.to_string_lossy()],
            LuaValue::Table(t) => t.sequence_values::<String>().flatten().collect(),
            _ => vec![key],
        };
        if !passed.is_empty() {
            self.store.lock().editor_keys.extend(passed);
            self.store.published();
        }
    }
}

/// Set up components for this VM, start the render loop, and put
/// `custom`, `setFooter`, `setHeader`, `setWidget` and `setEditorComponent`
/// on `ui` (the `ctx.ui` table). String-list widgets keep working.
pub fn install(lua: &Lua, host: &Rc<HostCtx>, ui: &Table) -> mlua::Result<()> {
    let store = host.view.lock().surfaces.clone();
    store.clear();
    let components = Rc::new(Components {
        store: store.clone(),
        host: host.clone(),
        mounted: RefCell::new(Vec::new()),
        next_id: Cell::new(0),
        tools: RefCell::default(),
        weak: RefCell::new(Some(lua.weak())),
        last_jobs: RefCell::default(),
    });
    lua.set_app_data(components);
    lua.set_app_data(host.clone());
    let weak = lua.weak();
    let epoch = store.lock().reloads;
    if tokio::runtime::Handle::try_current().is_ok() {
        tokio::task::spawn_local(async move {
            loop {
                store.host_wakeup().await;
                let current = store.lock().reloads == epoch;
                let Some(lua) = weak.try_upgrade().filter(|_| current) else {
                    // Reloaded: pass the wake-up on to the new components.
                    store.wake_host();
                    break;
                };
                let Ok(c) = Components::get(&lua) else {
                    break;
                };
                c.process();
            }
        });
    }
    crate::lua::ui::component_api::add_ui_functions(lua, ui)
}

/// Components of `lua` (for the `ctx.ui` functions).
pub(crate) fn components(lua: &Lua) -> mlua::Result<Rc<Components>> {
    Components::get(lua)
}

impl Components {
    /// Whether a UI draws components (headless: the setters do nothing).
    pub fn attached(&self) -> bool {
        self.store.attached()
    }

    /// Mount a footer/header/widget/editor factory, or clear the slot.
    pub fn set_slot(&self, lua: &Lua, slot: Slot, factory: Option<Function>) -> mlua::Result<()> {
        match factory {
            Some(f) => self.mount(lua, f, slot, None, None).map(|_| ()),
            None => {
                self.unmount_slot(&slot);
                Ok(())
            }
        }
    }

    /// Show a static widget from plain lines.
    pub fn set_widget_lines(&self, key: String, placement: Placement, lines: Vec<String>) {
        self.unmount_slot(&Slot::Widget(key.clone(), placement));
        let (mut lines, hidden) =
            super::surfaces::clip_widget_lines(lines.iter().map(String::as_str));
        if hidden > 0 {
            lines.push(format!(
                "\x1b[2m{}\x1b[22m",
                super::surfaces::more_lines_text(hidden)
            ));
        }
        self.store.lock().widgets.insert(key, (placement, lines));
        self.store.published();
    }

    /// `ctx.ui.custom`: mount and wait for `done(value)`.
    pub async fn custom(
        &self,
        lua: &Lua,
        factory: Function,
        opts: Option<Table>,
    ) -> mlua::Result<LuaValue> {
        let overlay = overlay_options(opts.as_ref())?;
        let visible = match (&overlay, &opts) {
            (Some(_), Some(o)) => o
                .get::<Option<Table>>("overlayOptions")?
                .map(|t| t.get::<Option<Function>>("visible"))
                .transpose()?
                .flatten(),
            _ => None,
        };
        let is_overlay = overlay.is_some();
        let (tx, rx) = oneshot::channel();
        let id = self.mount(lua, factory, Slot::Custom(overlay), Some(tx), visible)?;
        let on_handle = match &opts {
            Some(o) if is_overlay => o.get::<Option<Function>>("onHandle")?,
            _ => None,
        };
        if let Some(on_handle) = on_handle {
            self.host.budget.reset();
            if let Err(e) = on_handle.call::<()>(overlay_handle::handle(lua, id)?) {
                self.finish(id, LuaValue::Nil);
                return Err(e);
            }
        }
        Ok(rx.await.unwrap_or(LuaValue::Nil))
    }
}
