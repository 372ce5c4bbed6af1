//! Fresh OAuth access tokens for requests. An expired token is refreshed at
//! most once: tasks of one process queue on a per-provider async mutex, and
//! processes queue on an exclusive lock of `auth.json.lock`; whoever gets
//! the lock re-reads `auth.json` and refreshes only if the token is still
//! expired. A failed refresh is an error asking for `/login <provider>`.

use super::OAuthError;
use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};

use super::login::provider_name;
use super::{Endpoints, refresh_credential};
use crate::ai::auth::{AuthStorage, Credential, OAuthCredential};
use crate::ai::types::now_ms;
use crate::config::paths;

/// Managers shared per agent directory, so logins and logouts reach the
/// cache that requests use.
static SHARED: LazyLock<Mutex<HashMap<PathBuf, Arc<OAuthManager>>>> =
    LazyLock::new(Default::default);

/// Hands out valid OAuth credentials, refreshing them when expired.
#[derive(Debug)]
pub struct OAuthManager {
    agent_dir: PathBuf,
    endpoints: Endpoints,
    cache: Mutex<HashMap<String, OAuthCredential>>,
    refresh_locks: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

impl OAuthManager {
    /// A manager for `<agent_dir>/auth.json` using `endpoints`.
    pub fn new(agent_dir: &Path, endpoints: Endpoints) -> OAuthManager {
        OAuthManager {
            agent_dir: agent_dir.to_path_buf(),
            endpoints,
            cache: Mutex::default(),
            refresh_locks: Mutex::default(),
        }
    }

    /// The process-wide manager of an agent directory (endpoints from the
    /// environment).
    pub fn shared(agent_dir: &Path) -> Arc<OAuthManager> {
        let mut all = SHARED.lock().unwrap_or_else(|e| e.into_inner());
        all.entry(agent_dir.to_path_buf())
            .or_insert_with(|| Arc::new(OAuthManager::new(agent_dir, Endpoints::from_env())))
            .clone()
    }

    /// Drop a cached credential (after login or logout).
    pub fn forget(&self, provider: &str) {
        self.cache_lock().remove(provider);
    }

    /// The provider's OAuth credential with an unexpired access token;
    /// `None` when `auth.json` holds no OAuth credential for it.
    pub async fn credential(&self, provider: &str) -> Result<Option<OAuthCredential>, OAuthError> {
        if let Some(answer) = self.without_refresh(provider) {
            return Ok(answer);
        }
        let task_lock = self.refresh_lock(provider);
        let _in_process = task_lock.lock().await;
        if let Some(valid) = self.cached(provider) {
            return Ok(Some(valid));
        }
        let dir = self.agent_dir.clone();
        let _across_processes = tokio::task::spawn_blocking(move || lock_auth_file(&dir))
            .await
            .map_err(|e| OAuthError::RefreshNotRun {
                detail: e.to_string(),
            })??;
        let Some(stored) = self.stored(provider) else {
            return Ok(None);
        };
        if is_valid(&stored) {
            self.remember(provider, &stored);
            return Ok(Some(stored));
        }
        let mut fresh = refresh_credential(provider, &stored, &self.endpoints)
            .await
            .map_err(|e| refresh_failed(provider, e))?;
        for (k, v) in stored.extra {
            fresh.extra.entry(k).or_insert(v);
        }
        let (mut auth, _) = AuthStorage::load(&self.agent_dir);
        auth.set(provider, &Credential::OAuth(fresh.clone()))
            .map_err(|e| refresh_failed(provider, e.into()))?;
        self.remember(provider, &fresh);
        Ok(Some(fresh))
    }

