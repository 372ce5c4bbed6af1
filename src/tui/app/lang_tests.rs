//! `/lang` at the application level: switching re-renders what is already on screen,
//! persists to settings, warns for right-to-left tags, and the picker switches too.
//! Each test switches locale on its own thread only (`scoped_catalog`).

use std::path::PathBuf;

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::{Value, json};

use crate::agent::agent_loop::AgentQueues;
use crate::agent::events::{AgentEvent, ToolResultPayload};
use crate::ai::types::ContentBlock;
use crate::config::settings::Settings;
use crate::i18n::scoped::scoped_catalog;
use crate::tui::app::session_task::UiEvent;
use crate::tui::app::settings::UiSettings;
use crate::tui::app::{App, Overlay};
use crate::tui::chrome::FooterInfo;
use crate::tui::transcript::{Item, NoticeKind};
use crate::tui::view::draw;
use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::theme::Theme;

struct Fixture {
    app: App,
    dir: tempfile::TempDir,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let agent = dir.path().join("agent");
    let cwd = dir.path().join("proj");
    std::fs::create_dir_all(&agent).unwrap();
    std::fs::create_dir_all(&cwd).unwrap();
    std::fs::write(agent.join("settings.json"), "{}").unwrap();
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let footer = FooterInfo {
        cwd: PathBuf::from("/srv/pi"),
        model_id: "mock-model".into(),
        provider: "mock".into(),
        context_window: 100_000,
        ..FooterInfo::default()
    };
    let mut app = App::new(
        tx,
        AgentQueues::default(),
        Keybindings::default(),
        Theme::plain(),
        footer,
    );
    let (settings, _) = Settings::load(&agent, &cwd);
    app.ui_settings = UiSettings {
        settings,
        theme_dirs: Vec::new(),
        agent_dir: agent,
    };
    Fixture { app, dir }
}

impl Fixture {
    fn saved_locale(&self) -> Value {
        let text = std::fs::read_to_string(self.dir.path().join("agent/settings.json")).unwrap();
        serde_json::from_str::<Value>(&text).unwrap()["locale"].clone()
    }
}

fn key(app: &mut App, code: KeyCode) {
    app.handle_terminal_event(Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        key(app, KeyCode::Char(c));
    }
}

fn run(app: &mut App, command: &str) {
    type_text(app, command);
    // Close the `/` completion list first so Enter submits what was typed.
    key(app, KeyCode::Esc);
    key(app, KeyCode::Enter);
}

fn screen(app: &mut App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|f| draw(f, app)).unwrap();
    let buffer = terminal.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..height {
        let mut skip = 0;
        for x in 0..width {
            let symbol = buffer[(x, y)].symbol();
            if skip > 0 {
                skip -= 1;
                continue;
            }
            skip = ratatui::buffer::CellWidth::cell_width(symbol).saturating_sub(1) as usize;
            out.push_str(symbol);
        }
        out.push('\n');
    }
    out
}

fn bash_row(app: &mut App) {
    let event = |e| UiEvent::Agent(Box::new(e));
    app.handle_ui_event(event(AgentEvent::ToolExecutionStart {
        tool_call_id: "call_1".into(),
        tool_name: "bash".into(),
        args: json!({"command": "ls"}),
    }));
    app.handle_ui_event(event(AgentEvent::ToolExecutionEnd {
        tool_call_id: "call_1".into(),
        tool_name: "bash".into(),
        result: ToolResultPayload {
            content: vec![ContentBlock::text("a.txt")],
            details: Some(json!({"exitCode": 0})),
        },
        is_error: false,
    }));
}

fn last_notice(app: &App) -> (String, NoticeKind) {
    app.transcript
        .items
        .iter()
        .rev()
        .find_map(|item| match item {
            Item::Notice { text, kind } => Some((text.clone(), *kind)),
            _ => None,
        })
        .expect("a notice")
}

#[test]
fn switching_locale_rerenders_what_is_on_screen() {
    let _catalog = scoped_catalog("zh-TW");
    let mut f = fixture();
    bash_row(&mut f.app);
    let before = screen(&mut f.app, 80, 30);
    let interrupt_zh = crate::i18n::t("pi.tui.header.interrupt", &[]);
    assert!(before.contains(&interrupt_zh), "{before}");
    assert!(
        before.contains("耗時 "),
        "the tool row is in Chinese: {before}"
    );

    run(&mut f.app, "/lang en");
    let after = screen(&mut f.app, 80, 30);
    assert!(after.contains("interrupt"), "header: {after}");
    assert!(
        after.contains("Took "),
        "the tool row already on screen: {after}"
    );
    assert!(!after.contains(&interrupt_zh), "{after}");
    assert!(!after.contains("耗時"), "{after}");
    assert_eq!(f.saved_locale(), json!("en"));

    run(&mut f.app, "/lang tw");
    let again = screen(&mut f.app, 80, 30);
    assert!(again.contains(&interrupt_zh), "{again}");
    assert!(again.contains("耗時 "), "{again}");
    assert_eq!(f.saved_locale(), json!("zh-TW"));
}

