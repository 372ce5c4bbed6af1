//! Path completion on Tab and `@` references outside the project: the path before the
//! cursor (after the last space, quote or `=`, or from an opened quote), completed from
//! the folder it names with `./` kept and spaces quoted; one match is put in place at
//! once, several open a list that narrows as one types; `@../dir/query` searches that
//! folder. The original's provider cases are checked on `pi::tui::editor::path_complete`
//! (what the app calls) and through the app as a user types.
//! orig-file: packages/tui/test/autocomplete.test.ts, editor.test.ts

use std::path::Path;

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use pi::agent::agent_loop::AgentQueues;
use pi::tui::app::App;
use pi::tui::chrome::FooterInfo;
use pi::tui::editor::path_complete::{
    apply_path_completion, extract_path_prefix, force_file_suggestions,
};
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

fn app_in(cwd: &Path) -> App {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::mem::forget(rx);
    let footer = FooterInfo {
        cwd: cwd.to_path_buf(),
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

fn press(app: &mut App, code: KeyCode, modifiers: KeyModifiers) {
    app.handle_terminal_event(Event::Key(KeyEvent::new(code, modifiers)));
}

fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c), KeyModifiers::NONE);
    }
}

fn tab(app: &mut App) {
    press(app, KeyCode::Tab, KeyModifiers::NONE);
}

fn labels(app: &App) -> Vec<String> {
    app.completions().into_iter().map(|(l, _)| l).collect()
}

/// The values Tab offers for `before_cursor` in `cwd`.
fn values(cwd: &Path, before_cursor: &str) -> Vec<String> {
    force_file_suggestions(cwd, before_cursor)
        .map(|found| found.items.into_iter().map(|i| i.value).collect())
        .unwrap_or_default()
}

/// orig: autocomplete.test.ts › CombinedAutocompleteProvider › extractPathPrefix › extracts / from 'hey /' when forced
#[test]
fn the_root_after_a_word() {
    let dir = tempfile::tempdir().unwrap();
    let found = force_file_suggestions(dir.path(), "hey /").expect("the root's entries");
    assert_eq!(found.prefix, "/");
    assert!(!found.items.is_empty());
    assert!(found.items.iter().all(|i| i.value.starts_with('/')));
}

/// orig: autocomplete.test.ts › CombinedAutocompleteProvider › extractPathPrefix › extracts /A from '/A' when forced
#[test]
fn a_leading_absolute_path_is_the_whole_word() {
    assert_eq!(extract_path_prefix("/A"), "/A");
    assert_eq!(extract_path_prefix("see x=/tmp/a"), "/tmp/a");
    assert_eq!(extract_path_prefix("hey "), "");
}

/// orig: autocomplete.test.ts › CombinedAutocompleteProvider › extractPathPrefix › does not trigger for slash commands
#[test]
fn a_command_name_is_not_a_path() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(force_file_suggestions(dir.path(), "/model"), None);
    // Tab on a command name completes the command instead.
    let mut app = app_in(dir.path());
    typed(&mut app, "/mode");
    tab(&mut app);
    assert_eq!(app.editor.text(), "/model ");
}

/// orig: autocomplete.test.ts › CombinedAutocompleteProvider › extractPathPrefix › triggers for absolute paths after slash command argument
#[test]
fn an_absolute_path_as_a_command_argument() {
    let dir = tempfile::tempdir().unwrap();
    let found = force_file_suggestions(dir.path(), "/command /").expect("the root's entries");
    assert_eq!(found.prefix, "/");
}

/// orig: autocomplete.test.ts › CombinedAutocompleteProvider › fd @ file suggestions › scopes fuzzy search to relative directories and searches recursively
#[test]
fn an_at_reference_into_a_folder_outside_the_project() {
    let root = tempfile::tempdir().unwrap();
    let (cwd, outside) = (root.path().join("cwd"), root.path().join("outside"));
    std::fs::create_dir_all(&cwd).unwrap();
    setup(
        &outside,
        &[],
        &[
            "nested/alpha.ts",
            "nested/deeper/also-alpha.ts",
            "nested/deeper/zzz.ts",
        ],
    );
    let mut app = app_in(&cwd);
    typed(&mut app, "@../outside/a");
    let got = labels(&app);
    assert!(
        got.contains(&"@../outside/nested/alpha.ts".to_string()),
        "{got:?}"
    );
    assert!(
        got.contains(&"@../outside/nested/deeper/also-alpha.ts".to_string()),
        "{got:?}"
    );
    assert!(
        !got.contains(&"@../outside/nested/deeper/zzz.ts".to_string()),
        "{got:?}"
    );
}

