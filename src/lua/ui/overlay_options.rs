//! The overlay options of `ctx.ui.custom`: where a custom component floats over
//! the screen, read from the Lua options table.

use mlua::{Table, Value as LuaValue};

use crate::lua::ui::surfaces::{Margin, OverlayOptions, Size};

/// The overlay options of `ctx.ui.custom`'s options table: `None` unless `overlay = true`;
/// `overlayOptions` gives the anchor, width, maxHeight, margin, offsets and nonCapturing.
pub fn overlay_options(opts: Option<&Table>) -> mlua::Result<Option<OverlayOptions>> {
    let Some(opts) = opts else {
        return Ok(None);
    };
    if !opts.get::<Option<bool>>("overlay")?.unwrap_or(false) {
        return Ok(None);
    }
    let mut o = OverlayOptions::default();
    let Some(t) = opts.get::<Option<Table>>("overlayOptions")? else {
        return Ok(Some(o));
    };
    let size = |key: &str| -> mlua::Result<Option<Size>> {
        Ok(match t.get::<LuaValue>(key)? {
            LuaValue::Integer(n) => Some(Size::Cells(n.clamp(1, 10_000) as u16)),
            LuaValue::Number(n) => Some(Size::Cells(n.clamp(1.0, 10_000.0) as u16)),
            LuaValue::String(s) => {
                let s = s.to_string_lossy();
                let p = s.trim_end_matches('%').parse::<f32>().map_err(|_| {
                    mlua::Error::runtime(format!(
                        "overlayOptions.{key} = \"{s}\": use a number of cells or a percentage like \"50%\""
                    ))
                })?;
                Some(Size::Percent(p.clamp(1.0, 100.0)))
            }
            _ => None,
        })
    };
    o.width = size("width")?;
    o.max_height = size("maxHeight")?;
    o.min_width = t
        .get::<Option<f64>>("minWidth")?
        .map(|n| n.clamp(0.0, 10_000.0) as u16);
    // `row`/`col`: cells, or "N%" of the room left (an unreadable string: the anchor's).
    let position = |key: &str| -> mlua::Result<Option<Size>> {
        Ok(match t.get::<LuaValue>(key)? {
            LuaValue::Integer(n) => Some(Size::Cells(n.clamp(0, 10_000) as u16)),
            LuaValue::Number(n) => Some(Size::Cells(n.clamp(0.0, 10_000.0) as u16)),
            LuaValue::String(s) => s
                .to_string_lossy()
                .strip_suffix('%')
                .and_then(|p| p.parse::<f32>().ok())
                .map(|p| Size::Percent(p.clamp(0.0, 100.0))),
            _ => None,
        })
    };
    o.row = position("row")?;
    o.col = position("col")?;
    if let Some(a) = t.get::<Option<String>>("anchor")? {
        o.anchor = a;
    }
    // A number for every side or `{ top, right, bottom, left }`; negative counts as 0.
    let cells = |v: LuaValue| match v {
        LuaValue::Integer(n) => Some(n.clamp(0, 10_000) as u16),
        LuaValue::Number(n) => Some(n.clamp(0.0, 10_000.0) as u16),
        _ => None,
    };
    match t.get::<LuaValue>("margin")? {
        LuaValue::Table(m) => {
            o.margin = Margin {
                top: cells(m.get("top")?).unwrap_or(0),
                right: cells(m.get("right")?).unwrap_or(0),
                bottom: cells(m.get("bottom")?).unwrap_or(0),
                left: cells(m.get("left")?).unwrap_or(0),
            }
        }
        v => {
            if let Some(n) = cells(v) {
                o.margin = Margin::all(n);
            }
        }
    }
    o.offset_x = t.get::<Option<i32>>("offsetX")?.unwrap_or(0);
    o.offset_y = t.get::<Option<i32>>("offsetY")?.unwrap_or(0);
    o.non_capturing = t.get::<Option<bool>>("nonCapturing")?.unwrap_or(false);
    Ok(Some(o))
}
