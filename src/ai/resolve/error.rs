//! Why a model could not be chosen: the facts, worded by the locale packs.

use std::path::PathBuf;

use crate::t;

/// Why `--model` / `--provider` could not be resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelResolveError {
    /// The registry holds no models at all.
    RegistryEmpty,
    /// `--provider` names no known provider.
    UnknownProvider {
        /// The name given.
        provider: String,
    },
    /// No model matches the pattern.
    ModelNotFound {
        /// The pattern as shown (`provider/pattern` when the provider is known).
        model: String,
        /// Close `provider/id` names, best first.
        suggestions: Vec<String>,
    },
}

impl std::fmt::Display for ModelResolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            ModelResolveError::RegistryEmpty => t!("pi.error.model.registry_empty"),
            ModelResolveError::UnknownProvider { provider } => {
                t!(
                    "pi.error.model.unknown_provider",
                    provider = provider.as_str()
                )
            }
            ModelResolveError::ModelNotFound { model, suggestions } => {
                let mut text = t!("pi.error.model.not_found", model = model.as_str());
                if !suggestions.is_empty() {
                    text.push(' ');
                    text.push_str(&t!(
                        "pi.error.model.did_you_mean",
                        names = suggestions.join(", ")
                    ));
                }
                text.push(' ');
                text.push_str(&t!("pi.error.model.list_hint"));
                text
            }
        };
        f.write_str(&text)
    }
}

impl std::error::Error for ModelResolveError {}

/// Why no model could be chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelSelectionError {
    /// `--model` / `--provider` could not be resolved.
    InvalidCliModel(ModelResolveError),
    /// No model has credentials.
    NoModelsAvailable {
        /// The environment variables of the common providers' API keys.
        env_vars: Vec<String>,
        /// The `models.json` a custom provider goes into.
        models_path: PathBuf,
    },
}

impl std::fmt::Display for ModelSelectionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelSelectionError::InvalidCliModel(e) => e.fmt(f),
            ModelSelectionError::NoModelsAvailable {
                env_vars,
                models_path,
            } => f.write_str(&t!(
                "pi.error.model.none_available",
                vars = env_vars.join(", "),
                path = models_path.display().to_string()
            )),
        }
    }
}

impl std::error::Error for ModelSelectionError {}
