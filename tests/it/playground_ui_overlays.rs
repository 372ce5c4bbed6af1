//! The playground's session replay overlay and theme cycler, and how stacked
//! playground extensions share the theme and title.

use crate::support::fake_ui;
use crate::support::playground;

use fake_ui::FakeUi;
use pi::lua::SharedView;
use playground::*;
use serde_json::json;

fn replay_view() -> SharedView {
    let view = SharedView::new(".");
    set_branch(
        &view,
        vec![
            message(
                1,
                "10:23:01",
                json!({"role": "user", "content": "implement authentication"}),
            ),
            message(
                2,
                "10:23:08",
                json!({"role": "assistant", "content": [
                {"type": "text", "text": "Reading the auth module first.\nThen the tests."},
                {"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": "src/auth.rs"}}]}),
            ),
            message(
                3,
                "10:23:09",
                json!({"role": "toolResult", "toolName": "read", "isError": false,
                "content": [{"type": "text", "text": "pub fn login() {}"}]}),
            ),
        ],
    );
    view
}

/// The overlay's lines once `check` holds for them.
async fn overlay(
    store: &pi::lua::ui::surfaces::SurfaceStore,
    what: &str,
    check: impl Fn(&[String]) -> bool,
) -> (u64, Vec<String>) {
    until(store, what, |s| {
        let c = s.customs.first()?;
        let lines: Vec<String> = c.lines.iter().map(|l| plain(l)).collect();
        check(&lines).then_some((c.id, lines))
    })
    .await
}

fn selected(lines: &[String]) -> Option<&String> {
    lines.iter().find(|l| l.starts_with("› "))
}

#[tokio::test]
async fn session_replay_walks_the_timeline_expands_entries_and_closes() {
    let (h, store) = load(&["session-replay.lua"], replay_view(), None).await;
    let run = {
        let h = h.clone();
        tokio::spawn(async move { h.run_command("replay", "").await })
    };
    let (id, lines) = overlay(&store, "the timeline", |l| !l.is_empty()).await;
    assert!(
        store.lock().customs[0].overlay.is_some(),
        "drawn as an overlay"
    );
    assert!(
        lines[0].contains("SESSION REPLAY  |  3 entries"),
        "{lines:?}"
    );
    assert!(
        selected(&lines).unwrap().contains("User  [10:23:01]"),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("Assistant  [10:23:08] (+7s)"))
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("Tool: read  [10:23:09] (+1s)"))
    );
    assert!(lines.last().unwrap().contains("Esc Close"));
    assert!(
        !lines.iter().any(|l| l.contains("Then the tests.")),
        "folded"
    );

    store.send_key(id, "down".into());
    store.send_key(id, "enter".into());
    let (_, lines) = overlay(&store, "the expanded answer", |l| {
        l.iter().any(|l| l.contains("Then the tests."))
    })
    .await;
    assert!(selected(&lines).unwrap().contains("Assistant"), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.trim_end() == "    → calls read"),
        "{lines:?}"
    );

    store.send_key(id, "down".into());
    store.send_key(id, "down".into());
    let (_, lines) = overlay(&store, "the last entry", |l| {
        selected(l).is_some_and(|s| s.contains("Tool: read"))
    })
    .await;
    assert!(lines[0].contains("3/3"), "stops at the end: {lines:?}");
    store.send_key(id, "escape".into());
    run.await.unwrap().unwrap();
    assert!(store.lock().customs.is_empty());
}

#[tokio::test]
async fn session_replay_scrolls_to_keep_the_selection_visible() {
    let view = SharedView::new(".");
    let entries = (1..=30)
        .map(|i| {
            let time = format!("10:00:{i:02}");
            message(
                i,
                &time,
                json!({"role": "user", "content": format!("prompt number {i}")}),
            )
        })
        .collect();
    set_branch(&view, entries);
    let (h, store) = load(&["session-replay.lua"], view, None).await;
    let run = {
        let h = h.clone();
        tokio::spawn(async move { h.run_command("replay", "").await })
    };
    let (id, lines) = overlay(&store, "the timeline", |l| !l.is_empty()).await;
    assert!(lines.len() <= 24, "fits the terminal: {}", lines.len());
    assert!(!lines.iter().any(|l| l.contains("prompt number 30")));
    store.send_key(id, "end".into());
    let (_, lines) = overlay(&store, "the last prompt", |l| {
        l.iter().any(|l| l.contains("prompt number 30"))
    })
    .await;
    assert!(!lines.iter().any(|l| l.contains("prompt number 1\u{0020}")));
    assert!(
        !lines
            .iter()
            .any(|l| l.trim_end().ends_with("prompt number 1"))
    );
    store.send_key(id, "q".into());
    run.await.unwrap().unwrap();
}

