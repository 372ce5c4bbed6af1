//! Stored credentials (`<agent>/auth.json`) and API key lookup.
//!
//! File format, as pi writes it:
//! `{ "<provider>": { "type": "api_key", "key": "..." } }` or
//! `{ "<provider>": { "type": "oauth", "access": "...", "refresh": "...", "expires": <ms>, ... } }`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::ai::auth_error::AuthStoreError;
use crate::ai::catalog;
use crate::ai::types::now_ms;
use crate::config::config_value::{CommandCache, Env};
use crate::config::error::JsonProblem;
use crate::config::json_file::read_object_for_update;
use crate::config::json_file::to_pretty_json;
use crate::config::paths;

/// OAuth tokens from a subscription login.
#[derive(Debug, Clone, PartialEq)]
pub struct OAuthCredential {
    /// Access token sent with requests.
    pub access: String,
    /// Refresh token.
    pub refresh: String,
    /// Expiry time of `access`, epoch milliseconds.
    pub expires: i64,
    /// Provider-specific extra fields, kept as stored.
    pub extra: Map<String, Value>,
}

/// One provider's stored credential.
#[derive(Debug, Clone, PartialEq)]
pub enum Credential {
    /// An API key (a literal, an environment variable name or a `!command`).
    ApiKey {
        /// The configured value.
        key: String,
    },
    /// OAuth tokens.
    OAuth(OAuthCredential),
}

impl Credential {
    fn from_json(value: &Value) -> Option<Credential> {
        let obj = value.as_object()?;
        match obj.get("type")?.as_str()? {
            "api_key" => Some(Credential::ApiKey {
                key: obj.get("key")?.as_str()?.to_string(),
            }),
            "oauth" => {
                let text = |k: &str| {
                    obj.get(k)
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string()
                };
                let mut extra = obj.clone();
                for k in ["type", "access", "refresh", "expires"] {
                    extra.remove(k);
                }
                Some(Credential::OAuth(OAuthCredential {
                    access: text("access"),
                    refresh: text("refresh"),
                    expires: obj
                        .get("expires")
                        .and_then(|v| v.as_i64().or_else(|| v.as_f64().map(|f| f as i64)))
                        .unwrap_or(0),
                    extra,
                }))
            }
            _ => None,
        }
    }

    fn to_json(&self) -> Value {
        match self {
            Credential::ApiKey { key } => serde_json::json!({"type": "api_key", "key": key}),
            Credential::OAuth(o) => {
                let mut obj = Map::new();
                obj.insert("type".into(), "oauth".into());
                obj.insert("refresh".into(), o.refresh.clone().into());
                obj.insert("access".into(), o.access.clone().into());
                obj.insert("expires".into(), o.expires.into());
                for (k, v) in &o.extra {
                    obj.insert(k.clone(), v.clone());
                }
                Value::Object(obj)
            }
        }
    }
}

/// Credentials from `auth.json`, runtime keys, and the environment.
#[derive(Debug)]
pub struct AuthStorage {
    path: Option<PathBuf>,
    data: Map<String, Value>,
    load_failed: bool,
    runtime_keys: HashMap<String, String>,
    env: Env,
    command_cache: CommandCache,
}

impl AuthStorage {
    /// Load `<agent>/auth.json` using the process environment.
    pub fn load(agent_dir: &Path) -> (AuthStorage, Vec<String>) {
        AuthStorage::load_with_env(agent_dir, Env::system())
    }

