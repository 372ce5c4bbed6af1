//! Google login the way Antigravity does it: the shared Google sign-in
//! ([`super::google`]) with Antigravity's client, scopes and callback on
//! `localhost:51121/oauth-callback`; then the account's email (optional) and
//! its Code Assist project from `loadCodeAssist` on the production endpoint,
//! then the sandbox one, falling back to Antigravity's shared project. The
//! project id and email are stored with the tokens (`projectId`, `email`).

use serde_json::{Value, json};

use super::google::{GoogleApp, project_id};
use super::google_gemini_cli::{CODE_ASSIST_URL, client_metadata};
use super::login::LoginUi;
use super::{Body, Endpoints, OAuthError, Step, send};
use crate::ai::auth::OAuthCredential;
use crate::t;

/// Antigravity's installed application.
pub const APP: GoogleApp = GoogleApp {
    provider: "google-antigravity",
    name: "Antigravity",
    client_id_b64: "MTA3MTAwNjA2MDU5MS10bWhzc2luMmgyMWxjcmUyMzV2dG9sb2poNGc0MDNlcC5hcHBzLmdvb2dsZXVzZXJjb250ZW50LmNvbQ==",
    client_secret_b64: "R09DU1BYLUs1OEZXUjQ4NkxkTEoxbUxCOHNYQzR6NnFEQWY=",
    callback_port: 51121,
    callback_path: "/oauth-callback",
    scopes: &[
        "https://www.googleapis.com/auth/cloud-platform",
        "https://www.googleapis.com/auth/userinfo.email",
        "https://www.googleapis.com/auth/userinfo.profile",
        "https://www.googleapis.com/auth/cclog",
        "https://www.googleapis.com/auth/experimentsandconfigs",
    ],
};
/// The sandbox Code Assist endpoint Antigravity streams from.
pub const SANDBOX_URL: &str = "https://daily-cloudcode-pa.sandbox.googleapis.com";
/// The second sandbox endpoint, tried when the first refuses a request.
pub const AUTOPUSH_URL: &str = "https://autopush-cloudcode-pa.sandbox.googleapis.com";
/// Where the account's email is read.
pub const USERINFO_URL: &str = "https://www.googleapis.com/oauth2/v1/userinfo?alt=json";
/// Project used when the account has none of its own.
pub const DEFAULT_PROJECT: &str = "rising-fact-p41fc";
/// Environment variable overriding the Antigravity version in the User-Agent.
pub const VERSION_ENV: &str = "PI_AI_ANTIGRAVITY_VERSION";
/// Antigravity version sent when `PI_AI_ANTIGRAVITY_VERSION` is unset.
pub const DEFAULT_VERSION: &str = "1.18.4";

/// The OAuth client id.
pub fn client_id() -> String {
    APP.client_id()
}

/// The User-Agent of streaming requests (`antigravity/<version> darwin/arm64`).
pub fn user_agent() -> String {
    let version = std::env::var(VERSION_ENV)
        .ok()
        .filter(|v| !v.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_VERSION.to_string());
    format!("antigravity/{} darwin/arm64", version.trim())
}

/// Headers of streaming requests.
pub fn request_headers(access_token: &str) -> Vec<(&'static str, String)> {
    vec![
        ("authorization", format!("Bearer {access_token}")),
        ("user-agent", user_agent()),
    ]
}

/// Log in: sign in with Google, read the email, find the project.
pub async fn login(endpoints: &Endpoints, ui: &dyn LoginUi) -> Result<OAuthCredential, OAuthError> {
    let mut credential = APP.sign_in(endpoints, ui).await?;
    ui.progress(&t!("pi.oauth.getting_user_info"));
    if let Some(email) = user_email(endpoints, &credential.access).await {
        credential.extra.insert("email".into(), email.into());
    }
    let project = discover_project(endpoints, &credential.access, ui).await;
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

async fn user_email(endpoints: &Endpoints, access_token: &str) -> Option<String> {
    let auth = format!("Bearer {access_token}");
    let url = endpoints.url(USERINFO_URL);
    let headers = [("authorization", auth.as_str())];
    let info = send(
        reqwest::Method::GET,
        &url,
        &headers,
        Body::None,
        Step::UserInfo,
    )
    .await
    .ok()?;
    info["email"].as_str().map(str::to_string)
}

/// The account's Code Assist project: production first, then the sandbox,
/// else [`DEFAULT_PROJECT`]. Failures only move on to the next place.
pub async fn discover_project(
    endpoints: &Endpoints,
    access_token: &str,
    ui: &dyn LoginUi,
) -> String {
    let auth = format!("Bearer {access_token}");
    let metadata = client_metadata(None);
    let metadata_header = metadata.to_string();
    let headers = [
        ("authorization", auth.as_str()),
        ("user-agent", "google-api-nodejs-client/9.15.1"),
        (
            "x-goog-api-client",
            "google-cloud-sdk vscode_cloudshelleditor/0.1",
        ),
        ("client-metadata", metadata_header.as_str()),
    ];
    let body: Value = json!({ "metadata": metadata });
    ui.progress(&t!("pi.oauth.checking_project"));
    for base in [CODE_ASSIST_URL, SANDBOX_URL] {
        let url = endpoints.url(&format!("{base}/v1internal:loadCodeAssist"));
        let what = Step::ProjectLookup;
        if let Ok(loaded) = send(
            reqwest::Method::POST,
            &url,
            &headers,
            Body::Json(&body),
            what,
        )
        .await
            && let Some(project) = project_id(&loaded["cloudaicompanionProject"])
        {
            return project;
        }
    }
    ui.progress(&t!("pi.oauth.using_default_project"));
    DEFAULT_PROJECT.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_is_the_public_antigravity_application() {
        assert!(client_id().ends_with(".apps.googleusercontent.com"));
        assert_ne!(client_id(), super::super::google_gemini_cli::client_id());
        assert!(APP.scopes.iter().any(|s| s.ends_with("/cclog")));
    }
}
