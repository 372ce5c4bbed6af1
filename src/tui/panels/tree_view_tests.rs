//! How `/tree` is drawn: its frame, how many rows show at once, and the colours of
//! the rows (the lead of a message in its kind's colour, the selected row on the
//! selection background).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Modifier;
use ratatui::text::Line;

use crate::ai::types::{AssistantMessage, ContentBlock, Message, UserMessage};
use crate::session::SessionManager;
use crate::tui::panels::tree_rows::flatten;
use crate::tui::panels::tree_selector::{TreeFilter, TreeSelector};
use crate::tui::panels::tree_view::label_time;
use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::theme::Theme;

/// `turns` exchanges of "question i" / "answer i", the first answer labelled.
fn session(turns: usize) -> SessionManager {
    let mut s = SessionManager::in_memory(std::path::Path::new("/p"));
    let mut first = None;
    for i in 1..=turns {
        s.append_message(Message::User(UserMessage::text(format!("question {i}"))));
        let mut a = AssistantMessage::empty("x", "p", "m");
        a.content = vec![ContentBlock::text(format!("answer {i}"))];
        let id = s.append_message(Message::Assistant(a));
        first.get_or_insert(id);
    }
    s.append_label_change(&first.unwrap(), Some("start"))
        .unwrap();
    s
}

fn text(lines: &[Line<'static>]) -> Vec<String> {
    lines.iter().map(|l| l.to_string()).collect()
}

fn press(t: &mut TreeSelector, code: KeyCode, modifiers: KeyModifiers) {
    t.handle_key(&KeyEvent::new(code, modifiers), &Keybindings::default());
}

/// Lines showing a message (`question …` or `answer …`).
fn rows(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.contains("question ") || l.contains("answer "))
        .collect()
}

#[test]
fn the_panel_has_a_title_keys_and_search_between_rules_then_rows_and_the_position() {
    let t = TreeSelector::new(flatten(&session(2)), TreeFilter::Default);
    let lines = text(&t.lines(&Theme::plain(), 60));
    let rule = "─".repeat(60);
    assert_eq!(lines[..3], ["", rule.as_str(), "   Session Tree"]);
    assert!(
        lines[3].starts_with("  ↑/↓: move. ←/→: page."),
        "{lines:#?}"
    );
    assert!(lines[3].ends_with("..."), "cut at the width: {lines:#?}");
    assert_eq!(lines[4..7], ["  Type to search:", rule.as_str(), ""]);
    assert_eq!(
        lines[7..],
        [
            "  • user: question 1",
            "  • [start] assistant: answer 1",
            "  • user: question 2",
            "› • assistant: answer 2 ← active",
            "  (4/4)",
            "",
            rule.as_str(),
        ]
    );
}

#[test]
fn half_the_terminal_rows_show_at_once_and_at_least_five() {
    let data = flatten(&session(30));
    let shown = |height: usize| {
        let t = TreeSelector::new(data.clone(), TreeFilter::Default).with_height(height);
        rows(&text(&t.lines(&Theme::plain(), 80))).len()
    };
    assert_eq!(shown(40), 20);
    assert_eq!(shown(24), 12);
    assert_eq!(shown(6), 5);
    let t = TreeSelector::new(data, TreeFilter::Default);
    assert_eq!(rows(&text(&t.lines(&Theme::plain(), 80))).len(), 12);
}

#[test]
fn a_page_key_moves_by_the_rows_shown() {
    let mut t = TreeSelector::new(flatten(&session(30)), TreeFilter::Default).with_height(20);
    press(&mut t, KeyCode::Left, KeyModifiers::NONE);
    let lines = text(&t.lines(&Theme::plain(), 80));
    assert!(lines.contains(&"  (50/60)".to_string()), "{lines:#?}");
}

#[test]
fn the_position_line_names_the_filter_and_the_label_times() {
    let mut t = TreeSelector::new(flatten(&session(2)), TreeFilter::UserOnly);
    press(&mut t, KeyCode::Char('T'), KeyModifiers::SHIFT);
    let lines = text(&t.lines(&Theme::plain(), 60));
    assert!(
        lines.contains(&"  (2/2) [user] [+label time]".to_string()),
        "{lines:#?}"
    );
    for _ in 0..3 {
        press(&mut t, KeyCode::Char('z'), KeyModifiers::NONE);
    }
    let lines = text(&t.lines(&Theme::plain(), 60));
    assert!(lines.contains(&"  Type to search: zzz".to_string()));
    assert!(lines.contains(&"  No entries found".to_string()));
    assert!(lines.contains(&"  (0/0) [user] [+label time]".to_string()));
}

#[test]
fn editing_a_label_shows_its_field_in_place_of_the_rows() {
    let mut t = TreeSelector::new(flatten(&session(2)), TreeFilter::Default);
    press(&mut t, KeyCode::Char('L'), KeyModifiers::SHIFT);
    press(&mut t, KeyCode::Char('x'), KeyModifiers::NONE);
    let lines = text(&t.lines(&Theme::plain(), 60));
    assert_eq!(
        lines[7..10],
        [
            "  Label (empty to remove):",
            "  > x",
            "  enter save  escape/ctrl+c cancel"
        ]
    );
    assert!(rows(&lines).is_empty(), "{lines:#?}");
}

