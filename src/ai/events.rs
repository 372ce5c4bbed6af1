//! The assistant-message event stream: what providers emit while a reply streams in.
//!
//! Providers never fail by panicking or returning early: every stream ends with
//! exactly one `Done` or `Error` event, and `Error` carries the partial message
//! with `stopReason` `error` or `aborted`.

use serde::Serialize;

pub use crate::ai::assistant_stream::AssistantStream;
use crate::ai::event_channel::{DeltaKind, EventSender};
use crate::ai::partial_json::parse_partial_object;
use crate::ai::types::{
    AssistantMessage, ContentBlock, StopReason, TextContent, ThinkingContent, ToolCall,
};

/// One step of a streaming assistant reply, shaped as pi's `AssistantMessageEvent`.
#[derive(Debug, Clone, Serialize)]
#[serde(
    tag = "type",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum AssistantMessageEvent {
    /// The reply started.
    Start { partial: AssistantMessage },
    /// A text block opened.
    TextStart {
        content_index: usize,
        partial: AssistantMessage,
    },
    /// Text arrived.
    TextDelta {
        content_index: usize,
        delta: String,
        partial: AssistantMessage,
    },
    /// A text block closed.
    TextEnd {
        content_index: usize,
        content: String,
        partial: AssistantMessage,
    },
    /// A thinking block opened.
    ThinkingStart {
        content_index: usize,
        partial: AssistantMessage,
    },
    /// Thinking text arrived.
    ThinkingDelta {
        content_index: usize,
        delta: String,
        partial: AssistantMessage,
    },
    /// A thinking block closed.
    ThinkingEnd {
        content_index: usize,
        content: String,
        partial: AssistantMessage,
    },
    /// A tool call opened.
    #[serde(rename = "toolcall_start")]
    ToolCallStart {
        content_index: usize,
        partial: AssistantMessage,
    },
    /// A fragment of the tool call's JSON arguments arrived.
    #[serde(rename = "toolcall_delta")]
    ToolCallDelta {
        content_index: usize,
        delta: String,
        partial: AssistantMessage,
    },
    /// A tool call closed with its parsed arguments.
    #[serde(rename = "toolcall_end")]
    ToolCallEnd {
        content_index: usize,
        tool_call: ToolCall,
        partial: AssistantMessage,
    },
    /// The reply finished normally (`stop`, `length` or `toolUse`).
    Done {
        reason: StopReason,
        message: AssistantMessage,
    },
    /// The reply failed (`error` or `aborted`); the message keeps partial content.
    Error {
        reason: StopReason,
        error: AssistantMessage,
    },
}

impl AssistantMessageEvent {
    /// True for `Done` and `Error`, the events that end a stream.
    pub fn is_terminal(&self) -> bool {
        matches!(self, Self::Done { .. } | Self::Error { .. })
    }

    /// The message as it stands after this event: the partial message, or the finished
    /// (or failed) one for `Done` and `Error`.
    pub fn message(&self) -> &AssistantMessage {
        match self {
            Self::Start { partial }
            | Self::TextStart { partial, .. }
            | Self::TextDelta { partial, .. }
            | Self::TextEnd { partial, .. }
            | Self::ThinkingStart { partial, .. }
            | Self::ThinkingDelta { partial, .. }
            | Self::ThinkingEnd { partial, .. }
            | Self::ToolCallStart { partial, .. }
            | Self::ToolCallDelta { partial, .. }
            | Self::ToolCallEnd { partial, .. } => partial,
            Self::Done { message, .. } => message,
            Self::Error { error, .. } => error,
        }
    }
}

/// Builds the partial assistant message and emits the matching events.
/// Providers drive it; it guarantees well-formed start/delta/end sequences.
pub struct MessageBuilder {
    partial: AssistantMessage,
    tx: EventSender,
    /// The message changed outside a delta (usage, ids, signatures): the next
    /// delta carries the whole message so readers see the change.
    changed: bool,
    tool_json: Vec<String>,
    /// Content indices of blocks started but not yet ended, oldest first.
    open: Vec<usize>,
    /// When set, starting a block leaves earlier blocks open (OpenAI streams
    /// interleave parallel tool calls); everything closes at the end.
    keep_open: bool,
    finished: bool,
}

impl MessageBuilder {
    /// Start building a reply for `api`/`provider`/`model`, sending events to `tx`.
    pub fn new(api: &str, provider: &str, model: &str, tx: EventSender) -> Self {
        MessageBuilder {
            partial: AssistantMessage::empty(api, provider, model),
            tx,
            changed: false,
            tool_json: Vec::new(),
            open: Vec::new(),
            keep_open: false,
            finished: false,
        }
    }

