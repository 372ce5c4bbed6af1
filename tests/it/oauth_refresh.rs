//! Token refresh against a mock authorization server: at most one refresh
//! for concurrent requests in one process and across two `pi` processes,
//! and a failed refresh asks for `/login` instead of using an env key.

use crate::support;
use crate::support::pi_cli;

use std::sync::Arc;
use std::time::Duration;

use pi::ai::oauth::Endpoints;
use pi::ai::oauth::manager::OAuthManager;
use pi::ai::types::now_ms;
use pi_cli::PiSandbox;
use serde_json::{Value, json};
use support::{CapturedRequest, MockReply, MockServer};

const TOKEN_PATH: &str = "/v1/oauth/token";

/// An `auth.json` with an expired Anthropic subscription login.
fn expired_login() -> String {
    json!({
        "anthropic": {"type": "oauth", "access": "sk-ant-oat01-old", "refresh": "sk-ant-ort01-old",
                      "expires": now_ms() - 60_000},
        "openai": {"type": "api_key", "key": "sk-openai"}
    })
    .to_string()
}

/// Token refreshes answer slowly (so that concurrent callers overlap) with
/// new tokens; model requests get a text reply.
fn serve_refresh_and_messages(server: &MockServer) {
    server.set_handler(|req: &CapturedRequest| {
        if req.path == TOKEN_PATH {
            MockReply::json(
                200,
                json!({"access_token": "sk-ant-oat01-new", "refresh_token": "sk-ant-ort01-new",
                       "expires_in": 3600}),
            )
            .split_at(&[1])
            .delay(Duration::from_millis(800))
        } else {
            MockReply::anthropic_text("hello from the subscription")
        }
    });
}

fn refreshes(server: &MockServer) -> Vec<CapturedRequest> {
    server
        .requests()
        .into_iter()
        .filter(|r| r.path == TOKEN_PATH)
        .collect()
}

fn stored(dir: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("auth.json")).unwrap()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_requests_in_one_process_refresh_once() {
    let server = MockServer::start();
    serve_refresh_and_messages(&server);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("auth.json"), expired_login()).unwrap();
    let manager = Arc::new(OAuthManager::new(
        dir.path(),
        Endpoints::local(&server.url()),
    ));
    let tasks: Vec<_> = (0..4)
        .map(|_| {
            let m = manager.clone();
            tokio::spawn(async move { m.credential("anthropic").await })
        })
        .collect();
    for task in tasks {
        let credential = task.await.unwrap().unwrap().expect("an oauth credential");
        assert_eq!(credential.access, "sk-ant-oat01-new");
    }
    let sent = refreshes(&server);
    assert_eq!(sent.len(), 1, "exactly one refresh request");
    let body = sent[0].json();
    assert_eq!(body["grant_type"], "refresh_token");
    assert_eq!(body["refresh_token"], "sk-ant-ort01-old");
    assert_eq!(body["client_id"], pi::ai::oauth::anthropic::CLIENT_ID);

    let saved = stored(dir.path());
    assert_eq!(saved["anthropic"]["access"], "sk-ant-oat01-new");
    assert_eq!(saved["anthropic"]["refresh"], "sk-ant-ort01-new");
    assert!(saved["anthropic"]["expires"].as_i64().unwrap() > now_ms());
    assert_eq!(
        saved["openai"]["key"], "sk-openai",
        "other entries are kept"
    );
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(dir.path().join("auth.json"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);

    // The blocking entry point (used by the request path) sees the cached token.
    let m = manager.clone();
    let again = tokio::task::spawn_blocking(move || m.credential_blocking("anthropic"))
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(again.access, "sk-ant-oat01-new");
    assert_eq!(refreshes(&server).len(), 1);
}

/// A sandbox whose built-in `anthropic` provider talks to `server`, with
/// OAuth requests sent there too.
fn anthropic_sandbox(server: &MockServer) -> PiSandbox {
    let mut sandbox = PiSandbox::new();
    sandbox.write_agent_file(
        "models.json",
        &json!({"providers": {"anthropic": {"baseUrl": server.anthropic_base_url()}}}).to_string(),
    );
    sandbox.write_agent_file("auth.json", &expired_login());
    sandbox.env.push(("PI_OAUTH_SERVER".into(), server.url()));
    sandbox
}

