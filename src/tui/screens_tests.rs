//! Snapshots of screens changed for pi's behaviour: the Ctrl+O key help in
//! the header, `/hotkeys` tables, the `/` menu counter, user markdown, a
//! folded `/skill:` message and `!` / `!!` rows.

use serde_json::json;

use crate::tui::transcript::{Item, ToolRow};
use crate::tui::view_tests::{app, screen};

#[test]
fn ctrl_o_expands_the_header_into_a_key_help() {
    let mut a = app();
    let collapsed = screen(&mut a, 80, 30);
    assert!(!collapsed.contains("ctrl+z"), "{collapsed}");
    a.tools_expanded = true;
    let expanded = screen(&mut a, 80, 30);
    assert!(
        expanded.contains("ctrl+z") && expanded.contains("!!"),
        "{expanded}"
    );
    insta::assert_snapshot!("header_key_help_80x30", expanded);
}

#[test]
fn hotkeys_are_grouped_tables_without_ids() {
    let mut a = app();
    let text = crate::tui::app::hotkeys::hotkeys_markdown(&a.keys, &[]);
    a.transcript.push(Item::Help { text });
    let text = screen(&mut a, 100, 80);
    assert!(!text.contains("[tui."), "{text}");
    assert!(!text.contains("(none)"), "{text}");
    insta::assert_snapshot!("hotkeys_100x80", text);
}

#[test]
fn the_slash_menu_counts_its_position() {
    let mut a = app();
    a.editor.set_text("/");
    a.completion = Some(0);
    let text = screen(&mut a, 80, 24);
    let total = a.completions().len();
    assert!(text.contains(&format!("(1/{total})")), "{text}");
    insta::assert_snapshot!("slash_menu_80x24", text);
}

#[test]
fn user_markdown_skill_messages_and_bash_rows() {
    let mut a = app();
    a.transcript.push(Item::User {
        text: "please **fix** the `parser`".into(),
    });
    a.transcript.push(Item::User {
        text: "<skill name=\"pdf\" location=\"/s/pdf/SKILL.md\">\nReferences are relative to /s/pdf.\n\nSecret body\n</skill>\n\nsplit the file".into(),
    });
    for (id, exclude) in [("user-bash-1", false), ("user-bash-2", true)] {
        let mut args = json!({"command": format!("echo {id}")});
        if exclude {
            args["excludeFromContext"] = true.into();
        }
        a.transcript.push(Item::Tool(ToolRow {
            id: id.into(),
            name: "bash".into(),
            args,
            output: "out".into(),
            details: None,
            is_error: false,
            done: true,
            duration: None,
            started: None,
            custom: None,
        }));
    }
    let text = screen(&mut a, 80, 30);
    assert!(text.contains("please fix the parser"), "{text}");
    assert!(text.contains("[skill] pdf (ctrl+o to expand)"), "{text}");
    assert!(
        !text.contains("Secret body") && text.contains("split the file"),
        "{text}"
    );
    assert!(
        text.contains("$ echo user-bash-2  (not sent to the model)"),
        "{text}"
    );
    assert!(!text.contains("$ echo user-bash-1  ("), "{text}");
    insta::assert_snapshot!("user_markdown_skill_bash_80x30", text);
}

#[test]
fn settings_list_filter_and_thinking_levels() {
    use crate::config::settings::Settings;
    use crate::tui::app::Overlay;
    use crate::tui::panels::settings::SettingsPanel;
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let mut a = app();
    let levels = ["off", "minimal", "low", "medium", "high"].map(String::from);
    let panel = SettingsPanel::new(
        &Settings::from_values(json!({"editorPaddingX": 1}), json!({})),
        vec!["dark".into(), "light".into()],
        levels.to_vec(),
    );
    a.overlay = Some(Overlay::Panel(Box::new(panel)));
    let list = screen(&mut a, 80, 30);
    assert!(
        list.contains("(1/21)") && list.contains("Type to search"),
        "{list}"
    );
    insta::assert_snapshot!("settings_80x30", list);
    let press = |a: &mut crate::tui::app::App, code| {
        a.handle_terminal_event(crossterm::event::Event::Key(KeyEvent::new(
            code,
            KeyModifiers::NONE,
        )))
    };
    for c in "think".chars() {
        press(&mut a, KeyCode::Char(c));
    }
    let filtered = screen(&mut a, 80, 30);
    assert!(
        filtered.contains("→ Thinking level") && filtered.contains("Hide thinking"),
        "{filtered}"
    );
    insta::assert_snapshot!("settings_filtered_80x30", filtered);
    press(&mut a, KeyCode::Enter);
    let levels = screen(&mut a, 80, 30);
    assert!(
        levels.contains("Moderate reasoning (~8k tokens)"),
        "{levels}"
    );
    insta::assert_snapshot!("settings_thinking_levels_80x30", levels);
}
