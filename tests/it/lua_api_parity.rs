//! Every method and field of pi 0.73's documented extension API (`ExtensionAPI`,
//! `ExtensionContext`, `ExtensionCommandContext` and `ExtensionUIContext`, as its extensions
//! doc lists them) has a Lua counterpart on `pi`, `ctx` or `ctx.ui`, and a LuaLS annotation
//! in runtime-lua/types/pi.lua. Any still missing would be named in `NOT_YET` (empty now); the test
//! fails as soon as one of them appears, so the list only shrinks.

use std::path::PathBuf;

use pi::lua::{ExtensionHandle, HostConfig, SharedView};

/// `pi.*` (ExtensionAPI).
const API: &[&str] = &[
    "appendEntry",
    "events",
    "exec",
    "getActiveTools",
    "getAllTools",
    "getCommands",
    "getFlag",
    "getSessionName",
    "getThinkingLevel",
    "on",
    "registerCommand",
    "registerFlag",
    "registerMessageRenderer",
    "registerProvider",
    "registerShortcut",
    "registerTool",
    "sendMessage",
    "sendUserMessage",
    "setActiveTools",
    "setLabel",
    "setModel",
    "setSessionName",
    "setThinkingLevel",
    "unregisterProvider",
];

/// `ctx.*` of event handlers (ExtensionContext).
const CONTEXT: &[&str] = &[
    "abort",
    "compact",
    "cwd",
    "getContextUsage",
    "getSystemPrompt",
    "hasPendingMessages",
    "hasUI",
    "isIdle",
    "model",
    "modelRegistry",
    "sendUserMessage",
    "sessionManager",
    "shutdown",
    "signal",
    "ui",
];

/// `ctx.*` added for command handlers (ExtensionCommandContext).
const COMMAND_CONTEXT: &[&str] = &[
    "fork",
    "navigateTree",
    "newSession",
    "reload",
    "switchSession",
    "waitForIdle",
];

/// `ctx.ui.*` (ExtensionUIContext).
const UI: &[&str] = &[
    "addAutocompleteProvider",
    "confirm",
    "custom",
    "editor",
    "getAllThemes",
    "getEditorComponent",
    "getEditorText",
    "getTheme",
    "getToolsExpanded",
    "input",
    "notify",
    "onTerminalInput",
    "pasteToEditor",
    "select",
    "setEditorComponent",
    "setEditorText",
    "setFooter",
    "setHeader",
    "setHiddenThinkingLabel",
    "setStatus",
    "setTheme",
    "setTitle",
    "setToolsExpanded",
    "setWidget",
    "setWorkingIndicator",
    "setWorkingMessage",
    "setWorkingVisible",
    "theme",
];

/// Fields that are absent outside some calls: `ctx.signal` exists while a tool runs.
const SOMETIMES_ABSENT: &[&str] = &["ctx.signal"];

/// Not available yet, each with what it needs: the test fails once one exists, so that it
/// leaves this list.
const NOT_YET: &[(&str, &str)] = &[];

/// A Lua table literal of strings.
fn lua_list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
    format!("{{{}}}", quoted.join(", "))
}

/// The names of `(prefix, names)` that the running extension does not have.
async fn missing_at_run_time() -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let source = format!(
        "local API, CTX, CMD, UI = {}, {}, {}, {}\n\
         return function(pi)\n\
           local missing = {{}}\n\
           for _, k in ipairs(API) do if pi[k] == nil then missing[#missing + 1] = 'pi.' .. k end end\n\
           pi.registerCommand('probe', {{ handler = function(args, ctx)\n\
             for _, k in ipairs(CTX) do if ctx[k] == nil then missing[#missing + 1] = 'ctx.' .. k end end\n\
             for _, k in ipairs(CMD) do if ctx[k] == nil then missing[#missing + 1] = 'ctx.' .. k end end\n\
             for _, k in ipairs(UI) do if ctx.ui[k] == nil then missing[#missing + 1] = 'ctx.ui.' .. k end end\n\
             error('missing: ' .. table.concat(missing, ' '), 0)\n\
           end }})\n\
         end\n",
        lua_list(API),
        lua_list(CONTEXT),
        lua_list(COMMAND_CONTEXT),
        lua_list(UI)
    );
    let path = dir.path().join("probe.lua");
    std::fs::write(&path, source).unwrap();
    let handle = ExtensionHandle::start(
        HostConfig::new(vec![path], dir.path()),
        SharedView::new("."),
    );
    let report = handle.load().await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let err = handle
        .run_command("probe", "")
        .await
        .unwrap_err()
        .to_string();
    let list = err
        .split("missing:")
        .nth(1)
        .unwrap_or_else(|| panic!("the probe reports: {err}"));
    list.split_whitespace().map(str::to_string).collect()
}

/// The `---@field` names of `---@class <class>` in runtime-lua/types/pi.lua.
fn annotated(class: &str) -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("runtime-lua/types/pi.lua");
    let text = std::fs::read_to_string(path).unwrap();
    let header = format!("---@class {class}");
    let mut fields = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with("---@class ") {
            inside = line == header || line.starts_with(&format!("{header}:"));
            continue;
        }
        if inside && let Some(rest) = line.strip_prefix("---@field ") {
            let name = rest.split_whitespace().next().unwrap_or("");
            fields.push(name.trim_end_matches('?').to_string());
        }
    }
    fields
}

#[tokio::test]
async fn every_documented_method_exists_in_lua_except_the_named_gaps() {
    let missing = missing_at_run_time().await;
    let gaps: Vec<&str> = NOT_YET.iter().map(|(name, _)| *name).collect();
    let unexpected: Vec<&String> = missing
        .iter()
        .filter(|m| !gaps.contains(&m.as_str()) && !SOMETIMES_ABSENT.contains(&m.as_str()))
        .collect();
    assert!(unexpected.is_empty(), "no Lua counterpart: {unexpected:?}");
    for gap in gaps {
        assert!(
            missing.iter().any(|m| m == gap),
            "{gap} exists now: take it out of NOT_YET"
        );
    }
}

#[test]
fn every_documented_method_has_an_annotation() {
    let gaps: Vec<&str> = NOT_YET.iter().map(|(name, _)| *name).collect();
    let mut unannotated = Vec::new();
    let api = annotated("pi.API");
    for name in API {
        if !api.iter().any(|f| f == name) {
            unannotated.push(format!("pi.{name}"));
        }
    }
    let context: Vec<String> = annotated("pi.Context")
        .into_iter()
        .chain(annotated("pi.CommandContext"))
        .collect();
    for name in CONTEXT.iter().chain(COMMAND_CONTEXT) {
        if !context.iter().any(|f| f == name) {
            unannotated.push(format!("ctx.{name}"));
        }
    }
    let ui = annotated("pi.UI");
    for name in UI {
        let full = format!("ctx.ui.{name}");
        if !ui.iter().any(|f| f == name) && !gaps.contains(&full.as_str()) {
            unannotated.push(full);
        }
    }
    assert!(
        unannotated.is_empty(),
        "no LuaLS annotation: {unannotated:?}"
    );
}

#[test]
fn the_annotation_reader_sees_classes_and_optional_fields() {
    let context = annotated("pi.Context");
    assert!(context.iter().any(|f| f == "signal"), "{context:?}");
    assert!(!annotated("pi.CommandContext").iter().any(|f| f == "cwd"));
    assert!(annotated("pi.API").len() > 20);
}
