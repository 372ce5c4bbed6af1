//! `pi.i18n`, the global `t(key, params)`, extension locale bundles (`locales/*.json` or `*.toml`
//! beside a folder extension's entry file, namespace `ext.<name>` by default) and the
//! pi-i18n event-bus handshake, so extensions written against pi-i18n work unchanged.

use crate::t;
use std::path::Path;
use std::rc::Rc;

use mlua::{Function, Lua, Table, Value as LuaValue};
use serde_json::{Value, json};

use crate::i18n::{self, Arg};
use crate::lua::convert::{to_json, to_lua};
use crate::lua::vm::{HostCtx, Vm};

/// Channels answered with the API object and its capabilities.
pub const REQUEST_API: [&str; 2] = ["pi-i18n/requestApi", "pi-core/i18n/requestApi"];
/// Channels that register a bundle.
pub const REGISTER_BUNDLE: [&str; 2] = ["pi-i18n/registerBundle", "pi-core/i18n/registerBundle"];
/// Emitted with `{namespace, locale, reasons, extension}` when a bundle is rejected.
pub const BUNDLE_REJECTED: &str = "pi-i18n/bundleRejected";
/// Emitted with `{locale, previous}` after the locale changed.
pub const LOCALE_CHANGED: &str = "pi-i18n/localeChanged";
/// Version of the API object handed out by the handshake.
pub const API_VERSION: u32 = 1;

const LISTENERS: &str = "pi.i18n.listeners";
const SEEN_LOCALE: &str = "pi.i18n.locale";

/// The origin prefix of every bundle the extension at `path` registered.
pub fn origin_of(path: &Path) -> String {
    format!("ext:{}:", path.display())
}

/// Drop every bundle the extension at `path` registered (before it loads again).
pub fn forget_bundles(path: &Path) {
    let prefix = origin_of(path);
    let owned = i18n::with_registry(|r| r.bundles().any(|b| b.origin.starts_with(&prefix)));
    if owned {
        i18n::update(|r| r.remove_origin(&prefix));
    }
}

/// Add `pi.i18n` for extension `ext`, the global `t`, and load the extension's
/// `locales/*.json` when it is a folder extension.
pub fn add_i18n(vm: &Vm, ext: usize, pi: &Table) -> mlua::Result<()> {
    let lua = &vm.lua;
    if lua.globals().get::<LuaValue>("t")?.is_nil() {
        lua.globals().set("t", lua.create_function(lua_t)?)?;
        lua.set_named_registry_value(LISTENERS, lua.create_table()?)?;
        lua.set_named_registry_value(SEEN_LOCALE, i18n::current_locale())?;
    }
    load_locale_dir(lua, &vm.host, ext);
    pi.set("i18n", api_table(lua, &vm.host, ext)?)
}

