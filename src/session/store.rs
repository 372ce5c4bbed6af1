//! The entries of a session as an index over its file: every entry's type, id,
//! parent and timestamp are held, the small entries the tree and the context
//! consult (labels, names, model and thinking changes, compactions) are held
//! whole, and every other entry's body stays in the file at a known offset and
//! is read back when asked for. A body read through a shared borrow is kept
//! until the session next changes; the context is built straight from the
//! file, so resuming a long session holds its conversation once (in the agent),
//! not twice.

use std::borrow::Cow;
use std::fs::File;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::{Value, json};

use super::entries::SessionEntry;
use super::entry_head::EntryHead;
use super::entry_names::EntryNames;
use super::kept_previews::KeptPreviews;
use super::load::decode_lossy;
use super::preview::EntryPreview;
use crate::agent::conversation::{MessageFacts, MessageSource, StoredMessage};
use crate::ai::types::Message;
use crate::sync::LockExt;

/// Entry types always held whole: small, and consulted without their bodies
/// being asked for (labels, the session name, the context's model and
/// thinking level, compactions).
const HELD_TYPES: &[&str] = &[
    "label",
    "session_info",
    "model_change",
    "thinking_level_change",
    "compaction",
];

/// Where an entry's body is.
#[derive(Debug)]
enum Body {
    /// In memory (small entries, and entries this run appended).
    Held(Box<SessionEntry>),
    /// In the session file; `read` keeps it once it was read through a borrow.
    InFile {
        offset: u64,
        len: u32,
        read: OnceLock<Box<SessionEntry>>,
    },
}

/// One entry of the index.
#[derive(Debug)]
pub(super) struct StoredEntry {
    names: EntryNames,
    /// A `message` entry holding an assistant message.
    assistant: bool,
    /// A readable `message` entry.
    message: bool,
    /// A `message` entry's role, tool calls and usage.
    facts: Option<MessageFacts>,
    /// Its one-line description for the tree: made while indexing a file whose bodies
    /// are not kept, otherwise when the tree first asks (from the body in memory, or
    /// read back once from the file).
    preview: OnceLock<EntryPreview>,
    body: Body,
}

impl StoredEntry {
    /// An entry held in memory.
    pub(super) fn held(entry: SessionEntry) -> Self {
        let mut stored = Self::meta_of(&entry);
        stored.body = Body::Held(Box::new(entry));
        stored
    }

    /// An entry read from the file at `offset` (its line is `len` bytes long): held
    /// when it is of a type always held, otherwise left in the file with its parsed
    /// body kept for now (`warm`) or dropped.
    pub(super) fn from_file(entry: SessionEntry, offset: u64, len: usize, warm: bool) -> Self {
        let mut stored = Self::meta_of(&entry);
        let Ok(len) = u32::try_from(len) else {
            stored.body = Body::Held(Box::new(entry));
            return stored;
        };
        if HELD_TYPES.contains(&entry.type_name()) {
            stored.body = Body::Held(Box::new(entry));
            return stored;
        }
        if !warm {
            let _ = stored.preview.set(EntryPreview::of(&entry));
        }
        let read = OnceLock::new();
        if warm {
            let _ = read.set(Box::new(entry));
        }
        stored.body = Body::InFile { offset, len, read };
        stored
    }

    /// An entry of the file known by its head only (its line, `len` bytes at
    /// `offset`, is read back when its body is asked for).
    pub(super) fn from_head(head: EntryHead, offset: u64, len: u32) -> Self {
        let assistant = head.is_assistant();
        StoredEntry {
            message: head.names.kind() == "message",
            names: head.names,
            assistant,
            facts: head.facts,
            preview: OnceLock::from(head.preview),
            body: Body::InFile {
                offset,
                len,
                read: OnceLock::new(),
            },
        }
    }

    fn meta_of(entry: &SessionEntry) -> Self {
        StoredEntry {
            names: EntryNames::new(
                entry.type_name(),
                entry.id(),
                entry.parent_id(),
                entry.timestamp(),
            ),
            assistant: entry.is_assistant_message(),
            message: entry.is_message(),
            facts: match entry {
                SessionEntry::Message(m) => Some(MessageFacts::of(&m.message)),
                _ => None,
            },
            preview: OnceLock::new(),
            body: Body::Held(Box::new(SessionEntry::Unknown(Value::Null))),
        }
    }

