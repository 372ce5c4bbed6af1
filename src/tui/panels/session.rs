//! `/resume`: the session selector, as in pi. Type to search (words, `"phrases"`,
//! `re:<regex>`); Tab switches between this folder's sessions and all of them,
//! `app.session.toggleSort` cycles threaded / recent / relevance order,
//! `app.session.toggleNamedFilter` shows named sessions only,
//! `app.session.togglePath` shows file paths, `app.session.rename` renames and
//! `app.session.delete` deletes after a confirmation. The current session is
//! listed and marked; it cannot be deleted.

use crate::t;

use std::path::PathBuf;

use chrono::{DateTime, Utc};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::session::list::SessionInfo;
use crate::session::list_stream::{SessionStream, merge_newest_first};
use crate::tui::panels::session_search::{Row, SortMode, age, arrange};
use crate::tui::panels::{Panel, PanelChange, PanelOutcome};
use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::text::{clip_spans, sanitize, tilde_path, truncate, width};
use crate::ui_kit::theme::Theme;

/// Rows of sessions shown at once.
const VISIBLE: usize = 10;

/// Which sessions are listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Sessions of the current folder.
    Current,
    /// Sessions of every folder.
    All,
}

enum Mode {
    List,
    ConfirmDelete(PathBuf),
    /// The session, the name being edited and the cursor in it (a char index; it starts
    /// before the old name, as in pi 0.73.1).
    Rename(PathBuf, String, usize),
}

/// Key names shown in the hints.
struct KeyNames {
    scope: String,
    sort: String,
    named: String,
    delete: String,
    path: String,
    rename: String,
}

/// The session selector.
pub struct SessionPanel {
    current: Vec<SessionInfo>,
    all: Option<Vec<SessionInfo>>,
    load_all: Box<dyn Fn() -> SessionStream>,
    /// Every folder's sessions still being read (listed as they arrive).
    loading: Option<SessionStream>,
    scope: Scope,
    query: String,
    selected: usize,
    mode: Mode,
    sort: SortMode,
    named_only: bool,
    show_path: bool,
    active: Option<PathBuf>,
    error: Option<String>,
    now: Option<DateTime<Utc>>,
    keys: KeyNames,
}

impl SessionPanel {
    /// A selector over this folder's `current` sessions; `load_all` starts reading
    /// every folder's sessions when the user switches scope, listed as they arrive.
    pub fn new(
        current: Vec<SessionInfo>,
        load_all: Box<dyn Fn() -> SessionStream>,
        kb: &Keybindings,
    ) -> Self {
        let keys = KeyNames {
            scope: kb.keys_text("tui.input.tab"),
            sort: kb.keys_text("app.session.toggleSort"),
            named: kb.keys_text("app.session.toggleNamedFilter"),
            delete: kb.keys_text("app.session.delete"),
            path: kb.keys_text("app.session.togglePath"),
            rename: kb.keys_text("app.session.rename"),
        };
        SessionPanel {
            current,
            all: None,
            load_all,
            loading: None,
            scope: Scope::Current,
            query: String::new(),
            selected: 0,
            mode: Mode::List,
            sort: SortMode::Threaded,
            named_only: false,
            show_path: false,
            active: None,
            error: None,
            now: None,
            keys,
        }
    }

    /// Mark the session file `path` as the one in use (listed, marked, not deletable).
    pub fn with_active(mut self, path: Option<PathBuf>) -> Self {
        self.active = path;
        self
    }

    /// Measure ages from `now` instead of the clock (stable pictures in tests).
    pub fn with_now(mut self, now: DateTime<Utc>) -> Self {
        self.now = Some(now);
        self
    }

    /// The scope shown.
    pub fn scope(&self) -> Scope {
        self.scope
    }

    /// The sort order shown.
    pub fn sort(&self) -> SortMode {
        self.sort
    }

    fn sessions(&self) -> &[SessionInfo] {
        match (self.scope, &self.all) {
            (Scope::All, Some(all)) => all,
            _ => &self.current,
        }
    }

    fn sessions_mut(&mut self) -> Vec<&mut Vec<SessionInfo>> {
        let mut lists = vec![&mut self.current];
        if let Some(all) = &mut self.all {
            lists.push(all);
        }
        lists
    }

    fn rows(&self) -> Vec<Row> {
        arrange(self.sessions(), &self.query, self.sort, self.named_only)
    }

