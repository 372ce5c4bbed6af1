//! The rubric's extension checks, run in a real extension VM: `pi.i18n` (register a bundle,
//! reject a malformed one, render through `t`) and the pi-i18n event-bus handshake.

use std::path::PathBuf;

use crate::lua::registry::ExtensionInfo;
use crate::lua::vm::{Subscribed, Vm};
use crate::lua::{HostConfig, SharedView};

/// Namespace the checks register (and remove again).
const CHECK_NAMESPACE: &str = "ext.i18n-doctor";

const PI_I18N_CHECK: &str = r#"
local api = pi.i18n
if type(api) ~= "table" then return 0, "pi.i18n is missing" end
local ok = 0
for _, name in ipairs({ "getLocale", "setLocale", "t", "registerBundle", "onLocaleChanged" }) do
  if type(api[name]) == "function" then ok = ok + 1 end
end
local locale = api.getLocale()
local called, result = pcall(api.registerBundle,
  { version = 1, namespace = "ext.i18n-doctor", locale = locale, messages = { k = 3 } })
if not called or result == false then ok = ok + 1 end
pcall(api.registerBundle,
  { version = 1, namespace = "ext.i18n-doctor", locale = locale, messages = { k = "ok {n}" } })
if api.t("ext.i18n-doctor.k", { n = 7 }) == "ok 7" then ok = ok + 2 end
return ok, ""
"#;
const PI_I18N_POINTS: f64 = 8.0;

const HANDSHAKE_CHECK: &str = r#"
local api, core, caps
pi.events.emit("pi-i18n/requestApi", { reply = function(a) api = a end })
pi.events.emit("pi-core/i18n/requestApi", { reply = function(a, c) core = a; caps = c end })
local ok = 0
if type(api) == "table" and type(api.t) == "function" then ok = ok + 1 end
if type(core) == "table" and caps ~= nil then ok = ok + 1 end
if api and api.t("pi.lang.title") == EXPECTED then ok = ok + 1 end
if ok == 0 then return 0, "no reply to pi-i18n/requestApi" end
return ok, ""
"#;
const HANDSHAKE_POINTS: f64 = 3.0;

/// `pi.i18n` as an extension sees it: (share passed, detail).
pub fn extension_api() -> (f64, String) {
    let outcome = run(PI_I18N_CHECK, PI_I18N_POINTS);
    crate::i18n::update(|registry| {
        let origins: Vec<String> = registry
            .bundles()
            .filter(|b| b.namespace == CHECK_NAMESPACE)
            .map(|b| b.origin.clone())
            .collect();
        for origin in origins {
            registry.remove_origin(&origin);
        }
    });
    outcome
}

/// The event-bus handshake as an extension without dependencies uses it.
pub fn handshake() -> (f64, String) {
    run(HANDSHAKE_CHECK, HANDSHAKE_POINTS)
}

fn run(code: &str, points: f64) -> (f64, String) {
    let attempt = std::panic::catch_unwind(|| -> mlua::Result<(f64, String)> {
        let config = HostConfig::new(Vec::new(), std::env::temp_dir());
        let vm = Vm::new(SharedView::default(), Subscribed::default(), &config)?;
        vm.host
            .reg
            .borrow_mut()
            .extensions
            .push(ExtensionInfo::new(PathBuf::from("i18n-doctor.lua")));
        let pi = crate::lua::api::build_pi(&vm, 0, &serde_json::Value::Null)?;
        vm.lua.globals().set("pi", pi)?;
        vm.lua
            .globals()
            .set("EXPECTED", crate::i18n::t("pi.lang.title", &[]))?;
        let (passed, reason): (f64, String) = vm.lua.load(code).set_name("=doctor").eval()?;
        Ok((passed / points, reason))
    });
    match attempt {
        Ok(Ok((share, reason))) => {
            let detail = format!("{}/{points}", (share * points).round());
            let detail = if reason.is_empty() {
                detail
            } else {
                format!("{detail} ({reason})")
            };
            (share, detail)
        }
        Ok(Err(e)) => (0.0, first_line(&e.to_string())),
        Err(_) => (0.0, "panicked".into()),
    }
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or_default().to_string()
}

/// `/lang doctor` and `pi lang doctor`: the catalog report with the extension probes run
/// against a real VM.
pub fn doctor() -> (String, crate::i18n::score::Score) {
    crate::i18n::lang_command::doctor(extension_api, handshake)
}
