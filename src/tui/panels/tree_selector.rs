//! `/tree`: the whole session tree in place of the editor — indentation at
//! branch points, the current path highlighted, labels, search, folding and
//! filter modes (keybinding ids `app.tree.*`).

use std::collections::HashSet;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::tui::panels::tree_guides::visible_guides;
use crate::tui::panels::tree_rows::{RowKind, TreeData};
use crate::tui::panels::tree_view::TreeKeys;
use crate::ui_kit::keybindings::Keybindings;

/// Rows of the tree shown at once on a 24-row terminal (see [`TreeSelector::with_height`]).
const DEFAULT_PAGE: usize = 12;

/// Which entries the tree shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TreeFilter {
    /// Conversation entries; settings changes hidden.
    Default,
    /// Like default, without tool results.
    NoTools,
    /// User messages only.
    UserOnly,
    /// Labeled entries only.
    LabeledOnly,
    /// Every entry.
    All,
}

const FILTERS: [TreeFilter; 5] = [
    TreeFilter::Default,
    TreeFilter::NoTools,
    TreeFilter::UserOnly,
    TreeFilter::LabeledOnly,
    TreeFilter::All,
];

impl TreeFilter {
    /// The `treeFilterMode` setting's name.
    pub fn name(self) -> &'static str {
        match self {
            TreeFilter::Default => "default",
            TreeFilter::NoTools => "no-tools",
            TreeFilter::UserOnly => "user-only",
            TreeFilter::LabeledOnly => "labeled-only",
            TreeFilter::All => "all",
        }
    }

    /// Parse a `treeFilterMode` value.
    pub fn parse(name: &str) -> Option<Self> {
        FILTERS.iter().copied().find(|f| f.name() == name)
    }
}

/// What a key did to the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TreeOutcome {
    /// Still open.
    Open,
    /// Closed without a choice.
    Cancelled,
    /// The user chose this entry.
    Picked(String),
    /// Set (or clear, when empty) the label of an entry.
    Label(String, String),
}

/// `/tree` state.
#[derive(Debug, Clone)]
pub struct TreeSelector {
    pub(super) data: TreeData,
    /// Search text.
    pub query: String,
    /// Active filter.
    pub filter: TreeFilter,
    pub(super) folded: HashSet<usize>,
    pub(super) visible: Vec<usize>,
    /// Branch lines of each visible row, drawn over the rows shown.
    pub(super) guides: Vec<String>,
    pub(super) selected: usize,
    pub(super) show_label_time: bool,
    /// The label being typed, when editing one.
    pub label_edit: Option<String>,
    /// Visible position marked active (the leaf, or the nearest shown
    /// entry before it).
    pub(super) active: Option<usize>,
    /// Rows shown at once (a page).
    pub(super) page: usize,
    /// The keys named in the help lines.
    pub(super) keys: TreeKeys,
    /// The row that was selected before a filter left nothing to show; it is selected
    /// again once a filter shows it.
    remembered: Option<usize>,
}

impl TreeSelector {
    /// A selector over `data`, starting at the current leaf.
    pub fn new(data: TreeData, filter: TreeFilter) -> Self {
        let mut s = TreeSelector {
            data,
            query: String::new(),
            filter,
            folded: HashSet::new(),
            visible: Vec::new(),
            guides: Vec::new(),
            selected: 0,
            show_label_time: false,
            label_edit: None,
            active: None,
            page: DEFAULT_PAGE,
            keys: TreeKeys::of(&Keybindings::default()),
            remembered: None,
        };
        let leaf = s.data.leaf_row;
        s.refresh(leaf);
        s
    }

    /// Show as many rows at once as pi does on a terminal `rows` high: half of it,
    /// at least 5.
    pub fn with_height(mut self, rows: usize) -> Self {
        self.page = (rows / 2).max(5);
        self
    }

    /// Name the keys of `kb` in the help lines.
    pub fn with_keys(mut self, kb: &Keybindings) -> Self {
        self.keys = TreeKeys::of(kb);
        self
    }

    /// The row index (into the data) currently highlighted.
    pub fn selected_row(&self) -> Option<usize> {
        self.visible.get(self.selected).copied()
    }

    /// The entry id currently highlighted.
    pub fn selected_id(&self) -> Option<&str> {
        self.selected_row().map(|r| self.data.rows[r].id.as_str())
    }

