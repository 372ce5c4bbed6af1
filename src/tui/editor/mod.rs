//! The multi-line message editor: cursor motion, word and line deletion with
//! a kill buffer, undo, prompt history and collapsed large pastes.

pub mod clipboard_image;
pub mod file_complete;
pub mod history_file;
pub mod image_attach;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::text::{byte_at_column, next_boundary, prev_boundary, width};

/// Pastes longer than this many lines are collapsed to a marker.
const PASTE_MAX_LINES: usize = 10;
/// Pastes longer than this many characters are collapsed to a marker.
const PASTE_MAX_CHARS: usize = 1000;
/// Prompts remembered for up/down.
const HISTORY_LIMIT: usize = 100;

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

#[derive(Debug, Clone, PartialEq, Eq)]
struct Snapshot {
    lines: Vec<String>,
    row: usize,
    col: usize,
}

/// Editor state.
#[derive(Debug, Clone)]
pub struct Editor {
    lines: Vec<String>,
    row: usize,
    /// Byte offset in `lines[row]`, always on a char boundary.
    col: usize,
    undo: Vec<Snapshot>,
    killed: String,
    history: Vec<String>,
    history_index: Option<usize>,
    pastes: Vec<String>,
}

impl Default for Editor {
    fn default() -> Self {
        Editor {
            lines: vec![String::new()],
            row: 0,
            col: 0,
            undo: Vec::new(),
            killed: String::new(),
            history: Vec::new(),
            history_index: None,
            pastes: Vec::new(),
        }
    }
}

impl Editor {
    /// An empty editor.
    pub fn new() -> Self {
        Editor::default()
    }

    /// The raw text (paste markers unexpanded).
    pub fn text(&self) -> String {
        self.lines.join("\n")
    }

    /// Nothing typed.
    pub fn is_empty(&self) -> bool {
        self.lines.len() == 1 && self.lines[0].is_empty()
    }

    /// Replace the whole text, cursor at the end.
    pub fn set_text(&mut self, text: &str) {
        self.snapshot();
        self.lines = text.split('\n').map(str::to_string).collect();
        self.row = self.lines.len() - 1;
        self.col = self.lines[self.row].len();
        self.history_index = None;
    }

    /// Empty the editor (kept in undo).
    pub fn clear(&mut self) {
        self.set_text("");
        self.pastes.clear();
        self.history_index = None;
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
        self.snapshot();
        self.lines[self.row].replace_range(start..self.col, text);
        self.col = start + text.len();
    }

    /// Replace the word before the cursor with `text`.
    pub fn replace_word_before_cursor(&mut self, text: &str) {
        self.snapshot();
        let start = self.col - self.word_before_cursor().len();
        self.lines[self.row].replace_range(start..self.col, text);
        self.col = start + text.len();
    }

    /// Remember a sent prompt for up/down.
    pub fn add_history(&mut self, text: &str) {
        if text.trim().is_empty() || self.history.last().is_some_and(|h| h == text) {
            return;
        }
        self.history.push(text.to_string());
        if self.history.len() > HISTORY_LIMIT {
            self.history.remove(0);
        }
    }

    /// The text with paste markers replaced by what was pasted, trimmed.
    pub fn expanded_text(&self) -> String {
        let mut text = self.text();
        for (i, paste) in self.pastes.iter().enumerate() {
            let id = i + 1;
            for marker in [
                format!("[paste #{id} +{} lines]", paste.split('\n').count()),
                format!("[paste #{id} {} chars]", paste.chars().count()),
            ] {
                text = text.replace(&marker, paste);
            }
        }
        text.trim().to_string()
    }

    /// Insert pasted text; large pastes become a `[paste #n ...]` marker.
    pub fn paste(&mut self, raw: &str) {
        // Tabs become spaces, so what is drawn is what the cursor counts.
        let clean = raw
            .replace("\r\n", "\n")
            .replace('\r', "\n")
            .replace('\t', &" ".repeat(crate::ui_kit::text::TAB_WIDTH));
        let line_count = clean.split('\n').count();
        let chars = clean.chars().count();
        if line_count > PASTE_MAX_LINES || chars > PASTE_MAX_CHARS {
            self.pastes.push(clean);
            let id = self.pastes.len();
            let marker = if line_count > PASTE_MAX_LINES {
                format!("[paste #{id} +{line_count} lines]")
            } else {
                format!("[paste #{id} {chars} chars]")
            };
            self.insert(&marker);
        } else {
            self.insert(&clean);
        }
    }

