//! The model registry: built-in models plus custom providers, models and
//! overrides from `<agent>/models.json`, and per-request auth resolution.

mod model_list;
pub mod models_json;
pub mod models_json_error;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use indexmap::IndexMap;

use crate::ai::auth::AuthStorage;
use crate::ai::auth_error::{RequestAuthError, ValueOf};
use crate::ai::catalog;
use crate::ai::local_models;
use crate::ai::model::{Model, ModelCost};
use crate::config::config_value::{Env, resolve_config_value_or_err};
use crate::config::paths;
use model_list::ModelList;
use models_json::{
    ModelOverride, ModelsConfig, ProviderConfig, input_names, load_models_config, merge_compat,
    token_count,
};

/// Auth settings of a provider from `models.json`, resolved per request.
#[derive(Debug, Clone, Default)]
struct ProviderRequestConfig {
    api_key: Option<String>,
    headers: Option<IndexMap<String, String>>,
    auth_header: bool,
}

/// All known models and how to authenticate requests to them.
#[derive(Debug, Clone)]
pub struct ModelRegistry {
    models: ModelList,
    request_configs: HashMap<String, ProviderRequestConfig>,
    model_headers: HashMap<(String, String), IndexMap<String, String>>,
    models_path: PathBuf,
    error: Option<String>,
    /// Local servers (provider, base URL, provider compat) to list models from.
    local_servers: Vec<local_models::LocalTarget>,
    /// Whether `models.json` (or an extension) configures Ollama or LM Studio.
    local_configured: bool,
    /// Models the local servers reported at the last discovery.
    local_models: Vec<Model>,
    /// Providers registered by extensions (`pi.registerProvider`), in the models.json
    /// provider format; they apply after models.json.
    extension_providers: Vec<(String, ProviderConfig)>,
    /// Keys of `models.json` the schema rejected at the last read.
    schema_warnings: Vec<String>,
}

impl ModelRegistry {
    /// Built-in models plus `<agent>/models.json`. A broken `models.json` is
    /// reported in the returned warnings (and by [`ModelRegistry::error`]);
    /// its custom models are then ignored while built-ins keep working.
    pub fn load(agent_dir: &Path) -> (ModelRegistry, Vec<String>) {
        ModelRegistry::load_from(&paths::models_path(agent_dir))
    }

    /// Like [`ModelRegistry::load`] with an explicit `models.json` path.
    pub fn load_from(models_path: &Path) -> (ModelRegistry, Vec<String>) {
        let mut registry = ModelRegistry {
            models: ModelList::default(),
            request_configs: HashMap::new(),
            model_headers: HashMap::new(),
            models_path: models_path.to_path_buf(),
            error: None,
            local_servers: Vec::new(),
            local_configured: false,
            local_models: Vec::new(),
            extension_providers: Vec::new(),
            schema_warnings: Vec::new(),
        };
        registry.reload();
        let warnings = registry
            .schema_warnings
            .iter()
            .chain(registry.error.iter())
            .cloned()
            .collect();
        (registry, warnings)
    }

    /// A registry holding exactly `models` (no built-ins, no `models.json`), for embedding
    /// pi's model resolution with a fixed catalogue.
    pub fn from_models(models: Vec<Model>) -> ModelRegistry {
        ModelRegistry {
            models: ModelList::new(false, IndexMap::new(), models),
            request_configs: HashMap::new(),
            model_headers: HashMap::new(),
            models_path: PathBuf::new(),
            error: None,
            local_servers: Vec::new(),
            local_models: Vec::new(),
            extension_providers: Vec::new(),
            schema_warnings: Vec::new(),
            local_configured: false,
        }
    }

