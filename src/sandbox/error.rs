//! Why a sandbox mode cannot be put in force or a command cannot be confined, as facts:
//! the mode, the missing kernel feature, the folder. The words come from the locale packs.

use std::path::PathBuf;

use super::mode::SandboxMode;
use crate::t;

/// A kernel feature a confined mode needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feature {
    /// Landlock (Linux 5.13 or later): the write rules.
    Landlock,
    /// seccomp filters: the network switch.
    Seccomp,
    /// User namespaces: `.git` and `.pi` read-only.
    UserNamespaces,
}

impl std::fmt::Display for Feature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            Feature::Landlock => "Landlock (Linux 5.13 or later)".to_string(),
            Feature::Seccomp => t!("pi.sandbox.feature_seccomp"),
            Feature::UserNamespaces => t!("pi.sandbox.feature_userns"),
        };
        f.write_str(&text)
    }
}

/// The sandbox refused: pi runs nothing unconfined in a confined mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SandboxError {
    /// This system cannot enforce `mode`: it lacks `feature`.
    Unsupported {
        /// The mode asked for.
        mode: SandboxMode,
        /// What is missing.
        feature: Feature,
        /// The kernel's own answer, when it gave one.
        detail: Option<String>,
    },
    /// The network filter could not be built.
    NetworkFilter {
        /// The filter compiler's description.
        detail: String,
    },
    /// The private temp folder could not be made.
    TempFolder {
        /// The folder.
        path: PathBuf,
        /// Why, in words.
        reason: String,
    },
}

impl std::fmt::Display for SandboxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            SandboxError::Unsupported {
                mode,
                feature,
                detail,
            } => {
                let mut text = t!(
                    "pi.sandbox.unsupported",
                    mode = mode.as_str(),
                    feature = feature.to_string()
                );
                if let Some(detail) = detail {
                    text.push_str(&t!("pi.sandbox.kernel_said", detail = detail.as_str()));
                }
                text
            }
            SandboxError::NetworkFilter { detail } => {
                t!("pi.sandbox.network_filter", detail = detail.as_str())
            }
            SandboxError::TempFolder { path, reason } => t!(
                "pi.sandbox.temp_folder",
                path = path.display().to_string(),
                reason = reason.as_str()
            ),
        };
        f.write_str(&text)
    }
}

impl std::error::Error for SandboxError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_name_the_mode_and_the_feature() {
        let e = SandboxError::Unsupported {
            mode: SandboxMode::WorkspaceWrite,
            feature: Feature::Landlock,
            detail: Some("ENOSYS".into()),
        };
        let text = e.to_string();
        assert!(
            text.contains("workspace-write") && text.contains("Landlock"),
            "{text}"
        );
        assert!(text.contains("ENOSYS"), "{text}");
    }
}
