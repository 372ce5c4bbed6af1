//! The UI examples in extensions/examples, each loaded alone and driven
//! headless through the surface store.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use pi::lua::ui::surfaces::{SurfaceStore, Surfaces};
use pi::lua::ui::tool_render::{MessageRenderJob, ToolRenderJob};
use pi::lua::{ExtensionHandle, HostConfig, SharedView};
use serde_json::json;

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("extensions/examples")
        .join(name)
}

async fn load(name: &str, view: SharedView) -> (ExtensionHandle, SurfaceStore) {
    let store = view.lock().surfaces.clone();
    view.lock().capture_messages = true;
    let handle = ExtensionHandle::start(HostConfig::new(vec![example(name)], "."), view);
    let report = handle.load().await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    store.attach(80, 24);
    (handle, store)
}

async fn until<T>(store: &SurfaceStore, what: &str, check: impl Fn(&Surfaces) -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(v) = check(&store.lock()) {
            return v;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

fn plain(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[tokio::test]
async fn custom_footer_counts_streaming_tokens() {
    let view = SharedView::new(".");
    view.lock().model = json!({"id": "test-model"});
    view.lock().context_usage = json!({"tokens": 5000, "contextWindow": 10000, "percent": 50});
    let (h, store) = load("custom-footer.lua", view).await;
    h.emit("session_start", json!({"type": "session_start"}))
        .await;
    h.run_command("footer", "").await.unwrap();
    let footer = until(&store, "footer", |s| s.footer.clone()).await;
    let text = plain(&footer[0]);
    assert!(text.starts_with("↑0 ↓0 $0.000"), "{text}");
    assert!(text.ends_with("test-model █████░░░░░ 50%"), "{text}");
    assert_eq!(text.chars().count(), 80);
    let update = json!({"type": "message_update", "message": {"role": "assistant", "usage": {"input": 120, "output": 7}}});
    h.emit("message_update", update).await;
    until(&store, "streamed tokens", |s| {
        s.footer
            .as_ref()
            .filter(|f| plain(&f[0]).starts_with("↑120 ↓7"))
            .map(|_| ())
    })
    .await;
}

#[tokio::test]
async fn todo_tool_updates_its_widget_renders_rows_and_rebuilds_from_the_branch() {
    let view = SharedView::new(".");
    view.lock().entries = vec![
        json!({"type": "message", "id": "1", "parentId": null, "message": {"role": "toolResult", "toolName": "todo",
            "details": {"todos": [{"id": 1, "text": "old", "done": true}], "nextId": 2}}}),
        json!({"type": "message", "id": "2", "parentId": "1", "message": {"role": "toolResult", "toolName": "todo",
            "details": {"todos": [{"id": 1, "text": "write docs", "done": false}], "nextId": 2}}}),
    ];
    view.lock().leaf_id = Some("2".into());
    let (h, store) = load("todo.lua", view).await;
    h.emit("session_start", json!({"type": "session_start"}))
        .await;
    let widget = until(&store, "rebuilt widget", |s| {
        s.widgets.get("todo").map(|w| w.1.clone())
    })
    .await;
    assert_eq!(plain(&widget[1]), "○ #1 write docs");
    let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
    let result = h
        .execute_tool(
            "todo",
            "c1",
            json!({"action": "add", "text": "ship it"}),
            Default::default(),
            tx,
        )
        .await
        .unwrap();
    assert_eq!(result["content"][0]["text"], "Added #2");
    until(&store, "two todos", |s| {
        s.widgets.get("todo").filter(|w| w.1.len() == 3).map(|_| ())
    })
    .await;
    store.lock().tool_jobs.push_back(ToolRenderJob {
        call_id: "c1".into(),
        name: "todo".into(),
        args: json!({"action": "add", "text": "ship it"}),
        result: Some(result),
        expanded: false,
        partial: false,
    });
    store.wake_host();
    let (id, lines) = until(&store, "tool row", |s| s.tool_lines.first().cloned()).await;
    assert_eq!(id, "c1");
    assert_eq!(
        plain(&lines.call.unwrap()[0]).trim_end(),
        "todo add ship it"
    );
    assert_eq!(plain(&lines.result.unwrap()[0]).trim_end(), "✓ 2 todos");
}

#[tokio::test]
async fn modal_editor_maps_normal_mode_keys_onto_the_editor() {
    let (h, store) = load("modal-editor.lua", SharedView::new(".")).await;
    h.emit("session_start", json!({"type": "session_start"}))
        .await;
    until(&store, "insert label", |s| {
        s.editor
            .as_ref()
            .filter(|e| plain(&e[0]) == "-- INSERT --")
            .map(|_| ())
    })
    .await;
    for key in ["h", "escape", "h", "w", "q", "d", "d", "i", "x", "enter"] {
        store.send_key(0, key.into());
    }
    let keys = until(&store, "editor keys", |s| {
        (s.editor_keys.len() == 7).then(|| s.editor_keys.iter().cloned().collect::<Vec<_>>())
    })
    .await;
    assert_eq!(keys, ["h", "left", "alt+f", "home", "ctrl+k", "x", "enter"]);
}

#[tokio::test]
async fn snake_overlay_steers_and_closes_with_the_score() {
    let (h, store) = load("snake.lua", SharedView::new(".")).await;
    let run = {
        let h = h.clone();
        tokio::spawn(async move { h.run_command("snake", "").await })
    };
    let (id, first) = until(&store, "snake board", |s| {
        let c = s.customs.first()?;
        (!c.lines.is_empty()).then(|| (c.id, c.lines.clone()))
    })
    .await;
    assert!(first[0].contains("SNAKE"), "{first:?}");
    assert_eq!(first.len(), 13);
    assert!(store.lock().customs[0].overlay.is_some());
    store.send_key(id, "down".into());
    // The head moves down: some later frame has it below row 5.
    until(&store, "head moved down", |s| {
        let lines = &s.customs.first()?.lines;
        let row = lines.iter().position(|l| l.contains('◆'))?;
        (row > 6).then_some(())
    })
    .await;
    store.send_key(id, "escape".into());
    run.await.unwrap().unwrap();
    assert!(store.lock().customs.is_empty());
}

#[tokio::test]
async fn message_renderer_draws_status_reports() {
    let view = SharedView::new(".");
    let (h, store) = load("message-renderer.lua", view.clone()).await;
    h.run_command("status", "warn disk almost full")
        .await
        .unwrap();
    let actions = format!("{:?}", view.take_actions());
    assert!(
        actions.contains("status-update") && actions.contains("disk almost full"),
        "{actions}"
    );
    store.lock().message_jobs.push_back(MessageRenderJob {
        key: "message-3".into(),
        message: json!({"role": "custom", "customType": "status-update", "content": "disk almost full",
            "display": true, "details": {"level": "warn"}}),
        expanded: false,
    });
    store.wake_host();
    let (key, lines) = until(&store, "rendered message", |s| {
        s.message_lines.first().cloned()
    })
    .await;
    assert_eq!(key, "message-3");
    let lines = lines.unwrap();
    assert_eq!(plain(&lines[1]).trim_end(), " [WARN] disk almost full");
}
