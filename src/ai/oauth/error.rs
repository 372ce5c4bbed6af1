//! What can go wrong in a subscription login or a token refresh, as facts: the step that
//! failed, the provider, the endpoint and what it answered. The words come from the
//! locale packs.

use std::path::PathBuf;

use crate::t;

/// One request of a login flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Exchanging an authorization code for tokens at the service named.
    TokenExchange(&'static str),
    /// Getting fresh tokens with a refresh token at the service named.
    TokenRefresh(&'static str),
    /// Asking GitHub for a device code.
    DeviceCode,
    /// Polling GitHub until the device is authorized.
    DeviceAuthorization,
    /// Exchanging a GitHub token for a Copilot token.
    CopilotToken,
    /// Looking up the Cloud Code Assist project.
    ProjectLookup,
    /// Provisioning a Cloud Code Assist project.
    Onboarding,
    /// Reading the account's e-mail address.
    UserInfo,
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            Step::TokenExchange(service) => {
                t!("pi.oauth.step.token_exchange", service = *service)
            }
            Step::TokenRefresh(service) => t!("pi.oauth.step.token_refresh", service = *service),
            Step::DeviceCode => t!("pi.oauth.step.device_code"),
            Step::DeviceAuthorization => t!("pi.oauth.step.device_authorization"),
            Step::CopilotToken => t!("pi.oauth.step.copilot_token"),
            Step::ProjectLookup => t!("pi.oauth.step.project_lookup"),
            Step::Onboarding => t!("pi.oauth.step.onboarding"),
            Step::UserInfo => t!("pi.oauth.step.user_info"),
        };
        f.write_str(&text)
    }
}

/// A login, refresh or credential change that did not happen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OAuthError {
    /// The user cancelled the login.
    Cancelled,
    /// The pasted redirect carries the state of another login attempt.
    StateMismatch,
    /// The pasted text holds no authorization code.
    NoCode,
    /// The operating system gave no random bytes.
    NoRandom {
        /// The system's own text.
        detail: String,
    },
    /// The endpoint could not be reached.
    Unreachable {
        /// The request.
        step: Step,
        /// The endpoint.
        url: String,
        /// The transport's own text.
        detail: String,
    },
    /// The endpoint answered with an error status.
    Status {
        /// The request.
        step: Step,
        /// The HTTP status.
        status: u16,
        /// The start of the body.
        body: String,
    },
    /// The answer is not JSON.
    InvalidJson {
        /// The request.
        step: Step,
        /// The start of the body.
        body: String,
    },
    /// The answer lacks a field the flow needs.
    MissingField {
        /// The request.
        step: Step,
        /// The field.
        field: String,
        /// The start of the answer.
        body: String,
    },
    /// The access token names no ChatGPT account.
    NoAccountId,
    /// Google sent no refresh token.
    NoRefreshToken {
        /// The provider to log in to again.
        provider: String,
    },
    /// GitHub refused the device authorization.
    DeviceDenied {
        /// GitHub's error code (`access_denied`, `expired_token`).
        error: String,
        /// GitHub's description, when it sent one.
        description: Option<String>,
    },
    /// GitHub answered the poll with neither a token nor an error.
    DeviceNoAnswer {
        /// The answer.
        body: String,
    },
    /// The device code expired before the user authorized it.
    DeviceTimeout {
        /// GitHub asked pi to slow down (a wrong clock is a likely cause).
        slowed: bool,
    },
    /// What the user typed is not a GitHub Enterprise host.
    InvalidEnterpriseDomain {
        /// The input.
        input: String,
    },
    /// The Google account needs a Cloud project the user has to name.
    NeedsCloudProject {
        /// The account's tier, when known.
        tier: Option<String>,
    },
    /// Provisioning a Cloud Code Assist project did not finish in time.
    OnboardingUnfinished,
    /// A provider without a subscription login.
    UnknownProvider {
        /// The provider asked for.
        provider: String,
        /// The providers with one.
        choices: Vec<String>,
    },
    /// A stored login of a provider pi cannot refresh.
    CannotRefresh {
        /// The provider.
        provider: String,
    },
    /// An extension's login or refresh failed; `detail` is its own text.
    Extension {
        /// What the extension reported.
        detail: String,
    },
    /// An extension's login returned a table without the field named (`None`: not a
    /// table at all).
    ExtensionCredential {
        /// The missing field.
        field: Option<&'static str>,
    },
    /// The refresh of a stored login failed.
    RefreshFailed {
        /// The provider.
        provider: String,
        /// Its display name.
        name: String,
        /// Why.
        cause: Box<OAuthError>,
    },
    /// The credentials lock file could not be taken.
    Lock {
        /// The lock file or its folder.
        path: PathBuf,
        /// Why, in words.
        reason: String,
    },
    /// The refresh could not be run (no runtime, or it stopped).
    RefreshNotRun {
        /// The runtime's own text.
        detail: String,
    },
    /// `auth.json` could not be used or saved.
    Store(crate::ai::auth_error::AuthStoreError),
}

