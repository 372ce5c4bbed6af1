//! Reading a provider stream: the events a [`MessageBuilder`](crate::ai::events::MessageBuilder)
//! sent, with the partial message rebuilt from light deltas.

use crate::ai::event_channel::{DeltaKind, EventReceiver, Queued};
use crate::ai::events::AssistantMessageEvent;
use crate::ai::partial_json::parse_partial_object;
use crate::ai::types::{AssistantMessage, ContentBlock, StopReason};

/// Receiving end of a provider stream. Deltas arrive without the message; the
/// stream keeps its own copy of the partial message, brings it up to date from
/// each delta, and hands out a copy with every event.
pub struct AssistantStream {
    rx: EventReceiver,
    last: Option<AssistantMessage>,
    /// The partial message as of the last event handed out.
    partial: Option<AssistantMessage>,
    /// Raw JSON of each tool call's arguments, by content index.
    tool_json: Vec<String>,
}

impl AssistantStream {
    /// Wrap a receiver.
    pub fn new(rx: EventReceiver) -> Self {
        AssistantStream {
            rx,
            last: None,
            partial: None,
            tool_json: Vec::new(),
        }
    }

    /// The next event; `None` after the terminal event. Deltas of one block that
    /// queued up while the caller was busy come as one delta.
    pub async fn next(&mut self) -> Option<AssistantMessageEvent> {
        let item = self.rx.recv().await?;
        Some(self.complete(item))
    }

    /// The next queued event without waiting (and without joining deltas the
    /// provider sent separately once they were taken one by one).
    pub fn try_next(&mut self) -> Option<AssistantMessageEvent> {
        let item = self.rx.try_recv()?;
        Some(self.complete(item))
    }

    fn complete(&mut self, item: Queued) -> AssistantMessageEvent {
        match item {
            Queued::Event(ev) => {
                self.observe(&ev);
                *ev
            }
            Queued::Delta { kind, index, text } => self.rebuild(kind, index, text),
        }
    }

    /// Track a complete event: its message becomes the copy deltas apply to.
    fn observe(&mut self, ev: &AssistantMessageEvent) {
        use AssistantMessageEvent as E;
        match ev {
            E::Done { message, .. } => self.last = Some(message.clone()),
            E::Error { error, .. } => self.last = Some(error.clone()),
            E::ToolCallStart { content_index, .. } => self.tool_json_at(*content_index).clear(),
            E::ToolCallDelta {
                content_index,
                delta,
                ..
            } => self.tool_json_at(*content_index).push_str(delta),
            _ => {}
        }
        self.partial = (!ev.is_terminal()).then(|| ev.message().clone());
    }

    fn tool_json_at(&mut self, index: usize) -> &mut String {
        if self.tool_json.len() <= index {
            self.tool_json.resize(index + 1, String::new());
        }
        &mut self.tool_json[index]
    }

    /// The event for joined fragments of one block, with the copy brought up to date.
    fn rebuild(&mut self, kind: DeltaKind, index: usize, delta: String) -> AssistantMessageEvent {
        if kind == DeltaKind::ToolCall {
            self.tool_json_at(index).push_str(&delta);
        }
        let raw = self.tool_json.get(index).map(String::as_str);
        let partial = self
            .partial
            .get_or_insert_with(|| AssistantMessage::empty("", "", ""));
        match (kind, partial.content.get_mut(index)) {
            (DeltaKind::Text, Some(ContentBlock::Text(t))) => t.text.push_str(&delta),
            (DeltaKind::Thinking, Some(ContentBlock::Thinking(t))) => t.thinking.push_str(&delta),
            (DeltaKind::ToolCall, Some(ContentBlock::ToolCall(c))) => {
                c.arguments = parse_partial_object(raw.unwrap_or_default());
            }
            _ => {}
        }
        let partial = partial.clone();
        match kind {
            DeltaKind::Text => AssistantMessageEvent::TextDelta {
                content_index: index,
                delta,
                partial,
            },
            DeltaKind::Thinking => AssistantMessageEvent::ThinkingDelta {
                content_index: index,
                delta,
                partial,
            },
            DeltaKind::ToolCall => AssistantMessageEvent::ToolCallDelta {
                content_index: index,
                delta,
                partial,
            },
        }
    }

    /// Drain the stream and return the final message.
    pub async fn result(mut self) -> AssistantMessage {
        while self.next().await.is_some() {}
        self.last.unwrap_or_else(|| {
            let mut m = AssistantMessage::empty("", "", "");
            m.stop_reason = StopReason::Error;
            m.error_message = Some("stream ended without a final message".into());
            m
        })
    }
}
