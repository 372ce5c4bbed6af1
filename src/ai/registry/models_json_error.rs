//! Why `models.json` could not be used: the facts, worded by the locale packs.

use std::path::PathBuf;

use crate::config::error::JsonProblem;
use crate::t;

/// A `models.json` pi could not use (the built-in models still are).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelsJsonError {
    /// The file exists but could not be read.
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why, in words.
        reason: String,
    },
    /// The text is not JSON.
    Syntax {
        /// The file.
        path: PathBuf,
        /// What is wrong and where.
        problem: JsonProblem,
    },
    /// JSON of the wrong shape (a value of the wrong type, an empty string).
    Schema {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        detail: String,
    },
    /// A provider or model definition pi cannot use.
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        detail: String,
    },
}

impl std::fmt::Display for ModelsJsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let file = |p: &PathBuf| p.display().to_string();
        let text = match self {
            ModelsJsonError::Unreadable { path, reason } => t!(
                "pi.error.models_json.unreadable",
                reason = reason.as_str(),
                path = file(path)
            ),
            ModelsJsonError::Syntax { path, problem } => t!(
                "pi.error.models_json.syntax",
                problem = problem.to_string(),
                path = file(path)
            ),
            ModelsJsonError::Schema { path, detail } => t!(
                "pi.error.models_json.schema",
                detail = detail.as_str(),
                path = file(path)
            ),
            ModelsJsonError::Invalid { path, detail } => t!(
                "pi.error.models_json.invalid",
                detail = detail.as_str(),
                path = file(path)
            ),
        };
        f.write_str(&text)
    }
}

impl std::error::Error for ModelsJsonError {}
