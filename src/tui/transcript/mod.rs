//! The conversation as the screen shows it: a list of items built from agent
//! events (live) or from stored messages (resumed sessions).

pub mod counts;
pub mod highlight;
pub mod hyperlink;
pub mod images;
pub mod item;
pub mod markdown;
pub mod render;
pub mod retry_rows;
pub mod tool_rows;

use crate::t;

use std::collections::HashMap;
use std::time::Instant;

use serde_json::Value;

use crate::agent::conversation::Conversation;
use crate::agent::events::AgentEvent;
use crate::ai::types::{AssistantMessage, ContentBlock, Message, StopReason, Usage};

pub use item::{Item, NoticeKind, ToolRow};

/// A revision number no transcript has used yet, so that lines rendered for
/// one transcript are never mistaken for another's (a resumed or new session).
fn next_revision() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// Messages of a resumed session shown in the transcript at most (about).
pub const RESTORED_MESSAGES: usize = 600;

/// The transcript item of a compaction summary.
fn compaction_item(summary: &str, tokens_before: u64) -> Item {
    Item::Summary {
        tokens_before: Some(tokens_before),
        text: summary.to_string(),
    }
}

/// The transcript and the token totals shown in the footer.
#[derive(Debug, Default, Clone)]
pub struct Transcript {
    /// Items in display order.
    pub items: Vec<Item>,
    /// Incremented on every change (render caches key on it).
    pub revision: u64,
    /// Summed usage of all answers.
    pub usage: Usage,
    /// Messages of each kind in the whole conversation.
    pub counts: counts::MessageCounts,
    /// Tokens of the last answer's context (input + output + cache).
    pub last_context_tokens: u64,
    /// Per item, the revision at which it last changed.
    pub item_revisions: Vec<u64>,
    /// Images shown under an item (user attachments, tool results), by item index.
    pub images: HashMap<usize, Vec<images::InlineImage>>,
    /// The status line shown last, updated in place while nothing follows it.
    status: Option<usize>,
    /// The provider's base URL, named when retries give up on a network failure.
    pub base_url: String,
    retry: retry_rows::RetryTracker,
    tools: HashMap<String, usize>,
}

impl Transcript {
    /// An empty transcript.
    pub fn new() -> Self {
        Transcript::default()
    }

    /// Rebuild from stored messages (a resumed session).
    /// Only the last [`RESTORED_MESSAGES`] or so are shown (from a user
    /// message on); usage still counts every message.
    /// Earlier messages are not read: their counts and usage come from the
    /// conversation's facts.
    pub fn from_messages(messages: &Conversation) -> Self {
        let mut t = Transcript::new();
        let count = messages.len();
        let mut start = count.saturating_sub(RESTORED_MESSAGES);
        while start > 0 && start < count && messages.facts(start).role != "user" {
            start += 1;
        }
        for at in 0..count {
            let facts = messages.facts(at);
            if at < start
                && let Some(usage) = &facts.usage
            {
                t.add_usage(usage);
            }
            t.counts.add_facts(&facts);
        }
        if start > 0 {
            t.notice(
                t!("pi.tui.transcript.earlier_hidden", count = start),
                NoticeKind::Info,
            );
        }
        for message in messages.read_from(start) {
            match &*message {
                Message::User(u) => t.push_user(u),
                Message::Assistant(a) => {
                    t.push_assistant(a, false);
                    t.add_usage(&a.usage);
                    for call in a.tool_calls() {
                        t.start_tool(&call.id, &call.name, call.arguments.clone(), false);
                    }
                }
                Message::ToolResult(r) => {
                    t.finish_tool(
                        &r.tool_call_id,
                        &texts_only(&r.content),
                        r.details.clone(),
                        r.is_error,
                    );
                    t.add_tool_images(&r.tool_call_id, &r.content);
                }
                Message::BashExecution(b) => {
                    let id = format!("user-bash-{}", b.timestamp);
                    let mut args = serde_json::json!({"command": b.command});
                    if b.exclude_from_context == Some(true) {
                        args["excludeFromContext"] = true.into();
                    }
                    t.start_tool(&id, "bash", args, false);
                    let ended =
                        serde_json::json!({"exitCode": b.exit_code, "cancelled": b.cancelled});
                    t.finish_tool(&id, &b.output, Some(ended), b.exit_code != Some(0));
                }
                Message::CompactionSummary(c) => {
                    t.push(compaction_item(&c.summary, c.tokens_before))
                }
                Message::Custom(c) => t.push_custom(c),
                Message::BranchSummary(b) => t.push(Item::Summary {
                    tokens_before: None,
                    text: b.summary.clone(),
                }),
            }
        }
        t
    }

