//! Google login the way Gemini CLI does it (Google Cloud Code Assist):
//! authorization code with PKCE and a callback on
//! `localhost:8085/oauth2callback` (or a pasted redirect URL), form-encoded
//! token requests with the application's public client secret, then the
//! user's Code Assist project: `loadCodeAssist`, and for new users
//! `onboardUser` (a long-running operation polled until done). The project
//! id is stored with the tokens as `projectId`.

use std::time::Duration;

use serde_json::{Value, json};

use super::google::{GoogleApp, project_id};
use super::login::LoginUi;
use super::{Body, Endpoints, OAuthError, Step, send};
use crate::ai::auth::OAuthCredential;
use crate::t;

pub use super::google::{AUTHORIZE_URL, TOKEN_URL};

/// The Cloud Code Assist API.
pub const CODE_ASSIST_URL: &str = "https://cloudcode-pa.googleapis.com";
/// Gemini CLI's installed application.
pub const APP: GoogleApp = GoogleApp {
    provider: "google-gemini-cli",
    name: "Google",
    client_id_b64: "NjgxMjU1ODA5Mzk1LW9vOGZ0Mm9wcmRybnA5ZTNhcWY2YXYzaG1kaWIxMzVqLmFwcHMuZ29vZ2xldXNlcmNvbnRlbnQuY29t",
    client_secret_b64: "R09DU1BYLTR1SGdNUG0tMW83U2stZ2VWNkN1NWNsWEZzeGw=",
    callback_port: 8085,
    callback_path: "/oauth2callback",
    scopes: &[
        "https://www.googleapis.com/auth/cloud-platform",
        "https://www.googleapis.com/auth/userinfo.email",
        "https://www.googleapis.com/auth/userinfo.profile",
    ],
};
/// Tier that Google provisions a project for by itself.
const FREE_TIER: &str = "free-tier";
/// Tier assumed when the account lists none as default.
const LEGACY_TIER: &str = "legacy-tier";
/// Pause between polls of a provisioning operation.
const POLL_INTERVAL: Duration = Duration::from_secs(5);
/// Polls before giving up on provisioning.
const MAX_POLLS: u32 = 24;

/// The OAuth client id.
pub fn client_id() -> String {
    APP.client_id()
}

/// The project the user named in `GOOGLE_CLOUD_PROJECT`/`GOOGLE_CLOUD_PROJECT_ID`.
pub fn env_project() -> Option<String> {
    ["GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_PROJECT_ID"]
        .iter()
        .find_map(|v| std::env::var(v).ok())
        .filter(|p| !p.trim().is_empty())
}

/// Log in: sign in with Google, then find (or provision) the Code Assist project.
pub async fn login(endpoints: &Endpoints, ui: &dyn LoginUi) -> Result<OAuthCredential, OAuthError> {
    let mut credential = APP.sign_in(endpoints, ui).await?;
    let project = discover_project(endpoints, &credential.access, env_project(), ui).await?;
    credential.extra.insert("projectId".into(), project.into());
    Ok(credential)
}

/// Get a new access token; the refresh token and project are kept.
pub async fn refresh(
    endpoints: &Endpoints,
    refresh_token: &str,
) -> Result<OAuthCredential, OAuthError> {
    APP.refresh(endpoints, refresh_token).await
}

/// Headers of Code Assist requests.
pub fn code_assist_headers(access_token: &str) -> Vec<(&'static str, String)> {
    vec![
        ("authorization", format!("Bearer {access_token}")),
        (
            "user-agent",
            "google-cloud-sdk vscode_cloudshelleditor/0.1".into(),
        ),
        ("x-goog-api-client", "gl-node/22.17.0".into()),
        ("client-metadata", client_metadata(None).to_string()),
    ]
}

/// The `Client-Metadata` Code Assist expects, naming `project` when given.
pub(crate) fn client_metadata(project: Option<&str>) -> Value {
    let mut m = json!({"ideType": "IDE_UNSPECIFIED", "platform": "PLATFORM_UNSPECIFIED",
                       "pluginType": "GEMINI"});
    if let Some(p) = project {
        m["duetProject"] = json!(p);
    }
    m
}

/// Find the user's Code Assist project, provisioning one for new free-tier
/// users; `env_project` is the project the user named, if any.
pub async fn discover_project(
    endpoints: &Endpoints,
    access_token: &str,
    env_project: Option<String>,
    ui: &dyn LoginUi,
) -> Result<String, OAuthError> {
    let headers = code_assist_headers(access_token);
    let headers: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
    ui.progress(&t!("pi.oauth.checking_project"));
    let mut load_body = json!({"metadata": client_metadata(env_project.as_deref())});
    if let Some(p) = &env_project {
        load_body["cloudaicompanionProject"] = json!(p);
    }
    let url = endpoints.url(&format!("{CODE_ASSIST_URL}/v1internal:loadCodeAssist"));
    let what = Step::ProjectLookup;
    let loaded = match send(
        reqwest::Method::POST,
        &url,
        &headers,
        Body::Json(&load_body),
        what,
    )
    .await
    {
        Ok(v) => v,
        // Accounts behind a VPC Service Controls perimeter are standard-tier users.
        Err(e) if e.body_contains("SECURITY_POLICY_VIOLATED") => {
            json!({"currentTier": {"id": "standard-tier"}})
        }
        Err(e) => return Err(e),
    };
    if loaded["currentTier"].is_object() {
        return project_id(&loaded["cloudaicompanionProject"])
            .or(env_project)
            .ok_or(OAuthError::NeedsCloudProject { tier: None });
    }
    let tier = loaded["allowedTiers"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|t| t["isDefault"] == true)
        .and_then(|t| t["id"].as_str())
        .unwrap_or(LEGACY_TIER)
        .to_string();
    if tier != FREE_TIER && env_project.is_none() {
        return Err(OAuthError::NeedsCloudProject { tier: Some(tier) });
    }
    ui.progress(&t!("pi.oauth.provisioning_project"));
    let mut onboard = json!({"tierId": tier, "metadata": client_metadata(None)});
    if tier != FREE_TIER
        && let Some(p) = &env_project
    {
        onboard["cloudaicompanionProject"] = json!(p);
        onboard["metadata"] = client_metadata(Some(p));
    }
    let url = endpoints.url(&format!("{CODE_ASSIST_URL}/v1internal:onboardUser"));
    let what = Step::Onboarding;
    let mut operation = send(
        reqwest::Method::POST,
        &url,
        &headers,
        Body::Json(&onboard),
        what,
    )
    .await?;
    let mut polls = 0;
    while operation["done"] != true {
        let Some(name) = operation["name"].as_str().map(str::to_string) else {
            break;
        };
        if polls >= MAX_POLLS {
            return Err(OAuthError::OnboardingUnfinished);
        }
        if polls > 0 {
            tokio::time::sleep(POLL_INTERVAL).await;
        }
        polls += 1;
        let url = endpoints.url(&format!("{CODE_ASSIST_URL}/v1internal/{name}"));
        operation = send(reqwest::Method::GET, &url, &headers, Body::None, what).await?;
    }
    project_id(&operation["response"]["cloudaicompanionProject"])
        .or(env_project)
        .ok_or(OAuthError::NeedsCloudProject { tier: None })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_is_the_public_gemini_cli_application() {
        assert!(client_id().ends_with(".apps.googleusercontent.com"));
        assert!(
            String::from_utf8(
                base64::Engine::decode(
                    &base64::engine::general_purpose::STANDARD,
                    APP.client_secret_b64
                )
                .unwrap()
            )
            .unwrap()
            .starts_with("GOCSPX-")
        );
    }
}
