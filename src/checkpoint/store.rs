//! The checkpoints of one session: where they are stored, and the recorder that makes one
//! per run — created at the run's first change, given the exact pre-image of every file
//! the edit and write tools touch and a workspace snapshot before the first shell command,
//! and finished with what the run left in the files it changed.

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::config::settings_keys::CheckpointSettings;

use super::blobs::{BlobStore, FileRef};
use super::record::{self, Checkpoint, CheckpointKind, FileState, load_manifest, save_manifest};
use super::scan::{Manifest, Scanner, changed_paths, is_exec, relative};

/// The run being recorded.
#[derive(Debug)]
struct Pending {
    kind: CheckpointKind,
    entry_id: Option<String>,
    /// Made (stored) at the first change.
    checkpoint: Option<Checkpoint>,
    /// The snapshot as taken, kept for the comparison at the end.
    snapshot: Option<Manifest>,
    /// Pre-images recorded after the snapshot was taken.
    late: HashSet<String>,
}

/// The checkpoints of one session and their storage.
#[derive(Debug)]
pub struct CheckpointStore {
    /// `<session folder>/checkpoints`.
    pub(super) root: PathBuf,
    pub(super) blobs: BlobStore,
    pub(super) session_id: String,
    pub(super) cwd: PathBuf,
    pub(super) settings: CheckpointSettings,
    pub(super) records: Vec<Checkpoint>,
    scanner: Scanner,
    pending: Option<Pending>,
}

/// The folder holding the checkpoints of sessions stored in `session_dir`.
pub fn store_root(session_dir: &Path) -> PathBuf {
    session_dir.join("checkpoints")
}

/// The current state of a file (`None`: absent or not a regular file), hashed but not
/// stored.
pub fn current_state(path: &Path) -> Option<(String, bool)> {
    let meta = fs::symlink_metadata(path).ok()?;
    if !meta.is_file() {
        return None;
    }
    let data = fs::read(path).ok()?;
    Some((super::blobs::hash_hex(&data), is_exec(&meta)))
}

/// Whether a stored state and a current one hold the same thing.
pub fn same_state(stored: &FileState, current: &Option<(String, bool)>) -> bool {
    match (stored, current) {
        (None, None) => true,
        (Some(f), Some((hash, exec))) => &f.hash == hash && f.exec == *exec,
        _ => false,
    }
}

impl CheckpointStore {
    /// The checkpoints of session `session_id` working in `cwd`, stored beside its file in
    /// `session_dir`. A restore a crash interrupted is completed first.
    pub fn open(
        session_dir: &Path,
        session_id: &str,
        cwd: &Path,
        settings: CheckpointSettings,
    ) -> Self {
        let root = store_root(session_dir);
        super::apply::recover(&root);
        let records = record::load_all(&root.join("sessions").join(session_id));
        let blobs = BlobStore::new(root.join("blobs"));
        let mut scanner = Scanner::new(cwd.to_path_buf(), settings.max_file_bytes);
        if let Some(m) = records.iter().rev().find_map(|c| c.snapshot.as_ref())
            && let Ok(manifest) = load_manifest(&blobs, m)
        {
            scanner.seed(manifest);
        }
        CheckpointStore {
            root,
            blobs,
            session_id: session_id.to_string(),
            cwd: cwd.to_path_buf(),
            settings,
            records,
            scanner,
            pending: None,
        }
    }

    /// The folder this session's records are in.
    pub(super) fn session_folder(&self) -> PathBuf {
        self.root.join("sessions").join(&self.session_id)
    }

    /// Whether this is the store of session `id` in `session_dir` working in `cwd`.
    pub fn belongs_to(&self, session_dir: &Path, id: &str, cwd: &Path) -> bool {
        self.root == store_root(session_dir) && self.session_id == id && self.cwd == cwd
    }

    /// The user message a run that has not made its checkpoint yet belongs to.
    pub fn set_entry_if_missing(&mut self, entry_id: Option<String>) {
        if let Some(p) = self.pending.as_mut()
            && p.entry_id.is_none()
        {
            p.entry_id = entry_id;
        }
    }

    /// Read the records again (another process or an extension may have added one),
    /// unless a run is being recorded.
    pub fn reload(&mut self) {
        if self.pending.is_none() {
            self.records = record::load_all(&self.session_folder());
        }
    }

    /// The working folder.
    pub fn cwd(&self) -> &Path {
        &self.cwd
    }

    /// The session's checkpoints, oldest first.
    pub fn checkpoints(&self) -> &[Checkpoint] {
        &self.records
    }

    /// The key of a file: relative to the working folder inside it, else absolute.
    pub fn key_of(&self, path: &Path) -> String {
        relative(&self.cwd, path).unwrap_or_else(|| path.to_string_lossy().into_owned())
    }