/// orig: autocomplete.test.ts › CombinedAutocompleteProvider › dot-slash path completion › preserves ./ prefix when completing paths
#[test]
fn dot_slash_is_kept_for_files() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), &[], &["update.sh", "utils.ts"]);
    assert_eq!(values(dir.path(), "./up"), ["./update.sh"]);
    let mut app = app_in(dir.path());
    typed(&mut app, "run ./up");
    tab(&mut app);
    assert_eq!(app.editor.text(), "run ./update.sh");
}

/// orig: autocomplete.test.ts › CombinedAutocompleteProvider › dot-slash path completion › preserves ./ prefix for directory completions
#[test]
fn dot_slash_is_kept_for_folders() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), &["src"], &["src/index.ts"]);
    assert_eq!(values(dir.path(), "./sr"), ["./src/"]);
}

/// orig: autocomplete.test.ts › CombinedAutocompleteProvider › quoted path completion › quotes paths with spaces for direct completion
#[test]
fn a_path_with_a_space_is_quoted() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), &["my folder"], &["my folder/test.txt"]);
    assert_eq!(values(dir.path(), "my"), ["\"my folder/\""]);
}

/// orig: autocomplete.test.ts › CombinedAutocompleteProvider › quoted path completion › continues completion inside quoted paths
#[test]
fn completion_goes_on_inside_quotes() {
    let dir = tempfile::tempdir().unwrap();
    setup(
        dir.path(),
        &[],
        &["my folder/test.txt", "my folder/other.txt"],
    );
    // The line is `"my folder/"` with the cursor before the closing quote.
    let got = values(dir.path(), "\"my folder/");
    assert_eq!(got, ["\"my folder/other.txt\"", "\"my folder/test.txt\""]);
}

/// orig: autocomplete.test.ts › CombinedAutocompleteProvider › quoted path completion › applies quoted completion without duplicating closing quote
#[test]
fn the_closing_quote_is_not_doubled() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), &[], &["my folder/test.txt"]);
    let line = "\"my folder/te\"";
    let cursor = line.len() - 1;
    let found = force_file_suggestions(dir.path(), &line[..cursor]).unwrap();
    let item = found
        .items
        .iter()
        .find(|i| i.value == "\"my folder/test.txt\"")
        .expect("test.txt");
    let (text, _) = apply_path_completion(line, cursor, &found.prefix, &item.value);
    assert_eq!(text, "\"my folder/test.txt\"");
    // Through the app: Tab puts the one match in place.
    let mut app = app_in(dir.path());
    typed(&mut app, line);
    press(&mut app, KeyCode::Left, KeyModifiers::NONE);
    tab(&mut app);
    assert_eq!(app.editor.text(), "\"my folder/test.txt\"");
}

/// orig: editor.test.ts › Editor component › Autocomplete › auto-applies single force-file suggestion without showing menu
#[test]
fn one_match_is_put_in_place_at_once() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), &["Workspace"], &[]);
    let mut app = app_in(dir.path());
    typed(&mut app, "Work");
    tab(&mut app);
    assert_eq!(app.editor.text(), "Workspace/");
    assert_eq!(app.completion, None);
    // One undo step brings back what was typed.
    press(&mut app, KeyCode::Char('-'), KeyModifiers::CONTROL);
    assert_eq!(app.editor.text(), "Work");
}

/// orig: editor.test.ts › Editor component › Autocomplete › shows menu when force-file has multiple suggestions
#[test]
fn several_matches_open_a_list() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), &["src"], &["src.txt"]);
    let mut app = app_in(dir.path());
    typed(&mut app, "src");
    assert_eq!(app.completion, None);
    tab(&mut app);
    assert_eq!(app.editor.text(), "src");
    assert!(app.completion.is_some());
    assert_eq!(labels(&app), ["src/", "src.txt"]);
    tab(&mut app);
    assert_eq!(app.editor.text(), "src/");
    assert_eq!(app.completion, None);
}

/// orig: editor.test.ts › Editor component › Autocomplete › keeps suggestions open when typing in force mode (Tab-triggered)
#[test]
fn the_list_narrows_as_one_types() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), &["src", "dist"], &["readme.md", "package.json"]);
    let mut app = app_in(dir.path());
    tab(&mut app);
    assert!(app.completion.is_some());
    assert_eq!(labels(&app).len(), 4);
    typed(&mut app, "r");
    assert_eq!(app.editor.text(), "r");
    assert!(app.completion.is_some());
    typed(&mut app, "e");
    assert_eq!(app.editor.text(), "re");
    assert_eq!(labels(&app), ["readme.md"]);
    tab(&mut app);
    assert_eq!(app.editor.text(), "readme.md");
    assert_eq!(app.completion, None);
    // Typing without Tab opens no file list.
    typed(&mut app, " re");
    assert_eq!(app.completion, None);
}