    /// The preview a kept index keeps of this entry: made while indexing, for an
    /// entry whose body is in the file (one held whole makes its own when asked).
    pub(super) fn kept_preview(&self) -> Option<&EntryPreview> {
        match self.body {
            Body::InFile { .. } => self.preview.get(),
            Body::Held(_) => None,
        }
    }

    /// Give the entry the preview a kept index kept of it (not when it has one).
    pub(super) fn keep_preview(&self, preview: EntryPreview) {
        let _ = self.preview.set(preview);
    }

    /// The entry's `type`.
    pub(super) fn kind(&self) -> &str {
        self.names.kind()
    }

    /// The entry's id (empty when it has none).
    pub(super) fn id(&self) -> &str {
        self.names.id()
    }

    /// The entry's parent id.
    pub(super) fn parent_id(&self) -> Option<&str> {
        self.names.parent_id()
    }

    /// Whether this is a `message` entry with an assistant message.
    pub(super) fn is_assistant(&self) -> bool {
        self.assistant
    }

    /// Whether this is a readable `message` entry.
    pub(super) fn is_message(&self) -> bool {
        self.message
    }

    /// A `message` entry's role (`user`, `assistant`, …).
    pub(super) fn role(&self) -> Option<&'static str> {
        self.facts.as_ref().map(|facts| facts.role)
    }

    /// Whether the body is in memory now (held, or read and kept).
    pub(super) fn body_in_memory(&self) -> bool {
        match &self.body {
            Body::Held(_) => true,
            Body::InFile { read, .. } => read.get().is_some(),
        }
    }

    /// What stands in for a body the file no longer holds (it was cut short by
    /// another program): the entry's type, id, parent and timestamp.
    fn placeholder(&self) -> SessionEntry {
        SessionEntry::Unknown(json!({
            "type": self.names.kind(),
            "id": self.names.id(),
            "parentId": self.names.parent_id(),
            "timestamp": self.names.timestamp(),
        }))
    }
}

/// The entries of a session in append order, with the file their bodies are in.
#[derive(Debug, Default)]
pub(super) struct EntryStore {
    entries: Vec<StoredEntry>,
    /// The session file as it was indexed (kept open: a body stays readable
    /// even after the file was deleted or replaced).
    file: Option<Arc<File>>,
    /// Some body was read through a borrow and is kept.
    kept: AtomicBool,
    /// The previews of the first entries, kept in their index file and not read yet.
    kept_previews: Mutex<Option<Box<KeptPreviews>>>,
}

impl EntryStore {
    /// Entries held in memory only.
    pub(super) fn held(entries: Vec<SessionEntry>) -> Self {
        EntryStore {
            entries: entries.into_iter().map(StoredEntry::held).collect(),
            file: None,
            kept: AtomicBool::new(false),
            kept_previews: Mutex::new(None),
        }
    }

    /// Entries indexed from `file`, the previews of the first ones still in their
    /// kept index file.
    pub(super) fn indexed(
        entries: Vec<StoredEntry>,
        file: File,
        kept_previews: Option<KeptPreviews>,
    ) -> Self {
        let kept = entries
            .iter()
            .any(|e| matches!(&e.body, Body::InFile { read, .. } if read.get().is_some()));
        EntryStore {
            entries,
            file: Some(Arc::new(file)),
            kept: AtomicBool::new(kept),
            kept_previews: Mutex::new(kept_previews.map(Box::new)),
        }
    }

    /// Read the previews kept in the index file, if not yet: listing every entry's
    /// preview then reads no body.
    pub(super) fn fill_previews(&self) {
        if let Some(previews) = self.kept_previews.locked().take() {
            previews.fill(&self.entries);
        }
    }

    /// How many entries there are.
    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The index record at `position`.
    pub(super) fn meta(&self, position: usize) -> &StoredEntry {
        &self.entries[position]
    }

