//! Replacing a file atomically: a temporary file in the same folder, flushed,
//! then renamed over the original, so a failed write (full disk, a size
//! limit, a kill) always leaves the previous file whole.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Replace `path` with `content` without ever leaving it half-written: the
/// content goes to a temporary file in the same folder, is flushed to disk,
/// then renamed over the original (whose permissions it keeps). A symlink
/// is followed, so its target is replaced rather than the link.
pub fn write_atomically(path: &Path, content: &[u8]) -> io::Result<()> {
    let resolved = fs::canonicalize(path).ok();
    let path = resolved.as_deref().unwrap_or(path);
    let temp = temp_path_for(path);
    let result = write_then_rename(path, &temp, content);
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

fn write_then_rename(path: &Path, temp: &Path, content: &[u8]) -> io::Result<()> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        // A new file is private to the user; an existing one keeps its mode.
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(temp)?;
    file.write_all(content)?;
    if let Ok(original) = fs::metadata(path) {
        file.set_permissions(original.permissions())?;
    }
    file.sync_all()?;
    drop(file);
    fs::rename(temp, path)?;
    sync_dir_of(path);
    Ok(())
}

fn temp_path_for(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let suffix = &uuid::Uuid::new_v4().simple().to_string()[..8];
    path.with_file_name(format!(".{name}.{suffix}.tmp"))
}

/// Flush a file's directory entry to disk (best effort; a no-op where
/// directories cannot be opened).
pub fn sync_dir_of(path: &Path) {
    if let Some(dir) = path.parent()
        && let Ok(handle) = File::open(if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        })
    {
        let _ = handle.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn atomic_write_follows_symlinks() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("real.jsonl");
        let link = dir.path().join("link.jsonl");
        fs::write(&target, "old\n").unwrap();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        write_atomically(&link, b"new\n").unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&target).unwrap(), "new\n");
    }

    #[test]
    fn atomic_write_replaces_content() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.jsonl");
        fs::write(&path, "old\n").unwrap();
        write_atomically(&path, b"new\n").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new\n");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
