//! `ctx.ui` from Lua through a scripted front end: every dialog, setter and
//! getter, timeouts, abort signals, and the headless defaults of print mode.

use crate::support::fake_ui;

use std::time::{Duration, Instant};

use fake_ui::FakeUi;
use pi::lua::{ExtensionHandle, HostConfig, SharedExtensionUi, SharedView};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

/// Every `ctx.ui` method, results returned from an `agent_start` handler.
const ALL_METHODS: &str = r#"return function(pi)
  pi.on("agent_start", function(event, ctx)
    local r = { hasUI = ctx.hasUI }
    r.select = ctx.ui.select("Pick", { "a", "b" })
    r.confirm = ctx.ui.confirm("Sure?", "really", { timeout = 5000 })
    r.input = ctx.ui.input("Name", "type here")
    r.editor = ctx.ui.editor("Edit", "prefill")
    r.cancelled = ctx.ui.select("Cancelled", { "x" })
    r.timedOut = ctx.ui.confirm("Slow", "m", { timeout = 50 })
    r.timedOutInput = ctx.ui.input("Slow", nil, { timeout = 50 })
    ctx.ui.notify("hi", "success")
    ctx.ui.setStatus("k", "v")
    ctx.ui.setStatus("k", nil)
    ctx.ui.setWidget("w", { "l1", ctx.ui.theme.fg("accent", "l2") }, { placement = "belowEditor" })
    ctx.ui.setWidget("w", nil)
    ctx.ui.setTitle("T")
    ctx.ui.setEditorText("draft")
    r.editorText = ctx.ui.getEditorText()
    ctx.ui.pasteToEditor("more")
    ctx.ui.setWorkingMessage("thinking hard")
    ctx.ui.setWorkingMessage()
    ctx.ui.setWorkingIndicator({ frames = { ".", "o" }, intervalMs = 100 })
    ctx.ui.setWorkingIndicator()
    ctx.ui.setToolsExpanded(true)
    r.expanded = ctx.ui.getToolsExpanded()
    r.setDark = ctx.ui.setTheme("dark").success
    r.badTheme = ctx.ui.setTheme("nope").error
    r.fg = ctx.ui.theme.fg("error", "x")
    r.bg = ctx.ui.theme.bg("selectedBg", "x")
    r.bold = ctx.ui.theme.bold("b")
    r.dim = ctx.ui.theme.dim("d")
    r.italic = ctx.ui.theme.italic("i")
    r.strike = ctx.ui.theme.strikethrough("s")
    r.themes = #ctx.ui.getAllThemes()
    r.light = ctx.ui.getTheme("light").name
    r.missingTheme = ctx.ui.getTheme("nope") == nil
    return r
  end)
end"#;

async fn start(source: &str, ui: Option<SharedExtensionUi>) -> (ExtensionHandle, SharedView) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ui_spec.lua");
    std::fs::write(&path, source).unwrap();
    let view = SharedView::new(dir.path());
    view.lock().capture_messages = true;
    let mut config = HostConfig::new(vec![path], dir.path());
    config.ui = ui;
    let handle = ExtensionHandle::start(config, view.clone());
    let report = handle.load().await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    std::mem::forget(dir);
    (handle, view)
}

async fn run_all(ui: Option<SharedExtensionUi>) -> Value {
    let (handle, _view) = start(ALL_METHODS, ui).await;
    let out = handle
        .emit("agent_start", json!({"type": "agent_start"}))
        .await;
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    out.results[0].clone()
}

