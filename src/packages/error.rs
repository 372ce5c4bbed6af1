//! What can go wrong with a package: the facts, worded by the locale packs.

use std::path::PathBuf;

use super::entries::Scope;
use super::lock::Mismatch;
use crate::config::error::{JsonProblem, SettingsSaveError};
use crate::t;

/// A package source that cannot be read, installed, updated or removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PackageError {
    /// An empty source string.
    EmptySource,
    /// `npm:` without a valid name.
    InvalidNpmSource {
        /// The source as written.
        source: String,
    },
    /// `git:` without host, user and repository.
    InvalidGitSource {
        /// The source as written.
        source: String,
    },
    /// A git URL without a repository path.
    InvalidGitUrl {
        /// The URL as written.
        source: String,
    },
    /// A local path that does not exist.
    MissingPath {
        /// The path as written.
        raw: String,
        /// The path resolved.
        path: PathBuf,
    },
    /// npm said it installed the package, but it is not there.
    MissingAfterInstall {
        /// Where it should be.
        path: PathBuf,
    },
    /// A program (npm, git) could not be started.
    CannotRun {
        /// The program.
        program: String,
        /// Why, in words.
        reason: String,
    },
    /// A program ran and failed.
    CommandFailed {
        /// The command line.
        command: String,
        /// Its exit status.
        status: String,
        /// What it printed.
        output: String,
    },
    /// A folder could not be created.
    CannotCreate {
        /// The folder.
        path: PathBuf,
        /// Why, in words.
        reason: String,
    },
    /// A file could not be written.
    CannotWrite {
        /// The file.
        path: PathBuf,
        /// Why, in words.
        reason: String,
    },
    /// A folder could not be removed.
    CannotRemove {
        /// The folder.
        path: PathBuf,
        /// Why, in words.
        reason: String,
    },
    /// A git ref the repository does not have.
    RefNotFound {
        /// The ref.
        git_ref: String,
        /// The repository.
        url: String,
        /// What `git checkout` said.
        cause: Box<PackageError>,
    },
    /// Temporary (`-e`) packages have no settings file.
    TemporaryNotSaved,
    /// A settings file could not be read or written.
    Settings(SettingsSaveError),
    /// A file or folder could not be read.
    CannotRead {
        /// The file or folder.
        path: PathBuf,
        /// Why, in words.
        reason: String,
    },
    /// A lock file is not the JSON pi writes.
    LockInvalid {
        /// The lock file.
        path: PathBuf,
        /// What is wrong and where.
        problem: JsonProblem,
    },
    /// A package's files no longer match its lock entry.
    LockMismatch {
        /// The source as written in settings.
        source: String,
        /// Where it is configured.
        scope: Scope,
        /// The lock file.
        lock: PathBuf,
        /// The first difference.
        mismatch: Mismatch,
    },
    /// Installing a package failed.
    InstallFailed {
        /// The source as the user wrote it.
        source: String,
        /// Why.
        cause: Box<PackageError>,
    },
    /// A package installed at its locked version differs from the lock.
    RestoreDiffers {
        /// The source as written in settings.
        source: String,
        /// The first file that differs.
        file: String,
    },
    /// A `packages` entry that is an object without a `source` string.
    EntryWithoutSource {
        /// The entry, as JSON.
        entry: String,
    },
    /// A `packages` entry whose resource filter is not an array.
    EntryFilterNotArray {
        /// The entry's source.
        source: String,
        /// The filter's key (`extensions`, `skills`, ...).
        key: &'static str,
    },
    /// A `packages` entry that is neither a string nor an object.
    EntryNotASource {
        /// The entry, as JSON.
        entry: String,
    },
    /// The `packages` setting is not an array.
    PackagesNotAnArray,
}

impl From<SettingsSaveError> for PackageError {
    fn from(e: SettingsSaveError) -> PackageError {
        PackageError::Settings(e)
    }
}

impl std::fmt::Display for PackageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path_text = |p: &PathBuf| p.display().to_string();
        let text = match self {
            PackageError::EmptySource => t!("pi.error.pkg.empty_source"),
            PackageError::InvalidNpmSource { source } => {
                t!("pi.error.pkg.invalid_npm", source = source.as_str())
            }
            PackageError::InvalidGitSource { source } => {
                t!("pi.error.pkg.invalid_git", source = source.as_str())
            }
            PackageError::InvalidGitUrl { source } => {
                t!("pi.error.pkg.invalid_git_url", source = source.as_str())
            }
            PackageError::MissingPath { raw, path } => t!(
                "pi.error.pkg.missing_path",
                raw = raw.as_str(),
                path = path_text(path)
            ),
            PackageError::MissingAfterInstall { path } => {
                t!("pi.error.pkg.missing_after_install", path = path_text(path))
            }
            PackageError::CannotRun { program, reason } => t!(
                "pi.error.pkg.cannot_run",
                program = program.as_str(),
                reason = reason.as_str()
            ),
            PackageError::CommandFailed {
                command,
                status,
                output,
            } => t!(
                "pi.error.pkg.command_failed",
                command = command.as_str(),
                status = status.as_str(),
                output = output.as_str()
            ),
            PackageError::CannotCreate { path, reason } => t!(
                "pi.error.pkg.cannot_create",
                path = path_text(path),
                reason = reason.as_str()
            ),
            PackageError::CannotWrite { path, reason } => t!(
                "pi.error.pkg.cannot_write",
                path = path_text(path),
                reason = reason.as_str()
            ),
            PackageError::CannotRemove { path, reason } => t!(
                "pi.error.pkg.cannot_remove",
                path = path_text(path),
                reason = reason.as_str()
            ),
            PackageError::RefNotFound {
                git_ref,
                url,
                cause,
            } => t!(
                "pi.error.pkg.ref_not_found",
                git_ref = git_ref.as_str(),
                url = url.as_str(),
                cause = cause.to_string()
            ),
            PackageError::TemporaryNotSaved => t!("pi.error.pkg.temporary_not_saved"),
            PackageError::Settings(e) => e.to_string(),
            PackageError::CannotRead { path, reason } => t!(
                "pi.error.pkg.cannot_read",
                path = path_text(path),
                reason = reason.as_str()
            ),
            PackageError::LockInvalid { path, problem } => t!(
                "pi.error.pkg.lock_invalid",
                path = path_text(path),
                problem = problem.to_string()
            ),
            PackageError::LockMismatch {
                source,
                scope,
                lock,
                mismatch,
            } => super::store::mismatch_message(source, *scope, lock, mismatch),
            PackageError::InstallFailed { source, cause } => t!(
                "pi.pkg.install_failed",
                source = source.as_str(),
                error = cause.to_string()
            ),
            PackageError::RestoreDiffers { source, file } => t!(
                "pi.pkg.restore_differs",
                source = source.as_str(),
                file = file.as_str()
            ),
            PackageError::EntryWithoutSource { entry } => {
                t!("pi.error.pkg.entry_without_source", entry = entry.as_str())
            }
            PackageError::EntryFilterNotArray { source, key } => t!(
                "pi.error.pkg.entry_filter_not_array",
                source = source.as_str(),
                key = *key
            ),
            PackageError::EntryNotASource { entry } => {
                t!("pi.error.pkg.entry_not_a_source", entry = entry.as_str())
            }
            PackageError::PackagesNotAnArray => t!("pi.error.pkg.packages_not_an_array"),
        };
        f.write_str(&text)
    }
}

impl std::error::Error for PackageError {}
