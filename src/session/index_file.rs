//! Indexing a session file line by line: the header is checked, every entry
//! line is read (several parts of a large file at once, each streamed through a
//! small buffer, so the file is never held whole) and recorded with its offset.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use super::entries::{CURRENT_SESSION_VERSION, SessionEntry, SessionHeader};
use super::entry_head::EntryHead;
use super::error::SessionError;
use super::index_cache;
use super::load::{LoadedSession, MAX_SESSION_BYTES, decode_lossy};
use super::store::{EntryStore, StoredEntry};
use crate::config::cache_files::CacheFolder;
use crate::config::regular_file::open_regular;

/// A session file read into an index.
#[derive(Debug)]
pub struct IndexedSession {
    /// The header.
    pub(super) header: SessionHeader,
    /// The entries.
    pub(super) store: EntryStore,
    /// Non-blank lines that were not valid JSON objects and were skipped.
    pub(super) skipped_lines: usize,
    /// 1-based numbers of the lines that could not be read.
    pub(super) unreadable_lines: Vec<usize>,
}

impl IndexedSession {
    /// A session loaded whole (a migrated one), its entries held in memory.
    pub(super) fn from_loaded(loaded: LoadedSession) -> Self {
        IndexedSession {
            header: loaded.header,
            store: EntryStore::held(loaded.entries),
            skipped_lines: loaded.skipped_lines,
            unreadable_lines: loaded.unreadable_lines,
        }
    }
}

/// What indexing a file found.
#[derive(Debug)]
pub enum Indexed {
    /// A current-format session.
    Ready(IndexedSession),
    /// A session of an older format: it must be loaded whole and migrated.
    NeedsMigration,
}

/// Files up to this size keep the bodies parsed while indexing (when asked to): the
/// conversation taken right after opening then needs no second reading. A longer
/// session's bodies stay in the file, read back when asked for.
const KEEP_BODIES_UP_TO: u64 = 4 * 1024 * 1024;

/// Fewer bytes than an entry line takes on average: a part's records are
/// reserved at its length over this (the room never used is never touched).
const LINE_BYTES_GUESS: u64 = 256;

/// Bytes of entry lines per thread at least; smaller files are read on one.
const BYTES_PER_THREAD: u64 = 256 * 1024;

/// Index the session file at `path`. `Ok(None)` when the file does not exist or
/// holds only whitespace; a file whose first non-blank line is not a session
/// header, or of a newer version, is an error. With `warm`, the parsed bodies of
/// a file of up to [`KEEP_BODIES_UP_TO`] bytes are kept for now (the context
/// built right after opening takes them instead of reading the file again).
pub fn index_session_file(path: &Path, warm: bool) -> Result<Option<Indexed>, SessionError> {
    index_session_file_with(path, warm, index_cache::folder())
}