    /// Append an item.
    pub fn push(&mut self, item: Item) {
        self.items.push(item);
        self.revision = next_revision();
        self.item_revisions.push(self.revision);
    }

    fn touch(&mut self, index: usize) {
        self.revision = next_revision();
        if let Some(r) = self.item_revisions.get_mut(index) {
            *r = self.revision;
        }
    }

    /// Append a notice.
    pub fn notice(&mut self, text: impl Into<String>, kind: NoticeKind) {
        let text = text.into();
        crate::i18n::probe::observe(&text);
        self.push(Item::Notice { text, kind });
    }

    /// Show a status line (model or thinking level changed): it replaces the
    /// previous status line when nothing came after it, instead of stacking up.
    pub fn status(&mut self, text: impl Into<String>, kind: NoticeKind) {
        let text = text.into();
        crate::i18n::probe::observe(&text);
        match self.status {
            Some(index) if index + 1 == self.items.len() => {
                self.items[index] = Item::Notice { text, kind };
                self.touch(index);
            }
            _ => {
                self.push(Item::Notice { text, kind });
                self.status = Some(self.items.len() - 1);
            }
        }
    }

    /// How many leading items are final: nothing still arriving, and not a
    /// status line that may yet be updated in place.
    pub fn settled_len(&self) -> usize {
        let settled = self.items.iter().take_while(|i| i.is_settled()).count();
        match self.status {
            Some(index) if index + 1 == self.items.len() && settled == self.items.len() => index,
            _ => settled,
        }
    }

    /// Append an extension's notification (kept as sent; core hacks apply when drawn).
    pub fn extension_notice(&mut self, text: impl Into<String>, kind: NoticeKind) {
        let text = text.into();
        crate::i18n::probe::observe(&crate::i18n::core_hacks::display(&text));
        self.push(Item::ExtensionNotice { text, kind });
    }

    /// Remove everything (a new session).
    pub fn clear(&mut self) {
        *self = Transcript {
            revision: next_revision(),
            ..Transcript::default()
        };
    }