#[test]
fn a_row_colours_its_lead_and_the_selected_row_sits_on_the_selection_background() {
    let theme = Theme::builtin("dark").unwrap();
    let t = TreeSelector::new(flatten(&session(2)), TreeFilter::Default);
    let lines = t.lines(&theme, 80);
    let find = |needle: &str| {
        lines
            .iter()
            .find(|l| l.to_string().contains(needle))
            .unwrap()
            .clone()
    };
    let span = |line: &Line<'static>, content: &str| {
        line.spans
            .iter()
            .find(|s| s.content == content)
            .unwrap_or_else(|| panic!("{content:?} in {line:?}"))
            .style
    };
    let user = find("question 2");
    assert_eq!(span(&user, "user: ").fg, theme.fg("accent").fg);
    assert_eq!(
        span(&user, "question 2").fg,
        None,
        "the words in the plain colour"
    );
    let labelled = find("answer 1");
    assert_eq!(span(&labelled, "[start] ").fg, theme.fg("warning").fg);
    assert_eq!(span(&labelled, "assistant: ").fg, theme.fg("success").fg);
    assert!(
        !span(&labelled, "answer 1")
            .add_modifier
            .contains(Modifier::BOLD)
    );

    let selected = find("answer 2");
    assert_eq!(span(&selected, "› ").fg, theme.fg("accent").fg);
    let bg = theme.bg("selectedBg").bg;
    assert!(bg.is_some());
    assert!(
        selected.spans.iter().all(|s| s.style.bg == bg),
        "{selected:?}"
    );
    assert!(
        span(&selected, "answer 2")
            .add_modifier
            .contains(Modifier::BOLD)
    );
    assert_eq!(user.spans.iter().find(|s| s.style.bg.is_some()), None);
}

#[test]
fn a_label_time_shows_the_date_only_when_it_is_not_today() {
    use chrono::TimeZone;
    let local = |y, mo, d, h, mi| chrono::Local.with_ymd_and_hms(y, mo, d, h, mi, 0).unwrap();
    let now = local(2025, 3, 9, 18, 0);
    let stamp = |t: chrono::DateTime<chrono::Local>| t.to_rfc3339();
    assert_eq!(label_time(&stamp(local(2025, 3, 9, 7, 5)), now), "07:05");
    assert_eq!(
        label_time(&stamp(local(2025, 1, 20, 14, 30)), now),
        "1/20 14:30"
    );
    assert_eq!(
        label_time(&stamp(local(2024, 12, 1, 9, 0)), now),
        "24/12/1 09:00"
    );
    assert_eq!(label_time("not a time", now), "not a time");
}

#[test]
fn label_times_show_after_the_label_once_asked_for() {
    let mut t = TreeSelector::new(flatten(&session(1)), TreeFilter::Default);
    let labelled = |t: &TreeSelector| {
        text(&t.lines(&Theme::plain(), 80))
            .into_iter()
            .find(|l| l.contains("[start]"))
            .unwrap()
    };
    assert!(labelled(&t).contains("[start] assistant: answer 1"));
    press(&mut t, KeyCode::Char('T'), KeyModifiers::SHIFT);
    let row = labelled(&t);
    let after = row.split("[start] ").nth(1).unwrap();
    let time = after.split(' ').next().unwrap();
    assert!(
        time.len() == 5 && time.as_bytes()[2] == b':',
        "a time of day after the label: {row}"
    );
}

#[test]
fn a_branch_connector_shows_whether_it_is_folded_or_can_be() {
    // hello → hi → {approach B (leaf), approach A → doing A}
    let mut s = SessionManager::in_memory(std::path::Path::new("/p"));
    s.append_message(Message::User(UserMessage::text("hello")));
    let mut hi = AssistantMessage::empty("x", "p", "m");
    hi.content = vec![ContentBlock::text("hi")];
    let hi = s.append_message(Message::Assistant(hi));
    s.append_message(Message::User(UserMessage::text("approach A")));
    let mut doing = AssistantMessage::empty("x", "p", "m");
    doing.content = vec![ContentBlock::text("doing A")];
    s.append_message(Message::Assistant(doing));
    s.branch(&hi).unwrap();
    s.append_message(Message::User(UserMessage::text("approach B")));
    let mut t = TreeSelector::new(flatten(&s), TreeFilter::Default);
    let row = |t: &TreeSelector, needle: &str| {
        text(&t.lines(&Theme::plain(), 60))
            .into_iter()
            .find(|l| l.contains(needle))
            .unwrap()
    };
    assert_eq!(row(&t, "approach B"), "› ├─ • user: approach B ← active");
    assert_eq!(row(&t, "approach A"), "  └⊟ user: approach A");
    press(&mut t, KeyCode::Down, KeyModifiers::NONE);
    press(&mut t, KeyCode::Left, KeyModifiers::CONTROL);
    assert_eq!(row(&t, "approach A"), "› └⊞ user: approach A");
    assert!(
        !text(&t.lines(&Theme::plain(), 60))
            .iter()
            .any(|l| l.contains("doing A"))
    );
}
