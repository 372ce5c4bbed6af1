//! The component functions of `ctx.ui`: `custom`, `setFooter`, `setHeader`,
//! `setWidget` (factory or lines) and `setEditorComponent`. Without a UI
//! that draws components they do nothing and `custom` returns `nil`.

use mlua::{Function, Lua, Table, Value as LuaValue};

use crate::lua::ui::components::{Slot, components};
use crate::lua::ui::surfaces::Placement;

fn placement(opts: Option<&Table>) -> mlua::Result<Placement> {
    let name = match opts {
        Some(o) => o.get::<Option<String>>("placement")?,
        None => None,
    };
    match name.as_deref() {
        None | Some("aboveEditor") => Ok(Placement::AboveEditor),
        Some("belowEditor") => Ok(Placement::BelowEditor),
        Some(other) => Err(mlua::Error::runtime(format!(
            "setWidget placement \"{other}\" is unknown; use \"aboveEditor\" or \"belowEditor\""
        ))),
    }
}

fn slot_setter(lua: &Lua, slot: Slot) -> mlua::Result<Function> {
    lua.create_function(move |lua, factory: Option<Function>| {
        let c = components(lua)?;
        if !c.attached() {
            return Ok(());
        }
        c.set_slot(lua, slot.clone(), factory)
    })
}

/// Where the factory last given to `setEditorComponent` is kept.
const EDITOR_FACTORY_KEY: &str = "pi.ui.editorFactory";

/// The `setWidget` option that marks lines the component store already draws.
pub const DRAWN_BY_COMPONENTS: &str = "drawnByComponents";

/// Put the component functions on `ui`, keeping any earlier `setWidget`
/// for plain lines.
pub fn add_ui_functions(lua: &Lua, ui: &Table) -> mlua::Result<()> {
    ui.set(
        "custom",
        lua.create_async_function(
            |lua, (factory, opts): (Function, Option<Table>)| async move {
                let c = components(&lua)?;
                if !c.attached() {
                    return Ok(LuaValue::Nil);
                }
                c.custom(&lua, factory, opts).await
            },
        )?,
    )?;
    ui.set("setFooter", slot_setter(lua, Slot::Footer)?)?;
    ui.set("setHeader", slot_setter(lua, Slot::Header)?)?;
    let set_editor = slot_setter(lua, Slot::Editor)?;
    ui.set(
        "setEditorComponent",
        lua.create_function(move |lua, factory: Option<Function>| {
            // Kept so that `getEditorComponent` can hand it to an extension that wraps it.
            lua.set_named_registry_value(EDITOR_FACTORY_KEY, factory.clone())?;
            set_editor.call::<()>(factory)
        })?,
    )?;
    ui.set(
        "getEditorComponent",
        lua.create_function(|lua, ()| {
            lua.named_registry_value::<Option<Function>>(EDITOR_FACTORY_KEY)
        })?,
    )?;
    let lines_setter: Option<Function> = ui.get("setWidget")?;
    ui.set(
        "setWidget",
        lua.create_function(
            move |lua, (key, content, opts): (String, LuaValue, Option<Table>)| {
                let c = components(lua)?;
                let place = placement(opts.as_ref())?;
                match &content {
                    LuaValue::Function(f) if c.attached() => {
                        return c.set_slot(lua, Slot::Widget(key, place), Some(f.clone()));
                    }
                    LuaValue::Function(_) => return Ok(()),
                    _ => {}
                }
                // A UI that draws components shows plain lines through the same
                // store as factories; sending them the other way too drew them twice.
                // The front end still hears of them (marked), so it knows not to draw them.
                let drawn_here = c.attached() && matches!(content, LuaValue::Table(_));
                if let Some(f) = &lines_setter {
                    let opts = match (&opts, drawn_here) {
                        (_, false) => opts.clone(),
                        (Some(o), true) => {
                            let copy = lua.create_table()?;
                            for pair in o.pairs::<LuaValue, LuaValue>() {
                                let (k, v) = pair?;
                                copy.set(k, v)?;
                            }
                            copy.set(DRAWN_BY_COMPONENTS, true)?;
                            Some(copy)
                        }
                        (None, true) => {
                            let marked = lua.create_table()?;
                            marked.set(DRAWN_BY_COMPONENTS, true)?;
                            Some(marked)
                        }
                    };
                    f.call::<()>((key.clone(), content.clone(), opts))?;
                }
                if !c.attached() {
                    return Ok(());
                }
                match content {
                    LuaValue::Table(t) => {
                        let mut lines = Vec::new();
                        for (i, v) in t.sequence_values::<LuaValue>().enumerate() {
                            match v? {
                                LuaValue::String(s) => lines.push(s.to_string_lossy()),
                                other => {
                                    return Err(mlua::Error::runtime(format!(
                                        "setWidget(\"{key}\"): lines[{}] is a {}; every line must be a string",
                                        i + 1,
                                        other.type_name()
                                    )));
                                }
                            }
                        }
                        c.set_widget_lines(key, place, lines);
                    }
                    _ => c.set_slot(lua, Slot::Widget(key, place), None)?,
                }
                Ok(())
            },
        )?,
    )?;
    Ok(())
}
