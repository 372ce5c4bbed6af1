//! Argument completions of an extension's command (`/argtest t`): the list highlights the
//! argument typed exactly, else the first that starts with what was typed, and Enter puts
//! the highlighted one in place without sending it. The arguments arrive as the Lua host
//! answers them (`UiRequest::Completions`), as the command's `getArgumentCompletions` gives
//! them.
//! orig-file: packages/tui/test/editor.test.ts

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use pi::agent::agent_loop::AgentQueues;
use pi::tui::app::App;
use pi::tui::chrome::FooterInfo;
use pi::tui::chrome::extension_ui::UiRequest;
use pi::ui_kit::keybindings::Keybindings;
use pi::ui_kit::theme::Theme;

/// An app with the extension command `/argtest`, `typed` typed, and the host's answer of
/// `arguments` for it.
fn app_with_arguments(typed: &str, arguments: &[&str]) -> App {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let mut app = App::new(
        tx,
        AgentQueues::default(),
        Keybindings::default(),
        Theme::plain(),
        FooterInfo::default(),
    );
    app.extension_commands = vec![("argtest".into(), "Takes an argument".into())];
    for c in typed.chars() {
        app.handle_terminal_event(Event::Key(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::NONE,
        )));
    }
    assert_eq!(app.editor.text(), typed);
    app.handle_extension_request(UiRequest::Completions {
        text: typed.into(),
        items: arguments
            .iter()
            .map(|a| (format!("/argtest {a}"), String::new()))
            .collect(),
    });
    assert!(app.completion.is_some(), "the list is shown");
    app
}

fn enter(app: &mut App) {
    app.handle_terminal_event(Event::Key(KeyEvent::new(
        KeyCode::Enter,
        KeyModifiers::NONE,
    )));
}

/// orig: Editor component › Autocomplete › applies exact typed slash-argument value on Enter even when first item is highlighted
#[test]
fn the_exact_argument_typed_is_kept() {
    let mut app = app_with_arguments("/argtest two", &["one", "two", "three"]);
    assert_eq!(app.completion, Some(1));
    enter(&mut app);
    assert_eq!(app.editor.text(), "/argtest two");
    assert_eq!(app.completion, None);
}

/// orig: Editor component › Autocomplete › selects first prefix match on Enter when typed arg is not exact match
#[test]
fn the_first_argument_starting_with_the_text_is_taken() {
    let mut app = app_with_arguments("/argtest t", &["two", "three", "twelve"]);
    assert_eq!(app.completion, Some(0));
    enter(&mut app);
    assert_eq!(app.editor.text(), "/argtest two");
}

/// orig: Editor component › Autocomplete › highlights unique prefix match as user types (before full exact match)
#[test]
fn the_one_argument_starting_with_the_text_is_highlighted() {
    let mut app = app_with_arguments("/argtest tw", &["one", "two", "three"]);
    assert_eq!(app.completion, Some(1));
    enter(&mut app);
    assert_eq!(app.editor.text(), "/argtest two");
}

/// orig: Editor component › Autocomplete › selects first prefix match when multiple items match
#[test]
fn the_first_of_several_matching_arguments_is_taken() {
    let mut app = app_with_arguments("/argtest t", &["one", "two", "three"]);
    assert_eq!(app.completion, Some(1));
    enter(&mut app);
    assert_eq!(app.editor.text(), "/argtest two");
    // A second Enter sends the command as it stands.
    enter(&mut app);
    assert_eq!(app.editor.text(), "");
}