    /// Re-read `models.json` (pi does this whenever the model list is shown).
    pub fn reload(&mut self) {
        self.request_configs.clear();
        self.model_headers.clear();
        self.error = None;
        self.schema_warnings.clear();
        let config = match load_models_config(&self.models_path) {
            Ok(config) => config,
            Err(e) => {
                self.error = Some(e.to_string());
                None
            }
        };
        let mut config = config.unwrap_or(ModelsConfig {
            providers: IndexMap::new(),
            warnings: Vec::new(),
        });
        self.schema_warnings = std::mem::take(&mut config.warnings);
        for (name, provider) in &self.extension_providers {
            config.providers.insert(name.clone(), provider.clone());
        }
        for (name, provider) in &config.providers {
            self.store_request_config(name, provider);
            for (id, o) in provider.model_overrides.iter().flatten() {
                self.store_model_headers(name, id, o.headers.as_ref());
            }
        }
        let custom = self.custom_models(&config);
        self.local_configured = local_models::LOCAL_SERVERS
            .iter()
            .any(|server| config.providers.contains_key(server.provider));
        self.local_servers = local_models::LOCAL_SERVERS
            .iter()
            .map(|server| {
                let p = config.providers.get(server.provider);
                let url = local_models::base_url(
                    server,
                    p.and_then(|p| p.base_url.as_deref()),
                    &Env::system(),
                );
                let compat = p
                    .and_then(|p| p.compat.clone())
                    .map(serde_json::Value::Object);
                (server.provider.to_string(), url, compat)
            })
            .collect();
        self.models = ModelList::new(true, config.providers, custom);
        self.merge_local_models();
    }

    /// Replace the providers extensions registered (name and the table given to
    /// `pi.registerProvider`, which has the shape of a models.json provider). Their
    /// models join the list like models.json ones; a provider no longer registered
    /// disappears. Returns a warning for each table that is not a valid provider.
    pub fn set_extension_providers(
        &mut self,
        providers: &[(String, serde_json::Value)],
    ) -> Vec<String> {
        if providers.is_empty() && self.extension_providers.is_empty() {
            return Vec::new();
        }
        let mut warnings = Vec::new();
        self.extension_providers = providers
            .iter()
            .filter_map(|(name, config)| {
                match serde_json::from_value::<ProviderConfig>(config.clone()) {
                    Ok(parsed) => Some((name.clone(), parsed)),
                    Err(e) => {
                        warnings.push(format!("registerProvider \"{name}\": {e}"));
                        None
                    }
                }
            })
            .collect();
        self.reload();
        warnings
    }

    /// Ask the local servers (Ollama, LM Studio) on this machine which models
    /// they serve, or take what this process already learned; they join the
    /// model list.
    pub async fn discover_local_models(&mut self) {
        local_models::remember_targets(self.local_servers.clone());
        self.local_models = local_models::discover_now().await;
        self.merge_local_models();
    }

    /// The local servers this registry would ask for models.
    pub fn local_targets(&self) -> Vec<local_models::LocalTarget> {
        self.local_servers.clone()
    }

    /// Add what a finished background discovery found; true when the model
    /// list changed.
    pub fn add_discovered_models(&mut self) -> bool {
        let found = local_models::discovered();
        if found.len() == self.local_models.len() {
            return false;
        }
        self.local_models = found;
        let before = self.models.added_len();
        self.merge_local_models();
        self.models.added_len() != before
    }

    /// Whether `models.json` or an extension configures Ollama or LM Studio.
    pub fn configures_local_provider(&self) -> bool {
        self.local_configured
    }

    /// Add discovered local models not already defined in `models.json`.
    fn merge_local_models(&mut self) {
        self.models.set_local(self.local_models.clone());
    }

    fn store_request_config(&mut self, provider: &str, config: &ProviderConfig) {
        let auth_header = config.auth_header.unwrap_or(false);
        if config.api_key.is_none() && config.headers.is_none() && !auth_header {
            return;
        }
        self.request_configs.insert(
            provider.to_string(),
            ProviderRequestConfig {
                api_key: config.api_key.clone(),
                headers: config.headers.clone(),
                auth_header,
            },
        );
    }

    fn store_model_headers(
        &mut self,
        provider: &str,
        id: &str,
        headers: Option<&IndexMap<String, String>>,
    ) {
        let key = (provider.to_string(), id.to_string());
        match headers.filter(|h| !h.is_empty()) {
            Some(h) => {
                self.model_headers.insert(key, h.clone());
            }
            None => {
                self.model_headers.remove(&key);
            }
        }
    }

