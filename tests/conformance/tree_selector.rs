//! The `/tree` selector: where the highlight starts, and how it follows filter changes.
//! orig-file: packages/coding-agent/test/tree-selector.test.ts

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use pi::session::SessionManager;
use pi::tui::panels::tree_rows::flatten;
use pi::tui::panels::tree_selector::{TreeFilter, TreeSelector};
use pi::ui_kit::keybindings::Keybindings;
use serde_json::{Value, json};

fn user(id: &str, parent: Option<&str>, text: &str) -> Value {
    json!({"type": "message", "id": id, "parentId": parent, "timestamp": "2026-01-01T00:00:00.000Z",
           "message": {"role": "user", "content": text, "timestamp": 1}})
}

fn assistant(id: &str, parent: &str, text: &str) -> Value {
    json!({"type": "message", "id": id, "parentId": parent, "timestamp": "2026-01-01T00:00:01.000Z",
           "message": {"role": "assistant", "content": [{"type": "text", "text": text}],
                       "api": "anthropic-messages", "provider": "anthropic", "model": "claude-sonnet-4",
                       "usage": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
                                 "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
                       "stopReason": "stop", "timestamp": 2}})
}

/// A selector over `entries` (written to a session file) with the leaf at `leaf`.
fn selector(entries: &[Value], leaf: &str) -> (tempfile::TempDir, TreeSelector) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.jsonl");
    let mut text = json!({"type": "session", "version": 3, "id": "s", "timestamp": "2026-01-01T00:00:00.000Z", "cwd": "/tmp"}).to_string();
    for e in entries {
        text.push('\n');
        text.push_str(&e.to_string());
    }
    std::fs::write(&file, text + "\n").unwrap();
    let mut session = SessionManager::open(&file).unwrap();
    session.branch(leaf).unwrap();
    let s = TreeSelector::new(flatten(&session), TreeFilter::Default);
    (dir, s)
}

fn ctrl(s: &mut TreeSelector, c: char) {
    s.handle_key(
        &KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL),
        &Keybindings::default(),
    );
}

/// orig: TreeSelectorComponent › initial selection with metadata entries › focuses nearest visible ancestor when currentLeafId is a model_change with sibling branch
#[test]
fn leaf_on_model_change_selects_its_message() {
    let entries = [
        user("user-1", None, "hello"),
        assistant("asst-1", "user-1", "hi"),
        user("user-2", Some("asst-1"), "active branch"),
        json!({"type": "model_change", "id": "model-1", "parentId": "user-2", "timestamp": "2026-01-01T00:00:02.000Z",
               "provider": "anthropic", "modelId": "claude-sonnet-4"}),
        user("user-3", Some("asst-1"), "sibling branch"),
    ];
    let (_d, s) = selector(&entries, "model-1");
    assert_eq!(s.selected_id(), Some("user-2"));
}

/// orig: TreeSelectorComponent › initial selection with metadata entries › focuses nearest visible ancestor when currentLeafId is a thinking_level_change entry
#[test]
fn leaf_on_thinking_change_selects_its_message() {
    let entries = [
        user("user-1", None, "hello"),
        assistant("asst-1", "user-1", "hi"),
        user("user-2", Some("asst-1"), "active branch"),
        json!({"type": "thinking_level_change", "id": "thinking-1", "parentId": "user-2",
               "timestamp": "2026-01-01T00:00:02.000Z", "thinkingLevel": "high"}),
        user("user-3", Some("asst-1"), "sibling branch"),
    ];
    let (_d, s) = selector(&entries, "thinking-1");
    assert_eq!(s.selected_id(), Some("user-2"));
}

fn branching() -> Vec<Value> {
    vec![
        user("user-1", None, "hello"),
        assistant("asst-1", "user-1", "hi"),
        user("user-2", Some("asst-1"), "active branch"),
        assistant("asst-2", "user-2", "response"),
        user("user-3", Some("asst-1"), "sibling branch"),
    ]
}

/// orig: TreeSelectorComponent › filter switching with parent traversal › switches to nearest visible user message when changing to user-only filter
#[test]
fn user_only_filter_selects_the_parent_user_message() {
    let (_d, mut s) = selector(&branching(), "asst-2");
    assert_eq!(s.selected_id(), Some("asst-2"));
    ctrl(&mut s, 'u');
    assert_eq!(s.selected_id(), Some("user-2"));
}

/// orig: TreeSelectorComponent › filter switching with parent traversal › returns to nearest visible ancestor when switching back to default filter
#[test]
fn back_to_default_filter() {
    let (_d, mut s) = selector(&branching(), "asst-2");
    ctrl(&mut s, 'u');
    assert_eq!(s.selected_id(), Some("user-2"));
    ctrl(&mut s, 'd');
    assert_eq!(s.selected_id(), Some("user-2"));
}

/// orig: TreeSelectorComponent › empty filter preservation › preserves selection when switching to empty labeled filter and back
#[test]
fn empty_labeled_filter_and_back() {
    let entries = [
        user("user-1", None, "hello"),
        assistant("asst-1", "user-1", "hi"),
        user("user-2", Some("asst-1"), "bye"),
        assistant("asst-2", "user-2", "goodbye"),
    ];
    let (_d, mut s) = selector(&entries, "asst-2");
    assert_eq!(s.selected_id(), Some("asst-2"));
    ctrl(&mut s, 'l');
    assert_eq!(s.selected_id(), None);
    ctrl(&mut s, 'd');
    assert_eq!(s.selected_id(), Some("asst-2"));
}

/// orig: TreeSelectorComponent › empty filter preservation › preserves selection through multiple empty filter switches
#[test]
fn several_empty_filter_switches() {
    let entries = [
        user("user-1", None, "hello"),
        assistant("asst-1", "user-1", "hi"),
    ];
    let (_d, mut s) = selector(&entries, "asst-1");
    assert_eq!(s.selected_id(), Some("asst-1"));
    ctrl(&mut s, 'l');
    assert_eq!(s.selected_id(), None);
    ctrl(&mut s, 'l');
    assert_eq!(s.selected_id(), Some("asst-1"));
    ctrl(&mut s, 'l');
    assert_eq!(s.selected_id(), None);
    ctrl(&mut s, 'd');
    assert_eq!(s.selected_id(), Some("asst-1"));
}