    /// Load `<agent>/auth.json` with a given environment. A missing file is
    /// empty; a malformed one yields a warning, is treated as empty and is
    /// never overwritten.
    pub fn load_with_env(agent_dir: &Path, env: Env) -> (AuthStorage, Vec<String>) {
        let path = paths::auth_path(agent_dir);
        let mut warnings = Vec::new();
        let (data, load_failed) = match crate::config::json_file::read_config_text(&path) {
            Ok(text) => match parse_auth(&text) {
                Ok(mut map) => {
                    let (problems, _) = crate::ai::auth_check::take_invalid(&mut map);
                    for problem in problems {
                        let e = AuthStoreError::InvalidEntry {
                            path: path.clone(),
                            problem,
                        };
                        warnings.push(e.to_string());
                    }
                    (map, false)
                }
                Err(problem) => {
                    let e = AuthStoreError::InvalidFile {
                        path: path.clone(),
                        problem: problem.to_string(),
                    };
                    warnings.push(e.to_string());
                    (Map::new(), true)
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Map::new(), false),
            Err(e) => {
                warnings.push(AuthStoreError::unreadable(&path, &e).to_string());
                (Map::new(), true)
            }
        };
        let storage = AuthStorage {
            path: Some(path),
            data,
            load_failed,
            runtime_keys: HashMap::new(),
            env,
            command_cache: CommandCache::default(),
        };
        (storage, warnings)
    }

    /// Credentials held only in memory (never written).
    pub fn in_memory(data: Value, env: Env) -> AuthStorage {
        AuthStorage {
            path: None,
            data: match data {
                Value::Object(m) => m,
                _ => Map::new(),
            },
            load_failed: false,
            runtime_keys: HashMap::new(),
            env,
            command_cache: CommandCache::default(),
        }
    }

    /// The environment used for key lookup.
    pub fn env(&self) -> &Env {
        &self.env
    }

    /// Path of `auth.json` (`None` for in-memory storage).
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The stored credential of a provider.
    pub fn get(&self, provider: &str) -> Option<Credential> {
        Credential::from_json(self.data.get(provider)?)
    }

    /// Whether `auth.json` has an entry for the provider.
    pub fn has(&self, provider: &str) -> bool {
        self.data.get(provider).is_some_and(|v| !v.is_null())
    }

    /// Providers with stored entries.
    pub fn list(&self) -> Vec<String> {
        self.data.keys().cloned().collect()
    }

    /// Whether the provider's stored credential is OAuth.
    pub fn is_oauth(&self, provider: &str) -> bool {
        matches!(self.get(provider), Some(Credential::OAuth(_)))
    }

    /// Store a credential and save `auth.json` (created with mode 0600).
    pub fn set(&mut self, provider: &str, credential: &Credential) -> Result<(), AuthStoreError> {
        self.data.insert(provider.to_string(), credential.to_json());
        let value = credential.to_json();
        self.persist(|file| {
            file.insert(provider.to_string(), value);
        })
    }

    /// Read `auth.json` again, so a key stored or removed by `/login` (here or in another
    /// pi process) counts from the next request; runtime keys and resolved commands stay.
    /// A file that cannot be read or parsed leaves the credentials as they were.
    pub fn reload_stored(&mut self) {
        let Some(path) = &self.path else {
            return;
        };
        match crate::config::json_file::read_config_text(path) {
            Ok(text) => {
                if let Ok(mut map) = parse_auth(&text) {
                    crate::ai::auth_check::take_invalid(&mut map);
                    self.data = map;
                    self.load_failed = false;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                self.data.clear();
                self.load_failed = false;
            }
            Err(_) => {}
        }
    }

    /// Remove a provider's credential and save.
    pub fn remove(&mut self, provider: &str) -> Result<(), AuthStoreError> {
        self.data.remove(provider);
        self.persist(|file| {
            file.remove(provider);
        })
    }

    /// A key for this run only (`--api-key`), never saved.
    pub fn set_runtime_api_key(&mut self, provider: &str, key: &str) {
        self.runtime_keys
            .insert(provider.to_string(), key.to_string());
    }

    /// Whether a runtime key (`--api-key`) is set for the provider.
    pub fn has_runtime_api_key(&self, provider: &str) -> bool {
        self.runtime_keys
            .get(provider)
            .is_some_and(|k| !k.is_empty())
    }

    /// Drop a runtime key.
    pub fn remove_runtime_api_key(&mut self, provider: &str) {
        self.runtime_keys.remove(provider);
    }

    /// Whether any credential is configured for the provider: runtime key,
    /// stored entry, or environment variable. Runs no commands.
    pub fn has_auth(&self, provider: &str) -> bool {
        self.runtime_keys.contains_key(provider)
            || self.has(provider)
            || catalog::env_api_key(provider, &self.env).is_some()
    }

    /// The API key for a provider: runtime key, then stored API key (resolved;
    /// commands run once per process), then a stored, unexpired OAuth access
    /// token, then the provider's environment variable(s).
    pub fn api_key(&self, provider: &str) -> Option<String> {
        if let Some(key) = self.runtime_keys.get(provider).filter(|k| !k.is_empty()) {
            return Some(key.clone());
        }
        match self.get(provider) {
            Some(Credential::ApiKey { key }) => return self.command_cache.resolve(&key, &self.env),
            Some(Credential::OAuth(o)) => {
                return (now_ms() < o.expires && !o.access.is_empty()).then_some(o.access);
            }
            None => {}
        }
        catalog::env_api_key(provider, &self.env)
    }

    fn persist(&self, change: impl FnOnce(&mut Map<String, Value>)) -> Result<(), AuthStoreError> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        if self.load_failed {
            return Err(AuthStoreError::NotSavedUnparsed { path: path.clone() });
        }
        let mut current = read_object_for_update(path, parse_auth).map_err(|problem| {
            AuthStoreError::NotSavedNow {
                problem: problem.to_string(),
            }
        })?;
        if let Some(problem) = current
            .iter()
            .find_map(|(provider, entry)| crate::ai::auth_check::entry_problem(provider, entry))
        {
            return Err(AuthStoreError::NotSavedEntry {
                path: path.clone(),
                problem,
            });
        }
        change(&mut current);
        write_private(path, &to_pretty_json(&Value::Object(current)))
            .map_err(|e| AuthStoreError::unwritable(path, &e))
    }
}

fn parse_auth(text: &str) -> Result<Map<String, Value>, JsonProblem> {
    if text.is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(JsonProblem::NotAnObject),
        Err(e) => Err(JsonProblem::from_serde(&e)),
    }
}

