//! What can be wrong with `auth.json`, as facts: the file, the problem, the entry. The
//! words come from the locale packs.

use std::path::PathBuf;

use crate::i18n::config_words::io_reason;
use crate::t;

/// `auth.json` could not be read, used or saved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthStoreError {
    /// The file is not a JSON object; stored credentials are ignored.
    InvalidFile {
        /// The file.
        path: PathBuf,
        /// What is wrong and where.
        problem: String,
    },
    /// One entry is unusable and ignored.
    InvalidEntry {
        /// The file.
        path: PathBuf,
        /// The entry's problem.
        problem: String,
    },
    /// The file could not be read; stored credentials are ignored.
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why, in words.
        reason: String,
    },
    /// Not saved: the file could not be parsed at start-up.
    NotSavedUnparsed {
        /// The file.
        path: PathBuf,
    },
    /// Not saved: the file holds an entry pi cannot use.
    NotSavedEntry {
        /// The file.
        path: PathBuf,
        /// The entry's problem.
        problem: String,
    },
    /// Not saved: the file on disk could not be read or parsed now.
    NotSavedNow {
        /// What is wrong, file named.
        problem: String,
    },
    /// The file could not be written.
    Unwritable {
        /// The file.
        path: PathBuf,
        /// Why, in words.
        reason: String,
    },
}

impl AuthStoreError {
    /// `path` could not be read because of `e`.
    pub fn unreadable(path: &std::path::Path, e: &std::io::Error) -> AuthStoreError {
        AuthStoreError::Unreadable {
            path: path.to_path_buf(),
            reason: io_reason(e),
        }
    }

    /// `path` could not be written because of `e`.
    pub fn unwritable(path: &std::path::Path, e: &std::io::Error) -> AuthStoreError {
        AuthStoreError::Unwritable {
            path: path.to_path_buf(),
            reason: io_reason(e),
        }
    }
}

impl std::fmt::Display for AuthStoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let file = |p: &PathBuf| p.display().to_string();
        let text = match self {
            AuthStoreError::InvalidFile { path, problem } => t!(
                "pi.auth.error.invalid_file",
                path = file(path),
                problem = problem.as_str()
            ),
            AuthStoreError::InvalidEntry { path, problem } => t!(
                "pi.auth.error.invalid_entry",
                path = file(path),
                problem = problem.as_str()
            ),
            AuthStoreError::Unreadable { path, reason } => t!(
                "pi.auth.error.unreadable",
                path = file(path),
                reason = reason.as_str()
            ),
            AuthStoreError::NotSavedUnparsed { path } => {
                t!("pi.auth.error.not_saved_unparsed", path = file(path))
            }
            AuthStoreError::NotSavedEntry { path, problem } => t!(
                "pi.auth.error.not_saved_entry",
                path = file(path),
                problem = problem.as_str()
            ),
            AuthStoreError::NotSavedNow { problem } => {
                t!("pi.auth.error.not_saved_now", problem = problem.as_str())
            }
            AuthStoreError::Unwritable { path, reason } => t!(
                "pi.auth.error.unwritable",
                path = file(path),
                reason = reason.as_str()
            ),
        };
        f.write_str(&text)
    }
}

impl std::error::Error for AuthStoreError {}

/// Which configured value could not be resolved for a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValueOf {
    /// A provider's `apiKey` in `models.json`.
    ApiKey {
        /// The provider.
        provider: String,
    },
    /// A header of a provider or of one model.
    Header {
        /// The provider, or `provider/model`.
        owner: String,
        /// The header's name.
        name: String,
    },
}

/// No credentials could be put on a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestAuthError {
    /// The provider has no key anywhere pi looks.
    NoApiKey {
        /// The provider.
        provider: String,
        /// The environment variables that would hold one.
        env_vars: Vec<String>,
        /// `models.json`, where an `apiKey` can be added.
        models_path: PathBuf,
    },
    /// The stored login's token has expired and could not be refreshed.
    LoginExpired {
        /// The provider.
        provider: String,
    },
    /// A configured value (`!command` or environment variable) gave nothing.
    Unresolved {
        /// The value.
        value: ValueOf,
        /// The shell command, when the value is one.
        command: Option<String>,
    },
    /// The subscription login failed to give a token.
    OAuth(crate::ai::oauth::OAuthError),
}

impl RequestAuthError {
    /// Whether `/login` (rather than a setting) fixes this.
    pub fn wants_login(&self) -> bool {
        matches!(
            self,
            RequestAuthError::NoApiKey { .. }
                | RequestAuthError::LoginExpired { .. }
                | RequestAuthError::OAuth(_)
        )
    }
}

impl From<crate::ai::oauth::OAuthError> for RequestAuthError {
    fn from(e: crate::ai::oauth::OAuthError) -> RequestAuthError {
        RequestAuthError::OAuth(e)
    }
}

impl std::fmt::Display for ValueOf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            ValueOf::ApiKey { provider } => {
                t!("pi.auth.value.api_key", provider = provider.as_str())
            }
            ValueOf::Header { owner, name } => t!(
                "pi.auth.value.header",
                owner = owner.as_str(),
                name = name.as_str()
            ),
        };
        f.write_str(&text)
    }
}

impl std::fmt::Display for RequestAuthError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            RequestAuthError::NoApiKey {
                provider,
                env_vars,
                models_path,
            } => {
                let mut ways = Vec::new();
                if !env_vars.is_empty() {
                    ways.push(t!(
                        "pi.auth.fix.env",
                        vars = env_vars.join(&t!("pi.auth.fix.or"))
                    ));
                }
                ways.push(t!("pi.auth.fix.login"));
                ways.push(t!(
                    "pi.auth.fix.models_json",
                    provider = provider.as_str(),
                    path = models_path.display().to_string()
                ));
                t!(
                    "pi.auth.error.no_api_key",
                    provider = provider.as_str(),
                    ways = ways.join(&t!("pi.auth.fix.separator"))
                )
            }
            RequestAuthError::LoginExpired { provider } => {
                t!("pi.auth.error.login_expired", provider = provider.as_str())
            }
            RequestAuthError::Unresolved {
                value,
                command: Some(command),
            } => t!(
                "pi.auth.error.unresolved_command",
                value = value.to_string(),
                command = command.as_str()
            ),
            RequestAuthError::Unresolved {
                value,
                command: None,
            } => t!("pi.auth.error.unresolved", value = value.to_string()),
            RequestAuthError::OAuth(e) => e.to_string(),
        };
        f.write_str(&text)
    }
}

impl std::error::Error for RequestAuthError {}
