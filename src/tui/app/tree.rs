//! What `/tree`, `/fork`, `/clone` and `/compact` do on the UI side: open
//! the tree and fork selectors, ask whether to summarize the branch left,
//! and send the choice to the conversation task.

use crate::t;

use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::text::Line;
use tokio_util::sync::CancellationToken;

use crate::tui::app::session_task::{SessionCommand, UiEvent};
use crate::tui::app::session_tree_task::TreeCommand;
use crate::tui::app::{App, Overlay};
use crate::tui::panels::fork_selector::{ForkOutcome, ForkSelector};
use crate::tui::panels::selector::{Selector, SelectorItem, SelectorOutcome};
use crate::tui::panels::tree_selector::{TreeOutcome, TreeSelector};
use crate::tui::transcript::NoticeKind;
use crate::ui_kit::theme::Theme;

impl App {
    /// Send a tree request; the UI is busy until the task answers.
    pub(super) fn request_tree(&mut self, command: TreeCommand) {
        self.busy_since = Some(Instant::now());
        let _ = self.commands.send(SessionCommand::Tree(command));
    }

    /// `/compact [instructions]` (Esc aborts it).
    pub(super) fn start_compaction(&mut self, instructions: String) {
        let signal = CancellationToken::new();
        self.set_signal(signal.clone());
        self.request_tree(TreeCommand::Compact {
            instructions,
            signal,
        });
    }

    /// Handle a key when a tree, fork or summary overlay is open; returns
    /// false for other overlays (and no overlay).
    pub(super) fn handle_tree_key(&mut self, key: &KeyEvent) -> bool {
        match &mut self.overlay {
            Some(Overlay::Tree(tree)) => {
                match tree.handle_key(key, &self.keys) {
                    TreeOutcome::Open => {}
                    TreeOutcome::Cancelled => self.overlay = None,
                    TreeOutcome::Label(id, label) => {
                        let _ = self
                            .commands
                            .send(SessionCommand::Tree(TreeCommand::Label { id, label }));
                    }
                    TreeOutcome::Picked(id) => self.tree_picked(id),
                }
                true
            }
            Some(Overlay::ForkSelector(selector, ids)) => {
                match selector.handle_key(key, &self.keys) {
                    ForkOutcome::Open => {}
                    ForkOutcome::Cancelled => self.overlay = None,
                    ForkOutcome::Picked(i) => {
                        let id = ids.get(i).cloned();
                        self.overlay = None;
                        if let Some(id) = id {
                            self.request_tree(TreeCommand::Fork(id));
                        }
                    }
                }
                true
            }
            Some(Overlay::SummaryChoice(selector, target)) => {
                match selector.handle_key(key, &self.keys) {
                    SelectorOutcome::Open => {}
                    SelectorOutcome::Cancelled => self.overlay = None,
                    SelectorOutcome::Picked(2) => {
                        self.overlay = Some(Overlay::SummaryFocus(target.clone(), String::new()));
                    }
                    SelectorOutcome::Picked(i) => {
                        let target = target.clone();
                        self.overlay = None;
                        self.navigate(target, (i == 1).then(String::new));
                    }
                }
                true
            }
            Some(Overlay::SummaryFocus(target, text)) => {
                match key.code {
                    KeyCode::Esc => self.overlay = None,
                    KeyCode::Enter => {
                        let (target, focus) = (target.clone(), text.trim().to_string());
                        self.overlay = None;
                        self.navigate(target, Some(focus));
                    }
                    KeyCode::Backspace => {
                        text.pop();
                    }
                    KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
                        text.push(c)
                    }
                    _ => {}
                }
                true
            }
            _ => false,
        }
    }

    fn tree_picked(&mut self, id: String) {
        // A message whose run changed files: offer to bring the files back too.
        if let Some(Overlay::Tree(tree)) = &self.overlay
            && tree.files_of(&id) > 0
        {
            self.overlay = None;
            self.request_tree(TreeCommand::Rewind(Some(id)));
            return;
        }
        if self.tree.skip_summary_prompt {
            self.overlay = None;
            self.navigate(id, None);
            return;
        }
        let items = [
            "pi.tui.tree.summary.none",
            "pi.tui.tree.summary.plain",
            "pi.tui.tree.summary.custom",
        ]
        .iter()
        .map(|key| SelectorItem {
            label: crate::i18n::t(key, &[]),
            detail: String::new(),
        })
        .collect();
        self.overlay = Some(Overlay::SummaryChoice(
            Selector::keyed("pi.tui.tree.summary.title", items, 0),
            id,
        ));
    }

    /// Go to `target`; `summary` is `None` for no branch summary, else its
    /// extra focus (empty for none).
    fn navigate(&mut self, target: String, summary: Option<String>) {
        let signal = CancellationToken::new();
        self.set_signal(signal.clone());
        if summary.is_some() {
            self.transcript
                .notice(t!("pi.tui.tree.summarizing"), NoticeKind::Info);
        }
        self.request_tree(TreeCommand::Navigate {
            target,
            summarize: summary.is_some(),
            instructions: summary.filter(|s| !s.is_empty()),
            reserve_tokens: self.tree.summary_reserve_tokens,
            signal,
        });
    }

    /// Tree-related answers from the conversation task.
    pub(super) fn handle_tree_event(&mut self, event: UiEvent) {
        match event {
            UiEvent::Notice(text) => self.transcript.notice(text, NoticeKind::Info),
            UiEvent::EditorText(text) => self.editor.set_text(&text),
            UiEvent::Tree(data) => {
                if data.rows.is_empty() {
                    self.transcript
                        .notice(t!("pi.tui.tree.no_entries"), NoticeKind::Info);
                } else {
                    // pi shows half the terminal's rows of the tree at once.
                    let rows = if self.screen_rows == 0 {
                        24
                    } else {
                        self.screen_rows
                    };
                    let tree = TreeSelector::new(*data, self.tree.filter)
                        .with_height(rows as usize)
                        .with_keys(&self.keys);
                    self.overlay = Some(Overlay::Tree(tree));
                }
            }
            UiEvent::ForkMessages(messages) => {
                if messages.is_empty() {
                    self.transcript
                        .notice(t!("pi.tui.fork.empty"), NoticeKind::Info);
                    return;
                }
                let (ids, labels): (Vec<String>, Vec<String>) = messages
                    .into_iter()
                    .map(|(id, text)| (id, fork_label(&text)))
                    .unzip();
                let selector = ForkSelector::new(labels);
                self.overlay = Some(Overlay::ForkSelector(selector, ids));
            }
            _ => {}
        }
    }
}

