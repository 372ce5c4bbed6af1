//! An index record as the kept index file holds it (see `index_cache`): the names
//! and the facts of an entry whose body is in the session file, or the JSON of an
//! entry held whole. Read back with its preview (kept apart, see `kept_previews`),
//! it is the same record indexing the line made.

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};

use super::{Body, HELD_TYPES, StoredEntry};
use crate::agent::conversation::MessageFacts;
use crate::ai::types::{Usage, UsageCost};
use crate::session::entries::{SessionEntry, ThinkingLevelChangeEntry};
use crate::session::entry_names::EntryNames;
use crate::session::preview::EntryPreview;

/// One entry of a kept index.
#[derive(Debug, Serialize, Deserialize)]
pub(in crate::session) struct EntryRecord<'a> {
    kind: &'a str,
    id: &'a str,
    #[serde(borrow)]
    parent_id: Option<&'a str>,
    timestamp: &'a str,
    #[serde(borrow)]
    body: BodyRecord<'a>,
}

/// Where the entry's body is.
#[derive(Debug, Serialize, Deserialize)]
enum BodyRecord<'a> {
    /// Held whole: its JSON, read again when the index is.
    Held(#[serde(borrow)] Cow<'a, str>),
    /// In the session file, with what the index keeps of it.
    InFile {
        offset: u64,
        len: u32,
        assistant: bool,
        message: bool,
        #[serde(borrow)]
        facts: Option<FactsRecord<'a>>,
    },
    /// A thinking level change (held, and the most frequent held entry): its level.
    Thinking(&'a str),
}

/// A message's role, tool calls and usage.
#[derive(Debug, Serialize, Deserialize)]
struct FactsRecord<'a> {
    role: &'a str,
    tool_calls: u64,
    /// Input, output, cache read, cache write and total tokens.
    tokens: Option<[u64; 5]>,
    /// The costs in the same order (the last: their total).
    costs: [f64; 5],
}

/// Every role a message can have, as serialised.
const ROLES: &[&str] = &[
    "user",
    "assistant",
    "toolResult",
    "bashExecution",
    "custom",
    "branchSummary",
    "compactionSummary",
];

impl StoredEntry {
    /// This record as a kept index holds it; `None` for a body held in memory that
    /// is not one of the types always held (an entry this run appended).
    pub(in crate::session) fn record(&self) -> Option<EntryRecord<'_>> {
        let body = match &self.body {
            Body::Held(entry) if let SessionEntry::ThinkingLevelChange(change) = &**entry => {
                BodyRecord::Thinking(&change.thinking_level)
            }
            Body::Held(entry) if HELD_TYPES.contains(&entry.type_name()) => {
                BodyRecord::Held(Cow::Owned(serde_json::to_string(entry).ok()?))
            }
            Body::Held(_) => return None,
            Body::InFile { offset, len, .. } => BodyRecord::InFile {
                offset: *offset,
                len: *len,
                assistant: self.assistant,
                message: self.message,
                facts: self.facts.as_ref().map(FactsRecord::of),
            },
        };
        Some(EntryRecord {
            kind: self.names.kind(),
            id: self.names.id(),
            parent_id: self.names.parent_id(),
            timestamp: self.names.timestamp(),
            body,
        })
    }

    /// The record `record` stands for; `None` when it cannot be read (the index is
    /// then made again from the file).
    pub(in crate::session) fn from_record(record: &EntryRecord<'_>) -> Option<StoredEntry> {
        match &record.body {
            BodyRecord::Held(json) => {
                let entry = SessionEntry::parse_line(json)?;
                (entry.id() == record.id).then(|| StoredEntry::held(entry))
            }
            BodyRecord::Thinking(level) => Some(StoredEntry::held(
                SessionEntry::ThinkingLevelChange(ThinkingLevelChangeEntry {
                    id: record.id.to_string(),
                    parent_id: record.parent_id.map(str::to_string),
                    timestamp: record.timestamp.to_string(),
                    thinking_level: level.to_string(),
                }),
            )),
            BodyRecord::InFile {
                offset,
                len,
                assistant,
                message,
                facts,
            } => Some(StoredEntry {
                names: EntryNames::new(record.kind, record.id, record.parent_id, record.timestamp),
                assistant: *assistant,
                message: *message,
                facts: match facts {
                    Some(facts) => Some(facts.facts()?),
                    None => None,
                },
                preview: OnceLock::new(),
                body: Body::InFile {
                    offset: *offset,
                    len: *len,
                    read: OnceLock::new(),
                },
            }),
        }
    }
}

impl FactsRecord<'_> {
    fn of(facts: &MessageFacts) -> FactsRecord<'static> {
        let (tokens, costs) = match facts.usage.as_deref() {
            Some(u) => (
                Some([
                    u.input,
                    u.output,
                    u.cache_read,
                    u.cache_write,
                    u.total_tokens,
                ]),
                [
                    u.cost.input,
                    u.cost.output,
                    u.cost.cache_read,
                    u.cost.cache_write,
                    u.cost.total,
                ],
            ),
            None => (None, [0.0; 5]),
        };
        FactsRecord {
            role: facts.role,
            tool_calls: facts.tool_calls as u64,
            tokens,
            costs,
        }
    }

    fn facts(&self) -> Option<MessageFacts> {
        let role = ROLES.iter().find(|role| **role == self.role)?;
        let usage = self
            .tokens
            .map(|[input, output, cache_read, cache_write, total_tokens]| {
                let [c_input, c_output, c_read, c_write, c_total] = self.costs;
                Arc::new(Usage {
                    input,
                    output,
                    cache_read,
                    cache_write,
                    total_tokens,
                    cost: UsageCost {
                        input: c_input,
                        output: c_output,
                        cache_read: c_read,
                        cache_write: c_write,
                        total: c_total,
                    },
                })
            });
        Some(MessageFacts {
            role,
            tool_calls: usize::try_from(self.tool_calls).ok()?,
            usage,
        })
    }
}

/// A record of each kind with every optional part present, and a preview: how they
/// encode identifies the layout of a kept index.
pub(in crate::session) fn sample_records() -> (Vec<EntryRecord<'static>>, EntryPreview) {
    let facts = FactsRecord {
        role: "assistant",
        tool_calls: 1,
        tokens: Some([1, 2, 3, 4, 5]),
        costs: [0.5; 5],
    };
    let preview = EntryPreview::from_parts(
        crate::session::preview::PreviewKind::Assistant,
        "x".to_string(),
        true,
    );
    let records = vec![
        EntryRecord {
            kind: "label",
            id: "a",
            parent_id: Some("b"),
            timestamp: "t",
            body: BodyRecord::Held(Cow::Borrowed("{}")),
        },
        EntryRecord {
            kind: "message",
            id: "c",
            parent_id: None,
            timestamp: "t",
            body: BodyRecord::InFile {
                offset: 1,
                len: 2,
                assistant: true,
                message: true,
                facts: Some(facts),
            },
        },
    ];
    (records, preview)
}