impl OAuthError {
    /// Whether the endpoint's answer body contains `needle` (Google's policy reasons).
    pub fn body_contains(&self, needle: &str) -> bool {
        matches!(self, OAuthError::Status { body, .. } if body.contains(needle))
    }
}

impl From<crate::ai::auth_error::AuthStoreError> for OAuthError {
    fn from(e: crate::ai::auth_error::AuthStoreError) -> OAuthError {
        OAuthError::Store(e)
    }
}

impl std::fmt::Display for OAuthError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            OAuthError::Cancelled => t!("pi.login.cancelled"),
            OAuthError::StateMismatch => t!("pi.oauth.state_mismatch"),
            OAuthError::NoCode => t!("pi.oauth.no_code"),
            OAuthError::NoRandom { detail } => {
                t!("pi.oauth.error.no_random", detail = detail.as_str())
            }
            OAuthError::Unreachable { step, url, detail } => t!(
                "pi.oauth.error.unreachable",
                step = step.to_string(),
                url = url.as_str(),
                detail = detail.as_str()
            ),
            OAuthError::Status { step, status, body } => t!(
                "pi.oauth.error.status",
                step = step.to_string(),
                status = *status,
                body = body.as_str()
            ),
            OAuthError::InvalidJson { step, body } => t!(
                "pi.oauth.error.invalid_json",
                step = step.to_string(),
                body = body.as_str()
            ),
            OAuthError::MissingField { step, field, body } => t!(
                "pi.oauth.error.missing_field",
                step = step.to_string(),
                field = field.as_str(),
                body = body.as_str()
            ),
            OAuthError::NoAccountId => t!("pi.oauth.error.no_account_id"),
            OAuthError::NoRefreshToken { provider } => {
                t!(
                    "pi.oauth.error.no_refresh_token",
                    provider = provider.as_str()
                )
            }
            OAuthError::DeviceDenied { error, description } => match description {
                Some(d) => t!(
                    "pi.oauth.error.device_denied_because",
                    error = error.as_str(),
                    description = d.as_str()
                ),
                None => t!("pi.oauth.error.device_denied", error = error.as_str()),
            },
            OAuthError::DeviceNoAnswer { body } => {
                t!("pi.oauth.error.device_no_answer", body = body.as_str())
            }
            OAuthError::DeviceTimeout { slowed: true } => t!("pi.oauth.device_timeout_clock"),
            OAuthError::DeviceTimeout { slowed: false } => t!("pi.oauth.device_timeout"),
            OAuthError::InvalidEnterpriseDomain { input } => {
                t!("pi.oauth.error.enterprise_domain", input = input.as_str())
            }
            OAuthError::NeedsCloudProject { tier } => match tier {
                Some(tier) => t!("pi.oauth.error.needs_project_tier", tier = tier.as_str()),
                None => t!("pi.oauth.error.needs_project"),
            },
            OAuthError::OnboardingUnfinished => t!("pi.oauth.error.onboarding_unfinished"),
            OAuthError::UnknownProvider { provider, choices } => t!(
                "pi.oauth.error.unknown_provider",
                provider = provider.as_str(),
                choices = choices.join(", ")
            ),
            OAuthError::CannotRefresh { provider } => {
                t!(
                    "pi.oauth.error.cannot_refresh",
                    provider = provider.as_str()
                )
            }
            OAuthError::Extension { detail } => detail.clone(),
            OAuthError::ExtensionCredential { field } => match field {
                Some(field) => t!("pi.oauth.error.extension_field", field = *field),
                None => t!("pi.oauth.error.extension_table"),
            },
            OAuthError::RefreshFailed {
                provider,
                name,
                cause,
            } => t!(
                "pi.oauth.refresh_failed",
                name = name.as_str(),
                problem = cause.to_string(),
                provider = provider.as_str()
            ),
            OAuthError::Lock { path, reason } => t!(
                "pi.oauth.error.lock",
                path = path.display().to_string(),
                reason = reason.as_str()
            ),
            OAuthError::RefreshNotRun { detail } => {
                t!("pi.oauth.error.refresh_not_run", detail = detail.as_str())
            }
            OAuthError::Store(e) => e.to_string(),
        };
        f.write_str(&text)
    }
}

impl std::error::Error for OAuthError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_their_facts() {
        let e = OAuthError::Status {
            step: Step::TokenRefresh("Anthropic"),
            status: 400,
            body: "invalid_grant".into(),
        };
        let text = e.to_string();
        assert!(text.contains("Anthropic"), "{text}");
        assert!(
            text.contains("400") && text.contains("invalid_grant"),
            "{text}"
        );
        assert!(e.body_contains("invalid_grant"));
        assert!(!OAuthError::NoCode.body_contains("invalid_grant"));
        let e = OAuthError::UnknownProvider {
            provider: "nope".into(),
            choices: vec!["anthropic".into(), "github-copilot".into()],
        };
        assert!(e.to_string().contains("nope"));
        assert!(e.to_string().contains("anthropic, github-copilot"));
    }
}