    /// Every index record in order.
    pub(super) fn metas(&self) -> std::slice::Iter<'_, StoredEntry> {
        self.entries.iter()
    }

    /// Append an entry held in memory.
    pub(super) fn push(&mut self, entry: SessionEntry) {
        self.entries.push(StoredEntry::held(entry));
    }

    /// The entry at `position`, its body read from the file (and kept until the
    /// session next changes) when it is not in memory.
    pub(super) fn get(&self, position: usize) -> &SessionEntry {
        let stored = &self.entries[position];
        match &stored.body {
            Body::Held(entry) => entry,
            Body::InFile { offset, len, read } => read.get_or_init(|| {
                self.kept.store(true, Ordering::Relaxed);
                Box::new(self.read_body(stored, *offset, *len))
            }),
        }
    }

    /// The entry at `position` without keeping a body read from the file.
    pub(super) fn load(&self, position: usize) -> Cow<'_, SessionEntry> {
        let stored = &self.entries[position];
        match &stored.body {
            Body::Held(entry) => Cow::Borrowed(entry),
            Body::InFile { offset, len, read } => match read.get() {
                Some(entry) => Cow::Borrowed(entry),
                None => Cow::Owned(self.read_body(stored, *offset, *len)),
            },
        }
    }

    /// The entry at `position`, a kept body handed over rather than copied.
    pub(super) fn take(&mut self, position: usize) -> Cow<'_, SessionEntry> {
        let (offset, len, kept) = match &mut self.entries[position].body {
            Body::Held(_) => (0, 0, None),
            Body::InFile { offset, len, read } => (*offset, *len, Some(read.take())),
        };
        match kept {
            None => self.load(position),
            Some(Some(entry)) => Cow::Owned(*entry),
            Some(None) => Cow::Owned(self.read_body(&self.entries[position], offset, len)),
        }
    }

    /// Where the message of the `message` entry at `position` is in the file, when
    /// its body is only there (not held, not read and kept).
    pub(super) fn stored_message(&self, position: usize) -> Option<StoredMessage> {
        let stored = &self.entries[position];
        match (&stored.body, &stored.facts) {
            (Body::InFile { offset, len, read }, Some(facts))
                if stored.message && read.get().is_none() =>
            {
                Some(StoredMessage {
                    offset: *offset,
                    len: *len,
                    facts: facts.clone(),
                })
            }
            _ => None,
        }
    }

    /// Reads the messages of this session's file back (none for a session held in
    /// memory only).
    pub(super) fn message_source(&self) -> Option<Arc<dyn MessageSource>> {
        let file = self.file.clone()?;
        Some(Arc::new(FileMessages { file }))
    }

    /// Drop every body read from the file and kept (they are read again when
    /// asked for).
    pub(super) fn release_read_bodies(&mut self) {
        if !*self.kept.get_mut() {
            return;
        }
        for stored in &mut self.entries {
            if let Body::InFile { read, .. } = &mut stored.body {
                read.take();
            }
        }
        *self.kept.get_mut() = false;
    }

    fn read_body(&self, stored: &StoredEntry, offset: u64, len: u32) -> SessionEntry {
        let mut line = vec![0u8; len as usize];
        let read = self
            .file
            .as_ref()
            .map(|file| read_exact_at(file, &mut line, offset));
        if !matches!(read, Some(Ok(()))) {
            return stored.placeholder();
        }
        let parsed = SessionEntry::parse_line(&decode_lossy(&line));
        match parsed {
            Some(entry) if entry.id() == stored.id() => entry,
            _ => stored.placeholder(),
        }
    }
}

/// The messages of a session file, read back from their lines.
struct FileMessages {
    file: Arc<File>,
}

impl MessageSource for FileMessages {
    fn read(&self, offset: u64, len: u32) -> Option<Message> {
        let mut line = vec![0u8; len as usize];
        read_exact_at(&self.file, &mut line, offset).ok()?;
        match SessionEntry::parse_line(&decode_lossy(&line))? {
            SessionEntry::Message(entry) => Some(entry.message),
            _ => None,
        }
    }
}

#[path = "store_record.rs"]
mod record;
pub(super) use record::{EntryRecord, sample_records};

#[cfg(unix)]
/// Read `buf.len()` bytes of `file` at `offset`.
pub(super) fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    use std::os::unix::fs::FileExt;
    file.read_exact_at(buf, offset)
}

#[cfg(not(unix))]
/// Read `buf.len()` bytes of `file` at `offset`.
pub(super) fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = file.try_clone()?;
    file.seek(SeekFrom::Start(offset))?;
    file.read_exact(buf)
}

/// What the index holds of one entry: its type, id, parent, time and
/// one-line description (never its body).
#[derive(Debug, Clone, Copy)]
pub struct IndexedEntry<'a> {
    store: &'a EntryStore,
    position: usize,
    stored: &'a StoredEntry,
}

impl<'a> IndexedEntry<'a> {
    /// The record at `position` of `store`.
    pub(super) fn new(store: &'a EntryStore, position: usize) -> Self {
        IndexedEntry {
            store,
            position,
            stored: store.meta(position),
        }
    }

