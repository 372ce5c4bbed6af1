//! Data formats people write by hand, for extensions: `pi.yaml` (decode, encode,
//! frontmatter, keys) on the YAML parser pi uses for skills, and `pi.toml` (decode,
//! encode). Decoders return `value` or `nil, message` where the message names the line
//! and column; mappings remember the order of their keys (`pi.yaml.keys`).

use mlua::{Lua, LuaSerdeExt, MultiValue, Table, Value as LuaValue};
use serde_json::Value;

use crate::lua::convert::to_json;
use crate::t;

const ORDER: &str = "__order";

/// `pi.yaml` and `pi.toml`, added to the `pi` table.
pub fn add_formats(lua: &Lua, pi: &Table) -> mlua::Result<()> {
    pi.set("yaml", yaml_table(lua)?)?;
    pi.set("toml", toml_table(lua)?)?;
    Ok(())
}

/// Why a YAML or TOML text does not decode: the parser's own description and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// 1-based line and column, when the parser knows them.
    pub place: Option<(usize, usize)>,
    /// The parser's description, on one line.
    pub detail: String,
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.place {
            Some((line, column)) => f.write_str(&t!(
                "pi.ext.format.at",
                line = line.to_string(),
                column = column.to_string(),
                error = self.detail.as_str()
            )),
            None => f.write_str(&self.detail),
        }
    }
}

impl std::error::Error for DecodeError {}

/// Parse YAML text into JSON-shaped data; the error names the line and column.
pub fn yaml_to_json(text: &str) -> Result<Value, DecodeError> {
    let value: serde_norway::Value = serde_norway::from_str(text).map_err(|e| DecodeError {
        place: e.location().map(|at| (at.line(), at.column())),
        detail: e.to_string(),
    })?;
    Ok(norway_to_json(value))
}

fn norway_to_json(value: serde_norway::Value) -> Value {
    use serde_norway::Value as Y;
    match value {
        Y::Null => Value::Null,
        Y::Bool(b) => Value::Bool(b),
        Y::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::from(i)
            } else if let Some(u) = n.as_u64() {
                Value::from(u)
            } else {
                n.as_f64()
                    .and_then(serde_json::Number::from_f64)
                    .map(Value::Number)
                    .unwrap_or(Value::Null)
            }
        }
        Y::String(s) => Value::String(s),
        Y::Sequence(items) => Value::Array(items.into_iter().map(norway_to_json).collect()),
        Y::Mapping(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (scalar_key(k), norway_to_json(v)))
                .collect(),
        ),
        Y::Tagged(tagged) => norway_to_json(tagged.value),
    }
}

fn scalar_key(key: serde_norway::Value) -> String {
    use serde_norway::Value as Y;
    match key {
        Y::String(s) => s,
        Y::Bool(b) => b.to_string(),
        Y::Number(n) => n.to_string(),
        Y::Null => "null".into(),
        other => serde_norway::to_string(&other)
            .unwrap_or_default()
            .trim()
            .to_string(),
    }
}

/// JSON-shaped data as Lua: `null` becomes `nil` (a mapping drops the key), arrays get
/// the array metatable, and every mapping's metatable lists its keys in order.
pub fn data_to_lua(lua: &Lua, value: &Value) -> mlua::Result<LuaValue> {
    Ok(match value {
        Value::Null => LuaValue::Nil,
        Value::Bool(b) => LuaValue::Boolean(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => LuaValue::Integer(i),
            None => LuaValue::Number(n.as_f64().unwrap_or(0.0)),
        },
        Value::String(s) => LuaValue::String(lua.create_string(s)?),
        Value::Array(items) => {
            let t = lua.create_table_with_capacity(items.len(), 0)?;
            for (i, item) in items.iter().enumerate() {
                let v = match item {
                    Value::Null => lua.null(),
                    other => data_to_lua(lua, other)?,
                };
                t.raw_set(i + 1, v)?;
            }
            t.set_metatable(Some(lua.array_metatable()))?;
            LuaValue::Table(t)
        }
        Value::Object(map) => {
            let t = lua.create_table_with_capacity(0, map.len())?;
            let order = lua.create_table_with_capacity(map.len(), 0)?;
            for (k, v) in map {
                order.raw_push(k.as_str())?;
                t.raw_set(k.as_str(), data_to_lua(lua, v)?)?;
            }
            let meta = lua.create_table()?;
            meta.set(ORDER, order)?;
            t.set_metatable(Some(meta))?;
            LuaValue::Table(t)
        }
    })
}

fn fail(lua: &Lua, what: &str, message: String) -> mlua::Result<MultiValue> {
    Ok(MultiValue::from_vec(vec![
        LuaValue::Nil,
        LuaValue::String(lua.create_string(format!("{what}: {message}"))?),
    ]))
}

fn ok(value: LuaValue) -> MultiValue {
    MultiValue::from_vec(vec![value])
}

