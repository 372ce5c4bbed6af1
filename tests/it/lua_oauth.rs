//! Subscription logins of providers registered from Lua (`registerProvider{oauth}`):
//! `/login` offers them, the login's questions reach the login dialog, the credentials
//! land in `auth.json`, expired tokens are refreshed through `refreshToken` and requests
//! send what `getApiKey` derives.

use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use pi::ai::oauth::Endpoints;
use pi::ai::oauth::login::{LoginUi, all_providers, login, provider_name, save_login};
use pi::lua::oauth::LuaOAuth;
use pi::lua::{ExtensionHandle, HostConfig, SharedView};
use serde_json::{Value, json};

use crate::support::lua_agent::fixture;
use crate::support::pi_cli::PiSandbox;

#[derive(Default)]
struct User {
    seen: Mutex<Vec<String>>,
}

#[async_trait]
impl LoginUi for User {
    fn show_auth(&self, url: &str, instructions: &str) {
        self.seen
            .lock()
            .unwrap()
            .push(format!("auth {url} ({instructions})"));
    }
    fn progress(&self, message: &str) {
        self.seen
            .lock()
            .unwrap()
            .push(format!("progress {message}"));
    }
    async fn prompt(&self, message: &str) -> Result<String, pi::ai::oauth::OAuthError> {
        self.seen.lock().unwrap().push(format!("prompt {message}"));
        Ok("c0de".into())
    }
}

#[tokio::test]
async fn a_lua_login_asks_through_the_dialog_and_its_credentials_are_stored() {
    let dir = tempfile::tempdir().unwrap();
    let view = SharedView::new(dir.path());
    let handle = ExtensionHandle::start(
        HostConfig::new(vec![fixture("oauth_provider.lua")], dir.path()),
        view.clone(),
    );
    assert!(handle.load().await.errors.is_empty());
    pi::ai::oauth::extension::install(Some(Arc::new(LuaOAuth::new(handle.clone(), view))));

    assert!(
        all_providers().contains(&("lua-oauth".to_string(), "Lua Subscription".to_string())),
        "{:?}",
        all_providers()
    );
    assert_eq!(provider_name("lua-oauth"), "Lua Subscription");

    let user = User::default();
    let credential = login("lua-oauth", &Endpoints::default(), &user)
        .await
        .unwrap();
    assert_eq!(
        *user.seen.lock().unwrap(),
        [
            "auth http://127.0.0.1:9/authorize?client=pi (Sign in there)",
            "prompt Paste the code",
            "progress Exchanging the code",
        ]
    );
    assert_eq!(credential.access, "access-c0de");
    assert_eq!(credential.refresh, "refresh-c0de");
    assert_eq!(credential.extra["plan"], "pro");
    assert_eq!(credential.extra["apiKey"], "key:access-c0de");

    save_login(dir.path(), "lua-oauth", credential).unwrap();
    let stored: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("auth.json")).unwrap())
            .unwrap();
    assert_eq!(stored["lua-oauth"]["type"], "oauth");
    assert_eq!(stored["lua-oauth"]["access"], "access-c0de");

    let err = login("nobody", &Endpoints::default(), &user)
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("lua-oauth"), "{err}");
}

#[test]
fn an_expired_lua_login_is_refreshed_and_requests_send_its_derived_key() {
    let sandbox = PiSandbox::new();
    std::fs::write(
        sandbox.agent_dir.join("auth.json"),
        json!({"lua-oauth": {"type": "oauth", "access": "old", "refresh": "r1", "expires": 1000, "plan": "pro"}})
            .to_string(),
    )
    .unwrap();
    let ext = fixture("oauth_provider.lua").display().to_string();
    let out = sandbox.run(
        &["-e", &ext, "--model", "lua-oauth/sub-1", "-p", "hi"],
        None,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "key=key:fresh-r1\n");
    let stored: Value = serde_json::from_str(
        &std::fs::read_to_string(sandbox.agent_dir.join("auth.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(stored["lua-oauth"]["access"], "fresh-r1");
    assert_eq!(stored["lua-oauth"]["refresh"], "r1+1");
    assert_eq!(stored["lua-oauth"]["plan"], "pro");
}
