//! A long session's index kept between runs, in `<agentDir>/cache/index/`: opening
//! the session again reads the index instead of every line, then indexes only the
//! lines appended since. The kept index is used only for the same file (its path,
//! device and inode) whose covered bytes are unchanged (a digest of blocks spread
//! over them, the first and the last included); anything else, or a kept file that
//! cannot be read, and the session is indexed from its lines as always. It is kept
//! anew when it was missing or stale, or once the lines indexed on top of it pass
//! [`REKEEP_AFTER`] bytes. Deleting the folder is always safe.

use std::borrow::Cow;
use std::fs::File;
use std::path::Path;
use std::sync::OnceLock;

use bincode::Options;
use serde::de::{DeserializeSeed, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

use super::kept_previews::{self, KeptPreviews};
use super::store::{EntryRecord, StoredEntry, read_exact_at};
use crate::config::cache_files::{CacheFolder, digest};
use crate::sync::Run;

/// Version of the file layout (the layout of [`EntryRecord`] and the preview cut are
/// checked besides, see [`layout`]).
const VERSION: u64 = 6;
/// How many sessions' indexes are kept (the most recently written).
const KEEP: usize = 32;
/// The kept files' extension.
const EXTENSION: &str = "index";
/// Session files at least this long have their index kept.
pub(super) const KEPT_FROM: u64 = 512 << 10;
/// Lines appended after the kept index are indexed on each opening; past this many
/// bytes of them, the index is kept anew.
pub(super) const REKEEP_AFTER: u64 = 1 << 20;
/// The covered bytes are checked in this many blocks …
const BLOCKS: u64 = 16;
/// … of this many bytes each.
const BLOCK_BYTES: u64 = 4096;

/// The folder indexes are kept in: set once at start-up (a process that never sets
/// it, such as a library user or a unit test, keeps none).
static FOLDER: OnceLock<CacheFolder> = OnceLock::new();

/// Keep long sessions' indexes under `agent_dir` from now on.
pub fn keep_in(agent_dir: &Path) {
    let _ = FOLDER.set(folder_in(agent_dir));
}

/// The index folder under `agent_dir`.
pub(super) fn folder_in(agent_dir: &Path) -> CacheFolder {
    CacheFolder::new(agent_dir, "index", EXTENSION, KEEP)
}

/// The folder set by [`keep_in`].
pub(super) fn folder() -> Option<&'static CacheFolder> {
    FOLDER.get()
}

/// What a kept index file holds after the length of this head (8 bytes, little
/// endian); the records of the entries follow in [`CHUNKS`] runs (each a sequence of
/// [`EntryRecord`]s, read on threads of their own), read only when the head matches
/// the session file, then their `/tree` previews in as many runs (read when the tree
/// first asks, see `kept_previews`).
#[derive(Serialize, Deserialize)]
struct IndexHead<'a> {
    layout: u64,
    /// Read back owned (the head is read apart from the rest).
    path: Cow<'a, str>,
    /// Device and inode of the session file.
    file_id: [u64; 2],
    /// The bytes of the session file the index covers (whole lines, from the start).
    covered: u64,
    /// Digest of the covered bytes' blocks (see [`blocks_digest`]).
    blocks: u64,
    /// Lines in the covered bytes, the header's included.
    lines: u64,
    /// 1-based numbers of the covered lines that could not be read.
    unreadable: Vec<u64>,
    /// How many of those are entries (known types of a shape not understood).
    kept_unreadable: u64,
    /// The byte length of each run of records, in order.
    chunks: Vec<u64>,
    /// How many records each run holds.
    counts: Vec<u64>,
    /// The byte length of each run of previews, in order.
    previews: Vec<u64>,
}

/// The records are kept in this many runs, read at once.
const CHUNKS: usize = 4;

/// What a kept index gives: the records of the covered lines.
#[derive(Debug)]
pub(super) struct KeptIndex {
    /// The entries of the covered lines.
    pub entries: Vec<StoredEntry>,
    /// Where the lines it does not cover start.
    pub covered: u64,
    /// Lines covered, the header's included.
    pub lines: usize,
    /// 1-based numbers of the covered lines that could not be read.
    pub unreadable: Vec<usize>,
    /// How many of those are entries.
    pub kept_unreadable: usize,
    /// Their previews, read when asked for.
    pub previews: KeptPreviews,
}