    /// Keep blocks open until [`MessageBuilder::done`] instead of closing the
    /// previous block whenever a new one starts.
    pub fn keep_blocks_open(&mut self) {
        self.keep_open = true;
    }

    /// The most recently opened block that is still open and matches `kind`.
    fn last_open(&self, kind: fn(&ContentBlock) -> bool) -> Option<usize> {
        self.open
            .iter()
            .rev()
            .copied()
            .find(|i| kind(&self.partial.content[*i]))
    }

    /// The message so far (the arguments of a tool call still streaming are
    /// parsed when it closes).
    pub fn partial(&self) -> &AssistantMessage {
        &self.partial
    }

    /// Mutable access for usage, ids and stop reason.
    pub fn partial_mut(&mut self) -> &mut AssistantMessage {
        self.changed = true;
        &mut self.partial
    }

    /// Set the usage so far; only a different value counts as a change readers
    /// must see with the next delta.
    pub fn set_usage(&mut self, usage: crate::ai::types::Usage) {
        if self.partial.usage != usage {
            self.partial.usage = usage;
            self.changed = true;
        }
    }

    fn emit(&mut self, ev: AssistantMessageEvent) {
        self.changed = false;
        self.tx.send_event(ev);
    }

    /// Send a fragment of block `idx`: light, unless the message changed
    /// otherwise since the last event (then `whole` builds the full event).
    fn emit_delta(
        &mut self,
        kind: DeltaKind,
        idx: usize,
        delta: &str,
        whole: impl FnOnce(&AssistantMessage) -> AssistantMessageEvent,
    ) {
        if self.changed {
            let ev = whole(&self.partial);
            self.emit(ev);
        } else {
            self.tx.send_delta(kind, idx, delta);
        }
    }

    /// Emit `start`.
    pub fn start(&mut self) {
        self.emit(AssistantMessageEvent::Start {
            partial: self.partial.clone(),
        });
    }

    /// Close every open block, in the order they were opened.
    pub fn end_block(&mut self) {
        for idx in std::mem::take(&mut self.open) {
            self.close(idx);
        }
    }

    /// Emit the `*_end` event of block `idx` (already removed from `open`).
    fn close(&mut self, idx: usize) {
        let partial = &mut self.partial;
        let ev = match &mut partial.content[idx] {
            ContentBlock::Text(t) => AssistantMessageEvent::TextEnd {
                content_index: idx,
                content: t.text.clone(),
                partial: partial.clone(),
            },
            ContentBlock::Thinking(t) => AssistantMessageEvent::ThinkingEnd {
                content_index: idx,
                content: t.thinking.clone(),
                partial: partial.clone(),
            },
            ContentBlock::ToolCall(c) => {
                let raw = self.tool_json.get(idx).cloned().unwrap_or_default();
                c.arguments = parse_partial_object(&raw);
                c.raw_arguments = crate::ai::partial_json::not_an_object(&raw);
                let call = c.clone();
                AssistantMessageEvent::ToolCallEnd {
                    content_index: idx,
                    tool_call: call,
                    partial: partial.clone(),
                }
            }
            ContentBlock::Image(_) => return,
        };
        self.emit(ev);
    }

    fn push_block(&mut self, block: ContentBlock) -> usize {
        if !self.keep_open {
            self.end_block();
        }
        self.partial.content.push(block);
        let idx = self.partial.content.len() - 1;
        if self.tool_json.len() <= idx {
            self.tool_json.resize(idx + 1, String::new());
        }
        self.open.push(idx);
        idx
    }

    /// Open a text block (closing any open block).
    pub fn text_start(&mut self) -> usize {
        let idx = self.push_block(ContentBlock::Text(TextContent {
            text: String::new(),
            text_signature: None,
        }));
        self.emit(AssistantMessageEvent::TextStart {
            content_index: idx,
            partial: self.partial.clone(),
        });
        idx
    }

    /// Append text, opening a text block if the open block is not text.
    pub fn text_delta(&mut self, delta: &str) {
        if delta.is_empty() {
            return;
        }
        let idx = match self.last_open(|b| matches!(b, ContentBlock::Text(_))) {
            Some(i) => i,
            None => self.text_start(),
        };
        if let ContentBlock::Text(t) = &mut self.partial.content[idx] {
            t.text.push_str(delta);
        }
        self.emit_delta(DeltaKind::Text, idx, delta, |partial| {
            AssistantMessageEvent::TextDelta {
                content_index: idx,
                delta: delta.to_string(),
                partial: partial.clone(),
            }
        });
    }