#[test]
fn the_slash_menu_follows_the_locale_and_offers_aliases() {
    let _catalog = scoped_catalog("zh-TW");
    let mut f = fixture();
    type_text(&mut f.app, "/");
    let menu = screen(&mut f.app, 80, 30);
    assert!(menu.contains("選擇模型"), "{menu}");
    key(&mut f.app, KeyCode::Esc);
    f.app.editor.clear();
    run(&mut f.app, "/lang en");
    type_text(&mut f.app, "/mo");
    let menu = screen(&mut f.app, 80, 30);
    assert!(menu.contains("Select model"), "{menu}");
    assert!(!menu.contains("選擇模型"), "{menu}");
}

#[test]
fn right_to_left_tags_warn_and_mark_the_footer() {
    let _catalog = scoped_catalog("en");
    let mut f = fixture();
    run(&mut f.app, "/lang ar");
    let (text, kind) = last_notice(&f.app);
    assert_eq!(kind, NoticeKind::Warning);
    assert!(text.contains("Right-to-left"), "{text}");
    let shown = screen(&mut f.app, 80, 30);
    assert!(shown.contains("ar: right-to-left unsupported"), "{shown}");
    assert_eq!(f.saved_locale(), json!("ar"));
    run(&mut f.app, "/lang en");
    assert!(!screen(&mut f.app, 80, 30).contains("right-to-left unsupported"));
}

#[test]
fn the_picker_marks_the_current_language_and_switches() {
    let _catalog = scoped_catalog("en");
    let mut f = fixture();
    run(&mut f.app, "/lang");
    assert!(matches!(f.app.overlay, Some(Overlay::Panel(_))));
    let shown = screen(&mut f.app, 80, 30);
    assert!(shown.contains("● English"), "{shown}");
    assert!(shown.contains("日本語"), "{shown}");
    type_text(&mut f.app, "ja");
    key(&mut f.app, KeyCode::Enter);
    assert!(f.app.overlay.is_none());
    assert_eq!(crate::i18n::current_locale(), "ja");
    assert_eq!(f.saved_locale(), json!("ja"));
    assert!(last_notice(&f.app).0.contains("日本語 (ja)"));
}

#[test]
fn bad_words_are_an_error_and_subcommands_report() {
    let _catalog = scoped_catalog("en");
    let mut f = fixture();
    run(&mut f.app, "/lang not a language!");
    let (text, kind) = last_notice(&f.app);
    assert_eq!(kind, NoticeKind::Error);
    assert!(text.contains("Not a language"), "{text}");
    run(&mut f.app, "/lang debug");
    assert!(last_notice(&f.app).0.contains("Locale: English (en)"));
    run(&mut f.app, "/lang hacks");
    assert!(last_notice(&f.app).0.contains("core hack"));
    assert_eq!(f.saved_locale(), Value::Null, "nothing was switched");
}

fn notify(app: &mut App, message: &str) {
    app.handle_extension_request(crate::tui::chrome::extension_ui::UiRequest::Fire(
        json!({"method": "notify", "message": message, "notifyType": "info"}),
    ));
}

#[test]
fn setup_chooses_from_the_environment_not_settings_and_saves_it() {
    let _catalog = scoped_catalog("en");
    let mut f = fixture();
    let (from_env, _) = crate::i18n::locale::detect_from_environment(None);
    let wanted = crate::i18n::languages::resolve_language(&from_env).unwrap_or(from_env);
    let other = if wanted == "ja" { "zh-CN" } else { "ja" };
    run(&mut f.app, &format!("/lang {other}"));
    assert_eq!(f.saved_locale(), json!(other));
    let source = crate::i18n::lang_command::setup_choice().1;
    let expected = crate::i18n::t("pi.lang.setup.detected", &[("source", source.into())]);
    run(&mut f.app, "/lang setup");
    assert_eq!(crate::i18n::current_locale(), wanted);
    assert_eq!(f.saved_locale(), json!(wanted.clone()));
    let detected = f
        .app
        .transcript
        .items
        .iter()
        .any(|item| matches!(item, Item::Notice { text, .. } if *text == expected));
    assert!(detected, "the detection source is reported");
}