    fn custom_models(&mut self, config: &ModelsConfig) -> Vec<Model> {
        let mut out = Vec::new();
        for (provider, p) in &config.providers {
            let defs = p.models.as_deref().unwrap_or_default();
            let builtin_defaults = catalog::builtin_models_for(provider).next();
            for def in defs {
                let Some(api) = def
                    .api
                    .clone()
                    .or_else(|| p.api.clone())
                    .or_else(|| builtin_defaults.map(|m| m.api.clone()))
                else {
                    continue;
                };
                let Some(base_url) = def
                    .base_url
                    .clone()
                    .or_else(|| p.base_url.clone())
                    .or_else(|| builtin_defaults.map(|m| m.base_url.clone()))
                else {
                    continue;
                };
                self.store_model_headers(provider, &def.id, def.headers.as_ref());
                let provider_compat = p.compat.clone().map(serde_json::Value::Object);
                out.push(Model {
                    id: def.id.clone(),
                    name: def.name.clone().unwrap_or_else(|| def.id.clone()),
                    api,
                    provider: provider.clone(),
                    base_url,
                    reasoning: def.reasoning.unwrap_or(false),
                    thinking_level_map: def.thinking_level_map.clone(),
                    input: def
                        .input
                        .as_deref()
                        .map(input_names)
                        .unwrap_or_else(|| vec!["text".to_string()]),
                    cost: def
                        .cost
                        .map(|c| ModelCost {
                            input: c.input,
                            output: c.output,
                            cache_read: c.cache_read,
                            cache_write: c.cache_write,
                        })
                        .unwrap_or_default(),
                    context_window: def.context_window.map_or(128_000, token_count),
                    max_tokens: def.max_tokens.map_or(16_384, token_count),
                    headers: None,
                    compat: merge_compat(provider_compat.as_ref(), def.compat.as_ref()),
                });
            }
        }
        out
    }

    /// Path of `models.json`.
    pub fn models_path(&self) -> &Path {
        &self.models_path
    }

    /// The `models.json` problem, if loading it failed.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Every model (built-ins, then custom additions). Reads the whole catalog:
    /// prefer [`ModelRegistry::find`] or [`ModelRegistry::provider_models`].
    pub fn all(&self) -> &[Model] {
        self.models.all()
    }

    /// Whether no model is known at all.
    pub fn is_empty(&self) -> bool {
        self.models.is_empty()
    }

    /// A model by exact provider and id.
    pub fn find(&self, provider: &str, id: &str) -> Option<&Model> {
        self.models.find(provider, id)
    }

    /// The models of one provider, in model order.
    pub fn provider_models<'a>(&'a self, provider: &'a str) -> impl Iterator<Item = &'a Model> {
        self.models.of_provider(provider)
    }

    /// Provider names in model order, without duplicates.
    pub fn providers(&self) -> Vec<String> {
        self.models.providers()
    }

    /// Whether a request to `model` could be authenticated (runtime key,
    /// `auth.json`, environment, or a `models.json` apiKey). Runs no commands.
    pub fn has_configured_auth(&self, model: &Model, auth: &AuthStorage) -> bool {
        self.provider_has_auth(&model.provider, auth)
    }

    fn provider_has_auth(&self, provider: &str, auth: &AuthStorage) -> bool {
        self.provider_has_key(provider, auth) || local_models::is_local_provider(provider)
    }

    /// Whether `provider` has a key: stored, in the environment, or its
    /// `models.json` apiKey (local servers that need none are not counted).
    pub fn provider_has_key(&self, provider: &str, auth: &AuthStorage) -> bool {
        auth.has_auth(provider)
            || self
                .request_configs
                .get(provider)
                .is_some_and(|c| c.api_key.is_some())
    }

    /// Models whose provider has auth configured (the catalog of a provider
    /// without is not read).
    pub fn available(&self, auth: &AuthStorage) -> Vec<Model> {
        // Asked once per provider, not once per model.
        let mut answers: HashMap<String, bool> = HashMap::new();
        self.models.filtered(|provider| {
            *answers
                .entry(provider.to_string())
                .or_insert_with(|| self.provider_has_auth(provider, auth))
        })
    }

