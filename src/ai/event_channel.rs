//! The channel between a provider's [`MessageBuilder`](crate::ai::events::MessageBuilder)
//! and the [`AssistantStream`](crate::ai::events::AssistantStream) that reads it.
//!
//! Deltas travel light: a text, thinking or tool-argument fragment is queued as just
//! its block index and text, never with a copy of the whole message, and fragments of
//! the same block that the reader has not taken yet are joined into one. The reader
//! rebuilds the partial message from the fragments it takes, so a long answer costs
//! one copy of the message per read, not per fragment, and a reader that falls behind
//! gets fewer, larger deltas whose text is still the exact concatenation.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::Notify;

use crate::ai::events::AssistantMessageEvent;

/// Which kind of block a light fragment extends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeltaKind {
    /// Text of a text block.
    Text,
    /// Text of a thinking block.
    Thinking,
    /// Raw JSON of a tool call's arguments.
    ToolCall,
}

/// One queued item.
#[derive(Debug)]
pub enum Queued {
    /// A complete event (carrying the builder's message as it was).
    Event(Box<AssistantMessageEvent>),
    /// Fragments of one block, joined in order.
    Delta {
        /// Block kind.
        kind: DeltaKind,
        /// Content index of the block.
        index: usize,
        /// The joined fragments.
        text: String,
    },
}

#[derive(Default)]
struct Shared {
    queue: VecDeque<Queued>,
    closed: bool,
}

struct Channel {
    shared: Mutex<Shared>,
    notify: Notify,
}

impl Channel {
    fn lock(&self) -> MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A new channel.
pub fn event_channel() -> (EventSender, EventReceiver) {
    let channel = Arc::new(Channel {
        shared: Mutex::new(Shared::default()),
        notify: Notify::new(),
    });
    (
        EventSender {
            channel: channel.clone(),
        },
        EventReceiver { channel },
    )
}

/// The writing end; dropping it ends the stream.
pub struct EventSender {
    channel: Arc<Channel>,
}

impl EventSender {
    /// Queue a complete event.
    pub fn send_event(&self, event: AssistantMessageEvent) {
        self.channel
            .lock()
            .queue
            .push_back(Queued::Event(Box::new(event)));
        self.channel.notify.notify_one();
    }

    /// Queue a fragment of block `index`, joined to the previous one when that
    /// is for the same block and not taken yet.
    pub fn send_delta(&self, kind: DeltaKind, index: usize, fragment: &str) {
        {
            let mut shared = self.channel.lock();
            match shared.queue.back_mut() {
                Some(Queued::Delta {
                    kind: k,
                    index: i,
                    text,
                }) if *k == kind && *i == index => text.push_str(fragment),
                _ => shared.queue.push_back(Queued::Delta {
                    kind,
                    index,
                    text: fragment.to_string(),
                }),
            }
        }
        self.channel.notify.notify_one();
    }
}

impl Drop for EventSender {
    fn drop(&mut self) {
        self.channel.lock().closed = true;
        self.channel.notify.notify_one();
    }
}

/// The reading end.
pub struct EventReceiver {
    channel: Arc<Channel>,
}

impl EventReceiver {
    /// The next item, waiting for one; `None` once the sender is gone and the
    /// queue is empty.
    pub async fn recv(&mut self) -> Option<Queued> {
        loop {
            let notified = self.channel.notify.notified();
            {
                let mut shared = self.channel.lock();
                if let Some(item) = shared.queue.pop_front() {
                    return Some(item);
                }
                if shared.closed {
                    return None;
                }
            }
            notified.await;
        }
    }

    /// The next item if one is queued.
    pub fn try_recv(&mut self) -> Option<Queued> {
        self.channel.lock().queue.pop_front()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn fragments_of_one_block_join_until_taken() {
        let (tx, mut rx) = event_channel();
        tx.send_delta(DeltaKind::Text, 0, "Hel");
        tx.send_delta(DeltaKind::Text, 0, "lo");
        tx.send_delta(DeltaKind::Thinking, 1, "hm");
        tx.send_delta(DeltaKind::Text, 0, "!");
        let joined = |item: Option<Queued>| match item {
            Some(Queued::Delta { kind, index, text }) => (kind, index, text),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            joined(rx.recv().await),
            (DeltaKind::Text, 0, "Hello".into())
        );
        assert_eq!(
            joined(rx.recv().await),
            (DeltaKind::Thinking, 1, "hm".into())
        );
        assert_eq!(joined(rx.recv().await), (DeltaKind::Text, 0, "!".into()));
        drop(tx);
        assert!(rx.recv().await.is_none());
    }

    #[tokio::test]
    async fn a_waiting_reader_wakes_for_each_send() {
        let (tx, mut rx) = event_channel();
        let reader = tokio::spawn(async move {
            let mut n = 0;
            while rx.recv().await.is_some() {
                n += 1;
            }
            n
        });
        tokio::task::yield_now().await;
        tx.send_delta(DeltaKind::Text, 0, "a");
        drop(tx);
        assert!(reader.await.unwrap() >= 1);
    }
}
