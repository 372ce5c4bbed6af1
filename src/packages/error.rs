//! What can go wrong with a package: the facts, worded by the locale packs.

use std::path::PathBuf;

use crate::config::error::SettingsSaveError;
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
        };
        f.write_str(&text)
    }
}

impl std::error::Error for PackageError {}

impl From<PackageError> for String {
    fn from(e: PackageError) -> String {
        e.to_string()
    }
}
