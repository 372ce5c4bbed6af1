//! What `/tree`, `/fork`, `/clone` and `/compact` do on the UI side: open
//! the tree and fork selectors, ask whether to summarize the branch left,
//! and send the choice to the conversation task.

use std::time::Instant;

use crossterm::event::KeyEvent;
use tokio_util::sync::CancellationToken;

use super::app::{App, Overlay};
use super::selector::{Selector, SelectorItem, SelectorOutcome};
use super::session_task::{SessionCommand, UiEvent};
use super::session_tree_task::TreeCommand;
use super::transcript::NoticeKind;
use super::tree_selector::{TreeOutcome, TreeSelector};

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
                    SelectorOutcome::Open => {}
                    SelectorOutcome::Cancelled => self.overlay = None,
                    SelectorOutcome::Picked(i) => {
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
                    SelectorOutcome::Picked(i) => {
                        let target = target.clone();
                        self.overlay = None;
                        self.navigate(target, i == 1);
                    }
                }
                true
            }
            _ => false,
        }
    }

    fn tree_picked(&mut self, id: String) {
        if self.tree.skip_summary_prompt {
            self.overlay = None;
            self.navigate(id, false);
            return;
        }
        let items = ["No summary", "Summarize the branch being left"]
            .iter()
            .map(|label| SelectorItem {
                label: label.to_string(),
                detail: String::new(),
            })
            .collect();
        self.overlay = Some(Overlay::SummaryChoice(
            Selector::new("Summarize the branch you are leaving?", items, 0),
            id,
        ));
    }

    fn navigate(&mut self, target: String, summarize: bool) {
        let signal = CancellationToken::new();
        self.set_signal(signal.clone());
        if summarize {
            self.transcript
                .notice("Summarizing the branch…", NoticeKind::Info);
        }
        self.request_tree(TreeCommand::Navigate {
            target,
            summarize,
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
                        .notice("No entries in this session yet.", NoticeKind::Info);
                } else {
                    self.overlay = Some(Overlay::Tree(TreeSelector::new(*data, self.tree.filter)));
                }
            }
            UiEvent::ForkMessages(messages) => {
                if messages.is_empty() {
                    self.transcript
                        .notice("No messages to fork from.", NoticeKind::Info);
                    return;
                }
                let initial = messages.len() - 1;
                let (ids, items): (Vec<String>, Vec<SelectorItem>) = messages
                    .into_iter()
                    .map(|(id, text)| {
                        let label = text.split_whitespace().collect::<Vec<_>>().join(" ");
                        (
                            id,
                            SelectorItem {
                                label,
                                detail: String::new(),
                            },
                        )
                    })
                    .unzip();
                self.overlay = Some(Overlay::ForkSelector(
                    Selector::new("Fork from message", items, initial),
                    ids,
                ));
            }
            _ => {}
        }
    }
}