/// [`index_session_file`], a long file's index kept in `cache` (see `index_cache`).
pub(super) fn index_session_file_with(
    path: &Path,
    warm: bool,
    cache: Option<&CacheFolder>,
) -> Result<Option<Indexed>, SessionError> {
    let read_error = |source| SessionError::Read {
        path: path.to_path_buf(),
        source,
    };
    let file = match open_regular(path) {
        Ok(file) => file,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(read_error(err)),
    };
    let size = file.metadata().map_err(read_error)?.len();
    if size > MAX_SESSION_BYTES {
        return Err(read_error(io::Error::new(
            io::ErrorKind::InvalidData,
            "the session file is too large",
        )));
    }
    let mut reader = BufReader::new(At {
        file: &file,
        pos: 0,
        end: size,
    });
    let mut line = Vec::new();
    let mut header_line = 0;
    let header_text = loop {
        line.clear();
        if reader.read_until(b'\n', &mut line).map_err(read_error)? == 0 {
            return Ok(None);
        }
        header_line += 1;
        let text = decode_lossy(strip_newline(&line));
        if !text.trim().is_empty() {
            break text.into_owned();
        }
    };
    let body_start = reader.get_ref().pos - reader.buffer().len() as u64;
    drop(reader);
    let not_a_session = || SessionError::NotASessionFile {
        path: path.to_path_buf(),
    };
    let header: SessionHeader = serde_json::from_str(&header_text).map_err(|_| not_a_session())?;
    if header.version > CURRENT_SESSION_VERSION {
        return Err(SessionError::NewerVersion {
            path: path.to_path_buf(),
            version: header.version,
        });
    }
    if header.version < CURRENT_SESSION_VERSION {
        return Ok(Some(Indexed::NeedsMigration));
    }
    let warm = warm && size <= KEEP_BODIES_UP_TO;
    let cache = cache.filter(|_| !warm && size >= index_cache::KEPT_FROM);
    let kept = cache.and_then(|folder| index_cache::load(folder, path, &file, size));
    let from_kept = kept.as_ref().map(|kept| kept.covered);
    let mut kept_previews = None;
    let mut found = match kept {
        Some(kept) => {
            kept_previews = Some(kept.previews);
            Found {
                entries: kept.entries,
                unreadable_lines: kept.unreadable,
                kept_unreadable: kept.kept_unreadable,
                lines: kept.lines,
            }
        }
        None => Found {
            lines: header_line,
            ..Found::default()
        },
    };
    let from = from_kept.unwrap_or(body_start);
    for part in index_parts(&file, from, size, warm).map_err(read_error)? {
        found.add(part);
    }
    if let Some(folder) = cache
        && from_kept.is_none_or(|covered| size - covered >= index_cache::REKEEP_AFTER)
    {
        // The index kept anew keeps the previews of the entries the old one covered.
        if let Some(previews) = kept_previews.take() {
            previews.fill(&found.entries);
        }
        index_cache::save(folder, path, &file, found.coverage(size));
    }
    let Found {
        entries,
        unreadable_lines,
        kept_unreadable,
        ..
    } = found;
    Ok(Some(Indexed::Ready(IndexedSession {
        header,
        store: EntryStore::indexed(entries, file, kept_previews),
        skipped_lines: unreadable_lines.len() - kept_unreadable,
        unreadable_lines,
    })))
}

/// Keep the index of the session file at `path` for the next run that opens it, in
/// the folder set at start-up: when the file is long enough to have one and the
/// index kept of it (if any) would be kept anew on opening, its lines are indexed now.
pub fn keep_index_of(path: &Path) {
    if let Some(folder) = index_cache::folder() {
        keep_index_in(path, folder);
    }
}

/// [`keep_index_of`] in `folder`.
pub(super) fn keep_index_in(path: &Path, folder: &CacheFolder) {
    let Ok(file) = open_regular(path) else {
        return;
    };
    let Ok(size) = file.metadata().map(|meta| meta.len()) else {
        return;
    };
    if size >= index_cache::KEPT_FROM && !index_cache::is_current(folder, path, &file, size) {
        let _ = index_session_file_with(path, false, Some(folder));
    }
}

/// What one part of the file held.
#[derive(Default)]
struct Part {
    entries: Vec<StoredEntry>,
    /// Line numbers within the part (1-based) of lines that could not be read.
    unreadable: Vec<usize>,
    /// How many of those are kept as entries (JSON objects of a known type
    /// whose shape is not understood).
    kept_unreadable: usize,
    /// Lines in the part.
    lines: usize,
}

/// The entries and unreadable lines found so far, in file order.
#[derive(Default)]
struct Found {
    entries: Vec<StoredEntry>,
    unreadable_lines: Vec<usize>,
    kept_unreadable: usize,
    /// Lines read so far, the header's included.
    lines: usize,
}

impl Found {
    /// Add the next part of the file.
    fn add(&mut self, part: Part) {
        if self.entries.is_empty() {
            self.entries = part.entries;
        } else {
            self.entries.extend(part.entries);
        }
        let before = self.lines;
        self.unreadable_lines
            .extend(part.unreadable.iter().map(|n| n + before));
        self.kept_unreadable += part.kept_unreadable;
        self.lines += part.lines;
    }

    /// What was found, as covering the first `covered` bytes.
    fn coverage(&self, covered: u64) -> index_cache::Coverage<'_> {
        index_cache::Coverage {
            covered,
            lines: self.lines,
            unreadable: &self.unreadable_lines,
            kept_unreadable: self.kept_unreadable,
            entries: &self.entries,
        }
    }
}

/// The lines of `start..end` indexed in parts, several at once when they are many.
fn index_parts(file: &File, start: u64, end: u64, warm: bool) -> io::Result<Vec<Part>> {
    let parts = split_at_lines(file, start, end)?;
    crate::sync::map_on_threads(parts, |(start, end)| index_part(file, start, end, warm))
        .into_iter()
        .map(|part| part.unwrap_or_else(|| Err(io::Error::other("a reading thread failed"))))
        .collect()
}

