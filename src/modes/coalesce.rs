//! At most one `message_update` line per frame for JSON and RPC output.
//!
//! Each `message_update` line carries the whole partial message, so a long answer
//! written delta by delta grows quadratically. Text, thinking and tool-argument
//! deltas of one block that arrive within [`INTERVAL`] of the last line written
//! are held and merged: the line written for them has the latest message and a
//! `delta` that is the exact concatenation of the merged deltas, in the shape of
//! any other `message_update`. A held update is written when the interval is up
//! (by a timer, so a pause in the stream does not keep it back), or before any
//! other event, so the order of events never changes.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

use crate::agent::events::AgentEvent;
use crate::ai::events::AssistantMessageEvent;

/// The shortest time between two `message_update` lines for deltas.
pub const INTERVAL: Duration = Duration::from_millis(16);

/// Writes one event as one output line.
pub type WriteEvent = Arc<dyn Fn(&AgentEvent) + Send + Sync>;

struct State {
    last_write: Option<Instant>,
    pending: Option<AgentEvent>,
}

/// Merges streaming deltas between lines; see the module documentation.
#[derive(Clone)]
pub struct UpdateCoalescer {
    state: Arc<Mutex<State>>,
    wake: Arc<Notify>,
    write: WriteEvent,
}

impl UpdateCoalescer {
    /// A coalescer writing through `write`; its timer runs on the current tokio
    /// runtime (without one, held updates wait for the next event).
    pub fn new(write: WriteEvent) -> Self {
        let coalescer = UpdateCoalescer {
            state: Arc::new(Mutex::new(State {
                last_write: None,
                pending: None,
            })),
            wake: Arc::new(Notify::new()),
            write,
        };
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let timer = coalescer.clone();
            runtime.spawn(async move { timer.run_timer().await });
        }
        coalescer
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Write `event`, or hold it to merge with the next deltas.
    pub fn event(&self, event: &AgentEvent) {
        let mut state = self.lock();
        let now = Instant::now();
        if let Some(pending) = state.pending.as_mut()
            && merge_into(pending, event)
        {
            return;
        }
        self.flush(&mut state);
        let due = state
            .last_write
            .is_none_or(|at| now.duration_since(at) >= INTERVAL);
        if delta_of(event).is_some() && !due {
            state.pending = Some(event.clone());
            drop(state);
            self.wake.notify_one();
            return;
        }
        (self.write)(event);
        if delta_of(event).is_some() {
            state.last_write = Some(now);
        }
    }

    /// Write a held update now.
    pub fn flush_now(&self) {
        let mut state = self.lock();
        self.flush(&mut state);
    }

    fn flush(&self, state: &mut State) {
        if let Some(pending) = state.pending.take() {
            (self.write)(&pending);
            state.last_write = Some(Instant::now());
        }
    }

    async fn run_timer(&self) {
        loop {
            self.wake.notified().await;
            let wait = {
                let state = self.lock();
                state
                    .last_write
                    .map(|at| (at + INTERVAL).saturating_duration_since(Instant::now()))
                    .unwrap_or_default()
            };
            tokio::time::sleep(wait).await;
            self.flush_now();
        }
    }
}

/// The streaming delta of a `message_update`: (event type, content index).
fn delta_of(event: &AgentEvent) -> Option<(&'static str, usize)> {
    let AgentEvent::MessageUpdate {
        assistant_message_event,
        ..
    } = event
    else {
        return None;
    };
    match assistant_message_event.as_ref() {
        AssistantMessageEvent::TextDelta { content_index, .. } => Some(("text", *content_index)),
        AssistantMessageEvent::ThinkingDelta { content_index, .. } => {
            Some(("thinking", *content_index))
        }
        AssistantMessageEvent::ToolCallDelta { content_index, .. } => {
            Some(("toolcall", *content_index))
        }
        _ => None,
    }
}

