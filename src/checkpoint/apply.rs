//! Carrying out a restore all-or-nothing. Every new content is first written to a
//! temporary file beside its target; only when all are written does a journal list the
//! renames and removals, which then happen one by one. A crash before the journal leaves
//! the workspace untouched; a crash after it is completed by the next start
//! ([`recover`]). A rename replaces a file whole, so no file is ever seen half written.

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::plan::RestorePlan;
use super::private_fs::{ensure_private_dir, write_private};
use super::record::{Checkpoint, CheckpointKind};
use super::store::CheckpointStore;

/// Set to a number of milliseconds, a restore waits that long after each step (so a
/// test can interrupt it half-way).
pub const PAUSE_ENV: &str = "PI_CHECKPOINT_RESTORE_PAUSE_MS";

/// One step of a journal.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "lowercase")]
enum Step {
    /// Move the staged `from` onto `to`.
    Rename { from: PathBuf, to: PathBuf },
    /// Remove `path` (and folders it leaves empty, up to `stop`).
    Remove { path: PathBuf, stop: PathBuf },
}

/// What a restore did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RestoreReport {
    /// Files restored.
    pub restored: Vec<String>,
    /// Conflicting files left as they are.
    pub kept: Vec<String>,
}

fn journal_dir(root: &Path) -> PathBuf {
    root.join("journals")
}

fn pause() {
    if let Some(ms) = std::env::var(PAUSE_ENV)
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }
}

fn run(step: &Step) -> io::Result<()> {
    match step {
        Step::Rename { from, to } => {
            if from.exists() {
                fs::rename(from, to)?;
            }
        }
        Step::Remove { path, stop } => {
            match fs::remove_file(path) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(e),
            }
            let mut dir = path.parent();
            while let Some(d) = dir {
                if d == stop || !d.starts_with(stop) || fs::remove_dir(d).is_err() {
                    break;
                }
                dir = d.parent();
            }
        }
    }
    Ok(())
}

/// Complete every restore a crash interrupted under `root`.
pub fn recover(root: &Path) {
    let Ok(read) = fs::read_dir(journal_dir(root)) else {
        return;
    };
    for entry in read.flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let steps: Vec<Step> = match fs::read(&path)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
        {
            Some(s) => s,
            None => continue,
        };
        if steps.iter().all(|s| run(s).is_ok()) {
            let _ = fs::remove_file(&path);
        }
    }
}

/// Write `data` to a new temporary file beside `target`.
fn stage(target: &Path, data: &[u8], exec: bool) -> io::Result<PathBuf> {
    let dir = target.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let tmp = dir.join(format!(
        ".{name}.pi-restore-{}",
        uuid::Uuid::new_v4().simple()
    ));
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(if exec { 0o755 } else { 0o644 });
    }
    #[cfg(not(unix))]
    let _ = exec;
    let mut file = options.open(&tmp)?;
    file.write_all(data)?;
    file.sync_all()?;
    Ok(tmp)
}

impl CheckpointStore {
    /// Carry out `plan`: every change that is not a conflict, and the conflicts for which
    /// `overwrite` says yes. Either all of them happen or (on an error) none.
    pub fn apply(
        &mut self,
        plan: &RestorePlan,
        overwrite: &dyn Fn(&str) -> bool,
    ) -> io::Result<RestoreReport> {
        let mut report = RestoreReport::default();
        let mut chosen = Vec::new();
        for change in &plan.changes {
            if change.conflict && !overwrite(&change.path) {
                report.kept.push(change.path.clone());
            } else {
                chosen.push(change);
            }
        }
        // What the files hold now, so the restore can itself be undone.
        let mut before = BTreeMap::new();
        let mut added = 0;
        for change in &chosen {
            let (state, bytes) = self.capture(&self.path_of(&change.path))?;
            before.insert(change.path.clone(), state);
            added += bytes;
        }
        let mut steps = Vec::new();
        let staged = (|| -> io::Result<()> {
            for change in &chosen {
                let path = self.path_of(&change.path);
                match &change.target {
                    Some(file) => {
                        let data = self.blobs.read(file)?;
                        let tmp = stage(&path, &data, file.exec)?;
                        steps.push(Step::Rename {
                            from: tmp,
                            to: path,
                        });
                    }
                    None => steps.push(Step::Remove {
                        path,
                        stop: self.cwd.clone(),
                    }),
                }
            }
            Ok(())
        })();
        if let Err(e) = staged {
            for step in &steps {
                if let Step::Rename { from, .. } = step {
                    let _ = fs::remove_file(from);
                }
            }
            return Err(e);
        }
        let journal_dir = journal_dir(&self.root);
        ensure_private_dir(&journal_dir)?;
        let journal = journal_dir.join(format!("{}.json", uuid::Uuid::new_v4().simple()));
        write_private(
            &journal,
            &serde_json::to_vec(&steps).map_err(io::Error::other)?,
        )?;
        for step in &steps {
            run(step)?;
            pause();
        }
        let _ = fs::remove_file(&journal);
        report.restored = chosen.iter().map(|c| c.path.clone()).collect();
        if !chosen.is_empty() {
            let after = chosen
                .iter()
                .map(|c| (c.path.clone(), c.target.clone()))
                .collect();
            let record = Checkpoint {
                id: uuid::Uuid::new_v4().simple().to_string()[..12].to_string(),
                seq: self.next_seq(),
                kind: CheckpointKind::Restore,
                entry_id: None,
                created_ms: chrono::Utc::now().timestamp_millis(),
                before,
                snapshot: None,
                after,
                bytes_added: added,
                finished: true,
            };
            self.push_record(record)?;
        }
        Ok(report)
    }
}
