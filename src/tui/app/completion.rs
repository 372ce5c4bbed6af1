//! Completion in the editor: `/` commands (built-in and extension) and `@` file paths.

use crate::protocol::commands::is_builtin_command;
use crossterm::event::KeyEvent;

use crate::ai::resolve::fuzzy::fuzzy_filter;
use crate::i18n::core_hacks::display;
use crate::tui::app::App;
use crate::tui::commands::{candidates, rank};
use crate::tui::editor::file_complete::{INDEX_LIMIT, index_files, suggest};
use crate::tui::editor::path_complete::{
    PathCompletion, apply_path_completion, force_file_suggestions, scoped_query, search_folder,
};

/// `@` path suggestions offered at once.
const FILE_SUGGESTIONS: usize = 20;

/// The completion for `path`: `@path`, quoted when it holds a space (`@"my folder/"`).
fn at_label(path: &str) -> String {
    if path.contains(char::is_whitespace) {
        format!("@\"{path}\"")
    } else {
        format!("@{path}")
    }
}

impl App {
    /// Completions for the editor: `/` commands for a bare command, project
    /// paths for an `@` word, the folder's entries for a path Tab asked about. Each is
    /// (label, description).
    pub fn completions(&self) -> Vec<(String, String)> {
        if self.overlay.is_some() {
            return Vec::new();
        }
        if let Some(found) = self.force_completion() {
            return found
                .items
                .into_iter()
                .map(|item| (item.value, String::new()))
                .collect();
        }
        let text = self.editor.text();
        if let Some(items) = self.extension_argument_completions(&text) {
            return items;
        }
        if let Some(items) = self.provider_completions() {
            return items
                .iter()
                .map(|(_, label, description)| (label.clone(), description.clone()))
                .collect();
        }
        if let Some(query) = text.strip_prefix("/model ") {
            return self.model_arguments(query);
        }
        if let Some(rest) = text.strip_prefix('/')
            && !rest.contains(char::is_whitespace)
        {
            let mut list = candidates();
            list.extend(
                self.extension_commands
                    .iter()
                    // pi's own command of the same name wins in the terminal UI.
                    .filter(|(name, _)| !is_builtin_command(name))
                    .map(|(name, desc)| (name.clone(), display(desc).into_owned())),
            );
            list.extend(self.resource_commands.iter().cloned());
            return rank(list, rest)
                .into_iter()
                .map(|(name, desc)| (format!("/{name}"), desc))
                .collect();
        }
        let query = self
            .editor
            .at_reference()
            .map(|r| r[1..].trim_start_matches('"'));
        if let Some((dir, rest, display)) = query.and_then(|q| scoped_query(&self.footer.cwd, q)) {
            return search_folder(&dir, rest, display, FILE_SUGGESTIONS)
                .into_iter()
                .map(|path| (at_label(&path), String::new()))
                .collect();
        }
        match (query, &self.file_index) {
            (Some(query), Some(files)) => suggest(files, query, FILE_SUGGESTIONS)
                .into_iter()
                .map(|path| (at_label(&path), String::new()))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The path entries shown while a Tab-opened list is open (and nothing else, such as an
    /// `@` reference, is being completed).
    fn force_completion(&self) -> Option<PathCompletion> {
        if !self.force_files || self.completion.is_none() || self.editor.at_reference().is_some() {
            return None;
        }
        let (lines, row, col) = self.editor.cursor();
        force_file_suggestions(&self.footer.cwd, &lines[row][..col])
    }

    /// Tab with no list open: complete the path before the cursor, at once when one entry
    /// matches, else by opening the list of them. `false` when nothing matches.
    pub(super) fn complete_path_on_tab(&mut self) -> bool {
        let (lines, row, col) = self.editor.cursor();
        let line = lines[row].clone();
        let Some(found) = force_file_suggestions(&self.footer.cwd, &line[..col]) else {
            return false;
        };
        if let [only] = found.items.as_slice() {
            let (text, cursor) = apply_path_completion(&line, col, &found.prefix, &only.value);
            self.editor.replace_line(&text, cursor);
            return true;
        }
        self.force_files = true;
        self.completion = Some(0);
        true
    }

    /// Put the highlighted entry of a Tab-opened list in place; `false` when that list is
    /// not what is shown.
    fn apply_force_completion(&mut self, selected: usize) -> bool {
        let Some(found) = self.force_completion() else {
            return false;
        };
        let Some(item) = found.items.get(selected) else {
            return false;
        };
        let (lines, row, col) = self.editor.cursor();
        let (text, cursor) = apply_path_completion(&lines[row], col, &found.prefix, &item.value);
        self.editor.replace_line(&text, cursor);
        self.force_files = false;
        self.completion = None;
        true
    }

    /// `/model` argument completions, as pi 0.73.1 offers them: the available models
    /// matched fuzzily on "id provider", each as `provider/id` with its name.
    fn model_arguments(&self, query: &str) -> Vec<(String, String)> {
        fuzzy_filter(self.models.iter().collect(), query.trim(), |m| {
            format!("{} {}", m.id, m.provider)
        })
        .into_iter()
        .map(|m| (format!("{}/{}", m.provider, m.id), m.name.clone()))
        .collect()
    }

    /// Index the project's files the first time an `@` word is typed.
    pub(super) fn ensure_file_index(&mut self) {
        if self.file_index.is_none() && self.editor.at_reference().is_some() {
            self.file_index = Some(index_files(&self.footer.cwd, INDEX_LIMIT));
        }
    }

    /// Up/down/tab/enter while the `/` list is open.
    pub(super) fn handle_completion_key(&mut self, key: &KeyEvent) -> bool {
        let options = self.completions();
        let Some(selected) = self.completion.filter(|_| !options.is_empty()) else {
            return false;
        };
        let n = options.len();
        let kb = &self.keys;
        let tab = kb.matches("tui.input.tab", key);
        let accept = tab || kb.matches("tui.input.submit", key);
        if kb.matches("tui.select.up", key) {
            self.completion = Some((selected + n - 1) % n);
        } else if kb.matches("tui.select.down", key) {
            self.completion = Some((selected + 1) % n);
        } else if accept {
            if self.apply_force_completion(selected.min(n - 1)) {
                return true;
            }
            let label = options[selected.min(n - 1)].0.clone();
            self.completion = None;
            if self.apply_provider_completion(selected.min(n - 1)) {
                return true;
            }
            if self.editor.text().starts_with("/model ") {
                // A model argument is put in place; Enter does not send it yet.
                self.editor.set_text(&format!("/model {label}"));
                return true;
            }
            if !tab
                && self
                    .extension_argument_completions(&self.editor.text())
                    .is_some()
            {
                // An extension command's argument is put in place; Enter does not send it
                // yet (as pi 0.73.1 applies an argument completion).
                self.editor.set_text(&label);
                return true;
            }
            if label.starts_with('@') {
                // A folder stays open for more (inside its quotes); a file ends with a space.
                if label.ends_with("/\"") {
                    self.editor.replace_at_reference(&label, 1);
                } else if label.ends_with('/') {
                    self.editor.replace_at_reference(&label, 0);
                } else {
                    self.editor.replace_at_reference(&format!("{label} "), 0);
                }
            } else if tab {
                self.editor.set_text(&format!("{label} "));
                // The command's argument completions (if it has any) follow at once.
                self.completion = (!self.completions().is_empty()).then_some(0);
            } else {
                self.editor.clear();
                self.submit(label);
            }
        } else {
            return false;
        }
        true
    }
}
