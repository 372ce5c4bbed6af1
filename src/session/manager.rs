//! `SessionManager`: an append-only entry tree with a movable leaf, stored
//! lazily as JSON lines.

use std::collections::HashMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::ai::model::ThinkingLevel;
use crate::ai::types::{Message, UserContent};

use super::context::{SessionContext, build_context_with};
use super::entries::{
    BranchSummaryEntry, CURRENT_SESSION_VERSION, CompactionEntry, CustomEntry,
    CustomMessageEntry, LabelEntry, MessageEntry, ModelChangeEntry, SessionEntry, SessionHeader,
    SessionInfoEntry, ThinkingLevelChangeEntry,
};
use super::error::SessionError;
use super::ids::{new_entry_id, new_session_id, now_iso};
use super::layout::session_file_name;
use super::load::{LoadedSession, MigrationWrite, load_session_file, looks_like_session_file};
use super::tree::SessionTree;
use super::writer::LineAppender;

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
    pub(super) entries: Vec<SessionEntry>,
    pub(super) index: HashMap<String, usize>,
    pub(super) labels: HashMap<String, EntryLabel>,
    pub(super) leaf_id: Option<String>,
    pub(super) has_assistant: bool,
    pub(super) header_on_disk: bool,
    pub(super) entries_on_disk: usize,
    pub(super) appender: Option<LineAppender>,
    pub(super) write_error: Option<io::Error>,
    pub(super) skipped_lines: usize,
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
        match load_session_file(&path, MigrationWrite::Rewrite)? {
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
        match most_recent_session(session_dir) {
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
        let write_error = |source| SessionError::Write {
            path: path.clone(),
            source,
        };
        fs::create_dir_all(session_dir).map_err(write_error)?;
        let mut content = super::load::render_lines(std::slice::from_ref(&header));
        content.push_str(&super::load::render_lines(&loaded.entries));
        super::migrate::write_atomically(&path, content.as_bytes()).map_err(write_error)?;
        let loaded = LoadedSession { header, ..loaded };
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
            entries: Vec::new(),
            index: HashMap::new(),
            labels: HashMap::new(),
            leaf_id: None,
            has_assistant: false,
            header_on_disk: false,
            entries_on_disk: 0,
            appender: None,
            write_error: None,
            skipped_lines: 0,
        }
    }

    fn from_loaded(
        cwd: PathBuf,
        session_dir: Option<PathBuf>,
        path: PathBuf,
        loaded: LoadedSession,
    ) -> Self {
        let mut manager = SessionManager {
            cwd,
            session_dir,
            session_file: Some(path),
            has_assistant: loaded.entries.iter().any(SessionEntry::is_assistant_message),
            entries_on_disk: loaded.entries.len(),
            header: loaded.header,
            entries: loaded.entries,
            index: HashMap::new(),
            labels: HashMap::new(),
            leaf_id: None,
            header_on_disk: true,
            appender: None,
            write_error: None,
            skipped_lines: loaded.skipped_lines,
        };
        manager.rebuild_index();
        manager
    }

    /// Recompute the id index, labels and leaf (the last entry) from `entries`.
    pub(super) fn rebuild_index(&mut self) {
        self.index.clear();
        self.labels.clear();
        self.leaf_id = None;
        for (position, entry) in self.entries.iter().enumerate() {
            if entry.id().is_empty() {
                continue;
            }
            self.index.insert(entry.id().to_string(), position);
            self.leaf_id = Some(entry.id().to_string());
            if let SessionEntry::Label(label) = entry {
                apply_label(&mut self.labels, label);
            }
        }
    }

    // ----- appending -------------------------------------------------------

    pub(super) fn next_id(&self) -> String {
        new_entry_id(|candidate| self.index.contains_key(candidate))
    }

    fn append_entry(&mut self, entry: SessionEntry) -> String {
        let id = entry.id().to_string();
        self.has_assistant |= entry.is_assistant_message();
        self.index.insert(id.clone(), self.entries.len());
        self.entries.push(entry);
        self.leaf_id = Some(id.clone());
        self.write_pending();
        id
    }

    /// Append a message under the leaf; returns its entry id.
    pub fn append_message(&mut self, message: Message) -> String {
        let entry = MessageEntry {
            id: self.next_id(),
            parent_id: self.leaf_id.clone(),
            timestamp: now_iso(),
            message,
        };
        self.append_entry(SessionEntry::Message(entry))
    }

    /// Record a thinking level change; returns its entry id.
    pub fn append_thinking_level_change(&mut self, level: ThinkingLevel) -> String {
        let entry = ThinkingLevelChangeEntry {
            id: self.next_id(),
            parent_id: self.leaf_id.clone(),
            timestamp: now_iso(),
            thinking_level: level.as_str().to_string(),
        };
        self.append_entry(SessionEntry::ThinkingLevelChange(entry))
    }

    /// Record a model change; returns its entry id.
    pub fn append_model_change(&mut self, provider: &str, model_id: &str) -> String {
        let entry = ModelChangeEntry {
            id: self.next_id(),
            parent_id: self.leaf_id.clone(),
            timestamp: now_iso(),
            provider: provider.to_string(),
            model_id: model_id.to_string(),
        };
        self.append_entry(SessionEntry::ModelChange(entry))
    }

    /// Record a compaction; returns its entry id.
    pub fn append_compaction(
        &mut self,
        summary: &str,
        first_kept_entry_id: &str,
        tokens_before: u64,
        details: Option<Value>,
        from_hook: Option<bool>,
    ) -> String {
        let entry = CompactionEntry {
            id: self.next_id(),
            parent_id: self.leaf_id.clone(),
            timestamp: now_iso(),
            summary: summary.to_string(),
            first_kept_entry_id: first_kept_entry_id.to_string(),
            tokens_before,
            details,
            from_hook,
        };
        self.append_entry(SessionEntry::Compaction(entry))
    }

    /// Store extension state (never sent to the model); returns its entry id.
    pub fn append_custom_entry(&mut self, custom_type: &str, data: Option<Value>) -> String {
        let entry = CustomEntry {
            custom_type: custom_type.to_string(),
            data,
            id: self.next_id(),
            parent_id: self.leaf_id.clone(),
            timestamp: now_iso(),
        };
        self.append_entry(SessionEntry::Custom(entry))
    }

    /// Store an extension message that is part of the model context;
    /// returns its entry id.
    pub fn append_custom_message_entry(
        &mut self,
        custom_type: &str,
        content: UserContent,
        display: bool,
        details: Option<Value>,
    ) -> String {
        let entry = CustomMessageEntry {
            custom_type: custom_type.to_string(),
            content,
            display,
            details,
            id: self.next_id(),
            parent_id: self.leaf_id.clone(),
            timestamp: now_iso(),
        };
        self.append_entry(SessionEntry::CustomMessage(entry))
    }

    /// Set (or, with `None` or an empty label, clear) the label of an
    /// existing entry; returns the label entry's id.
    pub fn append_label_change(
        &mut self,
        target_id: &str,
        label: Option<&str>,
    ) -> Result<String, SessionError> {
        self.require_entry(target_id)?;
        let entry = LabelEntry {
            id: self.next_id(),
            parent_id: self.leaf_id.clone(),
            timestamp: now_iso(),
            target_id: target_id.to_string(),
            label: label.map(str::to_string),
        };
        apply_label(&mut self.labels, &entry);
        Ok(self.append_entry(SessionEntry::Label(entry)))
    }

    /// Set the session's display name (trimmed; empty clears it); returns
    /// the entry id.
    pub fn append_session_info(&mut self, name: &str) -> String {
        let entry = SessionInfoEntry {
            id: self.next_id(),
            parent_id: self.leaf_id.clone(),
            timestamp: now_iso(),
            name: Some(name.trim().to_string()),
        };
        self.append_entry(SessionEntry::SessionInfo(entry))
    }

    // ----- navigation ------------------------------------------------------

    /// Move the leaf to an existing entry; the next append branches from it.
    pub fn branch(&mut self, entry_id: &str) -> Result<(), SessionError> {
        self.require_entry(entry_id)?;
        self.leaf_id = Some(entry_id.to_string());
        Ok(())
    }

    /// Move the leaf before the first entry; the next append is a new root.
    pub fn reset_leaf(&mut self) {
        self.leaf_id = None;
    }

    /// Move the leaf to `from` (or before the first entry) and append a
    /// summary of the branch being left; returns the summary entry's id.
    pub fn branch_with_summary(
        &mut self,
        from: Option<&str>,
        summary: &str,
        details: Option<Value>,
        from_hook: Option<bool>,
    ) -> Result<String, SessionError> {
        if let Some(id) = from {
            self.require_entry(id)?;
        }
        self.leaf_id = from.map(str::to_string);
        let entry = BranchSummaryEntry {
            id: self.next_id(),
            parent_id: self.leaf_id.clone(),
            timestamp: now_iso(),
            from_id: from.unwrap_or("root").to_string(),
            summary: summary.to_string(),
            details,
            from_hook,
        };
        Ok(self.append_entry(SessionEntry::BranchSummary(entry)))
    }

    fn require_entry(&self, id: &str) -> Result<(), SessionError> {
        if self.index.contains_key(id) {
            Ok(())
        } else {
            Err(SessionError::EntryNotFound { id: id.to_string() })
        }
    }

    // ----- getters ---------------------------------------------------------

    /// The current leaf's id (`None` before the first entry).
    pub fn leaf_id(&self) -> Option<&str> {
        self.leaf_id.as_deref()
    }

    /// The current leaf entry.
    pub fn leaf_entry(&self) -> Option<&SessionEntry> {
        self.leaf_id.as_deref().and_then(|id| self.entry(id))
    }

    /// The entry with this id.
    pub fn entry(&self, id: &str) -> Option<&SessionEntry> {
        self.index.get(id).map(|&position| &self.entries[position])
    }

    /// Direct children of an entry, in append order.
    pub fn children(&self, parent_id: &str) -> Vec<&SessionEntry> {
        self.entries
            .iter()
            .filter(|entry| entry.parent_id() == Some(parent_id))
            .collect()
    }

    /// The current label of an entry.
    pub fn label(&self, id: &str) -> Option<&str> {
        self.labels.get(id).map(|label| label.text.as_str())
    }

    /// Entries from the root down to `from` (default: the leaf), every type
    /// included.
    pub fn get_branch(&self, from: Option<&str>) -> Vec<&SessionEntry> {
        let mut path = Vec::new();
        let mut current = from.or(self.leaf_id.as_deref()).and_then(|id| self.entry(id));
        while let Some(entry) = current {
            if path.len() > self.entries.len() {
                break;
            }
            path.push(entry);
            current = entry.parent_id().and_then(|id| self.entry(id));
        }
        path.reverse();
        path
    }

    /// All entries arranged as a tree, with labels resolved.
    pub fn get_tree(&self) -> SessionTree<'_> {
        SessionTree::build(&self.entries, |id| {
            self.labels
                .get(id)
                .map(|label| (label.text.as_str(), label.timestamp.as_str()))
        })
    }

    /// What the model sees at the current leaf.
    pub fn build_context(&self) -> SessionContext {
        build_context_with(&self.entries, self.leaf_id.as_deref(), |id| {
            self.index.get(id).copied()
        })
    }

    /// All entries in append order (header excluded).
    pub fn entries(&self) -> &[SessionEntry] {
        &self.entries
    }

    /// The session header.
    pub fn header(&self) -> &SessionHeader {
        &self.header
    }

    /// The display name from the latest `session_info` entry.
    pub fn session_name(&self) -> Option<&str> {
        self.entries.iter().rev().find_map(|entry| match entry {
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

    // ----- persistence -----------------------------------------------------

    /// Write whatever is due: nothing before the first assistant message,
    /// then the header and every entry not yet on disk. Failures are kept
    /// and retried on the next append or [`SessionManager::sync`].
    fn write_pending(&mut self) {
        let Some(path) = &self.session_file else {
            return;
        };
        if !self.has_assistant {
            return;
        }
        let appender = self.appender.get_or_insert_with(|| LineAppender::new(path));
        if !self.header_on_disk {
            let line = serde_json::to_string(&self.header).expect("headers always serialise");
            if let Err(err) = appender.append_line(&line) {
                self.write_error = Some(err);
                return;
            }
            self.header_on_disk = true;
        }
        while let Some(entry) = self.entries.get(self.entries_on_disk) {
            if let Err(err) = appender.append_line(&entry.to_json_line()) {
                self.write_error = Some(err);
                return;
            }
            self.entries_on_disk += 1;
        }
        self.write_error = None;
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
