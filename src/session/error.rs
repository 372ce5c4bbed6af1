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
            SessionError::Read { path, source } => f.write_str(&crate::t!(
                "pi.error.session.read",
                path = path.display().to_string(),
                reason = crate::i18n::config_words::io_reason(source)
            )),
            SessionError::Write { path, source } => f.write_str(&crate::t!(
                "pi.error.session.write",
                path = path.display().to_string(),
                reason = crate::i18n::config_words::io_reason(source)
            )),
            SessionError::NotASessionFile { path } => f.write_str(&crate::t!(
                "pi.error.session.not_a_session_file",
                path = path.display().to_string()
            )),
            SessionError::NewerVersion { path, version } => f.write_str(&crate::t!(
                "pi.session.newer_version",
                path = path.display().to_string(),
                version = version.to_string(),
                supported = super::entries::CURRENT_SESSION_VERSION.to_string()
            )),
            SessionError::EmptySource { path } => f.write_str(&crate::t!(
                "pi.error.session.empty_source",
                path = path.display().to_string()
            )),
            SessionError::EntryNotFound { id } => f.write_str(&crate::t!(
                "pi.error.session.entry_not_found",
                id = id.as_str()
            )),
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