const ARGS: [&str; 6] = [
    "--provider",
    "anthropic",
    "--model",
    "claude-haiku-4-5",
    "-p",
    "hi",
];

#[test]
fn two_pi_processes_refresh_once() {
    let server = MockServer::start();
    serve_refresh_and_messages(&server);
    let sandbox = anthropic_sandbox(&server);
    let mut first = sandbox.spawn(&ARGS);
    let mut second = sandbox.spawn(&ARGS);
    // Close both stdins at once: print mode reads piped input to its end.
    drop(first.stdin.take());
    drop(second.stdin.take());
    for child in [first, second] {
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "stdout: {stdout}\nstderr: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(stdout.contains("hello from the subscription"), "{stdout}");
    }
    assert_eq!(refreshes(&server).len(), 1, "exactly one refresh request");
    let messages: Vec<_> = server
        .requests()
        .into_iter()
        .filter(|r| r.path == "/v1/messages")
        .collect();
    assert_eq!(messages.len(), 2);
    for m in &messages {
        assert_eq!(m.header("authorization"), Some("Bearer sk-ant-oat01-new"));
        assert!(m.header("x-api-key").is_none());
        assert!(
            m.header("anthropic-beta")
                .is_some_and(|b| b.contains("oauth-2025-04-20")),
            "{:?}",
            m.headers
        );
        assert_eq!(
            m.json()["system"][0]["text"],
            "You are Claude Code, Anthropic's official CLI for Claude."
        );
    }
    assert_eq!(
        stored(&sandbox.agent_dir)["anthropic"]["refresh"],
        "sk-ant-ort01-new"
    );
}

#[test]
fn expired_refresh_token_asks_for_login_and_never_uses_the_env_key() {
    let server = MockServer::start();
    server.set_handler(|req: &CapturedRequest| {
        if req.path == TOKEN_PATH {
            MockReply::json(
                400,
                json!({"error": "invalid_grant", "error_description": "Refresh token expired"}),
            )
        } else {
            MockReply::anthropic_text("should not be reached")
        }
    });
    let mut sandbox = anthropic_sandbox(&server);
    sandbox
        .env
        .push(("ANTHROPIC_API_KEY".into(), "sk-ant-api-env".into()));
    let out = sandbox.run(&ARGS, None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("/login anthropic"), "{stderr}");
    assert!(stderr.contains("Anthropic (Claude Pro/Max)"), "{stderr}");
    assert!(stderr.contains("invalid_grant"), "{stderr}");
    assert_eq!(refreshes(&server).len(), 1);
    assert!(
        server.requests().iter().all(|r| r.path != "/v1/messages"),
        "no model request with the environment key"
    );
    // The stored login is left as it was.
    assert_eq!(
        stored(&sandbox.agent_dir)["anthropic"]["refresh"],
        "sk-ant-ort01-old"
    );
}

#[tokio::test]
async fn rejected_refresh_names_each_provider_and_its_login_command() {
    let server = MockServer::start();
    server.set_handler(|_: &CapturedRequest| {
        MockReply::json(
            401,
            json!({"error": "invalid_grant", "error_description": "Refresh token expired"}),
        )
    });
    let dir = tempfile::tempdir().unwrap();
    let expired = |refresh: &str| json!({"type": "oauth", "access": "old", "refresh": refresh, "expires": now_ms() - 60_000});
    let auth = json!({"openai-codex": expired("codex-r"), "github-copilot": expired("gho_x")});
    std::fs::write(dir.path().join("auth.json"), auth.to_string()).unwrap();
    let manager = OAuthManager::new(dir.path(), Endpoints::local(&server.url()));
    for (provider, name) in [
        ("openai-codex", "ChatGPT Plus/Pro (Codex Subscription)"),
        ("github-copilot", "GitHub Copilot"),
    ] {
        let err = manager.credential(provider).await.unwrap_err();
        assert!(
            matches!(&err, pi::ai::oauth::OAuthError::RefreshFailed { provider: p, .. } if p == provider),
            "{err:?}"
        );
        let err = err.to_string();
        assert!(err.contains(&format!("/login {provider}")), "{err}");
        assert!(err.contains(name), "{err}");
    }
    assert_eq!(server.request_count(), 2, "one refresh attempt each");
    assert_eq!(stored(dir.path())["openai-codex"]["refresh"], "codex-r");
}