    /// Insert text at the cursor (may contain newlines).
    pub fn insert(&mut self, text: &str) {
        self.snapshot();
        self.history_index = None;
        let rest = self.lines[self.row].split_off(self.col);
        let mut parts = text.split('\n');
        if let Some(first) = parts.next() {
            self.lines[self.row].push_str(first);
        }
        for part in parts {
            self.row += 1;
            self.lines.insert(self.row, part.to_string());
        }
        self.col = self.lines[self.row].len();
        self.lines[self.row].push_str(&rest);
    }

    fn snapshot(&mut self) {
        let snap = Snapshot {
            lines: self.lines.clone(),
            row: self.row,
            col: self.col,
        };
        if self.undo.last() != Some(&snap) {
            self.undo.push(snap);
        }
        if self.undo.len() > 200 {
            self.undo.remove(0);
        }
    }

    /// Handle a key according to the bindings.
    pub fn handle_key(&mut self, key: &KeyEvent, kb: &Keybindings) -> EditorOutcome {
        let is = |id: &str| kb.matches(id, key);
        if is("tui.input.newLine")
            || (key.code == KeyCode::Char('j') && key.modifiers == KeyModifiers::CONTROL)
            || (key.code == KeyCode::Enter && key.modifiers.contains(KeyModifiers::ALT))
        {
            self.insert("\n");
        } else if is("tui.input.submit") {
            if self.col > 0 && self.lines[self.row][..self.col].ends_with('\\') {
                self.backspace();
                self.insert("\n");
                return EditorOutcome::Handled;
            }
            let text = self.expanded_text();
            self.add_history(&self.text());
            *self = Editor {
                history: std::mem::take(&mut self.history),
                killed: std::mem::take(&mut self.killed),
                ..Editor::default()
            };
            return EditorOutcome::Submit(text);
        } else if is("tui.editor.cursorUp") {
            if self.row == 0 {
                self.history_back();
            } else {
                self.move_vertical(-1);
            }
        } else if is("tui.editor.cursorDown") {
            if self.row + 1 == self.lines.len() && self.history_index.is_some() {
                self.history_forward();
            } else {
                self.move_vertical(1);
            }
        } else if is("tui.editor.cursorLeft") {
            self.left();
        } else if is("tui.editor.cursorRight") {
            self.right();
        } else if is("tui.editor.cursorWordLeft") {
            self.col = self.word_start();
        } else if is("tui.editor.cursorWordRight") {
            self.col = self.word_end();
        } else if is("tui.editor.cursorLineStart") {
            self.col = 0;
        } else if is("tui.editor.cursorLineEnd") {
            self.col = self.lines[self.row].len();
        } else if is("tui.editor.deleteCharBackward") {
            self.snapshot();
            self.backspace();
        } else if is("tui.editor.deleteCharForward") {
            self.snapshot();
            self.delete_forward();
        } else if is("tui.editor.deleteWordBackward") {
            let start = self.word_start();
            self.kill_range(start, self.col);
        } else if is("tui.editor.deleteWordForward") {
            let end = self.word_end();
            self.kill_range(self.col, end);
        } else if is("tui.editor.deleteToLineStart") {
            self.kill_range(0, self.col);
        } else if is("tui.editor.deleteToLineEnd") {
            let end = self.lines[self.row].len();
            self.kill_range(self.col, end);
        } else if is("tui.editor.yank") {
            let killed = self.killed.clone();
            self.insert(&killed);
        } else if is("tui.editor.undo") {
            if let Some(s) = self.undo.pop() {
                (self.lines, self.row, self.col) = (s.lines, s.row, s.col);
            }
        } else if let KeyCode::Char(c) = key.code {
            if key
                .modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
            {
                return EditorOutcome::Ignored;
            }
            self.insert(&c.to_string());
        } else {
            return EditorOutcome::Ignored;
        }
        EditorOutcome::Handled
    }

    fn left(&mut self) {
        if self.col > 0 {
            self.col = prev_boundary(&self.lines[self.row], self.col);
        } else if self.row > 0 {
            self.row -= 1;
            self.col = self.lines[self.row].len();
        }
    }

    fn right(&mut self) {
        let line = &self.lines[self.row];
        if self.col < line.len() {
            self.col = next_boundary(line, self.col);
        } else if self.row + 1 < self.lines.len() {
            self.row += 1;
            self.col = 0;
        }
    }