    /// How many files the run of entry `id` changed (0: none recorded).
    pub fn files_of(&self, id: &str) -> usize {
        self.data
            .rows
            .iter()
            .find(|r| r.id == id)
            .map_or(0, |r| r.files)
    }

    /// Rows currently shown (indexes into the data).
    pub fn visible_rows(&self) -> &[usize] {
        &self.visible
    }

    /// Whether data row `row` is shown under the filter and the search `words`
    /// (lower-cased, all of them must occur).
    fn passes(&self, row: usize, words: &[String]) -> bool {
        let r = &self.data.rows[row];
        if r.quiet && Some(row) != self.data.leaf_row {
            return false;
        }
        let shown = match self.filter {
            TreeFilter::Default => r.kind != RowKind::Setting,
            TreeFilter::NoTools => !matches!(r.kind, RowKind::Setting | RowKind::ToolResult),
            TreeFilter::UserOnly => r.kind == RowKind::User,
            TreeFilter::LabeledOnly => r.label.is_some(),
            TreeFilter::All => true,
        };
        if !shown {
            return false;
        }
        if words.is_empty() {
            return true;
        }
        let hay = format!("{} {}", r.text, r.label.as_deref().unwrap_or("")).to_lowercase();
        words.iter().all(|word| hay.contains(word.as_str()))
    }

    /// Recompute the visible rows, keeping `keep` (a data row) selected
    /// when it is still shown, else the nearest shown row before it.
    fn refresh(&mut self, keep: Option<usize>) {
        self.visible.clear();
        let query = self.query.to_lowercase();
        let words: Vec<String> = query.split_whitespace().map(str::to_string).collect();
        let mut row = 0;
        let rows = self.data.rows.len();
        while row < rows {
            if self.passes(row, &words) {
                self.visible.push(row);
            }
            if self.folded.contains(&row) {
                row = self.data.rows[row].subtree_end.max(row + 1);
            } else {
                row += 1;
            }
        }
        self.guides = visible_guides(&self.data.rows, &self.visible);
        self.active = self
            .data
            .leaf_row
            .and_then(|leaf| match self.visible.binary_search(&leaf) {
                Ok(i) => Some(i),
                Err(0) => None,
                Err(i) => Some(i - 1),
            });
        self.selected = match keep {
            Some(k) => match self.visible.binary_search(&k) {
                Ok(i) => i,
                Err(i) => i.saturating_sub(1),
            },
            None => 0,
        }
        .min(self.visible.len().saturating_sub(1));
    }

    fn set_filter(&mut self, filter: TreeFilter) {
        let keep = self.selected_row().or(self.remembered);
        self.filter = filter;
        self.refresh(keep);
        self.remembered = if self.visible.is_empty() { keep } else { None };
    }

    fn toggle_filter(&mut self, filter: TreeFilter) {
        let next = if self.filter == filter {
            TreeFilter::Default
        } else {
            filter
        };
        self.set_filter(next);
    }

    fn cycle_filter(&mut self, step: isize) {
        let at = FILTERS.iter().position(|f| *f == self.filter).unwrap_or(0) as isize;
        let next = FILTERS[(at + step).rem_euclid(FILTERS.len() as isize) as usize];
        self.set_filter(next);
    }

    fn has_children(&self, row: usize) -> bool {
        self.data.rows[row].subtree_end > row + 1
    }

    fn fold_or_up(&mut self) {
        let Some(row) = self.selected_row() else {
            return;
        };
        if self.has_children(row) && !self.folded.contains(&row) {
            self.folded.insert(row);
            self.refresh(Some(row));
            return;
        }
        // Jump to the start of this branch segment (or the one before).
        let depth = self.data.rows[row].depth;
        let target = self.visible[..self.selected]
            .iter()
            .rposition(|&r| self.data.rows[r].depth < depth)
            .unwrap_or(0);
        self.selected = target;
    }

    fn unfold_or_down(&mut self) {
        let Some(row) = self.selected_row() else {
            return;
        };
        if self.folded.remove(&row) {
            self.refresh(Some(row));
            return;
        }
        let depth = self.data.rows[row].depth;
        let next = self.visible[self.selected + 1..]
            .iter()
            .position(|&r| self.data.rows[r].depth != depth)
            .map(|p| self.selected + 1 + p)
            .unwrap_or(self.visible.len().saturating_sub(1));
        self.selected = next;
    }

