//! `@` file completion in the prompt editor, driven through the app as a user types:
//! every path for a bare `@`, fuzzy and case-insensitive matching over whole relative
//! paths (so a folder in the middle of a path matches), folders first, hidden paths
//! offered but never `.git`.
//! orig-file: packages/tui/test/autocomplete.test.ts

use std::path::Path;

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use pi::agent::agent_loop::AgentQueues;
use pi::tui::app::App;
use pi::tui::chrome::FooterInfo;
use pi::ui_kit::keybindings::Keybindings;
use pi::ui_kit::theme::Theme;

/// Make `dirs` and `files` under `root`.
fn setup(root: &Path, dirs: &[&str], files: &[&str]) {
    for d in dirs {
        std::fs::create_dir_all(root.join(d)).unwrap();
    }
    for f in files {
        let path = root.join(f);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "content").unwrap();
    }
}

/// The completion labels after typing `text` in an app working in `cwd`.
fn suggestions(cwd: &Path, text: &str) -> Vec<String> {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let footer = FooterInfo {
        cwd: cwd.to_path_buf(),
        ..FooterInfo::default()
    };
    let mut app = App::new(
        tx,
        AgentQueues::default(),
        Keybindings::default(),
        Theme::plain(),
        footer,
    );
    for c in text.chars() {
        app.handle_terminal_event(Event::Key(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::NONE,
        )));
    }
    assert_eq!(app.editor.text(), text);
    app.completions()
        .into_iter()
        .map(|(label, _)| label)
        .collect()
}

/// orig: CombinedAutocompleteProvider › fd @ file suggestions › returns all files and folders for empty @ query
#[test]
fn a_bare_at_offers_every_path() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), &["src"], &["README.md"]);
    let mut got = suggestions(dir.path(), "@");
    got.sort();
    assert_eq!(got, ["@README.md", "@src/"]);
}

/// orig: CombinedAutocompleteProvider › fd @ file suggestions › matches file with extension in query
#[test]
fn a_query_with_an_extension() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), &[], &["file.txt", "other.md"]);
    let got = suggestions(dir.path(), "@file.txt");
    assert_eq!(got, ["@file.txt"]);
}

/// orig: CombinedAutocompleteProvider › fd @ file suggestions › filters are case insensitive
#[test]
fn matching_ignores_case() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), &["src"], &["README.md"]);
    assert_eq!(suggestions(dir.path(), "@re"), ["@README.md"]);
}

/// orig: CombinedAutocompleteProvider › fd @ file suggestions › ranks directories before files
#[test]
fn folders_come_first() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), &["src"], &["src.txt"]);
    let got = suggestions(dir.path(), "@src");
    assert_eq!(got[0], "@src/");
    assert!(got.contains(&"@src.txt".to_string()), "{got:?}");
}

/// orig: CombinedAutocompleteProvider › fd @ file suggestions › returns nested file paths
#[test]
fn nested_files_are_found_by_name() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), &[], &["src/index.ts"]);
    assert!(suggestions(dir.path(), "@index").contains(&"@src/index.ts".to_string()));
}

/// orig: CombinedAutocompleteProvider › fd @ file suggestions › matches deeply nested paths
#[test]
fn a_query_spanning_folders() {
    let dir = tempfile::tempdir().unwrap();
    setup(
        dir.path(),
        &[],
        &[
            "packages/tui/src/autocomplete.ts",
            "packages/ai/src/autocomplete.ts",
        ],
    );
    let got = suggestions(dir.path(), "@tui/src/auto");
    assert!(
        got.contains(&"@packages/tui/src/autocomplete.ts".to_string()),
        "{got:?}"
    );
    assert!(
        !got.contains(&"@packages/ai/src/autocomplete.ts".to_string()),
        "{got:?}"
    );
}

