//! Why `pi install`, `pi remove`, `pi update` or `pi list` failed, as facts, worded
//! through the locale packs.

use std::fmt;

use crate::config::error::IoFailure;
use crate::packages::entries::Scope;
use crate::packages::error::PackageError;
use crate::t;

/// Why the user's consent to a package's capability requests is missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConsentRefusal {
    /// No terminal to ask at and no `--yes`.
    NeedsYes,
    /// The user answered no.
    Declined,
}

impl fmt::Display for ConsentRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&match self {
            ConsentRefusal::NeedsYes => t!("pi.pkg.caps_need_yes"),
            ConsentRefusal::Declined => t!("pi.pkg.caps_declined"),
        })
    }
}

/// What went wrong updating one package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UpdateProblem {
    /// Its extensions request more and the user did not agree; it was put back.
    Refused(ConsentRefusal),
    /// Putting the refused update back failed.
    NotPutBack(IoFailure),
    /// The update itself (or recording it in the lock) failed.
    Package(PackageError),
}

/// One package `pi update` could not update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpdateFailure {
    /// The source as written in settings.
    pub source: String,
    /// What went wrong.
    pub problem: UpdateProblem,
}

impl fmt::Display for UpdateFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let source = self.source.as_str();
        f.write_str(&match &self.problem {
            UpdateProblem::Refused(reason) => {
                t!(
                    "pi.pkg.update_refused",
                    source = source,
                    reason = reason.to_string()
                )
            }
            UpdateProblem::NotPutBack(reason) => {
                t!(
                    "pi.pkg.update_failed",
                    source = source,
                    error = reason.to_string()
                )
            }
            UpdateProblem::Package(e) => {
                t!(
                    "pi.pkg.update_failed",
                    source = source,
                    error = e.to_string()
                )
            }
        })
    }
}

/// A package command that failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PackageCommandError {
    /// A flag the command does not take.
    UnknownOption {
        /// The flag.
        option: String,
        /// The command word.
        command: String,
    },
    /// A word after the source.
    ExtraArgument {
        /// The word.
        arg: String,
        /// The command word.
        command: String,
    },
    /// `pi remove` without a source.
    MissingSource {
        /// The command word.
        command: String,
    },
    /// Reading a source, the settings or the lock failed.
    Package(Box<PackageError>),
    /// The install went ahead but the user did not agree to what it requests.
    InstallRefused {
        /// The source as the user wrote it.
        source: String,
        /// Why.
        reason: ConsentRefusal,
    },
    /// No configured package matches the source in the scope.
    NoMatch {
        /// The source as the user wrote it.
        source: String,
        /// The scope looked in.
        scope: Scope,
    },
    /// No configured package matches the source in any scope.
    NoMatchAny {
        /// The source as the user wrote it.
        source: String,
    },
    /// Removing a package's files failed.
    RemoveFailed {
        /// The source as the user wrote it.
        source: String,
        /// Why.
        cause: Box<PackageError>,
    },
    /// Some packages could not be updated (the others were).
    UpdateFailed(Vec<UpdateFailure>),
}

impl From<PackageError> for PackageCommandError {
    fn from(e: PackageError) -> PackageCommandError {
        PackageCommandError::Package(Box::new(e))
    }
}

impl fmt::Display for PackageCommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            PackageCommandError::UnknownOption { option, command } => t!(
                "pi.pkg.unknown_option",
                option = option.as_str(),
                command = command.as_str()
            ),
            PackageCommandError::ExtraArgument { arg, command } => t!(
                "pi.pkg.extra_argument",
                arg = arg.as_str(),
                command = command.as_str()
            ),
            PackageCommandError::MissingSource { command } => format!(
                "{}\n\n{}",
                t!("pi.pkg.missing_source", command = command.as_str()),
                super::package_commands::usage(command)
            ),
            PackageCommandError::Package(e) => e.to_string(),
            PackageCommandError::InstallRefused { source, reason } => t!(
                "pi.pkg.not_installed_refused",
                source = source.as_str(),
                reason = reason.to_string()
            ),
            PackageCommandError::NoMatch {
                source,
                scope: Scope::Project,
            } => t!("pi.pkg.no_match_project", source = source.as_str()),
            PackageCommandError::NoMatch { source, .. } => {
                t!("pi.pkg.no_match_global", source = source.as_str())
            }
            PackageCommandError::NoMatchAny { source } => {
                t!("pi.pkg.no_match_any", source = source.as_str())
            }
            PackageCommandError::RemoveFailed { source, cause } => t!(
                "pi.pkg.remove_failed",
                source = source.as_str(),
                error = cause.to_string()
            ),
            PackageCommandError::UpdateFailed(failures) => failures
                .iter()
                .map(UpdateFailure::to_string)
                .collect::<Vec<_>>()
                .join("\n"),
        };
        f.write_str(&text)
    }
}

impl std::error::Error for PackageCommandError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::scoped::scoped_catalog;

    #[test]
    fn command_errors_are_worded_in_the_current_language_with_their_facts() {
        let error = PackageCommandError::NoMatch {
            source: "npm:absent".into(),
            scope: Scope::Project,
        };
        let english = {
            let _en = scoped_catalog("en");
            error.to_string()
        };
        assert!(english.contains("npm:absent") && english.contains("project"));
        let _zh = scoped_catalog("zh-TW");
        let chinese = error.to_string();
        assert!(chinese.contains("npm:absent"), "{chinese}");
        assert_ne!(chinese, english);
        let refused = PackageCommandError::InstallRefused {
            source: "./pkg".into(),
            reason: ConsentRefusal::NeedsYes,
        };
        assert!(refused.to_string().contains("--yes"), "{refused}");
    }
}
