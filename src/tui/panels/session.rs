//! `/resume`: the session selector. Type to search, Tab switches between this
//! folder's sessions and all sessions, `app.session.rename` renames and
//! `app.session.delete` deletes after a confirmation.

use crate::t;

use std::path::PathBuf;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::text::{Line, Span};

use crate::session::list::SessionInfo;
use crate::tui::panels::selector::fuzzy_score;
use crate::tui::panels::{Panel, PanelChange, PanelOutcome};
use crate::ui_kit::keybindings::Keybindings;
use crate::ui_kit::text::{sanitize, truncate, width};
use crate::ui_kit::theme::Theme;

/// Rows of sessions shown at once.
const VISIBLE: usize = 8;

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
    Rename(PathBuf, String),
}

/// The session selector.
pub struct SessionPanel {
    current: Vec<SessionInfo>,
    all: Option<Vec<SessionInfo>>,
    load_all: Box<dyn Fn() -> Vec<SessionInfo>>,
    scope: Scope,
    query: String,
    selected: usize,
    mode: Mode,
    hints: String,
}

impl SessionPanel {
    /// A selector over this folder's `current` sessions; `load_all` lists
    /// every session when the user switches scope.
    pub fn new(
        current: Vec<SessionInfo>,
        load_all: Box<dyn Fn() -> Vec<SessionInfo>>,
        kb: &Keybindings,
    ) -> Self {
        let hints = t!(
            "pi.tui.resume.keys",
            scope = kb.keys_text("tui.input.tab"),
            rename = kb.keys_text("app.session.rename"),
            delete = kb.keys_text("app.session.delete"),
        );
        SessionPanel {
            current,
            all: None,
            load_all,
            scope: Scope::Current,
            query: String::new(),
            selected: 0,
            mode: Mode::List,
            hints,
        }
    }

