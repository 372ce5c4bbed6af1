//! `/settings`, `/scoped-models` and `/changelog` at the application level,
//! with settings files in a temporary agent folder.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use serde_json::{Value, json};
use tokio::sync::mpsc::UnboundedReceiver;

use crate::agent::agent_loop::AgentQueues;
use crate::agent::queue::QueueMode;
use crate::ai::providers::faux::FauxProvider;
use crate::config::settings::Settings;
use crate::tui::app::session_task::SessionCommand;
use crate::tui::app::settings::UiSettings;
use crate::tui::app::{App, Overlay};
use crate::tui::chrome::FooterInfo;
use crate::tui::transcript::Item;
use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::theme::Theme;

struct Fixture {
    app: App,
    _rx: UnboundedReceiver<SessionCommand>,
    dir: tempfile::TempDir,
}

fn fixture(global: &str) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let agent = dir.path().join("agent");
    let cwd = dir.path().join("proj");
    std::fs::create_dir_all(agent.join("themes")).unwrap();
    std::fs::create_dir_all(&cwd).unwrap();
    std::fs::write(agent.join("settings.json"), global).unwrap();
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let mut app = App::new(
        tx,
        AgentQueues::default(),
        Keybindings::default(),
        Theme::plain(),
        FooterInfo::default(),
    );
    let (settings, warnings) = Settings::load(&agent, &cwd);
    assert!(warnings.is_empty(), "{warnings:?}");
    app.ui_settings = UiSettings {
        settings,
        theme_dirs: vec![agent.join("themes")],
        agent_dir: agent.clone(),
    };
    Fixture { app, _rx: rx, dir }
}

impl Fixture {
    fn saved(&self) -> Value {
        let text = std::fs::read_to_string(self.dir.path().join("agent/settings.json")).unwrap();
        serde_json::from_str(&text).unwrap()
    }
}

fn key(app: &mut App, code: KeyCode, modifiers: KeyModifiers) {
    app.handle_terminal_event(Event::Key(KeyEvent::new(code, modifiers)));
}

fn run(app: &mut App, command: &str) {
    for c in command.chars() {
        key(app, KeyCode::Char(c), KeyModifiers::NONE);
    }
    // Close the `/` completion list first so Enter submits what was typed.
    key(app, KeyCode::Esc, KeyModifiers::NONE);
    key(app, KeyCode::Enter, KeyModifiers::NONE);
}

