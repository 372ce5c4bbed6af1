//! Resolving the message list the model sees from the entry tree
//! (pi's `buildSessionContext`).

use std::borrow::Cow;
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

    /// No messages, thinking `off`, no model.
    pub(crate) fn empty() -> Self {
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
    let source = SliceEntries {
        entries,
        index: &index,
    };
    let plan = match plan_context(&source, leaf) {
        Some(plan) => plan,
        None => return SessionContext::empty(),
    };
    let messages = context_messages(&plan.sources, &|position| Cow::Borrowed(&entries[position]));
    plan.finish(messages)
}

/// What the context needs to know of the entries, and how their bodies are had.
pub(crate) trait ContextEntries {
    /// How many entries there are.
    fn count(&self) -> usize;
    /// The position of the entry with this id.
    fn position_of(&self, id: &str) -> Option<usize>;
    /// The entry's parent id.
    fn parent_id(&self, position: usize) -> Option<&str>;
    /// The position of the entry's parent.
    fn parent_position(&self, position: usize) -> Option<usize> {
        self.parent_id(position).and_then(|id| self.position_of(id))
    }
    /// The entry's id.
    fn id(&self, position: usize) -> &str;
    /// The entry's `type`.
    fn kind(&self, position: usize) -> &str;
    /// Whether the entry is a `message` entry with an assistant message.
    fn is_assistant(&self, position: usize) -> bool;
    /// The entry itself.
    fn entry(&self, position: usize) -> Cow<'_, SessionEntry>;
}

/// A slice of entries with an id index.
struct SliceEntries<'a> {
    entries: &'a [SessionEntry],
    index: &'a HashMap<&'a str, usize>,
}

impl ContextEntries for SliceEntries<'_> {
    fn count(&self) -> usize {
        self.entries.len()
    }
    fn position_of(&self, id: &str) -> Option<usize> {
        self.index.get(id).copied()
    }
    fn parent_id(&self, position: usize) -> Option<&str> {
        self.entries[position].parent_id()
    }
    fn id(&self, position: usize) -> &str {
        self.entries[position].id()
    }
    fn kind(&self, position: usize) -> &str {
        self.entries[position].type_name()
    }
    fn is_assistant(&self, position: usize) -> bool {
        self.entries[position].is_assistant_message()
    }
    fn entry(&self, position: usize) -> Cow<'_, SessionEntry> {
        Cow::Borrowed(&self.entries[position])
    }
}

/// The context resolved from the index: everything but the messages, and the
/// positions of the entries they come from.
pub(crate) struct ContextPlan {
    context: SessionContext,
    /// Positions of the entries whose messages follow the compaction summary
    /// (or make up the context when there is none), in order.
    pub(crate) sources: Vec<usize>,
}

impl ContextPlan {
    /// The context with `messages` (those of [`ContextPlan::sources`]) added.
    pub(crate) fn finish(mut self, messages: Vec<Message>) -> SessionContext {
        self.context.messages.extend(messages);
        self.context
    }
}

