//! Localising Lua extensions: the pi-i18n event-bus handshake (no dependency, bundles
//! from `locales/*.json`), `pi.i18n` with `t()`, locale changes reaching extensions,
//! malformed bundles rejected with reasons and `pi-i18n/bundleRejected`, and bundles
//! dropped with their extension on reload. The locale is process-wide, so every test
//! here works in zh-TW and the one that switches locale runs its steps in order.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use pi::lua::{ExtensionHandle, HostConfig, SharedView};

/// Tests that change the locale hold this.
static LOCALE: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn fixture(name: &str) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("tests/fixtures/extensions").join(name);
    if path.is_dir() {
        return path.join("init.lua");
    }
    path
}

async fn host(paths: Vec<PathBuf>) -> (ExtensionHandle, SharedView, pi::lua::LoadReport) {
    let view = SharedView::new(".");
    view.lock().capture_messages = true;
    let handle = ExtensionHandle::start(HostConfig::new(paths, "."), view.clone());
    let report = handle.load().await;
    (handle, view, report)
}

async fn run(
    handle: &ExtensionHandle,
    view: &SharedView,
    command: &str,
    args: &str,
) -> Vec<String> {
    view.take_messages();
    handle.run_command(command, args).await.unwrap();
    view.take_messages()
}

async fn zh_tw() -> tokio::sync::MutexGuard<'static, ()> {
    let guard = LOCALE.lock().await;
    pi::i18n::set_locale("zh-TW");
    guard
}

#[tokio::test]
async fn handshake_extension_renders_zh_tw_from_its_locale_files() {
    let _locale = zh_tw().await;
    let (h, view, report) = host(vec![fixture("i18n_bus")]).await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let shown = run(&h, &view, "bus-hello", "").await;
    assert_eq!(shown[0], "你好，Ada");
    assert_eq!(shown[1], "Only in English", "falls back to en per key");
    assert_eq!(shown[2], "caps=pi-i18n/1/pi-core");
}

