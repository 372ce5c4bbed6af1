//! One source of truth for the Lua API: the functions and fields really set on `pi`,
//! `ctx` (of a command handler) and `ctx.ui` in a live VM, and on every nested table whose
//! annotation names a class (`pi.fs` is `pi.Fs`, `ctx.sessionManager` is
//! `pi.SessionManager`, …), must match the `---@field`s of the LuaLS annotations in
//! runtime-lua/types/ by name; for functions written in Lua the parameter count must match
//! the annotation's `fun(…)` too (functions written in Rust do not tell their arity).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use mlua::{Table, Value as LuaValue};
use pi::lua::registry::ExtensionInfo;
use pi::lua::vm::{Subscribed, Vm};
use pi::lua::{HostConfig, SharedView};

/// Annotated fields that exist only in some calls, with why.
const SOMETIMES_ABSENT: &[(&str, &str)] = &[(
    "ctx.signal",
    "set only while a tool runs (an event or command ctx has none)",
)];

/// One `---@class`: its parent and its fields (name, type text).
#[derive(Debug, Default, Clone)]
struct Class {
    parent: Option<String>,
    fields: BTreeMap<String, String>,
}

fn annotation_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            annotation_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "lua") {
            out.push(path);
        }
    }
}

/// Every class of runtime-lua/types/.
fn classes() -> BTreeMap<String, Class> {
    let mut files = Vec::new();
    annotation_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("runtime-lua/types"),
        &mut files,
    );
    let mut out: BTreeMap<String, Class> = BTreeMap::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let mut current: Option<String> = None;
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("---@class ") {
                // `Name`, `Name: Parent` or `Name:Parent`, then a description.
                let mut words = rest.split_whitespace();
                let head = words.next().unwrap_or_default();
                let (name, parent) = match head.split_once(':') {
                    Some((n, "")) => (n.to_string(), words.next().map(str::to_string)),
                    Some((n, p)) => (n.to_string(), Some(p.to_string())),
                    None => (head.to_string(), None),
                };
                let class = out.entry(name.clone()).or_default();
                if parent.is_some() {
                    class.parent = parent;
                }
                current = Some(name);
            } else if let Some(rest) = line.strip_prefix("---@field ") {
                let Some(class) = current.as_ref() else {
                    continue;
                };
                let (name, ty) = rest.split_once(' ').unwrap_or((rest, ""));
                out.get_mut(class)
                    .unwrap()
                    .fields
                    .insert(name.trim_end_matches('?').to_string(), ty.to_string());
            } else if !line.starts_with("---") {
                current = None;
            }
        }
    }
    out
}

/// The fields of `class` with those of its parents.
fn fields_of(classes: &BTreeMap<String, Class>, class: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut next = Some(class.to_string());
    while let Some(name) = next {
        let Some(c) = classes.get(&name) else { break };
        for (k, v) in &c.fields {
            out.entry(k.clone()).or_insert_with(|| v.clone());
        }
        next = c.parent.clone();
    }
    out
}

/// The number of parameters of an annotation `fun(a: x, b?: y): z`; `None` when the
/// type is not a plain `fun(...)` or takes `...`.
fn annotated_params(ty: &str) -> Option<usize> {
    let rest = ty.strip_prefix("fun(")?;
    let mut depth = 1;
    let mut end = 0;
    for (i, c) in rest.char_indices() {
        match c {
            '(' | '{' | '<' => depth += 1,
            ')' | '}' | '>' => {
                depth -= 1;
                if depth == 0 {
                    end = i;
                    break;
                }
            }
            _ => {}
        }
    }
    let inside = &rest[..end];
    if inside.contains("...") {
        return None;
    }
    let mut count = 0;
    let mut depth = 0;
    let mut any = false;
    for c in inside.chars() {
        match c {
            '(' | '{' | '<' => depth += 1,
            ')' | '}' | '>' => depth -= 1,
            ',' if depth == 0 => count += 1,
            c if !c.is_whitespace() => any = true,
            _ => {}
        }
    }
    Some(if any { count + 1 } else { 0 })
}

