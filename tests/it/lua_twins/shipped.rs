//! The twins that shipped first, each checked briefly.

use super::*;

// The twins that shipped before: a short check of each through this harness.

#[tokio::test]
async fn status_line_counts_turns() {
    let twin = Twin::start("status-line.lua", vec![]).await;
    twin.emit("turn_start", json!({})).await;
    let status = twin.calls("setStatus");
    assert!(plain(status[0]["statusText"].as_str().unwrap()).ends_with("turn 1…"));
}

#[tokio::test]
async fn timed_confirm_keeps_the_three_commands_of_pi() {
    let twin = Twin::start(
        "timed-confirm.lua",
        vec![json!({"confirmed": false}), json!({"value": "Option B"})],
    )
    .await;
    twin.command("timed", "").await;
    assert_eq!(twin.calls("confirm")[0]["timeout"], 5000);
    twin.command("timed-select", "").await;
    assert_eq!(twin.calls("select")[0]["timeout"], 10000);
    assert_eq!(
        twin.notes(),
        vec!["Cancelled or timed out", "Selected: Option B"]
    );
}

#[tokio::test]
async fn timed_signal_says_the_user_cancelled_before_the_time_ran_out() {
    let twin = Twin::start("timed-confirm.lua", vec![json!({"confirmed": false})]).await;
    twin.command("timed-signal", "").await;
    assert_eq!(
        twin.notes(),
        vec![
            "Dialog will auto-cancel in 5 seconds...",
            "Cancelled by user"
        ]
    );
}

#[tokio::test]
async fn custom_footer_is_toggled_by_the_footer_command() {
    let view = pi::lua::SharedView::new(env!("CARGO_MANIFEST_DIR"));
    view.lock().model = json!({"id": "m-1"});
    view.lock().context_usage = json!({"tokens": 10, "contextWindow": 100, "percent": 10});
    let twin = Twin::with_view("custom-footer.lua", vec![], view).await;
    twin.emit("session_start", json!({"reason": "startup"}))
        .await;
    twin.command("footer", "").await;
    let footer = twin.until("footer", |s| s.footer.clone()).await;
    assert!(
        plain(&footer[0]).ends_with("m-1 █░░░░░░░░░ 10%"),
        "{footer:?}"
    );
    twin.command("footer", "").await;
    assert_eq!(
        twin.notes(),
        vec!["Custom footer enabled", "Default footer restored"]
    );
}

#[tokio::test]
async fn message_renderer_status_sends_a_status_update() {
    let twin = Twin::start("message-renderer.lua", vec![]).await;
    twin.command("status", "error disk full").await;
    let actions = format!("{:?}", twin.actions());
    assert!(
        actions.contains("status-update") && actions.contains("disk full"),
        "{actions}"
    );
}

#[tokio::test]
async fn modal_editor_starts_in_insert_mode() {
    let twin = Twin::start("modal-editor.lua", vec![]).await;
    twin.emit("session_start", json!({"reason": "startup"}))
        .await;
    twin.until("mode line", |s| {
        s.editor
            .as_ref()
            .filter(|e| plain(&e[0]) == "-- INSERT --")
            .map(|_| ())
    })
    .await;
    twin.store.send_key(0, "escape".into());
    twin.until("normal mode", |s| {
        s.editor
            .as_ref()
            .filter(|e| plain(&e[0]).contains("NORMAL"))
            .map(|_| ())
    })
    .await;
}

#[tokio::test]
async fn snake_opens_an_overlay_and_escape_closes_it() {
    let twin = Twin::start("snake.lua", vec![]).await;
    let run = {
        let h = twin.handle.clone();
        tokio::spawn(async move { h.run_command("snake", "").await })
    };
    let (id, lines) = twin.custom_lines().await;
    assert!(lines[0].contains("SNAKE"), "{lines:?}");
    twin.keys(id, &["escape"]);
    run.await.unwrap().unwrap();
}

// ---------------------------------------------------------------------------
