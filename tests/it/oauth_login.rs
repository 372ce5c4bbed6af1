//! Subscription logins against a mock authorization server on 127.0.0.1:
//! authorize URLs, the callback (state checked), pasted codes, token
//! exchange bodies, the Copilot device flow, and logout.

use crate::support;

use std::collections::HashMap;
use std::sync::Mutex;

use async_trait::async_trait;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use pi::ai::auth::{AuthStorage, Credential, OAuthCredential};
use pi::ai::oauth::login::{LoginUi, logout, save_login};
use pi::ai::oauth::pkce::s256_challenge;
use pi::ai::oauth::{Endpoints, anthropic, copilot, openai_codex};
use serde_json::{Map, Value, json};
use support::{MockReply, MockServer};
use tokio::sync::mpsc;

/// A scripted user: records what is shown, answers prompts from a queue
/// (or never, when the queue is empty).
struct ScriptedUser {
    shown: mpsc::UnboundedSender<(String, String)>,
    answers: Mutex<Vec<String>>,
    progress: Mutex<Vec<String>>,
}

impl ScriptedUser {
    fn new(answers: &[&str]) -> (ScriptedUser, mpsc::UnboundedReceiver<(String, String)>) {
        let (shown, receiver) = mpsc::unbounded_channel();
        let user = ScriptedUser {
            shown,
            answers: Mutex::new(answers.iter().rev().map(|s| s.to_string()).collect()),
            progress: Mutex::default(),
        };
        (user, receiver)
    }
}

#[async_trait]
impl LoginUi for ScriptedUser {
    fn show_auth(&self, url: &str, instructions: &str) {
        let _ = self.shown.send((url.to_string(), instructions.to_string()));
    }
    fn progress(&self, message: &str) {
        self.progress.lock().unwrap().push(message.to_string());
    }
    async fn prompt(&self, _message: &str) -> Result<String, pi::ai::oauth::OAuthError> {
        let answer = self.answers.lock().unwrap().pop();
        match answer {
            Some(a) => Ok(a),
            None => std::future::pending().await,
        }
    }
}

