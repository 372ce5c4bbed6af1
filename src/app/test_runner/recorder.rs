//! The simulated user's side of `ctx.ui`: every request an extension makes is recorded
//! (with the extension's file and line), dialogs are answered from a queue the test filled
//! in advance, and whatever changes the screen is kept for drawing snapshots.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use crate::agent::events::AgentEvent;
use crate::lua::ui::ExtensionUi;
use crate::sync::LockExt;

/// Something that changed what the terminal would show, in the order it happened.
#[derive(Clone)]
pub enum Feed {
    /// An event of the agent loop (messages, tool rows).
    Agent(Box<AgentEvent>),
    /// A `ctx.ui` chrome request (notify, setStatus, setWidget, setTitle...).
    Ui(Value),
    /// A key pressed by the simulated user that no extension shortcut took.
    Key(crossterm::event::KeyEvent),
}

/// An answer queued for the next dialog: its method (`select`, `confirm`, `input`,
/// `editor`, or `any` for a cancel) and the reply sent to the extension.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The dialog this answer is meant for.
    pub method: String,
    /// The reply (`{"value": …}`, `{"confirmed": …}` or `{"cancelled": true}`).
    pub reply: Value,
}

#[derive(Default)]
struct State {
    calls: Vec<Value>,
    answers: VecDeque<Answer>,
    feed: Vec<Feed>,
    mistakes: Vec<String>,
}

/// An [`ExtensionUi`] that records; clones share one record.
#[derive(Clone, Default)]
pub struct Recorder {
    state: Arc<Mutex<State>>,
}

impl Recorder {
    /// Queue the answer of a dialog still to come.
    pub fn queue_answer(&self, answer: Answer) {
        self.state.locked().answers.push_back(answer);
    }

    /// Every `ctx.ui` request so far, dialogs included (a dialog's record has `answer`).
    pub fn calls(&self) -> Vec<Value> {
        self.state.locked().calls.clone()
    }

    /// Keep an agent event for the screen.
    pub fn agent_event(&self, event: &AgentEvent) {
        self.state
            .locked()
            .feed
            .push(Feed::Agent(Box::new(event.clone())));
    }

    /// Keep a key press for the screen.
    pub fn key(&self, key: crossterm::event::KeyEvent) {
        self.state.locked().feed.push(Feed::Key(key));
    }

    /// What changed the screen, in order.
    pub fn feed(&self) -> Vec<Feed> {
        self.state.locked().feed.clone()
    }

    /// Answers queued but never asked for, and answers that met another kind of dialog.
    pub fn problems(&self) -> Vec<String> {
        let state = self.state.locked();
        let mut out = state.mistakes.clone();
        for answer in &state.answers {
            out.push(crate::t!(
                "pi.test.unused_answer",
                method = answer.method.as_str()
            ));
        }
        out
    }
}

impl ExtensionUi for Recorder {
    fn dialog(&self, request: Value, _closed: CancellationToken) -> oneshot::Receiver<Value> {
        let (tx, rx) = oneshot::channel();
        let method = request["method"].as_str().unwrap_or_default().to_string();
        let mut state = self.state.locked();
        let mut record = request.clone();
        match state.answers.pop_front() {
            Some(answer) if answer.method == method || answer.method == "any" => {
                record["answer"] = answer.reply.clone();
                let _ = tx.send(answer.reply);
            }
            Some(answer) => {
                state.mistakes.push(crate::t!(
                    "pi.test.wrong_answer",
                    expected = answer.method.as_str(),
                    method = method.as_str()
                ));
                record["answer"] = json!({"cancelled": true});
                let _ = tx.send(json!({"cancelled": true}));
            }
            // No answer queued: the dialog is dismissed, as a user pressing Escape would.
            None => {
                record["answer"] = json!({"cancelled": true});
                let _ = tx.send(json!({"cancelled": true}));
            }
        }
        state.calls.push(record);
        rx
    }

    fn fire(&self, request: Value) {
        let mut state = self.state.locked();
        state.calls.push(request.clone());
        state.feed.push(Feed::Ui(request));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dialogs_take_queued_answers_in_order_and_a_mismatch_is_reported() {
        let ui = Recorder::default();
        ui.queue_answer(Answer {
            method: "confirm".into(),
            reply: json!({"confirmed": false}),
        });
        ui.queue_answer(Answer {
            method: "select".into(),
            reply: json!({"value": "b"}),
        });
        let mut first = ui.dialog(json!({"method": "confirm"}), CancellationToken::new());
        assert_eq!(first.try_recv().unwrap(), json!({"confirmed": false}));
        let mut second = ui.dialog(json!({"method": "input"}), CancellationToken::new());
        assert_eq!(second.try_recv().unwrap(), json!({"cancelled": true}));
        assert_eq!(ui.problems().len(), 1);
        assert_eq!(ui.calls().len(), 2);
        assert_eq!(ui.calls()[0]["answer"], json!({"confirmed": false}));
    }
}