#[test]
fn probe_reports_rendered_keys_and_text_that_bypassed_t() {
    let _turn = crate::i18n::probe::TEST_TURN
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    let _catalog = scoped_catalog("en");
    let mut f = fixture();
    run(&mut f.app, "/lang probe reset");
    run(&mut f.app, "/lang probe on");
    bash_row(&mut f.app);
    notify(&mut f.app, "Deployment finished on staging");
    screen(&mut f.app, 80, 30);
    run(&mut f.app, "/lang probe");
    let (report, _) = last_notice(&f.app);
    run(&mut f.app, "/lang probe off");
    assert!(report.contains("pi.tui.header.interrupt"), "{report}");
    assert!(report.contains("pi.lang.probe.on"), "{report}");
    let unlocalised = report
        .split(&crate::i18n::t("pi.lang.probe.unlocalised", &[]))
        .nth(1)
        .unwrap_or_default();
    assert!(
        unlocalised.contains("Deployment finished on staging"),
        "{report}"
    );
    assert!(
        !unlocalised.contains("Language"),
        "text from t() is not reported: {unlocalised}"
    );
}

#[test]
fn turning_a_core_hack_off_restores_text_already_on_screen() {
    let _catalog = scoped_catalog("zh-TW");
    let mut f = fixture();
    let hacks = f.app.ui_settings.agent_dir.join("core-hacks");
    std::fs::create_dir_all(&hacks).unwrap();
    std::fs::write(
        hacks.join("deploy.lua"),
        r#"return { id = "test.deploy-text", locales = { "zh-TW" },
                    exact = { ["Deploy complete"] = "部署完成" } }"#,
    )
    .unwrap();
    crate::i18n::core_hacks::reload(&f.app.ui_settings.agent_dir);
    notify(&mut f.app, "Deploy complete");
    let shown = screen(&mut f.app, 80, 30);
    assert!(shown.contains("部署完成"), "{shown}");
    run(&mut f.app, "/lang hacks test.deploy-text off");
    let shown = screen(&mut f.app, 80, 30);
    assert!(shown.contains("Deploy complete"), "{shown}");
    assert!(!shown.contains("部署完成"), "{shown}");
    run(&mut f.app, "/lang hacks test.deploy-text on");
    assert!(screen(&mut f.app, 80, 30).contains("部署完成"));
    run(&mut f.app, "/lang en");
    let shown = screen(&mut f.app, 80, 30);
    assert!(shown.contains("Deploy complete"), "{shown}");
}

#[test]
fn unknown_tags_are_accepted_fall_back_per_key_and_debug_says_so() {
    let _catalog = scoped_catalog("en");
    let mut f = fixture();
    run(&mut f.app, "/lang fr-CA");
    assert_eq!(crate::i18n::current_locale(), "fr-CA");
    assert_eq!(f.saved_locale(), json!("fr-CA"));
    let partial = crate::i18n::t("pi.lang.partial", &[("tag", "fr-CA".into())]);
    assert!(last_notice(&f.app).0.contains(&partial));
    assert!(screen(&mut f.app, 80, 30).contains("interrupt"));
    run(&mut f.app, "/lang debug");
    let (debug, _) = last_notice(&f.app);
    assert!(debug.contains("fr-CA → fr → en"), "{debug}");
    assert!(debug.contains(&partial), "{debug}");
}

#[test]
fn a_locale_file_broken_while_running_keeps_the_old_text_on_reload() {
    let _catalog = scoped_catalog("en");
    let mut f = fixture();
    let dir = f.app.ui_settings.agent_dir.join("locales");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("demo.json");
    std::fs::write(
        &file,
        r#"{"version":1,"namespace":"ext.demo","locale":"en","messages":{"hi":"Hello v1"}}"#,
    )
    .unwrap();
    run(&mut f.app, "/reload");
    assert_eq!(crate::i18n::t("ext.demo.hi", &[]), "Hello v1");
    std::fs::write(&file, "{\n  \"version\": 1,\n  \"messages\": {,\n}").unwrap();
    run(&mut f.app, "/reload");
    assert_eq!(crate::i18n::t("ext.demo.hi", &[]), "Hello v1");
    let (error, kind) = last_notice(&f.app);
    assert_eq!(kind, NoticeKind::Error);
    assert!(error.contains("demo.json:3:"), "file and line: {error}");
}

#[test]
fn an_unfilled_placeholder_shows_as_written_and_the_doctor_reports_it() {
    let _catalog = scoped_catalog("en");
    let mut f = fixture();
    let bundle = crate::i18n::parse_bundle_value(
        &json!({"version":1,"namespace":"ext.greeter","locale":"en",
                "messages":{"hello":"Hello {person}!"}}),
        "ext:greeter:",
    )
    .unwrap();
    crate::i18n::update(|registry| registry.insert(bundle.clone()));
    assert_eq!(crate::i18n::t("ext.greeter.hello", &[]), "Hello {person}!");
    run(&mut f.app, "/lang doctor");
    let (report, _) = last_notice(&f.app);
    assert!(report.contains("ext.greeter.hello:person"), "{report}");
}