#[tokio::test]
async fn session_replay_says_so_when_there_is_nothing_to_replay() {
    let ui = FakeUi::new(Vec::new());
    let (h, store) = load(
        &["session-replay.lua"],
        SharedView::new("."),
        Some(ui.clone()),
    )
    .await;
    h.run_command("replay", "").await.unwrap();
    assert!(store.lock().customs.is_empty());
    let note = &ui.calls("notify")[0];
    assert!(
        note["message"]
            .as_str()
            .unwrap()
            .starts_with("Nothing to replay")
    );
}

fn themes_set(ui: &FakeUi) -> Vec<String> {
    ui.calls("setTheme")
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn theme_cycler_steps_through_every_theme_both_ways_and_shows_a_swatch() {
    let ui = FakeUi::new(vec![json!({"value": "moss"})]);
    let (h, store) = load(
        &["theme-cycler.lua"],
        SharedView::new("."),
        Some(ui.clone()),
    )
    .await;
    h.emit("session_start", json!({"type": "session_start"}))
        .await;
    assert_eq!(themes_set(&ui), ["synthwave"], "its own theme first");

    h.run_shortcut("ctrl+x").await.unwrap();
    h.run_shortcut("ctrl+x").await.unwrap();
    h.run_shortcut("ctrl+q").await.unwrap();
    assert_eq!(
        themes_set(&ui),
        [
            "synthwave",
            "catppuccin-mocha",
            "dracula",
            "catppuccin-mocha"
        ]
    );
    let status = ui.calls("setStatus").last().unwrap().clone();
    assert_eq!(status["statusKey"], "theme");
    assert!(plain(status["statusText"].as_str().unwrap()).ends_with("catppuccin-mocha"));
    let swatch = widget(&store, "theme-swatch").await;
    assert_eq!(swatch, ["███ ███ ███ ███ ███ ███  catppuccin-mocha"]);

    h.run_command("theme", "glacier").await.unwrap();
    h.run_command("theme", "").await.unwrap();
    assert_eq!(ui.calls("select")[0]["title"], "Theme (now glacier)");
    let offered = ui.calls("select")[0]["options"].clone();
    assert_eq!(offered.as_array().unwrap().len(), 18, "{offered}");
    h.run_command("theme", "no-such-theme").await.unwrap();
    assert_eq!(themes_set(&ui).last().unwrap(), "moss");
    let error = ui.calls("notify").last().unwrap().clone();
    assert_eq!(error["notifyType"], "error");
    assert!(error["message"].as_str().unwrap().contains("no-such-theme"));
    let completions = h.complete_command("theme", "gl").await;
    assert_eq!(completions.len(), 1, "{completions:?}");
}

#[tokio::test]
async fn theme_swatch_dismisses_itself_after_a_few_seconds() {
    let ui = FakeUi::new(Vec::new());
    let (h, store) = load(&["theme-cycler.lua"], SharedView::new("."), Some(ui)).await;
    h.run_shortcut("ctrl+x").await.unwrap();
    widget(&store, "theme-swatch").await;
    let shown = std::time::Instant::now();
    until(&store, "the swatch to go", |s| {
        (!s.widgets.contains_key("theme-swatch")).then_some(())
    })
    .await;
    assert!(shown.elapsed() >= std::time::Duration::from_millis(2500));
}

#[tokio::test]
async fn stacked_playground_extensions_take_the_first_ones_theme_and_title() {
    let ui = FakeUi::new(Vec::new());
    let (h, _) = load(
        &["purpose-gate.lua", "theme-cycler.lua", "minimal.lua"],
        SharedView::new("."),
        Some(ui.clone()),
    )
    .await;
    for _ in 0..2 {
        h.emit("session_start", json!({"type": "session_start"}))
            .await;
    }
    assert_eq!(themes_set(&ui), ["tokyo-night", "tokyo-night"]);
    let titles: Vec<_> = ui
        .calls("setTitle")
        .iter()
        .map(|t| t["title"].clone())
        .collect();
    assert_eq!(
        titles,
        [json!("π - purpose-gate"), json!("π - purpose-gate")]
    );
}