    /// Fold one agent event into the transcript.
    pub fn apply(&mut self, event: &AgentEvent) {
        if let AgentEvent::MessageEnd { message } = event {
            self.counts.add(message);
        }
        match event {
            AgentEvent::CompactionStart { reason } => {
                let text = match reason.as_str() {
                    "manual" => t!("pi.tui.compaction.manual"),
                    "overflow" => t!("pi.tui.compaction.overflow"),
                    _ => t!("pi.tui.compaction.threshold"),
                };
                self.notice(text, NoticeKind::Info);
            }
            AgentEvent::CompactionEnd {
                result,
                aborted,
                error_message,
                ..
            } => match (result, error_message) {
                (Some(r), _) => self.push(compaction_item(
                    r["summary"].as_str().unwrap_or_default(),
                    r["tokensBefore"].as_u64().unwrap_or(0),
                )),
                (None, _) if *aborted => {
                    self.notice(t!("pi.tui.compaction.cancelled"), NoticeKind::Warning)
                }
                (None, Some(e)) => {
                    self.notice(t!("pi.tui.compaction.failed", error = e), NoticeKind::Error)
                }
                (None, None) => {}
            },
            AgentEvent::MessageEnd {
                message: Message::Custom(c),
            } => self.push_custom(c),
            AgentEvent::MessageStart { message } => match message {
                Message::User(u) => self.push_user(u),
                Message::Assistant(a) => self.push_assistant(a, true),
                _ => {}
            },
            AgentEvent::MessageUpdate {
                message: Message::Assistant(a),
                ..
            } => self.update_assistant(a, true),
            AgentEvent::MessageEnd {
                message: Message::Assistant(a),
            } => {
                self.update_assistant(a, false);
                self.add_usage(&a.usage);
                self.note_failed_reply(a);
            }
            AgentEvent::ToolExecutionStart {
                tool_call_id,
                tool_name,
                args,
            } => self.start_tool(tool_call_id, tool_name, args.clone(), true),
            AgentEvent::ToolExecutionUpdate {
                tool_call_id,
                partial_result,
                ..
            } => {
                if let Some(Item::Tool(row)) = self.tool_mut(tool_call_id) {
                    row.output = blocks_text(&partial_result.content);
                    let index = self.tools[tool_call_id.as_str()];
                    self.touch(index);
                }
            }
            AgentEvent::ToolExecutionEnd {
                tool_call_id,
                result,
                is_error,
                ..
            } => {
                self.finish_tool(
                    tool_call_id,
                    &texts_only(&result.content),
                    result.details.clone(),
                    *is_error,
                );
                self.add_tool_images(tool_call_id, &result.content);
            }
            AgentEvent::AutoRetryStart {
                attempt,
                max_attempts,
                delay_ms,
                error_message,
            } => self.retry_started(*attempt, *max_attempts, *delay_ms, error_message),
            AgentEvent::AutoRetryEnd {
                success,
                final_error,
                ..
            } => self.retry_ended(*success, final_error.as_deref()),
            AgentEvent::RunStopped { message, .. } => {
                self.notice(message.clone(), NoticeKind::Error)
            }
            AgentEvent::Checkpoint { pruned, .. } if *pruned > 0 => self.notice(
                t!("pi.checkpoint.pruned", count = *pruned),
                NoticeKind::Warning,
            ),
            _ => {}
        }
    }

    fn push_assistant(&mut self, a: &AssistantMessage, streaming: bool) {
        let (text, thinking) = assistant_texts(a);
        let (error, aborted) = match streaming {
            true => (None, false),
            false => how_it_ended(a),
        };
        self.push(Item::Assistant {
            text,
            thinking,
            streaming,
            error,
            aborted,
        });
    }

    /// Where the latest assistant message is in the items.
    fn last_assistant_index(&self) -> Option<usize> {
        self.items
            .iter()
            .rposition(|i| matches!(i, Item::Assistant { .. }))
    }

    fn update_assistant(&mut self, a: &AssistantMessage, still_streaming: bool) {
        let Some(index) = self.last_assistant_index() else {
            return;
        };
        let Item::Assistant {
            text,
            thinking,
            streaming,
            error,
            aborted,
        } = &mut self.items[index]
        else {
            return;
        };
        (*text, *thinking) = assistant_texts(a);
        *streaming = still_streaming;
        if !still_streaming {
            (*error, *aborted) = how_it_ended(a);
        }
        self.touch(index);
    }

    fn add_usage(&mut self, u: &Usage) {
        self.usage.input += u.input;
        self.usage.output += u.output;
        self.usage.cache_read += u.cache_read;
        self.usage.cache_write += u.cache_write;
        self.usage.cost.total += u.cost.total;
        let context = u.input + u.output + u.cache_read + u.cache_write;
        if context > 0 {
            self.last_context_tokens = context;
        }
    }

