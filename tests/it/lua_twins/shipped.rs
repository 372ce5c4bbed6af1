//! The twins that shipped first, each checked briefly.

use super::*;

// The twins that shipped before: a short check of each through this harness. (status-line,
// timed-confirm and message-renderer are tested by their `*_test.lua` files with `pi test`.)

#[tokio::test]
async fn custom_footer_shows_the_model_and_context() {
    let view = pi::lua::SharedView::new(env!("CARGO_MANIFEST_DIR"));
    view.lock().model = json!({"id": "m-1"});
    view.lock().context_usage = json!({"tokens": 10, "contextWindow": 100, "percent": 10});
    let twin = Twin::with_view("custom-footer.lua", vec![], view).await;
    twin.emit("session_start", json!({"reason": "startup"}))
        .await;
    let footer = twin.until("footer", |s| s.footer.clone()).await;
    assert!(
        plain(&footer[0]).ends_with("m-1 █░░░░░░░░░ 10%"),
        "{footer:?}"
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