    /// Set the signature of the open text block.
    pub fn set_text_signature(&mut self, sig: String) {
        self.changed = true;
        if let Some(i) = self.last_open(|b| matches!(b, ContentBlock::Text(_)))
            && let ContentBlock::Text(t) = &mut self.partial.content[i]
        {
            t.text_signature = Some(sig);
        }
    }

    /// Open a thinking block.
    pub fn thinking_start(&mut self) -> usize {
        let idx = self.push_block(ContentBlock::Thinking(ThinkingContent {
            thinking: String::new(),
            thinking_signature: None,
            redacted: None,
        }));
        self.emit(AssistantMessageEvent::ThinkingStart {
            content_index: idx,
            partial: self.partial.clone(),
        });
        idx
    }

    /// Append thinking text, opening a thinking block if needed.
    pub fn thinking_delta(&mut self, delta: &str) {
        if delta.is_empty() {
            return;
        }
        let idx = match self.last_open(|b| matches!(b, ContentBlock::Thinking(_))) {
            Some(i) => i,
            None => self.thinking_start(),
        };
        if let ContentBlock::Thinking(t) = &mut self.partial.content[idx] {
            t.thinking.push_str(delta);
        }
        self.emit_delta(DeltaKind::Thinking, idx, delta, |partial| {
            AssistantMessageEvent::ThinkingDelta {
                content_index: idx,
                delta: delta.to_string(),
                partial: partial.clone(),
            }
        });
    }

    /// Append to the signature of the open thinking block.
    pub fn thinking_signature_delta(&mut self, sig: &str) {
        self.changed = true;
        if let Some(i) = self.last_open(|b| matches!(b, ContentBlock::Thinking(_)))
            && let ContentBlock::Thinking(t) = &mut self.partial.content[i]
        {
            t.thinking_signature
                .get_or_insert_with(String::new)
                .push_str(sig);
        }
    }

    /// Add a redacted thinking block carrying the opaque payload as its signature.
    pub fn redacted_thinking(&mut self, data: &str) {
        let i = self.thinking_start();
        if let ContentBlock::Thinking(t) = &mut self.partial.content[i] {
            t.thinking = "[Reasoning redacted]".into();
            t.thinking_signature = Some(data.to_string());
            t.redacted = Some(true);
        }
        self.end_block_at(i);
    }

    /// Open a tool call block.
    pub fn toolcall_start(&mut self, id: &str, name: &str) -> usize {
        let idx = self.push_block(ContentBlock::ToolCall(ToolCall {
            id: id.to_string(),
            name: name.to_string(),
            arguments: serde_json::Value::Object(Default::default()),
            thought_signature: None,
            raw_arguments: None,
        }));
        self.emit(AssistantMessageEvent::ToolCallStart {
            content_index: idx,
            partial: self.partial.clone(),
        });
        idx
    }

    /// Index of the most recently opened tool call that is still open.
    pub fn open_toolcall(&self) -> Option<usize> {
        self.last_open(|b| matches!(b, ContentBlock::ToolCall(_)))
    }

    /// Append a raw JSON fragment to the tool call at `idx`; arguments are re-parsed best-effort.
    pub fn toolcall_delta(&mut self, idx: usize, delta: &str) {
        if delta.is_empty() {
            return;
        }
        let Some(raw) = self.tool_json.get_mut(idx) else {
            return;
        };
        raw.push_str(delta);
        // The arguments are parsed when a whole message is sent (and when the
        // call closes), not for every fragment.
        if self.changed {
            let parsed = parse_partial_object(raw);
            if let Some(ContentBlock::ToolCall(c)) = self.partial.content.get_mut(idx) {
                c.arguments = parsed;
            }
        }
        self.emit_delta(DeltaKind::ToolCall, idx, delta, |partial| {
            AssistantMessageEvent::ToolCallDelta {
                content_index: idx,
                delta: delta.to_string(),
                partial: partial.clone(),
            }
        });
    }

    /// The arguments of the tool call at `idx` as streamed so far (parsed now).
    pub fn toolcall_arguments(&self, idx: usize) -> serde_json::Value {
        match self.tool_json.get(idx) {
            Some(raw) if !raw.is_empty() => parse_partial_object(raw),
            _ => match self.partial.content.get(idx) {
                Some(ContentBlock::ToolCall(c)) => c.arguments.clone(),
                _ => serde_json::Value::Null,
            },
        }
    }

