//! The messages the agent works on. Messages of this run are held in memory; those of a
//! resumed session may stay in its file, each read back when it is asked for, with the
//! few facts the screen and the statistics need (role, tool calls, usage) kept beside
//! its place. A long session then costs memory for its index, not for its history.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use serde::Serialize;
use serde::ser::SerializeSeq;

use crate::ai::types::{ContentBlock, Message, Usage, UserMessage};

/// Messages read from the file per thread at least, when many are read at once.
const MESSAGES_PER_THREAD: usize = 64;

/// Reads a message kept in a file back from its place.
pub trait MessageSource: Send + Sync {
    /// The message whose line is `len` bytes at `offset`; `None` when it cannot be read
    /// (the file was cut short by another program).
    fn read(&self, offset: u64, len: u32) -> Option<Message>;
}

/// What is known of a message without reading it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MessageFacts {
    /// The role as serialised (`user`, `assistant`, …).
    pub role: &'static str,
    /// Tool calls in an assistant message.
    pub tool_calls: usize,
    /// An assistant message's usage.
    pub usage: Option<Arc<Usage>>,
}

impl MessageFacts {
    /// The facts of `message`.
    pub fn of(message: &Message) -> Self {
        let (tool_calls, usage) = match message {
            Message::Assistant(a) => (
                a.content
                    .iter()
                    .filter(|b| matches!(b, ContentBlock::ToolCall(_)))
                    .count(),
                Some(Arc::new(a.usage.clone())),
            ),
            _ => (0, None),
        };
        MessageFacts {
            role: message.role(),
            tool_calls,
            usage,
        }
    }
}

#[derive(Clone)]
enum Slot {
    Held(Arc<Message>),
    Stored {
        offset: u64,
        len: u32,
        facts: MessageFacts,
    },
}

/// The conversation: messages in order, each held or left in the session file.
/// Clones share the held messages.
#[derive(Clone, Default)]
pub struct Conversation {
    slots: Vec<Slot>,
    source: Option<Arc<dyn MessageSource>>,
}

/// A message left in a file: where it is and what is known of it.
#[derive(Debug, Clone)]
pub struct StoredMessage {
    /// Offset of its line.
    pub offset: u64,
    /// Length of its line.
    pub len: u32,
    /// Its role, tool calls and usage.
    pub facts: MessageFacts,
}

/// Where a message of a conversation is: left in the session file, or held.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Origin<'a> {
    /// Its line in the session file: offset and length.
    File {
        /// Offset of the line.
        offset: u64,
        /// Length of the line.
        len: u32,
    },
    /// In memory.
    Held(&'a Message),
}

/// One message of a conversation being assembled: held, or left in the file.
#[derive(Debug)]
pub enum Part {
    /// A message in memory.
    Held(Box<Message>),
    /// A message left in the file.
    Stored(StoredMessage),
}

impl Conversation {
    /// An empty conversation.
    pub fn new() -> Self {
        Self::default()
    }

    /// A conversation of `parts`; stored ones are read from `source`.
    pub fn assemble(parts: Vec<Part>, source: Arc<dyn MessageSource>) -> Self {
        let slots = parts
            .into_iter()
            .map(|part| match part {
                Part::Held(message) => Slot::Held(Arc::from(message)),
                Part::Stored(s) => Slot::Stored {
                    offset: s.offset,
                    len: s.len,
                    facts: s.facts,
                },
            })
            .collect();
        Conversation {
            slots,
            source: Some(source),
        }
    }

    /// How many messages there are.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// How many messages are held in memory (the rest are in the file).
    pub fn held(&self) -> usize {
        self.slots
            .iter()
            .filter(|s| matches!(s, Slot::Held(_)))
            .count()
    }

    /// Append a message.
    pub fn push(&mut self, message: Message) {
        self.slots.push(Slot::Held(Arc::new(message)));
    }

    /// Put `messages` before the first message.
    pub fn prepend(&mut self, messages: Vec<Message>) {
        let held = messages.into_iter().map(|m| Slot::Held(Arc::new(m)));
        self.slots.splice(0..0, held);
    }

    /// Remove and return the last message.
    pub fn pop(&mut self) -> Option<Message> {
        let slot = self.slots.pop()?;
        Some(self.own(slot))
    }

    /// Keep the first `len` messages.
    pub fn truncate(&mut self, len: usize) {
        self.slots.truncate(len);
    }

