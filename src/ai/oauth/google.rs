//! The Google sign-in both Cloud Code Assist logins share (Gemini CLI and
//! Antigravity): authorization code with PKCE and a local callback (or a
//! pasted redirect URL), then form-encoded token requests carrying the
//! application's public client secret. Each login is one [`GoogleApp`]:
//! its client, scopes and callback address.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::Map;

use super::login::{LoginUi, start_callback, wait_for_code};
use super::pkce::{Pkce, random_state};
use super::{
    Body, Endpoints, OAuthError, Step, expiry_from_now, required_number, required_str, send,
};
use crate::ai::auth::OAuthCredential;
use crate::t;

/// Authorization page.
pub const AUTHORIZE_URL: &str = "https://accounts.google.com/o/oauth2/v2/auth";
/// Token endpoint.
pub const TOKEN_URL: &str = "https://oauth2.googleapis.com/token";

/// One Google installed application pi signs in as.
#[derive(Debug, Clone, Copy)]
pub struct GoogleApp {
    /// Provider id the login is stored under.
    pub provider: &'static str,
    /// Name shown on the callback page.
    pub name: &'static str,
    /// Client id, base64 (public; encoded to keep secret scanners quiet).
    pub client_id_b64: &'static str,
    /// Client secret, base64 (public for installed applications).
    pub client_secret_b64: &'static str,
    /// Local callback port.
    pub callback_port: u16,
    /// Local callback path.
    pub callback_path: &'static str,
    /// Scopes requested.
    pub scopes: &'static [&'static str],
}

fn decoded(b64: &str) -> String {
    String::from_utf8(STANDARD.decode(b64).unwrap_or_default()).unwrap_or_default()
}

impl GoogleApp {
    /// The OAuth client id.
    pub fn client_id(&self) -> String {
        decoded(self.client_id_b64)
    }

    fn client_secret(&self) -> String {
        decoded(self.client_secret_b64)
    }

    /// The redirect URI for a callback port.
    pub fn redirect_uri(&self, port: u16) -> String {
        format!("http://localhost:{port}{}", self.callback_path)
    }

    /// The authorization page URL (offline access, consent prompt for a refresh token).
    pub fn authorize_url(
        &self,
        endpoints: &Endpoints,
        pkce: &Pkce,
        state: &str,
        redirect: &str,
    ) -> String {
        // The endpoint is a constant (or a test's local server); one that does not parse is
        // shown as it is.
        let Ok(mut url) = url::Url::parse(&endpoints.url(AUTHORIZE_URL)) else {
            return endpoints.url(AUTHORIZE_URL);
        };
        url.query_pairs_mut()
            .append_pair("client_id", &self.client_id())
            .append_pair("response_type", "code")
            .append_pair("redirect_uri", redirect)
            .append_pair("scope", &self.scopes.join(" "))
            .append_pair("code_challenge", &pkce.challenge)
            .append_pair("code_challenge_method", "S256")
            .append_pair("state", state)
            .append_pair("access_type", "offline")
            .append_pair("prompt", "consent");
        url.into()
    }

    /// Show the authorization URL, wait for the code and exchange it for tokens.
    pub async fn sign_in(
        &self,
        endpoints: &Endpoints,
        ui: &dyn LoginUi,
    ) -> Result<OAuthCredential, OAuthError> {
        let pkce = Pkce::generate()?;
        let state = random_state()?;
        let (port, path) = (self.callback_port, self.callback_path);
        let server = start_callback(endpoints, port, path, &state, self.name, ui).await;
        let port = server
            .as_ref()
            .map_or(endpoints.callback_port(port), |s| s.port());
        let redirect = self.redirect_uri(port);
        ui.show_auth(
            &self.authorize_url(endpoints, &pkce, &state, &redirect),
            &t!("pi.oauth.google_instructions"),
        );
        let code = wait_for_code(server, &state, ui).await?;
        ui.progress(&t!("pi.oauth.exchanging_code"));
        let form = [
            ("client_id", self.client_id()),
            ("client_secret", self.client_secret()),
            ("code", code),
            ("grant_type", "authorization_code".into()),
            ("redirect_uri", redirect),
            ("code_verifier", pkce.verifier.clone()),
        ];
        self.token_request(endpoints, &form, None, Step::TokenExchange("Google"))
            .await
    }

    /// Get a new access token; the refresh token is kept unless Google sends a new one.
    pub async fn refresh(
        &self,
        endpoints: &Endpoints,
        refresh_token: &str,
    ) -> Result<OAuthCredential, OAuthError> {
        let form = [
            ("client_id", self.client_id()),
            ("client_secret", self.client_secret()),
            ("refresh_token", refresh_token.to_string()),
            ("grant_type", "refresh_token".into()),
        ];
        let what = Step::TokenRefresh("Google");
        self.token_request(endpoints, &form, Some(refresh_token), what)
            .await
    }

    async fn token_request(
        &self,
        endpoints: &Endpoints,
        form: &[(&str, String)],
        previous_refresh: Option<&str>,
        what: Step,
    ) -> Result<OAuthCredential, OAuthError> {
        let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let url = endpoints.url(TOKEN_URL);
        let answer = send(reqwest::Method::POST, &url, &[], Body::Form(&pairs), what).await?;
        let refresh = match (answer["refresh_token"].as_str(), previous_refresh) {
            (Some(r), _) if !r.is_empty() => r.to_string(),
            (_, Some(previous)) => previous.to_string(),
            _ => {
                return Err(OAuthError::NoRefreshToken {
                    provider: self.provider.to_string(),
                });
            }
        };
        Ok(OAuthCredential {
            access: required_str(&answer, "access_token", what)?,
            refresh,
            expires: expiry_from_now(required_number(&answer, "expires_in", what)?),
            extra: Map::new(),
        })
    }
}

/// A project id in either of the shapes Code Assist uses (`"id"` or `{"id"}`).
pub fn project_id(value: &serde_json::Value) -> Option<String> {
    value
        .as_str()
        .or_else(|| value["id"].as_str())
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn project_ids_in_both_shapes() {
        assert_eq!(project_id(&json!("p-1")).as_deref(), Some("p-1"));
        assert_eq!(project_id(&json!({"id": "p-2"})).as_deref(), Some("p-2"));
        assert_eq!(project_id(&json!({})), None);
    }
}
