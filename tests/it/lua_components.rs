//! Lua components driven headless through the surface store, the way the
//! terminal UI drives them: keys in, published lines out.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use pi::lua::ui::surfaces::SurfaceStore;
use pi::lua::{ExtensionHandle, HostConfig, SharedView};

struct Ext {
    handle: ExtensionHandle,
    store: SurfaceStore,
    view: SharedView,
    _dir: tempfile::TempDir,
}

async fn load(source: &str) -> Ext {
    let dir = tempfile::tempdir().unwrap();
    let path: PathBuf = dir.path().join("widgets.lua");
    std::fs::write(&path, source).unwrap();
    let view = SharedView::new(".");
    view.lock().capture_messages = true;
    let store = view.lock().surfaces.clone();
    let mut config = HostConfig::new(vec![path], ".");
    config.instruction_budget = 50_000_000;
    let handle = ExtensionHandle::start(config, view.clone());
    let report = handle.load().await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    store.attach(80, 20);
    Ext {
        handle,
        store,
        view,
        _dir: dir,
    }
}

/// Poll until `check` holds on the store (generous deadline for busy machines).
async fn until<T>(
    store: &SurfaceStore,
    what: &str,
    check: impl Fn(&pi::lua::ui::surfaces::Surfaces) -> Option<T>,
) -> T {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(v) = check(&store.lock()) {
            return v;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what}: {:?}",
            store.lock()
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

fn widget(s: &pi::lua::ui::surfaces::Surfaces, key: &str) -> Option<Vec<String>> {
    s.widgets.get(key).map(|(_, lines)| lines.clone())
}

const PICKER: &str = r#"
return function(pi)
  local ui = require("pi.ui")
  pi.registerCommand("pick", { handler = function(args, ctx)
    local value = ctx.ui.custom(function(tui, theme, kb, done)
      local list = ui.SelectList({ { value = "a", label = "Alpha" }, { value = "b", label = "Beta" } }, 5, theme)
      list.onSelect = function(item) done(item.value); done("again") end
      list.onCancel = function() done(nil) end
      return list
    end, { overlay = args == "overlay", overlayOptions = { width = "50%", anchor = "top" } })
    ctx.ui.setWidget("result", { "picked " .. tostring(value) })
  end })
end
"#;

#[tokio::test]
async fn custom_overlay_renders_takes_keys_and_returns_the_done_value_once() {
    let ext = load(PICKER).await;
    let h = ext.handle.clone();
    let run = tokio::spawn(async move { h.run_command("pick", "overlay").await });
    let (id, lines) = until(&ext.store, "the overlay", |s| {
        let c = s.customs.first()?;
        (!c.lines.is_empty()).then(|| (c.id, c.lines.clone()))
    })
    .await;
    assert!(lines[0].contains("Alpha"), "{lines:?}");
    let overlay = ext.store.lock().customs[0].overlay.clone().unwrap();
    assert_eq!(overlay.content_width(80), 40);
    assert_eq!(ext.store.lock().focused(), Some(id));
    ext.store.send_key(id, "down".into());
    until(&ext.store, "Beta selected", |s| {
        s.customs
            .first()?
            .lines
            .iter()
            .find(|l| l.contains("→") && l.contains("Beta"))
            .map(|_| ())
    })
    .await;
    ext.store.send_key(id, "enter".into());
    run.await.unwrap().unwrap();
    let result = until(&ext.store, "the result widget", |s| widget(s, "result")).await;
    assert_eq!(result, vec!["picked b"]);
    assert!(ext.store.lock().customs.is_empty());
}

#[tokio::test]
async fn stacked_customs_hand_focus_back_in_order() {
    let ext = load(PICKER).await;
    let (a, b) = (ext.handle.clone(), ext.handle.clone());
    let first = tokio::spawn(async move { a.run_command("pick", "").await });
    let id1 = until(&ext.store, "first", |s| s.focused()).await;
    let second = tokio::spawn(async move { b.run_command("pick", "overlay").await });
    let id2 = until(&ext.store, "second", |s| s.focused().filter(|f| *f != id1)).await;
    assert!(ext.store.lock().inline().is_some());
    ext.store.send_key(id2, "escape".into());
    second.await.unwrap().unwrap();
    assert_eq!(ext.store.lock().focused(), Some(id1));
    ext.store.send_key(id1, "escape".into());
    first.await.unwrap().unwrap();
    assert_eq!(ext.store.lock().focused(), None);
}

#[tokio::test]
async fn footer_header_and_widgets_render_from_factories_and_rerender_on_request() {
    let ext = load(
        r#"
return function(pi)
  local ui = require("pi.ui")
  local count, tui_ref = 0, nil
  pi.on("session_start", function(_, ctx)
    ctx.ui.setFooter(function(tui, theme)
      tui_ref = tui
      return { render = function(w) return { "tokens " .. count, ui.truncateToWidth(string.rep("x", 100), w) } end }
    end)
    ctx.ui.setHeader(function() return ui.Text("my header", 0, 0) end)
    ctx.ui.setWidget("below", function() return ui.Text("under the editor", 0, 0) end, { placement = "belowEditor" })
    ctx.ui.setWidget("plain", { "line one", "line two" })
  end)
  pi.on("turn_end", function() count = count + 1; tui_ref.requestRender() end)
end
"#,
    )
    .await;
    ext.handle
        .emit(
            "session_start",
            serde_json::json!({"type": "session_start"}),
        )
        .await;
    let footer = until(&ext.store, "footer", |s| s.footer.clone()).await;
    assert_eq!(footer[0], "tokens 0");
    assert_eq!(footer[1].chars().count(), 80);
    until(&ext.store, "header", |s| {
        s.header.clone().filter(|h| h[0].contains("my header"))
    })
    .await;
    let s = ext.store.lock().widgets.clone();
    assert_eq!(s["plain"].1, vec!["line one", "line two"]);
    assert_eq!(s["below"].0, pi::lua::ui::surfaces::Placement::BelowEditor);
    ext.handle
        .emit("turn_end", serde_json::json!({"type": "turn_end"}))
        .await;
    until(&ext.store, "footer update", |s| {
        s.footer.clone().filter(|f| f[0] == "tokens 1")
    })
    .await;
    let size_before = ext.store.lock().footer.clone().unwrap()[1].chars().count();
    assert_eq!(size_before, 80);
    ext.store.resize(30, 20);
    until(&ext.store, "footer at the new width", |s| {
        s.footer.clone().filter(|f| f[1].chars().count() == 30)
    })
    .await;
}

#[tokio::test]
async fn bad_lines_are_reported_with_index_and_wide_lines_are_cut_with_one_warning() {
    let ext = load(
        r#"
return function(pi)
  pi.on("session_start", function(_, ctx)
    ctx.ui.setWidget("bad", function() return { render = function() return { "ok", 42 } end } end)
    ctx.ui.setWidget("wide", function(tui)
      return { render = function(w) return { string.rep("w", w + 10) } end }
    end)
    ctx.ui.setWidget("boom", function() return { render = function() error("kaput") end } end)
  end)
end
"#,
    )
    .await;
    ext.handle
        .emit(
            "session_start",
            serde_json::json!({"type": "session_start"}),
        )
        .await;
    let bad = until(&ext.store, "bad", |s| widget(s, "bad")).await;
    assert!(
        bad[0].contains("widgets: lines[2] is not a string (got integer)"),
        "{bad:?}"
    );
    let wide = until(&ext.store, "wide", |s| widget(s, "wide")).await;
    assert_eq!(wide[0], "w".repeat(80));
    let boom = until(&ext.store, "boom", |s| widget(s, "boom")).await;
    assert!(
        boom[0].contains("kaput") && boom[0].contains("⚠ widgets"),
        "{boom:?}"
    );
    ext.store.resize(30, 20);
    until(&ext.store, "wide again", |s| {
        widget(s, "wide").filter(|w| w[0].len() == 30)
    })
    .await;
    let warnings: Vec<String> = ext
        .view
        .take_messages()
        .into_iter()
        .filter(|m| m.contains("wider"))
        .collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
}

#[tokio::test]
async fn a_render_over_budget_becomes_an_error_box_and_others_keep_updating() {
    let ext = load(
        r#"
return function(pi)
  local n = 0
  pi.on("session_start", function(_, ctx)
    ctx.ui.setWidget("slow", function()
      return { render = function()
        local t = os.clock() while os.clock() - t < 0.2 do end
        return { "slow" }
      end }
    end)
    ctx.ui.setWidget("ticker", function(tui)
      pi.setInterval(function() n = n + 1; tui.requestRender() end, 20)
      return { render = function() return { "tick " .. n } end }
    end)
  end)
end
"#,
    )
    .await;
    ext.handle
        .emit(
            "session_start",
            serde_json::json!({"type": "session_start"}),
        )
        .await;
    let slow = until(&ext.store, "slow", |s| widget(s, "slow")).await;
    assert!(slow[0].contains("> 50 ms budget"), "{slow:?}");
    let first = until(&ext.store, "ticker", |s| widget(s, "ticker")).await;
    until(&ext.store, "ticker moves", |s| {
        widget(s, "ticker").filter(|t| *t != first)
    })
    .await;
    assert_eq!(widget(&ext.store.lock(), "slow").unwrap(), slow);
}

#[tokio::test]
async fn editor_component_consumes_or_hands_back_keys() {
    let ext = load(
        r#"
return function(pi)
  pi.on("session_start", function(_, ctx)
    ctx.ui.setEditorComponent(function(tui, theme, kb)
      local mode = "insert"
      return {
        handleInput = function(key)
          if key == "escape" and mode == "insert" then mode = "normal"; tui.requestRender(); return true end
          if mode == "normal" and key == "h" then return "left" end
          if mode == "normal" and key == "x" then return { "delete" } end
          if mode == "normal" and key == "i" then mode = "insert"; return true end
          return false
        end,
        render = function() return { "-- " .. mode:upper() .. " --" } end,
      }
    end)
  end)
end
"#,
    )
    .await;
    ext.handle
        .emit(
            "session_start",
            serde_json::json!({"type": "session_start"}),
        )
        .await;
    until(&ext.store, "insert label", |s| {
        s.editor.clone().filter(|e| e[0] == "-- INSERT --")
    })
    .await;
    for key in ["a", "escape", "h", "x", "i", "b"] {
        ext.store.send_key(0, key.into());
    }
    let keys = until(&ext.store, "handed back keys", |s| {
        (s.editor_keys.len() == 4).then(|| s.editor_keys.iter().cloned().collect::<Vec<_>>())
    })
    .await;
    assert_eq!(keys, vec!["a", "left", "delete", "b"]);
}

#[tokio::test]
async fn headless_setters_do_nothing_and_custom_returns_nil() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.lua");
    std::fs::write(
        &path,
        r#"return function(pi)
  pi.registerCommand("try", { handler = function(_, ctx)
    ctx.ui.setFooter(function() return { render = function() return {"f"} end } end)
    local v = ctx.ui.custom(function() return { render = function() return {} end } end)
    pi.appendEntry("result", { isNil = v == nil })
  end })
end"#,
    )
    .unwrap();
    let view = SharedView::new(".");
    let handle = ExtensionHandle::start(HostConfig::new(vec![path], "."), view.clone());
    handle.load().await;
    handle.run_command("try", "").await.unwrap();
    assert!(view.lock().surfaces.lock().footer.is_none());
    let actions = view.take_actions();
    assert!(
        format!("{actions:?}").contains("isNil\": Bool(true)"),
        "{actions:?}"
    );
}

