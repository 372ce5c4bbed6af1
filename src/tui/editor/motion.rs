//! Cursor motion: by character (a paste marker is one step), by word, up and down through
//! wrapped rows keeping a sticky column, and the jump to a character (Ctrl+]).

use std::ops::Range;

use super::Editor;
use crate::ui_kit::text::{byte_at_column, next_boundary, prev_boundary, width, wrap_ranges};

/// One row on screen: a piece of a logical line.
#[derive(Debug, Clone, Copy)]
pub(super) struct VisualLine {
    row: usize,
    start: usize,
    end: usize,
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

fn ending_at(atoms: &[Range<usize>], col: usize) -> Option<&Range<usize>> {
    atoms.iter().find(|a| a.start < col && col <= a.end)
}

/// Byte `col` is strictly inside a marker (the cursor never rests there).
fn inside(atoms: &[Range<usize>], col: usize) -> bool {
    atoms.iter().any(|a| a.start < col && col < a.end)
}

fn starting_at(atoms: &[Range<usize>], col: usize) -> Option<&Range<usize>> {
    atoms.iter().find(|a| a.start <= col && col < a.end)
}

impl Editor {
    /// The paste markers of `row` that move and delete as one piece.
    pub(super) fn atoms(&self, row: usize) -> Vec<Range<usize>> {
        self.pastes.atoms(&self.lines[row])
    }

    /// Where one step left of byte `col` of `row` lands.
    pub(super) fn prev_stop(&self, row: usize, col: usize) -> usize {
        match ending_at(&self.atoms(row), col) {
            Some(atom) => atom.start,
            None => prev_boundary(&self.lines[row], col),
        }
    }

    /// Where one step right of byte `col` of `row` lands.
    pub(super) fn next_stop(&self, row: usize, col: usize) -> usize {
        match starting_at(&self.atoms(row), col) {
            Some(atom) => atom.end,
            None => next_boundary(&self.lines[row], col),
        }
    }

    /// Set the column after a sideways move (forgets the sticky column).
    pub(super) fn set_col(&mut self, col: usize) {
        self.col = col;
        self.preferred_col = None;
        self.snapped_from = None;
    }

    pub(super) fn move_left(&mut self) {
        if self.col > 0 {
            self.set_col(self.prev_stop(self.row, self.col));
        } else if self.row > 0 {
            self.row -= 1;
            self.set_col(self.lines[self.row].len());
        }
    }

    pub(super) fn move_right(&mut self) {
        if self.col < self.lines[self.row].len() {
            self.set_col(self.next_stop(self.row, self.col));
        } else if self.row + 1 < self.lines.len() {
            self.row += 1;
            self.set_col(0);
        } else {
            // At the very end: nothing moves, but up/down now aim for this column.
            let lines = self.visual_lines();
            let vl = lines[self.visual_index(&lines, self.row, self.col)];
            self.preferred_col = Some(width(&self.lines[self.row][vl.start..self.col]));
        }
    }

    /// Where a backward word move lands: over spaces, then over a paste marker or a run
    /// of punctuation or of other characters.
    pub(super) fn word_start(&self) -> usize {
        let line = &self.lines[self.row];
        let atoms = self.atoms(self.row);
        let mut i = self.col;
        while ending_at(&atoms, i).is_none()
            && line[..i]
                .chars()
                .next_back()
                .is_some_and(char::is_whitespace)
        {
            i = prev_boundary(line, i);
        }
        if let Some(atom) = ending_at(&atoms, i) {
            return atom.start;
        }
        if let Some(class) = line[..i].chars().next_back().map(char_class) {
            while ending_at(&atoms, i).is_none()
                && line[..i]
                    .chars()
                    .next_back()
                    .is_some_and(|c| char_class(c) == class)
            {
                i = prev_boundary(line, i);
            }
        }
        i
    }

    /// Where a forward word move lands: over spaces, then over one marker or run.
    pub(super) fn word_end(&self) -> usize {
        let line = &self.lines[self.row];
        let atoms = self.atoms(self.row);
        let mut i = self.col;
        while starting_at(&atoms, i).is_none()
            && line[i..].chars().next().is_some_and(char::is_whitespace)
        {
            i = next_boundary(line, i);
        }
        if let Some(atom) = starting_at(&atoms, i) {
            return atom.end;
        }
        if let Some(class) = line[i..].chars().next().map(char_class) {
            while starting_at(&atoms, i).is_none()
                && line[i..]
                    .chars()
                    .next()
                    .is_some_and(|c| char_class(c) == class)
            {
                i = next_boundary(line, i);
            }
        }
        i
    }

    pub(super) fn move_word_left(&mut self) {
        if self.col == 0 {
            if self.row > 0 {
                self.row -= 1;
                self.set_col(self.lines[self.row].len());
            }
            return;
        }
        self.set_col(self.word_start());
    }

    pub(super) fn move_word_right(&mut self) {
        if self.col >= self.lines[self.row].len() {
            if self.row + 1 < self.lines.len() {
                self.row += 1;
                self.set_col(0);
            }
            return;
        }
        self.set_col(self.word_end());
    }

