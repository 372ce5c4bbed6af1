//! Completion while typing in the prompt editor, through the app: the `/` list closes
//! when the `/` is deleted, a paste opens no list, a command completed with Tab chains
//! into its argument completions (`/model` offers the models), and a command without
//! them closes the list.
//! orig-file: packages/tui/test/editor.test.ts

use std::path::PathBuf;

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use pi::agent::agent_loop::AgentQueues;
use pi::ai::model::Model;
use pi::tui::app::App;
use pi::tui::chrome::FooterInfo;
use pi::ui_kit::keybindings::Keybindings;
use pi::ui_kit::theme::Theme;

fn app() -> App {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let footer = FooterInfo {
        cwd: PathBuf::from("/nonexistent-project"),
        ..FooterInfo::default()
    };
    App::new(
        tx,
        AgentQueues::default(),
        Keybindings::default(),
        Theme::plain(),
        footer,
    )
}

fn press(app: &mut App, code: KeyCode) {
    app.handle_terminal_event(Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

/// The list is shown.
fn showing(app: &App) -> bool {
    app.completion.is_some() && !app.completions().is_empty()
}

/// The built-in catalog's model `id` of `provider`.
fn model(provider: &str, id: &str) -> Model {
    pi::ai::catalog::builtin_models()
        .find(|m| m.provider == provider && m.id == id)
        .unwrap_or_else(|| panic!("{provider}/{id} in the catalog"))
        .clone()
}

/// An app whose available models are gpt-4o, gpt-4o-mini and a Claude model.
fn app_with_models() -> App {
    let mut a = app();
    a.models = vec![
        model("openai", "gpt-4o"),
        model("openai", "gpt-4o-mini"),
        model("anthropic", "claude-sonnet-4-5"),
    ];
    a
}

/// orig: Editor component › Autocomplete › hides autocomplete when backspacing slash command to empty
#[test]
fn deleting_the_slash_closes_the_list() {
    let mut a = app();
    type_text(&mut a, "/");
    assert_eq!(a.editor.text(), "/");
    assert!(showing(&a));
    press(&mut a, KeyCode::Backspace);
    assert_eq!(a.editor.text(), "");
    assert!(!showing(&a));
}

/// orig: Editor component › Undo › does not trigger autocomplete during single-line paste
#[test]
fn a_paste_opens_no_list() {
    let mut a = app();
    let text = "look at @node_modules/react/index.js please";
    a.handle_terminal_event(Event::Paste(text.into()));
    assert_eq!(a.editor.text(), text);
    assert!(a.completion.is_none());
    // Typing a `/` command does open it.
    let mut b = app();
    type_text(&mut b, "/mo");
    assert!(showing(&b));
}

/// orig: Editor component › Autocomplete › chains into argument completions after tab-completing slash command names
#[test]
fn tab_on_model_chains_into_the_models() {
    let mut a = app_with_models();
    type_text(&mut a, "/mod");
    assert!(showing(&a));
    press(&mut a, KeyCode::Tab);
    assert_eq!(a.editor.text(), "/model ");
    assert!(showing(&a), "the model list follows");
    let labels: Vec<String> = a.completions().into_iter().map(|(l, _)| l).collect();
    assert_eq!(labels.len(), 3, "{labels:?}");
    assert!(
        labels.contains(&"openai/gpt-4o-mini".to_string()),
        "{labels:?}"
    );
    press(&mut a, KeyCode::Tab);
    assert_eq!(a.editor.text(), format!("/model {}", labels[0]));
    assert!(!showing(&a));
}

/// orig: Editor component › Autocomplete › does not show argument completions when command has no argument completer
#[test]
fn tab_on_a_command_without_arguments_closes_the_list() {
    let mut a = app_with_models();
    type_text(&mut a, "/hotk");
    assert!(showing(&a));
    press(&mut a, KeyCode::Tab);
    assert_eq!(a.editor.text(), "/hotkeys ");
    assert!(!showing(&a));
}

/// orig: Editor component › Autocomplete › works for built-in-style command argument completion path (model-like)
#[test]
fn enter_keeps_the_exact_model_typed() {
    let mut a = app_with_models();
    type_text(&mut a, "/model gpt-4o-mini");
    assert!(showing(&a));
    let labels: Vec<String> = a.completions().into_iter().map(|(l, _)| l).collect();
    assert_eq!(
        labels[0], "openai/gpt-4o-mini",
        "the exact id ranks first: {labels:?}"
    );
    press(&mut a, KeyCode::Enter);
    // Differs: pi 0.73.1's /model completions insert `provider/id`; nothing is sent yet.
    assert_eq!(a.editor.text(), "/model openai/gpt-4o-mini");
    assert!(!showing(&a));
}