    /// The message at `index`.
    pub fn get(&self, index: usize) -> Option<Cow<'_, Message>> {
        self.slots.get(index).map(|slot| self.read(slot))
    }

    /// The first message.
    pub fn first(&self) -> Option<Cow<'_, Message>> {
        self.get(0)
    }

    /// The last message.
    pub fn last(&self) -> Option<Cow<'_, Message>> {
        self.slots.last().map(|slot| self.read(slot))
    }

    /// The last message, to change in place (read into memory when it was in the file).
    pub fn last_mut(&mut self) -> Option<&mut Message> {
        let last = self.slots.len().checked_sub(1)?;
        if let Slot::Stored { .. } = &self.slots[last] {
            let message = self.read(&self.slots[last]).into_owned();
            self.slots[last] = Slot::Held(Arc::new(message));
        }
        match &mut self.slots[last] {
            Slot::Held(message) => Some(Arc::make_mut(message)),
            Slot::Stored { .. } => None,
        }
    }

    /// The facts of the message at `index`, without reading it.
    pub fn facts(&self, index: usize) -> Cow<'_, MessageFacts> {
        match &self.slots[index] {
            Slot::Held(message) => Cow::Owned(MessageFacts::of(message)),
            Slot::Stored { facts, .. } => Cow::Borrowed(facts),
        }
    }

    /// Where the message at `index` is.
    pub fn origin(&self, index: usize) -> Option<Origin<'_>> {
        self.slots.get(index).map(|slot| match slot {
            Slot::Held(message) => Origin::Held(message),
            Slot::Stored { offset, len, .. } => Origin::File {
                offset: *offset,
                len: *len,
            },
        })
    }

    /// The messages in order (those in the file read one at a time).
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            conversation: self,
            front: 0,
            back: self.slots.len(),
        }
    }

    /// The messages from `start` on, in order; those in the file are read on a few
    /// threads at once.
    pub fn read_from(&self, start: usize) -> Vec<Cow<'_, Message>> {
        let slots = self.slots.get(start..).unwrap_or_default();
        let stored = slots
            .iter()
            .filter(|s| matches!(s, Slot::Stored { .. }))
            .count();
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
        let threads = threads.min(stored / MESSAGES_PER_THREAD).max(1);
        let share = slots.len().div_ceil(threads).max(1);
        let runs: Vec<&[Slot]> = slots.chunks(share).collect();
        let read = crate::sync::map_on_threads(runs, |run| {
            run.iter().map(|slot| self.read(slot)).collect::<Vec<_>>()
        });
        let mut messages = Vec::with_capacity(slots.len());
        for (run, part) in slots.chunks(share).zip(read) {
            // A run whose thread failed is read again here.
            messages.extend(part.unwrap_or_else(|| run.iter().map(|s| self.read(s)).collect()));
        }
        messages
    }

    /// Every message, owned.
    pub fn to_vec(&self) -> Vec<Message> {
        self.iter().map(Cow::into_owned).collect()
    }

    fn read<'a>(&'a self, slot: &'a Slot) -> Cow<'a, Message> {
        match slot {
            Slot::Held(message) => Cow::Borrowed(message),
            Slot::Stored {
                offset, len, facts, ..
            } => Cow::Owned(
                self.source
                    .as_ref()
                    .and_then(|source| source.read(*offset, *len))
                    .unwrap_or_else(|| stand_in(facts)),
            ),
        }
    }

    fn own(&self, slot: Slot) -> Message {
        match slot {
            Slot::Held(message) => Arc::unwrap_or_clone(message),
            stored => self.read(&stored).into_owned(),
        }
    }
}

/// What stands in for a message its file no longer holds.
fn stand_in(facts: &MessageFacts) -> Message {
    Message::User(UserMessage {
        content: crate::ai::types::UserContent::Text(format!(
            "[a {} message that could not be read back from the session file]",
            facts.role
        )),
        timestamp: 0,
    })
}

impl From<Vec<Message>> for Conversation {
    fn from(messages: Vec<Message>) -> Self {
        Conversation {
            slots: messages
                .into_iter()
                .map(|m| Slot::Held(Arc::new(m)))
                .collect(),
            source: None,
        }
    }
}

impl FromIterator<Message> for Conversation {
    fn from_iter<I: IntoIterator<Item = Message>>(iter: I) -> Self {
        iter.into_iter().collect::<Vec<_>>().into()
    }
}

impl Extend<Message> for Conversation {
    fn extend<I: IntoIterator<Item = Message>>(&mut self, iter: I) {
        for message in iter {
            self.push(message);
        }
    }
}

impl fmt::Debug for Conversation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for Conversation {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl PartialEq<[Message]> for Conversation {
    fn eq(&self, other: &[Message]) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, b)| *a == *b)
    }
}

impl PartialEq<Vec<Message>> for Conversation {
    fn eq(&self, other: &Vec<Message>) -> bool {
        *self == other[..]
    }
}

impl PartialEq<Conversation> for Vec<Message> {
    fn eq(&self, other: &Conversation) -> bool {
        *other == self[..]
    }
}

impl Serialize for Conversation {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for message in self.iter() {
            seq.serialize_element(&*message)?;
        }
        seq.end()
    }
}

impl<'a> IntoIterator for &'a Conversation {
    type Item = Cow<'a, Message>;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// The messages of a [`Conversation`] in order.
pub struct Iter<'a> {
    conversation: &'a Conversation,
    front: usize,
    back: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = Cow<'a, Message>;

    fn next(&mut self) -> Option<Cow<'a, Message>> {
        (self.front < self.back).then(|| {
            self.front += 1;
            let c = self.conversation;
            c.read(&c.slots[self.front - 1])
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.back - self.front;
        (left, Some(left))
    }

    fn nth(&mut self, n: usize) -> Option<Cow<'a, Message>> {
        self.front = self.front.saturating_add(n).min(self.back);
        self.next()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        (self.front < self.back).then(|| {
            self.back -= 1;
            let c = self.conversation;
            c.read(&c.slots[self.back])
        })
    }
}

impl ExactSizeIterator for Iter<'_> {}

#[cfg(test)]
#[path = "conversation_tests.rs"]
mod tests;
