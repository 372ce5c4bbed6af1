//! `SessionManager`: an append-only entry tree with a movable leaf, stored
//! lazily as JSON lines.

use std::collections::HashMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::entries::{CURRENT_SESSION_VERSION, LabelEntry, SessionEntry, SessionHeader};
use super::error::SessionError;
use super::id_index::IdIndex;
use super::ids::{new_session_id, now_iso};
use super::index_file::{Indexed, IndexedSession, index_session_file};
use super::layout::session_file_name;
use super::load::{MigrationWrite, load_session_file, looks_like_session_file, render_lines};
use super::store::EntryStore;
use super::writer::LineAppender;
use crate::config::atomic_file::write_atomically;

/// A label currently set on an entry.
#[derive(Debug, Clone)]
pub(super) struct EntryLabel {
    pub(super) text: String,
    pub(super) timestamp: String,
}

/// A conversation stored as a tree of entries. Appends go under the current
/// leaf and move it; `branch` moves the leaf back without deleting anything.
///
/// Persistence is lazy: nothing reaches disk until the session holds an
/// assistant message; then the header and all buffered entries are written,
/// and every later entry is appended as one line. `sync` flushes to disk.
#[derive(Debug)]
pub struct SessionManager {
    pub(super) cwd: PathBuf,
    pub(super) session_dir: Option<PathBuf>,
    pub(super) session_file: Option<PathBuf>,
    pub(super) header: SessionHeader,
    pub(super) entries: EntryStore,
    pub(super) index: IdIndex,
    /// No two entries share an id (then an entry whose parent is the entry just
    /// before it is linked without a lookup).
    pub(super) ids_unique: bool,
    pub(super) labels: HashMap<String, EntryLabel>,
    pub(super) leaf_id: Option<String>,
    pub(super) has_message: bool,
    pub(super) header_on_disk: bool,
    pub(super) entries_on_disk: usize,
    pub(super) appender: Option<LineAppender>,
    pub(super) write_error: Option<io::Error>,
    /// The file was written again after another program removed it (noted once).
    pub(super) recreated_once: bool,
    /// A note for the user, taken with [`SessionManager::take_notice`].
    pub(super) notice: Option<String>,
    /// Notes are taken by the front end rather than printed by the run.
    pub(super) hold_notices: bool,
    pub(super) skipped_lines: usize,
    /// Lines of the file that could not be read (kept in the file as they are).
    pub(super) unreadable_lines: Vec<usize>,
}

impl SessionManager {
    /// A new session for `cwd`, stored in `session_dir` once it has an
    /// assistant message.
    pub fn create(cwd: &Path, session_dir: &Path) -> Self {
        Self::blank(cwd, Some(session_dir.to_path_buf()), None)
    }

    /// A session that is never written to disk.
    pub fn in_memory(cwd: &Path) -> Self {
        Self::blank(cwd, None, None)
    }

    /// Open a session file; its folder is used for new sessions and its
    /// header's cwd as the working directory. A missing file starts a new
    /// session that will be created at exactly that path.
    pub fn open(path: &Path) -> Result<Self, SessionError> {
        Self::open_with(path, None, None)
    }

    /// [`SessionManager::open`] with an explicit session folder and/or cwd.
    pub fn open_with(
        path: &Path,
        session_dir: Option<&Path>,
        cwd_override: Option<&Path>,
    ) -> Result<Self, SessionError> {
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let dir = session_dir
            .map(Path::to_path_buf)
            .or_else(|| path.parent().map(Path::to_path_buf))
            .unwrap_or_default();
        let loaded = match super::read_ahead::take_read_ahead(&path) {
            Some(result) => result?,
            None => index_session_file(&path, true)?,
        };
        let loaded = match loaded {
            Some(Indexed::Ready(indexed)) => Some(indexed),
            Some(Indexed::NeedsMigration) => open_migrated(&path)?,
            None => None,
        };
        match loaded {
            Some(loaded) => {
                let cwd = cwd_override
                    .map(Path::to_path_buf)
                    .unwrap_or_else(|| cwd_or_current(&loaded.header.cwd));
                Ok(Self::from_loaded(cwd, Some(dir), path, loaded))
            }
            None => {
                let cwd = cwd_override
                    .map(Path::to_path_buf)
                    .unwrap_or_else(|| cwd_or_current(""));
                Ok(Self::blank(&cwd, Some(dir), Some(path)))
            }
        }
    }