    fn move_vertical(&mut self, delta: isize) {
        let target = self.row as isize + delta;
        if target < 0 || target as usize >= self.lines.len() {
            return;
        }
        let column = width(&self.lines[self.row][..self.col]);
        self.row = target as usize;
        self.col = byte_at_column(&self.lines[self.row], column);
    }

    fn backspace(&mut self) {
        if self.col > 0 {
            let start = prev_boundary(&self.lines[self.row], self.col);
            self.lines[self.row].replace_range(start..self.col, "");
            self.col = start;
        } else if self.row > 0 {
            let line = self.lines.remove(self.row);
            self.row -= 1;
            self.col = self.lines[self.row].len();
            self.lines[self.row].push_str(&line);
        }
    }

    fn delete_forward(&mut self) {
        let len = self.lines[self.row].len();
        if self.col < len {
            let end = next_boundary(&self.lines[self.row], self.col);
            self.lines[self.row].replace_range(self.col..end, "");
        } else if self.row + 1 < self.lines.len() {
            let next = self.lines.remove(self.row + 1);
            self.lines[self.row].push_str(&next);
        }
    }

    fn kill_range(&mut self, start: usize, end: usize) {
        if start == end {
            if start == 0 && end == 0 && self.row > 0 {
                self.snapshot();
                self.backspace();
            }
            return;
        }
        self.snapshot();
        self.killed = self.lines[self.row][start..end].to_string();
        self.lines[self.row].replace_range(start..end, "");
        self.col = start;
    }

    /// Where a backward word move lands: over spaces, then over a run of punctuation or a
    /// run of other characters (pi's three character classes).
    fn word_start(&self) -> usize {
        let line = &self.lines[self.row];
        let before: Vec<(usize, char)> = line[..self.col].char_indices().collect();
        let mut i = before.len();
        while i > 0 && before[i - 1].1.is_whitespace() {
            i -= 1;
        }
        if let Some(&(_, c)) = i.checked_sub(1).and_then(|j| before.get(j)) {
            let class = char_class(c);
            while i > 0 && char_class(before[i - 1].1) == class {
                i -= 1;
            }
        }
        before.get(i).map(|(b, _)| *b).unwrap_or(0)
    }

    /// Where a forward word move lands: over spaces, then over one run of a class.
    fn word_end(&self) -> usize {
        let line = &self.lines[self.row];
        let mut chars = line[self.col..].char_indices().peekable();
        while chars.peek().is_some_and(|(_, c)| c.is_whitespace()) {
            chars.next();
        }
        if let Some(&(_, c)) = chars.peek() {
            let class = char_class(c);
            while chars.peek().is_some_and(|(_, c)| char_class(*c) == class) {
                chars.next();
            }
        }
        chars
            .peek()
            .map(|(i, _)| self.col + i)
            .unwrap_or(line.len())
    }

    fn history_back(&mut self) {
        if self.history.is_empty() || (!self.is_empty() && self.history_index.is_none()) {
            return;
        }
        let next = match self.history_index {
            None => self.history.len() - 1,
            Some(0) => 0,
            Some(i) => i - 1,
        };
        self.history_index = Some(next);
        let text = self.history[next].clone();
        self.lines = text.split('\n').map(str::to_string).collect();
        self.row = self.lines.len() - 1;
        self.col = self.lines[self.row].len();
    }

    fn history_forward(&mut self) {
        let Some(i) = self.history_index else { return };
        if i + 1 >= self.history.len() {
            self.history_index = None;
            self.lines = vec![String::new()];
            self.row = 0;
            self.col = 0;
            return;
        }
        self.history_index = Some(i + 1);
        let text = self.history[i + 1].clone();
        self.lines = text.split('\n').map(str::to_string).collect();
        self.row = self.lines.len() - 1;
        self.col = self.lines[self.row].len();
    }

    /// The text wrapped to `max` columns and the cursor's (column, row) in it.
    pub fn layout(&self, max: usize) -> (Vec<String>, (usize, usize)) {
        let max = max.max(1);
        let mut rows = Vec::new();
        let mut cursor = (0, 0);
        for (i, line) in self.lines.iter().enumerate() {
            let pieces = crate::ui_kit::text::wrap_keeping(line, max);
            if i == self.row {
                let mut consumed = 0;
                for (j, piece) in pieces.iter().enumerate() {
                    let end = consumed + piece.len();
                    let last = j + 1 == pieces.len();
                    if self.col < end || last {
                        let col = width(&line[consumed..self.col.max(consumed).min(end)]);
                        // A cursor right after a full row sits in the column the caller
                        // keeps free for it, on the same row (as pi draws it).
                        cursor = (col, rows.len() + j);
                        if col > max {
                            cursor = (0, rows.len() + j + 1);
                        }
                        break;
                    }
                    consumed = end;
                }
            }
            rows.extend(pieces);
        }
        if cursor.1 >= rows.len() {
            rows.push(String::new());
        }
        (rows, cursor)
    }
}