    /// The entry's `type`.
    pub fn kind(&self) -> &'a str {
        self.stored.names.kind()
    }

    /// The entry's id (empty when it has none).
    pub fn id(&self) -> &'a str {
        self.stored.names.id()
    }

    /// The entry's parent id.
    pub fn parent_id(&self) -> Option<&'a str> {
        self.stored.names.parent_id()
    }

    /// When the entry was written (ISO 8601).
    pub fn timestamp(&self) -> &'a str {
        self.stored.names.timestamp()
    }

    /// The entry's one-line description.
    pub fn preview(&self) -> &'a EntryPreview {
        self.stored
            .preview
            .get_or_init(|| EntryPreview::of(&self.store.load(self.position)))
    }
}

/// The entries of a session in append order, as [`super::SessionManager::entries`]
/// hands them out: bodies in the file are read as they are visited.
#[derive(Clone, Copy)]
pub struct EntryList<'a> {
    store: &'a EntryStore,
}

impl<'a> EntryList<'a> {
    pub(super) fn new(store: &'a EntryStore) -> Self {
        EntryList { store }
    }

    /// How many entries there are.
    pub fn len(&self) -> usize {
        self.store.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.store.len() == 0
    }

    /// The entry at `position` in append order.
    pub fn get(&self, position: usize) -> Option<&'a SessionEntry> {
        (position < self.len()).then(|| self.store.get(position))
    }

    /// The first entry.
    pub fn first(&self) -> Option<&'a SessionEntry> {
        self.get(0)
    }

    /// The last entry.
    pub fn last(&self) -> Option<&'a SessionEntry> {
        self.len().checked_sub(1).and_then(|last| self.get(last))
    }

    /// The entries in append order.
    pub fn iter(&self) -> EntryIter<'a> {
        EntryIter {
            store: self.store,
            front: 0,
            back: self.store.len(),
        }
    }

    /// The entries from `start` on (none when `start` is past the end).
    pub fn iter_from(&self, start: usize) -> EntryIter<'a> {
        EntryIter {
            store: self.store,
            front: start.min(self.store.len()),
            back: self.store.len(),
        }
    }

    /// The entries in append order, a body that is only in the file read for
    /// its visit and not kept: a long session passes through without being held.
    pub fn loaded(&self) -> impl Iterator<Item = Cow<'a, SessionEntry>> + 'a {
        let store = self.store;
        (0..store.len()).map(move |position| store.load(position))
    }

    /// Every entry, owned (each body read from the file once).
    pub fn to_vec(&self) -> Vec<SessionEntry> {
        (0..self.len())
            .map(|position| self.store.load(position).into_owned())
            .collect()
    }
}

impl std::ops::Index<usize> for EntryList<'_> {
    type Output = SessionEntry;

    fn index(&self, position: usize) -> &SessionEntry {
        self.store.get(position)
    }
}

impl<'a> IntoIterator for EntryList<'a> {
    type Item = &'a SessionEntry;
    type IntoIter = EntryIter<'a>;

    fn into_iter(self) -> EntryIter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &EntryList<'a> {
    type Item = &'a SessionEntry;
    type IntoIter = EntryIter<'a>;

    fn into_iter(self) -> EntryIter<'a> {
        self.iter()
    }
}

impl PartialEq for EntryList<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl PartialEq<[SessionEntry]> for EntryList<'_> {
    fn eq(&self, other: &[SessionEntry]) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl std::fmt::Debug for EntryList<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Iterator over an [`EntryList`].
#[derive(Clone)]
pub struct EntryIter<'a> {
    store: &'a EntryStore,
    front: usize,
    back: usize,
}

impl<'a> Iterator for EntryIter<'a> {
    type Item = &'a SessionEntry;

    fn next(&mut self) -> Option<&'a SessionEntry> {
        (self.front < self.back).then(|| {
            self.front += 1;
            self.store.get(self.front - 1)
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.back - self.front;
        (left, Some(left))
    }

    fn nth(&mut self, n: usize) -> Option<&'a SessionEntry> {
        self.front = self.front.saturating_add(n).min(self.back);
        self.next()
    }
}

impl DoubleEndedIterator for EntryIter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        (self.front < self.back).then(|| {
            self.back -= 1;
            self.store.get(self.back)
        })
    }
}

impl ExactSizeIterator for EntryIter<'_> {}
