//! Google login (Gemini CLI style) against a mock authorization server and a
//! mock Cloud Code Assist: PKCE and the browser callback, the token exchange,
//! project discovery and provisioning, then streaming through
//! `v1internal:streamGenerateContent` with a stored, refreshed login.

use crate::support;
use crate::support::pi_cli;

use std::collections::HashMap;
use std::sync::Mutex;

use async_trait::async_trait;
use pi::ai::oauth::Endpoints;
use pi::ai::oauth::google_gemini_cli::{self, discover_project};
use pi::ai::oauth::login::LoginUi;
use pi::ai::oauth::pkce::s256_challenge;
use pi::ai::stream::StreamOptions;
use pi::ai::types::{Context, Message, StopReason, ToolSpec, UserMessage, now_ms};
use pi_cli::PiSandbox;
use serde_json::{Value, json};
use support::llm::collect;
use support::{CapturedRequest, MockReply, MockServer};
use tokio::sync::mpsc;

struct Browser {
    shown: mpsc::UnboundedSender<String>,
    progress: Mutex<Vec<String>>,
}

#[async_trait]
impl LoginUi for Browser {
    fn show_auth(&self, url: &str, _instructions: &str) {
        let _ = self.shown.send(url.to_string());
    }
    fn progress(&self, message: &str) {
        self.progress.lock().unwrap().push(message.to_string());
    }
    async fn prompt(&self, _message: &str) -> Result<String, pi::ai::oauth::OAuthError> {
        std::future::pending().await
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

fn paths(server: &MockServer) -> Vec<String> {
    server.requests().into_iter().map(|r| r.path).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn login_exchanges_the_code_and_provisions_a_free_tier_project() {
    let server = MockServer::start();
    server.set_handler(|req: &CapturedRequest| match req.path.as_str() {
        "/token" => MockReply::json(
            200,
            json!({"access_token": "ya29.a", "refresh_token": "1//r", "expires_in": 3599}),
        ),
        "/v1internal:loadCodeAssist" => MockReply::json(
            200,
            json!({"allowedTiers": [{"id": "legacy-tier"}, {"id": "free-tier", "isDefault": true}]}),
        ),
        "/v1internal:onboardUser" => {
            MockReply::json(200, json!({"name": "operations/op-1", "done": false}))
        }
        "/v1internal/operations/op-1" => MockReply::json(
            200,
            json!({"name": "operations/op-1", "done": true,
                   "response": {"cloudaicompanionProject": {"id": "proj-free-42"}}}),
        ),
        _ => MockReply::status(404),
    });
    let endpoints = Endpoints::local(&server.url());
    let (shown, mut urls) = mpsc::unbounded_channel();
    let ui = Browser {
        shown,
        progress: Mutex::default(),
    };
    let login = google_gemini_cli::login(&endpoints, &ui);
    let browser = async {
        let url = urls.recv().await.unwrap();
        assert!(url.starts_with(&format!("{}/o/oauth2/v2/auth?", server.url())));
        let q = query(&url);
        assert_eq!(q["client_id"], google_gemini_cli::client_id());
        assert_eq!(q["code_challenge_method"], "S256");
        assert_eq!(q["access_type"], "offline");
        assert_eq!(q["prompt"], "consent");
        assert!(q["scope"].contains("auth/cloud-platform"));
        let redirect = q["redirect_uri"].clone();
        assert!(redirect.ends_with("/oauth2callback"), "{redirect}");
        let callback = redirect.replace("localhost", "127.0.0.1");
        let client = pi::ai::http::client();
        let forged = client
            .get(format!("{callback}?code=evil&state=wrong"))
            .send()
            .await
            .unwrap();
        assert_eq!(forged.status().as_u16(), 400);
        let ok = client
            .get(format!("{callback}?code=4/the-code&state={}", q["state"]))
            .send()
            .await
            .unwrap();
        assert_eq!(ok.status().as_u16(), 200);
        q
    };
    let (credential, q) = tokio::join!(login, browser);
    let credential = credential.unwrap();
    assert_eq!(credential.access, "ya29.a");
    assert_eq!(credential.refresh, "1//r");
    assert_eq!(credential.extra["projectId"], "proj-free-42");

    assert_eq!(
        paths(&server),
        [
            "/token",
            "/v1internal:loadCodeAssist",
            "/v1internal:onboardUser",
            "/v1internal/operations/op-1"
        ]
    );
    let requests = server.requests();
    let exchange = form(&requests[0].body);
    assert_eq!(exchange["grant_type"], "authorization_code");
    assert_eq!(exchange["code"], "4/the-code");
    assert_eq!(exchange["redirect_uri"], q["redirect_uri"]);
    assert!(exchange["client_secret"].starts_with("GOCSPX-"));
    assert_eq!(
        s256_challenge(&exchange["code_verifier"]),
        q["code_challenge"]
    );
    assert_eq!(requests[1].header("authorization"), Some("Bearer ya29.a"));
    assert_eq!(requests[1].json()["metadata"]["pluginType"], "GEMINI");
    assert_eq!(requests[2].json()["tierId"], "free-tier");
    assert!(requests[2].json().get("cloudaicompanionProject").is_none());
}

#[tokio::test]
async fn existing_projects_are_found_and_workspace_accounts_need_one() {
    let server = MockServer::start();
    server.push(MockReply::json(
        200,
        json!({"currentTier": {"id": "standard-tier"}, "cloudaicompanionProject": "proj-existing"}),
    ));
    server.push(MockReply::json(
        200,
        json!({"allowedTiers": [{"id": "standard-tier", "isDefault": true}]}),
    ));
    server.push(MockReply::json(
        200,
        json!({"allowedTiers": [{"id": "standard-tier", "isDefault": true}]}),
    ));
    server.push(MockReply::json(
        200,
        json!({"name": "operations/x", "done": true,
               "response": {"cloudaicompanionProject": {"id": "my-proj"}}}),
    ));
    let endpoints = Endpoints::local(&server.url());
    let (shown, _urls) = mpsc::unbounded_channel();
    let ui = Browser {
        shown,
        progress: Mutex::default(),
    };
    let found = discover_project(&endpoints, "tok", None, &ui)
        .await
        .unwrap();
    assert_eq!(found, "proj-existing");

    let err = discover_project(&endpoints, "tok", None, &ui)
        .await
        .unwrap_err();
    assert!(
        matches!(err, pi::ai::oauth::OAuthError::NeedsCloudProject { .. }),
        "{err:?}"
    );
    let err = err.to_string();
    assert!(err.contains("GOOGLE_CLOUD_PROJECT"), "{err}");

    let named = discover_project(&endpoints, "tok", Some("my-proj".into()), &ui)
        .await
        .unwrap();
    assert_eq!(named, "my-proj");
    let onboard = server.last_request().unwrap();
    assert_eq!(onboard.path, "/v1internal:onboardUser");
    assert_eq!(onboard.json()["cloudaicompanionProject"], "my-proj");
    assert_eq!(onboard.json()["metadata"]["duetProject"], "my-proj");
}

/// One SSE event per wrapped Gemini chunk, as Cloud Code Assist streams them.
fn wrapped_stream() -> String {
    let chunks = [
        json!({"candidates": [{"content": {"role": "model", "parts": [
            {"text": "Plan.", "thought": true, "thoughtSignature": "c2ln"}]}}]}),
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Looking."}]}}]}),
        json!({"candidates": [{"content": {"role": "model", "parts": [
            {"functionCall": {"name": "bash", "args": {"command": "ls"}}},
            {"functionCall": {"name": "bash", "args": {"command": "pwd"}}}]}}]}),
        json!({"candidates": [{"content": {"role": "model", "parts": []}, "finishReason": "STOP"}],
               "usageMetadata": {"promptTokenCount": 100, "candidatesTokenCount": 20,
                                 "thoughtsTokenCount": 5, "totalTokenCount": 125}}),
    ];
    chunks
        .iter()
        .map(|c| format!("data: {}\r\n\r\n", json!({"response": c, "traceId": "t1"})))
        .collect()
}

fn code_assist_model(base_url: &str) -> pi::ai::model::Model {
    serde_json::from_value(json!({
        "id": "gemini-2.5-pro", "name": "Gemini 2.5 Pro", "api": "google-gemini-cli",
        "provider": "google-gemini-cli", "baseUrl": base_url, "reasoning": true,
        "input": ["text", "image"], "cost": {"input": 1.0, "output": 2.0, "cacheRead": 0.0, "cacheWrite": 0.0},
        "contextWindow": 1048576, "maxTokens": 65536
    }))
    .unwrap()
}

#[tokio::test]
async fn code_assist_stream_wraps_request_and_unwraps_chunks() {
    let server = MockServer::start();
    server.push(MockReply::sse(wrapped_stream()));
    let ctx = std::sync::Arc::new(Context {
        system_prompt: Some("You are pi.".into()),
        messages: vec![Message::User(UserMessage::text("go"))],
        tools: vec![ToolSpec {
            name: "bash".into(),
            description: "Run".into(),
            parameters: json!({"type": "object", "properties": {"command": {"type": "string"}}}),
        }],
    });
    let opts = StreamOptions {
        api_key: Some(json!({"token": "ya29.t", "projectId": "proj-9"}).to_string()),
        reasoning: Some(pi::ai::model::ThinkingLevel::Medium),
        ..Default::default()
    };
    let (_, msg) = collect(&code_assist_model(&server.url()), ctx, opts).await;
    assert_eq!(
        msg.stop_reason,
        StopReason::ToolUse,
        "{:?}",
        msg.error_message
    );
    assert_eq!(msg.text(), "Looking.");
    let calls = msg.tool_calls();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[1].arguments, json!({"command": "pwd"}));
    assert_eq!((msg.usage.input, msg.usage.output), (100, 25));
    assert!((msg.usage.cost.total - (100.0 + 25.0 * 2.0) / 1e6).abs() < 1e-12);

    let req = server.last_request().unwrap();
    assert_eq!(req.path, "/v1internal:streamGenerateContent?alt=sse");
    assert_eq!(req.header("authorization"), Some("Bearer ya29.t"));
    let metadata: Value = serde_json::from_str(req.header("client-metadata").unwrap()).unwrap();
    assert_eq!(metadata["pluginType"], "GEMINI");
    let body = req.json();
    assert_eq!(body["project"], "proj-9");
    assert_eq!(body["model"], "gemini-2.5-pro");
    assert_eq!(body["userAgent"], "pi-coding-agent");
    assert!(body["requestId"].as_str().unwrap().starts_with("pi-"));
    let request = &body["request"];
    assert_eq!(
        request["systemInstruction"]["parts"][0]["text"],
        "You are pi."
    );
    assert_eq!(request["contents"][0]["role"], "user");
    assert_eq!(
        request["tools"][0]["functionDeclarations"][0]["name"],
        "bash"
    );
    assert_eq!(
        request["generationConfig"]["thinkingConfig"]["includeThoughts"],
        true
    );
}

#[test]
fn pi_refreshes_a_stored_google_login_and_keeps_its_project() {
    let server = MockServer::start();
    server.set_handler(|req: &CapturedRequest| match req.path.as_str() {
        "/token" => MockReply::json(200, json!({"access_token": "ya29.new", "expires_in": 3599})),
        _ => MockReply::sse(format!(
            "data: {}\r\n\r\n",
            json!({"response": {"candidates": [{"content": {"role": "model",
                "parts": [{"text": "hello from gemini"}]}, "finishReason": "STOP"}]}})
        )),
    });
    let mut sandbox = PiSandbox::new();
    sandbox.write_agent_file(
        "models.json",
        &json!({"providers": {"google-gemini-cli": {"baseUrl": server.url()}}}).to_string(),
    );
    sandbox.write_agent_file(
        "auth.json",
        &json!({"google-gemini-cli": {"type": "oauth", "access": "ya29.old", "refresh": "1//keep",
                "expires": now_ms() - 1000, "projectId": "proj-stored"}})
        .to_string(),
    );
    sandbox.env.push(("PI_OAUTH_SERVER".into(), server.url()));
    let out = sandbox.run(
        &[
            "--provider",
            "google-gemini-cli",
            "--model",
            "gemini-2.5-pro",
            "--no-tools",
            "-p",
            "hi",
        ],
        None,
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "hello from gemini\n");
    let requests = server.requests();
    assert_eq!(
        requests.iter().map(|r| r.path.as_str()).collect::<Vec<_>>(),
        ["/token", "/v1internal:streamGenerateContent?alt=sse"],
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let refresh = form(&requests[0].body);
    assert_eq!(refresh["grant_type"], "refresh_token");
    assert_eq!(refresh["refresh_token"], "1//keep");
    assert_eq!(requests[1].header("authorization"), Some("Bearer ya29.new"));
    assert_eq!(requests[1].json()["project"], "proj-stored");
    let stored: Value = serde_json::from_str(
        &std::fs::read_to_string(sandbox.agent_dir.join("auth.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(stored["google-gemini-cli"]["access"], "ya29.new");
    assert_eq!(stored["google-gemini-cli"]["refresh"], "1//keep");
    assert_eq!(stored["google-gemini-cli"]["projectId"], "proj-stored");
}
