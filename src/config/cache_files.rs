//! Files under `<agentDir>/cache/`: what pi keeps between runs only to be faster
//! (each can be deleted at any time and is made again). A kind of file has a folder
//! of its own, private to the user (the files hold parts of conversations); a file
//! is written whole under a temporary name, then renamed (not flushed to the disk:
//! one lost in a crash is only made again); only the most recently written few are
//! kept, and temporaries a stopped run left behind are removed.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The start of a file's extension while it is being written (then the process id).
const TEMPORARY: &str = "tmp-";

/// A file being written this long ago was left by a run that stopped.
const STALE_TEMPORARY: Duration = Duration::from_secs(600);

/// One kind of cached file: its folder, extension and how many are kept.
#[derive(Debug, Clone)]
pub struct CacheFolder {
    dir: PathBuf,
    extension: &'static str,
    keep: usize,
}

impl CacheFolder {
    /// Files `<name>.<extension>` in `<agent_dir>/cache/<folder>`, the `keep` most
    /// recently written kept.
    pub fn new(agent_dir: &Path, folder: &str, extension: &'static str, keep: usize) -> Self {
        CacheFolder {
            dir: agent_dir.join("cache").join(folder),
            extension,
            keep,
        }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of `name`: the name itself when it is a safe file name, else its digest.
    pub fn path(&self, name: &str) -> PathBuf {
        let safe = !name.is_empty()
            && name.len() <= 100
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        let stem = match safe {
            true => name.to_string(),
            false => format!("{:016x}", digest(0, name.as_bytes())),
        };
        self.dir.join(format!("{stem}.{}", self.extension))
    }

    /// Write `data` as the file of `name` (see [`CacheFolder::path`]), then prune the
    /// folder. A failure leaves no file behind and is reported only to the caller.
    pub fn write(&self, name: &str, data: &[u8]) -> std::io::Result<()> {
        create_private_dir(&self.dir)?;
        let path = self.path(name);
        let temporary = path.with_extension(format!("{TEMPORARY}{}", std::process::id()));
        let written =
            write_private(&temporary, data).and_then(|()| std::fs::rename(&temporary, &path));
        if written.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
        self.prune();
        written
    }

    /// Remove all but the most recently written files, and temporaries left by a
    /// run that stopped between writing and renaming.
    pub fn prune(&self) {
        let Ok(read) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let now = SystemTime::now();
        let mut files: Vec<(SystemTime, PathBuf)> = Vec::new();
        for entry in read.flatten() {
            let path = entry.path();
            let Some(modified) = entry.metadata().and_then(|m| m.modified()).ok() else {
                continue;
            };
            let extension = path.extension().map(|x| x.to_string_lossy().into_owned());
            match extension.as_deref() {
                Some(x) if x == self.extension => files.push((modified, path)),
                Some(x)
                    if x.starts_with(TEMPORARY)
                        && now.duration_since(modified).unwrap_or_default() > STALE_TEMPORARY =>
                {
                    let _ = std::fs::remove_file(path);
                }
                _ => {}
            }
        }
        if files.len() <= self.keep {
            return;
        }
        files.sort_by_key(|file| std::cmp::Reverse(file.0));
        for (_, path) in files.into_iter().skip(self.keep) {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// The folder, created private to the user.
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

/// Write a new file readable by the user only.
fn write_private(path: &Path, data: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path)?.write_all(data)
}

/// A fast 64-bit digest of `bytes` continuing from `state`: any change of a word
/// changes it (each step is a bijection of the state), collisions are for accidents
/// only — what a cached file was made from is checked with it, never trusted to it
/// against a deliberate forgery.
pub fn digest(state: u64, bytes: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let step = |h: u64, word: u64| (h.rotate_left(5) ^ word).wrapping_mul(K);
    let mut h = step(state, bytes.len() as u64);
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        h = step(h, u64::from_le_bytes(word.try_into().unwrap_or_default()));
    }
    let mut last = [0u8; 8];
    last[..words.remainder().len()].copy_from_slice(words.remainder());
    step(h, u64::from_le_bytes(last))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_sees_every_change() {
        let base = digest(0, b"hello world, sixteen+");
        assert_ne!(base, digest(0, b"hello world, sixteen-"));
        assert_ne!(base, digest(0, b"hello world, sixteen+ "));
        assert_ne!(digest(0, b""), digest(0, b"\0"));
        assert_eq!(base, digest(0, b"hello world, sixteen+"));
    }

    #[cfg(unix)]
    #[test]
    fn files_are_private_and_only_the_newest_are_kept() {
        use std::os::unix::fs::PermissionsExt;
        let agent = tempfile::tempdir().unwrap();
        let folder = CacheFolder::new(agent.path(), "things", "thing", 2);
        for name in ["a", "b", "c"] {
            folder.write(name, name.as_bytes()).unwrap();
            std::thread::sleep(Duration::from_millis(20));
        }
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(folder.dir()), 0o700);
        assert_eq!(mode(&folder.path("c")), 0o600);
        assert!(!folder.path("a").exists(), "the oldest goes");
        assert_eq!(std::fs::read(folder.path("b")).unwrap(), b"b");
        // A name unsafe as a file name is stored under its digest, inside the folder.
        let odd = folder.path("../x y");
        assert_eq!(odd.parent(), Some(folder.dir()));
        assert!(
            odd.file_name()
                .unwrap()
                .to_string_lossy()
                .ends_with(".thing")
        );
    }
}
