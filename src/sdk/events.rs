//! Event delivery: callbacks and channels that receive every [`Event`] of a session.

use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;

use crate::agent::events::AgentEvent;
use crate::sync::LockExt;

/// One thing that happened in a session: the same events, with the same JSON shape
/// (`serde_json::to_value(&event)`), that `pi --mode json` prints one per line.
pub type Event = AgentEvent;

/// Identifies a callback registered with [`Session::subscribe`](super::Session::subscribe),
/// for [`Session::unsubscribe`](super::Session::unsubscribe).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SubscriptionId(u64);

type Callback = Arc<Mutex<Box<dyn FnMut(&Event) + Send>>>;

enum Target {
    Callback(Callback),
    Channel(mpsc::UnboundedSender<Event>),
}

/// Everyone listening to one session.
#[derive(Default)]
pub(super) struct Subscribers {
    next: u64,
    targets: Vec<(SubscriptionId, Target)>,
    /// Events waiting for the delivery loop.
    pending: std::collections::VecDeque<Event>,
    /// A delivery loop is running.
    delivering: bool,
}

/// The subscribers of a session, shared with the listener inside the core session.
pub(super) type SharedSubscribers = Arc<Mutex<Subscribers>>;

impl Subscribers {
    pub(super) fn add_callback(
        &mut self,
        callback: Box<dyn FnMut(&Event) + Send>,
    ) -> SubscriptionId {
        self.add(Target::Callback(Arc::new(Mutex::new(callback))))
    }

    pub(super) fn add_channel(&mut self) -> EventStream {
        let (sender, receiver) = mpsc::unbounded_channel();
        self.add(Target::Channel(sender));
        EventStream { receiver }
    }

    pub(super) fn remove(&mut self, id: SubscriptionId) -> bool {
        let before = self.targets.len();
        self.targets.retain(|(each, _)| *each != id);
        self.targets.len() != before
    }

    fn add(&mut self, target: Target) -> SubscriptionId {
        self.next += 1;
        let id = SubscriptionId(self.next);
        self.targets.push((id, target));
        id
    }
}

/// Deliver `event` to every subscriber, in order. Callbacks run outside the subscriber
/// list's lock, so a callback may steer, queue a follow-up or subscribe another listener.
/// An event raised meanwhile (by a callback, or by another thread) waits in line and is
/// delivered by the same loop right after, so events never overtake each other and a
/// callback is never entered twice at once. Channels whose receiver is gone are dropped.
pub(super) fn deliver(subscribers: &SharedSubscribers, event: &Event) {
    {
        let mut list = subscribers.locked();
        list.pending.push_back(event.clone());
        if list.delivering {
            return;
        }
        list.delivering = true;
    }
    let _done = Delivering(subscribers);
    loop {
        let (event, callbacks) = {
            let mut list = subscribers.locked();
            let Some(event) = list.pending.pop_front() else {
                return;
            };
            list.targets.retain(|(_, target)| match target {
                Target::Channel(sender) => sender.send(event.clone()).is_ok(),
                Target::Callback(_) => true,
            });
            let callbacks: Vec<Callback> = list
                .targets
                .iter()
                .filter_map(|(_, target)| match target {
                    Target::Callback(callback) => Some(callback.clone()),
                    Target::Channel(_) => None,
                })
                .collect();
            (event, callbacks)
        };
        for callback in callbacks {
            (callback.locked())(&event);
        }
    }
}

/// Ends a delivery loop, also when a callback panics (later events are then delivered
/// by whoever raises them).
struct Delivering<'a>(&'a SharedSubscribers);

impl Drop for Delivering<'_> {
    fn drop(&mut self) {
        self.0.locked().delivering = false;
    }
}

/// A channel of a session's events, from [`Session::events`](super::Session::events).
/// Dropping it unsubscribes. Events are never lost: the channel is unbounded, so read it
/// (or drop it) while the session runs.
pub struct EventStream {
    receiver: mpsc::UnboundedReceiver<Event>,
}

impl EventStream {
    /// The next event; `None` once the session is gone.
    pub async fn recv(&mut self) -> Option<Event> {
        self.receiver.recv().await
    }

    /// The next event if one is waiting, without waiting.
    pub fn try_recv(&mut self) -> Option<Event> {
        self.receiver.try_recv().ok()
    }
}
