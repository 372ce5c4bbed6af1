//! The handle an overlay's `onHandle(handle)` receives — `hide`, `setHidden`,
//! `isHidden`, `focus`, `unfocus`, `isFocused` — and the overlay's `visible(width,
//! height)` callback, asked again whenever the components are processed.

use mlua::{Function, Lua, MultiValue, Table, Value as LuaValue};

use super::Components;

/// The handle of overlay `id`. Its functions work called with `.` or `:`.
pub(super) fn handle(lua: &Lua, id: u64) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let act = |f: fn(&mut crate::lua::ui::surfaces::Surfaces, u64)| {
        lua.create_function(move |lua, _: MultiValue| {
            let c = Components::get(lua)?;
            f(&mut c.store.lock(), id);
            c.store.published();
            Ok(())
        })
    };
    t.set(
        "hide",
        act(|s, id| {
            s.hide(id);
        })?,
    )?;
    t.set("focus", act(|s, id| s.focus_custom(id))?)?;
    t.set("unfocus", act(|s, id| s.unfocus(id))?)?;
    t.set(
        "setHidden",
        lua.create_function(move |lua, args: MultiValue| {
            // `handle.setHidden(true)` or `handle:setHidden(true)`: the last argument.
            let hidden = matches!(args.iter().last(), Some(LuaValue::Boolean(true)));
            let c = Components::get(lua)?;
            c.store.lock().set_hidden(id, hidden);
            c.store.published();
            Ok(())
        })?,
    )?;
    t.set(
        "isHidden",
        lua.create_function(move |lua, _: MultiValue| {
            let c = Components::get(lua)?;
            let s = c.store.lock();
            Ok(s.customs.iter().any(|c| c.id == id && c.hidden))
        })?,
    )?;
    t.set(
        "isFocused",
        lua.create_function(move |lua, _: MultiValue| {
            Ok(Components::get(lua)?.store.lock().is_focused(id))
        })?,
    )?;
    Ok(t)
}

impl Components {
    /// What `visible(width, height)` answers at the current size (`true` without one,
    /// or when it fails).
    pub(super) fn visible_now(&self, visible: Option<&Function>) -> bool {
        let Some(f) = visible else {
            return true;
        };
        let (cols, rows) = self.store.lock().size;
        self.host.budget.reset();
        f.call::<LuaValue>((cols, rows))
            .map(|v| !matches!(v, LuaValue::Nil | LuaValue::Boolean(false)))
            .unwrap_or(true)
    }

    /// Ask every overlay's `visible` again; `true` when an answer changed.
    pub(super) fn refresh_visibility(&self) -> bool {
        let checks: Vec<(u64, Function)> = self
            .mounted
            .borrow()
            .iter()
            .filter_map(|m| m.visible.clone().map(|f| (m.id, f)))
            .collect();
        let mut changed = false;
        for (id, f) in checks {
            let shown = self.visible_now(Some(&f));
            changed |= self.store.lock().set_shown(id, shown);
        }
        changed
    }
}