/// The keys of a decoded mapping in the order the file wrote them; other tables give
/// their string keys sorted.
fn ordered_keys(lua: &Lua, t: Table) -> mlua::Result<Table> {
    if let Some(meta) = t.metatable()
        && let Ok(LuaValue::Table(order)) = meta.raw_get::<LuaValue>(ORDER)
    {
        let out = lua.create_table()?;
        for key in order.sequence_values::<String>() {
            let key = key?;
            if !t.raw_get::<LuaValue>(key.as_str())?.is_nil() {
                out.raw_push(key)?;
            }
        }
        return Ok(out);
    }
    let mut keys: Vec<String> = Vec::new();
    for pair in t.pairs::<LuaValue, LuaValue>() {
        if let (LuaValue::String(k), _) = pair? {
            keys.push(k.to_string_lossy());
        }
    }
    keys.sort();
    lua.create_sequence_from(keys)
}

fn yaml_table(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.set(
        "decode",
        lua.create_function(|lua, text: String| match yaml_to_json(&text) {
            Ok(v) => Ok(ok(data_to_lua(lua, &v)?)),
            Err(e) => fail(lua, "YAML", e.to_string()),
        })?,
    )?;
    t.set(
        "encode",
        lua.create_function(|lua, v: LuaValue| {
            serde_norway::to_string(&to_json(lua, v)?).map_err(mlua::Error::external)
        })?,
    )?;
    t.set(
        "frontmatter",
        lua.create_function(|lua, text: String| {
            match crate::resources::frontmatter::parse(&text) {
                Ok(doc) => Ok(MultiValue::from_vec(vec![
                    data_to_lua(lua, &doc.data)?,
                    LuaValue::String(lua.create_string(&doc.body)?),
                ])),
                Err(e) => fail(lua, "YAML frontmatter", e.to_string()),
            }
        })?,
    )?;
    t.set(
        "keys",
        lua.create_function(|lua, t: Table| ordered_keys(lua, t))?,
    )?;
    Ok(t)
}

/// Parse TOML text into JSON-shaped data; the error names the line and column.
pub fn toml_to_json(text: &str) -> Result<Value, DecodeError> {
    let value: toml::Table = toml::from_str(text).map_err(|e| DecodeError {
        place: e.span().map(|span| line_col(text, span.start)),
        detail: one_line(e.message()),
    })?;
    serde_json::to_value(value).map_err(|e| DecodeError {
        place: None,
        detail: e.to_string(),
    })
}

/// A parser message on one line (`; ` between its lines).
fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// 1-based line and column of byte `offset` in `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

fn toml_table(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.set(
        "decode",
        lua.create_function(|lua, text: String| match toml_to_json(&text) {
            Ok(v) => Ok(ok(data_to_lua(lua, &v)?)),
            Err(e) => fail(lua, "TOML", e.to_string()),
        })?,
    )?;
    t.set(
        "encode",
        lua.create_function(|lua, v: LuaValue| {
            let json = to_json(lua, v)?;
            if !json.is_object() {
                return fail(lua, "TOML", t!("pi.ext.format.toml_needs_table"));
            }
            match toml::to_string(&json) {
                Ok(text) => Ok(ok(LuaValue::String(lua.create_string(text)?))),
                Err(e) => fail(lua, "TOML", e.to_string()),
            }
        })?,
    )?;
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_errors_name_line_and_column() {
        let err = yaml_to_json("a: 1\nb: [unclosed\n").unwrap_err();
        assert!(err.place.is_some(), "{err}");
        assert!(err.to_string().starts_with("line "), "{err}");
        let v = yaml_to_json("x:\n  - 1\n  - two\n").unwrap();
        assert_eq!(v["x"][1], "two");
    }

    #[test]
    fn toml_round_trip_and_error_place() {
        let v = toml_to_json("[a]\nb = 2 # note\n").unwrap();
        assert_eq!(v["a"]["b"], 2);
        let err = toml_to_json("a = 1\nb = \n").unwrap_err();
        assert_eq!(err.place.map(|(line, _)| line), Some(2), "{err}");
        assert!(err.to_string().starts_with("line 2"), "{err}");
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
    }

    #[test]
    fn lua_tables_keep_key_order_and_drop_nulls() {
        let lua = Lua::new();
        let pi = lua.create_table().unwrap();
        add_formats(&lua, &pi).unwrap();
        lua.globals().set("pi", pi).unwrap();
        let out: String = lua
            .load(
                r#"local d = pi.yaml.decode("zeta: 1\nalpha: ~\nmid: [a, b]\n")
                return table.concat(pi.yaml.keys(d), ",") .. "|" .. tostring(d.alpha) .. "|" .. #d.mid"#,
            )
            .eval()
            .unwrap();
        assert_eq!(out, "zeta,mid|nil|2");
    }
}