#[tokio::test]
async fn every_method_reaches_the_front_end_and_answers_come_back() {
    let ui = FakeUi::new(vec![
        json!({"value": "b"}),
        json!({"confirmed": true}),
        json!({"value": "Ada"}),
        json!({"value": "edited"}),
        json!({"cancelled": true}),
    ]);
    let r = run_all(Some(ui.clone())).await;
    assert_eq!(r["hasUI"], true);
    assert_eq!(r["select"], "b");
    assert_eq!(r["confirm"], true);
    assert_eq!(r["input"], "Ada");
    assert_eq!(r["editor"], "edited");
    assert!(r.get("cancelled").is_none(), "cancel returns nil: {r}");
    assert_eq!(r["timedOut"], false);
    assert!(r.get("timedOutInput").is_none());
    assert_eq!(r["editorText"], "draft");
    assert_eq!(r["expanded"], true);
    assert_eq!(r["setDark"], true);
    assert_eq!(r["badTheme"], "Theme \"nope\" not found");
    let fg = r["fg"].as_str().unwrap();
    assert!(
        fg.starts_with("\x1b[38;") && fg.ends_with("x\x1b[39m"),
        "{fg:?}"
    );
    assert!(r["bg"].as_str().unwrap().starts_with("\x1b[48;"));
    assert_eq!(r["bold"], "\x1b[1mb\x1b[22m");
    assert_eq!(r["dim"], "\x1b[2md\x1b[22m");
    assert_eq!(r["italic"], "\x1b[3mi\x1b[23m");
    assert_eq!(r["strike"], "\x1b[9ms\x1b[29m");
    assert_eq!(r["themes"], 18, "every built-in theme");
    assert_eq!(r["light"], "light");
    assert_eq!(r["missingTheme"], true);

    let select = &ui.calls("select")[0];
    assert_eq!(select["title"], "Pick");
    assert_eq!(select["options"], json!(["a", "b"]));
    let confirm = &ui.calls("confirm")[0];
    assert_eq!(
        (&confirm["message"], &confirm["timeout"]),
        (&json!("really"), &json!(5000))
    );
    assert_eq!(ui.calls("input")[0]["placeholder"], "type here");
    assert_eq!(ui.calls("editor")[0]["prefill"], "prefill");
    // The dialogs that timed out were closed for the front end.
    assert!(
        ui.waiting
            .lock()
            .unwrap()
            .iter()
            .all(|(_, closed)| closed.is_cancelled())
    );
    assert_eq!(ui.calls("notify")[0]["notifyType"], "success");
    let status = ui.calls("setStatus");
    assert_eq!(
        status[0],
        json!({"method": "setStatus", "statusKey": "k", "statusText": "v"})
    );
    assert!(status[1].get("statusText").is_none());
    let widget = ui.calls("setWidget");
    assert_eq!(widget[0]["widgetPlacement"], "belowEditor");
    assert_eq!(widget[0]["widgetLines"][0], "l1");
    assert!(widget[1].get("widgetLines").is_none());
    assert_eq!(ui.calls("setTitle")[0]["title"], "T");
    assert_eq!(ui.calls("pasteToEditor")[0]["text"], "more");
    let working = ui.calls("setWorkingMessage");
    assert_eq!(
        (&working[0]["message"], &working[1]["message"]),
        (&json!("thinking hard"), &Value::Null)
    );
    let indicator = ui.calls("setWorkingIndicator");
    assert_eq!(indicator[0]["frames"], json!([".", "o"]));
    assert_eq!(indicator[0]["intervalMs"], 100);
    assert!(indicator[1].get("frames").is_none());
    assert_eq!(ui.calls("setTheme")[0]["name"], "dark");
}

#[tokio::test]
async fn without_a_front_end_dialogs_return_defaults_and_setters_do_nothing() {
    let r = run_all(None).await;
    assert_eq!(r["hasUI"], false);
    for key in ["select", "input", "editor", "cancelled", "timedOutInput"] {
        assert!(r.get(key).is_none(), "{key} should be nil: {r}");
    }
    assert_eq!(
        (&r["confirm"], &r["timedOut"]),
        (&json!(false), &json!(false))
    );
    assert_eq!(r["editorText"], "");
    assert_eq!(r["expanded"], false);
    assert_eq!(r["light"], "light");
}