fn overlay_text(app: &App) -> String {
    let lines = app
        .overlay
        .as_ref()
        .expect("an overlay")
        .lines(&app.theme, 100);
    lines
        .iter()
        .map(|l| {
            l.spans
                .iter()
                .map(|s| s.content.as_ref())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Move the highlight down to the entry labelled `label`.
fn select_entry(app: &mut App, label: &str) {
    for _ in 0..30 {
        if overlay_text(app)
            .lines()
            .any(|l| l.starts_with("→ ") && l.contains(label))
        {
            return;
        }
        key(app, KeyCode::Down, KeyModifiers::NONE);
    }
    panic!("no entry {label}: {}", overlay_text(app));
}

#[test]
fn settings_changes_are_saved_and_applied_at_once() {
    let mut f = fixture("{\n  \"defaultProvider\": \"anthropic\"\n}\n");
    run(&mut f.app, "/settings");
    assert!(matches!(f.app.overlay, Some(Overlay::Panel(_))));
    let text = overlay_text(&f.app);
    for label in [
        "Auto-compact",
        "Skill commands",
        "Clear on shrink",
        "(1/19)",
    ] {
        assert!(text.contains(label), "{text}");
    }
    // This terminal draws no images: their display settings are left out.
    assert!(!text.contains("Show images"), "{text}");
    f.app.overlay = None;
    f.app.image_protocol = Some(crate::ui_kit::terminal_image::ImageProtocol::Kitty);
    run(&mut f.app, "/settings");
    let text = overlay_text(&f.app);
    assert!(
        text.contains("Show images") && text.contains("(1/21)"),
        "{text}"
    );

    select_entry(&mut f.app, "Quiet startup");
    key(&mut f.app, KeyCode::Enter, KeyModifiers::NONE);
    assert!(f.app.quiet_startup, "the header is hidden at once");

    select_entry(&mut f.app, "Steering mode");
    key(&mut f.app, KeyCode::Right, KeyModifiers::NONE);
    assert_eq!(f.app.queues.steering.mode(), QueueMode::All);

    select_entry(&mut f.app, "Auto-compact");
    key(&mut f.app, KeyCode::Char(' '), KeyModifiers::NONE);

    key(&mut f.app, KeyCode::Esc, KeyModifiers::NONE);
    assert!(f.app.overlay.is_none());
    assert_eq!(
        f.saved(),
        json!({
            "defaultProvider": "anthropic",
            "quietStartup": true,
            "steeringMode": "all",
            "compaction": {"enabled": false}
        })
    );
}

#[test]
fn theme_list_previews_user_themes_and_enter_saves() {
    let mut f = fixture("{}");
    let light = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("themes/light.json"),
    )
    .unwrap();
    std::fs::write(f.dir.path().join("agent/themes/mine.json"), light).unwrap();
    run(&mut f.app, "/settings");
    for c in "theme".chars() {
        key(&mut f.app, KeyCode::Char(c), KeyModifiers::NONE);
    }
    key(&mut f.app, KeyCode::Enter, KeyModifiers::NONE);
    assert!(
        overlay_text(&f.app).contains("→ dark"),
        "{}",
        overlay_text(&f.app)
    );
    // Up from the first entry wraps to the last: the user theme, previewed unsaved.
    key(&mut f.app, KeyCode::Up, KeyModifiers::NONE);
    assert!(
        overlay_text(&f.app).contains("→ mine"),
        "{}",
        overlay_text(&f.app)
    );
    assert_eq!(f.app.theme.color("accent"), Theme::light().color("accent"));
    assert_eq!(f.saved(), json!({}), "a preview is not saved");
    key(&mut f.app, KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(
        f.app.theme.color("accent"),
        Theme::load("dark", &[]).0.color("accent"),
        "escape restores the theme from before"
    );
    key(&mut f.app, KeyCode::Enter, KeyModifiers::NONE);
    key(&mut f.app, KeyCode::Up, KeyModifiers::NONE);
    key(&mut f.app, KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(f.saved(), json!({"theme": "mine"}));
    assert_eq!(
        f.app.theme.color("accent"),
        Theme::light().color("accent"),
        "the user theme is applied"
    );
}

fn models(ids: &[&str]) -> Vec<crate::ai::model::Model> {
    ids.iter()
        .map(|id| {
            let mut m = FauxProvider::new().model();
            m.id = id.to_string();
            m.provider = "p".into();
            m
        })
        .collect()
}

#[test]
fn scoped_models_change_ctrl_p_cycling_and_save_enabled_models() {
    let mut f = fixture("{}");
    f.app.models = models(&["one", "two", "three"]);
    f.app.footer.model_id = "one".into();
    f.app.footer.provider = "p".into();
    run(&mut f.app, "/scoped-models");
    assert!(overlay_text(&f.app).contains("all enabled"));
    // Enable only "one" and "three".
    key(&mut f.app, KeyCode::Enter, KeyModifiers::NONE);
    key(&mut f.app, KeyCode::Down, KeyModifiers::NONE);
    key(&mut f.app, KeyCode::Down, KeyModifiers::NONE);
    key(&mut f.app, KeyCode::Enter, KeyModifiers::NONE);
    let cycle: Vec<&str> = f.app.cycle_models.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(cycle, ["one", "three"]);
    assert!(overlay_text(&f.app).contains("(unsaved)"));
    assert_eq!(f.saved(), json!({}), "nothing saved before ctrl+s");
    key(&mut f.app, KeyCode::Char('s'), KeyModifiers::CONTROL);
    assert_eq!(f.saved(), json!({"enabledModels": ["p/one", "p/three"]}));
    key(&mut f.app, KeyCode::Esc, KeyModifiers::NONE);

    key(&mut f.app, KeyCode::Char('p'), KeyModifiers::CONTROL);
    assert_eq!(
        f.app.footer.model_id, "three",
        "ctrl+p skips the disabled model"
    );
}

#[test]
fn changelog_shows_the_shipped_changelog() {
    let mut f = fixture("{}");
    run(&mut f.app, "/changelog");
    let shown = f.app.transcript.items.iter().any(|i| match i {
        Item::Notice { text, .. } => text.contains("## [0.1.0]") && text.contains("/settings"),
        _ => false,
    });
    assert!(shown, "the changelog notice is in the transcript");
}

/// Open `/settings`, filter to `label` and press Enter on it (a space would change
/// the highlighted entry, so the label is typed without spaces).
fn change(app: &mut App, label: &str) {
    run(app, "/settings");
    for c in label.chars().filter(|c| *c != ' ') {
        key(app, KeyCode::Char(c), KeyModifiers::NONE);
    }
    assert!(
        overlay_text(app).contains(&format!("→ {label}")),
        "{}",
        overlay_text(app)
    );
    key(app, KeyCode::Enter, KeyModifiers::NONE);
    key(app, KeyCode::Esc, KeyModifiers::NONE);
}

fn commands(f: &mut Fixture) -> Vec<SessionCommand> {
    std::iter::from_fn(|| f._rx.try_recv().ok()).collect()
}

#[test]
fn auto_compact_and_skill_commands_reach_the_running_session() {
    let mut f = fixture("{}");
    f.app.footer.auto_compact = true;
    change(&mut f.app, "Auto-compact");
    assert!(
        !f.app.footer.auto_compact,
        "the footer drops `(auto)` at once"
    );
    change(&mut f.app, "Skill commands");
    let sent = commands(&mut f);
    assert!(
        sent.iter()
            .any(|c| matches!(c, SessionCommand::SetAutoCompact(false))),
        "{sent:?}"
    );
    assert!(
        sent.iter()
            .any(|c| matches!(c, SessionCommand::SetSkillCommands(false))),
        "{sent:?}"
    );
    assert_eq!(
        f.saved(),
        json!({"compaction": {"enabled": false}, "enableSkillCommands": false})
    );
}

#[test]
fn editor_padding_indents_the_editor_at_once() {
    let mut f = fixture("{}");
    f.app.editor.set_text("hello");
    let before = crate::tui::view_tests::screen(&mut f.app, 60, 12);
    assert!(before.lines().any(|l| l.starts_with("hello")), "{before}");
    f.app.editor.set_text("");
    change(&mut f.app, "Editor padding");
    f.app.editor.set_text("hello");
    let after = crate::tui::view_tests::screen(&mut f.app, 60, 12);
    assert!(after.lines().any(|l| l.starts_with(" hello")), "{after}");
    assert_eq!(f.saved(), json!({"editorPaddingX": 1}));
}

#[test]
fn tree_filter_mode_is_the_next_trees_filter() {
    let mut f = fixture("{}");
    change(&mut f.app, "Tree filter mode");
    assert_eq!(f.app.tree.filter.name(), "no-tools");
}

#[test]
fn terminal_progress_shows_while_busy_only_when_switched_on() {
    use crate::tui::app::progress::{PROGRESS_ACTIVE, PROGRESS_CLEAR};
    let mut f = fixture("{}");
    f.app.busy_since = Some(std::time::Instant::now());
    assert_eq!(f.app.terminal_progress(), None, "off by default");
    f.app.busy_since = None;
    change(&mut f.app, "Terminal progress");
    assert_eq!(
        f.saved(),
        json!({"terminal": {"showTerminalProgress": true}})
    );
    assert_eq!(f.app.terminal_progress(), None, "idle");
    f.app.busy_since = Some(std::time::Instant::now());
    assert_eq!(f.app.terminal_progress(), Some(PROGRESS_ACTIVE));
    assert_eq!(f.app.terminal_progress(), None, "written once");
    f.app.busy_since = None;
    assert_eq!(f.app.terminal_progress(), Some(PROGRESS_CLEAR));
}

#[test]
fn terminal_entries_write_their_keys_and_block_images_reaches_the_session() {
    let mut f = fixture("{}");
    f.app.image_protocol = Some(crate::ui_kit::terminal_image::ImageProtocol::Kitty);
    change(&mut f.app, "Show images");
    change(&mut f.app, "Image width");
    change(&mut f.app, "Show hardware cursor");
    change(&mut f.app, "Clear on shrink");
    change(&mut f.app, "Block images");
    assert_eq!(
        f.saved(),
        json!({
            "terminal": {"showImages": false, "imageWidthCells": 80, "clearOnShrink": true},
            "showHardwareCursor": true,
            "images": {"blockImages": true}
        })
    );
    let sent = commands(&mut f);
    assert!(
        sent.iter()
            .any(|c| matches!(c, SessionCommand::SetBlockImages(true))),
        "{sent:?}"
    );
}

#[test]
fn autocomplete_max_items_changes_the_slash_menu_at_once() {
    let mut f = fixture("{}");
    let rows = |app: &mut App| {
        app.editor.set_text("/");
        app.completion = Some(0);
        let screen = crate::tui::view_tests::screen(app, 80, 40);
        app.completion = None;
        app.editor.set_text("");
        screen
            .lines()
            .filter(|l| l.starts_with("  /") || l.starts_with("→ /"))
            .count()
    };
    assert_eq!(rows(&mut f.app), 5);
    change(&mut f.app, "Autocomplete");
    assert_eq!(f.saved(), json!({"autocompleteMaxVisible": 7}));
    assert_eq!(rows(&mut f.app), 7);
}

/// How many notices in the transcript mention extra usage.
fn extra_usage_warnings(app: &App) -> usize {
    app.transcript
        .items
        .iter()
        .filter(|i| matches!(i, Item::Notice { text, .. } if text.contains("extra usage")))
        .count()
}

#[test]
fn a_subscription_sign_in_to_anthropic_is_warned_about_once_unless_switched_off() {
    let oauth = json!({"anthropic": {"type": "oauth", "access": "sk-ant-oat01-x",
        "refresh": "r", "expires": 4_102_444_800_000u64}});
    for (settings, auth, provider, expected) in [
        ("{}", oauth.clone(), "anthropic", 1),
        // Switched off in /settings.
        (
            r#"{"warnings": {"anthropicExtraUsage": false}}"#,
            oauth.clone(),
            "anthropic",
            0,
        ),
        // A plain API key is billed as such: nothing to warn about.
        (
            "{}",
            json!({"anthropic": {"type": "api_key", "key": "sk-ant-api03-x"}}),
            "anthropic",
            0,
        ),
        // A subscription token given as a key is a sign-in too.
        (
            "{}",
            json!({"anthropic": {"type": "api_key", "key": "sk-ant-oat01-y"}}),
            "anthropic",
            1,
        ),
        // Another provider's model.
        ("{}", oauth, "openai", 0),
    ] {
        let mut f = fixture(settings);
        std::fs::write(f.dir.path().join("agent/auth.json"), auth.to_string()).unwrap();
        f.app.footer.provider = provider.into();
        f.app.warn_about_extra_usage();
        f.app.warn_about_extra_usage();
        assert_eq!(
            extra_usage_warnings(&f.app),
            expected,
            "{settings} {provider}"
        );
    }
}