#[tokio::test]
async fn string_helpers_and_components_are_width_safe() {
    let ext = load(
        r##"
return function(pi)
  local ui = require("pi.ui")
  pi.registerCommand("helpers", { handler = function(_, ctx)
    local out = {}
    local function add(v) out[#out + 1] = tostring(v) end
    add(ui.visibleWidth("\27[31m日本\27[39m"))
    add(ui.truncateToWidth("abcdef", 4))
    add(#ui.wrapTextWithAnsi("aaa bbb ccc", 4))
    add(ui.sliceByColumn("abcdef", 2, 3))
    add(ui.matchesKey("ctrl+x", "ctrl+x"))
    add(ui.keyHint("ctrl+q", "quit"):find("quit") ~= nil)
    local box = ui.Box(2, 1)
    box.addChild(ui.Text("hello world", 0, 0))
    box.addChild(ui.Spacer(1))
    box.addChild(ui.DynamicBorder())
    add(#box.render(10))
    add(#ui.Markdown("# Title\n\n- item **bold**\n```\ncode\n```").render(20) > 3)
    local s = ui.SettingsList({ { id = "m", label = "Mode", currentValue = "a", values = { "a", "b" } } }, 5, nil,
      function(id, v) add(id .. "=" .. v) end)
    s.handleInput("enter")
    local l = ui.Loader(nil, nil, nil, "wait")
    add(l.render(20)[1]:find("wait") ~= nil)
    l.stop()
    add(pi.ui == ui)
    -- One line: a widget shows at most 10.
    ctx.ui.setWidget("out", { table.concat(out, "|") })
  end })
end
"##,
    )
    .await;
    ext.handle.run_command("helpers", "").await.unwrap();
    let out = until(&ext.store, "helper results", |s| widget(s, "out")).await;
    let out: Vec<&str> = out[0].split('|').collect();
    assert_eq!(
        out,
        vec![
            "4", "abc…", "3", "cde", "true", "true", "6", "true", "m=b", "true", "true"
        ]
    );
}

#[tokio::test]
async fn timers_fire_on_the_extension_thread_and_stop_when_cleared() {
    let ext = load(
        r#"
return function(pi)
  pi.registerCommand("timers", { handler = function(_, ctx)
    local n = 0
    local id
    id = pi.setInterval(function()
      n = n + 1
      if n == 3 then pi.clearInterval(id) end
      ctx.ui.setWidget("interval", { "n=" .. n })
    end, 5)
    pi.setTimeout(function() ctx.ui.setWidget("timeout", { "fired" }) end, 20)
    local cancelled = pi.setTimeout(function() ctx.ui.setWidget("cancelled", { "oops" }) end, 10)
    pi.clearTimeout(cancelled)
  end })
end
"#,
    )
    .await;
    ext.handle.run_command("timers", "").await.unwrap();
    until(&ext.store, "timeout", |s| widget(s, "timeout")).await;
    until(&ext.store, "three ticks", |s| {
        widget(s, "interval").filter(|w| w[0] == "n=3")
    })
    .await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(widget(&ext.store.lock(), "interval").unwrap(), vec!["n=3"]);
    assert!(widget(&ext.store.lock(), "cancelled").is_none());
}

#[tokio::test]
async fn a_timer_callback_may_call_functions_that_yield() {
    let ext = load(
        r#"
return function(pi)
  pi.registerCommand("later", { handler = function(_, ctx)
    pi.setTimeout(function()
      local out = pi.exec("echo", { "from a timer" })
      ctx.ui.setWidget("exec", { out.stdout:match("^(.-)%s*$") })
    end, 5)
  end })
end
"#,
    )
    .await;
    ext.handle.run_command("later", "").await.unwrap();
    let lines = until(&ext.store, "the exec output", |s| widget(s, "exec")).await;
    assert_eq!(lines, vec!["from a timer"]);
}
