//! Tool rows in the terminal UI: a built-in tool's row shows its name, and a Lua tool
//! whose `renderCall` returns a component shows that component's lines (rendered on the
//! extension thread, picked up by the next frame).
//! orig-file: packages/coding-agent/test/tool-execution-component.test.ts

use std::time::{Duration, Instant};

use pi::agent::events::AgentEvent;
use pi::lua::{ExtensionHandle, HostConfig, SharedView};
use pi::tui::app::App;
use pi::tui::app::session_task::UiEvent;
use pi::tui::chrome::lua_surfaces::{apply_published, queue_renders};
use serde_json::json;

// orig-skip: ToolExecutionComponent custom renderer suppression › renders no lines when custom renderers return undefined — pi 0.73.1 fails to draw such a row (its renderer result is added as a child and rendering it throws a TypeError); here a slot returning nil keeps the built-in rendering (docs/extension-ui.md).

fn app() -> App {
    crate::tui_app::quiet_app()
}

fn screen(app: &mut App) -> Vec<String> {
    crate::tui_app::screen_rows(app, 120, 20)
}

fn start_tool(app: &mut App, name: &str, args: serde_json::Value) {
    app.handle_ui_event(UiEvent::Agent(Box::new(AgentEvent::ToolExecutionStart {
        tool_call_id: "t1".into(),
        tool_name: name.into(),
        args,
    })));
}

/// orig: ToolExecutionComponent custom renderer suppression › keeps built-in tool rendering visible
#[test]
fn a_built_in_tool_row_shows_its_name() {
    let mut app = app();
    start_tool(&mut app, "read", json!({"path": "README.md"}));
    let rows = screen(&mut app);
    let row = rows
        .iter()
        .find(|r| r.contains("README.md"))
        .unwrap_or_else(|| panic!("{rows:#?}"));
    assert!(row.contains("read"), "{row:?}");
}

/// orig: ToolExecutionComponent custom renderer suppression › keeps custom tool rendering visible when renderer returns a component
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_render_call_component_is_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("custom.lua");
    std::fs::write(
        &path,
        r#"return function(pi)
  local ui = require("pi.ui")
  pi.registerTool({
    name = "custom_tool", label = "custom_tool", description = "custom tool",
    parameters = { type = "object", properties = {} },
    execute = function() return { content = { { type = "text", text = "ok" } } } end,
    renderCall = function() return ui.Text("custom call", 0, 0) end,
    renderResult = function() return nil end,
  })
end"#,
    )
    .unwrap();
    let view = SharedView::new(dir.path());
    view.lock().capture_messages = true;
    let store = view.lock().surfaces.clone();
    let handle = ExtensionHandle::start(HostConfig::new(vec![path], dir.path()), view);
    assert!(handle.load().await.errors.is_empty());
    store.attach(120, 20);
    let mut app = app();
    app.lua.surfaces = Some(store.clone());
    start_tool(&mut app, "custom_tool", json!({}));
    queue_renders(&mut app);
    let deadline = Instant::now() + Duration::from_secs(20);
    let rows = loop {
        apply_published(&mut app);
        let rows = screen(&mut app);
        if rows.iter().any(|r| r.contains("custom call")) {
            break rows;
        }
        assert!(Instant::now() < deadline, "{rows:#?}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    assert!(
        !rows
            .iter()
            .any(|r| r.trim_start().starts_with("custom_tool")),
        "the component replaces the built-in title: {rows:#?}"
    );
}