    fn highlighted(&self) -> Option<&SessionInfo> {
        let rows = self.rows();
        let row = rows.get(self.selected.min(rows.len().saturating_sub(1)))?;
        self.sessions().get(row.index)
    }

    fn is_active(&self, s: &SessionInfo) -> bool {
        self.active.as_deref() == Some(s.path.as_path())
    }

    fn title(s: &SessionInfo) -> String {
        let text = s.name.clone().unwrap_or_else(|| s.first_message.clone());
        sanitize(&text).replace('\n', " ").trim().to_string()
    }

    fn start_delete(&mut self) {
        let Some(s) = self.highlighted() else { return };
        if self.is_active(s) {
            self.error = Some(t!("pi.tui.session.delete_active"));
        } else {
            self.mode = Mode::ConfirmDelete(s.path.clone());
        }
    }

    fn edit_key(&mut self, key: &KeyEvent, kb: &Keybindings) -> PanelOutcome {
        match std::mem::replace(&mut self.mode, Mode::List) {
            Mode::ConfirmDelete(path) => {
                if kb.matches("tui.select.confirm", key) {
                    for list in self.sessions_mut() {
                        list.retain(|s| s.path != path);
                    }
                    self.selected = self.selected.saturating_sub(1);
                    return PanelOutcome::Changed(PanelChange::DeleteSession(path));
                }
                if !kb.matches("tui.select.cancel", key) {
                    self.mode = Mode::ConfirmDelete(path);
                }
            }
            Mode::Rename(path, mut name, mut cursor) => {
                if kb.matches("tui.select.cancel", key) {
                    return PanelOutcome::Open;
                }
                if kb.matches("tui.select.confirm", key) {
                    let name = name.trim().to_string();
                    if name.is_empty() {
                        return PanelOutcome::Open;
                    }
                    for list in self.sessions_mut() {
                        for s in list.iter_mut().filter(|s| s.path == path) {
                            s.name = Some(name.clone());
                        }
                    }
                    return PanelOutcome::Changed(PanelChange::RenameSession(path, name));
                }
                edit_name(&mut name, &mut cursor, key);
                self.mode = Mode::Rename(path, name, cursor);
            }
            Mode::List => {}
        }
        PanelOutcome::Open
    }