    /// The scope shown.
    pub fn scope(&self) -> Scope {
        self.scope
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

    /// Indexes into `sessions()` matching the search, best first.
    fn filtered(&self) -> Vec<usize> {
        let sessions = self.sessions();
        if self.query.trim().is_empty() {
            return (0..sessions.len()).collect();
        }
        let mut scored: Vec<(usize, usize)> = sessions
            .iter()
            .enumerate()
            .filter_map(|(i, s)| {
                let hay = format!(
                    "{} {} {}",
                    s.name.as_deref().unwrap_or(""),
                    s.first_message,
                    s.cwd
                );
                let exact = hay.to_lowercase().contains(&self.query.to_lowercase());
                let all_text = s
                    .all_messages_text
                    .to_lowercase()
                    .contains(&self.query.to_lowercase());
                if exact || all_text {
                    Some((0, i))
                } else {
                    fuzzy_score(&self.query, &hay).map(|score| (score + 1, i))
                }
            })
            .collect();
        scored.sort();
        scored.into_iter().map(|(_, i)| i).collect()
    }

    fn highlighted(&self) -> Option<&SessionInfo> {
        let filtered = self.filtered();
        filtered
            .get(self.selected.min(filtered.len().saturating_sub(1)))
            .map(|&i| &self.sessions()[i])
    }

    fn title(s: &SessionInfo) -> String {
        let text = s.name.clone().unwrap_or_else(|| s.first_message.clone());
        sanitize(&text).replace('\n', " ")
    }
}

impl Panel for SessionPanel {
    fn handle_key(&mut self, key: &KeyEvent, kb: &Keybindings) -> PanelOutcome {
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
                return PanelOutcome::Open;
            }
            Mode::Rename(path, mut name) => {
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
                match key.code {
                    KeyCode::Backspace => {
                        name.pop();
                    }
                    KeyCode::Char(c)
                        if !key
                            .modifiers
                            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
                    {
                        name.push(c)
                    }
                    _ => {}
                }
                self.mode = Mode::Rename(path, name);
                return PanelOutcome::Open;
            }
            Mode::List => {}
        }
        let n = self.filtered().len();
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
                self.all = Some((self.load_all)());
            }
            self.selected = 0;
        } else if kb.matches("app.session.rename", key) {
            if let Some(s) = self.highlighted() {
                self.mode = Mode::Rename(s.path.clone(), s.name.clone().unwrap_or_default());
            }
        } else if kb.matches("app.session.delete", key) {
            if let Some(s) = self.highlighted() {
                self.mode = Mode::ConfirmDelete(s.path.clone());
            }
        } else if kb.matches("tui.select.up", key) && n > 0 {
            self.selected = (self.selected + n - 1) % n;
        } else if kb.matches("tui.select.down", key) && n > 0 {
            self.selected = (self.selected + 1) % n;
        } else if kb.matches("tui.select.pageUp", key) {
            self.selected = self.selected.saturating_sub(VISIBLE);
        } else if kb.matches("tui.select.pageDown", key) && n > 0 {
            self.selected = (self.selected + VISIBLE).min(n - 1);
        } else if key.code == KeyCode::Backspace {
            self.query.pop();
            self.selected = 0;
        } else if let KeyCode::Char(c) = key.code
            && !key
                .modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        {
            self.query.push(c);
            self.selected = 0;
        }
        PanelOutcome::Open
    }

    fn lines(&self, theme: &Theme, max: usize) -> Vec<Line<'static>> {
        let (title, scope) = match self.scope {
            Scope::Current => (
                t!("pi.tui.resume.title_current"),
                t!("pi.tui.resume.scope_current"),
            ),
            Scope::All => (t!("pi.tui.resume.title_all"), t!("pi.tui.resume.scope_all")),
        };
        let room = max.saturating_sub(width(&title) + 2);
        let mut head = vec![Span::styled(title, theme.bold("accent"))];
        if room >= width(&scope) + 2 {
            head.push(Span::styled(
                format!("  {}", truncate(&scope, room, "")),
                theme.fg("muted"),
            ));
        }
        let mut out = vec![
            Line::from(head),
            Line::from(vec![
                Span::styled("> ", theme.fg("accent")),
                Span::raw(truncate(&self.query, max.saturating_sub(2), "…")),
            ]),
        ];
        let filtered = self.filtered();
        let sessions = self.sessions();
        let selected = self.selected.min(filtered.len().saturating_sub(1));
        let start = selected.saturating_sub(VISIBLE - 1);
        for (pos, &i) in filtered.iter().enumerate().skip(start).take(VISIBLE) {
            let s = &sessions[i];
            let chosen = pos == selected;
            let deleting = matches!(&self.mode, Mode::ConfirmDelete(p) if *p == s.path);
            let marker = if chosen { "→ " } else { "  " };
            let mut detail = t!(
                "pi.tui.resume.detail",
                date = s.modified.format("%Y-%m-%d %H:%M").to_string(),
                count = s.message_count
            );
            if self.scope == Scope::All && !s.cwd.is_empty() {
                detail = format!(
                    "{} · {detail}",
                    crate::ui_kit::text::tilde_path(std::path::Path::new(&s.cwd))
                );
            }
            let label = truncate(
                &format!("{marker}{}", Self::title(s)),
                max.saturating_sub(2),
                "…",
            );
            let room = max.saturating_sub(width(&label) + 1);
            let style = if deleting {
                theme.fg("error")
            } else if chosen {
                theme.fg("accent")
            } else {
                ratatui::style::Style::default()
            };
            let mut spans = vec![Span::styled(label, style)];
            if room > 3 {
                spans.push(Span::styled(
                    format!(" {}", truncate(&detail, room, "…")),
                    theme.fg("muted"),
                ));
            }
            out.push(Line::from(spans));
        }
        if filtered.is_empty() {
            let text = match self.scope {
                Scope::Current => t!("pi.tui.resume.empty_current"),
                Scope::All => t!("pi.tui.resume.empty_all"),
            };
            out.push(Line::from(Span::styled(
                truncate(&text, max, "…"),
                theme.fg("muted"),
            )));
        }
        let footer = match &self.mode {
            Mode::List => Span::styled(
                truncate(
                    &format!("({}/{})  {}", selected + 1, filtered.len(), self.hints),
                    max,
                    "…",
                ),
                theme.fg("dim"),
            ),
            Mode::ConfirmDelete(_) => Span::styled(
                truncate(&t!("pi.tui.resume.confirm_delete"), max, "…"),
                theme.fg("error"),
            ),
            Mode::Rename(_, name) => Span::styled(
                truncate(&t!("pi.tui.resume.rename", name = name), max, "…"),
                theme.fg("accent"),
            ),
        };
        out.push(Line::from(footer));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Utc;

    fn info(name: &str, cwd: &str) -> SessionInfo {
        SessionInfo {
            path: PathBuf::from(format!("/s/{name}.jsonl")),
            id: name.into(),
            cwd: cwd.into(),
            name: None,
            parent_session_path: None,
            created: Utc::now(),
            modified: Utc::now(),
            message_count: 2,
            first_message: format!("talk about {name}"),
            all_messages_text: format!("talk about {name} details-{name}"),
        }
    }

    fn press(p: &mut SessionPanel, code: KeyCode, mods: KeyModifiers) -> PanelOutcome {
        p.handle_key(&KeyEvent::new(code, mods), &Keybindings::default())
    }

    fn panel() -> SessionPanel {
        SessionPanel::new(
            vec![info("alpha", "/p"), info("beta", "/p")],
            Box::new(|| vec![info("alpha", "/p"), info("beta", "/p"), info("gamma", "/q")]),
            &Keybindings::default(),
        )
    }

    fn text(p: &SessionPanel) -> String {
        p.lines(&Theme::plain(), 120)
            .iter()
            .map(|l| {
                l.spans
                    .iter()
                    .map(|s| s.content.as_ref())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn tab_switches_to_all_folders_and_search_finds_message_text() {
        let mut p = panel();
        assert!(!text(&p).contains("gamma"));
        press(&mut p, KeyCode::Tab, KeyModifiers::NONE);
        assert_eq!(p.scope(), Scope::All);
        assert!(text(&p).contains("talk about gamma"), "{}", text(&p));
        for c in "details-gamma".chars() {
            press(&mut p, KeyCode::Char(c), KeyModifiers::NONE);
        }
        assert_eq!(
            press(&mut p, KeyCode::Enter, KeyModifiers::NONE),
            PanelOutcome::Done(PanelChange::ResumeSession {
                path: "/s/gamma.jsonl".into(),
                cwd: "/q".into()
            })
        );
    }

    #[test]
    fn delete_needs_a_confirmation_and_escape_keeps_the_session() {
        let mut p = panel();
        press(&mut p, KeyCode::Char('d'), KeyModifiers::CONTROL);
        assert!(text(&p).contains("Delete session?"));
        assert_eq!(
            press(&mut p, KeyCode::Esc, KeyModifiers::NONE),
            PanelOutcome::Open
        );
        assert!(text(&p).contains("talk about alpha"));
        press(&mut p, KeyCode::Char('d'), KeyModifiers::CONTROL);
        assert_eq!(
            press(&mut p, KeyCode::Enter, KeyModifiers::NONE),
            PanelOutcome::Changed(PanelChange::DeleteSession("/s/alpha.jsonl".into()))
        );
        assert!(!text(&p).contains("talk about alpha"));
    }

    #[test]
    fn rename_edits_the_name_in_place() {
        let mut p = panel();
        press(&mut p, KeyCode::Down, KeyModifiers::NONE);
        press(&mut p, KeyCode::Char('r'), KeyModifiers::CONTROL);
        for c in "Beta work".chars() {
            press(&mut p, KeyCode::Char(c), KeyModifiers::NONE);
        }
        assert_eq!(
            press(&mut p, KeyCode::Enter, KeyModifiers::NONE),
            PanelOutcome::Changed(PanelChange::RenameSession(
                "/s/beta.jsonl".into(),
                "Beta work".into()
            ))
        );
        assert!(text(&p).contains("→ Beta work"), "{}", text(&p));
    }
}
