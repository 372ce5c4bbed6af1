//! What can be wrong with a configuration file, as facts: a JSON syntax problem and
//! where it is, a settings file that could not be read or used, an I/O failure's kind.
//! The words come from the locale packs.

use std::path::PathBuf;

use crate::t;

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

impl std::fmt::Display for JsonSyntax {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            JsonSyntax::TrailingComma => t!("pi.error.json.trailing_comma"),
            JsonSyntax::UnexpectedEnd => t!("pi.error.json.unexpected_end"),
            JsonSyntax::ExpectedValue => t!("pi.error.json.expected_value"),
            JsonSyntax::ExpectedComma => t!("pi.error.json.expected_comma"),
            JsonSyntax::ExpectedColon => t!("pi.error.json.expected_colon"),
            JsonSyntax::KeyMustBeString => t!("pi.error.json.key_must_be_string"),
            JsonSyntax::TrailingCharacters => t!("pi.error.json.trailing_characters"),
            JsonSyntax::BadString => t!("pi.error.json.bad_string"),
            JsonSyntax::BadNumber => t!("pi.error.json.bad_number"),
            JsonSyntax::Other(text) => text.clone(),
        };
        f.write_str(&text)
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

impl std::fmt::Display for JsonProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            JsonProblem::Syntax { kind, line, column } => t!(
                "pi.error.json.at",
                problem = kind.to_string(),
                line = *line,
                column = *column
            ),
            JsonProblem::NotAnObject => t!("pi.error.json.not_an_object"),
        };
        f.write_str(&text)
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
        reason: String,
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

impl std::fmt::Display for SettingsFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let scope = |global: bool| match global {
            true => t!("pi.error.settings.global"),
            false => t!("pi.error.settings.project"),
        };
        let text = match self {
            SettingsFileError::Unreadable {
                global,
                path,
                reason,
            } => t!(
                "pi.error.settings.unreadable",
                scope = scope(*global),
                path = path.display().to_string(),
                reason = reason.as_str()
            ),
            SettingsFileError::Invalid {
                global,
                path,
                problem,
            } => t!(
                "pi.error.settings.invalid",
                scope = scope(*global),
                path = path.display().to_string(),
                problem = problem.to_string()
            ),
        };
        f.write_str(&text)
    }
}

impl std::error::Error for SettingsFileError {}

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
        reason: String,
    },
    /// The change would replace a value of the wrong type the user still has to fix.
    UnusableValue {
        /// The schema's sentence about the value (file and key named).
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

impl std::fmt::Display for SettingsSaveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let file = |p: &PathBuf| p.display().to_string();
        let text = match self {
            SettingsSaveError::UnusableAtStartup { path } => {
                t!("pi.error.settings.save_unusable_file", path = file(path))
            }
            SettingsSaveError::Malformed { path, problem } => t!(
                "pi.error.settings.save_malformed",
                path = file(path),
                problem = problem.as_str()
            ),
            SettingsSaveError::Unreadable { path, reason } => t!(
                "pi.error.settings.save_unreadable",
                path = file(path),
                reason = reason.as_str()
            ),
            SettingsSaveError::UnusableValue { problem } => {
                t!(
                    "pi.error.settings.save_unusable_value",
                    problem = problem.as_str()
                )
            }
            SettingsSaveError::Unwritable { path, reason } => t!(
                "pi.error.settings.save_unwritable",
                path = file(path),
                reason = reason.as_str()
            ),
        };
        f.write_str(&text)
    }
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
        reason: String,
    },
    /// It (or its folder) could not be written.
    Unwritable {
        /// The file or folder.
        path: PathBuf,
        /// Why, in words.
        reason: String,
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
            reason: io_reason(e),
        }
    }

    /// The file could not be written because of `e`.
    pub fn unwritable(path: &std::path::Path, e: &std::io::Error) -> FileError {
        FileError::Unwritable {
            path: path.to_path_buf(),
            reason: io_reason(e),
        }
    }
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let file = |p: &PathBuf| p.display().to_string();
        let text = match self {
            FileError::Unreadable { path, reason } => t!(
                "pi.error.file.unreadable",
                path = file(path),
                reason = reason.as_str()
            ),
            FileError::Unwritable { path, reason } => t!(
                "pi.error.file.unwritable",
                path = file(path),
                reason = reason.as_str()
            ),
            FileError::Syntax { path, problem } => t!(
                "pi.error.file.syntax",
                path = file(path),
                problem = problem.to_string()
            ),
            FileError::NotAnObject { path } => {
                t!("pi.error.file.not_an_object", path = file(path))
            }
        };
        f.write_str(&text)
    }
}

impl std::error::Error for FileError {}

/// Why an I/O operation failed, in the user's language for the common kinds (the
/// system's own text otherwise).
pub fn io_reason(err: &std::io::Error) -> String {
    use std::io::ErrorKind;
    match err.kind() {
        ErrorKind::NotFound => t!("pi.error.io.not_found"),
        ErrorKind::PermissionDenied => t!("pi.error.io.permission_denied"),
        ErrorKind::IsADirectory => t!("pi.error.io.is_a_directory"),
        ErrorKind::NotADirectory => t!("pi.error.io.not_a_directory"),
        ErrorKind::AlreadyExists => t!("pi.error.io.already_exists"),
        ErrorKind::InvalidData => t!("pi.error.io.invalid_data"),
        _ => err.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(text: &str) -> JsonProblem {
        let err = serde_json::from_str::<serde_json::Value>(text).unwrap_err();
        JsonProblem::from_serde(&err)
    }

    #[test]
    fn json_syntax_kinds_keep_line_and_column() {
        assert_eq!(
            problem("{\n  \"a\": 1,\n}"),
            JsonProblem::Syntax {
                kind: JsonSyntax::TrailingComma,
                line: 3,
                column: 1
            }
        );
        let JsonProblem::Syntax { kind, .. } = problem("{\"a\": ") else {
            panic!()
        };
        assert_eq!(kind, JsonSyntax::UnexpectedEnd);
        let JsonProblem::Syntax { kind, .. } = problem("{\"a\" 1}") else {
            panic!()
        };
        assert_eq!(kind, JsonSyntax::ExpectedColon);
        let JsonProblem::Syntax { kind, .. } = problem("{1: 2}") else {
            panic!()
        };
        assert_eq!(kind, JsonSyntax::KeyMustBeString);
        assert_eq!(
            problem("{\"a\": 1,}").to_string(),
            "trailing comma at line 1, column 9"
        );
    }

    #[test]
    fn io_reasons_name_the_kind() {
        let missing = std::fs::read("/definitely/not/here").unwrap_err();
        assert_eq!(io_reason(&missing), "no such file or folder");
        let other = std::io::Error::other("disk on fire");
        assert_eq!(io_reason(&other), "disk on fire");
    }
}
