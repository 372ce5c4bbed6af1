//! `/settings` and `/resume` in Traditional Chinese: pictures of the lists (with the
//! thinking-level list and a forked session) that carry no English beyond key names
//! and the search syntax.

use std::path::PathBuf;

use chrono::{DateTime, Duration, TimeZone, Utc};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use pi::config::settings::Settings;
use pi::session::list::SessionInfo;
use pi::session::list_stream::SessionStream;
use pi::tui::panels::Panel;
use pi::tui::panels::session::SessionPanel;
use pi::tui::panels::settings::SettingsPanel;
use pi::ui_kit::keybindings::Keybindings;
use pi::ui_kit::theme::Theme;
use serde_json::json;

/// Latin words allowed on these screens: key names, `re:`, units and a provider's name.
const ALLOWED: &[&str] = &["enter", "esc", "tab", "ctrl", "re", "token", "anthropic"];

fn text(panel: &dyn Panel) -> String {
    panel
        .lines(&Theme::plain(), 80)
        .iter()
        .map(|l| {
            l.spans
                .iter()
                .map(|s| s.content.as_ref())
                .collect::<String>()
        })
        .map(|l| l.trim_end().to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

fn assert_no_english(screen: &str) {
    let words: Vec<&str> = screen
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| w.len() >= 2 && !ALLOWED.contains(&w.to_lowercase().as_str()))
        .collect();
    assert!(words.is_empty(), "English {words:?} on:\n{screen}");
}

fn press(panel: &mut dyn Panel, code: KeyCode) {
    panel.handle_key(
        &KeyEvent::new(code, KeyModifiers::NONE),
        &Keybindings::default(),
    );
}

#[test]
fn settings_in_zh_tw() {
    pi::i18n::set_locale("zh-TW");
    let settings = Settings::from_values(json!({"quietStartup": true}), json!({}));
    let levels = ["off", "minimal", "low", "medium", "high"]
        .map(String::from)
        .to_vec();
    let mut panel = SettingsPanel::new(&settings, vec!["dark".into(), "light".into()], levels);
    let list = text(&panel);
    assert!(list.contains("自動壓縮"), "{list}");
    assert_no_english(&list);
    insta::assert_snapshot!("settings_zh_tw_80", list);

    for _ in 0..18 {
        press(&mut panel, KeyCode::Down);
    }
    press(&mut panel, KeyCode::Enter);
    let levels = text(&panel);
    assert!(levels.contains("思考"), "the thinking list: {levels}");
    assert_no_english(&levels);
    insta::assert_snapshot!("settings_thinking_zh_tw_80", levels);
}

fn session(
    id: &str,
    first: &str,
    name: Option<&str>,
    at: DateTime<Utc>,
    parent: Option<&str>,
) -> SessionInfo {
    SessionInfo {
        path: PathBuf::from(format!("/工作階段/{id}.jsonl")),
        id: id.into(),
        cwd: "/srv/專案".into(),
        name: name.map(String::from),
        parent_session_path: parent.map(|p| format!("/工作階段/{p}.jsonl")),
        created: at,
        modified: at,
        message_count: 4,
        first_message: first.into(),
        all_messages_text: first.into(),
    }
}

#[test]
fn resume_in_zh_tw() {
    pi::i18n::set_locale("zh-TW");
    let now = Utc.with_ymd_and_hms(2026, 11, 20, 12, 0, 0).unwrap();
    let sessions = vec![
        session("a", "整理測試", None, now - Duration::minutes(5), Some("c")),
        session(
            "b",
            "修正頁尾",
            Some("頁尾重構"),
            now - Duration::hours(3),
            None,
        ),
        session("c", "翻譯介面", None, now - Duration::days(9), None),
    ];
    let mut panel = SessionPanel::new(
        sessions,
        Box::new(|| SessionStream::ready(Vec::new())),
        &Keybindings::default(),
    )
    .with_active(Some(PathBuf::from("/工作階段/b.jsonl")))
    .with_now(now);
    let list = text(&panel);
    assert!(list.contains("└─ 整理測試"), "{list}");
    assert_no_english(&list);
    insta::assert_snapshot!("resume_zh_tw_80", list);

    panel.handle_key(
        &KeyEvent::new(KeyCode::Char('n'), KeyModifiers::CONTROL),
        &Keybindings::default(),
    );
    panel.handle_key(
        &KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL),
        &Keybindings::default(),
    );
    let named = text(&panel);
    assert!(
        named.contains("頁尾重構") && !named.contains("整理測試"),
        "{named}"
    );
    assert_no_english(&named);
    insta::assert_snapshot!("resume_named_recent_zh_tw_80", named);
}