/// Write a file readable only by its owner (directory 0700 when created).
fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent()
        && !dir.as_os_str().is_empty()
        && !dir.exists()
    {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::DirBuilderExt;
            builder.mode(0o700);
        }
        builder.create(dir)?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path)?;
    std::io::Write::write_all(&mut file, text.as_bytes())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn oauth_round_trips_extra_fields() {
        let v =
            json!({"type": "oauth", "refresh": "r", "access": "a", "expires": 5, "projectId": "p"});
        let c = Credential::from_json(&v).unwrap();
        let Credential::OAuth(o) = &c else { panic!() };
        assert_eq!(o.extra["projectId"], "p");
        assert_eq!(c.to_json(), v);
    }

    #[test]
    fn a_key_stored_after_loading_counts_after_a_reload() {
        let dir = tempfile::tempdir().unwrap();
        let (mut auth, _) = AuthStorage::load_with_env(dir.path(), Env::from_pairs(&[]));
        auth.set_runtime_api_key("groq", "runtime");
        assert_eq!(auth.api_key("openai"), None);
        let (mut other, _) = AuthStorage::load_with_env(dir.path(), Env::from_pairs(&[]));
        other
            .set(
                "openai",
                &Credential::ApiKey {
                    key: "sk-new".into(),
                },
            )
            .unwrap();
        auth.reload_stored();
        assert_eq!(auth.api_key("openai").as_deref(), Some("sk-new"));
        assert_eq!(auth.api_key("groq").as_deref(), Some("runtime"));
        other.remove("openai").unwrap();
        auth.reload_stored();
        assert_eq!(auth.api_key("openai"), None);
    }

    #[test]
    fn expired_oauth_gives_no_key() {
        let auth = AuthStorage::in_memory(
            json!({"anthropic": {"type": "oauth", "access": "tok", "refresh": "r", "expires": 1}}),
            Env::from_pairs(&[("ANTHROPIC_API_KEY", "env")]),
        );
        assert_eq!(auth.api_key("anthropic"), None);
        assert!(auth.has_auth("anthropic"));
    }
}
