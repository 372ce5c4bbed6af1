//! Deleting from the `/resume` selector and switching its scope: Ctrl+D asks to delete
//! the highlighted session whatever is typed, Ctrl+Backspace deletes a typed character
//! while there is one and otherwise asks to delete, Enter confirms; the list of every
//! folder is read once however often the scope is toggled.
//! orig-file: packages/coding-agent/test/session-selector-path-delete.test.ts

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use chrono::{DateTime, Utc};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use pi::session::list::SessionInfo;
use pi::tui::panels::session::{Scope, SessionPanel};
use pi::tui::panels::{Panel, PanelChange, PanelOutcome};
use pi::ui_kit::keybindings::Keybindings;
use pi::ui_kit::theme::Theme;

pub fn session(id: &str, name: Option<&str>) -> SessionInfo {
    let epoch = "1970-01-01T00:00:00Z".parse::<DateTime<Utc>>().unwrap();
    SessionInfo {
        path: PathBuf::from(format!("/tmp/{id}.jsonl")),
        id: id.into(),
        cwd: String::new(),
        name: name.map(str::to_string),
        parent_session_path: None,
        created: epoch,
        modified: epoch,
        message_count: 1,
        first_message: "hello".into(),
        all_messages_text: "hello".into(),
    }
}

pub fn panel(
    current: Vec<SessionInfo>,
    all: Vec<SessionInfo>,
    loads: Arc<AtomicUsize>,
) -> SessionPanel {
    SessionPanel::new(
        current,
        Box::new(move || {
            loads.fetch_add(1, Ordering::SeqCst);
            pi::session::list_stream::SessionStream::ready(all.clone())
        }),
        &Keybindings::default(),
    )
}

pub fn press(p: &mut SessionPanel, code: KeyCode, mods: KeyModifiers) -> PanelOutcome {
    p.handle_key(&KeyEvent::new(code, mods), &Keybindings::default())
}

pub fn typed(p: &mut SessionPanel, text: &str) {
    for c in text.chars() {
        press(p, KeyCode::Char(c), KeyModifiers::NONE);
    }
}

pub fn screen(p: &SessionPanel) -> String {
    p.lines(&Theme::plain(), 120)
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

const CONFIRM: &str = "Delete session?";

fn two() -> SessionPanel {
    panel(
        vec![session("a", None), session("b", None)],
        Vec::new(),
        Arc::default(),
    )
}

/// orig: session selector path/delete interactions › does not treat Ctrl+Backspace as delete when search query is non-empty
#[test]
fn ctrl_backspace_with_a_query_edits_the_query() {
    let mut p = two();
    typed(&mut p, "a");
    assert_eq!(
        press(&mut p, KeyCode::Backspace, KeyModifiers::CONTROL),
        PanelOutcome::Open
    );
    assert!(!screen(&p).contains(CONFIRM), "{}", screen(&p));
    // The query is empty again: the next Ctrl+Backspace asks to delete.
    press(&mut p, KeyCode::Backspace, KeyModifiers::CONTROL);
    assert!(screen(&p).contains(CONFIRM));
}

/// orig: session selector path/delete interactions › enters confirmation mode on Ctrl+D even with a non-empty search query
#[test]
fn ctrl_d_with_a_query_asks_to_delete() {
    let mut p = two();
    typed(&mut p, "a");
    press(&mut p, KeyCode::Char('d'), KeyModifiers::CONTROL);
    assert!(screen(&p).contains(CONFIRM), "{}", screen(&p));
    assert_eq!(
        press(&mut p, KeyCode::Enter, KeyModifiers::NONE),
        PanelOutcome::Changed(PanelChange::DeleteSession("/tmp/a.jsonl".into()))
    );
}

/// orig: session selector path/delete interactions › enters confirmation mode on Ctrl+Backspace when search query is empty
#[test]
fn ctrl_backspace_without_a_query_asks_then_enter_deletes() {
    let mut p = two();
    press(&mut p, KeyCode::Backspace, KeyModifiers::CONTROL);
    assert!(screen(&p).contains(CONFIRM));
    assert_eq!(
        press(&mut p, KeyCode::Enter, KeyModifiers::NONE),
        PanelOutcome::Changed(PanelChange::DeleteSession("/tmp/a.jsonl".into()))
    );
    assert!(!screen(&p).contains(CONFIRM));
    assert!(!screen(&p).contains("/tmp/a.jsonl"));
}

/// orig: session selector path/delete interactions › does not switch scope back to All when All load resolves after toggling back to Current
#[test]
fn toggling_back_stays_on_the_current_folder() {
    let loads = Arc::new(AtomicUsize::new(0));
    let mut p = panel(
        vec![session("current", None)],
        vec![session("all", None)],
        loads.clone(),
    );
    press(&mut p, KeyCode::Tab, KeyModifiers::NONE);
    assert_eq!(p.scope(), Scope::All);
    press(&mut p, KeyCode::Tab, KeyModifiers::NONE);
    assert_eq!(p.scope(), Scope::Current);
    assert_eq!(loads.load(Ordering::SeqCst), 1);
    let text = screen(&p);
    assert!(text.contains("Resume Session (Current Folder)"), "{text}");
    assert!(!text.contains("Resume Session (All)"), "{text}");
}

/// orig: session selector path/delete interactions › does not start redundant All loads when toggling scopes while All is already loading
#[test]
fn every_folder_is_read_once() {
    let loads = Arc::new(AtomicUsize::new(0));
    let mut p = panel(
        vec![session("current", None)],
        vec![session("all", None)],
        loads.clone(),
    );
    for _ in 0..3 {
        press(&mut p, KeyCode::Tab, KeyModifiers::NONE);
    }
    assert_eq!(p.scope(), Scope::All);
    assert_eq!(loads.load(Ordering::SeqCst), 1);
    assert!(screen(&p).contains("Resume Session (All)"));
}