/// `t(key, params)`: params are `{name = value}`; `count` picks the plural form.
fn lua_t(_: &Lua, (key, params): (String, Option<Table>)) -> mlua::Result<String> {
    let mut owned: Vec<(String, Arg<'static>)> = Vec::new();
    if let Some(params) = params {
        for pair in params.pairs::<LuaValue, LuaValue>() {
            let (LuaValue::String(name), value) = pair? else {
                continue;
            };
            let arg = match value {
                LuaValue::Integer(n) => Arg::Int(n),
                LuaValue::Number(n) if n.fract() == 0.0 && n.abs() < 9e15 => Arg::Int(n as i64),
                LuaValue::Number(n) => Arg::Float(n),
                LuaValue::String(s) => Arg::from(s.to_string_lossy()),
                LuaValue::Boolean(b) => Arg::from(b.to_string()),
                _ => continue,
            };
            owned.push((name.to_string_lossy(), arg));
        }
    }
    let args: Vec<(&str, Arg<'_>)> = owned.iter().map(|(k, a)| (k.as_str(), a.clone())).collect();
    Ok(i18n::t(&key, &args))
}

/// The default namespace of an extension's bundles: `ext.<name>`.
pub fn default_namespace(name: &str) -> String {
    let clean: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect();
    format!("ext.{clean}")
}

fn ext_identity(host: &HostCtx, ext: usize) -> (String, std::path::PathBuf) {
    let reg = host.reg.borrow();
    let info = &reg.extensions[ext];
    (info.name.clone(), info.path.clone())
}

/// Load `<folder>/locales/*.json` (and `*.toml`) of a folder extension; a file may leave out
/// `namespace` (`ext.<name>`) and `locale` (the file name). Rejected files are reported.
fn load_locale_dir(lua: &Lua, host: &HostCtx, ext: usize) {
    let (name, path) = ext_identity(host, ext);
    if !crate::lua::discovery::is_folder_entry(&path) {
        return;
    }
    let Some(dir) = path.parent().map(|p| p.join("locales")) else {
        return;
    };
    for file in i18n::packs::locale_files(&dir) {
        let label = file.display().to_string();
        let is_toml = file.extension().is_some_and(|e| e == "toml");
        let parsed = std::fs::read_to_string(&file)
            .map_err(|e| vec![format!("{label}: {e}")])
            .and_then(|text| {
                if is_toml {
                    return crate::lua::api::formats::toml_to_json(&text)
                        .map_err(|e| vec![format!("{label}: not valid TOML: {e}")]);
                }
                serde_json::from_str::<Value>(&text).map_err(|e| {
                    vec![format!(
                        "{label}:{}:{}: not valid JSON: {e}",
                        e.line(),
                        e.column()
                    )]
                })
            });
        let result = parsed.and_then(|mut value| {
            if let Value::Object(map) = &mut value {
                map.entry("namespace")
                    .or_insert_with(|| json!(default_namespace(&name)));
                let stem = file.file_stem().unwrap_or_default().to_string_lossy();
                map.entry("locale").or_insert_with(|| json!(stem));
            }
            register_json(&name, &path, &value, &label)
        });
        if let Err(reasons) = result {
            for reason in &reasons {
                host.view.report(format!(
                    "Extension error: {}",
                    t!(
                        "pi.ext.locale_rejected",
                        name = name.as_str(),
                        reason = reason
                    )
                ));
            }
            let stem = file.file_stem().unwrap_or_default().to_string_lossy();
            let payload = json!({
                "namespace": default_namespace(&name),
                "locale": stem,
                "extension": name,
                "file": label,
                "reasons": reasons,
            });
            if let Ok(data) = to_lua(lua, &payload) {
                emit_bus(lua, host, BUNDLE_REJECTED, data);
            }
        }
    }
}

/// Validate and add a bundle for the extension `name` at `path`.
fn register_json(name: &str, path: &Path, value: &Value, label: &str) -> Result<(), Vec<String>> {
    let namespace = value.get("namespace").and_then(Value::as_str).unwrap_or("");
    if namespace == "pi" || namespace.starts_with("pi.") {
        return Err(vec![t!(
            "pi.ext.bundle_reserved",
            namespace = namespace,
            suggested = default_namespace(name)
        )]);
    }
    let origin = format!("{}{label}", origin_of(path));
    let bundle = i18n::parse_bundle_value(value, &origin).map_err(|errors| {
        errors
            .into_iter()
            .map(|e| {
                e.strip_prefix(&origin)
                    .map(|rest| format!("{label}{rest}"))
                    .unwrap_or(e)
            })
            .collect::<Vec<String>>()
    })?;
    i18n::update(|r| r.insert(bundle.clone()));
    Ok(())
}

/// Register a bundle given from Lua; on rejection `pi-i18n/bundleRejected` fires.
fn register_from_lua(
    lua: &Lua,
    host: &HostCtx,
    ext: usize,
    bundle: LuaValue,
) -> mlua::Result<(bool, Option<Vec<String>>)> {
    let (name, path) = ext_identity(host, ext);
    let mut value = match bundle {
        LuaValue::Table(_) => to_json(lua, bundle).unwrap_or(Value::Null),
        _ => Value::Null,
    };
    if value.get("messages") == Some(&json!([])) {
        value["messages"] = json!({});
    }
    let result = if value.is_object() {
        register_json(&name, &path, &value, "bundle")
    } else {
        Err(vec![t!("pi.ext.bundle_not_table")])
    };
    match result {
        Ok(()) => Ok((true, None)),
        Err(reasons) => {
            let payload = json!({
                "namespace": value.get("namespace"),
                "locale": value.get("locale"),
                "extension": name,
                "reasons": reasons,
            });
            emit_bus(lua, host, BUNDLE_REJECTED, to_lua(lua, &payload)?);
            Ok((false, Some(reasons)))
        }
    }
}

/// Call every `pi.events` subscriber of `channel` with `data`.
fn emit_bus(lua: &Lua, host: &HostCtx, channel: &str, data: LuaValue) {
    let handlers: Vec<(usize, Function)> = host
        .reg
        .borrow()
        .bus
        .iter()
        .filter(|b| b.channel == channel)
        .map(|b| (b.ext, b.func.clone()))
        .collect();
    let Ok(reply) = lua.create_function(|_, _: mlua::MultiValue| Ok(())) else {
        return;
    };
    for (from, func) in handlers {
        if let Err(e) = func.call::<()>((data.clone(), reply.clone())) {
            let (name, _) = ext_identity(host, from);
            host.view.report(format!(
                "Extension error: {}",
                t!(
                    "pi.ext.bus_handler_failed",
                    name = name.as_str(),
                    channel = channel,
                    error = e.to_string()
                )
            ));
        }
    }
}

/// The API object of extension `ext` (`pi.i18n`, and what the handshake replies with).
fn api_table(lua: &Lua, host: &Rc<HostCtx>, ext: usize) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.set(
        "getLocale",
        lua.create_function(|_, ()| Ok(i18n::current_locale()))?,
    )?;
    let h = host.clone();
    t.set(
        "setLocale",
        lua.create_function(move |lua, tag: String| {
            let clean = tag.trim();
            let valid = clean.len() >= 2
                && clean
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '@'));
            if !valid {
                return Err(mlua::Error::runtime(t!(
                    "pi.ext.bad_locale",
                    tag = tag.as_str()
                )));
            }
            i18n::set_locale(clean);
            notify_locale(lua, &h);
            Ok(())
        })?,
    )?;
    t.set("t", lua.create_function(lua_t)?)?;
    let h = host.clone();
    t.set(
        "registerBundle",
        lua.create_function(move |lua, bundle: LuaValue| register_from_lua(lua, &h, ext, bundle))?,
    )?;
    t.set(
        "onLocaleChanged",
        lua.create_function(move |lua, func: Function| {
            let listeners: Table = lua.named_registry_value(LISTENERS)?;
            let entry = lua.create_table()?;
            entry.set("ext", ext)?;
            entry.set("fn", func)?;
            let id = listeners.raw_len() + 1;
            listeners.raw_set(id, entry)?;
            lua.create_function(move |lua, ()| {
                let listeners: Table = lua.named_registry_value(LISTENERS)?;
                if let LuaValue::Table(entry) = listeners.raw_get::<LuaValue>(id)? {
                    entry.set("fn", LuaValue::Nil)?;
                }
                Ok(())
            })
        })?,
    )?;
    Ok(t)
}

