//! The multi-line message editor: typing, cursor motion, deletion, the kill ring, undo
//! and redo, prompt history and collapsed large pastes. Key handling is here; the parts
//! live in `edit` (changes, kills, yank, undo), `motion` (cursor moves, sticky column,
//! character jump), `history`, `paste` (markers), `kill_ring` and `undo`.

pub mod clipboard_image;
mod edit;
pub mod file_complete;
mod history;
pub mod history_file;
pub mod image_attach;
pub mod kill_ring;
mod motion;
pub mod paste;
pub mod path_complete;
pub mod undo;

use std::cell::Cell;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::text::width;
use kill_ring::KillRing;
use paste::{Carried, Pastes};
use undo::UndoStack;

/// What a key did to the editor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditorOutcome {
    /// The key changed or moved something.
    Handled,
    /// Enter: the (paste-expanded, trimmed) text to send.
    Submit(String),
    /// The editor does not use this key.
    Ignored,
}

/// The last thing done, for undo coalescing, kill accumulation and yank-pop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LastAction {
    None,
    TypeWord,
    Kill,
    Yank,
}

/// Editor state.
#[derive(Debug, Clone)]
pub struct Editor {
    lines: Vec<String>,
    row: usize,
    /// Byte offset in `lines[row]`, always on a char boundary and never inside a marker.
    col: usize,
    undo: UndoStack,
    last_action: LastAction,
    kill_ring: KillRing,
    /// Where the last yank started (it ends at the cursor).
    yanked: Option<(usize, usize)>,
    history: Vec<Carried>,
    history_index: Option<usize>,
    pastes: Pastes,
    /// Ctrl+] (forward) or Ctrl+Alt+] (backward) waits for the character to jump to.
    jump: Option<bool>,
    /// The screen column up/down aim for while rows are too short for it.
    preferred_col: Option<usize>,
    /// The column a vertical move landed in before it was moved to a marker's start.
    snapped_from: Option<usize>,
    /// The width the text was last laid out at (up/down move by rows on screen).
    last_width: Cell<usize>,
    /// One line only (an input dialog): Enter always submits, newlines are not typed.
    single_line: bool,
}

impl Default for Editor {
    fn default() -> Self {
        Editor {
            lines: vec![String::new()],
            row: 0,
            col: 0,
            undo: UndoStack::default(),
            last_action: LastAction::None,
            kill_ring: KillRing::default(),
            yanked: None,
            history: Vec::new(),
            history_index: None,
            pastes: Pastes::default(),
            jump: None,
            preferred_col: None,
            snapped_from: None,
            last_width: Cell::new(80),
            single_line: false,
        }
    }
}

/// Line endings made `\n` and tabs spaces, so what is drawn is what the cursor counts.
fn normalize(text: &str) -> String {
    text.replace("\r\n", "\n")
        .replace('\r', "\n")
        .replace('\t', &" ".repeat(crate::ui_kit::text::TAB_WIDTH))
}

impl Editor {
    /// An empty editor.
    pub fn new() -> Self {
        Editor::default()
    }

    /// An empty one-line input, as pi's `Input`: Enter (or Ctrl+J) submits what is typed,
    /// a backslash before Enter included; the new-line keys do nothing, and newlines in
    /// pasted or inserted text are dropped.
    pub fn single_line() -> Self {
        Editor {
            single_line: true,
            ..Editor::default()
        }
    }

