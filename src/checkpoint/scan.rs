//! The workspace snapshot: every file the scan reaches (`.gitignore` and friends
//! respected, `.git` skipped, files over the size limit left out), stored in the blob
//! store. Incremental: a file whose size and modification time match the last scan
//! (and was not modified during it) is not read again.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::blobs::{BlobStore, FileRef};

/// One scanned file: its content and modification time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScanEntry {
    /// The stored content.
    pub file: FileRef,
    /// Modification time in nanoseconds since the epoch.
    pub mtime: i128,
}

/// A snapshot: relative path (with `/`) to file.
pub type Manifest = BTreeMap<String, ScanEntry>;

/// Scans one working folder, remembering the last scan.
#[derive(Debug)]
pub struct Scanner {
    root: PathBuf,
    max_file_bytes: u64,
    last: Manifest,
    /// When the last scan began: files modified after it are read again.
    last_start: i128,
}

/// Nanoseconds since the epoch.
fn nanos(t: SystemTime) -> i128 {
    match t.duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_nanos() as i128,
        Err(e) => -(e.duration().as_nanos() as i128),
    }
}

/// The path of `path` under `root` with `/` separators, if it is under it.
pub fn relative(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// Whether the metadata says the owner may execute the file.
pub fn is_exec(meta: &fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o100 != 0
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}

impl Scanner {
    /// A scanner of `root` leaving out files larger than `max_file_bytes`.
    pub fn new(root: PathBuf, max_file_bytes: u64) -> Self {
        Scanner {
            root,
            max_file_bytes,
            last: Manifest::new(),
            last_start: i128::MIN,
        }
    }

    /// The folder scanned.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Start from an earlier snapshot (a resumed session): its files are trusted where
    /// size and time still match.
    pub fn seed(&mut self, manifest: Manifest) {
        let newest = manifest
            .values()
            .map(|e| e.mtime)
            .max()
            .unwrap_or(i128::MIN);
        self.last = manifest;
        self.last_start = newest.saturating_add(1);
    }

    /// Every file the scan reaches now, with size and modification time (the folders
    /// are walked on several threads).
    fn walk(&self) -> Vec<(String, PathBuf, fs::Metadata)> {
        let found = std::sync::Mutex::new(Vec::new());
        let max = self.max_file_bytes;
        let root = &self.root;
        ignore::WalkBuilder::new(root)
            .hidden(false)
            .require_git(false)
            .follow_links(false)
            .threads(threads())
            .filter_entry(|e| e.file_name() != ".git")
            .build_parallel()
            .run(|| {
                let found = &found;
                Box::new(move |entry| {
                    if let Ok(entry) = entry
                        && entry.file_type().is_some_and(|t| t.is_file())
                        && let Ok(meta) = entry.metadata()
                        && meta.len() <= max
                        && let Some(rel) = relative(root, entry.path())
                    {
                        let mut found = found.lock().unwrap_or_else(|e| e.into_inner());
                        found.push((rel, entry.into_path(), meta));
                    }
                    ignore::WalkState::Continue
                })
            });
        found.into_inner().unwrap_or_else(|e| e.into_inner())
    }

    /// Scan the folder, storing what changed; the snapshot and the bytes new chunks took.
    pub fn snapshot(&mut self, blobs: &BlobStore) -> io::Result<(Manifest, u64)> {
        let start = nanos(SystemTime::now());
        let mut manifest = Manifest::new();
        let mut to_read = Vec::new();
        for (rel, path, meta) in self.walk() {
            let mtime = meta.modified().map(nanos).unwrap_or(0);
            let exec = is_exec(&meta);
            if let Some(old) = self.last.get(&rel)
                && old.mtime == mtime
                && old.file.size == meta.len()
                && old.file.exec == exec
                && mtime < self.last_start
            {
                manifest.insert(rel, old.clone());
            } else {
                to_read.push((rel, path, mtime, exec));
            }
        }
        let mut added = 0;
        for (rel, entry, new) in store_all(blobs, to_read)? {
            added += new;
            manifest.insert(rel, entry);
        }
        self.last = manifest.clone();
        self.last_start = start;
        Ok((manifest, added))
    }
}

/// How many threads read and store files.
fn threads() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get().min(8))
}