    /// [`credential`](Self::credential) for synchronous callers: runs on the
    /// current multi-threaded runtime, or on a short-lived one otherwise.
    pub fn credential_blocking(
        &self,
        provider: &str,
    ) -> Result<Option<OAuthCredential>, OAuthError> {
        // Only a refresh needs a runtime; reading the file does not.
        if let Some(answer) = self.without_refresh(provider) {
            return Ok(answer);
        }
        use tokio::runtime::{Builder, Handle, RuntimeFlavor};
        if let Ok(handle) = Handle::try_current()
            && handle.runtime_flavor() == RuntimeFlavor::MultiThread
        {
            return tokio::task::block_in_place(|| handle.block_on(self.credential(provider)));
        }
        std::thread::scope(|scope| {
            scope
                .spawn(|| {
                    let runtime =
                        Builder::new_current_thread()
                            .enable_all()
                            .build()
                            .map_err(|e| OAuthError::RefreshNotRun {
                                detail: e.to_string(),
                            })?;
                    runtime.block_on(self.credential(provider))
                })
                .join()
                .unwrap_or_else(|_| {
                    Err(OAuthError::RefreshNotRun {
                        detail: "panicked".to_string(),
                    })
                })
        })
    }

    /// The answer when no refresh is needed: the cached or stored credential
    /// while its token is valid, or `Some(None)` when none is stored; `None`
    /// when the stored token has expired.
    fn without_refresh(&self, provider: &str) -> Option<Option<OAuthCredential>> {
        if let Some(valid) = self.cached(provider) {
            return Some(Some(valid));
        }
        let Some(stored) = self.stored(provider) else {
            self.forget(provider);
            return Some(None);
        };
        if !is_valid(&stored) {
            return None;
        }
        self.remember(provider, &stored);
        Some(Some(stored))
    }

    fn cache_lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, OAuthCredential>> {
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn cached(&self, provider: &str) -> Option<OAuthCredential> {
        self.cache_lock()
            .get(provider)
            .filter(|c| is_valid(c))
            .cloned()
    }

    fn remember(&self, provider: &str, credential: &OAuthCredential) {
        self.cache_lock()
            .insert(provider.to_string(), credential.clone());
    }

    fn stored(&self, provider: &str) -> Option<OAuthCredential> {
        let (auth, _) = AuthStorage::load(&self.agent_dir);
        match auth.get(provider)? {
            Credential::OAuth(o) => Some(o),
            Credential::ApiKey { .. } => None,
        }
    }

    fn refresh_lock(&self, provider: &str) -> Arc<tokio::sync::Mutex<()>> {
        let mut locks = self.refresh_locks.lock().unwrap_or_else(|e| e.into_inner());
        locks.entry(provider.to_string()).or_default().clone()
    }
}

/// Whether the access token is present and not (nearly) expired.
fn is_valid(credential: &OAuthCredential) -> bool {
    !credential.access.is_empty() && now_ms() < credential.expires
}

fn refresh_failed(provider: &str, cause: OAuthError) -> OAuthError {
    OAuthError::RefreshFailed {
        provider: provider.to_string(),
        name: provider_name(provider),
        cause: Box::new(cause),
    }
}

/// Take the exclusive cross-process lock on `<agent>/auth.json.lock`,
/// waiting for other pi processes; released when the file is dropped.
pub fn lock_auth_file(agent_dir: &Path) -> Result<File, OAuthError> {
    let path = paths::auth_path(agent_dir).with_extension("json.lock");
    if !agent_dir.exists() {
        std::fs::create_dir_all(agent_dir).map_err(|e| lock_error(agent_dir, &e))?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let file = options.open(&path).map_err(|e| lock_error(&path, &e))?;
    file.lock().map_err(|e| lock_error(&path, &e))?;
    Ok(file)
}

fn lock_error(path: &Path, e: &std::io::Error) -> OAuthError {
    OAuthError::Lock {
        path: path.to_path_buf(),
        reason: crate::i18n::config_words::io_reason(e),
    }
}

/// Forget a provider's cached credential in the shared manager of `agent_dir`.
pub fn forget_everywhere(agent_dir: &Path, provider: &str) {
    let all = SHARED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(manager) = all.get(agent_dir) {
        manager.forget(provider);
    }
}
