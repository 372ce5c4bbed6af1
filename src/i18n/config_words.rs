//! The words of `config/`'s errors: `config/` sits below the locale packs, so its errors
//! are plain data and are worded here, where `t()` may be used.

use std::path::PathBuf;

use crate::config::error::{
    FileError, IoFailure, JsonProblem, JsonSyntax, SettingsFileError, SettingsSaveError,
    SettingsWarning,
};
use crate::t;

/// Why an I/O operation failed, in the user's language for the common kinds (the
/// system's own text otherwise).
pub fn io_reason(err: &std::io::Error) -> String {
    IoFailure::of(err).to_string()
}

impl std::fmt::Display for IoFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use std::io::ErrorKind;
        let text = match self.kind {
            ErrorKind::NotFound => t!("pi.error.io.not_found"),
            ErrorKind::PermissionDenied => t!("pi.error.io.permission_denied"),
            ErrorKind::IsADirectory => t!("pi.error.io.is_a_directory"),
            ErrorKind::NotADirectory => t!("pi.error.io.not_a_directory"),
            ErrorKind::AlreadyExists => t!("pi.error.io.already_exists"),
            ErrorKind::InvalidData => t!("pi.error.io.invalid_data"),
            _ => self.detail.clone(),
        };
        f.write_str(&text)
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
                reason = reason.to_string()
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

impl std::fmt::Display for SettingsWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SettingsWarning::File(e) => e.fmt(f),
            SettingsWarning::Schema(w) => w.fmt(f),
        }
    }
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
                reason = reason.to_string()
            ),
            SettingsSaveError::UnusableValue { problem } => {
                t!(
                    "pi.error.settings.save_unusable_value",
                    problem = problem.to_string()
                )
            }
            SettingsSaveError::Unwritable { path, reason } => t!(
                "pi.error.settings.save_unwritable",
                path = file(path),
                reason = reason.to_string()
            ),
        };
        f.write_str(&text)
    }
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let file = |p: &PathBuf| p.display().to_string();
        let text = match self {
            FileError::Unreadable { path, reason } => t!(
                "pi.error.file.unreadable",
                path = file(path),
                reason = reason.to_string()
            ),
            FileError::Unwritable { path, reason } => t!(
                "pi.error.file.unwritable",
                path = file(path),
                reason = reason.to_string()
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
