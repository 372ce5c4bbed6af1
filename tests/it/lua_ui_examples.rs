//! The `ctx.ui` examples in extensions/examples/, driven through a scripted
//! front end (and without one, as in print mode).

use crate::support::fake_ui;

use std::path::PathBuf;
use std::sync::Arc;

use fake_ui::FakeUi;
use pi::lua::{ExtensionHandle, HostConfig, SharedExtensionUi, SharedView};
use serde_json::{Value, json};

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("extensions/examples")
        .join(name)
}

async fn start(name: &str, ui: Option<Arc<FakeUi>>) -> ExtensionHandle {
    let mut config = HostConfig::new(vec![example(name)], env!("CARGO_MANIFEST_DIR"));
    config.ui = ui.map(|u| u as SharedExtensionUi);
    let handle = ExtensionHandle::start(config, SharedView::new(env!("CARGO_MANIFEST_DIR")));
    let report = handle.load().await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    handle
}

async fn tool_call(handle: &ExtensionHandle, tool: &str, input: Value) -> Vec<Value> {
    let event = json!({"type": "tool_call", "toolName": tool, "toolCallId": "c1", "input": input});
    let out = handle.emit("tool_call", event).await;
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    out.results
}

#[tokio::test]
async fn permission_gate_asks_before_rm_rf_and_no_blocks_with_a_reason() {
    let ui = FakeUi::new(vec![
        json!({"confirmed": false}),
        json!({"confirmed": true}),
    ]);
    let handle = start("permission-gate.lua", Some(ui.clone())).await;
    assert!(
        tool_call(&handle, "bash", json!({"command": "ls -la"}))
            .await
            .is_empty()
    );
    assert!(
        ui.calls("confirm").is_empty(),
        "safe commands are not asked about"
    );

    let blocked = tool_call(&handle, "bash", json!({"command": "rm -rf build"})).await;
    assert_eq!(blocked[0]["block"], true);
    let reason = blocked[0]["reason"].as_str().unwrap();
    assert!(
        reason.contains("Blocked by user") && reason.contains("rm -rf build"),
        "{reason}"
    );
    let asked = &ui.calls("confirm")[0];
    assert_eq!(asked["title"], "Dangerous command: rm -rf");
    assert!(asked["message"].as_str().unwrap().contains("rm -rf build"));

    assert!(
        tool_call(&handle, "bash", json!({"command": "sudo rm -fr /tmp/x"}))
            .await
            .is_empty()
    );
}

#[tokio::test]
async fn permission_gate_blocks_without_a_ui() {
    let handle = start("permission-gate.lua", None).await;
    let blocked = tool_call(&handle, "bash", json!({"command": "rm -rf /"})).await;
    assert_eq!(blocked[0]["block"], true);
    assert!(blocked[0]["reason"].as_str().unwrap().contains("no UI"));
}

#[tokio::test]
async fn protected_paths_block_writes_to_secrets_and_allow_the_rest() {
    let ui = FakeUi::new(Vec::new());
    let handle = start("protected-paths.lua", Some(ui.clone())).await;
    for path in [
        ".env",
        "./config/.env.local",
        ".git/config",
        "web/node_modules/x.js",
    ] {
        let out = tool_call(&handle, "write", json!({"path": path, "content": "x"})).await;
        assert_eq!(out[0]["block"], true, "{path}");
        assert!(out[0]["reason"].as_str().unwrap().contains(path));
    }
    assert!(
        tool_call(&handle, "edit", json!({"path": "src/main.rs"}))
            .await
            .is_empty()
    );
    assert!(
        tool_call(&handle, "read", json!({"path": ".env"}))
            .await
            .is_empty()
    );
    assert_eq!(ui.calls("notify").len(), 4);
    assert_eq!(ui.calls("notify")[0]["notifyType"], "warning");
}

#[tokio::test]
async fn status_line_tracks_turns_in_a_status_slot() {
    let ui = FakeUi::new(Vec::new());
    let handle = start("status-line.lua", Some(ui.clone())).await;
    for event in [
        "session_start",
        "turn_start",
        "turn_end",
        "session_shutdown",
    ] {
        handle.emit(event, json!({"type": event})).await;
    }
    let status = ui.calls("setStatus");
    let texts: Vec<&str> = status
        .iter()
        .map(|s| s["statusText"].as_str().unwrap_or("<cleared>"))
        .collect();
    assert_eq!(texts.len(), 4);
    assert!(
        texts[0].contains("ready") && texts[0].contains("\x1b["),
        "{texts:?}"
    );
    assert!(texts[1].contains("turn 1…"));
    assert!(texts[2].contains("turn 1 done") && texts[2].contains("✓"));
    assert_eq!(texts[3], "<cleared>");
    assert!(status.iter().all(|s| s["statusKey"] == "status-line"));
}

#[tokio::test]
async fn timed_confirm_falls_back_to_no_and_nil_when_time_runs_out() {
    let ui = FakeUi::new(Vec::new());
    let handle = start("timed-confirm.lua", Some(ui.clone())).await;
    handle.run_command("timed", "").await.unwrap();
    handle.run_command("timed-select", "").await.unwrap();
    assert_eq!(ui.calls("confirm")[0]["timeout"], 5000);
    assert_eq!(ui.calls("select")[0]["timeout"], 10000);
    let notes: Vec<Value> = ui
        .calls("notify")
        .iter()
        .map(|n| n["message"].clone())
        .collect();
    assert_eq!(
        notes,
        vec![
            json!("Cancelled or timed out"),
            json!("Selection cancelled or timed out")
        ]
    );

    let ui = FakeUi::new(vec![
        json!({"confirmed": true}),
        json!({"value": "Option C"}),
    ]);
    let handle = start("timed-confirm.lua", Some(ui.clone())).await;
    handle.run_command("timed", "").await.unwrap();
    handle.run_command("timed-select", "").await.unwrap();
    let notes: Vec<Value> = ui
        .calls("notify")
        .iter()
        .map(|n| n["message"].clone())
        .collect();
    assert_eq!(
        notes,
        vec![json!("Confirmed by user!"), json!("Selected: Option C")]
    );
}
