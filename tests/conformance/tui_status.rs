//! The terminal UI's status lines and an extension's `ctx.ui.setTheme`: a status line
//! right after another replaces it, one after other output is added; a theme chosen by
//! name is applied and kept in the settings, an unknown name changes nothing. The theme
//! is set by a Lua extension through the terminal UI's extension front end.
//! orig-file: packages/coding-agent/test/interactive-mode-status.test.ts

use pi::config::settings::Settings;
use pi::lua::{ExtensionHandle, HostConfig, SharedView};
use pi::tui::app::App;
use pi::tui::app::settings::UiSettings;
use pi::tui::transcript::{Item, NoticeKind};
use serde_json::{Value, json};

fn app() -> App {
    crate::tui_app::quiet_app()
}

fn screen(app: &mut App) -> Vec<String> {
    crate::tui_app::screen_rows(app, 120, 20)
}

fn rows_with(screen: &[String], text: &str) -> usize {
    screen.iter().filter(|r| r.contains(text)).count()
}

/// orig: InteractiveMode.showStatus › coalesces immediately-sequential status messages
#[test]
fn a_status_right_after_a_status_replaces_it() {
    let mut app = app();
    app.transcript.status("STATUS_ONE", NoticeKind::Info);
    assert_eq!(app.transcript.items.len(), 1);
    assert_eq!(rows_with(&screen(&mut app), "STATUS_ONE"), 1);
    app.transcript.status("STATUS_TWO", NoticeKind::Info);
    assert_eq!(app.transcript.items.len(), 1, "updated in place");
    let rows = screen(&mut app);
    assert_eq!(rows_with(&rows, "STATUS_TWO"), 1, "{rows:#?}");
    assert_eq!(rows_with(&rows, "STATUS_ONE"), 0, "{rows:#?}");
}

/// orig: InteractiveMode.showStatus › appends a new status line if something else was added in between
#[test]
fn a_status_after_other_output_is_added() {
    let mut app = app();
    app.transcript.status("STATUS_ONE", NoticeKind::Info);
    app.transcript.notice("OTHER", NoticeKind::Info);
    assert_eq!(app.transcript.items.len(), 2);
    app.transcript.status("STATUS_TWO", NoticeKind::Info);
    assert_eq!(app.transcript.items.len(), 3);
    let rows = screen(&mut app);
    let at = |text: &str| rows.iter().position(|r| r.contains(text)).unwrap();
    assert!(
        at("STATUS_ONE") < at("OTHER") && at("OTHER") < at("STATUS_TWO"),
        "{rows:#?}"
    );
}

/// An app whose settings live in a temporary agent folder, and an extension whose
/// `/theme NAME` calls `ctx.ui.setTheme(NAME)` and notifies its result.
async fn theme_setup(
    global: &str,
) -> (
    App,
    ExtensionHandle,
    tempfile::TempDir,
    pi::tui::chrome::extension_ui::ExtensionUiInbox,
) {
    let dir = tempfile::tempdir().unwrap();
    let agent = dir.path().join("agent");
    std::fs::create_dir_all(agent.join("themes")).unwrap();
    std::fs::write(agent.join("settings.json"), global).unwrap();
    let mut app = app();
    let (settings, warnings) = Settings::load(&agent, dir.path());
    assert!(warnings.is_empty(), "{warnings:?}");
    app.ui_settings = UiSettings {
        settings,
        theme_dirs: vec![agent.join("themes")],
        agent_dir: agent.clone(),
    };
    let (ui, inbox) = pi::tui::chrome::extension_ui::channel();
    let path = dir.path().join("theme.lua");
    std::fs::write(
        &path,
        r#"return function(pi)
  pi.registerCommand("theme", { handler = function(name, ctx)
    local r = ctx.ui.setTheme(name)
    ctx.ui.notify("success=" .. tostring(r.success) .. " error=" .. tostring(r.error))
  end })
end"#,
    )
    .unwrap();
    let mut config = HostConfig::new(vec![path], dir.path());
    config.ui = Some(ui);
    let handle = ExtensionHandle::start(config, SharedView::new(dir.path()));
    assert!(handle.load().await.errors.is_empty());
    (app, handle, dir, inbox)
}

/// Run `/theme name` and hand what the extension asked of the UI to the app.
async fn set_theme(
    app: &mut App,
    handle: &ExtensionHandle,
    inbox: &mut pi::tui::chrome::extension_ui::ExtensionUiInbox,
    name: &str,
) -> String {
    handle.run_command("theme", name).await.unwrap();
    while let Ok(request) = inbox.requests.try_recv() {
        app.handle_extension_request(request);
    }
    app.transcript
        .items
        .iter()
        .rev()
        .find_map(|i| match i {
            Item::ExtensionNotice { text, .. } => Some(text.clone()),
            _ => None,
        })
        .unwrap()
}

fn saved(dir: &tempfile::TempDir) -> Value {
    let text = std::fs::read_to_string(dir.path().join("agent/settings.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// orig: InteractiveMode.createExtensionUIContext setTheme › persists theme changes to settings manager
#[tokio::test]
async fn a_theme_set_by_name_is_kept_in_the_settings() {
    let (mut app, handle, dir, mut inbox) = theme_setup(r#"{"theme": "dark"}"#).await;
    let result = set_theme(&mut app, &handle, &mut inbox, "light").await;
    assert_eq!(result, "success=true error=nil");
    assert_eq!(app.theme.name, "light");
    assert_eq!(saved(&dir), json!({"theme": "light"}));
    assert_eq!(app.ui_settings.settings.theme(), Some("light"));
}

/// orig: InteractiveMode.createExtensionUIContext setTheme › does not persist invalid theme names
#[tokio::test]
async fn an_unknown_theme_is_not_kept() {
    let (mut app, handle, dir, mut inbox) = theme_setup(r#"{"theme": "dark"}"#).await;
    let before = app.theme.name.clone();
    let result = set_theme(&mut app, &handle, &mut inbox, "__missing_theme__").await;
    assert!(result.starts_with("success=false error="), "{result}");
    assert!(result.contains("__missing_theme__"), "{result}");
    assert_eq!(app.theme.name, before);
    assert_eq!(saved(&dir), json!({"theme": "dark"}));
}
