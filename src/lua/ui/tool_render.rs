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
const DECORATORS_KEY: &str = "pi.tool.decorators";
const COMPOSE_KEY: &str = "pi.tool.compose";

/// Chains `pi.wrapToolRenderer` decorators around a tool's own renderer of one slot: each
/// decorator gets the slot's arguments plus `inner`, which runs the next decorator and
/// finally the tool's renderer (`nil` when the tool has none: the built-in row).
const COMPOSE: &str = r#"
local base, decorators, slot = ...
local function at(i, ...)
  local d = decorators[i]
  if d == nil then
    if base then return base(...) end
    return nil
  end
  local f = d[slot]
  if not f then return at(i + 1, ...) end
  local args = table.pack(...)
  local inner = function() return at(i + 1, table.unpack(args, 1, args.n)) end
  args[args.n + 1] = inner
  return f(table.unpack(args, 1, args.n + 1))
end
return function(...) return at(1, ...) end
"#;

/// Add a decorator (`{renderCall, renderResult}`, either optional) of tool `name`'s rows,
/// outside those added before it.
pub fn decorate(lua: &Lua, store: &SurfaceStore, name: &str, def: &Table) -> mlua::Result<()> {
    let table = named_table(lua, DECORATORS_KEY)?;
    let list = match table.get::<Option<Table>>(name)? {
        Some(list) => list,
        None => {
            let list = lua.create_table()?;
            table.set(name, list.clone())?;
            list
        }
    };
    list.push(def.clone())?;
    store
        .lock()
        .tool_renderers
        .entry(name.to_string())
        .or_insert(false);
    Ok(())
}

fn named_table(lua: &Lua, key: &str) -> mlua::Result<Table> {
    match lua.named_registry_value::<Option<Table>>(key)? {
        Some(t) => Ok(t),
        None => {
            let t = lua.create_table()?;
            lua.set_named_registry_value(key, t.clone())?;
            Ok(t)
        }
    }
}

/// The renderer of `slot` for tool `name`: its own, wrapped in its decorators.
fn slot_renderer(
    lua: &Lua,
    entry: Option<&Table>,
    decorators: Option<&Table>,
    slot: &str,
) -> mlua::Result<Option<(Function, String)>> {
    let base = match entry {
        Some(e) => e.get::<Option<Function>>(slot)?,
        None => None,
    };
    let mut outer = base.clone();
    if let Some(list) = decorators {
        for d in list.sequence_values::<Table>() {
            if let Some(f) = d?.get::<Option<Function>>(slot)? {
                outer = Some(f);
                break;
            }
        }
    }
    let Some(outer) = outer else { return Ok(None) };
    let ext = extension_of(&outer);
    let Some(list) = decorators else {
        return Ok(Some((outer, ext)));
    };
    let compose = match lua.named_registry_value::<Option<Function>>(COMPOSE_KEY)? {
        Some(f) => f,
        None => {
            let f = lua
                .load(COMPOSE)
                .set_name("=pi.tool.compose")
                .into_function()?;
            lua.set_named_registry_value(COMPOSE_KEY, f.clone())?;
            f
        }
    };
    let chained = compose.call::<Function>((base, list.clone(), slot))?;
    Ok(Some((chained, ext)))
}

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
    let table = named_table(lua, RENDERERS_KEY)?;
    if call.is_none() && result.is_none() {
        table.set(name, LuaValue::Nil)?;
        let decorated = named_table(lua, DECORATORS_KEY)?.contains_key(name)?;
        if !decorated {
            store.lock().tool_renderers.remove(name);
        }
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
        let entry = named_table(lua, RENDERERS_KEY)?.get::<Option<Table>>(job.name.as_str())?;
        let decorators =
            named_table(lua, DECORATORS_KEY)?.get::<Option<Table>>(job.name.as_str())?;
        if entry.is_none() && decorators.is_none() {
            return Ok(ToolLines::default());
        }
        let render_call = slot_renderer(lua, entry.as_ref(), decorators.as_ref(), "renderCall")?;
        let render_result =
            slot_renderer(lua, entry.as_ref(), decorators.as_ref(), "renderResult")?;
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
        if let Some((f, ext)) = render_call {
            context.set("lastComponent", last_call)?;
            let args = to_lua(lua, &job.args)?;
            let value = f.call::<LuaValue>((args, theme.clone(), context.clone()));
            new_call = component_of(value.as_ref().ok().cloned());
            out.call = slot(value, width, &ext);
        }
        let mut new_result = last_result.clone();
        if let (Some((f, ext)), Some(result)) = (render_result, job.result.as_ref()) {
            context.set("lastComponent", last_result)?;
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