/// The kept index file of the session file `path` (open as `file`, `size` bytes
/// long), its head's length and its head, when they match that file.
fn matching_head(
    folder: &CacheFolder,
    path: &Path,
    file: &File,
    size: u64,
) -> Option<(File, u64, IndexHead<'static>)> {
    let name = path.to_str()?;
    let kept_file = File::open(folder.path(name)).ok()?;
    let total = kept_file.metadata().ok()?.len();
    let mut prefix = [0u8; 8];
    read_exact_at(&kept_file, &mut prefix, 0).ok()?;
    let head_len = u64::from_le_bytes(prefix);
    if head_len > total.saturating_sub(8) {
        return None;
    }
    let mut head_bytes = vec![0u8; usize::try_from(head_len).ok()?];
    read_exact_at(&kept_file, &mut head_bytes, 8).ok()?;
    let head: IndexHead<'static> = decode(&head_bytes)?;
    let fits = head.layout == layout()
        && head.path == name
        && head.file_id == file_id(file)?
        && head.covered <= size
        && blocks_digest(file, head.covered)? == head.blocks;
    fits.then_some((kept_file, head_len, head))
}

/// Whether the session file `path` (open as `file`, `size` bytes long) has a kept
/// index that opening it would not keep anew.
pub(super) fn is_current(folder: &CacheFolder, path: &Path, file: &File, size: u64) -> bool {
    matching_head(folder, path, file, size)
        .is_some_and(|(_, _, head)| size - head.covered < REKEEP_AFTER)
}

/// The kept index of the session file `path` (open as `file`, `size` bytes long),
/// when one matches it.
pub(super) fn load(folder: &CacheFolder, path: &Path, file: &File, size: u64) -> Option<KeptIndex> {
    let (kept_file, head_len, head) = matching_head(folder, path, file, size)?;
    let total = kept_file.metadata().ok()?.len();
    // One read of every run of records (a buffer this large is a mapping of its own,
    // given back whole once read), then each run decoded on a thread of its own.
    let body_start = 8 + head_len;
    let records_len = head
        .chunks
        .iter()
        .try_fold(0u64, |sum, &n| sum.checked_add(n))?;
    let previews_len = head
        .previews
        .iter()
        .try_fold(0u64, |sum, &n| sum.checked_add(n))?;
    if records_len.checked_add(previews_len)? != total - body_start {
        return None;
    }
    let body = read_bytes(&kept_file, body_start, records_len)?;
    if head.counts.len() != head.chunks.len() {
        return None;
    }
    let mut runs = Vec::with_capacity(head.chunks.len());
    let mut rest: &[u8] = &body;
    for (&len, &count) in head.chunks.iter().zip(&head.counts) {
        let len = usize::try_from(len).ok()?;
        let count = usize::try_from(count).ok()?;
        if len > rest.len() || count > len / MIN_RECORD_BYTES {
            return None;
        }
        let (run, after) = rest.split_at(len);
        runs.push((run, count));
        rest = after;
    }
    let entries = crate::sync::fill_on_threads(runs, read_run)?;
    let previews = KeptPreviews::new(
        kept_file,
        body_start + records_len,
        head.previews.clone(),
        entries.len(),
    );
    Some(KeptIndex {
        previews,
        entries,
        covered: head.covered,
        lines: usize::try_from(head.lines).ok()?,
        unreadable: head
            .unreadable
            .iter()
            .map(|&n| usize::try_from(n).ok())
            .collect::<Option<_>>()?,
        kept_unreadable: usize::try_from(head.kept_unreadable).ok()?,
    })
}

/// `len` bytes of `file` from `start` (into memory not written first).
pub(super) fn read_bytes(mut file: &File, start: u64, len: u64) -> Option<Vec<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    let mut bytes = Vec::with_capacity(usize::try_from(len).ok()?);
    file.seek(SeekFrom::Start(start)).ok()?;
    file.take(len).read_to_end(&mut bytes).ok()?;
    (bytes.len() as u64 == len).then_some(bytes)
}

/// A value of the kept file's encoding, read from all of `bytes`.
pub(super) fn decode<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Option<T> {
    options(bytes.len()).deserialize(bytes).ok()
}

/// Read the records of one run of the kept file into `run`; whether they all were.
fn read_run(bytes: &[u8], run: &mut Run<'_, StoredEntry>) -> bool {
    let mut reader = bincode::Deserializer::from_slice(bytes, options(bytes.len()));
    Records { run }.deserialize(&mut reader).is_ok()
}

/// Fewer bytes than any record takes.
const MIN_RECORD_BYTES: usize = 8;

/// Reads the sequence of records straight into their places (no record is held
/// longer than it is read).
struct Records<'r, 'a> {
    run: &'r mut Run<'a, StoredEntry>,
}

impl<'de> DeserializeSeed<'de> for Records<'_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Records<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("index records")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let unreadable = || serde::de::Error::custom("an unreadable record");
        while let Some(record) = seq.next_element::<EntryRecord<'de>>()? {
            let entry = StoredEntry::from_record(&record).ok_or_else(unreadable)?;
            if !self.run.push(entry) {
                return Err(unreadable());
            }
        }
        Ok(())
    }
}

