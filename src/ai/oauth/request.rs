//! Applying a subscription login to a request: a fresh access token as the
//! key, plus what each provider needs alongside it (the ChatGPT account
//! header for Codex, the token's API host for Copilot). Anthropic's
//! subscription tokens are recognised by the Anthropic protocol itself.

use std::collections::BTreeMap;

use serde_json::Value;

use super::copilot;
use super::manager::OAuthManager;
use super::openai_codex;
use crate::ai::auth::{AuthStorage, OAuthCredential};
use crate::ai::auth_error::RequestAuthError;
use crate::ai::model::Model;
use crate::ai::registry::ModelRegistry;

/// Credentials and overrides for one request.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResolvedAuth {
    /// API key or access token.
    pub api_key: Option<String>,
    /// Extra headers.
    pub headers: BTreeMap<String, String>,
    /// Replaces the model's base URL when set.
    pub base_url: Option<String>,
}

/// Resolve a request's credentials: a `--api-key` wins; otherwise a stored
/// OAuth login gives a fresh access token (refreshed if needed; a failed
/// refresh is an error, never a fall-back to an environment key); otherwise
/// the registry's usual lookup.
pub fn resolve_request_auth(
    registry: &ModelRegistry,
    auth: &AuthStorage,
    manager: &OAuthManager,
    model: &Model,
) -> Result<ResolvedAuth, RequestAuthError> {
    let provider = model.provider.as_str();
    if !auth.has_runtime_api_key(provider)
        && let Some(credential) = manager.credential_blocking(provider)?
    {
        let (api_key, mut headers) =
            registry.request_auth(model, auth, Some(&credential.access))?;
        let base_url = apply_provider_changes(provider, &credential, &mut headers);
        let api_key = provider_api_key(provider, &credential).or(api_key);
        return Ok(ResolvedAuth {
            api_key,
            headers,
            base_url,
        });
    }
    let (api_key, headers) = registry.request_auth(model, auth, None)?;
    Ok(ResolvedAuth {
        api_key,
        headers,
        base_url: None,
    })
}

/// The key a provider's protocol expects when it is not the bare access
/// token: Cloud Code Assist takes `{"token", "projectId"}` as JSON.
pub fn provider_api_key(provider: &str, credential: &OAuthCredential) -> Option<String> {
    if let Some(Value::String(key)) = credential.extra.get(super::extension::API_KEY_FIELD)
        && super::find_provider(provider).is_none()
    {
        return Some(key.clone());
    }
    matches!(provider, "google-gemini-cli" | "google-antigravity").then(|| {
        serde_json::json!({
            "token": credential.access,
            "projectId": credential.extra.get("projectId").cloned().unwrap_or(Value::Null),
        })
        .to_string()
    })
}

/// Add the provider's headers for an OAuth token; returns a base URL override.
pub fn apply_provider_changes(
    provider: &str,
    credential: &OAuthCredential,
    headers: &mut BTreeMap<String, String>,
) -> Option<String> {
    match provider {
        "openai-codex" => {
            let account = credential
                .extra
                .get("accountId")
                .and_then(Value::as_str)
                .map(str::to_string)
                .or_else(|| openai_codex::account_id(&credential.access));
            if let Some(account) = account {
                headers.insert("chatgpt-account-id".into(), account);
            }
            headers.insert("originator".into(), "pi".into());
            None
        }
        "github-copilot" => {
            let domain = credential
                .extra
                .get("enterpriseUrl")
                .and_then(Value::as_str)
                .and_then(copilot::normalize_domain);
            Some(copilot::base_url(&credential.access, domain.as_deref()))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Map, json};

    fn credential(access: &str, extra: Value) -> OAuthCredential {
        OAuthCredential {
            access: access.into(),
            refresh: "r".into(),
            expires: i64::MAX,
            extra: match extra {
                Value::Object(m) => m,
                _ => Map::new(),
            },
        }
    }

    #[test]
    fn codex_gets_account_header_and_copilot_its_host() {
        let mut headers = BTreeMap::new();
        let codex = credential("tok", json!({"accountId": "acct-1"}));
        assert_eq!(
            apply_provider_changes("openai-codex", &codex, &mut headers),
            None
        );
        assert_eq!(headers["chatgpt-account-id"], "acct-1");
        assert_eq!(headers["originator"], "pi");

        let copilot = credential(
            "tid=1;proxy-ep=proxy.enterprise.githubcopilot.com",
            json!({}),
        );
        assert_eq!(
            apply_provider_changes("github-copilot", &copilot, &mut BTreeMap::new()).as_deref(),
            Some("https://api.enterprise.githubcopilot.com")
        );
        assert_eq!(
            apply_provider_changes("anthropic", &copilot, &mut BTreeMap::new()),
            None
        );
    }
}