    /// The title on the left and scope, name filter and sort on the right.
    fn header(&self, theme: &Theme, max: usize) -> Line<'static> {
        let (title, scope) = match self.scope {
            Scope::Current => (
                t!("pi.tui.resume.title_current"),
                t!("pi.tui.resume.scope_current"),
            ),
            Scope::All => (t!("pi.tui.resume.title_all"), t!("pi.tui.resume.scope_all")),
        };
        let filter = if self.named_only {
            t!("pi.tui.resume.name.named")
        } else {
            t!("pi.tui.resume.name.all")
        };
        let right = format!(
            "{scope}  {}  {}",
            t!("pi.tui.resume.name", filter = filter),
            t!("pi.tui.resume.sort", mode = self.sort.label())
        );
        let right = truncate(&right, max, "");
        let room = max.saturating_sub(width(&right) + 1);
        let left = truncate(&title, room, "");
        let gap = max.saturating_sub(width(&left) + width(&right));
        Line::from(vec![
            Span::styled(left, theme.bold("accent")),
            Span::raw(" ".repeat(gap)),
            Span::styled(right, theme.fg("muted")),
        ])
    }

    /// Two lines of key hints, or the confirmation, rename field or error shown instead.
    fn hints(&self, theme: &Theme, max: usize) -> [Line<'static>; 2] {
        let one = |text: String, style: Style| {
            [
                Line::from(Span::styled(truncate(&text, max, "…"), style)),
                Line::default(),
            ]
        };
        match &self.mode {
            Mode::ConfirmDelete(_) => {
                return one(t!("pi.tui.resume.confirm_delete"), theme.fg("error"));
            }
            Mode::Rename(_, name, cursor) => {
                let at = name
                    .char_indices()
                    .nth(*cursor)
                    .map_or(name.len(), |(i, _)| i);
                let (before, after) = name.split_at(at);
                let text = t!("pi.tui.resume.rename", before = before, after = after);
                return one(text, theme.fg("accent"));
            }
            Mode::List => {}
        }
        if let Some(error) = &self.error {
            return one(error.clone(), theme.fg("error"));
        }
        let k = &self.keys;
        let state = if self.show_path {
            t!("pi.tui.resume.on")
        } else {
            t!("pi.tui.resume.off")
        };
        let first = t!("pi.tui.resume.hint_search", scope = &k.scope);
        let second = t!(
            "pi.tui.resume.hint_keys",
            sort = &k.sort,
            named = &k.named,
            delete = &k.delete,
            path = &k.path,
            state = state,
            rename = &k.rename
        );
        [first, second]
            .map(|text| Line::from(Span::styled(truncate(&text, max, "…"), theme.fg("dim"))))
    }

    fn empty_text(&self) -> String {
        match (self.named_only, self.scope) {
            (true, Scope::All) => t!("pi.tui.resume.empty_named_all", key = &self.keys.named),
            (true, Scope::Current) => {
                t!("pi.tui.resume.empty_named_current", key = &self.keys.named)
            }
            (false, Scope::All) => t!("pi.tui.resume.empty_all"),
            (false, Scope::Current) => t!("pi.tui.resume.empty_current"),
        }
    }

    fn row_line(&self, row: &Row, chosen: bool, theme: &Theme, max: usize) -> Line<'static> {
        let s = &self.sessions()[row.index];
        let now = self.now.unwrap_or_else(Utc::now);
        let mut right = format!("{} {}", s.message_count, age(s.modified, now));
        if self.scope == Scope::All && !s.cwd.is_empty() {
            right = format!("{} {right}", tilde_path(std::path::Path::new(&s.cwd)));
        }
        if self.show_path {
            right = format!("{} {right}", tilde_path(&s.path));
        }
        let deleting = matches!(&self.mode, Mode::ConfirmDelete(p) if *p == s.path);
        let active = self.is_active(s);
        let marker = if chosen { "→ " } else { "  " };
        let prefix = row.prefix();
        // The mark stays visible when a long title is cut.
        let mark = if active {
            format!(" {}", t!("pi.tui.resume.current"))
        } else {
            String::new()
        };
        let room = max
            .saturating_sub(width(marker) + width(&prefix) + width(&right) + width(&mark) + 2)
            .max(10);
        let title = format!("{}{mark}", truncate(&Self::title(s), room, "…"));
        let style = if deleting {
            theme.fg("error")
        } else if active {
            theme.fg("accent")
        } else if s.name.is_some() {
            theme.fg("warning")
        } else {
            Style::default()
        };
        let style = if chosen {
            style.patch(theme.bold("accent"))
        } else {
            style
        };
        let used = width(marker) + width(&prefix) + width(&title);
        let gap = max.saturating_sub(used + width(&right)).max(1);
        let right_style = theme.fg(if deleting { "error" } else { "dim" });
        let spans = vec![
            Span::styled(marker.to_string(), theme.fg("accent")),
            Span::styled(prefix, theme.fg("dim")),
            Span::styled(title, style),
            Span::raw(" ".repeat(gap)),
            Span::styled(right, right_style),
        ];
        clip_spans(spans, max)
    }
}

impl Panel for SessionPanel {
    fn handle_key(&mut self, key: &KeyEvent, kb: &Keybindings) -> PanelOutcome {
        if !matches!(self.mode, Mode::List) {
            return self.edit_key(key, kb);
        }
        self.error = None;
        let n = self.rows().len();
        if kb.matches("tui.select.cancel", key) {
            return PanelOutcome::Closed;
        }
        if kb.matches("tui.select.confirm", key) {
            return match self.highlighted() {
                Some(s) => PanelOutcome::Done(PanelChange::ResumeSession {
                    path: s.path.clone(),
                    cwd: s.cwd.clone(),
                }),
                None => PanelOutcome::Open,
            };
        }
        if kb.matches("tui.input.tab", key) {
            self.scope = match self.scope {
                Scope::Current => Scope::All,
                Scope::All => Scope::Current,
            };
            if self.scope == Scope::All && self.all.is_none() {
                self.all = Some(Vec::new());
                self.loading = Some((self.load_all)());
                self.poll();
            }
            self.selected = 0;
        } else if kb.matches("app.session.toggleSort", key) {
            self.sort = self.sort.next();
        } else if kb.matches("app.session.toggleNamedFilter", key) {
            self.named_only = !self.named_only;
            self.selected = 0;
        } else if kb.matches("app.session.togglePath", key) {
            self.show_path = !self.show_path;
        } else if kb.matches("app.session.rename", key) {
            if let Some(s) = self.highlighted() {
                self.mode = Mode::Rename(s.path.clone(), s.name.clone().unwrap_or_default(), 0);
            }
        } else if kb.matches("app.session.delete", key) {
            self.start_delete();
        } else if kb.matches("app.session.deleteNoninvasive", key) {
            if self.query.is_empty() {
                self.start_delete();
            } else {
                self.query.pop();
                self.selected = 0;
            }
        } else if kb.matches("tui.select.up", key) {
            self.selected = self.selected.saturating_sub(1);
        } else if kb.matches("tui.select.down", key) {
            self.selected = (self.selected + 1).min(n.saturating_sub(1));
        } else if kb.matches("tui.select.pageUp", key) {
            self.selected = self.selected.saturating_sub(VISIBLE);
        } else if kb.matches("tui.select.pageDown", key) {
            self.selected = (self.selected + VISIBLE).min(n.saturating_sub(1));
        } else if super::edit_filter(&mut self.query, key) {
            self.selected = 0;
        }
        PanelOutcome::Open
    }

