use super::*;
use crate::tui::transcript::Item;
use crate::tui::view_tests::app;

fn answer(streaming: bool, text: &str) -> Item {
    Item::Assistant {
        text: text.into(),
        thinking: String::new(),
        streaming,
        error: None,
        aborted: false,
    }
}

fn set(a: &mut crate::tui::app::App, global: serde_json::Value) {
    a.ui_settings.settings =
        crate::config::settings::Settings::from_values(global, serde_json::json!({}));
}

#[test]
fn finished_items_are_printed_once_and_the_live_area_is_redrawn() {
    let mut a = app();
    a.transcript.push(Item::User {
        text: "first question".into(),
    });
    a.transcript.push(answer(false, "first answer"));
    let mut s = Scrollback::new();
    let first = s.frame(&mut a, (80, 24));
    assert!(first.contains("first question") && first.contains("first answer"));
    assert!(
        !first.contains("\x1b[3J"),
        "the shell's history is kept at start"
    );

    let again = s.frame(&mut a, (80, 24));
    assert!(
        !again.contains("first answer"),
        "nothing printed twice: {again:?}"
    );
    assert!(
        !again.contains("\x1b[2K"),
        "unchanged rows are not rewritten"
    );

    a.transcript.push(Item::User {
        text: "second question".into(),
    });
    let next = s.frame(&mut a, (80, 24));
    assert!(next.contains("second question") && !next.contains("first question"));
}

#[test]
fn an_answer_still_arriving_stays_in_the_live_area_until_it_ends() {
    let mut a = app();
    a.transcript.push(answer(true, "partial words"));
    let mut s = Scrollback::new();
    assert!(s.frame(&mut a, (80, 24)).contains("partial words"));
    assert!(s.committed.is_empty(), "not printed for good yet");
    let index = a.transcript.items.len() - 1;
    a.transcript.items[index] = answer(false, "partial words and the rest");
    a.transcript.item_revisions[index] += 1_000_000;
    let done = s.frame(&mut a, (80, 24));
    assert!(done.contains("and the rest"));
    assert_eq!(s.committed.len(), 1);
}

#[test]
fn a_resize_or_a_display_switch_prints_everything_again() {
    let mut a = app();
    a.transcript.push(Item::User {
        text: "kept question".into(),
    });
    let mut s = Scrollback::new();
    s.frame(&mut a, (80, 24));
    let resized = s.frame(&mut a, (60, 24));
    assert!(resized.contains("\x1b[3J") && resized.contains("kept question"));
    a.tools_expanded = !a.tools_expanded;
    let expanded = s.frame(&mut a, (60, 24));
    assert!(expanded.contains("\x1b[3J") && expanded.contains("kept question"));
    a.transcript.clear();
    let cleared = s.frame(&mut a, (60, 24));
    assert!(cleared.contains("\x1b[3J") && !cleared.contains("kept question"));
}

#[test]
fn the_cursor_ends_in_the_editor_and_below_the_conversation_at_exit() {
    let mut a = app();
    a.editor.set_text("draft");
    let mut s = Scrollback::new();
    let out = s.frame(&mut a, (80, 24));
    // By default the caret is drawn in reverse video and the terminal's own
    // cursor, though moved there, stays hidden.
    assert!(out.contains("draft\x1b[0;7m "), "{out:?}");
    assert!(
        out.ends_with("\x1b[5C\x1b[?25l"),
        "cursor at the caret, hidden: {out:?}"
    );
    set(&mut a, serde_json::json!({"showHardwareCursor": true}));
    a.editor.set_text("draft2");
    let shown = s.frame(&mut a, (80, 24));
    assert!(
        shown.ends_with("\x1b[6C\x1b[?25h"),
        "cursor shown with showHardwareCursor: {shown:?}"
    );
    assert!(
        s.cursor_row < s.rows.len() - 1,
        "the footer is below the editor"
    );
    let end = s.finish();
    assert!(end.contains("\r\n") && end.contains("B"));
}

#[test]
fn a_shrinking_live_area_clears_its_rows_or_with_clear_on_shrink_prints_all_again() {
    let mut a = app();
    a.transcript.push(Item::User {
        text: "kept question".into(),
    });
    a.editor.set_text("one\ntwo\nthree\nfour");
    let mut s = Scrollback::new();
    s.frame(&mut a, (80, 24));
    a.editor.set_text("");
    let shrunk = s.frame(&mut a, (80, 24));
    assert!(shrunk.contains("\x1b[J"), "stale rows erased: {shrunk:?}");
    assert!(!shrunk.contains("kept question"), "{shrunk:?}");

    set(
        &mut a,
        serde_json::json!({"terminal": {"clearOnShrink": true}}),
    );
    a.editor.set_text("one\ntwo\nthree\nfour");
    s.frame(&mut a, (80, 24));
    a.editor.set_text("");
    let redrawn = s.frame(&mut a, (80, 24));
    assert!(
        redrawn.contains("\x1b[2J\x1b[3J") && redrawn.contains("kept question"),
        "everything printed again: {redrawn:?}"
    );
    // Growing again is no shrink.
    a.editor.set_text("a\nb");
    assert!(!s.frame(&mut a, (80, 24)).contains("kept question"));
}

