//! Why a theme cannot be used, as facts: the file, the token, the value. The words come
//! from the locale packs.

use std::path::PathBuf;

use crate::t;

/// A theme pi cannot use (it falls back to `dark`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ThemeError {
    /// The text is not JSON.
    InvalidJson {
        /// The parser's description.
        detail: String,
    },
    /// There is no `colors` object.
    MissingColors,
    /// A required colour token is missing.
    MissingToken {
        /// The token.
        token: String,
    },
    /// A token's value is not a colour, a variable or a colour index.
    InvalidToken {
        /// The token.
        token: String,
        /// Its value as written.
        value: String,
    },
    /// The theme file could not be read.
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why, in words.
        reason: String,
    },
    /// The theme file holds one of the problems above.
    InFile {
        /// The file.
        path: PathBuf,
        /// What is wrong in it.
        error: Box<ThemeError>,
    },
}

impl std::fmt::Display for ThemeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            ThemeError::InvalidJson { detail } => {
                t!("pi.theme.invalid_json", error = detail.as_str())
            }
            ThemeError::MissingColors => t!("pi.theme.missing_colors"),
            ThemeError::MissingToken { token } => {
                t!("pi.theme.missing_token", token = token.as_str())
            }
            ThemeError::InvalidToken { token, value } => t!(
                "pi.theme.invalid_token",
                token = token.as_str(),
                value = value.as_str()
            ),
            ThemeError::Unreadable { path, reason } => t!(
                "pi.theme.file_failed",
                path = path.display().to_string(),
                error = reason.as_str()
            ),
            ThemeError::InFile { path, error } => t!(
                "pi.theme.file_failed",
                path = path.display().to_string(),
                error = error.to_string()
            ),
        };
        f.write_str(&text)
    }
}

impl std::error::Error for ThemeError {}
