//! Noticing edits to the user's locale folder while pi runs, so they apply without
//! `/reload` (a broken file keeps the old catalog and its error is shown).

use std::path::PathBuf;
use std::time::SystemTime;

/// What the folder looked like: each `*.json` and `*.toml` file with its modification time and size.
type Stamp = Vec<(PathBuf, Option<SystemTime>, u64)>;

/// Watches one locale folder by polling (cheap: one `read_dir` and a `stat` per file).
pub struct LocaleDirWatcher {
    dir: PathBuf,
    stamp: Stamp,
}

impl LocaleDirWatcher {
    /// Watch `dir` from its current state (it need not exist yet).
    pub fn new(dir: PathBuf) -> Self {
        let stamp = stamp(&dir);
        LocaleDirWatcher { dir, stamp }
    }

    /// True when a file was added, removed or changed since the last call.
    pub fn poll(&mut self) -> bool {
        let now = stamp(&self.dir);
        if now == self.stamp {
            return false;
        }
        self.stamp = now;
        true
    }
}

fn stamp(dir: &std::path::Path) -> Stamp {
    super::packs::locale_files(dir)
        .into_iter()
        .map(|file| {
            let meta = std::fs::metadata(&file).ok();
            let modified = meta.as_ref().and_then(|m| m.modified().ok());
            let len = meta.map(|m| m.len()).unwrap_or(0);
            (file, modified, len)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_added_changed_and_removed_files_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut watcher = LocaleDirWatcher::new(dir.path().to_path_buf());
        assert!(!watcher.poll());
        let file = dir.path().join("zh-TW.json");
        std::fs::write(&file, "{}").unwrap();
        assert!(watcher.poll());
        assert!(!watcher.poll());
        std::fs::write(&file, "{\"broken\":").unwrap();
        assert!(watcher.poll(), "a change of size is seen at once");
        std::fs::write(dir.path().join("notes.txt"), "ignored").unwrap();
        assert!(!watcher.poll());
        std::fs::remove_file(&file).unwrap();
        assert!(watcher.poll());
    }
}