/// What the handshake publishes about this implementation.
fn capabilities(lua: &Lua) -> mlua::Result<LuaValue> {
    i18n::load_all_builtin();
    let locales: Vec<String> = i18n::with_registry(|r| {
        let mut tags: Vec<String> = r.bundles().map(|b| b.locale.clone()).collect();
        tags.sort();
        tags.dedup();
        tags
    });
    to_lua(
        lua,
        &json!({
            "name": "pi-i18n",
            "provider": "pi-core",
            "apiVersion": API_VERSION,
            "bundleVersion": 1,
            "locale": i18n::current_locale(),
            "fallbackLocale": i18n::with_registry(|r| r.fallback().to_string()),
            "locales": locales,
            "features": ["t", "plural", "registerBundle", "onLocaleChanged",
                         "bundleRejected", "localeChanged", "localeFiles", "coreHacks"],
            "direction": "ltr",
        }),
    )
}

/// Answer the pi-i18n channels on the event bus. Returns whether pi itself handled
/// `channel` (subscribers of the channel still run after it).
pub fn core_bus(
    lua: &Lua,
    host: &Rc<HostCtx>,
    ext: usize,
    channel: &str,
    data: &LuaValue,
    on_reply: Option<&Function>,
) -> mlua::Result<bool> {
    if REQUEST_API.contains(&channel) {
        let api = api_table(lua, host, ext)?;
        let caps = capabilities(lua)?;
        if let LuaValue::Table(data) = data
            && let Ok(Some(reply)) = data.get::<Option<Function>>("reply")
        {
            reply.call::<()>((api.clone(), caps.clone()))?;
        }
        if let Some(reply) = on_reply {
            reply.call::<()>((api, caps))?;
        }
        return Ok(true);
    }
    if REGISTER_BUNDLE.contains(&channel) {
        let (ok, reasons) = register_from_lua(lua, host, ext, data.clone())?;
        if let Some(reply) = on_reply {
            reply.call::<()>((ok, reasons))?;
        }
        return Ok(true);
    }
    Ok(false)
}

/// When the locale changed since this VM last looked, call the `onLocaleChanged`
/// listeners and emit `pi-i18n/localeChanged`.
pub fn notify_locale(lua: &Lua, host: &HostCtx) {
    let now = i18n::current_locale();
    let Ok(Some(seen)) = lua.named_registry_value::<Option<String>>(SEEN_LOCALE) else {
        return;
    };
    if seen == now
        || lua
            .set_named_registry_value(SEEN_LOCALE, now.as_str())
            .is_err()
    {
        return;
    }
    if let Ok(listeners) = lua.named_registry_value::<Table>(LISTENERS) {
        let entries: Vec<Table> = listeners.sequence_values::<Table>().flatten().collect();
        for entry in entries {
            let Ok(Some(func)) = entry.get::<Option<Function>>("fn") else {
                continue;
            };
            if let Err(e) = func.call::<()>(now.as_str()) {
                let ext: usize = entry.get("ext").unwrap_or(0);
                let (name, _) = ext_identity(host, ext);
                host.view.report(format!(
                    "Extension error: {}",
                    t!(
                        "pi.ext.locale_listener_failed",
                        name = name.as_str(),
                        error = e.to_string()
                    )
                ));
            }
        }
    }
    if let Ok(payload) = to_lua(lua, &json!({"locale": now, "previous": seen})) {
        emit_bus(lua, host, LOCALE_CHANGED, payload);
    }
}

/// Watch for locale changes made elsewhere (`/lang`, settings) while `vm` lives, and
/// tell its extensions within a tenth of a second.
pub fn watch_locale(vm: &Rc<Vm>) {
    let weak = Rc::downgrade(vm);
    let mut seen = i18n::generation();
    tokio::task::spawn_local(async move {
        loop {
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            let Some(vm) = weak.upgrade() else {
                break;
            };
            let now = i18n::generation();
            if now != seen {
                seen = now;
                notify_locale(&vm.lua, &vm.host);
            }
        }
    });
}
