//! Tool rows drawn by Lua: `registerTool{renderCall, renderResult,
//! renderShell}`. The UI queues a job when a row changes; the extension
//! thread calls the renderers, renders the components they return and
//! publishes the lines per tool call. An omitted or failing slot falls back
//! to the built-in rendering of that slot.

use std::collections::HashMap;

use mlua::{Function, Lua, Table, Value as LuaValue};
use serde_json::Value;

use crate::lua::convert::to_lua;
use crate::lua::ui::component_render::render_component;
use crate::lua::ui::surfaces::SurfaceStore;

const RENDERERS_KEY: &str = "pi.tool.renderers";

/// A tool row to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolRenderJob {
    /// Tool call id.
    pub call_id: String,
    /// Tool name.
    pub name: String,
    /// Call arguments.
    pub args: Value,
    /// `{content, details, isError}` once output exists.
    pub result: Option<Value>,
    /// Output expanded.
    pub expanded: bool,
    /// Still running.
    pub partial: bool,
}

/// Lines a tool's renderers produced; `None` slots use the built-in row.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolLines {
    /// From `renderCall`.
    pub call: Option<Vec<String>>,
    /// From `renderResult`.
    pub result: Option<Vec<String>>,
    /// `renderShell = "self"`: no background or padding around the row.
    pub self_shell: bool,
}

/// Remember the renderers of tool `name` (when `def` has any) and tell the
/// UI which tools have them.
pub fn register(lua: &Lua, store: &SurfaceStore, name: &str, def: &Table) -> mlua::Result<()> {
    let call = def.get::<Option<Function>>("renderCall")?;
    let result = def.get::<Option<Function>>("renderResult")?;
    let shell = def.get::<Option<String>>("renderShell")?;
    if let Some(s) = shell.as_deref().filter(|s| *s != "self" && *s != "default") {
        return Err(mlua::Error::runtime(format!(
            "registerTool \"{name}\": renderShell must be \"self\" or \"default\", got \"{s}\""
        )));
    }
    let table: Table = match lua.named_registry_value::<Option<Table>>(RENDERERS_KEY)? {
        Some(t) => t,
        None => {
            let t = lua.create_table()?;
            lua.set_named_registry_value(RENDERERS_KEY, t.clone())?;
            t
        }
    };
    if call.is_none() && result.is_none() {
        table.set(name, LuaValue::Nil)?;
        store.lock().tool_renderers.remove(name);
        return Ok(());
    }
    let entry = lua.create_table()?;
    entry.set("renderCall", call)?;
    entry.set("renderResult", result)?;
    table.set(name, entry)?;
    store
        .lock()
        .tool_renderers
        .insert(name.to_string(), shell.as_deref() == Some("self"));
    Ok(())
}

/// Per-call `context.state` and last components.
#[derive(Default)]
pub struct ToolContexts {
    states: HashMap<String, (Table, Option<Table>, Option<Table>)>,
}

fn extension_of(f: &Function) -> String {
    let source = f.info().source.unwrap_or_default();
    std::path::Path::new(source.trim_start_matches('@'))
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "extension".into())
}

impl ToolContexts {
    /// Run the renderers for `job` at `width`.
    pub fn render(
        &mut self,
        lua: &Lua,
        job: &ToolRenderJob,
        width: usize,
        theme: &LuaValue,
        self_shell: bool,
    ) -> mlua::Result<ToolLines> {
        let Some(table) = lua.named_registry_value::<Option<Table>>(RENDERERS_KEY)? else {
            return Ok(ToolLines::default());
        };
        let Some(entry) = table.get::<Option<Table>>(job.name.as_str())? else {
            return Ok(ToolLines::default());
        };
        let (state, last_call, last_result) = match self.states.get(&job.call_id) {
            Some(s) => s.clone(),
            None => (lua.create_table()?, None, None),
        };
        let context = lua.create_table()?;
        context.set("state", state.clone())?;
        context.set("toolCallId", job.call_id.as_str())?;
        context.set("args", to_lua(lua, &job.args)?)?;
        context.set("expanded", job.expanded)?;
        context.set("isPartial", job.partial)?;
        let call_id = job.call_id.clone();
        context.set(
            "invalidate",
            lua.create_function(move |lua, ()| {
                if let Ok(c) = crate::lua::ui::components::components(lua) {
                    c.invalidate_tool(&call_id);
                }
                Ok(())
            })?,
        )?;
        let width = if self_shell {
            width
        } else {
            width.saturating_sub(2)
        }
        .max(1);
        let mut out = ToolLines {
            self_shell,
            ..ToolLines::default()
        };
        let mut new_call = last_call.clone();
        if let Some(f) = entry.get::<Option<Function>>("renderCall")? {
            context.set("lastComponent", last_call)?;
            let ext = extension_of(&f);
            let args = to_lua(lua, &job.args)?;
            let value = f.call::<LuaValue>((args, theme.clone(), context.clone()));
            new_call = component_of(value.as_ref().ok().cloned());
            out.call = slot(value, width, &ext);
        }
        let mut new_result = last_result.clone();
        if let (Some(f), Some(result)) = (
            entry.get::<Option<Function>>("renderResult")?,
            job.result.as_ref(),
        ) {
            context.set("lastComponent", last_result)?;
            let ext = extension_of(&f);
            let options = lua.create_table()?;
            options.set("expanded", job.expanded)?;
            options.set("isPartial", job.partial)?;
            let value = f.call::<LuaValue>((to_lua(lua, result)?, options, theme.clone(), context));
            new_result = component_of(value.as_ref().ok().cloned());
            out.result = slot(value, width, &ext);
        }
        self.states
            .insert(job.call_id.clone(), (state, new_call, new_result));
        Ok(out)
    }
}

fn component_of(value: Option<LuaValue>) -> Option<Table> {
    match value {
        Some(LuaValue::Table(t)) => Some(t),
        _ => None,
    }
}

/// One slot's lines: a component is rendered, `nil` falls back to the
/// built-in slot, an error becomes an error line.
fn slot(value: mlua::Result<LuaValue>, width: usize, ext: &str) -> Option<Vec<String>> {
    match value {
        Ok(LuaValue::Table(component)) => Some(render_component(&component, width, ext).lines),
        Ok(_) => None,
        Err(e) => Some(vec![crate::lua::ui::component_render::error_box(
            ext,
            &format!("tool renderer failed: {e}"),
            width,
        )]),
    }
}

/// A custom message to draw with its `registerMessageRenderer` function.
#[derive(Debug, Clone, PartialEq)]
pub struct MessageRenderJob {
    /// Transcript key of the message.
    pub key: String,
    /// The message (`customType`, `content`, `details`, ...).
    pub message: Value,
    /// Expanded view.
    pub expanded: bool,
}

/// Run the renderer of `job`'s custom type; `None` when it has none or it
/// returned `nil` (the built-in rendering is used).
pub fn render_message(
    lua: &Lua,
    renderer: &Function,
    job: &MessageRenderJob,
    width: usize,
    theme: &LuaValue,
) -> Option<Vec<String>> {
    let options = lua.create_table().ok()?;
    options.set("expanded", job.expanded).ok()?;
    let message = to_lua(lua, &job.message).ok()?;
    let ext = extension_of(renderer);
    slot(
        renderer.call::<LuaValue>((message, options, theme.clone())),
        width,
        &ext,
    )
}
