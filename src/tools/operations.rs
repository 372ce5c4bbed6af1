//! Where `read`, `write` and `edit` do their I/O.
//!
//! Each tool keeps its own behaviour (offsets, truncation, image handling, edit matching,
//! diffs) and reaches files only through one of these traits, so an extension can send
//! the I/O elsewhere (over ssh, into a container) and get the built-in tool's output.
//! [`LocalFs`] is the local file system the built-in tools use. Errors are the message
//! the model reads.

use std::future::Future;
use std::path::Path;

use super::fs_errors;
use super::mime::detect_image_mime_type;

/// The most of one file the read tool loads (64 MiB).
pub const MAX_READ_BYTES: u64 = 64 * 1024 * 1024;

/// The bytes of a file and whether it was longer than what was read.
pub struct FileBytes {
    /// The content read.
    pub bytes: Vec<u8>,
    /// The file goes on past `bytes` ([`MAX_READ_BYTES`]).
    pub cut: bool,
}

/// The I/O of the `read` tool.
pub trait ReadOperations {
    /// Fails with the message to report when `path` cannot be read as a file.
    fn access(&self, path: &Path) -> impl Future<Output = Result<(), String>>;
    /// The content of `path`.
    fn read_file(&self, path: &Path) -> impl Future<Output = Result<FileBytes, String>>;
    /// The image MIME type of `path` (`head` holds its first bytes), or `None` for text.
    fn detect_image_mime_type(
        &self,
        path: &Path,
        head: &[u8],
    ) -> impl Future<Output = Option<String>>;
}

/// The I/O of the `write` tool.
pub trait WriteOperations {
    /// Create `dir` and its parents.
    fn mkdir(&self, dir: &Path) -> impl Future<Output = Result<(), String>>;
    /// Replace the content of `path`.
    fn write_file(&self, path: &Path, content: &str) -> impl Future<Output = Result<(), String>>;
}

/// The I/O of the `edit` tool.
pub trait EditOperations {
    /// Fails with the reason when `path` cannot be both read and written
    /// (`Error code: ENOENT`, or the message of a custom check).
    fn access(&self, path: &Path) -> impl Future<Output = Result<(), String>>;
    /// The content of `path`.
    fn read_file(&self, path: &Path) -> impl Future<Output = Result<Vec<u8>, String>>;
    /// Replace the content of `path`.
    fn write_file(&self, path: &Path, content: &str) -> impl Future<Output = Result<(), String>>;
}

/// The local file system.
#[derive(Debug, Clone, Copy, Default)]
pub struct LocalFs;

impl ReadOperations for LocalFs {
    async fn access(&self, path: &Path) -> Result<(), String> {
        fs_errors::access(path, libc::R_OK).map_err(|e| fs_errors::describe(&e, "access", path))?;
        if path.is_dir() {
            return Err("EISDIR: illegal operation on a directory, read".into());
        }
        let meta = std::fs::metadata(path).map_err(|e| fs_errors::describe(&e, "stat", path))?;
        if !meta.is_file() {
            return Err(format!(
                "Cannot read {}: it is {}, not a regular file. The read tool reads regular files \
                 only (a device or pipe could block or never end); use bash with `head -c` to sample it.",
                path.display(),
                special_kind(&meta)
            ));
        }
        Ok(())
    }

    async fn read_file(&self, path: &Path) -> Result<FileBytes, String> {
        read_bounded(path)
            .await
            .map_err(|e| fs_errors::describe(&e, "open", path))
    }

    async fn detect_image_mime_type(&self, _path: &Path, head: &[u8]) -> Option<String> {
        detect_image_mime_type(head).map(str::to_string)
    }
}

impl WriteOperations for LocalFs {
    async fn mkdir(&self, dir: &Path) -> Result<(), String> {
        tokio::fs::create_dir_all(dir)
            .await
            .map_err(|e| fs_errors::describe(&e, "mkdir", dir))
    }

    async fn write_file(&self, path: &Path, content: &str) -> Result<(), String> {
        if let Ok(meta) = std::fs::metadata(path)
            && !meta.is_file()
        {
            return Err(format!(
                "Cannot write {}: it is {}, not a regular file",
                path.display(),
                special_kind(&meta)
            ));
        }
        tokio::fs::write(path, content)
            .await
            .map_err(|e| fs_errors::describe(&e, "open", path))
    }
}

impl EditOperations for LocalFs {
    async fn access(&self, path: &Path) -> Result<(), String> {
        fs_errors::access(path, libc::R_OK | libc::W_OK).map_err(|e| {
            match fs_errors::error_code(&e) {
                Some(code) => format!("Error code: {code}"),
                None => e.to_string(),
            }
        })
    }

    async fn read_file(&self, path: &Path) -> Result<Vec<u8>, String> {
        let owned = path.to_path_buf();
        tokio::task::spawn_blocking(move || {
            crate::config::regular_file::read_regular(&owned, MAX_READ_BYTES)
        })
        .await
        .map_err(|e| e.to_string())?
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidInput | std::io::ErrorKind::InvalidData => {
                format!("Cannot edit {}: {e}", path.display())
            }
            _ => fs_errors::describe(&e, "open", path),
        })
    }

    async fn write_file(&self, path: &Path, content: &str) -> Result<(), String> {
        WriteOperations::write_file(self, path, content).await
    }
}

/// The first [`MAX_READ_BYTES`] of a regular file, and whether it is longer:
/// opened and read in one blocking task (one hand-off to the blocking pool,
/// not one per open and per read).
async fn read_bounded(path: &Path) -> std::io::Result<FileBytes> {
    let path = path.to_path_buf();
    tokio::task::spawn_blocking(move || {
        use std::io::Read;
        let mut bytes = Vec::new();
        crate::config::regular_file::open_regular(&path)?
            .take(MAX_READ_BYTES + 1)
            .read_to_end(&mut bytes)?;
        let cut = bytes.len() as u64 > MAX_READ_BYTES;
        bytes.truncate(MAX_READ_BYTES as usize);
        Ok(FileBytes { bytes, cut })
    })
    .await
    .map_err(std::io::Error::other)?
}

/// What a file that is not a regular file is, in words.
fn special_kind(meta: &std::fs::Metadata) -> &'static str {
    crate::config::regular_file::kind_of(meta)
}
