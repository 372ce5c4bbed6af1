//! Why a session command (resume, fork, clone, import, rewind, compact, an extension's
//! command) did not happen, as facts: the entry, the file, the folder. The words come
//! from the locale packs.

use std::path::PathBuf;

use crate::compaction::error::{CompactionError, SummaryError};
use crate::session::error::SessionError;
use crate::t;

/// Why a file is not a session pi can import.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotASession {
    /// It could not be read.
    Unreadable {
        /// Why, in words.
        reason: String,
    },
    /// Its first line is not JSON.
    NotJson {
        /// What is wrong and where.
        problem: crate::config::error::JsonProblem,
    },
    /// Its first line is JSON but not a session header.
    NoHeader,
}

impl std::fmt::Display for NotASession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            NotASession::Unreadable { reason } => reason.clone(),
            NotASession::NotJson { problem } => problem.to_string(),
            NotASession::NoHeader => t!("pi.session.import_no_header"),
        };
        f.write_str(&text)
    }
}

/// A session command that did not happen; the session is as it was.
#[derive(Debug)]
pub enum CoreError {
    /// A compaction failed or had nothing to do.
    Compaction(CompactionError),
    /// The summary of the branch left could not be made.
    BranchSummary(SummaryError),
    /// The session store refused.
    Session(SessionError),
    /// The tree entry is gone.
    TreeEntryGone,
    /// No entry with this id.
    EntryMissing {
        /// The id.
        id: String,
    },
    /// A fork from an entry that is not a user message.
    ForkNotUser {
        /// The id.
        id: String,
    },
    /// A clone of a session with no entries.
    NothingToClone,
    /// An empty session name.
    EmptyName,
    /// A session file that is not there.
    SessionFileMissing {
        /// The path.
        path: PathBuf,
    },
    /// A session file that could not be opened.
    OpenFailed {
        /// The path.
        path: PathBuf,
        /// Why.
        error: SessionError,
    },
    /// The new session of a fork or clone could not be made.
    CreateFailed(SessionError),
    /// The resumed session's folder is gone.
    CwdMissing {
        /// The session's folder.
        cwd: PathBuf,
        /// The folder pi still works in.
        current: PathBuf,
    },
    /// The file to import is not there.
    ImportMissing {
        /// The path.
        path: PathBuf,
    },
    /// The file to import is not a session.
    ImportInvalid {
        /// The path.
        path: PathBuf,
        /// Why.
        problem: NotASession,
    },
    /// This session is not saved, so there is no folder to import into.
    ImportNoFolder,
    /// The imported file could not be copied.
    ImportCopyFailed {
        /// The destination.
        path: PathBuf,
        /// Why, in words.
        reason: String,
    },
    /// A checkpoint that belongs to no user message.
    CheckpointWithoutMessage,
    /// File checkpoints are off.
    CheckpointsOff,
    /// No checkpoint with this id.
    CheckpointUnknown {
        /// The id.
        id: String,
    },
    /// Restoring the files failed; none was changed.
    RestoreFailed {
        /// The store's description.
        error: String,
    },
    /// No extension command of this name.
    UnknownCommand {
        /// The name, without `/`.
        name: String,
    },
    /// An extension's command failed; `detail` is its own text.
    Extension {
        /// What the extension reported.
        detail: String,
    },
}

impl From<CompactionError> for CoreError {
    fn from(e: CompactionError) -> CoreError {
        CoreError::Compaction(e)
    }
}

impl From<SessionError> for CoreError {
    fn from(e: SessionError) -> CoreError {
        CoreError::Session(e)
    }
}

impl std::fmt::Display for CoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shown = |p: &PathBuf| p.display().to_string();
        let text = match self {
            CoreError::Compaction(e) => e.to_string(),
            CoreError::BranchSummary(e) => t!("pi.tui.tree.summary_failed", error = e.to_string()),
            CoreError::Session(e) => e.to_string(),
            CoreError::TreeEntryGone => t!("pi.tui.tree.gone"),
            CoreError::EntryMissing { id } => t!("pi.session.entry_missing", id = id.as_str()),
            CoreError::ForkNotUser { id } => t!("pi.session.fork_not_user", id = id.as_str()),
            CoreError::NothingToClone => t!("pi.session.nothing_to_clone"),
            CoreError::EmptyName => t!("pi.session.name_empty"),
            CoreError::SessionFileMissing { path } => {
                t!("pi.session.file_missing", path = shown(path))
            }
            CoreError::OpenFailed { path, error } => t!(
                "pi.session.open_failed",
                path = shown(path),
                error = error.to_string()
            ),
            CoreError::CreateFailed(e) => t!("pi.session.create_failed", error = e.to_string()),
            CoreError::CwdMissing { cwd, current } => t!(
                "pi.session.cwd_missing",
                cwd = shown(cwd),
                current = shown(current)
            ),
            CoreError::ImportMissing { path } => {
                t!("pi.session.import_missing", path = shown(path))
            }
            CoreError::ImportInvalid { path, problem } => t!(
                "pi.session.import_invalid",
                path = shown(path),
                error = problem.to_string()
            ),
            CoreError::ImportNoFolder => t!("pi.session.import_no_dir"),
            CoreError::ImportCopyFailed { path, reason } => t!(
                "pi.session.import_copy_failed",
                path = shown(path),
                error = reason.as_str()
            ),
            CoreError::CheckpointWithoutMessage => t!("pi.checkpoint.no_message"),
            CoreError::CheckpointsOff => t!("pi.checkpoint.off"),
            CoreError::CheckpointUnknown { id } => t!("pi.checkpoint.unknown", id = id.as_str()),
            CoreError::RestoreFailed { error } => {
                t!("pi.checkpoint.restore_failed", error = error.as_str())
            }
            CoreError::UnknownCommand { name } => t!("pi.cmd.unknown", name = name.as_str()),
            CoreError::Extension { detail } => detail.clone(),
        };
        f.write_str(&text)
    }
}

impl std::error::Error for CoreError {}
