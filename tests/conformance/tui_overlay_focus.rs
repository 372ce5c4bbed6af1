//! Overlay focus, driven as an extension and a user drive it: a Lua extension shows
//! overlays with `ctx.ui.custom` (capturing, or `nonCapturing`) and works their handles
//! (`focus`, `unfocus`, `hide`, `setHidden`, `isFocused`); keys are typed into the
//! terminal UI, which gives them to the overlay with the keyboard or to the editor; the
//! screen is drawn to see which overlay is on top. Where the original's overlay sits on
//! a focused editor component, here the editor is pi's own prompt editor.
//! orig-file: packages/tui/test/overlay-non-capturing.test.ts

use crossterm::event::KeyCode;

use crate::overlay_harness::OverlayUi;

/// orig: TUI overlay non-capturing › focus management › non-capturing overlay preserves focus on creation
#[tokio::test]
async fn a_non_capturing_overlay_leaves_the_keyboard_alone() {
    let mut ui = OverlayUi::start().await;
    ui.show("O nc").await;
    assert!(ui.focused().await.is_empty());
    assert!(ui.editor_has_keyboard());
    ui.press('x').await;
    assert_eq!(ui.app.editor.text(), "x");
    assert!(ui.overlay_inputs().await.is_empty());
    // A capturing overlay, by contrast, takes it.
    ui.show("C").await;
    assert_eq!(ui.focused().await, ["C"]);
}

/// orig: TUI overlay non-capturing › focus management › focus() transfers focus to the overlay
#[tokio::test]
async fn focus_gives_the_overlay_the_keyboard() {
    let mut ui = OverlayUi::start().await;
    ui.show("O nc").await;
    ui.steps("O.focus").await;
    assert_eq!(ui.focused().await, ["O"]);
    assert!(!ui.editor_has_keyboard());
    ui.press('x').await;
    assert_eq!(ui.overlay_inputs().await, ["O:x"]);
    assert_eq!(ui.app.editor.text(), "");
}

/// orig: TUI overlay non-capturing › focus management › unfocus() restores previous focus
#[tokio::test]
async fn unfocus_gives_the_keyboard_back() {
    let mut ui = OverlayUi::start().await;
    ui.show("O nc").await;
    ui.steps("O.focus O.unfocus").await;
    assert!(ui.focused().await.is_empty());
    assert!(ui.editor_has_keyboard());
    ui.press('x').await;
    assert_eq!(ui.app.editor.text(), "x");
}

/// orig: TUI overlay non-capturing › focus management › setHidden(false) on non-capturing overlay does not auto-focus
#[tokio::test]
async fn shown_again_a_non_capturing_overlay_does_not_take_the_keyboard() {
    let ui = OverlayUi::start().await;
    ui.show("O nc").await;
    ui.steps("O.hidden O.unhidden").await;
    assert!(ui.focused().await.is_empty());
    assert!(ui.editor_has_keyboard());
    assert!(!ui.store.lock().customs[0].hidden, "shown again");
}

/// orig: TUI overlay non-capturing › focus management › hide() when overlay is not focused does not change focus
#[tokio::test]
async fn hiding_an_overlay_without_the_keyboard_changes_nothing() {
    let ui = OverlayUi::start().await;
    ui.show("O nc").await;
    ui.steps("O.hide").await;
    assert!(ui.editor_has_keyboard());
    assert!(ui.store.lock().customs.is_empty(), "removed");
}

/// orig: TUI overlay non-capturing › focus management › hide() when focused restores focus correctly
#[tokio::test]
async fn hiding_the_focused_overlay_gives_the_keyboard_back() {
    let ui = OverlayUi::start().await;
    ui.show("O nc").await;
    ui.steps("O.focus").await;
    assert!(!ui.editor_has_keyboard());
    ui.steps("O.hide").await;
    assert!(ui.focused().await.is_empty());
    assert!(ui.editor_has_keyboard());
}

/// orig: TUI overlay non-capturing › focus management › capturing overlay removed with non-capturing below restores focus to editor
#[tokio::test]
async fn a_non_capturing_overlay_below_does_not_catch_the_keyboard() {
    let ui = OverlayUi::start().await;
    ui.show("NC nc").await;
    ui.show("CAP").await;
    assert_eq!(ui.focused().await, ["CAP"]);
    ui.steps("CAP.hide").await;
    assert!(ui.focused().await.is_empty());
    assert!(ui.editor_has_keyboard());
}

/// orig: TUI overlay non-capturing › focus management › sub-overlay cleanup then hideOverlay restores focus and input to editor
#[tokio::test]
async fn closing_a_panel_and_its_controller_returns_input_to_the_editor() {
    let mut ui = OverlayUi::start().await;
    ui.show("TIMER nc").await;
    ui.show("CTRL").await;
    assert_eq!(ui.focused().await, ["CTRL"]);
    assert!(!ui.editor_has_keyboard());
    ui.steps("TIMER.hide CTRL.done").await;
    assert!(ui.focused().await.is_empty());
    assert!(ui.editor_has_keyboard());
    ui.press('x').await;
    assert_eq!(ui.app.editor.text(), "x");
    assert!(ui.overlay_inputs().await.is_empty());
}

