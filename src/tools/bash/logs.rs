//! The files holding a command's full output when it was truncated: private
//! to the user (0600), removed when pi ends, and swept once they are older
//! than [`MAX_AGE`] (a pi that was killed cannot clean up after itself).

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};
use std::time::{Duration, SystemTime};

/// How long a full-output log left behind by an earlier pi is kept.
pub const MAX_AGE: Duration = Duration::from_secs(24 * 60 * 60);

static CREATED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static SWEPT: Once = Once::new();

/// Create a new log `<prefix>-<id>.log` in the temporary folder, readable and
/// writable by the user only. Logs of earlier runs older than [`MAX_AGE`] are
/// removed the first time.
pub fn create(prefix: &str) -> io::Result<(PathBuf, File)> {
    let dir = std::env::temp_dir();
    SWEPT.call_once(|| sweep(&dir, prefix, MAX_AGE));
    let id = uuid::Uuid::new_v4().simple().to_string();
    let path = dir.join(format!("{prefix}-{}.log", &id[..16]));
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let file = options.open(&path)?;
    if let Ok(mut created) = CREATED.lock() {
        created.push(path.clone());
    }
    Ok((path, file))
}

/// Remove every log this process created (when the session ends).
pub fn remove_all() {
    let paths = match CREATED.lock() {
        Ok(mut created) => std::mem::take(&mut *created),
        Err(_) => return,
    };
    for path in paths {
        let _ = std::fs::remove_file(path);
    }
}

/// Remove `<prefix>-*.log` files in `dir` last modified more than `max_age` ago.
pub fn sweep(dir: &Path, prefix: &str, max_age: Duration) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !(name.starts_with(&format!("{prefix}-")) && name.ends_with(".log")) {
            continue;
        }
        let Ok(meta) = entry.metadata() else {
            continue;
        };
        let old = meta
            .modified()
            .ok()
            .and_then(|m| now.duration_since(m).ok())
            .is_some_and(|age| age > max_age);
        if meta.is_file() && old && owned_by_us(&meta) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(unix)]
fn owned_by_us(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: getuid has no preconditions and cannot fail.
    meta.uid() == unsafe { libc::getuid() }
}

#[cfg(not(unix))]
fn owned_by_us(_: &std::fs::Metadata) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_are_private_and_removed_at_the_end() {
        let (path, file) = create("pi-bash-test").unwrap();
        drop(file);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        remove_all();
        assert!(!path.exists());
    }

    #[test]
    fn old_logs_are_swept_and_recent_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join("pi-bash-0123456789abcdef.log");
        let recent = dir.path().join("pi-bash-fedcba9876543210.log");
        let other = dir.path().join("notes.log");
        for p in [&old, &recent, &other] {
            std::fs::write(p, "x").unwrap();
        }
        let long_ago = SystemTime::now() - Duration::from_secs(48 * 60 * 60);
        File::options()
            .write(true)
            .open(&old)
            .unwrap()
            .set_modified(long_ago)
            .unwrap();
        File::options()
            .write(true)
            .open(&other)
            .unwrap()
            .set_modified(long_ago)
            .unwrap();
        sweep(dir.path(), "pi-bash", MAX_AGE);
        assert!(!old.exists());
        assert!(recent.exists());
        assert!(other.exists());
    }
}