    /// The byte ranges of line `row`'s rows on screen at `max` columns: words wrap as
    /// `wrap_ranges` wraps them, and a paste marker is one unit that moves down whole (and
    /// is split only when wider than a row).
    pub(super) fn row_ranges(&self, row: usize, max: usize) -> Vec<Range<usize>> {
        wrap_ranges(&self.lines[row], max, &self.atoms(row))
    }

    /// The rows on screen at the width last laid out.
    fn visual_lines(&self) -> Vec<VisualLine> {
        let max = self.last_width.get().max(1);
        let mut out = Vec::new();
        for row in 0..self.lines.len() {
            for range in self.row_ranges(row, max) {
                out.push(VisualLine {
                    row,
                    start: range.start,
                    end: range.end,
                });
            }
        }
        out
    }

    /// The screen row holding byte `col` of `row`.
    fn visual_index(&self, lines: &[VisualLine], row: usize, col: usize) -> usize {
        let mut found = lines.len() - 1;
        for (i, vl) in lines.iter().enumerate() {
            if vl.row != row {
                continue;
            }
            let last = lines.get(i + 1).is_none_or(|next| next.row != row);
            if col >= vl.start && (col < vl.end || (last && col == vl.end)) {
                return i;
            }
            found = i;
        }
        found
    }

    fn is_last_piece(lines: &[VisualLine], i: usize) -> bool {
        lines.get(i + 1).is_none_or(|next| next.row != lines[i].row)
    }

    /// The cursor is on the first row on screen.
    pub(super) fn on_first_visual_line(&self) -> bool {
        let lines = self.visual_lines();
        self.visual_index(&lines, self.row, self.col) == 0
    }

    /// The cursor is on the last row on screen.
    pub(super) fn on_last_visual_line(&self) -> bool {
        let lines = self.visual_lines();
        self.visual_index(&lines, self.row, self.col) + 1 == lines.len()
    }

    /// Move `delta` rows on screen, aiming for the sticky column.
    pub(super) fn move_vertical(&mut self, delta: isize) {
        let lines = self.visual_lines();
        let current = self.visual_index(&lines, self.row, self.col);
        let target = current as isize + delta;
        if target < 0 || target as usize >= lines.len() {
            return;
        }
        let target = target as usize;
        let (from, to) = (lines[current], lines[target]);
        let line = &self.lines[from.row];
        let current_col = match self.snapped_from {
            Some(col) => {
                let vl = lines[self.visual_index(&lines, from.row, col)];
                width(&line[vl.start..col.max(vl.start)])
            }
            None => width(&line[from.start..self.col]),
        };
        let piece_max = |i: usize| {
            let vl = lines[i];
            let w = width(&self.lines[vl.row][vl.start..vl.end]);
            if Self::is_last_piece(&lines, i) {
                w
            } else {
                w.saturating_sub(1)
            }
        };
        let column = self.vertical_column(current_col, piece_max(current), piece_max(target));
        let target_line = &self.lines[to.row];
        let col = to.start + byte_at_column(&target_line[to.start..to.end], column);
        self.row = to.row;
        self.col = col.min(target_line.len());
        self.snapped_from = None;
        if let Some(atom) = self
            .atoms(self.row)
            .into_iter()
            .find(|a| a.start < col && col < a.end)
        {
            self.snapped_from = Some(col);
            self.col = atom.start;
        }
    }

    /// The column to land on moving from `current` (in a row whose cursor can go up to
    /// `source_max`) to a row whose cursor can go up to `target_max`; remembers the column
    /// aimed for while rows are too short for it.
    fn vertical_column(&mut self, current: usize, source_max: usize, target_max: usize) -> usize {
        let in_middle = current < source_max;
        let too_short = target_max < current;
        match self.preferred_col {
            Some(preferred) if !in_middle => {
                if too_short || target_max < preferred {
                    target_max
                } else {
                    self.preferred_col = None;
                    preferred
                }
            }
            _ if too_short => {
                self.preferred_col = Some(current);
                target_max
            }
            _ => {
                self.preferred_col = None;
                current
            }
        }
    }

    /// Move to the next (or previous) `target` character, across lines, passing over paste
    /// markers; the cursor stays when there is none.
    pub(super) fn jump_to(&mut self, target: char, forward: bool) {
        if forward {
            for row in self.row..self.lines.len() {
                let line = &self.lines[row];
                let from = match row == self.row {
                    true if self.col >= line.len() => continue,
                    true => next_boundary(line, self.col),
                    false => 0,
                };
                let atoms = self.atoms(row);
                let found = line[from..]
                    .match_indices(target)
                    .map(|(i, _)| from + i)
                    .find(|&i| !inside(&atoms, i));
                if let Some(i) = found {
                    self.row = row;
                    self.set_col(i);
                    return;
                }
            }
        } else {
            for row in (0..=self.row).rev() {
                let line = &self.lines[row];
                let until = if row == self.row {
                    self.col
                } else {
                    line.len()
                };
                let atoms = self.atoms(row);
                let found = line[..until]
                    .rmatch_indices(target)
                    .map(|(i, _)| i)
                    .find(|&i| !inside(&atoms, i));
                if let Some(i) = found {
                    self.row = row;
                    self.set_col(i);
                    return;
                }
            }
        }
    }
}
