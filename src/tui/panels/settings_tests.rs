//! The `/settings` list: values, filtering, stepping and the lists of values.

use super::*;
use crossterm::event::KeyModifiers;
use serde_json::json;

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn press(panel: &mut SettingsPanel, code: KeyCode) -> PanelOutcome {
    panel.handle_key(&key(code), &Keybindings::default())
}

fn type_text(panel: &mut SettingsPanel, text: &str) {
    for c in text.chars() {
        press(panel, KeyCode::Char(c));
    }
}

fn text(panel: &SettingsPanel) -> String {
    panel
        .lines(&Theme::plain(), 100)
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

fn panel() -> SettingsPanel {
    let settings = Settings::from_values(
        json!({"quietStartup": true, "compaction": {"enabled": false}, "editorPaddingX": 2}),
        json!({}),
    );
    SettingsPanel::new(
        &settings,
        vec!["dark".into(), "light".into()],
        vec!["off".into(), "low".into(), "high".into()],
    )
}

#[test]
fn values_come_from_settings_and_cycle() {
    let mut panel = panel();
    assert_eq!(panel.value("autocompact"), Some("false"));
    assert_eq!(panel.value("quiet-startup"), Some("true"));
    assert_eq!(panel.value("editor-padding"), Some("2"));
    assert_eq!(panel.value("steering-mode"), Some("one-at-a-time"));
    assert_eq!(
        press(&mut panel, KeyCode::Enter),
        PanelOutcome::Changed(PanelChange::Setting {
            id: "autocompact",
            value: "true".into()
        })
    );
    assert_eq!(
        press(&mut panel, KeyCode::Char(' ')),
        PanelOutcome::Changed(PanelChange::Setting {
            id: "autocompact",
            value: "false".into()
        })
    );
    assert_eq!(press(&mut panel, KeyCode::Esc), PanelOutcome::Closed);
}

#[test]
fn typing_filters_by_label_and_counts_position() {
    let mut panel = panel();
    let all = text(&panel);
    assert!(all.contains("(1/21)"), "{all}");
    assert!(all.contains("→ Auto-compact"), "{all}");
    type_text(&mut panel, "steer");
    let shown = text(&panel);
    assert!(shown.contains("> steer"), "{shown}");
    assert!(shown.contains("→ Steering mode"), "{shown}");
    assert!(!shown.contains("Auto-compact"), "{shown}");
    assert!(
        !shown.contains("(1/"),
        "no counter for a short list: {shown}"
    );
    assert_eq!(
        press(&mut panel, KeyCode::Left),
        PanelOutcome::Changed(PanelChange::Setting {
            id: "steering-mode",
            value: "all".into()
        })
    );
    type_text(&mut panel, "zzz");
    assert!(
        text(&panel).contains("No matching settings"),
        "{}",
        text(&panel)
    );
    for _ in 0..8 {
        press(&mut panel, KeyCode::Backspace);
    }
    assert!(text(&panel).contains("→ Auto-compact"), "{}", text(&panel));
}

#[test]
fn thinking_opens_a_list_and_enter_picks_a_level() {
    let mut panel = panel();
    panel.set_value("thinking", "off");
    type_text(&mut panel, "thinking");
    assert_eq!(press(&mut panel, KeyCode::Enter), PanelOutcome::Open);
    let menu = text(&panel);
    assert!(menu.contains("→ off"), "{menu}");
    assert!(menu.contains("No reasoning"), "{menu}");
    assert!(menu.contains("Enter to select"), "{menu}");
    press(&mut panel, KeyCode::Down);
    press(&mut panel, KeyCode::Down);
    assert_eq!(
        press(&mut panel, KeyCode::Enter),
        PanelOutcome::Changed(PanelChange::Setting {
            id: "thinking",
            value: "high".into()
        })
    );
    assert_eq!(panel.value("thinking"), Some("high"));
    assert!(text(&panel).contains("Thinking level"), "back in the list");
}

#[test]
fn the_theme_list_previews_and_escape_restores() {
    let mut panel = panel();
    type_text(&mut panel, "theme");
    press(&mut panel, KeyCode::Enter);
    assert_eq!(
        press(&mut panel, KeyCode::Down),
        PanelOutcome::Changed(PanelChange::PreviewTheme("light".into()))
    );
    assert_eq!(
        press(&mut panel, KeyCode::Esc),
        PanelOutcome::Changed(PanelChange::PreviewTheme("dark".into()))
    );
    assert_eq!(panel.value("theme"), Some("dark"));
    // Escape in the list closes the panel.
    assert_eq!(press(&mut panel, KeyCode::Esc), PanelOutcome::Closed);
}
