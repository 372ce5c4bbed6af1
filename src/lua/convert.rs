//! JSON <-> Lua conversion with the options extensions need (functions inside
//! tables are skipped instead of failing; `nil` becomes JSON `null`).

use mlua::{DeserializeOptions, Lua, LuaSerdeExt, Value as LuaValue};
use serde_json::Value;

/// Convert a Lua value to JSON, skipping functions and other non-data values.
pub fn to_json(lua: &Lua, value: LuaValue) -> mlua::Result<Value> {
    if value.is_nil() {
        return Ok(Value::Null);
    }
    lua.from_value_with(
        value,
        DeserializeOptions::new()
            .deny_unsupported_types(false)
            .deny_recursive_tables(false),
    )
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
}