/// orig: TUI overlay non-capturing › focus management › microtask-deferred sub-overlay pattern (showExtensionCustom simulation) restores focus
#[tokio::test]
async fn a_controller_closing_itself_from_a_key_returns_input_to_the_editor() {
    // The controller's own key handler hides its panel and closes it (Escape), as an
    // extension's dialog does when the user cancels.
    let mut ui = OverlayUi::start().await;
    ui.show("TIMER nc").await;
    ui.show("CTRL closes=TIMER").await;
    assert_eq!(ui.focused().await, ["CTRL"]);
    ui.press_key(KeyCode::Esc).await;
    assert!(ui.focused().await.is_empty());
    assert!(
        ui.editor_has_keyboard(),
        "the editor has the keyboard again"
    );
    assert!(ui.store.lock().customs.is_empty());
    ui.press('x').await;
    assert_eq!(ui.app.editor.text(), "x", "the editor receives input");
    assert_eq!(ui.overlay_inputs().await, ["CTRL:escape"]);
}

/// orig: TUI overlay non-capturing › focus management › handleInput redirection skips non-capturing overlays when focused overlay becomes invisible
#[tokio::test]
async fn a_key_skips_non_capturing_overlays_when_the_focused_one_turns_invisible() {
    let mut ui = OverlayUi::start().await;
    ui.show("FALLBACK").await;
    ui.show("NC nc").await;
    ui.show("PRIMARY guarded").await;
    assert_eq!(ui.focused().await, ["PRIMARY"]);
    ui.steps("PRIMARY.invisible").await;
    ui.until_turned_off().await;
    ui.press('x').await;
    assert_eq!(ui.overlay_inputs().await, ["FALLBACK:x"]);
    assert_eq!(ui.focused().await, ["FALLBACK"]);
    assert_eq!(ui.app.editor.text(), "");
}

/// orig: TUI overlay non-capturing › focus management › hideOverlay() does not reassign focus when topmost overlay is non-capturing
#[tokio::test]
async fn closing_a_non_capturing_overlay_on_top_keeps_the_focus() {
    let ui = OverlayUi::start().await;
    ui.show("CAP").await;
    ui.show("NC nc").await;
    assert_eq!(ui.focused().await, ["CAP"]);
    ui.steps("NC.done").await;
    assert_eq!(ui.focused().await, ["CAP"]);
}

/// orig: TUI overlay non-capturing › focus management › multiple capturing and non-capturing overlays restore focus through removals
#[tokio::test]
async fn focus_walks_back_through_capturing_overlays() {
    let ui = OverlayUi::start().await;
    ui.show("C1").await;
    ui.show("N1 nc").await;
    ui.show("C2").await;
    ui.show("N2 nc").await;
    assert_eq!(ui.focused().await, ["C2"]);
    ui.steps("C2.hide").await;
    assert_eq!(ui.focused().await, ["C1"]);
    ui.steps("C1.hide").await;
    assert!(ui.focused().await.is_empty());
    assert!(ui.editor_has_keyboard());
}

/// orig: TUI overlay non-capturing › focus management › capturing overlay unfocus() on topmost capturing overlay falls back to preFocus
#[tokio::test]
async fn unfocus_on_the_top_capturing_overlay_returns_to_the_editor() {
    let mut ui = OverlayUi::start().await;
    ui.show("CAP").await;
    assert_eq!(ui.focused().await, ["CAP"]);
    ui.steps("CAP.unfocus").await;
    assert!(ui.focused().await.is_empty());
    assert!(ui.editor_has_keyboard());
    ui.press('x').await;
    assert_eq!(ui.app.editor.text(), "x");
}

/// orig: TUI overlay non-capturing › no-op guards › focus() on hidden overlay is a no-op
#[tokio::test]
async fn focusing_a_hidden_overlay_does_nothing() {
    let ui = OverlayUi::start().await;
    ui.show("O nc").await;
    ui.steps("O.hidden O.focus").await;
    assert!(ui.focused().await.is_empty());
    assert!(ui.editor_has_keyboard());
    // Shown again, focus works.
    ui.steps("O.unhidden O.focus").await;
    assert_eq!(ui.focused().await, ["O"]);
}

/// orig: TUI overlay non-capturing › no-op guards › focus() after hide() is a no-op
#[tokio::test]
async fn focusing_a_removed_overlay_does_nothing() {
    let ui = OverlayUi::start().await;
    ui.show("O nc").await;
    ui.steps("O.hide O.focus").await;
    assert!(ui.focused().await.is_empty());
    assert!(ui.editor_has_keyboard());
}

/// orig: TUI overlay non-capturing › no-op guards › unfocus() when overlay does not have focus is a no-op
#[tokio::test]
async fn unfocus_without_the_keyboard_does_nothing() {
    let ui = OverlayUi::start().await;
    ui.show("CAP").await;
    ui.show("O nc").await;
    ui.steps("O.unfocus").await;
    // The capturing overlay keeps the keyboard.
    assert_eq!(ui.focused().await, ["CAP"]);
    ui.steps("CAP.hide O.unfocus").await;
    assert!(ui.focused().await.is_empty());
    assert!(ui.editor_has_keyboard());
}

