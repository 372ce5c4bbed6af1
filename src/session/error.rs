//! Errors raised while reading, writing or navigating a session.

use std::fmt;
use std::io;
use std::path::PathBuf;

/// Anything that can go wrong with a session.
#[derive(Debug)]
pub enum SessionError {
    /// The session file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// The session file (or a file next to it) could not be written.
    Write {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// The file's first line is not a session header; the file is left alone.
    NotASessionFile {
        /// The file.
        path: PathBuf,
    },
    /// The file was written by a newer pi (its header has a version this
    /// one does not know); it is neither read on nor appended to.
    NewerVersion {
        /// The file.
        path: PathBuf,
        /// The version its header declares.
        version: u32,
    },
    /// A session to fork from holds nothing.
    EmptySource {
        /// The file.
        path: PathBuf,
    },
    /// No entry has this id.
    EntryNotFound {
        /// The id looked up.
        id: String,
    },
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::Read { path, source } => {
                write!(f, "Cannot read session file {}: {source}", path.display())
            }
            SessionError::Write { path, source } => {
                write!(f, "Cannot write session file {}: {source}", path.display())
            }
            SessionError::NotASessionFile { path } => write!(
                f,
                "{} is not a session file (its first line is not a session header)",
                path.display()
            ),
            SessionError::NewerVersion { path, version } => f.write_str(&crate::t!(
                "pi.session.newer_version",
                path = path.display().to_string(),
                version = version.to_string(),
                supported = super::entries::CURRENT_SESSION_VERSION.to_string()
            )),
            SessionError::EmptySource { path } => write!(
                f,
                "Cannot fork: source session file is empty or invalid: {}",
                path.display()
            ),
            SessionError::EntryNotFound { id } => write!(f, "Entry {id} not found"),
        }
    }
}

impl std::error::Error for SessionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SessionError::Read { source, .. } | SessionError::Write { source, .. } => Some(source),
            _ => None,
        }
    }
}