    /// API key and headers for one request. Key order: `runtime_api_key`,
    /// then [`AuthStorage::api_key`], then the provider's `models.json`
    /// apiKey. Headers: the model's own, then provider headers, then
    /// per-model headers from `models.json` (values resolved now), plus
    /// `Authorization: Bearer <key>` when the provider sets `authHeader`.
    pub fn request_auth(
        &self,
        model: &Model,
        auth: &AuthStorage,
        runtime_api_key: Option<&str>,
    ) -> Result<(Option<String>, BTreeMap<String, String>), RequestAuthError> {
        let provider = &model.provider;
        let env = auth.env();
        let config = self.request_configs.get(provider);
        let api_key = match runtime_api_key.filter(|k| !k.is_empty()) {
            Some(k) => Some(k.to_string()),
            None => match auth.api_key(provider) {
                Some(k) => Some(k),
                None => match config.and_then(|c| c.api_key.as_deref()) {
                    Some(raw) => Some(resolve_config_value_or_err(raw, env).map_err(|e| {
                        RequestAuthError::Unresolved {
                            value: ValueOf::ApiKey {
                                provider: provider.clone(),
                            },
                            command: e.command,
                        }
                    })?),
                    None => None,
                },
            },
        };

        let mut headers: BTreeMap<String, String> = model.headers.clone().unwrap_or_default();
        if let Some(h) = config.and_then(|c| c.headers.as_ref()) {
            resolve_headers_into(&mut headers, h, env, provider)?;
        }
        if let Some(h) = self
            .model_headers
            .get(&(provider.clone(), model.id.clone()))
        {
            let owner = format!("{provider}/{}", model.id);
            resolve_headers_into(&mut headers, h, env, &owner)?;
        }

        // Local servers take no key; OpenAI-compatible clients still send one.
        let api_key = api_key
            .or_else(|| local_models::is_local_provider(provider).then(|| provider.to_string()));
        let Some(api_key) = api_key else {
            if auth.is_oauth(provider) {
                return Err(RequestAuthError::LoginExpired {
                    provider: provider.clone(),
                });
            }
            return Err(self.no_api_key(provider));
        };
        if config.is_some_and(|c| c.auth_header) {
            headers.insert("Authorization".to_string(), format!("Bearer {api_key}"));
        }
        Ok((Some(api_key), headers))
    }

    /// The error when a provider has no credentials: which environment variables would
    /// hold a key, and the `models.json` where an apiKey can go.
    pub fn no_api_key(&self, provider: &str) -> RequestAuthError {
        RequestAuthError::NoApiKey {
            provider: provider.to_string(),
            env_vars: catalog::env_api_key_vars(provider)
                .iter()
                .map(|v| v.to_string())
                .collect(),
            models_path: self.models_path.clone(),
        }
    }
}

fn resolve_headers_into(
    out: &mut BTreeMap<String, String>,
    headers: &IndexMap<String, String>,
    env: &Env,
    owner: &str,
) -> Result<(), RequestAuthError> {
    for (name, raw) in headers {
        let value =
            resolve_config_value_or_err(raw, env).map_err(|e| RequestAuthError::Unresolved {
                value: ValueOf::Header {
                    owner: owner.to_string(),
                    name: name.clone(),
                },
                command: e.command,
            })?;
        out.insert(name.clone(), value);
    }
    Ok(())
}

fn apply_override(model: &mut Model, o: &ModelOverride) {
    if let Some(name) = &o.name {
        model.name = name.clone();
    }
    if let Some(r) = o.reasoning {
        model.reasoning = r;
    }
    if let Some(map) = &o.thinking_level_map {
        let mut merged = model.thinking_level_map.clone().unwrap_or_default();
        merged.extend(map.iter().map(|(k, v)| (k.clone(), v.clone())));
        model.thinking_level_map = Some(merged);
    }
    if let Some(input) = &o.input {
        model.input = input_names(input);
    }
    if let Some(cw) = o.context_window {
        model.context_window = token_count(cw);
    }
    if let Some(mt) = o.max_tokens {
        model.max_tokens = token_count(mt);
    }
    if let Some(c) = &o.cost {
        let base = &model.cost;
        model.cost = ModelCost {
            input: c.input.unwrap_or(base.input),
            output: c.output.unwrap_or(base.output),
            cache_read: c.cache_read.unwrap_or(base.cache_read),
            cache_write: c.cache_write.unwrap_or(base.cache_write),
        };
    }
    model.compat = merge_compat(model.compat.as_ref(), o.compat.as_ref());
}
