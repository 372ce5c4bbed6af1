//! Running a login: the user-facing callbacks a flow needs, the race between
//! the browser callback and a pasted code, and storing or deleting the result.

use crate::t;
use std::path::Path;

use async_trait::async_trait;

use super::OAuthError;
use super::callback::CallbackServer;
use super::pkce::code_from_pasted;
use super::{
    Endpoints, anthropic, copilot, find_provider, google_antigravity, google_gemini_cli,
    openai_codex,
};
use crate::ai::auth::{AuthStorage, Credential, OAuthCredential};
use crate::ai::auth_error::AuthStoreError;

/// What a login flow shows to and asks of the user.
#[async_trait]
pub trait LoginUi: Send + Sync {
    /// Show the page to open and what to do there (e.g. a device code).
    fn show_auth(&self, url: &str, instructions: &str);
    /// Report progress.
    fn progress(&self, message: &str);
    /// Ask for one line of input; `Err` when the user cancelled.
    async fn prompt(&self, message: &str) -> Result<String, OAuthError>;
}

/// Log in to a subscription provider and return its tokens (not yet stored).
pub async fn login(
    provider: &str,
    endpoints: &Endpoints,
    ui: &dyn LoginUi,
) -> Result<OAuthCredential, OAuthError> {
    match provider {
        "anthropic" => anthropic::login(endpoints, ui).await,
        "openai-codex" => openai_codex::login(endpoints, ui).await,
        "github-copilot" => copilot::login(endpoints, ui).await,
        "google-gemini-cli" => google_gemini_cli::login(endpoints, ui).await,
        "google-antigravity" => google_antigravity::login(endpoints, ui).await,
        other => match super::extension::installed() {
            Some(hook) if super::extension::provider_name(other).is_some() => {
                hook.login(other, ui).await
            }
            _ => Err(unknown_provider(other)),
        },
    }
}

/// The error for a provider without subscription login, listing those with one.
pub fn unknown_provider(provider: &str) -> OAuthError {
    OAuthError::UnknownProvider {
        provider: provider.to_string(),
        choices: all_providers().into_iter().map(|(id, _)| id).collect(),
    }
}

/// Wait for the authorization code: from the callback server when it runs,
/// or from text the user pastes (a redirect URL, `code#state` or a bare
/// code), whichever comes first. A pasted state must match `state`.
pub async fn wait_for_code(
    server: Option<CallbackServer>,
    state: &str,
    ui: &dyn LoginUi,
) -> Result<String, OAuthError> {
    let ask = t!("pi.oauth.paste_code");
    let ask = ask.as_str();
    let Some(mut server) = server else {
        let pasted = ui.prompt(ask).await?;
        return code_from_pasted(&pasted, state);
    };
    tokio::select! {
        code = server.wait_for_code() => match code {
            Some(code) => Ok(code),
            None => code_from_pasted(&ui.prompt(ask).await?, state),
        },
        pasted = ui.prompt(ask) => code_from_pasted(&pasted?, state),
    }
}

/// Start the callback server on the provider's port, or report why the
/// paste fallback is used.
pub async fn start_callback(
    endpoints: &Endpoints,
    default_port: u16,
    path: &str,
    state: &str,
    provider_name: &str,
    ui: &dyn LoginUi,
) -> Option<CallbackServer> {
    let port = endpoints.callback_port(default_port);
    match CallbackServer::start(port, path, state, provider_name).await {
        Ok(server) => Some(server),
        Err(e) => {
            ui.progress(&t!(
                "pi.oauth.no_callback",
                port = port,
                error = e.to_string()
            ));
            None
        }
    }
}

/// Store a login's tokens in `<agent>/auth.json` (0600), under the refresh lock.
pub fn save_login(
    agent_dir: &Path,
    provider: &str,
    credential: OAuthCredential,
) -> Result<(), OAuthError> {
    let _lock = super::manager::lock_auth_file(agent_dir)?;
    let (mut auth, _) = AuthStorage::load(agent_dir);
    auth.set(provider, &Credential::OAuth(credential))?;
    super::manager::forget_everywhere(agent_dir, provider);
    Ok(())
}

/// Store an API key in `<agent>/auth.json` (0600) as `{"type": "api_key", "key": ...}`,
/// under the same lock as logins.
pub fn save_api_key(agent_dir: &Path, provider: &str, key: &str) -> Result<(), OAuthError> {
    let _lock = super::manager::lock_auth_file(agent_dir)?;
    let (mut auth, _) = AuthStorage::load(agent_dir);
    auth.set(
        provider,
        &Credential::ApiKey {
            key: key.to_string(),
        },
    )?;
    super::manager::forget_everywhere(agent_dir, provider);
    Ok(())
}

/// Delete a provider's stored credential; `Ok(false)` when there was none.
pub fn logout(agent_dir: &Path, provider: &str) -> Result<bool, OAuthError> {
    let _lock = super::manager::lock_auth_file(agent_dir)?;
    let (mut auth, warnings) = AuthStorage::load(agent_dir);
    if let Some(problem) = warnings.into_iter().next() {
        return Err(OAuthError::Store(AuthStoreError::NotSavedNow { problem }));
    }
    let had = auth.has(provider);
    if had {
        auth.remove(provider)?;
    }
    super::manager::forget_everywhere(agent_dir, provider);
    Ok(had)
}

/// Display name of a provider for messages.
pub fn provider_name(provider: &str) -> String {
    match find_provider(provider) {
        Some(p) => p.name.to_string(),
        None => super::extension::provider_name(provider).unwrap_or_else(|| provider.to_string()),
    }
}

/// `(id, display name)` of every provider `/login` offers: pi's own, then those of
/// extensions.
pub fn all_providers() -> Vec<(String, String)> {
    let mut all: Vec<(String, String)> = super::PROVIDERS
        .iter()
        .map(|p| (p.id.to_string(), p.name.to_string()))
        .collect();
    if let Some(hook) = super::extension::installed() {
        all.extend(hook.providers());
    }
    all
}
