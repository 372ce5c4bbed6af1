//! Why pi could not start, as facts; printed as `Error: ...` (in the user's language)
//! and pi exits 1.

use std::fmt;
use std::path::PathBuf;

use crate::ai::resolve::ModelSelectionError;
use crate::cli::error::CliError;
use crate::cli::files::FileArgError;
use crate::export::ExportError;
use crate::i18n::config_words::io_reason;
use crate::sandbox::SandboxError;
use crate::session::SessionError;
use crate::session::list::NoSessionMatch;
use crate::t;

/// A start-up failure.
#[derive(Debug)]
pub enum StartupError {
    /// The working directory cannot be read.
    NoCwd(std::io::Error),
    /// A flag asks for something this build does not do yet (the key of its name).
    Unavailable {
        /// The locale key naming the feature.
        what: &'static str,
    },
    /// Print or JSON mode without a prompt.
    NoPrompt,
    /// A command-line problem found after the extensions loaded (an unknown flag).
    Cli(CliError),
    /// An `@file` argument cannot be used.
    Files(FileArgError),
    /// The sandbox settings ask for what this system cannot do.
    Sandbox(SandboxError),
    /// The session to resume or fork cannot be opened.
    Session(SessionError),
    /// No session matches a `--session`/`--fork` id.
    NoSessionMatch(NoSessionMatch),
    /// `--session <id>` names a session of another project.
    SessionInOtherProject {
        /// The id as given.
        id: String,
        /// The session file.
        path: PathBuf,
    },
    /// The session's stored working directory is gone.
    SessionCwdMissing {
        /// The stored directory.
        cwd: String,
        /// The session file.
        file: Option<PathBuf>,
        /// The directory pi runs in.
        current: PathBuf,
    },
    /// The session given to `--export` cannot be read.
    ExportUnreadable {
        /// The session file.
        path: PathBuf,
        /// Why.
        error: SessionError,
    },
    /// Writing the HTML export failed.
    ExportFailed {
        /// The session file.
        path: PathBuf,
        /// Why.
        error: ExportError,
    },
    /// No model could be chosen.
    Model(ModelSelectionError),
    /// Piped standard input cannot be read.
    Stdin(std::io::Error),
}

impl fmt::Display for StartupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = |p: &PathBuf| p.display().to_string();
        let text = match self {
            StartupError::NoCwd(e) => t!("pi.cli.no_cwd", error = io_reason(e)),
            StartupError::Unavailable { what } => {
                t!("pi.cli.unavailable", what = crate::i18n::t(what, &[]))
            }
            StartupError::NoPrompt => t!("pi.cli.no_prompt"),
            StartupError::Cli(e) => e.to_string(),
            StartupError::Files(e) => e.to_string(),
            StartupError::Sandbox(e) => e.to_string(),
            StartupError::Session(e) => e.to_string(),
            StartupError::NoSessionMatch(e) => e.to_string(),
            StartupError::SessionInOtherProject { id, path: file } => t!(
                "pi.cli.session_other_project",
                id = id.as_str(),
                path = path(file)
            ),
            StartupError::SessionCwdMissing { cwd, file, current } => t!(
                "pi.cli.session_cwd_missing",
                cwd = cwd.as_str(),
                file = file.as_ref().map(path).unwrap_or_default(),
                current = path(current)
            ),
            StartupError::ExportUnreadable { path: file, error } => t!(
                "pi.cli.session_unreadable",
                path = path(file),
                error = error.to_string()
            ),
            StartupError::ExportFailed { path: file, error } => t!(
                "pi.cli.export_failed",
                path = path(file),
                error = error.to_string()
            ),
            StartupError::Model(e) => e.to_string(),
            StartupError::Stdin(e) => t!("pi.cli.stdin_failed", error = io_reason(e)),
        };
        f.write_str(&text)
    }
}

impl std::error::Error for StartupError {}

impl From<CliError> for StartupError {
    fn from(e: CliError) -> StartupError {
        StartupError::Cli(e)
    }
}

impl From<FileArgError> for StartupError {
    fn from(e: FileArgError) -> StartupError {
        StartupError::Files(e)
    }
}

impl From<SandboxError> for StartupError {
    fn from(e: SandboxError) -> StartupError {
        StartupError::Sandbox(e)
    }
}

impl From<SessionError> for StartupError {
    fn from(e: SessionError) -> StartupError {
        StartupError::Session(e)
    }
}

impl From<NoSessionMatch> for StartupError {
    fn from(e: NoSessionMatch) -> StartupError {
        StartupError::NoSessionMatch(e)
    }
}

impl From<ModelSelectionError> for StartupError {
    fn from(e: ModelSelectionError) -> StartupError {
        StartupError::Model(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::scoped::scoped_catalog;

    #[test]
    fn startup_errors_keep_their_facts_in_every_language() {
        let error = StartupError::SessionInOtherProject {
            id: "abc123".into(),
            path: PathBuf::from("/s/abc123.jsonl"),
        };
        let english = {
            let _en = scoped_catalog("en");
            error.to_string()
        };
        let _ja = scoped_catalog("ja");
        let japanese = error.to_string();
        assert_ne!(english, japanese);
        for text in [&english, &japanese] {
            assert!(text.contains("abc123") && text.contains("/s/abc123.jsonl"));
        }
        let missing = std::io::Error::from(std::io::ErrorKind::NotFound);
        let cwd = StartupError::NoCwd(missing).to_string();
        assert!(!cwd.contains("entity not found"), "{cwd}");
    }
}