    /// The file a key names.
    pub fn path_of(&self, key: &str) -> PathBuf {
        let p = Path::new(key);
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.cwd.join(p)
        }
    }

    /// A run begins: a checkpoint is made at its first change.
    pub fn begin_run(&mut self, kind: CheckpointKind, entry_id: Option<String>) {
        self.pending = Some(Pending {
            kind,
            entry_id,
            checkpoint: None,
            snapshot: None,
            late: HashSet::new(),
        });
    }

    /// Whether a run is being recorded.
    pub fn recording(&self) -> bool {
        self.pending.is_some()
    }

    /// The pending checkpoint, made now if this is the run's first change.
    fn started(&mut self) -> Option<&mut Pending> {
        let seq = self.records.last().map_or(0, |c| c.seq) + 1;
        let pending = self.pending.as_mut()?;
        if pending.checkpoint.is_none() {
            pending.checkpoint = Some(Checkpoint {
                id: uuid::Uuid::new_v4().simple().to_string()[..12].to_string(),
                seq,
                kind: pending.kind,
                entry_id: pending.entry_id.clone(),
                created_ms: chrono::Utc::now().timestamp_millis(),
                before: BTreeMap::new(),
                snapshot: None,
                after: BTreeMap::new(),
                bytes_added: 0,
                finished: false,
            });
        }
        Some(pending)
    }

    /// Store a file's current content (or its absence).
    pub(super) fn capture(&self, path: &Path) -> io::Result<(FileState, u64)> {
        match fs::symlink_metadata(path) {
            Ok(meta) if meta.is_file() => {
                let data = fs::read(path)?;
                let (file, added) = self.blobs.put(&data, is_exec(&meta))?;
                Ok((Some(file), added))
            }
            Ok(_) => Ok((None, 0)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok((None, 0)),
            Err(e) => Err(e),
        }
    }

    /// The edit or write tool is about to change `path`: keep exactly what it holds now
    /// (the first time in this run).
    pub fn before_write(&mut self, path: &Path) -> io::Result<()> {
        let key = self.key_of(path);
        if self.started().is_none() {
            return Ok(());
        }
        let (known, late) = match &self.pending {
            Some(Pending {
                checkpoint: Some(cp),
                snapshot,
                ..
            }) => (
                cp.before.contains_key(&key)
                    || snapshot.as_ref().is_some_and(|m| m.contains_key(&key)),
                snapshot.is_some(),
            ),
            _ => return Ok(()),
        };
        if known {
            return Ok(());
        }
        let (state, added) = self.capture(path)?;
        if let Some(Pending {
            checkpoint: Some(cp),
            late: lates,
            ..
        }) = self.pending.as_mut()
        {
            if late {
                lates.insert(key.clone());
            }
            cp.before.insert(key, state);
            cp.bytes_added += added;
        }
        self.save_pending()
    }

    /// A shell command is about to run: snapshot the workspace (once per run).
    pub fn before_shell(&mut self) -> io::Result<()> {
        match self.started() {
            Some(p) if p.snapshot.is_none() => {}
            _ => return Ok(()),
        }
        let (manifest, added) = self.scanner.snapshot(&self.blobs)?;
        let (file, manifest_added) = save_manifest(&self.blobs, &manifest)?;
        if let Some(Pending {
            checkpoint: Some(cp),
            snapshot,
            ..
        }) = self.pending.as_mut()
        {
            cp.snapshot = Some(file);
            cp.bytes_added += added + manifest_added;
            *snapshot = Some(manifest);
        }
        self.save_pending()
    }

    fn save_pending(&self) -> io::Result<()> {
        let Some(cp) = self.pending.as_ref().and_then(|p| p.checkpoint.as_ref()) else {
            return Ok(());
        };
        record::save(&self.session_folder(), cp)
    }

    /// The run is over: note what it left in the files it changed. Returns the
    /// checkpoint when the run changed files (a run that changed nothing keeps none).
    pub fn finish_run(&mut self) -> io::Result<Option<Checkpoint>> {
        let Some(pending) = self.pending.take() else {
            return Ok(None);
        };
        let Some(mut cp) = pending.checkpoint else {
            return Ok(None);
        };
        if let Some(before) = &pending.snapshot {
            let (now, added) = self.scanner.snapshot(&self.blobs)?;
            cp.bytes_added += added;
            for key in changed_paths(before, &now) {
                // Made by a command after the snapshot: the snapshot knows it was absent.
                if pending.late.contains(&key) && !before.contains_key(&key) {
                    cp.before.remove(&key);
                }
                if !cp.before.contains_key(&key) {
                    cp.after
                        .insert(key.clone(), now.get(&key).map(|e| e.file.clone()));
                }
            }
        }
        let keys: Vec<String> = cp.before.keys().cloned().collect();
        for key in keys {
            let now = current_state(&self.path_of(&key));
            if !same_state(&cp.before[&key], &now) {
                let (state, added) = self.capture(&self.path_of(&key))?;
                cp.bytes_added += added;
                cp.after.insert(key, state);
            }
        }
        cp.finished = true;
        let folder = self.session_folder();
        if cp.after.is_empty() {
            record::remove(&folder, &cp);
            return Ok(None);
        }
        record::save(&folder, &cp)?;
        self.records.push(cp.clone());
        Ok(Some(cp))
    }

    /// Record a finished checkpoint made elsewhere (a restore).
    pub(super) fn push_record(&mut self, cp: Checkpoint) -> io::Result<()> {
        record::save(&self.session_folder(), &cp)?;
        self.records.push(cp);
        Ok(())
    }

    /// The next sequence number.
    pub(super) fn next_seq(&self) -> u64 {
        self.records.last().map_or(0, |c| c.seq) + 1
    }

    /// A stored file's bytes.
    pub fn read_file(&self, file: &FileRef) -> io::Result<Vec<u8>> {
        self.blobs.read(file)
    }

    /// The stored snapshot of a checkpoint, if it has one.
    pub(super) fn snapshot_of(&self, cp: &Checkpoint) -> Option<Manifest> {
        cp.snapshot
            .as_ref()
            .and_then(|m| load_manifest(&self.blobs, m).ok())
    }
}
