//! Keys the editor must not take as text: a printable key reported (Kitty CSI-u) with a
//! modifier the editor has no use for, such as Super.
//! orig-file: packages/tui/test/editor.test.ts

use crate::editor_input::feed;
use pi::tui::editor::Editor;

/// orig: Editor component › Kitty CSI-u handling › ignores printable CSI-u sequences with unsupported modifiers
#[test]
fn a_printable_key_with_super_is_not_typed() {
    let mut e = Editor::new();
    feed(&mut e, "\x1b[99;9u");
    assert_eq!(e.text(), "");
    // The same key without the modifier, and with Shift, is typed.
    feed(&mut e, "\x1b[99;1u");
    feed(&mut e, "\x1b[67;2u");
    assert_eq!(e.text(), "cC");
}

// orig-skip: Editor component › public state accessors › returns lines as a defensive copy — the editor hands out its lines as an owned `Vec<String>` or borrows them immutably; Rust's ownership makes the mutation the case guards against impossible.
