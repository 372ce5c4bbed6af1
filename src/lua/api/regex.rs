//! `pi.regex`: regular expressions with look-around and back-references (the
//! `fancy-regex` engine), for rules written in the syntax other tools use.
//! `pi.regex.new(pattern, opts)` gives a compiled expression or `nil, message`.

use std::rc::Rc;

use fancy_regex::{Regex, RegexBuilder};
use mlua::{Lua, MultiValue, Table, Value as LuaValue};

/// Steps the engine may take on one match before giving up (a runaway pattern
/// fails instead of hanging the extension host).
const BACKTRACK_LIMIT: usize = 1_000_000;

/// Compile `pattern`; `ignore_case` as the `i` flag.
pub fn compile(pattern: &str, ignore_case: bool) -> Result<Regex, Box<fancy_regex::Error>> {
    RegexBuilder::new(pattern)
        .case_insensitive(ignore_case)
        .backtrack_limit(BACKTRACK_LIMIT)
        .build()
        .map_err(Box::new)
}

/// What Lua is told about a pattern that does not compile.
fn bad_regex(pattern: &str, e: &fancy_regex::Error) -> String {
    crate::t!("pi.ext.regex.bad", pattern = pattern, error = e.to_string())
}

/// `pi.regex`, added to the `pi` table.
pub fn add_regex(lua: &Lua, pi: &Table) -> mlua::Result<()> {
    let t = lua.create_table()?;
    t.set(
        "new",
        lua.create_function(|lua, (pattern, opts): (String, Option<Table>)| {
            let ignore_case = match &opts {
                Some(o) => o.get::<Option<bool>>("ignoreCase")?.unwrap_or(false),
                None => false,
            };
            match compile(&pattern, ignore_case) {
                Ok(re) => Ok(MultiValue::from_vec(vec![LuaValue::Table(object(
                    lua,
                    Rc::new(re),
                    &pattern,
                )?)])),
                Err(e) => Ok(MultiValue::from_vec(vec![
                    LuaValue::Nil,
                    LuaValue::String(lua.create_string(bad_regex(&pattern, &e))?),
                ])),
            }
        })?,
    )?;
    t.set(
        "test",
        lua.create_function(|_, (pattern, text): (String, String)| {
            let re = compile(&pattern, false)
                .map_err(|e| mlua::Error::runtime(bad_regex(&pattern, &e)))?;
            re.is_match(&text)
                .map_err(|e| mlua::Error::runtime(e.to_string()))
        })?,
    )?;
    pi.set("regex", t)
}

/// Byte offset (0-based) to a Lua position (1-based, counted in bytes).
fn pos(i: usize) -> i64 {
    i as i64 + 1
}

fn object(lua: &Lua, re: Rc<Regex>, pattern: &str) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.set("source", pattern)?;
    let r = re.clone();
    t.set(
        "test",
        lua.create_function(move |_, text: String| {
            r.is_match(&text)
                .map_err(|e| mlua::Error::runtime(e.to_string()))
        })?,
    )?;
    let r = re.clone();
    t.set(
        "find",
        lua.create_function(move |lua, text: String| {
            let found = r
                .find(&text)
                .map_err(|e| mlua::Error::runtime(e.to_string()))?;
            Ok(match found {
                Some(m) => MultiValue::from_vec(vec![
                    LuaValue::Integer(pos(m.start())),
                    LuaValue::Integer(m.end() as i64),
                    LuaValue::String(lua.create_string(m.as_str())?),
                ]),
                None => MultiValue::from_vec(vec![LuaValue::Nil]),
            })
        })?,
    )?;
    let r = re;
    t.set(
        "captures",
        lua.create_function(move |lua, text: String| {
            let caps = r
                .captures(&text)
                .map_err(|e| mlua::Error::runtime(e.to_string()))?;
            let Some(caps) = caps else {
                return Ok(LuaValue::Nil);
            };
            let out = lua.create_table()?;
            for (i, m) in caps.iter().enumerate() {
                if let Some(m) = m {
                    out.raw_set(i, m.as_str())?;
                }
            }
            for name in r.capture_names().flatten() {
                if let Some(m) = caps.name(name) {
                    out.raw_set(name, m.as_str())?;
                }
            }
            Ok(LuaValue::Table(out))
        })?,
    )?;
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookahead_is_supported() {
        let re = compile(r"\bgit\s+push\s+.*--force(?!-with-lease)", false).unwrap();
        assert!(re.is_match("git push origin --force").unwrap());
        assert!(!re.is_match("git push --force-with-lease").unwrap());
        assert!(compile("(unclosed", false).is_err());
    }
}