/// orig: TUI overlay non-capturing › no-op guards › unfocus() with null preFocus clears focus and does not route input back to overlay
#[tokio::test]
async fn after_unfocus_keys_do_not_go_back_to_the_overlay() {
    // Nothing had the keyboard before the overlay in the original; here the editor stands
    // under every overlay, so the key lands there, never in the overlay.
    let mut ui = OverlayUi::start().await;
    ui.show("O").await;
    assert_eq!(ui.focused().await, ["O"]);
    ui.steps("O.unfocus").await;
    assert!(ui.focused().await.is_empty());
    ui.press('x').await;
    assert!(ui.overlay_inputs().await.is_empty());
    assert_eq!(ui.app.editor.text(), "x");
    assert!(ui.focused().await.is_empty());
}

/// orig: TUI overlay non-capturing › focus cycle prevention › toggle focus between non-capturing overlays then unfocus returns to editor
#[tokio::test]
async fn toggling_between_panels_then_unfocus_returns_to_the_editor() {
    let ui = OverlayUi::start().await;
    ui.show("A nc").await;
    ui.show("B nc").await;
    ui.steps("A.focus B.focus A.focus").await;
    assert_eq!(ui.focused().await, ["A"]);
    ui.steps("A.unfocus").await;
    assert!(ui.focused().await.is_empty());
    assert!(ui.editor_has_keyboard());
}

/// orig: TUI overlay non-capturing › rendering order › focus() on already-focused overlay bumps visual order
#[tokio::test]
async fn focusing_the_focused_overlay_again_raises_it() {
    let mut ui = OverlayUi::start().await;
    ui.show("A nc at-origin").await;
    ui.show("B nc at-origin").await;
    ui.steps("A.focus").await;
    ui.show("C nc at-origin").await;
    assert_eq!(ui.corner().await, "C");
    ui.steps("A.focus").await;
    assert_eq!(ui.corner().await, "A");
    assert_eq!(ui.focused().await, ["A"]);
}

/// orig: TUI overlay non-capturing › rendering order › default rendering order for overlapping overlays follows creation order
#[tokio::test]
async fn the_later_overlay_is_drawn_on_top() {
    let mut ui = OverlayUi::start().await;
    ui.show("A nc at-origin").await;
    assert_eq!(ui.corner().await, "A");
    ui.show("B nc at-origin").await;
    assert_eq!(ui.corner().await, "B");
}

/// orig: TUI overlay non-capturing › rendering order › focus() on lower overlay renders it on top
#[tokio::test]
async fn focusing_the_lower_overlay_raises_it() {
    let mut ui = OverlayUi::start().await;
    ui.show("A nc at-origin").await;
    ui.show("B nc at-origin").await;
    assert_eq!(ui.corner().await, "B");
    ui.steps("A.focus").await;
    assert_eq!(ui.corner().await, "A");
}

/// orig: TUI overlay non-capturing › rendering order › focusing middle overlay places it on top while preserving others relative order
#[tokio::test]
async fn focusing_the_middle_overlay_keeps_the_others_in_order() {
    let mut ui = OverlayUi::start().await;
    ui.show("A nc at-origin").await;
    ui.show("B nc at-origin").await;
    ui.show("C nc at-origin").await;
    assert_eq!(ui.corner().await, "C");
    ui.steps("B.focus").await;
    assert_eq!(ui.corner().await, "B");
    ui.steps("B.hide").await;
    assert_eq!(ui.corner().await, "C");
    ui.steps("C.hide").await;
    assert_eq!(ui.corner().await, "A");
}

/// orig: TUI overlay non-capturing › rendering order › capturing overlay hidden and shown again renders on top after unhide
#[tokio::test]
async fn a_capturing_overlay_shown_again_comes_to_the_top() {
    let mut ui = OverlayUi::start().await;
    ui.show("A nc at-origin").await;
    ui.show("B at-origin").await;
    assert_eq!(ui.corner().await, "B");
    ui.steps("B.hidden").await;
    ui.show("C nc at-origin").await;
    assert_eq!(ui.corner().await, "C");
    ui.steps("B.unhidden").await;
    assert_eq!(ui.corner().await, "B");
    assert_eq!(ui.focused().await, ["B"], "and takes the keyboard");
}

/// orig: TUI overlay non-capturing › rendering order › unfocus() does not change visual order until another overlay is focused
#[tokio::test]
async fn unfocus_keeps_the_drawing_order() {
    let mut ui = OverlayUi::start().await;
    ui.show("A nc at-origin").await;
    ui.show("B nc at-origin").await;
    assert_eq!(ui.corner().await, "B");
    ui.steps("A.focus").await;
    assert_eq!(ui.corner().await, "A");
    ui.steps("A.unfocus").await;
    assert_eq!(ui.corner().await, "A");
    ui.steps("B.focus").await;
    assert_eq!(ui.corner().await, "B");
}