#[test]
fn images_are_drawn_over_the_rows_they_reserve() {
    use crate::ai::types::{ContentBlock, UserContent, UserMessage};
    let data = crate::tui::transcript::images::tests::png(90, 36);
    let mut a = app();
    let message = UserMessage {
        content: UserContent::Blocks(vec![
            ContentBlock::text("look"),
            ContentBlock::image(data, "image/png"),
        ]),
        timestamp: 0,
    };
    a.transcript
        .apply(&crate::agent::events::AgentEvent::MessageStart {
            message: crate::ai::types::Message::User(message),
        });
    a.image_protocol = Some(crate::ui_kit::terminal_image::ImageProtocol::Kitty);
    let mut s = Scrollback::new();
    let out = s.frame(&mut a, (80, 24));
    // 90x36 px drawn 60 cells (540 px) wide at 9x18 px cells: 216 px high,
    // 12 rows; drawn from the last reserved row, eleven rows up, one column in.
    let at = out
        .find("\x1b_Ga=T,f=100,q=2,C=1,c=60,r=12,")
        .expect("kitty sequence");
    assert!(out[..at].ends_with("\r\x1b[11A\x1b[1C"), "{out:?}");
    assert!(out[at..].contains("\x1b\\\x1b[11B"), "{out:?}");
    // Printed once: the next frame does not draw it again.
    assert!(!s.frame(&mut a, (80, 24)).contains("\x1b_G"));
}

#[test]
fn a_long_transcript_is_printed_from_its_last_screens_without_laying_out_the_rest() {
    let mut a = app();
    for i in 0..300 {
        a.transcript.push(Item::User {
            text: format!("question number {i}"),
        });
    }
    let mut s = Scrollback::new();
    let first = s.frame(&mut a, (80, 24));
    assert!(first.contains("question number 299"));
    assert!(!first.contains("question number 0\r"), "{first:?}");
    assert!(first.contains(&crate::t!("pi.tui.transcript.earlier_not_printed")));
    assert!(s.from > 200, "only the last screens: from item {}", s.from);
    assert!(
        a.cache.item_lines(0).is_empty(),
        "the first item is not laid out"
    );

    a.transcript.push(Item::User {
        text: "one more".into(),
    });
    let next = s.frame(&mut a, (80, 24));
    assert!(next.contains("one more") && !next.contains("question number 299"));

    // A resize prints the same part again, not the whole session.
    let from = s.from;
    let resized = s.frame(&mut a, (100, 30));
    assert_eq!(s.from, from);
    assert!(resized.contains("question number 299") && resized.contains("one more"));
    assert!(a.cache.item_lines(0).is_empty());
}

/// An answer of `rows` short paragraphs `row{n}x{i}` (two lines each with the gap).
fn numbered(n: usize, rows: usize) -> Item {
    let text: Vec<String> = (0..rows).map(|i| format!("row{n}x{i}")).collect();
    answer(false, &text.join("\n\n"))
}

/// Where each `row{n}x{i}` first appears in `out`, in order; panics when one is
/// missing or out of place.
fn assert_rows_in_order(out: &str, answers: usize, rows: usize) {
    let mut at = 0;
    for n in 0..answers {
        for i in 0..rows {
            let needle = format!("row{n}x{i}\x1b");
            let found = out[at..].find(&needle);
            assert!(found.is_some(), "{needle:?} missing or out of order");
            at += found.unwrap_or(0) + needle.len();
        }
    }
}

#[test]
fn a_live_conversation_of_12000_lines_keeps_only_the_last_screens_laid_out() {
    const ANSWERS: usize = 60;
    const ROWS: usize = 100;
    // The most lines the cache may hold: the kept screens and one answer more.
    let bound = |rows: usize| rows * KEEP_SCREENS + 2 * ROWS + 2;
    let mut a = app();
    let mut s = Scrollback::new();
    s.frame(&mut a, (80, 24));
    let mut printed = String::new();
    for n in 0..ANSWERS {
        a.transcript.push(numbered(n, ROWS));
        printed.push_str(&s.frame(&mut a, (80, 24)));
        assert!(
            a.cache.held_lines() <= bound(24),
            "after answer {n}: {} lines held",
            a.cache.held_lines()
        );
    }
    assert_eq!(s.committed.len(), ANSWERS);
    assert_rows_in_order(&printed, ANSWERS, ROWS);

    // A resize prints the whole conversation again, laid out anew from the items,
    // exactly as a conversation printed in one frame at that size.
    let resized = s.frame(&mut a, (100, 30));
    assert!(a.cache.held_lines() <= bound(30));
    let mut fresh = app();
    let mut once = Scrollback::new();
    once.frame(&mut fresh, (100, 30));
    for n in 0..ANSWERS {
        fresh.transcript.push(numbered(n, ROWS));
    }
    let whole = once.frame(&mut fresh, (100, 30));
    let from_first = |out: &str| out[out.find("row0x0").unwrap_or(0)..].to_string();
    assert_eq!(from_first(&resized), from_first(&whole));
    assert_rows_in_order(&resized, ANSWERS, ROWS);

    // An overlay over the conversation shows its last lines, laid out again.
    use crate::lua::ui::surfaces::{CustomSurface, OverlayOptions, SurfaceStore};
    let store = SurfaceStore::default();
    a.lua.surfaces = Some(store.clone());
    store.lock().customs.push(CustomSurface {
        id: 1,
        overlay: Some(OverlayOptions::default()),
        lines: vec!["OVERLAY".into()],
        ..CustomSurface::default()
    });
    let last = format!("row{}x{}", ANSWERS - 1, ROWS - 1);
    let under = s.frame(&mut a, (100, 30));
    assert!(
        under.contains("OVERLAY") && under.contains(&last),
        "{under:?}"
    );
    assert!(
        !under.contains("row0x0"),
        "only the last screen is laid out"
    );
    store.lock().customs.clear();
    let back = s.frame(&mut a, (100, 30));
    assert!(
        !back.contains("OVERLAY") && back.contains(&last),
        "{back:?}"
    );
    assert!(a.cache.held_lines() <= bound(30));
}