/// Compare the live `table` with `class`, recursing into fields typed by a class.
fn compare(
    classes: &BTreeMap<String, Class>,
    class: &str,
    where_: &str,
    table: &Table,
    seen: &mut BTreeSet<String>,
    problems: &mut Vec<String>,
) {
    if !seen.insert(class.to_string()) {
        return;
    }
    let annotated = fields_of(classes, class);
    let mut live = BTreeMap::new();
    for pair in table.clone().pairs::<LuaValue, LuaValue>() {
        let (k, v) = pair.unwrap();
        if let LuaValue::String(k) = k {
            live.insert(k.to_str().unwrap().to_string(), v);
        }
    }
    for name in live.keys() {
        if name.starts_with('_') {
            continue;
        }
        if !annotated.contains_key(name) {
            problems.push(format!(
                "{where_}.{name}: set at run time, not annotated in {class}"
            ));
        }
    }
    for (name, ty) in &annotated {
        let Some(value) = live.get(name) else {
            let key = format!("{where_}.{name}");
            if !SOMETIMES_ABSENT.iter().any(|(k, _)| *k == key) {
                problems.push(format!(
                    "{where_}.{name}: annotated in {class}, absent at run time"
                ));
            }
            continue;
        };
        match value {
            LuaValue::Function(f) => {
                let info = f.info();
                if info.what == "Lua"
                    && !info.is_vararg
                    && let Some(want) = annotated_params(ty)
                    && usize::from(info.num_params) != want
                {
                    problems.push(format!(
                        "{where_}.{name}: takes {} parameters, annotated with {want}",
                        info.num_params
                    ));
                }
            }
            LuaValue::Table(t) => {
                let ty = ty.split_whitespace().next().unwrap_or_default();
                if classes.contains_key(ty) {
                    compare(classes, ty, &format!("{where_}.{name}"), t, seen, problems);
                }
            }
            _ => {}
        }
    }
}

/// A VM with one extension's `pi` and a command handler's `ctx`.
fn live_tables() -> (Vm, Table, Table) {
    let config = HostConfig::new(Vec::new(), ".");
    let vm = Vm::new(SharedView::new("."), Subscribed::default(), &config).unwrap();
    pi::lua::ctx::install_static(&vm.lua, &vm.host, None).unwrap();
    vm.host
        .reg
        .borrow_mut()
        .extensions
        .push(ExtensionInfo::new(PathBuf::from("probe.lua")));
    let pi_table = pi::lua::api::build_pi(&vm, 0, &serde_json::Value::Null).unwrap();
    let ctx = pi::lua::ctx::make_command_ctx(&vm.lua, &vm.host).unwrap();
    (vm, pi_table, ctx)
}

#[test]
fn pi_ctx_and_ctx_ui_match_their_luals_annotations() {
    let classes = classes();
    let (_vm, pi_table, ctx) = live_tables();
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    compare(
        &classes,
        "pi.API",
        "pi",
        &pi_table,
        &mut seen,
        &mut problems,
    );
    compare(
        &classes,
        "pi.CommandContext",
        "ctx",
        &ctx,
        &mut seen,
        &mut problems,
    );
    assert!(
        problems.is_empty(),
        "the Lua API and runtime-lua/types/ differ:\n{}",
        problems.join("\n")
    );
    for nested in ["pi.UI", "pi.Fs", "pi.SessionManager", "pi.Json"] {
        assert!(seen.contains(nested), "{nested} was compared: {seen:?}");
    }
}

#[test]
fn the_comparison_sees_a_missing_and_an_extra_name_and_a_wrong_arity() {
    let mut classes = BTreeMap::new();
    let mut fields = BTreeMap::new();
    fields.insert("kept".to_string(), "fun(a: string, b?: number)".to_string());
    fields.insert("gone".to_string(), "fun()".to_string());
    classes.insert(
        "t.X".to_string(),
        Class {
            parent: None,
            fields,
        },
    );
    let lua = mlua::Lua::new();
    let table: Table = lua
        .load("return { kept = function(a) end, extra = 1 }")
        .eval()
        .unwrap();
    let mut problems = Vec::new();
    compare(
        &classes,
        "t.X",
        "x",
        &table,
        &mut BTreeSet::new(),
        &mut problems,
    );
    problems.sort();
    assert_eq!(
        problems,
        [
            "x.extra: set at run time, not annotated in t.X",
            "x.gone: annotated in t.X, absent at run time",
            "x.kept: takes 1 parameters, annotated with 2",
        ]
    );
    let good: Table = lua
        .load("return { kept = function(a, b) end, gone = function() end }")
        .eval()
        .unwrap();
    let mut problems = Vec::new();
    compare(
        &classes,
        "t.X",
        "x",
        &good,
        &mut BTreeSet::new(),
        &mut problems,
    );
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(
        annotated_params("fun(a: fun(x: integer): string, b: {k: v})"),
        Some(2)
    );
    assert_eq!(annotated_params("fun(): string"), Some(0));
    assert_eq!(annotated_params("fun(...: any)"), None);
}