#[tokio::test]
async fn a_waiting_dialog_does_not_hold_up_other_events_and_a_signal_closes_it() {
    let source = r#"return function(pi)
  pi.registerTool({
    name = "ask", description = "asks", parameters = { type = "object" },
    execute = function(id, params, signal, onUpdate, ctx)
      local ok = ctx.ui.confirm("Go?", "m", { signal = signal })
      return { content = { { type = "text", text = "answer " .. tostring(ok) } } }
    end,
  })
  pi.on("turn_start", function(event, ctx) return { served = true } end)
end"#;
    let ui = FakeUi::new(Vec::new());
    let (handle, _view) = start(source, Some(ui.clone())).await;
    let signal = CancellationToken::new();
    let (updates, _rx) = tokio::sync::mpsc::unbounded_channel();
    let h = handle.clone();
    let s = signal.clone();
    let tool =
        tokio::spawn(async move { h.execute_tool("ask", "c1", json!({}), s, updates).await });
    let deadline = Instant::now() + Duration::from_secs(30);
    while ui.waiting.lock().unwrap().is_empty() {
        assert!(Instant::now() < deadline, "the dialog never opened");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let other = handle
        .emit("turn_start", json!({"type": "turn_start"}))
        .await;
    assert_eq!(other.results, vec![json!({"served": true})]);
    signal.cancel();
    let result = tool.await.unwrap().unwrap();
    assert_eq!(result["content"][0]["text"], "answer false");
    assert!(ui.waiting.lock().unwrap()[0].1.is_cancelled());
}

#[tokio::test]
async fn bad_arguments_are_named() {
    let source = r#"return function(pi)
  pi.on("agent_start", function(event, ctx)
    local errors = {}
    local function try(f, ...) local ok, e = pcall(f, ...) errors[#errors + 1] = tostring(e) end
    try(ctx.ui.setWidget, "w", { "ok", 42 })
    try(ctx.ui.select, "t", { "a", {} })
    try(ctx.ui.confirm, "t", "m", { timeout = "soon" })
    try(ctx.ui.notify, "m", "loud")
    try(ctx.ui.theme.fg, "nope", "x")
    try(ctx.ui.setWidget, "w", {}, { placement = "left" })
    return { errors = errors }
  end)
end"#;
    let ui: SharedExtensionUi = FakeUi::new(Vec::new());
    let (handle, _) = start(source, Some(ui)).await;
    let out = handle
        .emit("agent_start", json!({"type": "agent_start"}))
        .await;
    let errors: Vec<String> = serde_json::from_value(out.results[0]["errors"].clone()).unwrap();
    let expect = [
        "line 2 must be a string, got integer",
        "option 2 must be a string, got table",
        "`timeout` must be a positive number",
        "level must be one of info, success, warning, error",
        "unknown colour token \"nope\"",
        "placement \"left\" is unknown; use \"aboveEditor\" or \"belowEditor\"",
    ];
    for (e, want) in errors.iter().zip(expect) {
        assert!(e.contains(want), "{e:?} should mention {want:?}");
    }
    assert_eq!(errors.len(), expect.len());
}

#[tokio::test]
async fn shortcuts_warn_about_keys_terminals_cannot_send_and_fire_with_ctx() {
    let source = r#"return function(pi)
  pi.registerShortcut("ctrl+i", { handler = function(ctx) end })
  pi.registerShortcut("ctrl+shift+k", { description = "k", handler = function(ctx)
    ctx.ui.notify("fired in " .. ctx.cwd, "info")
  end })
end"#;
    let ui = FakeUi::new(Vec::new());
    let (handle, view) = start(source, Some(ui.clone())).await;
    // The notice naming extensions without declared capabilities is not a warning.
    let warnings: Vec<String> = view
        .take_messages()
        .into_iter()
        .filter(|m| !m.contains("run unrestricted"))
        .collect();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].contains("\"ctrl+i\"") && warnings[0].contains("tab"));
    assert!(warnings[1].contains("kitty keyboard protocol"));
    handle.run_shortcut("shift+ctrl+k").await.unwrap();
    assert!(
        ui.calls("notify")[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("fired in ")
    );
    let err = handle.run_shortcut("ctrl+q").await.unwrap_err();
    assert_eq!(
        err,
        pi::lua::error::ExtensionError::UnknownShortcut {
            key: "ctrl+q".into()
        }
    );
    assert!(err.to_string().contains("ctrl+q"), "{err}");
}

#[tokio::test]
async fn a_shortcut_on_something_that_is_not_a_key_fails_to_load() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.lua");
    std::fs::write(
        &path,
        r#"return function(pi)
  pi.registerShortcut("hyper+q", { handler = function(ctx) end })
end"#,
    )
    .unwrap();
    let handle = ExtensionHandle::start(
        HostConfig::new(vec![path], dir.path()),
        SharedView::new(dir.path()),
    );
    let report = handle.load().await;
    let err = &report.errors[0].message;
    assert!(
        err.contains("\"hyper+q\": not a key") && err.contains("bad.lua:2"),
        "{err}"
    );
}
