//! The `/resume` selector: scope, search, sort, named filter, paths, ages, the
//! current session, rename and delete.

use super::*;
use chrono::Duration;

fn info(name: &str, cwd: &str, hours_ago: i64) -> SessionInfo {
    SessionInfo {
        path: PathBuf::from(format!("/s/{name}.jsonl")),
        id: name.into(),
        cwd: cwd.into(),
        name: None,
        parent_session_path: None,
        created: Utc::now(),
        modified: Utc::now() - Duration::hours(hours_ago),
        message_count: 2,
        first_message: format!("talk about {name}"),
        all_messages_text: format!("talk about {name} details-{name}"),
    }
}

fn press(p: &mut SessionPanel, code: KeyCode, mods: KeyModifiers) -> PanelOutcome {
    p.handle_key(&KeyEvent::new(code, mods), &Keybindings::default())
}

fn panel() -> SessionPanel {
    SessionPanel::new(
        vec![info("alpha", "/p", 1), info("beta", "/p", 30)],
        Box::new(|| {
            SessionStream::ready(vec![
                info("alpha", "/p", 1),
                info("gamma", "/q", 2),
                info("beta", "/p", 30),
            ])
        }),
        &Keybindings::default(),
    )
}

fn text(p: &SessionPanel) -> String {
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

#[test]
fn tab_switches_to_all_folders_and_search_finds_message_text() {
    let mut p = panel();
    assert!(!text(&p).contains("gamma"));
    press(&mut p, KeyCode::Tab, KeyModifiers::NONE);
    assert_eq!(p.scope(), Scope::All);
    assert!(text(&p).contains("talk about gamma"), "{}", text(&p));
    assert!(
        text(&p).contains("/q 2 2h"),
        "the folder in all scope: {}",
        text(&p)
    );
    for c in "details-gamma".chars() {
        press(&mut p, KeyCode::Char(c), KeyModifiers::NONE);
    }
    assert_eq!(
        press(&mut p, KeyCode::Enter, KeyModifiers::NONE),
        PanelOutcome::Done(PanelChange::ResumeSession {
            path: "/s/gamma.jsonl".into(),
            cwd: "/q".into()
        })
    );
}

#[test]
fn rows_show_message_count_and_age_and_mark_the_current_session() {
    let p = panel().with_active(Some("/s/beta.jsonl".into()));
    let shown = text(&p);
    let alpha = shown.lines().find(|l| l.contains("alpha")).unwrap();
    assert!(
        alpha.starts_with("→ talk about alpha") && alpha.ends_with(" 2 1h"),
        "{shown}"
    );
    let beta = shown.lines().find(|l| l.contains("beta")).unwrap();
    assert!(
        beta.contains("talk about beta (current)") && beta.ends_with(" 2 1d"),
        "{shown}"
    );
    assert!(
        shown.contains("Sort: Threaded") && shown.contains("Name: All"),
        "{shown}"
    );
}

#[test]
fn the_current_session_cannot_be_deleted() {
    let mut p = panel().with_active(Some("/s/alpha.jsonl".into()));
    press(&mut p, KeyCode::Char('d'), KeyModifiers::CONTROL);
    assert!(
        text(&p).contains("Cannot delete the currently active session"),
        "{}",
        text(&p)
    );
    assert_eq!(
        press(&mut p, KeyCode::Enter, KeyModifiers::NONE),
        PanelOutcome::Done(PanelChange::ResumeSession {
            path: "/s/alpha.jsonl".into(),
            cwd: "/p".into()
        })
    );
}

#[test]
fn sort_named_filter_and_path_toggles() {
    let mut p = panel();
    press(&mut p, KeyCode::Char('s'), KeyModifiers::CONTROL);
    assert_eq!(p.sort(), SortMode::Recent);
    assert!(text(&p).contains("Sort: Recent"), "{}", text(&p));
    press(&mut p, KeyCode::Char('s'), KeyModifiers::CONTROL);
    assert!(text(&p).contains("Sort: Fuzzy"), "{}", text(&p));
    press(&mut p, KeyCode::Char('n'), KeyModifiers::CONTROL);
    assert!(text(&p).contains("Name: Named"), "{}", text(&p));
    assert!(
        text(&p).contains("No named sessions in current folder"),
        "{}",
        text(&p)
    );
    press(&mut p, KeyCode::Char('n'), KeyModifiers::CONTROL);
    assert!(text(&p).contains("path (off)"), "{}", text(&p));
    press(&mut p, KeyCode::Char('p'), KeyModifiers::CONTROL);
    assert!(text(&p).contains("path (on)"), "{}", text(&p));
    assert!(text(&p).contains("/s/alpha.jsonl 2 1h"), "{}", text(&p));
}

#[test]
fn delete_needs_a_confirmation_and_escape_keeps_the_session() {
    let mut p = panel();
    press(&mut p, KeyCode::Char('d'), KeyModifiers::CONTROL);
    assert!(text(&p).contains("Delete session?"));
    assert_eq!(
        press(&mut p, KeyCode::Esc, KeyModifiers::NONE),
        PanelOutcome::Open
    );
    assert!(text(&p).contains("talk about alpha"));
    press(&mut p, KeyCode::Char('d'), KeyModifiers::CONTROL);
    assert_eq!(
        press(&mut p, KeyCode::Enter, KeyModifiers::NONE),
        PanelOutcome::Changed(PanelChange::DeleteSession("/s/alpha.jsonl".into()))
    );
    assert!(!text(&p).contains("talk about alpha"));
}

#[test]
fn rename_edits_the_name_in_place() {
    let mut p = panel();
    press(&mut p, KeyCode::Down, KeyModifiers::NONE);
    press(&mut p, KeyCode::Char('r'), KeyModifiers::CONTROL);
    for c in "Beta work".chars() {
        press(&mut p, KeyCode::Char(c), KeyModifiers::NONE);
    }
    assert_eq!(
        press(&mut p, KeyCode::Enter, KeyModifiers::NONE),
        PanelOutcome::Changed(PanelChange::RenameSession(
            "/s/beta.jsonl".into(),
            "Beta work".into()
        ))
    );
    assert!(text(&p).contains("→ Beta work"), "{}", text(&p));
}

#[test]
fn the_rename_cursor_moves_and_deletes_around_itself() {
    let mut p = panel();
    press(&mut p, KeyCode::Down, KeyModifiers::NONE);
    press(&mut p, KeyCode::Char('r'), KeyModifiers::CONTROL);
    for c in "abd".chars() {
        press(&mut p, KeyCode::Char(c), KeyModifiers::NONE);
    }
    press(&mut p, KeyCode::Left, KeyModifiers::NONE);
    press(&mut p, KeyCode::Char('c'), KeyModifiers::NONE);
    assert!(text(&p).contains("abc▏d"), "{}", text(&p));
    press(&mut p, KeyCode::Home, KeyModifiers::NONE);
    press(&mut p, KeyCode::Delete, KeyModifiers::NONE);
    press(&mut p, KeyCode::End, KeyModifiers::NONE);
    press(&mut p, KeyCode::Backspace, KeyModifiers::NONE);
    assert_eq!(
        press(&mut p, KeyCode::Enter, KeyModifiers::NONE),
        PanelOutcome::Changed(PanelChange::RenameSession(
            "/s/beta.jsonl".into(),
            "bc".into()
        ))
    );
}

#[test]
fn every_folders_sessions_are_listed_as_they_arrive() {
    let (send, stream) = SessionStream::fed();
    let stream = std::cell::RefCell::new(Some(stream));
    let mut p = SessionPanel::new(
        vec![info("alpha", "/p", 1)],
        Box::new(move || stream.borrow_mut().take().unwrap()),
        &Keybindings::default(),
    );
    assert!(!p.loading());
    press(&mut p, KeyCode::Tab, KeyModifiers::NONE);
    assert!(p.loading());
    assert!(
        text(&p).contains("Reading the sessions of every folder"),
        "{}",
        text(&p)
    );
    assert!(!p.poll(), "nothing new yet");

    send.send(info("gamma", "/q", 5)).unwrap();
    assert!(p.poll());
    assert!(text(&p).contains("→ talk about gamma"), "{}", text(&p));
    assert!(p.loading(), "still reading");

    // A newer session arrives above the highlighted one, which stays highlighted.
    send.send(info("delta", "/r", 1)).unwrap();
    assert!(p.poll());
    let shown = text(&p);
    assert!(shown.contains("→ talk about gamma"), "{shown}");
    let (delta, gamma) = (shown.find("delta").unwrap(), shown.find("gamma").unwrap());
    assert!(delta < gamma, "newest first: {shown}");

    // Searching works on what has arrived; the end of the reading stops the polling.
    drop(send);
    p.poll();
    assert!(!p.loading());
    for c in "delta".chars() {
        press(&mut p, KeyCode::Char(c), KeyModifiers::NONE);
    }
    assert!(text(&p).contains("→ talk about delta"), "{}", text(&p));
    assert_eq!(
        press(&mut p, KeyCode::Enter, KeyModifiers::NONE),
        PanelOutcome::Done(PanelChange::ResumeSession {
            path: PathBuf::from("/s/delta.jsonl"),
            cwd: "/r".into(),
        })
    );
}
