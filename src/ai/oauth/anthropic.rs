//! Claude Pro/Max login: authorization code with PKCE, a callback on
//! `localhost:53692/callback` or a pasted code, JSON token requests.

use crate::t;
use serde_json::{Map, json};

use super::login::{LoginUi, start_callback, wait_for_code};
use super::pkce::{Pkce, random_state};
use super::{
    Body, Endpoints, OAuthError, Step, expiry_from_now, required_number, required_str, send,
};
use crate::ai::auth::OAuthCredential;

/// Public client id of the Claude Code application.
pub const CLIENT_ID: &str = "9d1c250a-e61b-44d9-88ed-5944d1962f5e";
/// Authorization page.
pub const AUTHORIZE_URL: &str = "https://claude.ai/oauth/authorize";
/// Token endpoint.
pub const TOKEN_URL: &str = "https://platform.claude.com/v1/oauth/token";
/// Local callback port.
pub const CALLBACK_PORT: u16 = 53692;
/// Local callback path.
pub const CALLBACK_PATH: &str = "/callback";
/// Scopes requested.
pub const SCOPES: &str = "org:create_api_key user:profile user:inference user:sessions:claude_code user:mcp_servers user:file_upload";
const NAME: &str = "Anthropic";

/// The redirect URI for a callback port.
pub fn redirect_uri(port: u16) -> String {
    format!("http://localhost:{port}{CALLBACK_PATH}")
}

/// The authorization page URL.
pub fn authorize_url(endpoints: &Endpoints, pkce: &Pkce, state: &str, redirect: &str) -> String {
    // The endpoint is a constant (or a test's local server); one that does not parse is
    // shown as it is.
    let Ok(mut url) = url::Url::parse(&endpoints.url(AUTHORIZE_URL)) else {
        return endpoints.url(AUTHORIZE_URL);
    };
    url.query_pairs_mut()
        .append_pair("code", "true")
        .append_pair("client_id", CLIENT_ID)
        .append_pair("response_type", "code")
        .append_pair("redirect_uri", redirect)
        .append_pair("scope", SCOPES)
        .append_pair("code_challenge", &pkce.challenge)
        .append_pair("code_challenge_method", "S256")
        .append_pair("state", state);
    url.into()
}

/// Log in: show the authorization URL, wait for the code, exchange it.
pub async fn login(endpoints: &Endpoints, ui: &dyn LoginUi) -> Result<OAuthCredential, OAuthError> {
    let pkce = Pkce::generate()?;
    let state = random_state()?;
    let server = start_callback(endpoints, CALLBACK_PORT, CALLBACK_PATH, &state, NAME, ui).await;
    let port = server
        .as_ref()
        .map_or(endpoints.callback_port(CALLBACK_PORT), |s| s.port());
    let redirect = redirect_uri(port);
    ui.show_auth(
        &authorize_url(endpoints, &pkce, &state, &redirect),
        &t!("pi.oauth.anthropic_instructions"),
    );
    let code = wait_for_code(server, &state, ui).await?;
    ui.progress(&t!("pi.oauth.exchanging_code"));
    exchange_code(endpoints, &code, &state, &pkce.verifier, &redirect).await
}

/// Exchange an authorization code for tokens.
pub async fn exchange_code(
    endpoints: &Endpoints,
    code: &str,
    state: &str,
    verifier: &str,
    redirect: &str,
) -> Result<OAuthCredential, OAuthError> {
    let body = json!({
        "grant_type": "authorization_code",
        "client_id": CLIENT_ID,
        "code": code,
        "state": state,
        "redirect_uri": redirect,
        "code_verifier": verifier,
    });
    let what = Step::TokenExchange(NAME);
    let answer = send(
        reqwest::Method::POST,
        &endpoints.url(TOKEN_URL),
        &[],
        Body::Json(&body),
        what,
    )
    .await?;
    tokens(&answer, what)
}

/// Get new tokens with a refresh token.
pub async fn refresh(
    endpoints: &Endpoints,
    refresh_token: &str,
) -> Result<OAuthCredential, OAuthError> {
    let body = json!({
        "grant_type": "refresh_token",
        "client_id": CLIENT_ID,
        "refresh_token": refresh_token,
    });
    let what = Step::TokenRefresh(NAME);
    let answer = send(
        reqwest::Method::POST,
        &endpoints.url(TOKEN_URL),
        &[],
        Body::Json(&body),
        what,
    )
    .await?;
    tokens(&answer, what)
}

fn tokens(answer: &serde_json::Value, what: Step) -> Result<OAuthCredential, OAuthError> {
    Ok(OAuthCredential {
        access: required_str(answer, "access_token", what)?,
        refresh: required_str(answer, "refresh_token", what)?,
        expires: expiry_from_now(required_number(answer, "expires_in", what)?),
        extra: Map::new(),
    })
}