    fn lines(&self, theme: &Theme, max: usize) -> Vec<Line<'static>> {
        let [hint1, hint2] = self.hints(theme, max);
        let mut out = vec![
            self.header(theme, max),
            hint1,
            hint2,
            Line::from(vec![
                Span::styled("> ", theme.fg("accent")),
                Span::raw(truncate(&self.query, max.saturating_sub(2), "…")),
            ]),
        ];
        let rows = self.rows();
        if rows.is_empty() {
            let text = match self.loading {
                Some(_) if self.scope == Scope::All => t!("pi.tui.resume.loading_all"),
                _ => self.empty_text(),
            };
            out.push(Line::from(Span::styled(
                truncate(&text, max, "…"),
                theme.fg("muted"),
            )));
            return out;
        }
        let selected = self.selected.min(rows.len() - 1);
        let start = selected
            .saturating_sub(VISIBLE / 2)
            .min(rows.len().saturating_sub(VISIBLE));
        for (pos, row) in rows.iter().enumerate().skip(start).take(VISIBLE) {
            out.push(self.row_line(row, pos == selected, theme, max));
        }
        if rows.len() > VISIBLE {
            let counter = t!(
                "pi.tui.completion.position",
                current = selected + 1,
                total = rows.len()
            );
            out.push(Line::from(Span::styled(
                truncate(&format!("  {counter}"), max, ""),
                theme.fg("muted"),
            )));
        }
        out
    }

    fn poll(&mut self) -> bool {
        let Some(stream) = &mut self.loading else {
            return false;
        };
        let arrived = stream.take();
        if stream.is_done() {
            self.loading = None;
        }
        if arrived.is_empty() {
            return self.loading.is_none();
        }
        // The highlighted session stays highlighted as others arrive above it.
        let chosen = self.highlighted().map(|s| s.path.clone());
        merge_newest_first(self.all.get_or_insert_with(Vec::new), arrived);
        if let Some(chosen) = chosen {
            let rows = self.rows();
            if let Some(at) = rows
                .iter()
                .position(|row| self.sessions()[row.index].path == chosen)
            {
                self.selected = at;
            }
        }
        true
    }

    fn loading(&self) -> bool {
        self.loading.is_some()
    }
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;

/// One key in the rename field: a character goes in at the cursor, Backspace and Delete
/// remove around it, Left/Right/Home/End move it.
fn edit_name(name: &mut String, cursor: &mut usize, key: &KeyEvent) {
    let len = name.chars().count();
    let byte =
        |name: &String, at: usize| name.char_indices().nth(at).map_or(name.len(), |(i, _)| i);
    match key.code {
        KeyCode::Backspace if *cursor > 0 => {
            *cursor -= 1;
            let at = byte(name, *cursor);
            name.remove(at);
        }
        KeyCode::Delete if *cursor < len => {
            let at = byte(name, *cursor);
            name.remove(at);
        }
        KeyCode::Left => *cursor = cursor.saturating_sub(1),
        KeyCode::Right => *cursor = (*cursor + 1).min(len),
        KeyCode::Home => *cursor = 0,
        KeyCode::End => *cursor = len,
        KeyCode::Char(c)
            if !key
                .modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
        {
            let at = byte(name, *cursor);
            name.insert(at, c);
            *cursor += 1;
        }
        _ => {}
    }
}
