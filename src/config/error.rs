//! What can be wrong with a configuration file, as facts: a JSON syntax problem and
//! where it is, a settings file that could not be read or used, an I/O failure's kind.
//! These are plain data: their words (`Display`) live in `i18n/config_words.rs`, a floor
//! above, with the locale packs.

use std::path::PathBuf;

use super::schema_warning::SchemaWarning;

/// A JSON syntax problem, by kind (serde_json's own wording is English).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JsonSyntax {
    /// A `,` right before `}` or `]`.
    TrailingComma,
    /// The text ends inside a value.
    UnexpectedEnd,
    /// A value was expected.
    ExpectedValue,
    /// `,` or a closing bracket was expected.
    ExpectedComma,
    /// `:` was expected after a key.
    ExpectedColon,
    /// An object key is not a string.
    KeyMustBeString,
    /// Something follows the complete value.
    TrailingCharacters,
    /// A bad `\` escape or control character in a string.
    BadString,
    /// A malformed or out-of-range number.
    BadNumber,
    /// Anything else, in the parser's words.
    Other(String),
}

impl JsonSyntax {
    /// The kind of `err`.
    pub fn from_serde(err: &serde_json::Error) -> JsonSyntax {
        let text = err.to_string();
        let suffix = format!(" at line {} column {}", err.line(), err.column());
        let message = text.strip_suffix(&suffix).unwrap_or(&text);
        match message {
            "trailing comma" => JsonSyntax::TrailingComma,
            m if m.starts_with("EOF while parsing") => JsonSyntax::UnexpectedEnd,
            "expected value" | "expected ident" => JsonSyntax::ExpectedValue,
            m if m.starts_with("expected `,`") => JsonSyntax::ExpectedComma,
            "expected `:`" => JsonSyntax::ExpectedColon,
            "key must be a string" => JsonSyntax::KeyMustBeString,
            "trailing characters" => JsonSyntax::TrailingCharacters,
            m if m.contains("escape") || m.starts_with("control character") => {
                JsonSyntax::BadString
            }
            "invalid number" | "number out of range" => JsonSyntax::BadNumber,
            other => JsonSyntax::Other(other.to_string()),
        }
    }
}

/// Why the text of a JSON object file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JsonProblem {
    /// The text is not JSON.
    Syntax {
        /// What is wrong.
        kind: JsonSyntax,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// Valid JSON, but not an object at the top level.
    NotAnObject,
}

impl JsonProblem {
    /// The problem `err` describes.
    pub fn from_serde(err: &serde_json::Error) -> JsonProblem {
        JsonProblem::Syntax {
            kind: JsonSyntax::from_serde(err),
            line: err.line(),
            column: err.column(),
        }
    }
}

/// A settings file pi could not use (it continues with default settings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingsFileError {
    /// The file exists but could not be read.
    Unreadable {
        /// The global file (else the project's).
        global: bool,
        /// The file.
        path: PathBuf,
        /// Why, in words.
        reason: IoFailure,
    },
    /// The file's text is not a JSON object.
    Invalid {
        /// The global file (else the project's).
        global: bool,
        /// The file.
        path: PathBuf,
        /// What is wrong and where.
        problem: JsonProblem,
    },
}

impl std::error::Error for SettingsFileError {}

/// Something wrong in a settings file that pi worked around (it goes on, with the
/// file's other settings or the defaults).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingsWarning {
    /// The whole file could not be used.
    File(SettingsFileError),
    /// A key of the file breaks the settings schema.
    Schema(SchemaWarning),
}

/// A settings change pi did not save (the file is left as it was).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingsSaveError {
    /// The global file could not be used at start-up, so pi does not overwrite it.
    UnusableAtStartup {
        /// The file.
        path: PathBuf,
    },
    /// The file on disk is not a JSON object now.
    Malformed {
        /// The file.
        path: PathBuf,
        /// What is wrong, in words.
        problem: String,
    },
    /// The file could not be read.
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why, in words.
        reason: IoFailure,
    },
    /// The change would replace a value of the wrong type the user still has to fix.
    UnusableValue {
        /// What the schema says about the value (file and key named).
        problem: SchemaWarning,
    },
    /// The file could not be written.
    Unwritable {
        /// The file.
        path: PathBuf,
        /// Why, in words.
        reason: IoFailure,
    },
}

impl std::error::Error for SettingsSaveError {}

impl From<SettingsSaveError> for String {
    fn from(e: SettingsSaveError) -> String {
        e.to_string()
    }
}

/// A configuration file pi could not read, parse or write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileError {
    /// It could not be read.
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why, in words.
        reason: IoFailure,
    },
    /// It (or its folder) could not be written.
    Unwritable {
        /// The file or folder.
        path: PathBuf,
        /// Why, in words.
        reason: IoFailure,
    },
    /// Its text is not JSON.
    Syntax {
        /// The file.
        path: PathBuf,
        /// What is wrong and where.
        problem: JsonProblem,
    },
    /// Valid JSON, but not an object: pi leaves it alone.
    NotAnObject {
        /// The file.
        path: PathBuf,
    },
}

impl FileError {
    /// The file could not be read because of `e`.
    pub fn unreadable(path: &std::path::Path, e: &std::io::Error) -> FileError {
        FileError::Unreadable {
            path: path.to_path_buf(),
            reason: IoFailure::of(e),
        }
    }

    /// The file could not be written because of `e`.
    pub fn unwritable(path: &std::path::Path, e: &std::io::Error) -> FileError {
        FileError::Unwritable {
            path: path.to_path_buf(),
            reason: IoFailure::of(e),
        }
    }
}

impl std::error::Error for FileError {}

/// An I/O failure as data: its kind, and the system's own text for kinds pi has no
/// words for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IoFailure {
    /// The kind.
    pub kind: std::io::ErrorKind,
    /// The system's text.
    pub detail: String,
}

impl IoFailure {
    /// The failure `err` describes.
    pub fn of(err: &std::io::Error) -> IoFailure {
        IoFailure {
            kind: err.kind(),
            detail: err.to_string(),
        }
    }
}