    /// `text` as this editor takes it: without newlines when it holds one line only.
    fn one_line<'a>(&self, text: &'a str) -> std::borrow::Cow<'a, str> {
        if self.single_line && text.contains(['\n', '\r']) {
            text.replace(['\n', '\r'], "").into()
        } else {
            text.into()
        }
    }

    /// The raw text (paste markers unexpanded).
    pub fn text(&self) -> String {
        self.lines.join("\n")
    }

    /// Nothing typed.
    pub fn is_empty(&self) -> bool {
        self.lines.len() == 1 && self.lines[0].is_empty()
    }

    /// Replace the whole text, cursor at the end (undoable). Pastes stay known, so
    /// markers in `text` still expand.
    pub fn set_text(&mut self, text: &str) {
        let text = normalize(text);
        let text = self.one_line(&text).into_owned();
        self.history_index = None;
        self.last_action = LastAction::None;
        self.jump = None;
        if self.text() != text {
            self.push_undo();
        }
        self.lines = text.split('\n').map(str::to_string).collect();
        self.row = self.lines.len() - 1;
        self.set_col(self.lines[self.row].len());
    }

    /// Empty the editor (kept in undo, with its pastes).
    pub fn clear(&mut self) {
        self.set_text("");
    }

    /// The whitespace-free word just before the cursor.
    pub fn word_before_cursor(&self) -> &str {
        let before = &self.lines[self.row][..self.col];
        let start = before
            .rfind(char::is_whitespace)
            .map(|i| i + 1)
            .unwrap_or(0);
        &before[start..]
    }

    /// The lines and the cursor: (lines, row, byte column).
    pub fn cursor(&self) -> (&[String], usize, usize) {
        (&self.lines, self.row, self.col)
    }

    /// Replace the `len` bytes before the cursor with `text` (nothing when they are not on
    /// the cursor's line).
    pub fn replace_before_cursor(&mut self, len: usize, text: &str) {
        let Some(start) = self.col.checked_sub(len) else {
            return;
        };
        if !self.lines[self.row].is_char_boundary(start) {
            return;
        }
        self.push_undo();
        self.last_action = LastAction::None;
        self.lines[self.row].replace_range(start..self.col, text);
        self.set_col(start + text.len());
    }

    /// Replace the cursor's line with `line` and put the cursor at byte `col` of it, as one
    /// undo step.
    pub fn replace_line(&mut self, line: &str, col: usize) {
        self.push_undo();
        self.last_action = LastAction::None;
        self.lines[self.row] = line.to_string();
        let col = (0..=col.min(line.len()))
            .rev()
            .find(|&c| line.is_char_boundary(c))
            .unwrap_or(0);
        self.set_col(col);
    }

    /// Replace the word before the cursor with `text`.
    pub fn replace_word_before_cursor(&mut self, text: &str) {
        let len = self.word_before_cursor().len();
        self.replace_before_cursor(len, text);
    }

    /// The `@` file reference being typed before the cursor, from its `@`: a word without
    /// whitespace, or an opened quote (`@"my folder/te`) whose path may hold spaces.
    pub fn at_reference(&self) -> Option<&str> {
        let before = &self.lines[self.row][..self.col];
        if let Some(i) = before.rfind("@\"")
            && (i == 0 || before[..i].ends_with(char::is_whitespace))
            && !before[i + 2..].contains('"')
        {
            return Some(&before[i..]);
        }
        let word = self.word_before_cursor();
        word.starts_with('@').then_some(word)
    }

    /// Replace the `@` reference before the cursor (with the closing quote right after
    /// the cursor, when it is quoted) by `text`; the cursor ends `back` bytes before its end.
    pub fn replace_at_reference(&mut self, text: &str, back: usize) {
        let Some(reference) = self.at_reference() else {
            return;
        };
        let mut len = reference.len();
        if reference.starts_with("@\"") && self.lines[self.row][self.col..].starts_with('"') {
            self.col += 1;
            len += 1;
        }
        self.replace_before_cursor(len, text);
        self.set_col(self.col.saturating_sub(back));
    }

    /// The text with paste markers replaced by what was pasted, trimmed (what is sent).
    pub fn expanded_text(&self) -> String {
        self.expanded().trim().to_string()
    }

    /// The text with paste markers replaced by what was pasted (for an external editor).
    pub fn expanded(&self) -> String {
        self.pastes.expand(&self.text())
    }

    /// Insert pasted text (one undo step); large pastes become a `[paste #n ...]` marker.
    pub fn paste(&mut self, raw: &str) {
        self.history_index = None;
        self.last_action = LastAction::None;
        self.push_undo();
        let raw = self.one_line(raw);
        let mut clean: String = normalize(&decode_csi_u_controls(&raw))
            .chars()
            .filter(|c| *c == '\n' || !c.is_control())
            .collect();
        // A pasted path right after a word gets a space in front.
        let before = self.lines[self.row][..self.col].chars().next_back();
        if clean.starts_with(['/', '~', '.'])
            && before.is_some_and(|c| c.is_alphanumeric() || c == '_')
        {
            clean.insert(0, ' ');
        }
        if paste::is_large(&clean) {
            let id = self.pastes.add(&clean);
            self.insert_raw(&paste::marker_text(id, &clean));
        } else {
            self.insert_raw(&clean);
        }
    }

    /// Insert text at the cursor (may contain newlines) as one undo step.
    pub fn insert(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        self.history_index = None;
        self.last_action = LastAction::None;
        self.push_undo();
        let text = normalize(text);
        self.insert_raw(&self.one_line(&text));
    }

    /// Waiting for the character of a jump (Ctrl+] / Ctrl+Alt+]).
    pub fn jump_pending(&self) -> bool {
        self.jump.is_some()
    }

    /// A key while a jump waits for its character: the character jumps, the jump key again
    /// cancels (both used up, `true`); any other key cancels and is handled as usual.
    pub fn take_jump_key(&mut self, key: &KeyEvent, kb: &Keybindings) -> bool {
        let Some(forward) = self.jump.take() else {
            return false;
        };
        if kb.matches("tui.editor.jumpForward", key) || kb.matches("tui.editor.jumpBackward", key) {
            return true;
        }
        match key.code {
            // A printable key with a modifier the editor has no use for (Super, Hyper,
            // Meta) is not text.
            KeyCode::Char(c)
                if !key.modifiers.intersects(
                    KeyModifiers::CONTROL
                        | KeyModifiers::ALT
                        | KeyModifiers::SUPER
                        | KeyModifiers::HYPER
                        | KeyModifiers::META,
                ) =>
            {
                self.last_action = LastAction::None;
                self.jump_to(c, forward);
                true
            }
            _ => false,
        }
    }

    fn submit(&mut self) -> EditorOutcome {
        let text = self.expanded_text();
        let entry = self.pastes.carry(&self.text());
        self.remember(entry);
        *self = Editor {
            history: std::mem::take(&mut self.history),
            kill_ring: std::mem::take(&mut self.kill_ring),
            last_width: self.last_width.clone(),
            single_line: self.single_line,
            ..Editor::default()
        };
        EditorOutcome::Submit(text)
    }

    /// Handle a key according to the bindings.
    pub fn handle_key(&mut self, key: &KeyEvent, kb: &Keybindings) -> EditorOutcome {
        if self.take_jump_key(key, kb) {
            return EditorOutcome::Handled;
        }
        let is = |id: &str| kb.matches(id, key);
        let plain_char = match key.code {
            // A printable key with a modifier the editor has no use for (Super, Hyper,
            // Meta) is not text.
            KeyCode::Char(c)
                if !key.modifiers.intersects(
                    KeyModifiers::CONTROL
                        | KeyModifiers::ALT
                        | KeyModifiers::SUPER
                        | KeyModifiers::HYPER
                        | KeyModifiers::META,
                ) =>
            {
                Some(c)
            }
            _ => None,
        };
        if is("tui.input.copy") {
            return EditorOutcome::Ignored;
        } else if is("tui.editor.undo") {
            self.undo();
        } else if is("tui.editor.redo") {
            self.redo();
        } else if is("tui.editor.deleteToLineEnd") {
            self.kill_to_line_end();
        } else if is("tui.editor.deleteToLineStart") {
            self.kill_to_line_start();
        } else if is("tui.editor.deleteWordBackward") {
            self.kill_word_backward();
        } else if is("tui.editor.deleteWordForward") {
            self.kill_word_forward();
        } else if is("tui.editor.deleteCharBackward")
            || (key.code == KeyCode::Backspace && key.modifiers == KeyModifiers::SHIFT)
        {
            self.backspace();
        } else if is("tui.editor.deleteCharForward")
            || (key.code == KeyCode::Delete && key.modifiers == KeyModifiers::SHIFT)
        {
            self.delete_forward();
        } else if is("tui.editor.yank") {
            self.yank();
        } else if is("tui.editor.yankPop") {
            self.yank_pop();
        } else if is("tui.editor.cursorLineStart") {
            self.last_action = LastAction::None;
            self.set_col(0);
        } else if is("tui.editor.cursorLineEnd") {
            self.last_action = LastAction::None;
            self.set_col(self.lines[self.row].len());
        } else if is("tui.editor.cursorWordLeft") {
            self.last_action = LastAction::None;
            self.move_word_left();
        } else if is("tui.editor.cursorWordRight") {
            self.last_action = LastAction::None;
            self.move_word_right();
        } else if self.single_line
            && (is("tui.input.submit")
                || (key.code == KeyCode::Char('j') && key.modifiers == KeyModifiers::CONTROL))
        {
            return self.submit();
        } else if is("tui.input.newLine")
            || (key.code == KeyCode::Char('j') && key.modifiers == KeyModifiers::CONTROL)
            || (key.code == KeyCode::Enter && key.modifiers.contains(KeyModifiers::ALT))
        {
            if !self.single_line {
                self.new_line();
            }
        } else if is("tui.input.submit") {
            if self.col > 0 && self.lines[self.row][..self.col].ends_with('\\') {
                self.backspace();
                self.new_line();
                return EditorOutcome::Handled;
            }
            return self.submit();
        } else if is("tui.editor.cursorUp") {
            self.last_action = LastAction::None;
            if self.is_empty() || (self.history_index.is_some() && self.on_first_visual_line()) {
                self.history_back();
            } else if self.on_first_visual_line() {
                self.set_col(0);
            } else {
                self.move_vertical(-1);
            }
        } else if is("tui.editor.cursorDown") {
            self.last_action = LastAction::None;
            if self.history_index.is_some() && self.on_last_visual_line() {
                self.history_forward();
            } else if self.on_last_visual_line() {
                self.set_col(self.lines[self.row].len());
            } else {
                self.move_vertical(1);
            }
        } else if is("tui.editor.cursorRight") {
            self.last_action = LastAction::None;
            self.move_right();
        } else if is("tui.editor.cursorLeft") {
            self.last_action = LastAction::None;
            self.move_left();
        } else if is("tui.editor.jumpForward") {
            self.jump = Some(true);
        } else if is("tui.editor.jumpBackward") {
            self.jump = Some(false);
        } else if key.code == KeyCode::Char(' ') && key.modifiers == KeyModifiers::SHIFT {
            self.type_char(' ');
        } else if let Some(c) = plain_char {
            self.type_char(c);
        } else {
            return EditorOutcome::Ignored;
        }
        EditorOutcome::Handled
    }

    /// The text wrapped to `max` columns and the cursor's (column, row) in it.
    pub fn layout(&self, max: usize) -> (Vec<String>, (usize, usize)) {
        let max = max.max(1);
        self.last_width.set(max);
        let mut rows = Vec::new();
        let mut cursor = (0, 0);
        for (i, line) in self.lines.iter().enumerate() {
            let pieces = self.row_ranges(i, max);
            if i == self.row {
                for (j, piece) in pieces.iter().enumerate() {
                    let last = j + 1 == pieces.len();
                    if self.col < piece.end || last {
                        let col = width(&line[piece.start..self.col.clamp(piece.start, piece.end)]);
                        // A cursor right after a full row sits in the column the caller
                        // keeps free for it, on the same row (as pi draws it).
                        cursor = (col, rows.len() + j);
                        if col > max {
                            cursor = (0, rows.len() + j + 1);
                        }
                        break;
                    }
                }
            }
            rows.extend(pieces.into_iter().map(|r| line[r].to_string()));
        }
        if cursor.1 >= rows.len() {
            rows.push(String::new());
        }
        (rows, cursor)
    }
}

/// Some terminals (tmux with CSI-u keys) send control bytes inside a paste as
/// `ESC [ code ; 5 u`; turn those back into the bytes (a line feed stays a line feed).
fn decode_csi_u_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("\x1b[") {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("\x1b[") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let code: Option<u32> = after[..digits].parse().ok();
        let control = match code {
            Some(c @ 97..=122) if after[digits..].starts_with(";5u") => char::from_u32(c - 96),
            Some(c @ 65..=90) if after[digits..].starts_with(";5u") => char::from_u32(c - 64),
            _ => None,
        };
        match control {
            Some(c) => {
                out.push(c);
                rest = &after[digits + 3..];
            }
            None => {
                out.push_str("\x1b[");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out.into()
}

#[cfg(test)]
mod editor_tests;
