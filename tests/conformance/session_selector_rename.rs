//! Renaming from the `/resume` selector: the key hint names Ctrl+R, Ctrl+R opens the name
//! field on the highlighted session and Enter saves it.
//! orig-file: packages/coding-agent/test/session-selector-rename.test.ts

use std::sync::Arc;

use crossterm::event::{KeyCode, KeyModifiers};
use pi::tui::panels::{PanelChange, PanelOutcome};

use crate::session_selector_keys::{panel, press, screen, session, typed};

/// orig: session selector rename › shows rename hint in interactive /resume picker configuration
#[test]
fn the_hint_names_the_rename_key() {
    let p = panel(vec![session("a", None)], Vec::new(), Arc::default());
    let text = screen(&p);
    assert!(text.contains("ctrl+r") && text.contains("rename"), "{text}");
}

// orig-skip: session selector rename › does not show rename hint in --resume picker configuration — `pi --resume` opens the same `/resume` selector inside the running terminal UI here, where renaming works, so there is no picker without it.

/// orig: session selector rename › enters rename mode on Ctrl+R and submits with Enter
#[test]
fn ctrl_r_renames_the_highlighted_session() {
    let mut p = panel(vec![session("a", Some("Old"))], Vec::new(), Arc::default());
    press(&mut p, KeyCode::Char('r'), KeyModifiers::CONTROL);
    let text = screen(&p);
    // The cursor starts before the old name, as in pi 0.73.1.
    assert!(text.contains("Rename to: ▏Old"), "{text}");
    typed(&mut p, "X");
    assert_eq!(
        press(&mut p, KeyCode::Enter, KeyModifiers::NONE),
        PanelOutcome::Changed(PanelChange::RenameSession(
            "/tmp/a.jsonl".into(),
            "XOld".into()
        ))
    );
    // End moves past the old name, where typing appends.
    press(&mut p, KeyCode::Char('r'), KeyModifiers::CONTROL);
    press(&mut p, KeyCode::End, KeyModifiers::NONE);
    typed(&mut p, "!");
    assert!(screen(&p).contains("Rename to: XOld!▏"), "{}", screen(&p));
}