/// orig: CombinedAutocompleteProvider › fd @ file suggestions › matches directory in middle of path with --full-path
#[test]
fn a_folder_in_the_middle_of_a_path() {
    let dir = tempfile::tempdir().unwrap();
    setup(
        dir.path(),
        &[],
        &["src/components/Button.tsx", "src/utils/helpers.ts"],
    );
    let got = suggestions(dir.path(), "@components/");
    assert!(
        got.contains(&"@src/components/Button.tsx".to_string()),
        "{got:?}"
    );
    assert!(
        !got.contains(&"@src/utils/helpers.ts".to_string()),
        "{got:?}"
    );
}

/// orig: CombinedAutocompleteProvider › fd @ file suggestions › includes hidden paths but excludes .git
#[test]
fn hidden_paths_but_not_git() {
    let dir = tempfile::tempdir().unwrap();
    setup(
        dir.path(),
        &[".pi", ".github", ".git"],
        &[".pi/config.json", ".github/workflows/ci.yml", ".git/config"],
    );
    let got = suggestions(dir.path(), "@");
    assert!(got.contains(&"@.pi/".to_string()), "{got:?}");
    assert!(got.contains(&"@.github/".to_string()), "{got:?}");
    assert!(
        !got.iter().any(|v| v == "@.git" || v.starts_with("@.git/")),
        "{got:?}"
    );
}

/// An app working in `cwd` with `text` typed, then `left` steps left.
fn typed(cwd: &Path, text: &str, left: usize) -> App {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let footer = FooterInfo {
        cwd: cwd.to_path_buf(),
        ..FooterInfo::default()
    };
    let mut app = App::new(
        tx,
        AgentQueues::default(),
        Keybindings::default(),
        Theme::plain(),
        footer,
    );
    let press = |app: &mut App, code| {
        app.handle_terminal_event(Event::Key(KeyEvent::new(code, KeyModifiers::NONE)))
    };
    for c in text.chars() {
        press(&mut app, KeyCode::Char(c));
    }
    for _ in 0..left {
        press(&mut app, KeyCode::Left);
    }
    app
}

fn labels(app: &App) -> Vec<String> {
    app.completions()
        .into_iter()
        .map(|(label, _)| label)
        .collect()
}

/// orig: CombinedAutocompleteProvider › fd @ file suggestions › quotes paths with spaces for @ suggestions
#[test]
fn a_path_with_a_space_is_quoted() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), &["my folder"], &["my folder/test.txt"]);
    let got = suggestions(dir.path(), "@my");
    assert!(got.contains(&"@\"my folder/\"".to_string()), "{got:?}");
    assert!(
        got.contains(&"@\"my folder/test.txt\"".to_string()),
        "{got:?}"
    );
}

/// orig: CombinedAutocompleteProvider › fd @ file suggestions › continues autocomplete inside quoted @ paths
#[test]
fn completion_goes_on_inside_the_quotes() {
    let dir = tempfile::tempdir().unwrap();
    setup(
        dir.path(),
        &[],
        &["my folder/test.txt", "my folder/other.txt"],
    );
    let app = typed(dir.path(), "@\"my folder/\"", 1);
    let got = labels(&app);
    assert!(
        got.contains(&"@\"my folder/test.txt\"".to_string()),
        "{got:?}"
    );
    assert!(
        got.contains(&"@\"my folder/other.txt\"".to_string()),
        "{got:?}"
    );
}

/// orig: CombinedAutocompleteProvider › fd @ file suggestions › applies quoted @ completion without duplicating closing quote
#[test]
fn a_quoted_completion_keeps_one_closing_quote() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), &[], &["my folder/test.txt"]);
    let mut app = typed(dir.path(), "@\"my folder/te\"", 1);
    assert_eq!(labels(&app)[0], "@\"my folder/test.txt\"");
    app.handle_terminal_event(Event::Key(KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE)));
    assert_eq!(app.editor.text(), "@\"my folder/test.txt\" ");
    // A folder is completed inside its quotes, the cursor before the closing one.
    let mut app = typed(dir.path(), "@\"my fo", 0);
    assert_eq!(labels(&app)[0], "@\"my folder/\"");
    app.handle_terminal_event(Event::Key(KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE)));
    assert_eq!(app.editor.text(), "@\"my folder/\"");
    assert_eq!(app.editor.cursor().2, "@\"my folder/".len());
}