fn query(url: &str) -> HashMap<String, String> {
    url::Url::parse(url)
        .unwrap()
        .query_pairs()
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

fn form(body: &[u8]) -> HashMap<String, String> {
    url::form_urlencoded::parse(body)
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

fn codex_jwt(account: &str) -> String {
    let claims = json!({"https://api.openai.com/auth": {"chatgpt_account_id": account}});
    format!(
        "eyJhbGciOiJub25lIn0.{}.sig",
        URL_SAFE_NO_PAD.encode(claims.to_string())
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anthropic_login_by_browser_callback_rejects_wrong_state_then_exchanges_code() {
    let server = MockServer::start();
    server.push(MockReply::json(
        200,
        json!({"access_token": "sk-ant-oat01-a", "refresh_token": "sk-ant-ort01-r", "expires_in": 3600}),
    ));
    let endpoints = Endpoints::local(&server.url());
    let (user, mut shown) = ScriptedUser::new(&[]);
    let login = anthropic::login(&endpoints, &user);
    let browser = async {
        let (url, instructions) = shown.recv().await.unwrap();
        assert!(instructions.contains("paste"), "{instructions}");
        assert!(url.starts_with(&format!("{}/oauth/authorize?", server.url())));
        let q = query(&url);
        assert_eq!(q["client_id"], anthropic::CLIENT_ID);
        assert_eq!(q["response_type"], "code");
        assert_eq!(q["code_challenge_method"], "S256");
        assert_eq!(q["scope"], anthropic::SCOPES);
        let redirect = q["redirect_uri"].clone();
        assert!(redirect.starts_with("http://localhost:") && redirect.ends_with("/callback"));
        let callback = redirect.replace("localhost", "127.0.0.1");
        let client = pi::ai::http::client();
        let forged = client
            .get(format!("{callback}?code=evil&state=not-the-state"))
            .send()
            .await
            .unwrap();
        assert_eq!(forged.status().as_u16(), 400);
        assert!(forged.text().await.unwrap().contains("State mismatch"));
        let ok = client
            .get(format!("{callback}?code=the-code&state={}", q["state"]))
            .send()
            .await
            .unwrap();
        assert_eq!(ok.status().as_u16(), 200);
        assert!(
            ok.text()
                .await
                .unwrap()
                .contains("You can close this window")
        );
        q
    };
    let (credential, q) = tokio::join!(login, browser);
    let credential = credential.unwrap();
    assert_eq!(credential.access, "sk-ant-oat01-a");
    assert_eq!(credential.refresh, "sk-ant-ort01-r");
    let now = pi::ai::types::now_ms();
    // One hour minus the five-minute safety margin.
    assert!((credential.expires - (now + 55 * 60 * 1000)).abs() < 10_000);

    let requests = server.requests();
    assert_eq!(
        requests.len(),
        1,
        "only the token exchange reaches the server"
    );
    let exchange = &requests[0];
    assert_eq!(exchange.path, "/v1/oauth/token");
    let body = exchange.json();
    assert_eq!(body["grant_type"], "authorization_code");
    assert_eq!(body["client_id"], anthropic::CLIENT_ID);
    assert_eq!(body["code"], "the-code");
    assert_eq!(body["state"], q["state"].as_str());
    assert_eq!(body["redirect_uri"], q["redirect_uri"].as_str());
    let verifier = body["code_verifier"].as_str().unwrap();
    assert_eq!(s256_challenge(verifier), q["code_challenge"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn codex_login_by_pasted_redirect_url_stores_account_id() {
    let server = MockServer::start();
    let jwt = codex_jwt("acct-42");
    server.push(MockReply::json(
        200,
        json!({"access_token": jwt, "refresh_token": "rt-1", "expires_in": 864000}),
    ));
    let endpoints = Endpoints::local(&server.url());
    // The pasted answer is produced once the authorize URL (and its state) is known.
    let (shown_tx, mut shown) = mpsc::unbounded_channel();
    struct PastingUser(
        mpsc::UnboundedSender<String>,
        tokio::sync::Mutex<mpsc::UnboundedReceiver<String>>,
    );
    #[async_trait]
    impl LoginUi for PastingUser {
        fn show_auth(&self, url: &str, _: &str) {
            let _ = self.0.send(url.to_string());
        }
        fn progress(&self, _: &str) {}
        async fn prompt(&self, _: &str) -> Result<String, pi::ai::oauth::OAuthError> {
            Ok(self.1.lock().await.recv().await.unwrap())
        }
    }
    let (paste_tx, paste_rx) = mpsc::unbounded_channel();
    let user = PastingUser(shown_tx, tokio::sync::Mutex::new(paste_rx));
    let login = openai_codex::login(&endpoints, &user);
    let paster = async {
        let url = shown.recv().await.unwrap();
        let q = query(&url);
        assert_eq!(q["client_id"], openai_codex::CLIENT_ID);
        assert_eq!(q["originator"], "pi");
        assert_eq!(q["codex_cli_simplified_flow"], "true");
        paste_tx
            .send(format!(
                "http://localhost:1455/auth/callback?code=pasted-code&state={}",
                q["state"]
            ))
            .unwrap();
        q
    };
    let (credential, q) = tokio::join!(login, paster);
    let credential = credential.unwrap();
    assert_eq!(credential.access, jwt);
    assert_eq!(credential.extra["accountId"], "acct-42");
    let exchange = &server.requests()[0];
    assert_eq!(exchange.path, "/oauth/token");
    assert_eq!(
        exchange.header("content-type"),
        Some("application/x-www-form-urlencoded")
    );
    let body = form(&exchange.body);
    assert_eq!(body["grant_type"], "authorization_code");
    assert_eq!(body["code"], "pasted-code");
    assert_eq!(body["redirect_uri"], q["redirect_uri"]);
    assert_eq!(s256_challenge(&body["code_verifier"]), q["code_challenge"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pasted_code_with_a_foreign_state_is_rejected() {
    let server = MockServer::start();
    let endpoints = Endpoints::local(&server.url());
    let (user, _shown) = ScriptedUser::new(&["some-code#another-attempts-state"]);
    let err = anthropic::login(&endpoints, &user).await.unwrap_err();
    assert_eq!(err, pi::ai::oauth::OAuthError::StateMismatch);
    assert!(err.to_string().contains("state mismatch"), "{err}");
    assert_eq!(
        server.request_count(),
        0,
        "no token exchange after a mismatch"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn copilot_device_flow_for_an_enterprise_domain() {
    let server = MockServer::start();
    let polls = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = polls.clone();
    server.set_handler(move |req| match req.path.as_str() {
        "/login/device/code" => MockReply::json(
            200,
            json!({"device_code": "dev-1", "user_code": "ABCD-1234",
                   "verification_uri": "https://company.ghe.com/login/device",
                   "interval": 0, "expires_in": 60}),
        ),
        "/login/oauth/access_token" => {
            if counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 0 {
                MockReply::json(200, json!({"error": "authorization_pending"}))
            } else {
                MockReply::json(200, json!({"access_token": "ghu_token", "token_type": "bearer"}))
            }
        }
        "/copilot_internal/v2/token" => MockReply::json(
            200,
            json!({"token": "tid=9;exp=1;proxy-ep=proxy.company.ghe.com;", "expires_at": 4_000_000_000u64}),
        ),
        _ => MockReply::status(404),
    });
    let endpoints = Endpoints::local(&server.url());
    let (user, mut shown) = ScriptedUser::new(&["https://company.ghe.com/"]);
    let credential = copilot::login(&endpoints, &user).await.unwrap();
    let (url, instructions) = shown.recv().await.unwrap();
    assert_eq!(url, "https://company.ghe.com/login/device");
    assert_eq!(instructions, "Enter code: ABCD-1234");
    assert_eq!(credential.refresh, "ghu_token");
    assert_eq!(
        credential.access,
        "tid=9;exp=1;proxy-ep=proxy.company.ghe.com;"
    );
    assert_eq!(credential.expires, 4_000_000_000_000 - 5 * 60 * 1000);
    assert_eq!(credential.extra["enterpriseUrl"], "company.ghe.com");

    let (policies, requests): (Vec<_>, Vec<_>) = server
        .requests()
        .into_iter()
        .partition(|r| r.path.ends_with("/policy"));
    let enabled: Vec<String> = policies.iter().map(|r| r.path.clone()).collect();
    let expected: Vec<String> = pi::ai::catalog::builtin_models_for("github-copilot")
        .map(|m| format!("/models/{}/policy", m.id))
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(enabled.len(), expected.len());
    assert!(expected.iter().all(|p| enabled.contains(p)), "{enabled:?}");
    assert_eq!(policies[0].json()["state"], "enabled");
    assert_eq!(
        policies[0].header("authorization"),
        Some("Bearer tid=9;exp=1;proxy-ep=proxy.company.ghe.com;")
    );
    let paths: Vec<&str> = requests.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "/login/device/code",
            "/login/oauth/access_token",
            "/login/oauth/access_token",
            "/copilot_internal/v2/token"
        ]
    );
    let device = form(&requests[0].body);
    assert_eq!(device["client_id"], copilot::CLIENT_ID);
    assert_eq!(device["scope"], "read:user");
    let poll = form(&requests[1].body);
    assert_eq!(poll["device_code"], "dev-1");
    assert_eq!(
        poll["grant_type"],
        "urn:ietf:params:oauth:grant-type:device_code"
    );
    assert_eq!(requests[3].method, "GET");
    assert_eq!(
        requests[3].header("authorization"),
        Some("Bearer ghu_token")
    );
    assert_eq!(
        requests[3].header("copilot-integration-id"),
        Some("vscode-chat")
    );
}

#[tokio::test]
async fn invalid_enterprise_domain_is_refused() {
    let (user, _shown) = ScriptedUser::new(&["http://"]);
    let err = copilot::login(&Endpoints::local("http://127.0.0.1:9"), &user)
        .await
        .unwrap_err();
    assert_eq!(
        err,
        pi::ai::oauth::OAuthError::InvalidEnterpriseDomain {
            input: "http://".into()
        }
    );
    assert!(
        err.to_string()
            .contains("Invalid GitHub Enterprise URL/domain \"http://\""),
        "{err}"
    );
}

#[test]
fn logout_deletes_the_credential_and_keeps_the_file_private() {
    let dir = tempfile::tempdir().unwrap();
    let credential = OAuthCredential {
        access: "a".into(),
        refresh: "r".into(),
        expires: 1,
        extra: Map::new(),
    };
    save_login(dir.path(), "anthropic", credential.clone()).unwrap();
    let (mut auth, _) = AuthStorage::load(dir.path());
    auth.set("openai", &Credential::ApiKey { key: "sk-x".into() })
        .unwrap();
    let path = dir.path().join("auth.json");
    let stored: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(stored["anthropic"]["type"], "oauth");
    assert_eq!(stored["anthropic"]["refresh"], "r");

    assert!(logout(dir.path(), "anthropic").unwrap());
    let stored: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert!(stored.get("anthropic").is_none(), "{stored}");
    assert_eq!(stored["openai"]["key"], "sk-x", "other credentials stay");
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    assert!(
        !logout(dir.path(), "anthropic").unwrap(),
        "nothing left to delete"
    );
}