/// Read the lines in `start..end` (whole lines) into index records. A line lying
/// whole in the read buffer is parsed where it is; only a line cut by the
/// buffer's end is gathered first.
fn index_part(file: &File, start: u64, end: u64, warm: bool) -> io::Result<Part> {
    let mut reader = BufReader::with_capacity(
        128 * 1024,
        At {
            file,
            pos: start,
            end,
        },
    );
    let mut part = Part {
        entries: Vec::with_capacity(usize::try_from((end - start) / LINE_BYTES_GUESS).unwrap_or(0)),
        ..Part::default()
    };
    let mut gathered = Vec::new();
    let mut offset = start;
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            if !gathered.is_empty() {
                index_line(&mut part, &gathered, offset, warm);
            }
            return Ok(part);
        }
        let Some(newline) = memchr::memchr(b'\n', buffer) else {
            gathered.extend_from_slice(buffer);
            let used = buffer.len();
            reader.consume(used);
            continue;
        };
        let read = if gathered.is_empty() {
            index_line(&mut part, &buffer[..newline], offset, warm);
            newline + 1
        } else {
            gathered.extend_from_slice(&buffer[..newline]);
            index_line(&mut part, &gathered, offset, warm);
            let read = gathered.len() + 1;
            gathered.clear();
            read
        };
        reader.consume(newline + 1);
        offset += read as u64;
    }
}

/// Record one line (without its newline) that starts at `offset`.
fn index_line(part: &mut Part, content: &[u8], offset: u64, warm: bool) {
    part.lines += 1;
    let text = decode_lossy(content);
    if text.trim().is_empty() {
        return;
    }
    if !warm
        && let Ok(len) = u32::try_from(content.len())
        && let Some(head) = EntryHead::read(&text)
    {
        part.entries.push(StoredEntry::from_head(head, offset, len));
        return;
    }
    match SessionEntry::parse_line(&text) {
        Some(entry) if entry.type_name() == "session" => {}
        Some(entry) => {
            if entry.is_unreadable() {
                part.unreadable.push(part.lines);
                part.kept_unreadable += 1;
            }
            part.entries
                .push(StoredEntry::from_file(entry, offset, content.len(), warm));
        }
        None => part.unreadable.push(part.lines),
    }
}

fn strip_newline(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\n").unwrap_or(line)
}

/// `start..end` cut into about equal runs of whole lines, one per thread.
fn split_at_lines(file: &File, start: u64, end: u64) -> io::Result<Vec<(u64, u64)>> {
    let threads = std::thread::available_parallelism()
        .map(|n| n.get() as u64)
        .unwrap_or(1)
        .min((end - start) / BYTES_PER_THREAD)
        .max(1);
    let share = (end - start) / threads;
    let mut parts = Vec::new();
    let mut from = start;
    for k in 1..threads {
        let cut = next_line_start(file, (start + k * share).max(from), end)?;
        if cut > from && cut < end {
            parts.push((from, cut));
            from = cut;
        }
    }
    parts.push((from, end));
    Ok(parts)
}

/// The offset just past the first newline at or after `at` (`end` when none).
fn next_line_start(file: &File, at: u64, end: u64) -> io::Result<u64> {
    let mut reader = BufReader::with_capacity(16 * 1024, At { file, pos: at, end });
    let mut skipped = Vec::new();
    let read = reader.read_until(b'\n', &mut skipped)?;
    Ok(at + read as u64)
}

/// Reads `file` from `pos` up to `end` with positioned reads, so several
/// readers can share one open file.
struct At<'a> {
    file: &'a File,
    pos: u64,
    end: u64,
}

impl Read for At<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = usize::try_from(self.end.saturating_sub(self.pos)).unwrap_or(usize::MAX);
        let want = buf.len().min(left);
        if want == 0 {
            return Ok(0);
        }
        let got = read_at(self.file, &mut buf[..want], self.pos)?;
        self.pos += got as u64;
        Ok(got)
    }
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    use std::os::unix::fs::FileExt;
    file.read_at(buf, offset)
}

#[cfg(not(unix))]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    use std::io::{Seek, SeekFrom};
    let mut file = file.try_clone()?;
    file.seek(SeekFrom::Start(offset))?;
    file.read(buf)
}

#[cfg(test)]
#[path = "index_file_tests.rs"]
mod tests;
