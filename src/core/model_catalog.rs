//! The models a running pi can use: the registry (built-in catalog, `models.json`, providers
//! that extensions register) with the stored credentials, shared by the agent loop, the
//! front ends and the extension host, so that `/reload` and `/login` change one list.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock};

use crate::agent::agent_loop::{AuthResolver, RequestAuth};
use crate::ai::auth::AuthStorage;
use crate::ai::model::Model;
use crate::ai::oauth::manager::OAuthManager;
use crate::ai::providers::demo::is_demo;
use crate::ai::registry::ModelRegistry;
use crate::sync::LockExt;

/// The registry and credentials of this process.
pub struct ModelCatalog {
    registry: RwLock<ModelRegistry>,
    auth: Mutex<AuthStorage>,
    agent_dir: PathBuf,
    /// Providers registered by extensions, kept across a reload of `models.json`.
    extension_providers: Mutex<Vec<(String, serde_json::Value)>>,
}

impl ModelCatalog {
    /// Share `registry` and `auth` (read from `agent_dir`).
    pub fn new(registry: ModelRegistry, auth: AuthStorage, agent_dir: PathBuf) -> Arc<Self> {
        Arc::new(ModelCatalog {
            registry: RwLock::new(registry),
            auth: Mutex::new(auth),
            agent_dir,
            extension_providers: Mutex::new(Vec::new()),
        })
    }

    /// Models that have credentials, in the registry's order.
    pub fn available(&self) -> Vec<Model> {
        let auth = self.auth.locked();
        match self.registry.read() {
            Ok(registry) => registry.available(&auth),
            Err(poisoned) => poisoned.into_inner().available(&auth),
        }
    }

    /// Replace the providers extensions registered (after a load or `/reload`); returns a
    /// warning for each one that could not be read.
    pub fn set_extension_providers(
        &self,
        providers: &[(String, serde_json::Value)],
    ) -> Vec<String> {
        *self.extension_providers.locked() = providers.to_vec();
        match self.registry.write() {
            Ok(mut registry) => registry.set_extension_providers(providers),
            Err(poisoned) => poisoned.into_inner().set_extension_providers(providers),
        }
    }

    /// Read `models.json` and the stored credentials again (after `/login`), keeping the
    /// providers extensions registered.
    pub fn reload_from_disk(&self) {
        let (mut registry, _) = ModelRegistry::load(&self.agent_dir);
        registry.set_extension_providers(&self.extension_providers.locked());
        let (auth, _) = AuthStorage::load(&self.agent_dir);
        *self.auth.locked() = auth;
        match self.registry.write() {
            Ok(mut current) => *current = registry,
            Err(poisoned) => *poisoned.into_inner() = registry,
        }
    }

    /// Store a key given on the command line for this run only.
    pub fn set_runtime_api_key(&self, provider: &str, key: &str) {
        self.auth.locked().set_runtime_api_key(provider, key);
    }

    /// The credentials of each request, read fresh: `/login` may store a key while pi runs.
    pub fn auth_resolver(self: &Arc<Self>) -> AuthResolver {
        let catalog = Arc::clone(self);
        let oauth = OAuthManager::shared(&self.agent_dir);
        Arc::new(move |m: &Model| {
            if is_demo(m) {
                return Ok(RequestAuth::default());
            }
            let mut auth = catalog.auth.locked();
            auth.reload_stored();
            let registry = match catalog.registry.read() {
                Ok(registry) => registry,
                Err(poisoned) => poisoned.into_inner(),
            };
            let resolved =
                crate::ai::oauth::request::resolve_request_auth(&registry, &auth, &oauth, m)?;
            Ok(RequestAuth {
                api_key: resolved.api_key,
                headers: resolved.headers,
                base_url: resolved.base_url,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn provider(model: &str) -> (String, serde_json::Value) {
        (
            "lua-prov".to_string(),
            json!({
                "baseUrl": "http://127.0.0.1:9/v1", "api": "openai-completions", "apiKey": "k",
                "models": [{"id": model, "name": model}]
            }),
        )
    }

    fn ids(catalog: &ModelCatalog) -> Vec<String> {
        catalog
            .available()
            .into_iter()
            .filter(|m| m.provider == "lua-prov")
            .map(|m| m.id)
            .collect()
    }

    #[test]
    fn extension_providers_come_and_go_and_survive_a_reload_from_disk() {
        let dir = tempfile::tempdir().unwrap();
        let (registry, _) = ModelRegistry::load(dir.path());
        let (auth, _) = AuthStorage::load(dir.path());
        let catalog = ModelCatalog::new(registry, auth, dir.path().to_path_buf());
        assert!(ids(&catalog).is_empty());
        assert!(
            catalog
                .set_extension_providers(&[provider("m1")])
                .is_empty()
        );
        assert_eq!(ids(&catalog), ["m1"]);
        catalog.reload_from_disk();
        assert_eq!(ids(&catalog), ["m1"], "a reload from disk keeps them");
        catalog.set_extension_providers(&[]);
        assert!(ids(&catalog).is_empty(), "an unregistered provider is gone");
    }
}