    /// Handle a key.
    pub fn handle_key(&mut self, key: &KeyEvent, kb: &Keybindings) -> TreeOutcome {
        if let Some(text) = &mut self.label_edit {
            match key.code {
                KeyCode::Esc => self.label_edit = None,
                KeyCode::Enter => {
                    let label = text.trim().to_string();
                    self.label_edit = None;
                    if let Some(row) = self.selected_row() {
                        let r = &mut self.data.rows[row];
                        r.label = (!label.is_empty()).then(|| label.clone());
                        return TreeOutcome::Label(r.id.clone(), label);
                    }
                }
                KeyCode::Backspace => {
                    text.pop();
                }
                KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => text.push(c),
                _ => {}
            }
            return TreeOutcome::Open;
        }
        let n = self.visible.len();
        if kb.matches("tui.select.cancel", key) {
            return TreeOutcome::Cancelled;
        }
        if kb.matches("tui.select.confirm", key) {
            return match self.selected_id() {
                Some(id) => TreeOutcome::Picked(id.to_string()),
                None => TreeOutcome::Open,
            };
        }
        if kb.matches("app.tree.foldOrUp", key) {
            self.fold_or_up();
        } else if kb.matches("app.tree.unfoldOrDown", key) {
            self.unfold_or_down();
        } else if kb.matches("app.tree.editLabel", key) {
            let current = self
                .selected_row()
                .and_then(|r| self.data.rows[r].label.clone());
            self.label_edit = Some(current.unwrap_or_default());
        } else if kb.matches("app.tree.toggleLabelTimestamp", key) {
            self.show_label_time = !self.show_label_time;
        } else if kb.matches("app.tree.filter.default", key) {
            self.set_filter(TreeFilter::Default);
        } else if kb.matches("app.tree.filter.noTools", key) {
            self.toggle_filter(TreeFilter::NoTools);
        } else if kb.matches("app.tree.filter.userOnly", key) {
            self.toggle_filter(TreeFilter::UserOnly);
        } else if kb.matches("app.tree.filter.labeledOnly", key) {
            self.toggle_filter(TreeFilter::LabeledOnly);
        } else if kb.matches("app.tree.filter.all", key) {
            self.toggle_filter(TreeFilter::All);
        } else if kb.matches("app.tree.filter.cycleForward", key) {
            self.cycle_filter(1);
        } else if kb.matches("app.tree.filter.cycleBackward", key) {
            self.cycle_filter(-1);
        } else if kb.matches("tui.select.up", key) && n > 0 {
            self.selected = (self.selected + n - 1) % n;
        } else if kb.matches("tui.select.down", key) && n > 0 {
            self.selected = (self.selected + 1) % n;
        } else if (kb.matches("tui.select.pageUp", key) || key.code == KeyCode::Left) && n > 0 {
            self.selected = self.selected.saturating_sub(self.page);
        } else if (kb.matches("tui.select.pageDown", key) || key.code == KeyCode::Right) && n > 0 {
            self.selected = (self.selected + self.page).min(n - 1);
        } else {
            let keep = self.selected_row();
            if super::edit_filter(&mut self.query, key) {
                self.refresh(keep);
            }
        }
        TreeOutcome::Open
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::types::{AssistantMessage, ContentBlock, Message, UserMessage};
    use crate::session::SessionManager;
    use crate::tui::panels::tree_rows::flatten;

    fn key(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    fn answer(text: &str) -> Message {
        let mut a = AssistantMessage::empty("x", "p", "m");
        a.content = vec![ContentBlock::text(text)];
        Message::Assistant(a)
    }

    /// hello → hi → {approach A → doing A, approach B (leaf)}; label on hi.
    pub(crate) fn sample() -> SessionManager {
        let mut s = SessionManager::in_memory(std::path::Path::new("/p"));
        s.append_model_change("anthropic", "claude");
        s.append_message(Message::User(UserMessage::text("hello")));
        let hi = s.append_message(answer("hi"));
        s.append_message(Message::User(UserMessage::text("approach A")));
        s.append_message(answer("doing A"));
        s.branch(&hi).unwrap();
        s.append_message(Message::User(UserMessage::text("approach B")));
        s.append_label_change(&hi, Some("start")).unwrap();
        s
    }

    fn texts(t: &TreeSelector) -> Vec<String> {
        t.visible_rows()
            .iter()
            .map(|&r| t.data.rows[r].text.clone())
            .collect()
    }

    #[test]
    fn flattening_indents_branches_and_marks_the_path() {
        let data = flatten(&sample());
        let rows: Vec<(usize, &str, bool)> = data
            .rows
            .iter()
            .map(|r| (r.depth, r.text.as_str(), r.on_path))
            .collect();
        assert_eq!(
            rows,
            [
                (0, "[model: claude]", true),
                (0, "user: hello", true),
                (0, "assistant: hi", true),
                (1, "user: approach B", true),
                (1, "[label: start]", true),
                (1, "user: approach A", false),
                (1, "assistant: doing A", false),
            ]
        );
        assert_eq!(data.leaf_row, Some(4));
        assert_eq!(data.rows[2].label.as_deref(), Some("start"));
        assert_eq!(data.rows[2].subtree_end, 7);
        assert_eq!(data.rows[3].subtree_end, 5);
    }

    #[test]
    fn filters_search_fold_and_label() {
        let kb = Keybindings::default();
        let mut t = TreeSelector::new(flatten(&sample()), TreeFilter::Default);
        assert_eq!(t.visible_rows().len(), 5, "settings hidden by default");
        // The leaf (a label entry) is hidden: the nearest row before it is chosen.
        assert_eq!(
            t.selected_id()
                .map(|id| t
                    .data
                    .rows
                    .iter()
                    .find(|r| r.id == id)
                    .unwrap()
                    .text
                    .clone())
                .as_deref(),
            Some("user: approach B")
        );

        t.handle_key(&key(KeyCode::Char('u'), KeyModifiers::CONTROL), &kb);
        assert_eq!(t.filter, TreeFilter::UserOnly);
        assert_eq!(
            texts(&t),
            ["user: hello", "user: approach B", "user: approach A"]
        );
        t.handle_key(&key(KeyCode::Char('u'), KeyModifiers::CONTROL), &kb);
        assert_eq!(t.filter, TreeFilter::Default);
        t.handle_key(&key(KeyCode::Char('l'), KeyModifiers::CONTROL), &kb);
        assert_eq!(texts(&t), ["assistant: hi"]);
        t.handle_key(&key(KeyCode::Char('o'), KeyModifiers::CONTROL), &kb);
        assert_eq!(t.filter, TreeFilter::All);
        assert_eq!(t.visible_rows().len(), 7);
        t.handle_key(&key(KeyCode::Char('d'), KeyModifiers::CONTROL), &kb);

        for c in "approach".chars() {
            t.handle_key(&key(KeyCode::Char(c), KeyModifiers::NONE), &kb);
        }
        assert_eq!(texts(&t), ["user: approach B", "user: approach A"]);
        for _ in 0.."approach".len() {
            t.handle_key(&key(KeyCode::Backspace, KeyModifiers::NONE), &kb);
        }

        // Fold the branch point "assistant: hi" and unfold it again.
        while t.selected_id().is_some_and(|id| {
            t.data.rows.iter().find(|r| r.id == id).unwrap().text != "assistant: hi"
        }) {
            t.handle_key(&key(KeyCode::Up, KeyModifiers::NONE), &kb);
        }
        t.handle_key(&key(KeyCode::Left, KeyModifiers::CONTROL), &kb);
        assert_eq!(texts(&t), ["user: hello", "assistant: hi"]);
        t.handle_key(&key(KeyCode::Right, KeyModifiers::CONTROL), &kb);
        assert_eq!(t.visible_rows().len(), 5);

        // Shift+L edits the label; Enter reports it.
        t.handle_key(&key(KeyCode::Char('L'), KeyModifiers::SHIFT), &kb);
        assert_eq!(t.label_edit.as_deref(), Some("start"));
        for _ in 0..5 {
            t.handle_key(&key(KeyCode::Backspace, KeyModifiers::NONE), &kb);
        }
        for c in "ok".chars() {
            t.handle_key(&key(KeyCode::Char(c), KeyModifiers::NONE), &kb);
        }
        let out = t.handle_key(&key(KeyCode::Enter, KeyModifiers::NONE), &kb);
        let id = t.selected_id().unwrap().to_string();
        assert_eq!(out, TreeOutcome::Label(id.clone(), "ok".into()));
        let out = t.handle_key(&key(KeyCode::Enter, KeyModifiers::NONE), &kb);
        assert_eq!(out, TreeOutcome::Picked(id));
    }
}
