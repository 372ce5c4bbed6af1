//! The editor as a whole: typing, sending, pastes kept through kills, history, undo
//! and redo, and keys as terminals deliver them.

use super::*;

fn press(e: &mut Editor, code: KeyCode, m: KeyModifiers) -> EditorOutcome {
    e.handle_key(&KeyEvent::new(code, m), &Keybindings::default())
}

fn typed(e: &mut Editor, s: &str) {
    for c in s.chars() {
        press(e, KeyCode::Char(c), KeyModifiers::NONE);
    }
}

#[test]
fn typing_newlines_and_submit() {
    let mut e = Editor::new();
    typed(&mut e, "héllo");
    press(&mut e, KeyCode::Enter, KeyModifiers::SHIFT);
    typed(&mut e, "wörld\\");
    press(&mut e, KeyCode::Enter, KeyModifiers::NONE);
    typed(&mut e, "end");
    assert_eq!(e.text(), "héllo\nwörld\nend");
    press(&mut e, KeyCode::Left, KeyModifiers::NONE);
    press(&mut e, KeyCode::Backspace, KeyModifiers::NONE);
    assert_eq!(e.text(), "héllo\nwörld\ned");
    let out = press(&mut e, KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(out, EditorOutcome::Submit("héllo\nwörld\ned".into()));
    assert!(e.is_empty());
    press(&mut e, KeyCode::Up, KeyModifiers::NONE);
    assert_eq!(e.text(), "héllo\nwörld\ned");
    for _ in 0..3 {
        press(&mut e, KeyCode::Down, KeyModifiers::NONE);
    }
    assert!(e.is_empty());
}

#[test]
fn word_kill_yank_and_undo() {
    let mut e = Editor::new();
    typed(&mut e, "one two three");
    press(&mut e, KeyCode::Char('w'), KeyModifiers::CONTROL);
    assert_eq!(e.text(), "one two ");
    press(&mut e, KeyCode::Char('a'), KeyModifiers::CONTROL);
    press(&mut e, KeyCode::Char('y'), KeyModifiers::CONTROL);
    assert_eq!(e.text(), "threeone two ");
    press(&mut e, KeyCode::Char('-'), KeyModifiers::CONTROL);
    assert_eq!(e.text(), "one two ");
}

#[test]
fn large_pastes_collapse_and_expand_on_send() {
    let mut e = Editor::new();
    let big: Vec<String> = (0..120).map(|i| format!("l{i}")).collect();
    let big = big.join("\n");
    typed(&mut e, "see ");
    e.paste(&big);
    assert_eq!(e.text(), "see [paste #1 +120 lines]");
    e.paste("small");
    assert_eq!(e.expanded_text(), format!("see {big}small"));
    e.paste(&"x".repeat(1500));
    assert!(e.text().ends_with("[paste #2 1500 chars]"));
}

#[test]
fn a_ten_megabyte_paste_collapses_quickly() {
    let mut e = Editor::new();
    let line = "x".repeat(99) + "\n";
    let huge = line.repeat(100_000);
    let t0 = std::time::Instant::now();
    e.paste(&huge);
    assert_eq!(e.text(), "[paste #1 +100001 lines]");
    assert_eq!(e.layout(40).0.len(), 1);
    assert_eq!(e.expanded_text().len(), huge.trim().len());
    assert!(t0.elapsed() < std::time::Duration::from_secs(5));
}

#[test]
fn layout_places_the_cursor_on_wrapped_rows() {
    let mut e = Editor::new();
    typed(&mut e, "abcdefgh");
    let (rows, cursor) = e.layout(5);
    assert_eq!(rows, vec!["abcde", "fgh"]);
    assert_eq!(cursor, (3, 1));
    typed(&mut e, "ij");
    assert_eq!(e.layout(5).1, (5, 1));
    typed(&mut e, "k");
    assert_eq!(e.layout(5).1, (1, 2));
}

fn twenty_lines() -> String {
    (1..=20)
        .map(|i| format!("row {i}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn submitted(e: &mut Editor) -> String {
    match press(e, KeyCode::Enter, KeyModifiers::NONE) {
        EditorOutcome::Submit(text) => text,
        other => panic!("not sent: {other:?}"),
    }
}

#[test]
fn end_then_backspace_removes_the_whole_marker_and_undo_restores_a_working_one() {
    let mut e = Editor::new();
    e.paste(&twenty_lines());
    press(&mut e, KeyCode::End, KeyModifiers::NONE);
    press(&mut e, KeyCode::Backspace, KeyModifiers::NONE);
    assert_eq!(e.text(), "");
    // Undo as crossterm reads the 0x1f byte of Ctrl+- / Ctrl+_ (Ctrl+7).
    press(&mut e, KeyCode::Char('7'), KeyModifiers::CONTROL);
    assert_eq!(e.text(), "[paste #1 +20 lines]");
    // Redo deletes it again; undo once more and it is sent in full.
    press(&mut e, KeyCode::Char('-'), KeyModifiers::ALT);
    assert_eq!(e.text(), "");
    press(&mut e, KeyCode::Char('7'), KeyModifiers::CONTROL);
    assert_eq!(submitted(&mut e), twenty_lines());
}

#[test]
fn a_new_edit_after_undo_leaves_nothing_to_redo() {
    let mut e = Editor::new();
    typed(&mut e, "one two");
    press(&mut e, KeyCode::Char('-'), KeyModifiers::CONTROL);
    assert_eq!(e.text(), "one");
    let redo = |e: &mut Editor| {
        press(
            e,
            KeyCode::Char('7'),
            KeyModifiers::CONTROL | KeyModifiers::ALT,
        )
    };
    redo(&mut e);
    assert_eq!(e.text(), "one two");
    press(&mut e, KeyCode::Char('-'), KeyModifiers::CONTROL);
    typed(&mut e, "!");
    redo(&mut e);
    assert_eq!(e.text(), "one!");
}

#[test]
fn a_killed_marker_yanked_into_the_next_prompt_still_expands() {
    let mut e = Editor::new();
    typed(&mut e, "see ");
    e.paste(&twenty_lines());
    press(&mut e, KeyCode::Char('w'), KeyModifiers::CONTROL);
    assert_eq!(e.text(), "see ");
    assert_eq!(submitted(&mut e), "see");
    // A new prompt has its own pastes; the yanked marker brings its text along.
    e.paste("small paste");
    press(&mut e, KeyCode::Char('y'), KeyModifiers::CONTROL);
    assert_eq!(e.text(), "small paste[paste #1 +20 lines]");
    assert_eq!(submitted(&mut e), format!("small paste{}", twenty_lines()));
}

#[test]
fn a_recalled_prompt_with_a_paste_sends_the_paste() {
    let mut e = Editor::new();
    typed(&mut e, "look: ");
    e.paste(&twenty_lines());
    let first = submitted(&mut e);
    e.paste(&"x".repeat(1500));
    assert_eq!(e.text(), "[paste #1 1500 chars]");
    assert_eq!(submitted(&mut e), "x".repeat(1500));
    press(&mut e, KeyCode::Up, KeyModifiers::NONE);
    assert_eq!(e.text(), "[paste #1 1500 chars]");
    // Each recalled paste gets a fresh id in this prompt.
    press(&mut e, KeyCode::Up, KeyModifiers::NONE);
    assert_eq!(e.text(), "look: [paste #2 +20 lines]");
    assert_eq!(submitted(&mut e), first);
}

#[test]
fn damaged_or_cleared_markers_are_never_sent_as_markers() {
    let mut e = Editor::new();
    e.paste(&twenty_lines());
    // An external program cut the marker short; what is left of it still expands.
    e.set_text("before [paste #1 +20 li after");
    assert_eq!(
        e.expanded_text(),
        format!("before {} after", twenty_lines())
    );
    // Ctrl+C clears, undo brings back a marker that still works.
    e.clear();
    press(&mut e, KeyCode::Char('-'), KeyModifiers::CONTROL);
    assert!(!e.expanded_text().contains("[paste #"));
    // Marker-like text naming no paste stays as typed.
    e.set_text("[paste #7 +3 lines]");
    assert_eq!(submitted(&mut e), "[paste #7 +3 lines]");
}

#[test]
fn the_jump_waits_for_one_character() {
    let mut e = Editor::new();
    e.set_text("a-b-c");
    press(&mut e, KeyCode::Home, KeyModifiers::NONE);
    // 0x1d as crossterm reads it.
    press(&mut e, KeyCode::Char('5'), KeyModifiers::CONTROL);
    assert!(e.jump_pending());
    press(&mut e, KeyCode::Char('-'), KeyModifiers::NONE);
    assert_eq!(e.cursor().2, 1);
    assert_eq!(e.text(), "a-b-c");
}

#[test]
fn a_jump_passes_over_paste_markers() {
    let mut e = Editor::new();
    e.paste(&twenty_lines());
    typed(&mut e, " pick");
    press(&mut e, KeyCode::Home, KeyModifiers::NONE);
    // `p` first occurs inside the marker; the jump lands on the one after it.
    press(&mut e, KeyCode::Char(']'), KeyModifiers::CONTROL);
    press(&mut e, KeyCode::Char('p'), KeyModifiers::NONE);
    assert_eq!(e.cursor().2, "[paste #1 +20 lines] ".len());
    press(&mut e, KeyCode::End, KeyModifiers::NONE);
    press(
        &mut e,
        KeyCode::Char(']'),
        KeyModifiers::CONTROL | KeyModifiers::ALT,
    );
    press(&mut e, KeyCode::Char('#'), KeyModifiers::NONE);
    assert_eq!(e.cursor().2, "[paste #1 +20 lines] pick".len());
}

#[test]
fn a_marker_that_fits_on_a_row_is_not_wrapped_inside() {
    let mut e = Editor::new();
    typed(&mut e, &"b".repeat(35));
    e.paste(&twenty_lines());
    typed(&mut e, "bbbb");
    let (rows, _) = e.layout(40);
    assert_eq!(
        rows,
        vec!["b".repeat(35), "[paste #1 +20 lines]bbbb".to_string()]
    );
    // Typed marker-like text wraps like any other text.
    let mut typed_only = Editor::new();
    typed(
        &mut typed_only,
        &format!("{}[paste #9 +20 lines]", "b".repeat(35)),
    );
    assert_eq!(
        typed_only.layout(40).0[0],
        format!("{}[past", "b".repeat(35))
    );
    // Wider than the editor, it is split like a long word.
    let (rows, _) = e.layout(10);
    assert!(rows.iter().all(|r| width(r.trim_end()) <= 10), "{rows:?}");
}
