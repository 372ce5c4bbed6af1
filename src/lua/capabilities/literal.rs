//! Reading an extension's `capabilities = { … }` from its source text before the file
//! runs, so its top-level code already runs with what it declares. The first
//! `capabilities = {` outside strings and comments is taken; its table constructor is
//! evaluated alone, in an empty environment, so only a literal (strings and tables)
//! gives a declaration.

use mlua::{Lua, LuaOptions, StdLib, Value as LuaValue};

use crate::lua::capabilities::{Capabilities, DeclarationError};
use crate::lua::convert::to_json;

/// The literal declaration in `source`: `None` when there is none pi can read without
/// running the file; `Some(Err)` when it is there but wrong.
pub fn declared_in(source: &str) -> Option<Result<Capabilities, DeclarationError>> {
    let text = constructor(source)?;
    let lua = Lua::new_with(StdLib::NONE, LuaOptions::default()).ok()?;
    let env = lua.create_table().ok()?;
    let value: LuaValue = lua
        .load(format!("return {text}"))
        .set_mode(mlua::ChunkMode::Text)
        .set_environment(env)
        .eval()
        .ok()?;
    let json = to_json(&lua, value).ok()?;
    Some(Capabilities::from_json(&json))
}

/// Whether the word `capabilities` appears in `source` outside strings and comments.
pub fn mentions_in_code(source: &str) -> bool {
    word_positions(source).next().is_some()
}

/// Where the word `capabilities` starts in code (not in strings or comments).
fn word_positions(source: &str) -> impl Iterator<Item = usize> + '_ {
    let bytes = source.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            if let Some(next) = skip_non_code(bytes, i) {
                i = next;
                continue;
            }
            let at = i;
            i += 1;
            if source.is_char_boundary(at)
                && source[at..].starts_with("capabilities")
                && (at == 0 || !is_word(bytes[at - 1]))
                && !bytes.get(at + 12).copied().is_some_and(is_word)
            {
                return Some(at);
            }
        }
        None
    })
}

/// The text of the table constructor after the first `capabilities =` in code.
fn constructor(source: &str) -> Option<&str> {
    let bytes = source.as_bytes();
    for i in word_positions(source) {
        let mut j = skip_space(bytes, i + 12);
        if bytes.get(j) == Some(&b'=') && bytes.get(j + 1) != Some(&b'=') {
            j = skip_space(bytes, j + 1);
            if bytes.get(j) == Some(&b'{') {
                let end = matching_brace(bytes, j)?;
                return source.get(j..=end);
            }
        }
    }
    None
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn skip_space(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

/// The closing `}` of the constructor opening at `open`, strings and comments skipped.
fn matching_brace(bytes: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while i < bytes.len() {
        if let Some(next) = skip_non_code(bytes, i) {
            i = next;
            continue;
        }
        match bytes[i] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// When a string or comment starts at `i`: the index just after it.
fn skip_non_code(bytes: &[u8], i: usize) -> Option<usize> {
    match bytes[i] {
        b'-' if bytes.get(i + 1) == Some(&b'-') => {
            if let Some(end) = long_bracket(bytes, i + 2) {
                return Some(end);
            }
            let line_end = bytes[i..].iter().position(|&b| b == b'\n');
            Some(line_end.map_or(bytes.len(), |p| i + p + 1))
        }
        b'"' | b'\'' => {
            let quote = bytes[i];
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != quote && bytes[j] != b'\n' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            Some((j + 1).min(bytes.len()))
        }
        b'[' => long_bracket(bytes, i),
        _ => None,
    }
}

/// When a long bracket (`[[`, `[==[`) opens at `i`: the index after its closing one.
fn long_bracket(bytes: &[u8], i: usize) -> Option<usize> {
    if bytes.get(i) != Some(&b'[') {
        return None;
    }
    let mut level = 0;
    while bytes.get(i + 1 + level) == Some(&b'=') {
        level += 1;
    }
    if bytes.get(i + 1 + level) != Some(&b'[') {
        return None;
    }
    let close: Vec<u8> = std::iter::once(b']')
        .chain(std::iter::repeat_n(b'=', level))
        .chain(std::iter::once(b']'))
        .collect();
    let start = i + 2 + level;
    let found = bytes[start..].windows(close.len()).position(|w| w == close);
    Some(found.map_or(bytes.len(), |p| start + p + close.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_literal_is_found_past_comments_and_strings() {
        let source = r#"
-- capabilities = { exec = { "in a comment" } }
local s = "capabilities = { exec = { 'in a string' } }"
--[[ capabilities = { exec = { "long comment" } } ]]
return {
  capabilities = { exec = { "git" }, fs = { read = { "." } } }, -- the real one }
  setup = function(pi) end,
}"#;
        let caps = declared_in(source).unwrap().unwrap();
        assert_eq!(caps.exec, ["git"]);
        assert_eq!(caps.read, ["."]);
    }

    #[test]
    fn only_a_literal_declares() {
        assert!(declared_in("return { setup = print }").is_none());
        assert!(!mentions_in_code(
            "-- no capabilities here\nlocal s = 'capabilities'"
        ));
        assert!(mentions_in_code("local t = {}\nt.capabilities = nil"));
        assert!(declared_in("return { capabilities = { env = { os.getenv('A') } } }").is_none());
        let bad = declared_in("return { capabilities = { exec = 'git' } }").unwrap();
        assert_eq!(bad.unwrap_err().key, "capabilities.exec");
        assert!(
            declared_in("return { capabilities = {} }")
                .unwrap()
                .unwrap()
                .is_empty()
        );
    }
}