    /// Set a tool call's id or name when the provider sends it late.
    pub fn toolcall_patch(&mut self, idx: usize, id: Option<&str>, name: Option<&str>) {
        self.changed = true;
        if let Some(ContentBlock::ToolCall(c)) = self.partial.content.get_mut(idx) {
            if let Some(id) = id.filter(|s| !s.is_empty()) {
                c.id = id.to_string();
            }
            if let Some(name) = name.filter(|s| !s.is_empty()) {
                c.name.push_str(name);
            }
        }
    }

    /// Close block `idx` if it is open.
    pub fn end_block_at(&mut self, idx: usize) {
        if let Some(pos) = self.open.iter().position(|i| *i == idx) {
            self.open.remove(pos);
            self.close(idx);
        }
    }

    /// Finish normally. `reason` defaults to `toolUse` when the message has tool calls.
    pub fn done(&mut self, reason: StopReason) {
        if self.finished {
            return;
        }
        self.end_block();
        self.finished = true;
        let reason = if reason == StopReason::Stop && !self.partial.tool_calls().is_empty() {
            StopReason::ToolUse
        } else {
            reason
        };
        self.partial.stop_reason = reason;
        self.emit(AssistantMessageEvent::Done {
            reason,
            message: self.partial.clone(),
        });
    }

    /// Finish with an error (or abort). Partial content is kept.
    pub fn fail(&mut self, reason: StopReason, message: impl Into<String>) {
        if self.finished {
            return;
        }
        self.end_block();
        self.finished = true;
        self.partial.stop_reason = reason;
        self.partial.error_message = Some(message.into());
        self.emit(AssistantMessageEvent::Error {
            reason,
            error: self.partial.clone(),
        });
    }

    /// True once `done` or `fail` was called.
    pub fn is_finished(&self) -> bool {
        self.finished
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn deltas_taken_one_by_one_carry_the_message_so_far() {
        let (tx, rx) = crate::ai::event_channel::event_channel();
        let mut b = MessageBuilder::new("faux", "faux", "m", tx);
        let mut s = AssistantStream::new(rx);
        b.start();
        b.text_delta("a");
        let mut texts = Vec::new();
        while let Some(ev) = s.try_next() {
            texts.push(serde_json::to_value(&ev).unwrap());
        }
        b.text_delta("b");
        b.partial_mut().usage.output = 7;
        b.text_delta("c");
        while let Some(ev) = s.try_next() {
            texts.push(serde_json::to_value(&ev).unwrap());
        }
        let deltas: Vec<(String, String, u64)> = texts
            .iter()
            .filter(|v| v["type"] == "text_delta")
            .map(|v| {
                (
                    v["delta"].as_str().unwrap().to_string(),
                    v["partial"]["content"][0]["text"]
                        .as_str()
                        .unwrap()
                        .to_string(),
                    v["partial"]["usage"]["output"].as_u64().unwrap(),
                )
            })
            .collect();
        // A change outside a delta (usage) makes the next delta carry the whole message.
        assert_eq!(
            deltas,
            [
                ("a".to_string(), "a".to_string(), 0),
                ("b".to_string(), "ab".to_string(), 0),
                ("c".to_string(), "abc".to_string(), 7)
            ]
        );
    }

    #[tokio::test]
    async fn builder_emits_ordered_events_and_final_message() {
        let (tx, rx) = crate::ai::event_channel::event_channel();
        let mut b = MessageBuilder::new("faux", "faux", "m", tx);
        b.start();
        b.text_delta("Hel");
        b.text_delta("lo");
        let idx = b.toolcall_start("c1", "read");
        b.toolcall_delta(idx, "{\"path\":\"a");
        b.toolcall_delta(idx, ".txt\"}");
        b.done(StopReason::Stop);
        drop(b);
        let mut s = AssistantStream::new(rx);
        let mut kinds = Vec::new();
        let mut seen = Vec::new();
        while let Some(ev) = s.next().await {
            let v = serde_json::to_value(&ev).unwrap();
            kinds.push(v["type"].as_str().unwrap().to_string());
            seen.push(v);
        }
        // Deltas queued before the reader took them arrive joined, with the
        // message rebuilt from them.
        assert_eq!(seen[2]["delta"], "Hello");
        assert_eq!(seen[2]["partial"]["content"][0]["text"], "Hello");
        assert_eq!(seen[5]["delta"], "{\"path\":\"a.txt\"}");
        assert_eq!(
            seen[5]["partial"]["content"][1]["arguments"]["path"],
            "a.txt"
        );
        assert_eq!(
            kinds,
            [
                "start",
                "text_start",
                "text_delta",
                "text_end",
                "toolcall_start",
                "toolcall_delta",
                "toolcall_end",
                "done"
            ]
        );
    }
}