    /// Continue the most recently modified session in `session_dir`, or
    /// start a new one when there is none.
    pub fn continue_recent(cwd: &Path, session_dir: &Path) -> Result<Self, SessionError> {
        let latest =
            super::read_ahead::pending_in(session_dir).or_else(|| most_recent_session(session_dir));
        match latest {
            Some(path) => Self::open_with(&path, Some(session_dir), Some(cwd)),
            None => Ok(Self::create(cwd, session_dir)),
        }
    }

    /// Copy another session (any project) into a new session file for
    /// `cwd` in `session_dir`, recording the source as its parent. The
    /// source file is not modified, even when it needs migrating.
    pub fn fork_from(source: &Path, cwd: &Path, session_dir: &Path) -> Result<Self, SessionError> {
        let loaded = load_session_file(source, MigrationWrite::InMemory)?.ok_or_else(|| {
            SessionError::EmptySource {
                path: source.to_path_buf(),
            }
        })?;
        let source = std::path::absolute(source).unwrap_or_else(|_| source.to_path_buf());
        let header = new_header(cwd, Some(source.to_string_lossy().into_owned()));
        let path = session_dir.join(session_file_name(&header.timestamp, &header.id));
        let mut content = render_lines(std::slice::from_ref(&header));
        content.push_str(&render_lines(&loaded.entries));
        drop(loaded.entries);
        create_file_atomically(&path, &content).map_err(|source| SessionError::Write {
            path: path.clone(),
            source,
        })?;
        drop(content);
        let loaded = match index_session_file(&path, true)? {
            Some(Indexed::Ready(indexed)) => indexed,
            _ => {
                return Err(SessionError::NotASessionFile { path: path.clone() });
            }
        };
        Ok(Self::from_loaded(
            cwd.to_path_buf(),
            Some(session_dir.to_path_buf()),
            path,
            loaded,
        ))
    }

    /// Start over with a fresh, empty session in the same folder (`/new`).
    /// Returns the new session's file path, if persisted.
    pub fn new_session(&mut self, parent_session: Option<&str>) -> Option<&Path> {
        *self = Self::blank(&self.cwd, self.session_dir.clone(), None);
        self.header.parent_session = parent_session.map(str::to_string);
        self.session_file.as_deref()
    }

    /// [`SessionManager::new_session`] with a chosen session id instead of a generated one.
    pub fn new_session_with_id(&mut self, parent_session: Option<&str>, id: &str) -> Option<&Path> {
        self.new_session(parent_session);
        self.header.id = id.to_string();
        if let Some(dir) = &self.session_dir {
            self.session_file = Some(dir.join(session_file_name(&self.header.timestamp, id)));
        }
        self.session_file.as_deref()
    }

    fn blank(cwd: &Path, session_dir: Option<PathBuf>, file: Option<PathBuf>) -> Self {
        let header = new_header(cwd, None);
        let session_file = file.or_else(|| {
            session_dir
                .as_ref()
                .map(|dir| dir.join(session_file_name(&header.timestamp, &header.id)))
        });
        SessionManager {
            cwd: cwd.to_path_buf(),
            session_dir,
            session_file,
            header,
            entries: EntryStore::default(),
            index: IdIndex::default(),
            ids_unique: true,
            labels: HashMap::new(),
            leaf_id: None,
            has_message: false,
            header_on_disk: false,
            entries_on_disk: 0,
            appender: None,
            write_error: None,
            recreated_once: false,
            notice: None,
            hold_notices: false,
            skipped_lines: 0,
            unreadable_lines: Vec::new(),
        }
    }

    fn from_loaded(
        cwd: PathBuf,
        session_dir: Option<PathBuf>,
        path: PathBuf,
        loaded: IndexedSession,
    ) -> Self {
        let mut manager = SessionManager {
            cwd,
            session_dir,
            session_file: Some(path),
            has_message: loaded.store.metas().any(|e| e.is_message()),
            entries_on_disk: loaded.store.len(),
            header: loaded.header,
            entries: loaded.store,
            index: IdIndex::default(),
            ids_unique: true,
            labels: HashMap::new(),
            leaf_id: None,
            header_on_disk: true,
            appender: None,
            write_error: None,
            recreated_once: false,
            notice: None,
            hold_notices: false,
            skipped_lines: loaded.skipped_lines,
            unreadable_lines: loaded.unreadable_lines,
        };
        manager.rebuild_index();
        manager
    }