/// A message as `/fork` lists it: on one line (line breaks and other control
/// characters become spaces, runs of spaces stay), trimmed.
fn fork_label(text: &str) -> String {
    let line: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    line.trim().to_string()
}

/// The branch-summary focus prompt.
pub(super) fn focus_lines(text: &str, theme: &Theme, width: usize) -> Vec<Line<'static>> {
    crate::tui::panels::selector::title_and_field(
        &t!("pi.tui.tree.summary.focus"),
        text,
        theme,
        width,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::agent_loop::AgentQueues;
    use crate::tui::chrome::FooterInfo;
    use crate::ui_kit::keybindings::Keybindings;

    #[test]
    fn a_fork_label_is_one_line_with_its_spaces_kept() {
        assert_eq!(fork_label("  fix it\nnow:   `a`\r\n"), "fix it now:   `a`");
    }

    #[test]
    fn picking_an_entry_asks_for_a_summary_and_sends_the_focus() {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let mut app = App::new(
            tx,
            AgentQueues::default(),
            Keybindings::default(),
            Theme::plain(),
            FooterInfo::default(),
        );
        app.tree_picked("abcd1234".into());
        assert!(matches!(app.overlay, Some(Overlay::SummaryChoice(..))));
        let press = |app: &mut App, code: KeyCode| {
            app.handle_tree_key(&KeyEvent::new(code, KeyModifiers::NONE));
        };
        press(&mut app, KeyCode::Down);
        press(&mut app, KeyCode::Down);
        press(&mut app, KeyCode::Enter);
        assert!(matches!(app.overlay, Some(Overlay::SummaryFocus(..))));
        for c in "tests".chars() {
            press(&mut app, KeyCode::Char(c));
        }
        press(&mut app, KeyCode::Enter);
        assert!(app.overlay.is_none());
        let Ok(SessionCommand::Tree(TreeCommand::Navigate {
            target,
            summarize,
            instructions,
            ..
        })) = rx.try_recv()
        else {
            panic!("navigate expected");
        };
        assert_eq!(target, "abcd1234");
        assert!(summarize);
        assert_eq!(instructions.as_deref(), Some("tests"));
    }
}
