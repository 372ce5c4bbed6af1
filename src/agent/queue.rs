//! Steering and follow-up queues, shared between the running loop and whoever
//! types while it runs (the TUI, RPC clients).

use crate::sync::LockExt;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use crate::ai::types::Message;
pub use crate::protocol::QueueMode;

/// A thread-safe message queue with a dequeue mode.
#[derive(Clone, Default)]
pub struct MessageQueue {
    inner: Arc<Mutex<VecDeque<Message>>>,
    mode: Arc<Mutex<QueueMode>>,
}

impl MessageQueue {
    /// An empty queue with the given mode.
    pub fn new(mode: QueueMode) -> Self {
        MessageQueue {
            inner: Default::default(),
            mode: Arc::new(Mutex::new(mode)),
        }
    }

    /// Change the dequeue mode.
    pub fn set_mode(&self, mode: QueueMode) {
        *self.mode.locked() = mode;
    }

    /// The current dequeue mode.
    pub fn mode(&self) -> QueueMode {
        *self.mode.locked()
    }

    /// Add a message at the back.
    pub fn push(&self, m: Message) {
        self.inner.locked().push_back(m);
    }

    /// Take messages according to the mode.
    pub fn poll(&self) -> Vec<Message> {
        let mut q = self.inner.locked();
        match *self.mode.locked() {
            QueueMode::All => q.drain(..).collect(),
            QueueMode::OneAtATime => q.pop_front().into_iter().collect(),
        }
    }

    /// Take everything (used on abort to restore queued text).
    pub fn drain(&self) -> Vec<Message> {
        self.inner.locked().drain(..).collect()
    }

    /// Number of queued messages.
    pub fn len(&self) -> usize {
        self.inner.locked().len()
    }

    /// True when nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The text of each queued message.
    pub fn texts(&self) -> Vec<String> {
        self.inner
            .locked()
            .iter()
            .map(|m| match m {
                Message::User(u) => u.content.text(),
                Message::Custom(c) => c.content.text(),
                other => other.role().to_string(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::types::UserMessage;

    #[test]
    fn modes_take_one_or_all() {
        let q = MessageQueue::new(QueueMode::OneAtATime);
        q.push(Message::User(UserMessage::text("a")));
        q.push(Message::User(UserMessage::text("b")));
        assert_eq!(q.poll().len(), 1);
        assert_eq!(q.texts(), vec!["b"]);
        q.set_mode(QueueMode::All);
        q.push(Message::User(UserMessage::text("c")));
        assert_eq!(q.poll().len(), 2);
        assert!(q.is_empty());
    }
}
