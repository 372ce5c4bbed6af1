//! Why a file operation of `read`, `write` or `edit` failed, as facts. The words are
//! the tool result the model reads, so they stay English (and Node-like for system
//! errors: `ENOENT: no such file or directory, open '/path'`); they are composed here
//! and nowhere else.

use std::fmt;
use std::io;
use std::path::PathBuf;

use super::fs_errors;
use crate::agent::tool::ToolError;

/// What the tool was doing when a file turned out not to be a regular file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileAction {
    /// Reading it (`read`).
    Read,
    /// Replacing its content (`write`, `edit`).
    Write,
}

/// A failed file operation.
#[derive(Debug)]
pub enum OperationError {
    /// A system call on `path` failed.
    Io {
        /// The call, as Node names it (`open`, `stat`, `access`, `mkdir`).
        call: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// The cause.
        error: io::Error,
    },
    /// `read` was given a folder.
    IsDirectory,
    /// The path is a device, pipe or socket, which the tools leave alone.
    NotRegular {
        /// What the tool was doing.
        action: FileAction,
        /// The file.
        path: PathBuf,
        /// What it is instead (`a directory`, `a FIFO`, ...).
        kind: &'static str,
    },
    /// `edit` cannot both read and write the file.
    NoAccess {
        /// The cause.
        error: io::Error,
    },
    /// The file is too large or holds something `edit` cannot work on.
    Unusable {
        /// The file.
        path: PathBuf,
        /// The cause.
        error: io::Error,
    },
    /// The background task doing the I/O ended without an answer.
    Interrupted {
        /// The runtime's reason.
        error: tokio::task::JoinError,
    },
    /// An extension's own operation failed; its message is kept as it wrote it.
    Extension {
        /// The extension's message.
        message: String,
    },
}

impl OperationError {
    /// `call` on `path` failed with `error`.
    pub fn io(call: &'static str, path: &std::path::Path, error: io::Error) -> OperationError {
        OperationError::Io {
            call,
            path: path.to_path_buf(),
            error,
        }
    }
}

impl OperationError {
    /// An extension's operation failed with `message` (its own words).
    pub fn extension(message: impl fmt::Display) -> OperationError {
        OperationError::Extension {
            message: message.to_string(),
        }
    }
}

impl fmt::Display for OperationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OperationError::Io { call, path, error } => {
                f.write_str(&fs_errors::describe(error, call, path))
            }
            OperationError::IsDirectory => {
                f.write_str("EISDIR: illegal operation on a directory, read")
            }
            OperationError::NotRegular {
                action: FileAction::Read,
                path,
                kind,
            } => write!(
                f,
                "Cannot read {}: it is {kind}, not a regular file. The read tool reads regular \
                 files only (a device or pipe could block or never end); use bash with `head -c` \
                 to sample it.",
                path.display()
            ),
            OperationError::NotRegular {
                action: FileAction::Write,
                path,
                kind,
            } => write!(
                f,
                "Cannot write {}: it is {kind}, not a regular file",
                path.display()
            ),
            OperationError::NoAccess { error } => match fs_errors::error_code(error) {
                Some(code) => write!(f, "Error code: {code}"),
                None => write!(f, "{error}"),
            },
            OperationError::Unusable { path, error } => {
                write!(f, "Cannot edit {}: {error}", path.display())
            }
            OperationError::Interrupted { error } => write!(f, "{error}"),
            OperationError::Extension { message } => f.write_str(message),
        }
    }
}

impl std::error::Error for OperationError {}

impl From<OperationError> for ToolError {
    fn from(e: OperationError) -> ToolError {
        ToolError::new(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_errors_read_like_node_and_keep_the_path() {
        let path = std::path::Path::new("/definitely/not/here");
        let missing = std::fs::read(path).unwrap_err();
        let e = OperationError::io("open", path, missing);
        assert_eq!(
            e.to_string(),
            "ENOENT: no such file or directory, open '/definitely/not/here'"
        );
        let denied = io::Error::from_raw_os_error(libc::EACCES);
        assert_eq!(
            OperationError::NoAccess { error: denied }.to_string(),
            "Error code: EACCES"
        );
    }

    #[test]
    fn special_files_name_the_action_and_the_kind() {
        let read = OperationError::NotRegular {
            action: FileAction::Read,
            path: PathBuf::from("/dev/x"),
            kind: "a FIFO",
        };
        assert!(
            read.to_string()
                .starts_with("Cannot read /dev/x: it is a FIFO")
        );
        let write = OperationError::NotRegular {
            action: FileAction::Write,
            path: PathBuf::from("/dev/x"),
            kind: "a FIFO",
        };
        assert_eq!(
            write.to_string(),
            "Cannot write /dev/x: it is a FIFO, not a regular file"
        );
        let own = OperationError::Extension {
            message: "remote host down".into(),
        };
        assert_eq!(ToolError::from(own).message, "remote host down");
    }
}
