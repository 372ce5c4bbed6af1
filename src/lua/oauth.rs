//! Subscription logins of providers registered from Lua (`pi.registerProvider(name, {oauth =
//! {name, login, refreshToken, getApiKey}})`), installed as pi's [`ExtensionOAuth`].
//!
//! `login(callbacks)` runs on the extension thread; its `callbacks.onAuth`, `onProgress`
//! and `onPrompt` reach the `/login` dialog through a channel, so the dialog stays with the
//! front end. What `getApiKey(credentials)` returns is kept with the credentials in
//! `auth.json` and sent with requests.

use async_trait::async_trait;
use mlua::{Function, Table, Value as LuaValue};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use crate::ai::auth::OAuthCredential;
use crate::ai::oauth::OAuthError;
use crate::ai::oauth::extension::{
    API_KEY_FIELD, ExtensionOAuth, credential_from_json, credential_to_json,
};
use crate::ai::oauth::login::LoginUi;
use crate::lua::convert::{to_json, to_lua};
use crate::lua::error::{ExtensionError, Handler, LuaFailure};
use crate::lua::handle::ExtensionHandle;
use crate::lua::view::SharedView;
use crate::lua::vm::Vm;

/// What a Lua login asks of the `/login` dialog.
#[derive(Debug)]
pub enum LoginRequest {
    /// `onAuth({url, instructions})`.
    Auth { url: String, instructions: String },
    /// `onProgress(message)`.
    Progress(String),
    /// `onPrompt({message})`: the answer, or `Err` when the user cancelled.
    Prompt(String, oneshot::Sender<Result<String, OAuthError>>),
}

/// The logins of the extensions behind one handle.
pub struct LuaOAuth {
    handle: ExtensionHandle,
    view: SharedView,
}

impl LuaOAuth {
    /// Logins of the providers registered through `handle` (listed from `view`).
    pub fn new(handle: ExtensionHandle, view: SharedView) -> Self {
        LuaOAuth { handle, view }
    }
}

#[async_trait]
impl ExtensionOAuth for LuaOAuth {
    fn providers(&self) -> Vec<(String, String)> {
        self.view
            .lock()
            .providers
            .iter()
            .filter_map(|(name, config)| {
                let oauth = config.get("oauth")?;
                let display = oauth.get("name").and_then(Value::as_str).unwrap_or(name);
                Some((name.clone(), display.to_string()))
            })
            .collect()
    }

    async fn login(&self, provider: &str, ui: &dyn LoginUi) -> Result<OAuthCredential, OAuthError> {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let run = self.handle.oauth(provider, None, tx);
        tokio::pin!(run);
        let result = loop {
            tokio::select! {
                Some(request) = rx.recv() => match request {
                    LoginRequest::Auth { url, instructions } => ui.show_auth(&url, &instructions),
                    LoginRequest::Progress(message) => ui.progress(&message),
                    LoginRequest::Prompt(message, reply) => {
                        let answer = ui.prompt(&message).await;
                        let _ = reply.send(answer);
                    }
                },
                result = &mut run => break result,
            }
        };
        credential_from_json(result.map_err(|e| OAuthError::Extension {
            detail: e.to_string(),
        })?)
    }

    async fn refresh(
        &self,
        provider: &str,
        credential: &OAuthCredential,
    ) -> Result<OAuthCredential, OAuthError> {
        let (tx, _rx) = mpsc::unbounded_channel();
        let value = self
            .handle
            .oauth(provider, Some(credential_to_json(credential)), tx)
            .await
            .map_err(|e| OAuthError::Extension {
                detail: e.to_string(),
            })?;
        credential_from_json(value)
    }
}

/// The `oauth` table of provider `provider`.
fn oauth_table(vm: &Vm, provider: &str) -> Option<Table> {
    vm.host
        .reg
        .borrow()
        .oauth
        .iter()
        .find(|(p, _, _)| p == provider)
        .map(|(_, t, _)| t.clone())
}

/// On the extension thread: `login(callbacks)`, or `refreshToken(credentials)` when
/// `refresh` holds the stored credentials; then `getApiKey` of the result.
pub async fn run_oauth(
    vm: &Vm,
    provider: &str,
    refresh: Option<Value>,
    ui: mpsc::UnboundedSender<LoginRequest>,
) -> Result<Value, ExtensionError> {
    let Some(oauth) = oauth_table(vm, provider) else {
        return Err(ExtensionError::NoLogin {
            provider: provider.to_string(),
        });
    };
    let lua = &vm.lua;
    let err = |e: mlua::Error| ExtensionError::Failed {
        handler: Handler::Login {
            provider: provider.to_string(),
        },
        extension: None,
        cause: LuaFailure::of(&e),
    };
    vm.host.budget.reset();
    let credentials: LuaValue = match refresh {
        Some(stored) => {
            let refresh_token: Function = oauth.get("refreshToken").map_err(err)?;
            let stored = to_lua(lua, &stored).map_err(err)?;
            refresh_token.call_async(stored).await.map_err(err)?
        }
        None => {
            let login: Function = oauth.get("login").map_err(err)?;
            login
                .call_async(callbacks(lua, ui).map_err(err)?)
                .await
                .map_err(err)?
        }
    };
    let mut value = to_json(lua, credentials.clone()).map_err(err)?;
    if let Some(get_key) = oauth.get::<Option<Function>>("getApiKey").map_err(err)? {
        let key: String = get_key.call_async(credentials).await.map_err(err)?;
        if let Value::Object(map) = &mut value {
            map.insert(API_KEY_FIELD.into(), Value::String(key));
        }
    }
    Ok(value)
}

/// The `callbacks` table handed to `login`.
fn callbacks(lua: &mlua::Lua, ui: mpsc::UnboundedSender<LoginRequest>) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let tx = ui.clone();
    t.set(
        "onAuth",
        lua.create_function(move |_, info: Table| {
            let _ = tx.send(LoginRequest::Auth {
                url: info.get::<Option<String>>("url")?.unwrap_or_default(),
                instructions: info
                    .get::<Option<String>>("instructions")?
                    .unwrap_or_default(),
            });
            Ok(())
        })?,
    )?;
    let tx = ui.clone();
    t.set(
        "onProgress",
        lua.create_function(move |_, message: String| {
            let _ = tx.send(LoginRequest::Progress(message));
            Ok(())
        })?,
    )?;
    t.set(
        "onPrompt",
        lua.create_async_function(move |_, prompt: LuaValue| {
            let tx = ui.clone();
            async move {
                let message = match prompt {
                    LuaValue::Table(t) => t.get::<Option<String>>("message")?.unwrap_or_default(),
                    LuaValue::String(s) => s.to_str()?.to_string(),
                    _ => String::new(),
                };
                let (reply, answer) = oneshot::channel();
                let _ = tx.send(LoginRequest::Prompt(message, reply));
                match answer.await {
                    Ok(Ok(text)) => Ok(text),
                    Ok(Err(e)) => Err(mlua::Error::runtime(e.to_string())),
                    Err(_) => Err(mlua::Error::runtime(OAuthError::Cancelled.to_string())),
                }
            }
        })?,
    )?;
    Ok(t)
}
