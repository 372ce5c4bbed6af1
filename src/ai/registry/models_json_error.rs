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
        problem: DefinitionProblem,
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
            ModelsJsonError::Invalid { path, problem } => t!(
                "pi.error.models_json.invalid",
                detail = problem.to_string(),
                path = file(path)
            ),
        };
        f.write_str(&text)
    }
}

impl std::error::Error for ModelsJsonError {}

/// A provider or model definition of `models.json` pi cannot use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DefinitionProblem {
    /// A provider entry that defines and overrides nothing.
    Empty {
        /// The provider.
        provider: String,
    },
    /// Custom models without a `baseUrl`.
    NoBaseUrl {
        /// The provider.
        provider: String,
    },
    /// Custom models without an `apiKey`.
    NoApiKey {
        /// The provider.
        provider: String,
    },
    /// A model of a custom provider without an `api`.
    NoApi {
        /// The provider.
        provider: String,
        /// The model.
        model: String,
    },
    /// A `contextWindow` that is not positive.
    BadContextWindow {
        /// The provider.
        provider: String,
        /// The model.
        model: String,
    },
    /// A `maxTokens` that is not positive.
    BadMaxTokens {
        /// The provider.
        provider: String,
        /// The model.
        model: String,
    },
}

impl std::fmt::Display for DefinitionProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            DefinitionProblem::Empty { provider } => {
                t!("pi.error.models_json.empty", provider = provider.as_str())
            }
            DefinitionProblem::NoBaseUrl { provider } => {
                t!(
                    "pi.error.models_json.no_base_url",
                    provider = provider.as_str()
                )
            }
            DefinitionProblem::NoApiKey { provider } => {
                t!(
                    "pi.error.models_json.no_api_key",
                    provider = provider.as_str()
                )
            }
            DefinitionProblem::NoApi { provider, model } => t!(
                "pi.error.models_json.no_api",
                provider = provider.as_str(),
                model = model.as_str()
            ),
            DefinitionProblem::BadContextWindow { provider, model } => t!(
                "pi.error.models_json.bad_context_window",
                provider = provider.as_str(),
                model = model.as_str()
            ),
            DefinitionProblem::BadMaxTokens { provider, model } => t!(
                "pi.error.models_json.bad_max_tokens",
                provider = provider.as_str(),
                model = model.as_str()
            ),
        };
        f.write_str(&text)
    }
}
