//! Extension chrome on screen: dialogs in place of the editor (keys, countdown,
//! answers), notifications, footer status slots and widgets, drawn into
//! ratatui's TestBackend.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::Color;
use serde_json::{Value, json};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use crate::tui::app::App;
use crate::tui::chrome::extension_ui::UiRequest;
use crate::tui::view::draw;
use crate::tui::view_tests::{app, screen};

fn open(app: &mut App, request: Value) -> (oneshot::Receiver<Value>, CancellationToken) {
    let (answer, rx) = oneshot::channel();
    let closed = CancellationToken::new();
    app.handle_extension_request(UiRequest::Dialog {
        request,
        closed: closed.clone(),
        answer,
    });
    (rx, closed)
}

fn fire(app: &mut App, request: Value) {
    app.handle_extension_request(UiRequest::Fire(request));
}

fn key(app: &mut App, code: KeyCode) {
    app.handle_terminal_event(Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

#[test]
fn dialog_notification_status_and_widgets_80x24() {
    let mut app = app();
    fire(
        &mut app,
        json!({"method": "notify", "message": "Saved the plan", "notifyType": "success"}),
    );
    fire(
        &mut app,
        json!({"method": "setStatus", "statusKey": "b", "statusText": "● lint ok"}),
    );
    fire(
        &mut app,
        json!({"method": "setStatus", "statusKey": "a", "statusText": "\u{1b}[1mplan mode\u{1b}[22m"}),
    );
    fire(
        &mut app,
        json!({"method": "setWidget", "widgetKey": "todo",
        "widgetLines": ["☐ write tests", "☑ ship"], "widgetPlacement": "aboveEditor"}),
    );
    fire(
        &mut app,
        json!({"method": "setWidget", "widgetKey": "hint",
        "widgetLines": ["below the editor"], "widgetPlacement": "belowEditor"}),
    );
    let _dialog = open(
        &mut app,
        json!({"method": "select", "title": "Deploy where?",
        "options": ["staging", "production"]}),
    );
    key(&mut app, KeyCode::Down);
    insta::assert_snapshot!(screen(&mut app, 80, 24));
}

#[test]
fn widgets_and_status_without_a_dialog_40x12() {
    let mut app = app();
    fire(
        &mut app,
        json!({"method": "setStatus", "statusKey": "k", "statusText": "tokens 1.2k"}),
    );
    fire(
        &mut app,
        json!({"method": "setWidget", "widgetKey": "w",
        "widgetLines": ["a widget line that is far too long for forty columns"]}),
    );
    insta::assert_snapshot!(screen(&mut app, 40, 12));
    fire(&mut app, json!({"method": "setWidget", "widgetKey": "w"}));
    fire(&mut app, json!({"method": "setStatus", "statusKey": "k"}));
    let text = screen(&mut app, 40, 12);
    assert!(
        !text.contains("widget line") && !text.contains("tokens"),
        "{text}"
    );
}

#[test]
fn confirm_counts_down_and_answers_with_keys() {
    let mut app = app();
    let (mut rx, _) = open(
        &mut app,
        json!({"method": "confirm", "title": "Run rm -rf build?",
        "message": "This deletes files", "timeout": 60000}),
    );
    let text = screen(&mut app, 60, 20);
    assert!(
        text.contains("Run rm -rf build? (60s)") || text.contains("Run rm -rf build? (59s)"),
        "{text}"
    );
    assert!(
        text.contains("This deletes files") && text.contains("→ Yes"),
        "{text}"
    );
    key(&mut app, KeyCode::Down);
    assert!(screen(&mut app, 60, 20).contains("→ No"));
    assert!(rx.try_recv().is_err(), "no answer before Enter");
    key(&mut app, KeyCode::Enter);
    assert_eq!(rx.try_recv().unwrap(), json!({"confirmed": false}));
    assert!(app.ext.dialogs.is_empty());
    assert!(!screen(&mut app, 60, 20).contains("rm -rf"));
}

#[test]
fn input_takes_typing_escape_cancels_and_closed_dialogs_go_away() {
    let mut app = app();
    let (mut first, _) = open(
        &mut app,
        json!({"method": "input", "title": "Name?", "placeholder": "your name"}),
    );
    let (_second, closed) = open(
        &mut app,
        json!({"method": "editor", "title": "Notes", "prefill": "x"}),
    );
    assert!(screen(&mut app, 60, 20).contains("your name"));
    for c in "Ada".chars() {
        key(&mut app, KeyCode::Char(c));
    }
    assert!(
        app.editor.is_empty(),
        "keys go to the dialog, not the editor"
    );
    key(&mut app, KeyCode::Enter);
    assert_eq!(first.try_recv().unwrap(), json!({"value": "Ada"}));
    // The stacked editor dialog shows next; its extension stops waiting.
    assert!(screen(&mut app, 60, 20).contains("Notes"));
    closed.cancel();
    assert!(!screen(&mut app, 60, 20).contains("Notes"));
    let (mut third, _) = open(
        &mut app,
        json!({"method": "select", "title": "Pick", "options": ["a"]}),
    );
    key(&mut app, KeyCode::Esc);
    assert_eq!(third.try_recv().unwrap(), json!({"cancelled": true}));
}

#[test]
fn themed_widget_text_keeps_its_colours() {
    let mut app = app();
    fire(
        &mut app,
        json!({"method": "setWidget", "widgetKey": "w",
        "widgetLines": ["\u{1b}[38;2;255;0;0mred\u{1b}[39m plain"]}),
    );
    let mut terminal = Terminal::new(TestBackend::new(40, 12)).unwrap();
    terminal.draw(|f| draw(f, &mut app)).unwrap();
    let buffer = terminal.backend().buffer().clone();
    let row = (0..12)
        .find(|y| buffer[(0, *y)].symbol() == "r" && buffer[(1, *y)].symbol() == "e")
        .expect("widget row");
    assert_eq!(buffer[(0, row)].fg, Color::Rgb(255, 0, 0));
    assert_eq!(buffer[(4, row)].symbol(), "p");
    assert_ne!(buffer[(4, row)].fg, Color::Rgb(255, 0, 0));
}

#[test]
fn editor_text_tools_and_theme_follow_requests() {
    let mut app = app();
    fire(
        &mut app,
        json!({"method": "set_editor_text", "text": "hello"}),
    );
    fire(
        &mut app,
        json!({"method": "pasteToEditor", "text": " world"}),
    );
    assert_eq!(app.editor.text(), "hello world");
    fire(
        &mut app,
        json!({"method": "setToolsExpanded", "expanded": true}),
    );
    assert!(app.tools_expanded);
    fire(&mut app, json!({"method": "setTheme", "name": "light"}));
    assert_eq!(app.theme.name, "light");
    fire(&mut app, json!({"method": "setTitle", "title": "pi: busy"}));
    assert_eq!(app.ext.title.as_deref(), Some("pi: busy"));
    fire(
        &mut app,
        json!({"method": "setWorkingMessage", "message": "Reading the docs"}),
    );
    app.busy_since = Some(std::time::Instant::now());
    assert!(screen(&mut app, 60, 20).contains("Reading the docs"));
}

#[test]
fn shortcut_conflicts_with_built_in_keys_are_reported() {
    let mut app = app();
    let info = |key: &str, path: &str| crate::lua::ShortcutInfo {
        shortcut: key.into(),
        description: None,
        extension: path.into(),
    };
    app.set_extension_shortcuts(&[
        info("ctrl+c", "a.lua"),
        info("ctrl+s", "a.lua"),
        info("ctrl+shift+x", "a.lua"),
        info("ctrl+shift+x", "b.lua"),
    ]);
    let text = screen(&mut app, 200, 24);
    assert!(
        text.contains(
            "Extension shortcut 'ctrl+c' from a.lua conflicts with built-in shortcut. Skipping."
        ),
        "{text}"
    );
    assert!(
        text.contains("'ctrl+s' is built-in shortcut for app.session.toggleSort"),
        "{text}"
    );
    assert!(
        text.contains("registered by both a.lua and b.lua. Using b.lua."),
        "{text}"
    );
    let keys: Vec<&str> = app.ext.shortcuts.iter().map(|(_, k)| k.as_str()).collect();
    assert_eq!(keys, vec!["ctrl+s", "ctrl+shift+x"]);
}

#[test]
fn argument_completions_show_for_the_text_they_were_asked_for() {
    let mut app = app();
    app.extension_commands = vec![("deploy".into(), "Ship it".into())];
    for c in "/deploy st".chars() {
        key(&mut app, KeyCode::Char(c));
    }
    app.handle_extension_request(UiRequest::Completions {
        text: "/deploy st".into(),
        items: vec![("/deploy staging".into(), "the test cluster".into())],
    });
    let text = screen(&mut app, 60, 20);
    assert!(
        text.contains("→ /deploy staging") && text.contains("the test cluster"),
        "{text}"
    );
    key(&mut app, KeyCode::Tab);
    assert_eq!(app.editor.text(), "/deploy staging ");
    // Answers for text no longer in the editor are ignored.
    app.handle_extension_request(UiRequest::Completions {
        text: "/deploy x".into(),
        items: vec![("/deploy xyz".into(), String::new())],
    });
    assert!(!screen(&mut app, 60, 20).contains("xyz"));
}

#[test]
fn the_working_line_gives_way_to_a_dialog_with_its_own_keys() {
    let mut app = app();
    app.set_busy(CancellationToken::new());
    let working = "Working...";
    assert!(screen(&mut app, 60, 20).contains(working));
    let (_rx, _) = open(
        &mut app,
        json!({"method": "confirm", "title": "Delete it?", "message": "Really"}),
    );
    let text = screen(&mut app, 60, 20);
    assert!(
        text.contains("Delete it?") && !text.contains(working),
        "{text}"
    );
    key(&mut app, KeyCode::Esc);
    assert!(screen(&mut app, 60, 20).contains(working));
}

#[test]
fn extensions_can_hide_the_working_line_and_relabel_hidden_thinking() {
    use crate::ai::types::{AssistantMessage, ContentBlock, Message, ThinkingContent};
    let mut app = app();
    let mut reply = AssistantMessage::empty("anthropic-messages", "p", "m");
    reply.content = vec![
        ContentBlock::Thinking(ThinkingContent {
            thinking: "weighing the options".into(),
            thinking_signature: None,
            redacted: None,
        }),
        ContentBlock::text("Done."),
    ];
    app.transcript =
        crate::tui::transcript::Transcript::from_messages(&vec![Message::Assistant(reply)].into());
    app.busy_since = Some(std::time::Instant::now());
    let before = screen(&mut app, 60, 20);
    assert!(before.contains("Thinking..."), "{before}");
    assert!(before.contains("Working"), "{before}");
    fire(
        &mut app,
        json!({"method": "setHiddenThinkingLabel", "label": "(pondered quietly)"}),
    );
    fire(
        &mut app,
        json!({"method": "setWorkingVisible", "visible": false}),
    );
    let after = screen(&mut app, 60, 20);
    assert!(after.contains("(pondered quietly)"), "{after}");
    assert!(!after.contains("Thinking..."), "{after}");
    assert!(!after.contains("Working"), "{after}");
    fire(
        &mut app,
        json!({"method": "setWorkingVisible", "visible": true}),
    );
    fire(
        &mut app,
        json!({"method": "setHiddenThinkingLabel", "label": null}),
    );
    let restored = screen(&mut app, 60, 20);
    assert!(
        restored.contains("Thinking...") && restored.contains("Working"),
        "{restored}"
    );
}