/// What indexing the first `covered` bytes of a session file found.
#[derive(Debug, Clone, Copy)]
pub(super) struct Coverage<'a> {
    /// Whole lines from the start: the file has a newline just before `covered`.
    pub covered: u64,
    /// Lines covered, the header's included.
    pub lines: usize,
    /// 1-based numbers of the covered lines that could not be read.
    pub unreadable: &'a [usize],
    /// How many of those are entries.
    pub kept_unreadable: usize,
    /// The entries of the covered lines.
    pub entries: &'a [StoredEntry],
}

/// Keep the index `coverage` of the session file `path` (open as `file`). Failures
/// are ignored: the next opening indexes the lines again.
pub(super) fn save(folder: &CacheFolder, path: &Path, file: &File, coverage: Coverage<'_>) {
    let _ = try_save(folder, path, file, coverage);
}

fn try_save(folder: &CacheFolder, path: &Path, file: &File, coverage: Coverage<'_>) -> Option<()> {
    let name = path.to_str()?;
    let covered = coverage.covered;
    if covered == 0 || last_byte(file, covered)? != b'\n' {
        return None;
    }
    let records = coverage
        .entries
        .iter()
        .map(StoredEntry::record)
        .collect::<Option<Vec<_>>>()?;
    let share = records.len().div_ceil(CHUNKS).max(1);
    let mut body = Vec::new();
    let chunks = write_runs(&mut body, &records, share)?;
    let counts = records.chunks(share).map(|run| run.len() as u64).collect();
    let previews = write_runs(&mut body, &kept_previews::of(coverage.entries), share)?;
    let head = IndexHead {
        layout: layout(),
        path: Cow::Borrowed(name),
        file_id: file_id(file)?,
        covered,
        blocks: blocks_digest(file, covered)?,
        lines: coverage.lines as u64,
        unreadable: coverage.unreadable.iter().map(|&n| n as u64).collect(),
        kept_unreadable: coverage.kept_unreadable as u64,
        chunks,
        counts,
        previews,
    };
    let head = options(usize::MAX).serialize(&head).ok()?;
    let mut bytes = Vec::with_capacity(8 + head.len() + body.len());
    bytes.extend_from_slice(&(head.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&head);
    bytes.extend_from_slice(&body);
    folder.write(name, &bytes).ok()
}

/// Write `items` to `body` in runs of `share`; the byte length of each run.
fn write_runs<T: Serialize>(body: &mut Vec<u8>, items: &[T], share: usize) -> Option<Vec<u64>> {
    let mut lengths = Vec::with_capacity(CHUNKS);
    for run in items.chunks(share) {
        let before = body.len();
        options(usize::MAX).serialize_into(&mut *body, run).ok()?;
        lengths.push((body.len() - before) as u64);
    }
    Some(lengths)
}

/// The encoding: variable-length integers, and never more than `limit` bytes read.
fn options(limit: usize) -> impl Options {
    bincode::DefaultOptions::new().with_limit(limit as u64)
}

/// What decides how a kept file reads: the version, the encoding of a record of each
/// kind (a field added to a record changes it, so an index of an older build is never
/// misread) and how a long preview is cut.
fn layout() -> u64 {
    static LAYOUT: OnceLock<u64> = OnceLock::new();
    *LAYOUT.get_or_init(|| {
        let sample = super::store::sample_records();
        let mut bytes = options(usize::MAX).serialize(&sample).unwrap_or_default();
        // Previews kept with another cut (length or mark) would read differently.
        let long = "word \n".repeat(super::preview::PREVIEW_CHARS);
        bytes.extend_from_slice(super::preview::one_line(&long).as_bytes());
        digest(VERSION, &bytes)
    })
}

/// Device and inode of `file` (a file replaced by another is never taken for it).
#[cfg(unix)]
fn file_id(file: &File) -> Option<[u64; 2]> {
    use std::os::unix::fs::MetadataExt;
    let meta = file.metadata().ok()?;
    Some([meta.dev(), meta.ino()])
}

#[cfg(not(unix))]
fn file_id(_file: &File) -> Option<[u64; 2]> {
    Some([0, 0])
}

/// Digest of [`BLOCKS`] blocks spread evenly over the first `covered` bytes of
/// `file` (the first block starts at 0, the last ends at `covered`).
fn blocks_digest(file: &File, covered: u64) -> Option<u64> {
    let block = BLOCK_BYTES.min(covered);
    let mut buffer = vec![0u8; usize::try_from(block).ok()?];
    let mut state = covered;
    for k in 0..BLOCKS {
        let start = (covered - block) * k / (BLOCKS - 1);
        read_exact_at(file, &mut buffer, start).ok()?;
        state = digest(state, &buffer);
    }
    Some(state)
}

/// The byte before `end`.
fn last_byte(file: &File, end: u64) -> Option<u8> {
    let mut byte = [0u8];
    read_exact_at(file, &mut byte, end.checked_sub(1)?).ok()?;
    Some(byte[0])
}

#[cfg(test)]
#[path = "index_cache_tests.rs"]
mod tests;
