//! `packages.lock`: what each installed package was (source, npm version or git revision)
//! and the SHA-256 and size of every file it installed, as sorted, pretty-printed JSON so a
//! project's lock diffs cleanly. Checking a package against it walks the folder and compares
//! sizes; a file's hash is computed only when its size and modification time differ from the
//! last time it was verified on this machine (see [`StatCache`]).

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::entries::Scope;
use super::error::PackageError;
use crate::config::error::JsonProblem;
use crate::i18n::config_words::io_reason;

/// The lock file format version written.
const LOCK_VERSION: u32 = 1;

/// The lock of one scope.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lock {
    /// Format version.
    #[serde(rename = "lockfileVersion", default)]
    pub version: u32,
    /// Entries by the source as written in settings.
    #[serde(default)]
    pub packages: BTreeMap<String, LockEntry>,
}

/// What one package was when it was installed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockEntry {
    /// `npm`, `git` or `local` (local paths are recorded, never hashed).
    pub kind: String,
    /// The npm version installed.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub version: Option<String>,
    /// The git commit checked out.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub revision: Option<String>,
    /// Every installed file (relative, `/`-separated), `.git` excluded.
    #[serde(default)]
    pub files: BTreeMap<String, LockedFile>,
}

/// One installed file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockedFile {
    /// SHA-256 of the content, lower-case hex (of the target path for a symbolic link).
    pub sha256: String,
    /// Size in bytes.
    pub size: u64,
}

/// Where `scope`'s lock lives: `<agent>/packages.lock` or `<cwd>/.pi/packages.lock`.
pub fn lock_path(scope: Scope, agent_dir: &Path, cwd: &Path) -> Option<PathBuf> {
    match scope {
        Scope::Global => Some(agent_dir.join("packages.lock")),
        Scope::Project => Some(cwd.join(".pi/packages.lock")),
        Scope::Temporary => None,
    }
}

impl Lock {
    /// Read a lock file; a missing file is an empty lock.
    pub fn load(path: &Path) -> Result<Lock, PackageError> {
        match std::fs::read_to_string(path) {
            Ok(text) => serde_json::from_str(&text).map_err(|e| PackageError::LockInvalid {
                path: path.to_path_buf(),
                problem: JsonProblem::from_serde(&e),
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Lock::default()),
            Err(e) => Err(PackageError::CannotRead {
                path: path.to_path_buf(),
                reason: io_reason(&e),
            }),
        }
    }

    /// Write the lock (sorted keys, two-space indent, final newline), atomically.
    pub fn save(&self, path: &Path) -> Result<(), PackageError> {
        let mut lock = self.clone();
        lock.version = LOCK_VERSION;
        let unwritable = |e: &std::io::Error| PackageError::CannotWrite {
            path: path.to_path_buf(),
            reason: io_reason(e),
        };
        let mut text = serde_json::to_string_pretty(&lock)
            .map_err(|e| unwritable(&std::io::Error::other(e)))?;
        text.push('\n');
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| PackageError::CannotCreate {
                path: dir.to_path_buf(),
                reason: io_reason(&e),
            })?;
        }
        crate::config::atomic_file::write_atomically(path, text.as_bytes())
            .map_err(|e| unwritable(&e))
    }
}

/// A file found under a package folder.
struct Found {
    rel: String,
    abs: PathBuf,
    size: u64,
    mtime_ns: i128,
    link: Option<PathBuf>,
}

fn walk(root: &Path) -> std::io::Result<Vec<Found>> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for item in std::fs::read_dir(&dir)? {
            let item = item?;
            let abs = item.path();
            let meta = std::fs::symlink_metadata(&abs)?;
            if meta.is_dir() {
                if item.file_name() != ".git" {
                    stack.push(abs);
                }
                continue;
            }
            let rel = abs
                .strip_prefix(root)
                .unwrap_or(&abs)
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            let link = meta
                .file_type()
                .is_symlink()
                .then(|| std::fs::read_link(&abs))
                .transpose()?;
            out.push(Found {
                rel,
                abs,
                size: meta.len(),
                mtime_ns: mtime_ns(&meta),
                link,
            });
        }
    }
    Ok(out)
}

fn mtime_ns(meta: &std::fs::Metadata) -> i128 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as i128)
}

