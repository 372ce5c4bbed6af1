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

    match compaction {
        Some((at, entry)) => {
            context
                .messages
                .push(Message::CompactionSummary(CompactionSummaryMessage {
                    summary: entry.summary.clone(),
                    tokens_before: entry.tokens_before,
                    timestamp: iso_to_ms(&entry.timestamp).unwrap_or(0),
                }));
            let kept_from = path[..at]
                .iter()
                .position(|e| e.id() == entry.first_kept_entry_id)
                .unwrap_or(at);
            let sources: Vec<&SessionEntry> = path[kept_from..at]
                .iter()
                .chain(&path[at + 1..])
                .copied()
                .collect();
            context.messages.extend(context_messages(&sources));
        }
        None => context.messages = context_messages(&path),
    }
    context
}

/// Entries converted per thread at least: a long path is copied on two threads.
const ENTRIES_PER_THREAD: usize = 256;

/// The messages `entries` contribute to the context, in order. Copying a long
/// session's messages is most of the work; its first half is copied on a thread of
/// its own while this one copies the second.
fn context_messages(entries: &[&SessionEntry]) -> Vec<Message> {
    let copy = |part: &[&SessionEntry]| {
        let mut messages = Vec::with_capacity(part.len());
        for entry in part {
            push_context_message(&mut messages, entry);
        }
        messages
    };
    if entries.len() < 2 * ENTRIES_PER_THREAD {
        return copy(entries);
    }
    let (first, second) = entries.split_at(entries.len() / 2);
    std::thread::scope(|scope| {
        let copying = scope.spawn(|| copy(first));
        let second = copy(second);
        let mut messages = copying.join().unwrap_or_else(|_| copy(first));
        messages.extend(second);
        messages
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A chain of `n` user messages `m0`…, each the child of the one before.
    fn chain(n: usize) -> Vec<SessionEntry> {
        (0..n)
            .map(|i| {
                let parent = match i {
                    0 => "null".to_string(),
                    _ => format!("\"e{}\"", i - 1),
                };
                SessionEntry::parse_line(&format!(
                    r#"{{"type":"message","id":"e{i}","parentId":{parent},"timestamp":"2025-01-01T00:00:00.000Z","message":{{"role":"user","content":"m{i}","timestamp":{i}}}}}"#
                ))
                .unwrap()
            })
            .collect()
    }

    fn texts(context: &SessionContext) -> Vec<String> {
        context
            .messages
            .iter()
            .map(|m| match m {
                Message::User(u) => u.content.text(),
                Message::CompactionSummary(c) => format!("summary:{}", c.summary),
                other => other.role().to_string(),
            })
            .collect()
    }

    #[test]
    fn a_long_path_keeps_every_message_in_order() {
        for n in [
            3,
            2 * ENTRIES_PER_THREAD - 1,
            2 * ENTRIES_PER_THREAD + 1,
            1001,
        ] {
            let entries = chain(n);
            let last = format!("e{}", n - 1);
            let got = texts(&build_session_context(&entries, Some(&last)));
            let want: Vec<String> = (0..n).map(|i| format!("m{i}")).collect();
            assert_eq!(got, want, "{n} entries");
        }
    }

    #[test]
    fn a_compaction_on_a_long_path_keeps_the_summary_then_the_kept_messages() {
        let mut entries = chain(1000);
        entries.push(
            SessionEntry::parse_line(
                r#"{"type":"compaction","id":"c","parentId":"e999","timestamp":"2025-01-01T00:00:00.000Z","summary":"S","firstKeptEntryId":"e200","tokensBefore":5}"#,
            )
            .unwrap(),
        );
        entries.extend(chain(1002).into_iter().skip(1000).map(|entry| {
            let mut line = entry.to_json_line();
            line = line.replace(r#""parentId":"e999""#, r#""parentId":"c""#);
            SessionEntry::parse_line(&line).unwrap()
        }));
        let got = texts(&build_session_context(&entries, Some("e1001")));
        let mut want = vec!["summary:S".to_string()];
        want.extend((200..1002).map(|i| format!("m{i}")));
        assert_eq!(got, want);
    }
}
