//! Prompt history for Up/Down: sent prompts, newest last, each with the pastes its
//! markers stand for, so a recalled prompt's markers still expand.

use super::paste::Carried;
use super::{Editor, LastAction};

/// Prompts remembered for up/down.
const HISTORY_LIMIT: usize = 100;

impl Editor {
    /// Remember a sent prompt for up/down.
    pub fn add_history(&mut self, text: &str) {
        let carried = self.pastes.carry(text);
        self.remember(carried);
    }

    pub(super) fn remember(&mut self, entry: Carried) {
        if entry.text.trim().is_empty() || self.history.last().is_some_and(|h| h.text == entry.text)
        {
            return;
        }
        self.history.push(entry);
        if self.history.len() > HISTORY_LIMIT {
            self.history.remove(0);
        }
    }

    /// Show history entry `index` (or an empty editor for `None`).
    fn show_history(&mut self, index: Option<usize>) {
        if self.history_index.is_none() && index.is_some() {
            self.push_undo();
        }
        self.last_action = LastAction::None;
        self.history_index = index;
        let text = match index {
            Some(i) => {
                let entry = self.history[i].clone();
                self.pastes.import(&entry)
            }
            None => String::new(),
        };
        self.lines = text.split('\n').map(str::to_string).collect();
        self.row = self.lines.len() - 1;
        self.set_col(self.lines[self.row].len());
    }

    pub(super) fn history_back(&mut self) {
        if self.history.is_empty() || (!self.is_empty() && self.history_index.is_none()) {
            return;
        }
        let next = match self.history_index {
            None => self.history.len() - 1,
            Some(i) => i.saturating_sub(1),
        };
        if self.history_index != Some(next) {
            self.show_history(Some(next));
        }
    }

    pub(super) fn history_forward(&mut self) {
        let Some(i) = self.history_index else { return };
        if i + 1 >= self.history.len() {
            self.show_history(None);
        } else {
            self.show_history(Some(i + 1));
        }
    }
}