fn hash_found(found: &Found) -> std::io::Result<String> {
    let mut hasher = Sha256::new();
    if let Some(target) = &found.link {
        hasher.update(target.to_string_lossy().as_bytes());
    } else {
        let mut file = std::fs::File::open(&found.abs)?;
        let mut buf = [0u8; 64 * 1024];
        loop {
            let n = file.read(&mut buf)?;
            if n == 0 {
                break;
            }
            hasher.update(&buf[..n]);
        }
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// Hash every file under `root` (`.git` excluded), remembering each in `cache`.
pub fn snapshot(
    root: &Path,
    cache: &mut StatCache,
) -> std::io::Result<BTreeMap<String, LockedFile>> {
    let mut files = BTreeMap::new();
    for found in walk(root)? {
        let sha256 = hash_found(&found)?;
        cache.remember(&found, &sha256);
        let size = found.size;
        files.insert(found.rel, LockedFile { sha256, size });
    }
    Ok(files)
}

/// How a package folder differs from its lock entry (the first difference by path).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mismatch {
    /// A locked file whose content changed.
    Changed(String),
    /// A locked file that is gone.
    Missing(String),
    /// A file the lock does not know.
    Added(String),
    /// The folder could not be read.
    Unreadable(String),
}

impl Mismatch {
    /// The file concerned (relative to the package folder).
    pub fn file(&self) -> &str {
        match self {
            Mismatch::Changed(f) | Mismatch::Missing(f) | Mismatch::Added(f) => f,
            Mismatch::Unreadable(f) => f,
        }
    }
}

/// Check the files under `root` against `locked`: same set of paths, same sizes, and the
/// same hashes (computed only for files `cache` has not seen with this size and mtime).
pub fn verify(
    root: &Path,
    locked: &BTreeMap<String, LockedFile>,
    cache: &mut StatCache,
) -> Result<(), Mismatch> {
    let mut found = walk(root).map_err(|e| Mismatch::Unreadable(e.to_string()))?;
    found.sort_by(|a, b| a.rel.cmp(&b.rel));
    let present: std::collections::BTreeSet<&str> = found.iter().map(|f| f.rel.as_str()).collect();
    if let Some(missing) = locked.keys().find(|k| !present.contains(k.as_str())) {
        return Err(Mismatch::Missing(missing.clone()));
    }
    for file in &found {
        let Some(want) = locked.get(&file.rel) else {
            return Err(Mismatch::Added(file.rel.clone()));
        };
        if file.size != want.size {
            return Err(Mismatch::Changed(file.rel.clone()));
        }
        if cache.vouches(file, &want.sha256) {
            continue;
        }
        let sha = hash_found(file).map_err(|_| Mismatch::Changed(file.rel.clone()))?;
        if sha != want.sha256 {
            return Err(Mismatch::Changed(file.rel.clone()));
        }
        cache.remember(file, &sha);
    }
    Ok(())
}

/// Machine-local record of files already hashed: absolute path → size, modification time
/// (ns) and hash. A file whose size and mtime are unchanged since it was hashed is trusted
/// without reading it; this is what keeps the start-up check to a few `stat` calls.
#[derive(Debug, Default)]
pub struct StatCache {
    entries: BTreeMap<String, (u64, i128, String)>,
    path: Option<PathBuf>,
    dirty: bool,
}

#[derive(Serialize, Deserialize)]
struct CacheRow {
    size: u64,
    mtime: String,
    sha256: String,
}

impl StatCache {
    /// The cache at `<agent>/cache/package-files.json` (empty when missing or unreadable).
    pub fn open(agent_dir: &Path) -> StatCache {
        let path = agent_dir.join("cache/package-files.json");
        let rows: BTreeMap<String, CacheRow> = std::fs::read_to_string(&path)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default();
        let entries = rows
            .into_iter()
            .filter_map(|(k, r)| Some((k, (r.size, r.mtime.parse().ok()?, r.sha256))))
            .collect();
        StatCache {
            entries,
            path: Some(path),
            dirty: false,
        }
    }

    fn key(found: &Found) -> String {
        found.abs.to_string_lossy().into_owned()
    }

    fn vouches(&self, found: &Found, sha256: &str) -> bool {
        self.entries
            .get(&Self::key(found))
            .is_some_and(|(size, mtime, sha)| {
                *size == found.size && *mtime == found.mtime_ns && sha == sha256
            })
    }

    fn remember(&mut self, found: &Found, sha256: &str) {
        let row = (found.size, found.mtime_ns, sha256.to_string());
        if self.entries.get(&Self::key(found)) != Some(&row) {
            self.entries.insert(Self::key(found), row);
            self.dirty = true;
        }
    }

    /// Forget every file under `root` (before a package is removed or replaced).
    pub fn forget_under(&mut self, root: &Path) {
        let prefix = format!("{}/", root.to_string_lossy().trim_end_matches('/'));
        let before = self.entries.len();
        self.entries.retain(|k, _| !k.starts_with(&prefix));
        self.dirty |= self.entries.len() != before;
    }

    /// Write the cache back when something changed (failures are ignored: it is a cache).
    pub fn save(&mut self) {
        let (Some(path), true) = (&self.path, self.dirty) else {
            return;
        };
        let rows: BTreeMap<&String, CacheRow> = self
            .entries
            .iter()
            .map(|(k, (size, mtime, sha))| {
                let row = CacheRow {
                    size: *size,
                    mtime: mtime.to_string(),
                    sha256: sha.clone(),
                };
                (k, row)
            })
            .collect();
        if let (Some(dir), Ok(text)) = (path.parent(), serde_json::to_string(&rows)) {
            let _ = std::fs::create_dir_all(dir);
            let _ = crate::config::atomic_file::write_atomically(path, text.as_bytes());
        }
        self.dirty = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn a_snapshot_verifies_until_a_file_changes_appears_or_goes() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("pkg");
        write(&root.join("extensions/a.lua"), "return 1");
        write(&root.join("README.md"), "hello");
        write(&root.join(".git/HEAD"), "ref: main");
        let mut cache = StatCache::default();
        let files = snapshot(&root, &mut cache).unwrap();
        assert_eq!(
            files.keys().collect::<Vec<_>>(),
            ["README.md", "extensions/a.lua"]
        );
        assert_eq!(files["README.md"].size, 5);
        assert_eq!(
            files["README.md"].sha256,
            "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"
        );
        assert_eq!(verify(&root, &files, &mut StatCache::default()), Ok(()));
        write(&root.join("extensions/a.lua"), "return 2");
        let changed = verify(&root, &files, &mut StatCache::default());
        assert_eq!(changed, Err(Mismatch::Changed("extensions/a.lua".into())));
        write(&root.join("extensions/a.lua"), "return 1");
        write(&root.join("extra.lua"), "x");
        let added = verify(&root, &files, &mut cache);
        assert_eq!(added, Err(Mismatch::Added("extra.lua".into())));
        std::fs::remove_file(root.join("extra.lua")).unwrap();
        std::fs::remove_file(root.join("README.md")).unwrap();
        let missing = verify(&root, &files, &mut cache);
        assert_eq!(missing, Err(Mismatch::Missing("README.md".into())));
    }

    #[test]
    fn the_cache_skips_hashing_only_while_size_and_mtime_hold() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("pkg");
        write(&root.join("a.lua"), "aaaa");
        let mut cache = StatCache::default();
        let mut files = snapshot(&root, &mut cache).unwrap();
        // A lock claiming another hash for the same size: the cache (which saw the real
        // hash) does not vouch for it, so the file is read and the change is caught.
        files.get_mut("a.lua").unwrap().sha256 = "00".repeat(32);
        assert!(verify(&root, &files, &mut cache).is_err());
        let files = snapshot(&root, &mut cache).unwrap();
        assert_eq!(verify(&root, &files, &mut cache), Ok(()));
        // Same size and the old mtime put back: the quick check trusts the cache (the
        // documented trade-off), a check without the cache reads the file and sees it.
        let path = root.join("a.lua");
        let mtime = std::fs::metadata(&path).unwrap().modified().unwrap();
        std::fs::write(&path, "bbbb").unwrap();
        let file = std::fs::File::options().write(true).open(&path).unwrap();
        file.set_modified(mtime).unwrap();
        assert_eq!(verify(&root, &files, &mut cache), Ok(()));
        let cold = verify(&root, &files, &mut StatCache::default());
        assert_eq!(cold, Err(Mismatch::Changed("a.lua".into())));
    }

    #[test]
    fn checking_a_typical_package_costs_stats_not_reads() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("pkg");
        // 30 files, 240 KB: a package with a few extensions, skills and a vendored library.
        for i in 0..30 {
            let body = format!("-- file {i}\n").repeat(800);
            write(&root.join(format!("extensions/m{}/f{i}.lua", i % 5)), &body);
        }
        let mut cache = StatCache::default();
        let files = snapshot(&root, &mut cache).unwrap();
        let mut time = |warm: bool| {
            let start = std::time::Instant::now();
            for _ in 0..20 {
                let mut fresh = StatCache::default();
                let cache = if warm { &mut cache } else { &mut fresh };
                assert_eq!(verify(&root, &files, cache), Ok(()));
            }
            start.elapsed() / 20
        };
        let warm = time(true);
        let cold = time(false);
        eprintln!("verify 30 files / 240 KB: warm cache {warm:?}, hashing everything {cold:?}");
        assert!(warm < cold, "warm {warm:?} cold {cold:?}");
    }

    #[test]
    fn the_lock_round_trips_as_sorted_pretty_json() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("packages.lock");
        let mut lock = Lock::default();
        for name in ["npm:b", "npm:a"] {
            lock.packages.insert(
                name.into(),
                LockEntry {
                    kind: "npm".into(),
                    version: Some("1.0.0".into()),
                    ..LockEntry::default()
                },
            );
        }
        lock.save(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("{\n  \"lockfileVersion\": 1,"), "{text}");
        assert!(text.find("npm:a").unwrap() < text.find("npm:b").unwrap());
        assert!(!text.contains("revision"), "{text}");
        assert!(text.ends_with("}\n"));
        let back = Lock::load(&path).unwrap();
        assert_eq!(back.packages, lock.packages);
        assert_eq!(
            Lock::load(&dir.path().join("none")).unwrap(),
            Lock::default()
        );
    }
}