/// Read and store files on several threads, their new chunks packed: (path, entry,
/// bytes added) for each file still there.
fn store_all(
    blobs: &BlobStore,
    files: Vec<(String, PathBuf, i128, bool)>,
) -> io::Result<Vec<(String, ScanEntry, u64)>> {
    let batch = blobs.batch();
    let store_part = |part: &[(String, PathBuf, i128, bool)]| {
        let mut writer = batch.writer();
        let mut out = Vec::with_capacity(part.len());
        for (rel, path, mtime, exec) in part {
            // Gone or unreadable since the walk: not part of the snapshot.
            let Ok(data) = fs::read(path) else {
                continue;
            };
            let (file, new) = writer.put(&data, *exec)?;
            let mtime = *mtime;
            out.push((rel.clone(), ScanEntry { file, mtime }, new));
        }
        writer.finish()?;
        Ok::<_, io::Error>(out)
    };
    if files.len() < 64 {
        return store_part(&files);
    }
    let per = files.len().div_ceil(threads());
    std::thread::scope(|scope| {
        let workers: Vec<_> = files
            .chunks(per)
            .map(|part| scope.spawn(move || store_part(part)))
            .collect();
        let mut out = Vec::with_capacity(files.len());
        for w in workers {
            out.extend(w.join().unwrap_or_else(|_| Ok(Vec::new()))?);
        }
        Ok(out)
    })
}

/// What differs between two snapshots: paths added, changed or removed.
pub fn changed_paths(before: &Manifest, after: &Manifest) -> Vec<String> {
    let mut out: Vec<String> = after
        .iter()
        .filter(|(p, e)| before.get(*p).is_none_or(|b| !b.file.same_content(&e.file)))
        .map(|(p, _)| p.clone())
        .collect();
    out.extend(before.keys().filter(|p| !after.contains_key(*p)).cloned());
    out.sort();
    out
}

/// An index of snapshots by path for lookups without walking.
pub fn by_path(manifest: &Manifest) -> HashMap<&str, &FileRef> {
    manifest
        .iter()
        .map(|(p, e)| (p.as_str(), &e.file))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_respects_gitignore_and_size_limit_and_rereads_only_changes() {
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path().join("ws");
        fs::create_dir_all(ws.join("sub")).unwrap();
        fs::create_dir_all(ws.join(".git")).unwrap();
        fs::write(ws.join(".git/HEAD"), "ref").unwrap();
        fs::write(ws.join(".gitignore"), "target/\n").unwrap();
        fs::create_dir_all(ws.join("target")).unwrap();
        fs::write(ws.join("target/out"), "built").unwrap();
        fs::write(ws.join("a.txt"), "a").unwrap();
        fs::write(ws.join("sub/b.txt"), "b").unwrap();
        fs::write(ws.join("big.bin"), vec![0u8; 5000]).unwrap();
        let blobs = BlobStore::new(dir.path().join("blobs"));
        let mut scanner = Scanner::new(ws.clone(), 4096);
        let (first, added) = scanner.snapshot(&blobs).unwrap();
        let paths: Vec<&str> = first.keys().map(String::as_str).collect();
        assert_eq!(paths, vec![".gitignore", "a.txt", "sub/b.txt"]);
        assert!(added > 0);
        fs::write(ws.join("a.txt"), "changed").unwrap();
        fs::remove_file(ws.join("sub/b.txt")).unwrap();
        fs::write(ws.join("c.txt"), "new").unwrap();
        let (second, _) = scanner.snapshot(&blobs).unwrap();
        assert_eq!(
            changed_paths(&first, &second),
            vec!["a.txt", "c.txt", "sub/b.txt"]
        );
        assert_eq!(
            blobs.read(&second["a.txt"].file).unwrap(),
            b"changed".to_vec()
        );
    }
}
