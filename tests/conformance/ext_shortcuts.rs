//! Extension shortcuts against the built-in keybindings: a key of a reserved action
//! (interrupt, clear, model cycling, ...) is refused with a warning, whatever keys the user
//! bound that action to; a key of any other action is taken over with a warning; two
//! extensions on one key leave it to the later one. Shortcuts are registered by Lua
//! extensions and resolved by the terminal UI (`App::set_extension_shortcuts`), where pi
//! 0.73.1 resolves them in its extension runner; the warnings are transcript notices here.
//! orig-file: packages/coding-agent/test/extensions-runner.test.ts

use pi::agent::agent_loop::AgentQueues;
use pi::tui::app::App;
use pi::tui::chrome::FooterInfo;
use pi::tui::transcript::Item;
use pi::ui_kit::keybindings::Keybindings;
use pi::ui_kit::theme::Theme;

use crate::session_harness::Harness;

/// A Lua extension registering `key` as a shortcut.
fn shortcut_source(key: &str, description: &str) -> String {
    format!(
        r#"return function(pi)
  pi.registerShortcut("{key}", {{ description = "{description}", handler = function() end }})
end"#
    )
}

/// What the terminal UI keeps and says for the shortcuts the extensions in `sources`
/// register, with `keybindings` (a `keybindings.json` text, `{}` for the defaults).
async fn resolve(sources: &[&str], keybindings: &str) -> (Vec<String>, Vec<String>) {
    let (h, errors) = Harness::with_extensions(sources).await;
    assert!(errors.is_empty(), "{errors:?}");
    let registered = h
        .agent
        .extensions()
        .unwrap()
        .handle
        .registrations()
        .await
        .shortcuts;
    assert_eq!(registered.len(), sources.len(), "{registered:?}");
    let (keys, problems) = Keybindings::from_json(keybindings);
    assert!(problems.is_empty(), "{problems:?}");
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let mut app = App::new(
        tx,
        AgentQueues::default(),
        keys,
        Theme::plain(),
        FooterInfo::default(),
    );
    app.set_extension_shortcuts(&registered);
    let kept = app.ext.shortcuts.iter().map(|(_, k)| k.clone()).collect();
    let warnings = app
        .transcript
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Notice { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect();
    (kept, warnings)
}

fn mentions(warnings: &[String], part: &str) -> bool {
    warnings.iter().any(|w| w.contains(part))
}

/// orig: ExtensionRunner › shortcut conflicts › warns when extension shortcut conflicts with built-in
#[tokio::test]
async fn a_reserved_key_is_refused() {
    let src = shortcut_source("ctrl+c", "Conflicts with built-in");
    let (kept, warnings) = resolve(&[&src], "{}").await;
    assert!(
        mentions(&warnings, "conflicts with built-in shortcut"),
        "{warnings:?}"
    );
    assert!(!kept.contains(&"ctrl+c".to_string()), "{kept:?}");
    // A key no built-in action uses is kept without a word.
    let free = shortcut_source("ctrl+shift+q", "Free");
    let (kept, warnings) = resolve(&[&free], "{}").await;
    assert_eq!(kept, ["ctrl+shift+q"]);
    assert!(warnings.is_empty(), "{warnings:?}");
}

/// orig: ExtensionRunner › shortcut conflicts › allows a shortcut when the reserved set no longer contains the default key
#[tokio::test]
async fn a_key_freed_from_a_reserved_action_is_allowed() {
    let src = shortcut_source("ctrl+p", "Uses freed default");
    // With the defaults, ctrl+p cycles models and is refused.
    let (kept, _) = resolve(&[&src], "{}").await;
    assert!(!kept.contains(&"ctrl+p".to_string()), "{kept:?}");
    let (kept, warnings) = resolve(&[&src], r#"{"app.model.cycleForward": "ctrl+n"}"#).await;
    assert!(kept.contains(&"ctrl+p".to_string()), "{kept:?}");
    assert!(
        !mentions(&warnings, "conflicts with built-in shortcut"),
        "{warnings:?}"
    );
}

/// orig: ExtensionRunner › shortcut conflicts › warns but allows when extension uses non-reserved built-in shortcut
#[tokio::test]
async fn a_non_reserved_key_is_taken_over_with_a_warning() {
    // ctrl+v pastes an image by default, an action an extension may take over.
    let src = shortcut_source("ctrl+v", "Overrides non-reserved");
    let (kept, warnings) = resolve(&[&src], "{}").await;
    assert!(
        mentions(&warnings, "built-in shortcut for app.clipboard.pasteImage"),
        "{warnings:?}"
    );
    assert!(kept.contains(&"ctrl+v".to_string()), "{kept:?}");
}

/// orig: ExtensionRunner › shortcut conflicts › blocks shortcuts for reserved actions even when rebound
#[tokio::test]
async fn a_reserved_action_rebound_reserves_its_new_key() {
    // ctrl+x is free by default (only the model picker uses it) ...
    let src = shortcut_source("ctrl+x", "Conflicts with rebound reserved");
    let (kept, _) = resolve(&[&src], "{}").await;
    assert!(kept.contains(&"ctrl+x".to_string()), "{kept:?}");
    // ... and refused once the interrupt action is bound to it.
    let (kept, warnings) = resolve(&[&src], r#"{"app.interrupt": "ctrl+x"}"#).await;
    assert!(
        mentions(&warnings, "conflicts with built-in shortcut"),
        "{warnings:?}"
    );
    assert!(!kept.contains(&"ctrl+x".to_string()), "{kept:?}");
}

/// orig: ExtensionRunner › shortcut conflicts › blocks shortcuts when reserved action has multiple keys
#[tokio::test]
async fn every_key_of_a_reserved_action_is_refused() {
    let src = shortcut_source("ctrl+y", "Conflicts with multi-key reserved");
    let (kept, warnings) = resolve(&[&src], r#"{"app.clear": ["ctrl+x", "ctrl+y"]}"#).await;
    assert!(
        mentions(&warnings, "conflicts with built-in shortcut"),
        "{warnings:?}"
    );
    assert!(!kept.contains(&"ctrl+y".to_string()), "{kept:?}");
}

/// orig: ExtensionRunner › shortcut conflicts › warns but allows when non-reserved action has multiple keys
#[tokio::test]
async fn any_key_of_a_non_reserved_action_is_taken_over() {
    let src = shortcut_source("ctrl+y", "Overrides multi-key non-reserved");
    // The editor's yank is moved off ctrl+y so that pasting an image is the one action
    // bound to it, as in the original's key set.
    let (kept, warnings) = resolve(
        &[&src],
        r#"{"app.clipboard.pasteImage": ["ctrl+x", "ctrl+y"], "tui.editor.yank": "alt+y"}"#,
    )
    .await;
    assert!(
        mentions(&warnings, "built-in shortcut for app.clipboard.pasteImage"),
        "{warnings:?}"
    );
    assert!(
        !mentions(&warnings, "conflicts with built-in shortcut"),
        "{warnings:?}"
    );
    assert!(kept.contains(&"ctrl+y".to_string()), "{kept:?}");
}

/// orig: ExtensionRunner › shortcut conflicts › warns when two extensions register same shortcut
#[tokio::test]
async fn two_extensions_on_one_key_leave_it_to_the_later() {
    let (first, second) = (
        shortcut_source("ctrl+shift+x", "First extension"),
        shortcut_source("ctrl+shift+x", "Second extension"),
    );
    let (kept, warnings) = resolve(&[&first, &second], "{}").await;
    let conflict = warnings
        .iter()
        .find(|w| w.contains("registered by both"))
        .unwrap_or_else(|| panic!("{warnings:?}"));
    // "... registered by both <dir>/e0.lua and <dir>/e1.lua. Using <dir>/e1.lua."
    assert!(conflict.contains("e0.lua and "), "{conflict}");
    assert!(conflict.ends_with("e1.lua."), "{conflict}");
    assert_eq!(kept, ["ctrl+shift+x"]);
}