#[tokio::test]
async fn pi_i18n_extension_renders_zh_tw_and_hears_locale_changes() {
    let _locale = zh_tw().await;
    let (h, view, report) = host(vec![fixture("i18n_api.lua"), fixture("i18n_bus")]).await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let shown = run(&h, &view, "api-hello", "").await;
    assert_eq!(
        shown,
        vec!["索引完成：42 個檔案", "1 個項目", "locale=zh-TW"]
    );

    // An extension switches locale: its own listener and the bus hear it at once.
    let shown = run(&h, &view, "api-switch", "en").await;
    assert_eq!(shown, vec!["seen=en"]);
    let shown = run(&h, &view, "api-hello", "").await;
    assert_eq!(shown, vec!["Index ready: 42 files", "1 item", "locale=en"]);
    let shown = run(&h, &view, "bus-hello", "").await;
    assert_eq!(shown[0], "Hello, Ada");
    assert_eq!(shown[3], "changes=zh-TW>en");

    // A change made outside the extensions (`/lang`) reaches them too.
    pi::i18n::set_locale("zh-TW");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let shown = run(&h, &view, "bus-hello", "").await;
        if shown[3] == "changes=zh-TW>en,en>zh-TW" {
            assert_eq!(shown[0], "你好，Ada");
            break;
        }
        assert!(Instant::now() < deadline, "never told: {shown:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    run(&h, &view, "api-unsubscribe", "").await;
    let shown = run(&h, &view, "api-switch", "zh-TW").await;
    assert_eq!(shown, vec!["seen=en,zh-TW"], "no call after unsubscribing");

    let shown = run(&h, &view, "api-bad-locale", "").await;
    assert!(shown[0].starts_with("bad=false:"), "{shown:?}");
    assert!(shown[0].contains("BCP-47"), "{shown:?}");
}

#[tokio::test]
async fn malformed_bundles_are_rejected_with_reasons_and_bundle_rejected_fires() {
    let _locale = zh_tw().await;
    let (h, view, report) = host(vec![fixture("i18n_bad.lua")]).await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let shown = run(&h, &view, "bad-report", "").await;
    let rejected: Vec<&String> = shown
        .iter()
        .filter(|s| s.starts_with("rejected="))
        .collect();
    assert_eq!(rejected.len(), 3, "{shown:?}");
    assert!(rejected[0].starts_with("rejected=i18n_bad|"), "{shown:?}");
    assert!(rejected[0].contains("/version"), "{shown:?}");
    assert!(rejected[0].contains("/messages/count"), "{shown:?}");
    assert!(
        rejected[1].contains("ext.i18n_bad"),
        "suggests a namespace: {shown:?}"
    );
    let replies: Vec<&String> = shown.iter().filter(|s| s.starts_with("reply=")).collect();
    assert!(replies[0].starts_with("reply=false|"), "{shown:?}");
    assert!(replies[0].contains("/version"), "{shown:?}");
    assert!(replies[1].starts_with("reply=false|"), "{shown:?}");
    assert_eq!(replies[2], "reply=false");
    assert!(shown.contains(&"fine=可以".to_string()), "{shown:?}");
    assert_eq!(
        pi::i18n::t("pi.tui.error.generic", &[]),
        "錯誤",
        "pi's own catalog is untouched"
    );
}

#[tokio::test]
async fn broken_locale_files_are_reported_with_file_and_line_and_the_rest_still_loads() {
    let _locale = zh_tw().await;
    let (h, view, report) = host(vec![fixture("i18n_bad.lua"), fixture("i18n_badfile")]).await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let reported = view.take_messages();
    let all = reported.join("\n");
    assert!(all.contains("zh-TW.json:5:"), "{all}");
    assert!(
        all.contains("en.json") && all.contains("/messages/bad"),
        "{all}"
    );
    let shown = run(&h, &view, "badfile", "").await;
    assert_eq!(
        shown,
        vec!["ext.i18n_badfile.ok"],
        "no bundle, the key itself"
    );
    let shown = run(&h, &view, "bad-report", "").await;
    let files: Vec<&String> = shown
        .iter()
        .filter(|s| s.starts_with("rejected=i18n_badfile|"))
        .collect();
    assert_eq!(files.len(), 2, "bundleRejected fires per file: {shown:?}");
    assert!(
        files.iter().any(|s| s.contains("zh-TW.json:5:")),
        "{files:?}"
    );
}

#[tokio::test]
async fn bundles_are_dropped_with_their_extension_on_reload() {
    let _locale = zh_tw().await;
    let dir = tempfile::tempdir().unwrap();
    let ext = dir.path().join("gone");
    std::fs::create_dir_all(ext.join("locales")).unwrap();
    std::fs::write(
        ext.join("init.lua"),
        "return function(pi) pi.registerCommand('gone', {handler = function(_, ctx) \
         ctx.ui.notify(t('ext.gone.word'), 'info') end}) end",
    )
    .unwrap();
    let bundle = ext.join("locales/zh-TW.json");
    std::fs::write(&bundle, r#"{"version":1,"messages":{"word":"舊"}}"#).unwrap();
    let (h, view, _) = host(vec![ext.join("init.lua")]).await;
    assert_eq!(run(&h, &view, "gone", "").await, vec!["舊"]);
    std::fs::write(&bundle, r#"{"version":1,"messages":{"word":"新"}}"#).unwrap();
    h.reload().await;
    assert_eq!(run(&h, &view, "gone", "").await, vec!["新"]);
    std::fs::remove_file(&bundle).unwrap();
    h.reload().await;
    assert_eq!(run(&h, &view, "gone", "").await, vec!["ext.gone.word"]);
}

#[tokio::test]
async fn the_example_extension_greets_in_zh_tw() {
    let _locale = zh_tw().await;
    let example =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("extensions/examples/i18n-hello/index.lua");
    let (h, view, report) = host(vec![example]).await;
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let commands = h.commands().await;
    assert_eq!(commands[0].description.as_deref(), Some("用你的語言打招呼"));
    let shown = run(&h, &view, "hello", "Ada").await;
    assert_eq!(shown, vec!["你好，Ada！", "你開啟了 3 個檔案。"]);
}
