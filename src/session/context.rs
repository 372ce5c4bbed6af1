//! Resolving the message list the model sees from the entry tree
//! (pi's `buildSessionContext`).

use std::collections::HashMap;

use crate::ai::model::ThinkingLevel;
use crate::ai::types::{BranchSummaryMessage, CompactionSummaryMessage, CustomMessage, Message};

use super::entries::{CompactionEntry, SessionEntry};
use super::ids::iso_to_ms;

/// What a session resolves to at its current leaf.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SessionContext {
    /// Messages on the path, with compaction and branch summaries resolved.
    pub messages: Vec<Message>,
    /// Thinking level as stored (`off` when never set).
    pub thinking_level: String,
    /// Last model on the path as `(provider, model_id)`.
    pub model: Option<(String, String)>,
}

impl SessionContext {
    /// The thinking level, when it is one this crate knows.
    pub fn thinking(&self) -> Option<ThinkingLevel> {
        ThinkingLevel::parse(&self.thinking_level)
    }

    fn empty() -> Self {
        SessionContext {
            messages: Vec::new(),
            thinking_level: "off".to_string(),
            model: None,
        }
    }
}

/// Build the context for `leaf`. `None` means "before the first entry" and
/// yields no messages; an id that is not found falls back to the last entry.
pub fn build_session_context(entries: &[SessionEntry], leaf: Option<&str>) -> SessionContext {
    let index: HashMap<&str, usize> = entries
        .iter()
        .enumerate()
        .filter(|(_, entry)| !entry.id().is_empty())
        .map(|(position, entry)| (entry.id(), position))
        .collect();
    build_context_with(entries, leaf, |id| index.get(id).copied())
}

/// [`build_session_context`] with a caller-provided id → position lookup.
pub(crate) fn build_context_with(
    entries: &[SessionEntry],
    leaf: Option<&str>,
    position_of: impl Fn(&str) -> Option<usize>,
) -> SessionContext {
    let Some(leaf) = leaf else {
        return SessionContext::empty();
    };
    let Some(start) = position_of(leaf).or_else(|| entries.len().checked_sub(1)) else {
        return SessionContext::empty();
    };
    let path = path_to_root(entries, start, &position_of);

    let mut context = SessionContext::empty();
    let mut compaction: Option<(usize, &CompactionEntry)> = None;
    for (step, entry) in path.iter().enumerate() {
        match entry {
            SessionEntry::ThinkingLevelChange(change) => {
                context.thinking_level = change.thinking_level.clone();
            }
            SessionEntry::ModelChange(change) => {
                context.model = Some((change.provider.clone(), change.model_id.clone()));
            }
            SessionEntry::Message(message) => {
                if let Message::Assistant(assistant) = &message.message {
                    context.model = Some((assistant.provider.clone(), assistant.model.clone()));
                }
            }
            SessionEntry::Compaction(entry) => compaction = Some((step, entry)),
            _ => {}
        }
    }

    let messages = &mut context.messages;
    match compaction {
        Some((at, entry)) => {
            messages.push(Message::CompactionSummary(CompactionSummaryMessage {
                summary: entry.summary.clone(),
                tokens_before: entry.tokens_before,
                timestamp: iso_to_ms(&entry.timestamp).unwrap_or(0),
            }));
            let kept_from = path[..at]
                .iter()
                .position(|e| e.id() == entry.first_kept_entry_id)
                .unwrap_or(at);
            for entry in path[kept_from..at].iter().chain(&path[at + 1..]) {
                push_context_message(messages, entry);
            }
        }
        None => {
            for entry in &path {
                push_context_message(messages, entry);
            }
        }
    }
    context
}

/// Entries from the root down to `start`, following parent ids (a cycle or
/// a missing parent ends the walk).
fn path_to_root<'a>(
    entries: &'a [SessionEntry],
    start: usize,
    position_of: &impl Fn(&str) -> Option<usize>,
) -> Vec<&'a SessionEntry> {
    let mut path = Vec::new();
    let mut current = Some(start);
    while let Some(position) = current {
        if path.len() > entries.len() {
            break;
        }
        let entry = &entries[position];
        path.push(entry);
        current = entry.parent_id().and_then(position_of);
    }
    path.reverse();
    path
}

fn push_context_message(messages: &mut Vec<Message>, entry: &SessionEntry) {
    match entry {
        SessionEntry::Message(entry) => messages.push(entry.message.clone()),
        SessionEntry::CustomMessage(entry) => messages.push(Message::Custom(CustomMessage {
            custom_type: entry.custom_type.clone(),
            content: entry.content.clone(),
            display: entry.display,
            details: entry.details.clone(),
            timestamp: iso_to_ms(&entry.timestamp).unwrap_or(0),
        })),
        SessionEntry::BranchSummary(entry) if !entry.summary.is_empty() => {
            messages.push(Message::BranchSummary(BranchSummaryMessage {
                summary: entry.summary.clone(),
                from_id: entry.from_id.clone(),
                timestamp: iso_to_ms(&entry.timestamp).unwrap_or(0),
            }));
        }
        _ => {}
    }
}
