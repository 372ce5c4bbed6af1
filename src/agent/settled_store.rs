//! Settled request parts kept on disk: after a request, the wire entries of its settled
//! part (the messages before its last user message) are written to
//! `<agentDir>/cache/settled/<session id>.settled`, so that the next process continuing
//! the session sends them as they are instead of reading, parsing and converting those
//! messages again.
//!
//! A kept part is used only when everything that decided its bytes is unchanged: the
//! wire format, the model (provider, id, base URL, compat and the rest of its
//! definition), the system prompt, and each covered message of the conversation (one
//! left in the session file by the offset and length of its line, with a digest of
//! those lines' bytes; one held in memory, such as a compaction summary, by a digest of
//! its JSON). Anything else, or a file that cannot be read or understood, and the part
//! is not used. Writes go to a temporary file renamed over the old one; at most
//! [`KEEP`] sessions' parts are kept (the most recently written), each at most
//! [`MAX_BYTES`]. Deleting the folder is always safe.

use std::fs::File;
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::agent::conversation::{Conversation, Origin};
use crate::ai::model::Model;
use crate::ai::settled::WrittenSettled;
use crate::ai::types::Message;
use crate::config::cache_files::{CacheFolder, digest};

/// Version of the file layout.
const VERSION: u32 = 1;
/// The largest settled part kept, in bytes.
pub const MAX_BYTES: usize = 32 << 20;
/// How many sessions' parts are kept.
pub const KEEP: usize = 16;
/// Covered messages held in memory beyond this many are not worth a digest each: the
/// part is then recorded without coverage, which only marks the session as continued
/// from its file (so that the next process leaves its messages there).
const MAX_HELD: usize = 32;
/// The file names' extension.
const EXTENSION: &str = "settled";

/// The settled parts of one session.
#[derive(Debug, Clone)]
pub struct SettledStore {
    folder: CacheFolder,
    session_id: String,
    session_file: PathBuf,
}

/// What decides a part's bytes, besides the covered messages.
#[derive(Debug, Clone, Copy)]
pub struct PartKey<'a> {
    /// The provider's settled-part format.
    pub format: &'a str,
    /// The model of the request.
    pub model: &'a Model,
    /// The system prompt of the request.
    pub system_prompt: Option<&'a str>,
}

/// A kept part that matches the conversation.
#[derive(Debug, Clone, PartialEq)]
pub struct KeptPart {
    /// How many of the conversation's first messages it covers.
    pub slots: usize,
    /// The part itself (its `count`: how many model messages it stands for).
    pub written: WrittenSettled,
}

/// What a covered message was: a line of the session file, or a held message.
#[derive(Debug, PartialEq)]
enum SlotId {
    /// A line of the session file: offset and length.
    File(u64, u32),
    /// A held message: the digest of its JSON.
    Held(u64),
}

impl SlotId {
    /// As stored: `[offset, length]` for a line (never empty), `[digest, 0]` for a held
    /// message; plain numbers read fast.
    fn stored(&self) -> [u64; 2] {
        match *self {
            SlotId::File(offset, len) => [offset, u64::from(len)],
            SlotId::Held(digest) => [digest, 0],
        }
    }

    fn from_stored([first, len]: [u64; 2]) -> Option<Self> {
        match len {
            0 => Some(SlotId::Held(first)),
            len => Some(SlotId::File(first, u32::try_from(len).ok()?)),
        }
    }
}

#[derive(Serialize, Deserialize)]
struct Head {
    version: u32,
    format: String,
    model: String,
    system_prompt: Option<String>,
    /// Each covered message (see [`SlotId::stored`]).
    slots: Vec<[u64; 2]>,
    /// Digest of the covered lines of the session file, in order.
    lines: u64,
    count: usize,
    after_tool_result: bool,
    tool_history: bool,
    bytes: usize,
}

/// The folder of the kept parts under an agent folder.
fn folder(agent_dir: &Path) -> CacheFolder {
    CacheFolder::new(agent_dir, "settled", EXTENSION, KEEP)
}

impl SettledStore {
    /// The store of the session `session_id` kept in `session_file`, under `agent_dir`.
    pub fn new(agent_dir: &Path, session_id: &str, session_file: &Path) -> Self {
        SettledStore {
            folder: folder(agent_dir),
            session_id: session_id.to_string(),
            session_file: session_file.to_path_buf(),
        }
    }

    /// Whether a part is kept for the session whose file is `session_file` (its
    /// header's id is read, nothing else).
    pub fn exists_for(agent_dir: &Path, session_file: &Path) -> bool {
        header_id(session_file).is_some_and(|id| folder(agent_dir).path(&id).is_file())
    }

    fn path(&self) -> PathBuf {
        self.folder.path(&self.session_id)
    }

