//! Changing the text: typing with undo coalescing, new lines, deleting characters (a
//! paste marker goes at once), the kill keys feeding the kill ring, yank and yank-pop,
//! undo and redo.

use super::paste::Carried;
use super::undo::Snapshot;
use super::{Editor, LastAction};

impl Editor {
    fn state(&self) -> Snapshot {
        Snapshot {
            lines: self.lines.clone(),
            row: self.row,
            col: self.col,
        }
    }

    fn restore(&mut self, s: Snapshot) {
        (self.lines, self.row) = (s.lines, s.row);
        self.set_col(s.col);
        self.last_action = LastAction::None;
        self.history_index = None;
    }

    /// Remember the state before a change.
    pub(super) fn push_undo(&mut self) {
        let state = self.state();
        self.undo.push(state);
    }

    pub(super) fn undo(&mut self) {
        let current = self.state();
        if let Some(s) = self.undo.undo(current) {
            self.restore(s);
        }
        self.history_index = None;
    }

    pub(super) fn redo(&mut self) {
        let current = self.state();
        if let Some(s) = self.undo.redo(current) {
            self.restore(s);
        }
    }

    /// Insert `text` at the cursor without taking a snapshot.
    pub(super) fn insert_raw(&mut self, text: &str) {
        let rest = self.lines[self.row].split_off(self.col);
        let mut parts = text.split('\n');
        if let Some(first) = parts.next() {
            self.lines[self.row].push_str(first);
        }
        for part in parts {
            self.row += 1;
            self.lines.insert(self.row, part.to_string());
        }
        let col = self.lines[self.row].len();
        self.set_col(col);
        self.lines[self.row].push_str(&rest);
    }

    /// A typed character: a run of word characters is one undo step; each space is one.
    pub(super) fn type_char(&mut self, c: char) {
        self.history_index = None;
        if c.is_whitespace() || self.last_action != LastAction::TypeWord {
            self.push_undo();
        }
        self.last_action = LastAction::TypeWord;
        self.insert_raw(c.encode_utf8(&mut [0; 4]));
    }

    pub(super) fn new_line(&mut self) {
        self.history_index = None;
        self.last_action = LastAction::None;
        self.push_undo();
        self.insert_raw("\n");
    }

    /// Join the cursor's line onto the one above; the cursor goes to the seam.
    fn join_with_previous(&mut self) {
        let line = self.lines.remove(self.row);
        self.row -= 1;
        let col = self.lines[self.row].len();
        self.lines[self.row].push_str(&line);
        self.set_col(col);
    }

    fn join_with_next(&mut self) {
        let next = self.lines.remove(self.row + 1);
        self.lines[self.row].push_str(&next);
    }

    pub(super) fn backspace(&mut self) {
        self.history_index = None;
        self.last_action = LastAction::None;
        if self.col > 0 {
            self.push_undo();
            let start = self.prev_stop(self.row, self.col);
            self.lines[self.row].replace_range(start..self.col, "");
            self.set_col(start);
        } else if self.row > 0 {
            self.push_undo();
            self.join_with_previous();
        }
    }

    pub(super) fn delete_forward(&mut self) {
        self.history_index = None;
        self.last_action = LastAction::None;
        if self.col < self.lines[self.row].len() {
            self.push_undo();
            let end = self.next_stop(self.row, self.col);
            self.lines[self.row].replace_range(self.col..end, "");
        } else if self.row + 1 < self.lines.len() {
            self.push_undo();
            self.join_with_next();
        }
    }

    /// Put killed text on the ring, joining the previous kill when it came just before.
    fn kill(&mut self, text: &str, backward: bool) {
        let carried = self.pastes.carry(text);
        let accumulate = self.last_action == LastAction::Kill;
        self.kill_ring.push(carried, backward, accumulate);
        self.last_action = LastAction::Kill;
    }

    /// Kill from `start` to the cursor (or from the cursor to `end`) on this line.
    fn kill_range(&mut self, start: usize, end: usize, backward: bool) {
        self.push_undo();
        let killed = self.lines[self.row][start..end].to_string();
        self.kill(&killed, backward);
        self.lines[self.row].replace_range(start..end, "");
        self.set_col(start);
    }

    /// Ctrl+W / Alt+Backspace; at a line's start it takes the line break.
    pub(super) fn kill_word_backward(&mut self) {
        self.history_index = None;
        if self.col == 0 {
            if self.row > 0 {
                self.push_undo();
                self.kill("\n", true);
                self.join_with_previous();
            }
            return;
        }
        let start = self.word_start();
        self.kill_range(start, self.col, true);
    }

    /// Alt+D; at a line's end it takes the line break.
    pub(super) fn kill_word_forward(&mut self) {
        self.history_index = None;
        if self.col >= self.lines[self.row].len() {
            if self.row + 1 < self.lines.len() {
                self.push_undo();
                self.kill("\n", false);
                self.join_with_next();
            }
            return;
        }
        let end = self.word_end();
        self.kill_range(self.col, end, false);
    }

    /// Ctrl+U; at a line's start it takes the line break.
    pub(super) fn kill_to_line_start(&mut self) {
        self.history_index = None;
        if self.col > 0 {
            self.kill_range(0, self.col, true);
        } else if self.row > 0 {
            self.push_undo();
            self.kill("\n", true);
            self.join_with_previous();
        }
    }

    /// Ctrl+K; at a line's end it takes the line break.
    pub(super) fn kill_to_line_end(&mut self) {
        self.history_index = None;
        let len = self.lines[self.row].len();
        if self.col < len {
            let col = self.col;
            self.kill_range(col, len, false);
        } else if self.row + 1 < self.lines.len() {
            self.push_undo();
            self.kill("\n", false);
            self.join_with_next();
        }
    }

    fn insert_yanked(&mut self, entry: &Carried) {
        self.history_index = None;
        let text = self.pastes.import(entry);
        self.yanked = Some((self.row, self.col));
        self.insert_raw(&text);
        self.last_action = LastAction::Yank;
    }

    /// Ctrl+Y: the newest kill at the cursor.
    pub(super) fn yank(&mut self) {
        let Some(entry) = self.kill_ring.peek().cloned() else {
            return;
        };
        self.push_undo();
        self.insert_yanked(&entry);
    }

    /// Alt+Y right after a yank: replace the yanked text with the kill before it.
    pub(super) fn yank_pop(&mut self) {
        if self.last_action != LastAction::Yank || self.kill_ring.len() <= 1 {
            return;
        }
        let Some((row, col)) = self.yanked else {
            return;
        };
        self.push_undo();
        let tail = self.lines[self.row].split_off(self.col);
        self.lines.drain(row + 1..=self.row);
        self.lines[row].truncate(col);
        self.lines[row].push_str(&tail);
        self.row = row;
        self.set_col(col);
        self.kill_ring.rotate();
        if let Some(entry) = self.kill_ring.peek().cloned() {
            self.insert_yanked(&entry);
        }
    }
}
