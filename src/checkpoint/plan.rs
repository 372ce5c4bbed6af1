//! What a restore would do: for every file a run from the chosen checkpoint on changed,
//! the state it had before (the earliest checkpoint from there that knows it), compared
//! with the file now. A file that differs from what pi last left in it was changed by
//! someone else since: a conflict, kept unless the user says otherwise.

use std::collections::{BTreeSet, HashMap};

use serde::Serialize;

use super::record::{Checkpoint, FileState};
use super::scan::Manifest;
use super::store::{CheckpointStore, current_state, same_state};

/// What restoring does to one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    /// It is brought back (the run deleted it).
    Create,
    /// Its content is put back.
    Modify,
    /// It is removed (the run made it).
    Delete,
}

/// One file a restore changes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FileChange {
    /// Relative to the working folder (absolute outside it).
    pub path: String,
    /// What happens to it.
    pub kind: ChangeKind,
    /// Someone changed it after pi did: it is kept unless overwriting is chosen.
    pub conflict: bool,
    /// What it becomes.
    #[serde(skip)]
    pub(super) target: FileState,
}

/// Every change restoring a checkpoint makes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RestorePlan {
    /// The checkpoint restored.
    pub checkpoint_id: String,
    /// The files, sorted by path.
    pub changes: Vec<FileChange>,
}

impl RestorePlan {
    /// The changes that are conflicts.
    pub fn conflicts(&self) -> impl Iterator<Item = &FileChange> {
        self.changes.iter().filter(|c| c.conflict)
    }
}

/// Snapshots loaded once per plan.
struct Snapshots<'a> {
    store: &'a CheckpointStore,
    loaded: HashMap<u64, Option<Manifest>>,
}

impl Snapshots<'_> {
    fn get(&mut self, cp: &Checkpoint) -> Option<&Manifest> {
        cp.snapshot.as_ref()?;
        self.loaded
            .entry(cp.seq)
            .or_insert_with(|| self.store.snapshot_of(cp))
            .as_ref()
    }

    /// The state `cp` says `key` had before its run, if it knows.
    fn before(&mut self, cp: &Checkpoint, key: &str) -> Option<FileState> {
        if let Some(state) = cp.before.get(key) {
            return Some(state.clone());
        }
        let knows = cp.after.contains_key(key);
        let snapshot = self.get(cp)?;
        if snapshot.contains_key(key) || knows {
            return Some(snapshot.get(key).map(|e| e.file.clone()));
        }
        None
    }

    /// The state `cp`'s run left `key` in, if it knows.
    fn after(&mut self, cp: &Checkpoint, key: &str) -> Option<FileState> {
        if let Some(state) = cp.after.get(key) {
            return Some(state.clone());
        }
        if let Some(state) = cp.before.get(key) {
            return Some(state.clone());
        }
        let snapshot = self.get(cp)?;
        snapshot.get(key).map(|e| Some(e.file.clone()))
    }
}

impl CheckpointStore {
    /// What restoring checkpoint `id` would change now; `None` for an unknown id.
    pub fn plan(&self, id: &str) -> Option<RestorePlan> {
        let start = self.records.iter().position(|c| c.id == id)?;
        let later = &self.records[start..];
        let keys: BTreeSet<&String> = later.iter().flat_map(|c| c.after.keys()).collect();
        let mut snaps = Snapshots {
            store: self,
            loaded: HashMap::new(),
        };
        let mut changes = Vec::new();
        for key in keys {
            let Some(target) = later.iter().find_map(|cp| snaps.before(cp, key)) else {
                continue;
            };
            let current = current_state(&self.path_of(key));
            if same_state(&target, &current) {
                continue;
            }
            let known = self
                .records
                .iter()
                .rev()
                .find_map(|cp| snaps.after(cp, key));
            let conflict = known.is_some_and(|k| !same_state(&k, &current));
            let kind = match (&target, &current) {
                (None, _) => ChangeKind::Delete,
                (Some(_), None) => ChangeKind::Create,
                _ => ChangeKind::Modify,
            };
            changes.push(FileChange {
                path: key.clone(),
                kind,
                conflict,
                target,
            });
        }
        Some(RestorePlan {
            checkpoint_id: id.to_string(),
            changes,
        })
    }

    /// The checkpoint made for the run of user message `entry_id` (the first, when
    /// there are several).
    pub fn for_entry(&self, entry_id: &str) -> Option<&Checkpoint> {
        self.records
            .iter()
            .find(|c| c.entry_id.as_deref() == Some(entry_id))
    }

    /// The first checkpoint made at or after `ms` (what restoring to a moment restores).
    pub fn first_since(&self, ms: i64) -> Option<&Checkpoint> {
        self.records.iter().find(|c| c.created_ms >= ms)
    }
}
