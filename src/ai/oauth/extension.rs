//! Subscription logins that extensions provide (`pi.registerProvider(name, {oauth = ...})`).
//!
//! The extension host installs one [`ExtensionOAuth`]; `/login` lists its providers next
//! to the built-in ones, and logging in, refreshing and the key a request sends go through
//! it. Credentials are stored in `auth.json` like every other login.

use std::sync::{Arc, RwLock};

use async_trait::async_trait;
use serde_json::{Map, Value};

use super::OAuthError;
use super::login::LoginUi;
use crate::ai::auth::OAuthCredential;

/// The key of a credential's extra field holding the key requests send (what the
/// extension's `getApiKey` returned when the credential was made).
pub const API_KEY_FIELD: &str = "apiKey";

/// Logins provided by extensions.
#[async_trait]
pub trait ExtensionOAuth: Send + Sync {
    /// `(provider id, display name)` of every provider with a login.
    fn providers(&self) -> Vec<(String, String)>;
    /// Run the login of `provider`, asking the user through `ui`.
    async fn login(&self, provider: &str, ui: &dyn LoginUi) -> Result<OAuthCredential, OAuthError>;
    /// Fresh tokens for an expired `credential`.
    async fn refresh(
        &self,
        provider: &str,
        credential: &OAuthCredential,
    ) -> Result<OAuthCredential, OAuthError>;
}

static HOOK: RwLock<Option<Arc<dyn ExtensionOAuth>>> = RwLock::new(None);

/// Install (or, with `None`, remove) the extensions' logins.
pub fn install(hook: Option<Arc<dyn ExtensionOAuth>>) {
    match HOOK.write() {
        Ok(mut slot) => *slot = hook,
        Err(poisoned) => *poisoned.into_inner() = hook,
    }
}

/// The installed logins, if any.
pub fn installed() -> Option<Arc<dyn ExtensionOAuth>> {
    match HOOK.read() {
        Ok(slot) => slot.clone(),
        Err(poisoned) => poisoned.into_inner().clone(),
    }
}

/// The display name of an extension's login provider `id`.
pub fn provider_name(id: &str) -> Option<String> {
    installed()?
        .providers()
        .into_iter()
        .find(|(p, _)| p == id)
        .map(|(_, name)| name)
}

/// A credential from the table an extension returned: `access`, `refresh` and `expires`
/// (epoch milliseconds), every other field kept.
pub fn credential_from_json(value: Value) -> Result<OAuthCredential, OAuthError> {
    let Value::Object(mut map) = value else {
        return Err(OAuthError::ExtensionCredential { field: None });
    };
    let mut text = |key: &'static str| match map.remove(key) {
        Some(Value::String(s)) => Ok(s),
        _ => Err(OAuthError::ExtensionCredential { field: Some(key) }),
    };
    let access = text("access")?;
    let refresh = text("refresh")?;
    let expires = match map.remove("expires") {
        Some(Value::Number(n)) => n.as_f64().unwrap_or_default() as i64,
        _ => {
            return Err(OAuthError::ExtensionCredential {
                field: Some("expires"),
            });
        }
    };
    Ok(OAuthCredential {
        access,
        refresh,
        expires,
        extra: map,
    })
}

/// A credential as the table an extension receives.
pub fn credential_to_json(credential: &OAuthCredential) -> Value {
    let mut map: Map<String, Value> = credential.extra.clone();
    map.insert("access".into(), Value::String(credential.access.clone()));
    map.insert("refresh".into(), Value::String(credential.refresh.clone()));
    map.insert("expires".into(), Value::from(credential.expires));
    Value::Object(map)
}