/// Fold `next` into the held update when both are deltas of the same block:
/// the held update takes the newer message and the joined delta.
fn merge_into(pending: &mut AgentEvent, next: &AgentEvent) -> bool {
    if delta_of(pending).is_none() || delta_of(pending) != delta_of(next) {
        return false;
    }
    let (
        AgentEvent::MessageUpdate {
            assistant_message_event: held,
            ..
        },
        AgentEvent::MessageUpdate {
            assistant_message_event: newer,
            ..
        },
    ) = (&*pending, next)
    else {
        return false;
    };
    let joined = format!("{}{}", delta_text(held), delta_text(newer));
    let mut merged = next.clone();
    if let AgentEvent::MessageUpdate {
        assistant_message_event,
        ..
    } = &mut merged
    {
        set_delta_text(assistant_message_event, joined);
    }
    *pending = merged;
    true
}

fn delta_text(event: &AssistantMessageEvent) -> &str {
    match event {
        AssistantMessageEvent::TextDelta { delta, .. }
        | AssistantMessageEvent::ThinkingDelta { delta, .. }
        | AssistantMessageEvent::ToolCallDelta { delta, .. } => delta,
        _ => "",
    }
}

fn set_delta_text(event: &mut AssistantMessageEvent, text: String) {
    match event {
        AssistantMessageEvent::TextDelta { delta, .. }
        | AssistantMessageEvent::ThinkingDelta { delta, .. }
        | AssistantMessageEvent::ToolCallDelta { delta, .. } => *delta = text,
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::types::{AssistantMessage, ContentBlock, Message, TextContent};

    fn update(text_so_far: &str, delta: &str) -> AgentEvent {
        let mut partial = AssistantMessage::empty("a", "p", "m");
        partial.content.push(ContentBlock::Text(TextContent {
            text: text_so_far.to_string(),
            text_signature: None,
        }));
        AgentEvent::MessageUpdate {
            message: Message::Assistant(partial.clone()),
            assistant_message_event: Box::new(AssistantMessageEvent::TextDelta {
                content_index: 0,
                delta: delta.to_string(),
                partial,
            }),
        }
    }

    fn recorder() -> (WriteEvent, Arc<Mutex<Vec<serde_json::Value>>>) {
        let lines = Arc::new(Mutex::new(Vec::new()));
        let sink = lines.clone();
        let write: WriteEvent = Arc::new(move |event: &AgentEvent| {
            sink.lock()
                .unwrap()
                .push(serde_json::to_value(event).unwrap());
        });
        (write, lines)
    }

    #[tokio::test]
    async fn fast_deltas_merge_into_one_line_with_the_exact_text() {
        let (write, lines) = recorder();
        let c = UpdateCoalescer::new(write);
        let mut so_far = String::new();
        for i in 0..1000 {
            let delta = format!("w{i} ");
            so_far.push_str(&delta);
            c.event(&update(&so_far, &delta));
        }
        c.event(&AgentEvent::TurnStart);
        let lines = lines.lock().unwrap().clone();
        let updates: Vec<&serde_json::Value> = lines
            .iter()
            .filter(|l| l["type"] == "message_update")
            .collect();
        assert!(updates.len() < 50, "{} lines", updates.len());
        let joined: String = updates
            .iter()
            .map(|l| l["assistantMessageEvent"]["delta"].as_str().unwrap())
            .collect();
        assert_eq!(joined, so_far);
        let last = updates.last().unwrap();
        assert_eq!(last["message"]["content"][0]["text"], so_far.as_str());
        assert_eq!(
            last["assistantMessageEvent"]["partial"]["content"][0]["text"],
            so_far.as_str()
        );
        assert_eq!(lines.last().unwrap()["type"], "turn_start");
    }

    #[tokio::test]
    async fn a_held_delta_is_written_when_the_stream_pauses() {
        let (write, lines) = recorder();
        let c = UpdateCoalescer::new(write);
        c.event(&update("a", "a"));
        c.event(&update("ab", "b"));
        assert_eq!(lines.lock().unwrap().len(), 1);
        tokio::time::sleep(INTERVAL * 4).await;
        let lines = lines.lock().unwrap().clone();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[1]["assistantMessageEvent"]["delta"], "b");
    }
}