/// Resolve the path to `leaf`: thinking level, model, the last compaction and
/// which entries supply messages. `None` when the context is empty.
pub(crate) fn plan_context(
    source: &impl ContextEntries,
    leaf: Option<&str>,
) -> Option<ContextPlan> {
    let leaf = leaf?;
    let start = source
        .position_of(leaf)
        .or_else(|| source.count().checked_sub(1))?;
    let path = path_to_root(source, start);

    let mut context = SessionContext::empty();
    for &position in path.iter().rev() {
        if source.kind(position) != "thinking_level_change" {
            continue;
        }
        if let SessionEntry::ThinkingLevelChange(change) = &*source.entry(position) {
            context.thinking_level = change.thinking_level.clone();
            break;
        }
    }
    for &position in path.iter().rev() {
        if source.kind(position) != "model_change" && !source.is_assistant(position) {
            continue;
        }
        match &*source.entry(position) {
            SessionEntry::ModelChange(change) => {
                context.model = Some((change.provider.clone(), change.model_id.clone()));
                break;
            }
            SessionEntry::Message(message) => {
                if let Message::Assistant(assistant) = &message.message {
                    context.model = Some((assistant.provider.clone(), assistant.model.clone()));
                    break;
                }
            }
            _ => {}
        }
    }
    let mut compaction = None;
    for (step, &position) in path.iter().enumerate().rev() {
        if source.kind(position) != "compaction" {
            continue;
        }
        if let SessionEntry::Compaction(entry) = &*source.entry(position) {
            compaction = Some((
                step,
                compaction_summary(entry),
                entry.first_kept_entry_id.clone(),
            ));
            break;
        }
    }

    let sources = match compaction {
        Some((at, summary, first_kept)) => {
            context.messages.push(summary);
            let kept_from = path[..at]
                .iter()
                .position(|&p| source.id(p) == first_kept)
                .unwrap_or(at);
            path[kept_from..at]
                .iter()
                .chain(&path[at + 1..])
                .copied()
                .collect()
        }
        None => path,
    };
    let sources = sources
        .into_iter()
        .filter(|&p| {
            matches!(
                source.kind(p),
                "message" | "custom_message" | "branch_summary"
            )
        })
        .collect();
    Some(ContextPlan { context, sources })
}

fn compaction_summary(entry: &CompactionEntry) -> Message {
    Message::CompactionSummary(CompactionSummaryMessage {
        summary: entry.summary.clone(),
        tokens_before: entry.tokens_before,
        timestamp: iso_to_ms(&entry.timestamp).unwrap_or(0),
    })
}

/// Entries converted per thread at least: a long path is copied on two threads.
const ENTRIES_PER_THREAD: usize = 256;

/// The messages the entries at `positions` contribute to the context, in order.
/// Copying (or reading) a long session's messages is most of the work; its first
/// half is done on a thread of its own while this one does the second.
pub(crate) fn context_messages<'a>(
    positions: &[usize],
    entry: &(dyn Fn(usize) -> Cow<'a, SessionEntry> + Sync),
) -> Vec<Message> {
    let copy = |part: &[usize]| {
        let mut messages = Vec::with_capacity(part.len());
        for &position in part {
            messages.extend(context_message(entry(position)));
        }
        messages
    };
    if positions.len() < 2 * ENTRIES_PER_THREAD {
        return copy(positions);
    }
    let (first, second) = positions.split_at(positions.len() / 2);
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
fn path_to_root(source: &impl ContextEntries, start: usize) -> Vec<usize> {
    let mut path = Vec::new();
    let mut current = Some(start);
    while let Some(position) = current {
        if path.len() > source.count() {
            break;
        }
        path.push(position);
        current = source.parent_position(position);
    }
    path.reverse();
    path
}

/// The message an entry contributes to the context, moved out of an owned entry.
pub(crate) fn context_message(entry: Cow<'_, SessionEntry>) -> Option<Message> {
    let entry = match entry {
        Cow::Owned(entry) => entry,
        Cow::Borrowed(entry) => match entry {
            SessionEntry::Message(_)
            | SessionEntry::CustomMessage(_)
            | SessionEntry::BranchSummary(_) => entry.clone(),
            _ => return None,
        },
    };
    match entry {
        SessionEntry::Message(entry) => Some(entry.message),
        SessionEntry::CustomMessage(entry) => Some(Message::Custom(CustomMessage {
            timestamp: iso_to_ms(&entry.timestamp).unwrap_or(0),
            custom_type: entry.custom_type,
            content: entry.content,
            display: entry.display,
            details: entry.details,
        })),
        SessionEntry::BranchSummary(entry) if !entry.summary.is_empty() => {
            Some(Message::BranchSummary(BranchSummaryMessage {
                timestamp: iso_to_ms(&entry.timestamp).unwrap_or(0),
                summary: entry.summary,
                from_id: entry.from_id,
            }))
        }
        _ => None,
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