    /// Recompute the id index, labels and leaf (the last entry) from `entries`.
    pub(super) fn rebuild_index(&mut self) {
        self.ids_unique = self.index.rebuild(&self.entries);
        self.labels.clear();
        for (position, stored) in self.entries.metas().enumerate() {
            if stored.kind() == "label"
                && !stored.id().is_empty()
                && let SessionEntry::Label(label) = self.entries.get(position)
            {
                apply_label(&mut self.labels, label);
            }
        }
        self.leaf_id = self
            .entries
            .metas()
            .rev()
            .map(|stored| stored.id())
            .find(|id| !id.is_empty())
            .map(str::to_string);
    }

    /// Keep this session's index for the next run that opens it (a long session
    /// whose kept index is missing or behind; see `index_cache`). Called when pi
    /// quits: a session that grew long in this run then opens at once next time.
    pub fn keep_index(&self) {
        if let Some(path) = &self.session_file {
            super::index_file::keep_index_of(path);
        }
    }

    // ----- getters ---------------------------------------------------------

    /// The session header.
    pub fn header(&self) -> &SessionHeader {
        &self.header
    }

    /// The display name from the latest `session_info` entry.
    pub fn session_name(&self) -> Option<&str> {
        self.entries_of_type("session_info")
            .rev()
            .find_map(|entry| match entry {
                SessionEntry::SessionInfo(info) => Some(
                    info.name
                        .as_deref()
                        .map(str::trim)
                        .filter(|name| !name.is_empty()),
                ),
                _ => None,
            })?
    }

    /// The session id.
    pub fn session_id(&self) -> &str {
        &self.header.id
    }

    /// The session file (`None` in memory).
    pub fn session_file(&self) -> Option<&Path> {
        self.session_file.as_deref()
    }

    /// The folder new sessions go to (`None` in memory).
    pub fn session_dir(&self) -> Option<&Path> {
        self.session_dir.as_deref()
    }

    /// The working directory.
    pub fn cwd(&self) -> &Path {
        &self.cwd
    }

    /// Whether the session is stored on disk.
    pub fn is_persisted(&self) -> bool {
        self.session_file.is_some()
    }

    /// Malformed lines skipped when the session was loaded.
    pub fn skipped_lines(&self) -> usize {
        self.skipped_lines
    }

    /// 1-based numbers of the lines of the loaded file that could not be read;
    /// they are kept in the file as they are.
    pub fn unreadable_lines(&self) -> &[usize] {
        &self.unreadable_lines
    }

    /// A warning naming the file and its first unreadable line, when some
    /// lines of the loaded file could not be read.
    pub fn load_warning(&self) -> Option<String> {
        let first = *self.unreadable_lines.first()?;
        let path = self.session_file.as_ref()?;
        Some(crate::t!(
            "pi.session.unreadable_lines",
            count = self.unreadable_lines.len(),
            line = first,
            path = path.display().to_string()
        ))
    }

    // ----- persistence -----------------------------------------------------

    /// Write whatever is due: nothing before the first message (so the
    /// user's prompt is on disk before the request for it goes out);
    /// then the header and buffered entries as a new file, created
    /// atomically so it never exists half-written; after that, each entry
    /// as one appended line. Failures are kept and retried on the next
    /// append or [`SessionManager::sync`].
    pub(super) fn write_pending(&mut self) {
        let Some(path) = &self.session_file else {
            return;
        };
        if !self.has_message {
            return;
        }
        if !self.header_on_disk {
            let mut content = render_lines(std::slice::from_ref(&self.header));
            content.push_str(&self.render_entries(self.entries_on_disk));
            match create_file_atomically(path, &content) {
                Ok(()) => {
                    self.header_on_disk = true;
                    self.entries_on_disk = self.entries.len();
                    self.write_error = None;
                }
                Err(err) => self.write_error = Some(err),
            }
            return;
        }
        if self.appender.as_ref().is_some_and(|a| !a.still_intact()) {
            self.recreate_file();
            return;
        }
        let appender = self.appender.get_or_insert_with(|| LineAppender::new(path));
        while self.entries_on_disk < self.entries.len() {
            let line = self.entries.load(self.entries_on_disk).to_json_line();
            if let Err(err) = appender.append_line(&line) {
                self.write_error = Some(err);
                return;
            }
            self.entries_on_disk += 1;
        }
        self.write_error = None;
    }

