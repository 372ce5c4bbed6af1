//! Where `read`, `write` and `edit` do their I/O.
//!
//! Each tool keeps its own behaviour (offsets, truncation, image handling, edit matching,
//! diffs) and reaches files only through one of these traits, so an extension can send
//! the I/O elsewhere (over ssh, into a container) and get the built-in tool's output.
//! [`LocalFs`] is the local file system the built-in tools use. Errors are
//! [`OperationError`]s, worded for the model that reads them.

use std::future::Future;
use std::path::Path;

use super::fs_errors;
use super::mime::detect_image_mime_type;
pub use super::operation_error::{FileAction, OperationError};

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
    /// Fails with why `path` cannot be read as a file.
    fn access(&self, path: &Path) -> impl Future<Output = Result<(), OperationError>>;
    /// The content of `path`.
    fn read_file(&self, path: &Path) -> impl Future<Output = Result<FileBytes, OperationError>>;
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
    fn mkdir(&self, dir: &Path) -> impl Future<Output = Result<(), OperationError>>;
    /// Replace the content of `path`.
    fn write_file(
        &self,
        path: &Path,
        content: &str,
    ) -> impl Future<Output = Result<(), OperationError>>;
}

/// The I/O of the `edit` tool.
pub trait EditOperations {
    /// Fails with why `path` cannot be both read and written
    /// (its error code, or the message of a custom check).
    fn access(&self, path: &Path) -> impl Future<Output = Result<(), OperationError>>;
    /// The content of `path`.
    fn read_file(&self, path: &Path) -> impl Future<Output = Result<Vec<u8>, OperationError>>;
    /// Replace the content of `path`.
    fn write_file(
        &self,
        path: &Path,
        content: &str,
    ) -> impl Future<Output = Result<(), OperationError>>;
}

/// The local file system.
#[derive(Debug, Clone, Copy, Default)]
pub struct LocalFs;

impl ReadOperations for LocalFs {
    async fn access(&self, path: &Path) -> Result<(), OperationError> {
        fs_errors::access(path, libc::R_OK).map_err(|e| OperationError::io("access", path, e))?;
        if path.is_dir() {
            return Err(OperationError::IsDirectory);
        }
        let meta = std::fs::metadata(path).map_err(|e| OperationError::io("stat", path, e))?;
        if !meta.is_file() {
            return Err(not_regular(FileAction::Read, path, &meta));
        }
        Ok(())
    }

    async fn read_file(&self, path: &Path) -> Result<FileBytes, OperationError> {
        read_bounded(path)
            .await
            .map_err(|e| OperationError::io("open", path, e))
    }

    async fn detect_image_mime_type(&self, _path: &Path, head: &[u8]) -> Option<String> {
        detect_image_mime_type(head).map(str::to_string)
    }
}

impl WriteOperations for LocalFs {
    async fn mkdir(&self, dir: &Path) -> Result<(), OperationError> {
        tokio::fs::create_dir_all(dir)
            .await
            .map_err(|e| OperationError::io("mkdir", dir, e))
    }

    async fn write_file(&self, path: &Path, content: &str) -> Result<(), OperationError> {
        if let Ok(meta) = std::fs::metadata(path)
            && !meta.is_file()
        {
            return Err(not_regular(FileAction::Write, path, &meta));
        }
        tokio::fs::write(path, content)
            .await
            .map_err(|e| OperationError::io("open", path, e))
    }
}

impl EditOperations for LocalFs {
    async fn access(&self, path: &Path) -> Result<(), OperationError> {
        fs_errors::access(path, libc::R_OK | libc::W_OK)
            .map_err(|error| OperationError::NoAccess { error })
    }

    async fn read_file(&self, path: &Path) -> Result<Vec<u8>, OperationError> {
        let owned = path.to_path_buf();
        tokio::task::spawn_blocking(move || {
            crate::config::regular_file::read_regular(&owned, MAX_READ_BYTES)
        })
        .await
        .map_err(|error| OperationError::Interrupted { error })?
        .map_err(|error| match error.kind() {
            std::io::ErrorKind::InvalidInput | std::io::ErrorKind::InvalidData => {
                OperationError::Unusable {
                    path: path.to_path_buf(),
                    error,
                }
            }
            _ => OperationError::io("open", path, error),
        })
    }

    async fn write_file(&self, path: &Path, content: &str) -> Result<(), OperationError> {
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

/// `path` is not a regular file (`meta` says what it is instead).
fn not_regular(action: FileAction, path: &Path, meta: &std::fs::Metadata) -> OperationError {
    OperationError::NotRegular {
        action,
        path: path.to_path_buf(),
        kind: crate::config::regular_file::kind_of(meta),
    }
}
