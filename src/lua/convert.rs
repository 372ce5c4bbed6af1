//! JSON <-> Lua conversion with the options extensions need (functions inside
//! tables are skipped instead of failing; `nil` becomes JSON `null`; a table
//! that contains itself is skipped where it recurs). Tables nested deeper
//! than [`MAX_DEPTH`] are a Lua error, never a stack overflow.

use std::collections::HashSet;
use std::ffi::c_void;

use mlua::{DeserializeOptions, Lua, LuaSerdeExt, Table, Value as LuaValue};
use serde_json::Value;

/// The deepest nesting of tables converted to JSON.
pub const MAX_DEPTH: usize = 200;

/// Convert a Lua value to JSON, skipping functions and other non-data values.
pub fn to_json(lua: &Lua, value: LuaValue) -> mlua::Result<Value> {
    if value.is_nil() {
        return Ok(Value::Null);
    }
    if let LuaValue::Table(table) = &value {
        check_depth(table, 1, &mut HashSet::new())?;
    }
    lua.from_value_with(
        value,
        DeserializeOptions::new()
            .deny_unsupported_types(false)
            .deny_recursive_tables(false),
    )
}

/// An error when `table` holds tables nested deeper than [`MAX_DEPTH`]
/// (`depth` is its own level). A table already on the path is skipped, as the
/// conversion skips it.
fn check_depth(
    table: &Table,
    depth: usize,
    on_path: &mut HashSet<*const c_void>,
) -> mlua::Result<()> {
    if depth > MAX_DEPTH {
        return Err(mlua::Error::runtime(format!(
            "tables nested deeper than {MAX_DEPTH} levels cannot be converted to data"
        )));
    }
    on_path.insert(table.to_pointer());
    for pair in table.pairs::<LuaValue, LuaValue>() {
        let (key, value) = pair?;
        for item in [key, value] {
            if let LuaValue::Table(inner) = item
                && !on_path.contains(&inner.to_pointer())
            {
                check_depth(&inner, depth + 1, on_path)?;
            }
        }
    }
    on_path.remove(&table.to_pointer());
    Ok(())
}

/// Convert JSON to a Lua value (arrays get the array metatable, `null` is `pi.json.null`).
pub fn to_lua(lua: &Lua, value: &Value) -> mlua::Result<LuaValue> {
    lua.to_value(value)
}

/// A JSON string field of `value`, if present.
pub fn str_field<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value.get(key).and_then(Value::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_nested_data_and_skips_functions() {
        let lua = Lua::new();
        let v: LuaValue = lua
            .load(r#"return {a = 1, list = {"x", "y"}, f = function() end, nested = {ok = true}}"#)
            .eval()
            .unwrap();
        let json = to_json(&lua, v).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"a": 1, "list": ["x", "y"], "nested": {"ok": true}})
        );
        let back = to_lua(&lua, &json).unwrap();
        assert_eq!(to_json(&lua, back).unwrap(), json);
    }

    #[test]
    fn deep_tables_are_an_error_and_self_references_are_skipped() {
        let lua = Lua::new();
        let deep = |levels: usize| -> LuaValue {
            lua.load(format!(
                "local t = {{}}; local c = t; for i = 1, {levels} do c.x = {{}}; c = c.x end; return t"
            ))
            .eval()
            .unwrap()
        };
        assert!(to_json(&lua, deep(MAX_DEPTH - 1)).is_ok());
        let err = to_json(&lua, deep(100_000)).unwrap_err().to_string();
        assert!(err.contains("nested deeper than 200 levels"), "{err}");
        let looped: LuaValue = lua
            .load("local t = {a = 1}; t.self = t; return t")
            .eval()
            .unwrap();
        assert_eq!(to_json(&lua, looped).unwrap(), serde_json::json!({"a": 1}));
    }
}