/// Word-movement classes: 0 whitespace, 1 punctuation, 2 anything else.
fn char_class(c: char) -> u8 {
    if c.is_whitespace() {
        0
    } else if "(){}[]<>.,;:'\"!?+-=*/\\|&%^$#@~`".contains(c) {
        1
    } else {
        2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(e: &mut Editor, code: KeyCode, m: KeyModifiers) -> EditorOutcome {
        e.handle_key(&KeyEvent::new(code, m), &Keybindings::default())
    }

    fn typed(e: &mut Editor, s: &str) {
        for c in s.chars() {
            press(e, KeyCode::Char(c), KeyModifiers::NONE);
        }
    }

    #[test]
    fn typing_newlines_and_submit() {
        let mut e = Editor::new();
        typed(&mut e, "héllo");
        press(&mut e, KeyCode::Enter, KeyModifiers::SHIFT);
        typed(&mut e, "wörld\\");
        press(&mut e, KeyCode::Enter, KeyModifiers::NONE);
        typed(&mut e, "end");
        assert_eq!(e.text(), "héllo\nwörld\nend");
        press(&mut e, KeyCode::Left, KeyModifiers::NONE);
        press(&mut e, KeyCode::Backspace, KeyModifiers::NONE);
        assert_eq!(e.text(), "héllo\nwörld\ned");
        let out = press(&mut e, KeyCode::Enter, KeyModifiers::NONE);
        assert_eq!(out, EditorOutcome::Submit("héllo\nwörld\ned".into()));
        assert!(e.is_empty());
        press(&mut e, KeyCode::Up, KeyModifiers::NONE);
        assert_eq!(e.text(), "héllo\nwörld\ned");
        for _ in 0..3 {
            press(&mut e, KeyCode::Down, KeyModifiers::NONE);
        }
        assert!(e.is_empty());
    }

    #[test]
    fn word_kill_yank_and_undo() {
        let mut e = Editor::new();
        typed(&mut e, "one two three");
        press(&mut e, KeyCode::Char('w'), KeyModifiers::CONTROL);
        assert_eq!(e.text(), "one two ");
        press(&mut e, KeyCode::Char('a'), KeyModifiers::CONTROL);
        press(&mut e, KeyCode::Char('y'), KeyModifiers::CONTROL);
        assert_eq!(e.text(), "threeone two ");
        press(&mut e, KeyCode::Char('-'), KeyModifiers::CONTROL);
        assert_eq!(e.text(), "one two ");
    }

    #[test]
    fn large_pastes_collapse_and_expand_on_send() {
        let mut e = Editor::new();
        let big: Vec<String> = (0..120).map(|i| format!("l{i}")).collect();
        let big = big.join("\n");
        typed(&mut e, "see ");
        e.paste(&big);
        assert_eq!(e.text(), "see [paste #1 +120 lines]");
        e.paste("small");
        assert_eq!(e.expanded_text(), format!("see {big}small"));
        e.paste(&"x".repeat(1500));
        assert!(e.text().ends_with("[paste #2 1500 chars]"));
    }

    #[test]
    fn a_ten_megabyte_paste_collapses_quickly() {
        let mut e = Editor::new();
        let line = "x".repeat(99) + "\n";
        let huge = line.repeat(100_000);
        let t0 = std::time::Instant::now();
        e.paste(&huge);
        assert_eq!(e.text(), "[paste #1 +100001 lines]");
        assert_eq!(e.layout(40).0.len(), 1);
        assert_eq!(e.expanded_text().len(), huge.trim().len());
        assert!(t0.elapsed() < std::time::Duration::from_secs(5));
    }

    #[test]
    fn layout_places_the_cursor_on_wrapped_rows() {
        let mut e = Editor::new();
        typed(&mut e, "abcdefgh");
        let (rows, cursor) = e.layout(5);
        assert_eq!(rows, vec!["abcde", "fgh"]);
        assert_eq!(cursor, (3, 1));
        typed(&mut e, "ij");
        assert_eq!(e.layout(5).1, (5, 1));
        typed(&mut e, "k");
        assert_eq!(e.layout(5).1, (1, 2));
    }
}