    /// A row for the call `id`: the one already shown for it, unless that call has
    /// finished (some providers reuse ids from turn to turn: a new call, a new row).
    fn start_tool(&mut self, id: &str, name: &str, args: Value, live: bool) {
        if let Some(Item::Tool(row)) = self.tool_mut(id)
            && !row.done
        {
            row.args = args;
            row.started = live.then(Instant::now);
            let index = self.tools[id];
            self.touch(index);
            return;
        }
        self.tools.insert(id.to_string(), self.items.len());
        self.push(Item::Tool(ToolRow {
            id: id.to_string(),
            name: name.to_string(),
            args,
            output: String::new(),
            details: None,
            is_error: false,
            done: false,
            duration: None,
            started: live.then(Instant::now),
            custom: None,
        }));
    }

    fn finish_tool(&mut self, id: &str, output: &str, details: Option<Value>, is_error: bool) {
        if let Some(Item::Tool(row)) = self.tool_mut(id) {
            row.output = output.to_string();
            row.details = details;
            row.is_error = is_error;
            row.done = true;
            row.duration = row.started.map(|s| s.elapsed());
            let index = self.tools[id];
            self.touch(index);
        }
    }

    fn push_custom(&mut self, c: &crate::ai::types::CustomMessage) {
        if c.display {
            self.push(Item::Custom {
                custom_type: c.custom_type.clone(),
                text: c.content.text(),
                message: serde_json::to_value(c).unwrap_or_default(),
                lines: None,
            });
        }
    }

    /// Show lines a Lua message renderer drew for item `index`.
    pub fn set_custom_lines(&mut self, index: usize, new: Vec<ratatui::text::Line<'static>>) {
        if let Some(Item::Custom { lines, .. }) = self.items.get_mut(index) {
            *lines = Some(new);
            self.touch(index);
        }
    }

    /// Forget every line Lua renderers drew; rows show the built-in rendering
    /// until a renderer draws them again.
    pub fn clear_lua_lines(&mut self) {
        for index in 0..self.items.len() {
            let changed = match &mut self.items[index] {
                Item::Custom { lines, .. } => lines.take().is_some(),
                Item::Tool(row) => row.custom.take().is_some(),
                _ => false,
            };
            if changed {
                self.touch(index);
            }
        }
    }

    /// Show lines a Lua renderer drew for tool call `id`.
    pub fn set_tool_custom(
        &mut self,
        id: &str,
        custom: crate::tui::chrome::lua_surfaces::CustomToolLines,
    ) {
        if let Some(Item::Tool(row)) = self.tool_mut(id) {
            row.custom = Some(custom);
            let index = self.tools[id];
            self.touch(index);
        }
    }

    fn tool_mut(&mut self, id: &str) -> Option<&mut Item> {
        let index = *self.tools.get(id)?;
        self.items.get_mut(index)
    }
}

/// A finished answer's error text (when it failed) and whether it was aborted.
fn how_it_ended(a: &AssistantMessage) -> (Option<String>, bool) {
    let error = (a.stop_reason == StopReason::Error).then(|| {
        a.error_message
            .clone()
            .unwrap_or_else(|| t!("pi.tui.error.generic"))
    });
    (error, a.stop_reason == StopReason::Aborted)
}

fn assistant_texts(a: &AssistantMessage) -> (String, String) {
    let mut text = String::new();
    let mut thinking = String::new();
    for block in &a.content {
        match block {
            ContentBlock::Text(t) => text.push_str(&t.text),
            ContentBlock::Thinking(t) => thinking.push_str(&t.thinking),
            _ => {}
        }
    }
    (text, thinking)
}

/// The text parts of content blocks (images are drawn apart, see [`images`]).
fn texts_only(blocks: &[ContentBlock]) -> String {
    blocks
        .iter()
        .filter_map(ContentBlock::as_text)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The text parts of content blocks, images shown as a placeholder.
pub fn blocks_text(blocks: &[ContentBlock]) -> String {
    blocks
        .iter()
        .map(|b| match b {
            ContentBlock::Text(t) => t.text.clone(),
            ContentBlock::Image(i) => t!("pi.tui.transcript.image", mime = &i.mime_type),
            _ => String::new(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests;
