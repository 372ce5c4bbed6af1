//! Keeping storage bounded: the oldest checkpoints go when a session's checkpoints or a
//! folder's pass their limit, chunks nothing refers to any more are removed, and a
//! session's checkpoints go with the session.

use std::collections::HashSet;
use std::fs;
use std::path::Path;

use super::blobs::BlobStore;
use super::record::{self, Checkpoint};
use super::store::{CheckpointStore, store_root};

/// Storage used by checkpoints.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    /// Bytes this session's checkpoints added.
    pub session_bytes: u64,
    /// Bytes of every chunk of the folder's sessions.
    pub folder_bytes: u64,
    /// This session's checkpoints.
    pub checkpoints: usize,
}

/// Every session's records under `root`: (session folder, checkpoints oldest first).
fn all_sessions(root: &Path) -> Vec<(std::path::PathBuf, Vec<Checkpoint>)> {
    let Ok(read) = fs::read_dir(root.join("sessions")) else {
        return Vec::new();
    };
    read.flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .map(|p| {
            let records = record::load_all(&p);
            (p, records)
        })
        .collect()
}

/// Remove chunks no checkpoint of any session under `root` refers to; bytes freed.
pub fn collect_garbage(root: &Path) -> u64 {
    let blobs = BlobStore::new(root.join("blobs"));
    let mut keep = HashSet::new();
    for (_, records) in all_sessions(root) {
        for cp in &records {
            keep.extend(cp.chunks(&blobs));
        }
    }
    blobs.remove_unreferenced(&keep)
}

/// Remove the checkpoints of session `session_id` stored beside `session_dir`, and the
/// chunks only they used.
pub fn remove_session(session_dir: &Path, session_id: &str) {
    let root = store_root(session_dir);
    let folder = root.join("sessions").join(session_id);
    if folder.is_dir() && fs::remove_dir_all(&folder).is_ok() {
        collect_garbage(&root);
    }
}

/// Give session `to`, forked from `from` (both stored beside `session_dir`), the
/// checkpoints `from` made for the messages it kept (`kept`: entry ids): their records
/// are copied, their chunks are shared by the folder's sessions. How many were copied.
pub fn copy_to_fork(session_dir: &Path, from: &str, to: &str, kept: &HashSet<String>) -> usize {
    let sessions = store_root(session_dir).join("sessions");
    let target = sessions.join(to);
    record::load_all(&sessions.join(from))
        .iter()
        .filter(|cp| cp.kind != record::CheckpointKind::Restore)
        .filter(|cp| cp.entry_id.as_ref().is_some_and(|e| kept.contains(e)))
        .filter(|cp| record::save(&target, cp).is_ok())
        .count()
}

/// Storage used by the checkpoints of session `session_id` stored beside `session_dir`,
/// read from disk (for `/session`).
pub fn usage_on_disk(session_dir: &Path, session_id: &str) -> Usage {
    let root = store_root(session_dir);
    let records = record::load_all(&root.join("sessions").join(session_id));
    Usage {
        session_bytes: records.iter().map(|c| c.bytes_added).sum(),
        folder_bytes: BlobStore::new(root.join("blobs")).total_bytes(),
        checkpoints: records
            .iter()
            .filter(|c| c.kind != super::record::CheckpointKind::Restore)
            .count(),
    }
}

impl CheckpointStore {
    /// Storage used now.
    pub fn usage(&self) -> Usage {
        Usage {
            session_bytes: self.records.iter().map(|c| c.bytes_added).sum(),
            folder_bytes: self.blobs.total_bytes(),
            checkpoints: self.records.len(),
        }
    }

    /// Prune the oldest checkpoints while the session's or the folder's storage is over
    /// its limit (the newest is always kept). Returns how many went.
    pub fn prune(&mut self) -> usize {
        let mut removed = 0;
        let folder = self.session_folder();
        let limit = self.settings.max_session_bytes;
        while self.records.len() > 1
            && self.records.iter().map(|c| c.bytes_added).sum::<u64>() > limit
        {
            let cp = self.records.remove(0);
            record::remove(&folder, &cp);
            removed += 1;
        }
        if removed > 0 {
            collect_garbage(&self.root);
        }
        let limit = self.settings.max_folder_bytes;
        if self.blobs.total_bytes() > limit {
            // Oldest first across every session of the folder.
            let mut all: Vec<(std::path::PathBuf, Checkpoint)> = all_sessions(&self.root)
                .into_iter()
                .flat_map(|(dir, cps)| cps.into_iter().map(move |c| (dir.clone(), c)))
                .collect();
            all.sort_by_key(|(_, c)| c.created_ms);
            let newest = self.records.last().map(|c| c.id.clone());
            let mut total: u64 = all.iter().map(|(_, c)| c.bytes_added).sum();
            for (dir, cp) in all {
                if total <= limit || Some(&cp.id) == newest.as_ref() {
                    break;
                }
                total = total.saturating_sub(cp.bytes_added);
                record::remove(&dir, &cp);
                self.records.retain(|c| c.id != cp.id);
                removed += 1;
            }
            collect_garbage(&self.root);
        }
        removed
    }
}