    /// The kept part, when it was made under `key` for the first messages of
    /// `conversation` (and at least one message follows them).
    pub fn load(&self, key: PartKey<'_>, conversation: &Conversation) -> Option<KeptPart> {
        let mut file = std::io::BufReader::new(File::open(self.path()).ok()?);
        let mut line = Vec::new();
        file.read_until(b'\n', &mut line).ok()?;
        let head: Head = serde_json::from_slice(&line).ok()?;
        // The bytes are read straight into their buffer (and one more, to see the end).
        let mut bytes = Vec::with_capacity(head.bytes.min(MAX_BYTES) + 1);
        file.take(MAX_BYTES as u64 + 1)
            .read_to_end(&mut bytes)
            .ok()?;
        let fits = head.version == VERSION
            && head.format == key.format
            && head.system_prompt.as_deref() == key.system_prompt
            && head.bytes == bytes.len()
            && line.ends_with(b"\n")
            && head.count > 0
            && !head.slots.is_empty()
            && head.slots.len() < conversation.len()
            && head.model == serde_json::to_string(key.model).ok()?;
        if !fits {
            return None;
        }
        let mut lines = Vec::with_capacity(head.slots.len());
        for (index, &stored) in head.slots.iter().enumerate() {
            let same = match (SlotId::from_stored(stored)?, conversation.origin(index)?) {
                (SlotId::File(o, l), Origin::File { offset, len }) => {
                    lines.push((offset, len));
                    o == offset && l == len
                }
                (SlotId::Held(held), Origin::Held(message)) => digest_message(message) == held,
                (SlotId::Held(held), Origin::File { .. }) => {
                    digest_message(&*conversation.get(index)?) == held
                }
                (SlotId::File(..), Origin::Held(_)) => false,
            };
            if !same {
                return None;
            }
        }
        if digest_lines(&self.session_file, &lines)? != head.lines {
            return None;
        }
        Some(KeptPart {
            slots: head.slots.len(),
            written: WrittenSettled {
                count: head.count,
                bytes,
                after_tool_result: head.after_tool_result,
                tool_history: head.tool_history,
            },
        })
    }

    /// Keep `written`, the settled part of a request under `key` covering the first
    /// `slots` messages of `conversation`. Failures are ignored: the next request is
    /// then built in full.
    pub fn save(
        &self,
        key: PartKey<'_>,
        conversation: &Conversation,
        slots: usize,
        written: &WrittenSettled,
    ) {
        let _ = self.try_save(key, conversation, slots, written);
    }

    fn try_save(
        &self,
        key: PartKey<'_>,
        conversation: &Conversation,
        slots: usize,
        written: &WrittenSettled,
    ) -> Option<()> {
        let held = (0..slots)
            .filter(|&i| matches!(conversation.origin(i), Some(Origin::Held(_))))
            .count();
        let covered = written.bytes.len() <= MAX_BYTES && held <= MAX_HELD;
        // A part without coverage only marks the session: it never replaces a kept one
        // (a run that held the messages in memory says nothing against it).
        if !covered && self.path().is_file() {
            return Some(());
        }
        let mut ids = Vec::with_capacity(slots);
        let mut lines = Vec::new();
        for index in (0..slots).filter(|_| covered) {
            ids.push(match conversation.origin(index)? {
                Origin::File { offset, len } => {
                    lines.push((offset, len));
                    SlotId::File(offset, len).stored()
                }
                Origin::Held(message) => SlotId::Held(digest_message(message)).stored(),
            });
        }
        let bytes: &[u8] = if covered { &written.bytes } else { &[] };
        let head = Head {
            version: VERSION,
            format: key.format.to_string(),
            model: serde_json::to_string(key.model).ok()?,
            system_prompt: key.system_prompt.map(str::to_string),
            slots: ids,
            lines: digest_lines(&self.session_file, &lines)?,
            count: if covered { written.count } else { 0 },
            after_tool_result: written.after_tool_result,
            tool_history: written.tool_history,
            bytes: bytes.len(),
        };
        let mut data = serde_json::to_vec(&head).ok()?;
        data.push(b'\n');
        data.extend_from_slice(bytes);
        // A failed write leaves no part: the next request is built in full.
        let _ = self.folder.write(&self.session_id, &data);
        Some(())
    }
}

/// The id in the header line of a session file (the first line, read alone).
fn header_id(session_file: &Path) -> Option<String> {
    let mut file = File::open(session_file).ok()?;
    let mut line = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let n = file.read(&mut chunk).ok()?;
        let end = memchr::memchr(b'\n', &chunk[..n]);
        line.extend_from_slice(&chunk[..end.unwrap_or(n)]);
        if n == 0 || end.is_some() || line.len() > (1 << 20) {
            break;
        }
    }
    let header: serde_json::Value = serde_json::from_slice(&line).ok()?;
    (header["type"] == "session")
        .then(|| header["id"].as_str().map(str::to_string))
        .flatten()
}

/// Digest of the bytes of `lines` (offset, length) of `path`, in order.
fn digest_lines(path: &Path, lines: &[(u64, u32)]) -> Option<u64> {
    let Some(end) = lines.iter().map(|&(o, l)| o + u64::from(l)).max() else {
        return Some(0);
    };
    let mut data = Vec::with_capacity(usize::try_from(end).ok()?);
    File::open(path)
        .ok()?
        .take(end)
        .read_to_end(&mut data)
        .ok()?;
    let mut state = 0;
    for &(offset, len) in lines {
        let start = usize::try_from(offset).ok()?;
        let line = data.get(start..start + len as usize)?;
        state = digest(state, line);
    }
    Some(state)
}

/// Digest of a message's JSON.
fn digest_message(message: &Message) -> u64 {
    serde_json::to_vec(message).map_or(0, |json| digest(0, &json))
}

#[cfg(test)]
#[path = "settled_store_tests.rs"]
mod tests;