    /// The session file was deleted, truncated or replaced by another program:
    /// write it again whole (header and every entry) and note it once.
    fn recreate_file(&mut self) {
        let Some(path) = self.session_file.clone() else {
            return;
        };
        self.appender = None;
        let mut content = render_lines(std::slice::from_ref(&self.header));
        content.push_str(&self.render_entries(0));
        match create_file_atomically(&path, &content) {
            Ok(()) => {
                self.entries_on_disk = self.entries.len();
                self.write_error = None;
                if !self.recreated_once {
                    self.recreated_once = true;
                    self.notice = Some(crate::t!(
                        "pi.session.recreated",
                        path = path.display().to_string(),
                        count = self.entries.len()
                    ));
                }
            }
            Err(err) => self.write_error = Some(err),
        }
    }

    /// The entries from `start` on as JSON lines.
    fn render_entries(&self, start: usize) -> String {
        let mut out = String::new();
        for position in start..self.entries.len() {
            out.push_str(&self.entries.load(position).to_json_line());
            out.push('\n');
        }
        out
    }

    /// Keep notes for [`SessionManager::take_notice`] (the terminal UI shows
    /// them in its transcript) instead of the run printing them on stderr.
    pub fn hold_notices(&mut self) {
        self.hold_notices = true;
    }

    /// Whether [`SessionManager::hold_notices`] was called.
    pub fn notices_held(&self) -> bool {
        self.hold_notices
    }

    /// A note about the session file for the user (shown once), such as
    /// that it had to be written again after another program removed it.
    pub fn take_notice(&mut self) -> Option<String> {
        self.notice.take()
    }

    /// Write anything pending and flush the file to disk. Reports the last
    /// write failure if entries are still not on disk.
    pub fn sync(&mut self) -> Result<(), SessionError> {
        self.write_pending();
        let write_failure = |source| SessionError::Write {
            path: self.session_file.clone().unwrap_or_default(),
            source,
        };
        if let Some(err) = self.write_error.take() {
            return Err(write_failure(err));
        }
        match self.appender.as_mut().map(LineAppender::sync) {
            Some(Err(err)) => Err(write_failure(err)),
            _ => Ok(()),
        }
    }
}

/// Write a new file (creating its folder) in one atomic step.
pub(super) fn create_file_atomically(path: &Path, content: &str) -> io::Result<()> {
    if let Some(dir) = path.parent()
        && !dir.as_os_str().is_empty()
    {
        create_private_dir(dir)?;
    }
    write_atomically(path, content.as_bytes())
}

/// Create `dir` and any missing parents readable by the user only (0700);
/// folders that already exist keep their mode.
pub(super) fn create_private_dir(dir: &Path) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

/// Apply a label entry to the current label map.
pub(super) fn apply_label(labels: &mut HashMap<String, EntryLabel>, entry: &LabelEntry) {
    match entry.label.as_deref().filter(|label| !label.is_empty()) {
        Some(text) => {
            labels.insert(
                entry.target_id.clone(),
                EntryLabel {
                    text: text.to_string(),
                    timestamp: entry.timestamp.clone(),
                },
            );
        }
        None => {
            labels.remove(&entry.target_id);
        }
    }
}

pub(super) fn new_header(cwd: &Path, parent_session: Option<String>) -> SessionHeader {
    SessionHeader {
        version: CURRENT_SESSION_VERSION,
        id: new_session_id(),
        timestamp: now_iso(),
        cwd: cwd.to_string_lossy().into_owned(),
        parent_session,
    }
}

/// Load a session file of an older format, migrate it and write it back, then
/// index the rewritten file (its entries stay in memory should it not read back).
fn open_migrated(path: &Path) -> Result<Option<IndexedSession>, SessionError> {
    let Some(loaded) = load_session_file(path, MigrationWrite::Rewrite)? else {
        return Ok(None);
    };
    match index_session_file(path, true)? {
        Some(Indexed::Ready(indexed)) => Ok(Some(indexed)),
        _ => Ok(Some(IndexedSession::from_loaded(loaded))),
    }
}

fn cwd_or_current(cwd: &str) -> PathBuf {
    if cwd.is_empty() {
        std::env::current_dir().unwrap_or_default()
    } else {
        PathBuf::from(cwd)
    }
}

/// The session file in `dir` modified most recently, if any.
pub fn most_recent_session(dir: &Path) -> Option<PathBuf> {
    fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "jsonl"))
        .filter(|path| looks_like_session_file(path))
        .filter_map(|path| Some((fs::metadata(&path).ok()?.modified().ok()?, path)))
        .max_by_key(|(modified, _)| *modified)
        .map(|(_, path)| path)
}
