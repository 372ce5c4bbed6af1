//! Every surface measures text the same way: the editor, the transcript, the `/` menu and
//! extension widgets, given emoji sequences, flags, CJK and combining marks, draw rows
//! no wider than the screen, break them between words, and never split a grapheme
//! cluster (a split ZWJ family shows as loose people and joiners).

use serde_json::json;

use crate::tui::app::App;
use crate::tui::chrome::extension_ui::UiRequest;
use crate::tui::transcript::Item;
use crate::tui::transcript::render::{RenderOptions, render_item};
use crate::tui::view_tests::{app, screen};
use crate::ui_kit::text::{graphemes, width};
use crate::ui_kit::theme::Theme;

const FAMILY: &str = "👨\u{200d}👩\u{200d}👧";
const FLAG: &str = "🇯🇵";

/// Panics when `text` holds a piece of a family or flag instead of the whole cluster.
fn assert_clusters_whole(text: &str, context: &str) {
    let rest = text.replace(FAMILY, "").replace(FLAG, "");
    assert!(
        !rest.contains(['👨', '👩', '👧', '\u{200d}', '🇯', '🇵']),
        "a cluster was split in {context}:\n{text}"
    );
}

fn draft() -> String {
    format!(
        "see {FAMILY} 家族 and 家族旅行 then {} {} cafe\u{301} done",
        FAMILY.repeat(12),
        FLAG.repeat(12)
    )
}

#[test]
fn the_editor_wraps_emoji_and_cjk_between_words_within_its_width() {
    let text = draft();
    let boundaries: Vec<usize> = graphemes(&text)
        .scan(0, |at, (g, _)| {
            *at += g.len();
            Some(*at)
        })
        .collect();
    for max in [10, 13, 17, 24] {
        let mut a = app();
        a.editor.set_text(&text);
        let (rows, _) = a.editor.layout(max);
        assert_eq!(rows.concat(), text, "@{max}");
        let mut at = 0;
        for row in &rows {
            assert!(width(row.trim_end()) <= max, "@{max}: {row:?} in {rows:#?}");
            at += row.len();
            assert!(
                boundaries.contains(&at),
                "@{max}: a row ends inside a cluster: {rows:#?}"
            );
        }
        for word in text.split(' ').filter(|w| width(w) <= max) {
            assert!(
                rows.iter().any(|r| r.split(' ').any(|w| w == word)),
                "@{max}: {word:?} was split: {rows:#?}"
            );
        }
    }
    let mut a = app();
    a.editor.set_text(&text);
    let shown = screen(&mut a, 24, 16);
    assert_clusters_whole(&shown, "the editor");
    assert!(shown.contains("家族旅行"), "{shown}");
}

#[test]
fn a_transcript_answer_with_emoji_and_cjk_fits_the_width() {
    let answer = format!(
        "{}\n\n- 家族 {FAMILY} item with cafe\u{301} words\n\n```\nlet family = \"{}\";\n```\n",
        draft(),
        FAMILY.repeat(15)
    );
    let item = Item::Assistant {
        text: answer,
        thinking: String::new(),
        streaming: false,
        error: None,
        aborted: false,
    };
    for max in [16, 21, 33, 40] {
        let options = RenderOptions {
            width: max,
            tools_expanded: false,
            thinking_expanded: false,
            expand_key: "ctrl+o".into(),
            hidden_thinking_label: None,
            images: Default::default(),
        };
        let lines = render_item(&item, &options, &Theme::plain());
        let mut all = String::new();
        for line in &lines {
            let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
            assert!(width(&text) <= max, "@{max}: {text:?}");
            // The frame buffer's own measure agrees.
            assert!(line.width() <= max, "@{max}: {text:?}");
            all.push_str(&text);
            all.push('\n');
        }
        assert_clusters_whole(&all, &format!("the transcript at {max}"));
        assert!(all.contains("家族旅行"), "@{max}: {all}");
    }
}

#[test]
fn slash_menu_descriptions_line_up_after_cjk_and_emoji_names() {
    let mut a = app();
    a.extension_commands = vec![
        ("家族".into(), "一家人的说明".into()),
        (format!("家{FAMILY}"), format!("说明 {}", FAMILY.repeat(30))),
        ("家cafe\u{301}".into(), "combining".into()),
    ];
    a.editor.set_text("/家");
    a.completion = Some(0);
    let shown = screen(&mut a, 60, 20);
    let columns: Vec<usize> = ["一家人的说明", "说明 ", "combining"]
        .iter()
        .map(|desc| {
            let row = shown
                .lines()
                .find(|l| l.contains(desc) && l.contains('/'))
                .unwrap_or_else(|| panic!("no row for {desc}:\n{shown}"));
            width(&row[..row.find(desc).unwrap()])
        })
        .collect();
    assert!(
        columns.iter().all(|&c| c == columns[0]),
        "{columns:?}\n{shown}"
    );
    assert_clusters_whole(&shown, "the / menu");
    assert!(shown.contains('…'), "the long description is cut:\n{shown}");
}

fn fire(app: &mut App, request: serde_json::Value) {
    app.handle_extension_request(UiRequest::Fire(request));
}

#[test]
fn widgets_and_status_are_cut_between_clusters_to_the_width() {
    let mut a = app();
    let long = format!("家族 {} {}", FAMILY.repeat(40), FLAG.repeat(40));
    fire(
        &mut a,
        json!({"method": "setWidget", "widgetKey": "w", "widgetLines": [long.clone()],
        "widgetPlacement": "aboveEditor"}),
    );
    fire(
        &mut a,
        json!({"method": "setStatus", "statusKey": "s", "statusText": format!("\u{1b}[1m{long}\u{1b}[22m")}),
    );
    for max in [30usize, 41] {
        for line in a
            .ext
            .widget_lines(crate::tui::chrome::extension::Placement::AboveEditor, max)
        {
            let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
            assert!(
                width(&text) <= max && line.width() <= max,
                "@{max}: {text:?}"
            );
            assert_clusters_whole(&text, "a widget");
        }
        let status = a.ext.status_line(&Theme::plain(), max).unwrap();
        let text: String = status.spans.iter().map(|s| s.content.as_ref()).collect();
        assert!(
            width(&text) <= max && status.width() <= max,
            "@{max}: {text:?}"
        );
        assert_clusters_whole(&text, "the status line");
        let shown = screen(&mut a, max as u16, 16);
        assert_clusters_whole(&shown, "the screen");
    }
}
