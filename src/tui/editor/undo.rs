//! Undo and redo: whole-text snapshots taken before each change. A new change forgets
//! what could be redone.

/// The text and cursor at one moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// The lines.
    pub lines: Vec<String>,
    /// Cursor row.
    pub row: usize,
    /// Cursor byte column.
    pub col: usize,
}

/// Snapshots kept at most.
const LIMIT: usize = 500;

/// Past states (for undo) and undone states (for redo).
#[derive(Debug, Clone, Default)]
pub struct UndoStack {
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
}

impl UndoStack {
    /// Remember the state before a change; nothing can be redone after it.
    pub fn push(&mut self, state: Snapshot) {
        self.redo.clear();
        self.undo.push(state);
        if self.undo.len() > LIMIT {
            self.undo.remove(0);
        }
    }

    /// The state to go back to from `current` (which becomes redoable).
    pub fn undo(&mut self, current: Snapshot) -> Option<Snapshot> {
        let previous = self.undo.pop()?;
        self.redo.push(current);
        Some(previous)
    }

    /// The state undone last, from `current` (which becomes undoable again).
    pub fn redo(&mut self, current: Snapshot) -> Option<Snapshot> {
        let next = self.redo.pop()?;
        self.undo.push(current);
        Some(next)
    }

    /// Forget everything (after a prompt is sent).
    pub fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snap(text: &str) -> Snapshot {
        Snapshot {
            lines: vec![text.to_string()],
            row: 0,
            col: text.len(),
        }
    }

    #[test]
    fn undo_then_redo_and_a_new_change_forgets_redo() {
        let mut s = UndoStack::default();
        s.push(snap(""));
        s.push(snap("a"));
        assert_eq!(s.undo(snap("ab")), Some(snap("a")));
        assert_eq!(s.redo(snap("a")), Some(snap("ab")));
        assert_eq!(s.redo(snap("ab")), None);
        assert_eq!(s.undo(snap("ab")), Some(snap("a")));
        s.push(snap("a"));
        assert_eq!(s.redo(snap("ax")), None);
    }
}
