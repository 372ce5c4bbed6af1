//! ChatGPT Plus/Pro (Codex) login: authorization code with PKCE, a callback
//! on `localhost:1455/auth/callback` or a pasted code, form-encoded token
//! requests; the ChatGPT account id comes from the access token's claims.

use crate::t;
use base64::Engine;
use base64::engine::general_purpose::{URL_SAFE, URL_SAFE_NO_PAD};
use serde_json::{Map, Value};

use super::login::{LoginUi, start_callback, wait_for_code};
use super::pkce::{Pkce, random_state};
use super::{
    Body, Endpoints, OAuthError, Step, expiry_from_now, required_number, required_str, send,
};
use crate::ai::auth::OAuthCredential;

/// Public client id of the Codex CLI application.
pub const CLIENT_ID: &str = "app_EMoamEEZ73f0CkXaXp7hrann";
/// Authorization page.
pub const AUTHORIZE_URL: &str = "https://auth.openai.com/oauth/authorize";
/// Token endpoint.
pub const TOKEN_URL: &str = "https://auth.openai.com/oauth/token";
/// Local callback port.
pub const CALLBACK_PORT: u16 = 1455;
/// Local callback path.
pub const CALLBACK_PATH: &str = "/auth/callback";
/// Scopes requested.
pub const SCOPE: &str = "openid profile email offline_access";
/// The access-token claim holding ChatGPT account details.
const AUTH_CLAIM: &str = "https://api.openai.com/auth";
const NAME: &str = "OpenAI";

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
        .append_pair("response_type", "code")
        .append_pair("client_id", CLIENT_ID)
        .append_pair("redirect_uri", redirect)
        .append_pair("scope", SCOPE)
        .append_pair("code_challenge", &pkce.challenge)
        .append_pair("code_challenge_method", "S256")
        .append_pair("state", state)
        .append_pair("id_token_add_organizations", "true")
        .append_pair("codex_cli_simplified_flow", "true")
        .append_pair("originator", "pi");
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
        &t!("pi.oauth.browser_instructions"),
    );
    let code = wait_for_code(server, &state, ui).await?;
    ui.progress(&t!("pi.oauth.exchanging_code"));
    exchange_code(endpoints, &code, &pkce.verifier, &redirect).await
}

/// Exchange an authorization code for tokens.
pub async fn exchange_code(
    endpoints: &Endpoints,
    code: &str,
    verifier: &str,
    redirect: &str,
) -> Result<OAuthCredential, OAuthError> {
    let form = [
        ("grant_type", "authorization_code"),
        ("client_id", CLIENT_ID),
        ("code", code),
        ("code_verifier", verifier),
        ("redirect_uri", redirect),
    ];
    token_request(endpoints, &form, Step::TokenExchange("OpenAI Codex")).await
}

/// Get new tokens with a refresh token.
pub async fn refresh(
    endpoints: &Endpoints,
    refresh_token: &str,
) -> Result<OAuthCredential, OAuthError> {
    let form = [
        ("grant_type", "refresh_token"),
        ("refresh_token", refresh_token),
        ("client_id", CLIENT_ID),
    ];
    token_request(endpoints, &form, Step::TokenRefresh("OpenAI Codex")).await
}

async fn token_request(
    endpoints: &Endpoints,
    form: &[(&str, &str)],
    what: Step,
) -> Result<OAuthCredential, OAuthError> {
    let url = endpoints.url(TOKEN_URL);
    let answer = send(reqwest::Method::POST, &url, &[], Body::Form(form), what).await?;
    let access = required_str(&answer, "access_token", what)?;
    let account_id = account_id(&access).ok_or(OAuthError::NoAccountId)?;
    let mut extra = Map::new();
    extra.insert("accountId".into(), account_id.into());
    Ok(OAuthCredential {
        refresh: required_str(&answer, "refresh_token", what)?,
        expires: expiry_from_now(required_number(&answer, "expires_in", what)?),
        access,
        extra,
    })
}

/// The ChatGPT account id inside an access token (a JWT).
pub fn account_id(access_token: &str) -> Option<String> {
    let mut parts = access_token.split('.');
    let (_header, payload, _signature) = (parts.next()?, parts.next()?, parts.next()?);
    let bytes = URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .or_else(|_| URL_SAFE.decode(payload))
        .ok()?;
    let claims: Value = serde_json::from_slice(&bytes).ok()?;
    claims
        .get(AUTH_CLAIM)?
        .get("chatgpt_account_id")?
        .as_str()
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_id_from_jwt_claims() {
        let payload = URL_SAFE_NO_PAD
            .encode(r#"{"https://api.openai.com/auth":{"chatgpt_account_id":"acct-7"}}"#);
        assert_eq!(
            account_id(&format!("h.{payload}.s")).as_deref(),
            Some("acct-7")
        );
        assert_eq!(account_id("not-a-jwt"), None);
        let other = URL_SAFE_NO_PAD.encode(r#"{"sub":"x"}"#);
        assert_eq!(account_id(&format!("h.{other}.s")), None);
    }
}
