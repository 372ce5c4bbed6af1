//! Antigravity login and requests against a mock authorization server and a
//! mock Cloud Code Assist: PKCE and the callback, the token exchange, project
//! discovery with its fallbacks, Antigravity's headers and request markers,
//! refresh and logout; plus the retry of Code Assist streams that end empty.

use crate::support;
use crate::support::pi_cli;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use pi::ai::oauth::Endpoints;
use pi::ai::oauth::google_antigravity::{self, DEFAULT_PROJECT};
use pi::ai::oauth::login::{LoginUi, logout, save_login};
use pi::ai::oauth::pkce::s256_challenge;
use pi::ai::stream::StreamOptions;
use pi::ai::types::{Context, Message, StopReason, ToolSpec, UserMessage, now_ms};
use pi_cli::PiSandbox;
use serde_json::{Value, json};
use support::llm::{collect, kinds};
use support::{CapturedRequest, MockReply, MockServer};
use tokio::sync::mpsc;

struct Browser {
    shown: mpsc::UnboundedSender<String>,
}

#[async_trait]
impl LoginUi for Browser {
    fn show_auth(&self, url: &str, _instructions: &str) {
        let _ = self.shown.send(url.to_string());
    }
    fn progress(&self, _message: &str) {}
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

fn read_auth(dir: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("auth.json")).unwrap()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn antigravity_login_exchanges_the_code_finds_the_project_and_logs_out() {
    let server = MockServer::start();
    let lookups = Arc::new(Mutex::new(0));
    let seen = lookups.clone();
    server.set_handler(move |req: &CapturedRequest| match req.path.as_str() {
        "/token" => MockReply::json(
            200,
            json!({"access_token": "ya29.ag", "refresh_token": "1//ag", "expires_in": 3599}),
        ),
        "/oauth2/v1/userinfo?alt=json" => MockReply::json(200, json!({"email": "me@example.com"})),
        "/v1internal:loadCodeAssist" => {
            let mut n = seen.lock().unwrap();
            *n += 1;
            // Production fails; the sandbox knows the project.
            if *n == 1 {
                MockReply::status(503)
            } else {
                MockReply::json(200, json!({"cloudaicompanionProject": "ag-proj-7"}))
            }
        }
        _ => MockReply::status(404),
    });
    let endpoints = Endpoints::local(&server.url());
    let (shown, mut urls) = mpsc::unbounded_channel();
    let ui = Browser { shown };
    let login = google_antigravity::login(&endpoints, &ui);
    let browser = async {
        let url = urls.recv().await.unwrap();
        assert!(url.starts_with(&format!("{}/o/oauth2/v2/auth?", server.url())));
        let q = query(&url);
        assert_eq!(q["client_id"], google_antigravity::client_id());
        assert_ne!(
            q["client_id"],
            pi::ai::oauth::google_gemini_cli::client_id()
        );
        assert_eq!(q["code_challenge_method"], "S256");
        assert_eq!(q["access_type"], "offline");
        assert!(q["scope"].contains("auth/cclog"), "{}", q["scope"]);
        assert!(q["scope"].contains("auth/experimentsandconfigs"));
        let redirect = q["redirect_uri"].clone();
        assert!(redirect.ends_with("/oauth-callback"), "{redirect}");
        let callback = redirect.replace("localhost", "127.0.0.1");
        let client = pi::ai::http::client();
        let forged = client
            .get(format!("{callback}?code=evil&state=wrong"))
            .send()
            .await
            .unwrap();
        assert_eq!(forged.status().as_u16(), 400);
        let ok = client
            .get(format!("{callback}?code=4/ag-code&state={}", q["state"]))
            .send()
            .await
            .unwrap();
        assert_eq!(ok.status().as_u16(), 200);
        q
    };
    let (credential, q) = tokio::join!(login, browser);
    let credential = credential.unwrap();
    assert_eq!(credential.access, "ya29.ag");
    assert_eq!(credential.refresh, "1//ag");
    assert_eq!(credential.extra["projectId"], "ag-proj-7");
    assert_eq!(credential.extra["email"], "me@example.com");

    let requests = server.requests();
    let paths: Vec<&str> = requests.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "/token",
            "/oauth2/v1/userinfo?alt=json",
            "/v1internal:loadCodeAssist",
            "/v1internal:loadCodeAssist"
        ]
    );
    let exchange = form(&requests[0].body);
    assert_eq!(exchange["grant_type"], "authorization_code");
    assert_eq!(exchange["code"], "4/ag-code");
    assert_eq!(exchange["client_id"], google_antigravity::client_id());
    assert_eq!(exchange["redirect_uri"], q["redirect_uri"]);
    assert!(exchange["client_secret"].starts_with("GOCSPX-"));
    assert_eq!(
        s256_challenge(&exchange["code_verifier"]),
        q["code_challenge"]
    );
    assert_eq!(requests[1].header("authorization"), Some("Bearer ya29.ag"));
    assert_eq!(requests[2].header("authorization"), Some("Bearer ya29.ag"));
    assert_eq!(requests[2].json()["metadata"]["pluginType"], "GEMINI");

    let dir = tempfile::tempdir().unwrap();
    save_login(dir.path(), "google-antigravity", credential).unwrap();
    let stored = read_auth(dir.path());
    assert_eq!(stored["google-antigravity"]["type"], "oauth");
    assert_eq!(stored["google-antigravity"]["projectId"], "ag-proj-7");
    assert!(logout(dir.path(), "google-antigravity").unwrap());
    assert!(read_auth(dir.path()).get("google-antigravity").is_none());
}

#[tokio::test]
async fn antigravity_uses_its_shared_project_when_the_account_has_none() {
    let server = MockServer::start();
    server.push(MockReply::json(
        200,
        json!({"currentTier": {"id": "free-tier"}}),
    ));
    server.push(MockReply::status(403));
    let endpoints = Endpoints::local(&server.url());
    let (shown, _urls) = mpsc::unbounded_channel();
    let project = google_antigravity::discover_project(&endpoints, "tok", &Browser { shown }).await;
    assert_eq!(project, DEFAULT_PROJECT);
    assert_eq!(server.requests().len(), 2, "production, then the sandbox");
}

fn reply(text: &str) -> String {
    let chunk = json!({"response": {"candidates": [{"content": {"role": "model",
        "parts": [{"text": text}]}, "finishReason": "STOP"}],
        "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 2, "totalTokenCount": 5}}});
    format!("data: {chunk}\r\n\r\n")
}

fn model(provider: &str, id: &str, base_url: &str) -> pi::ai::model::Model {
    serde_json::from_value(json!({
        "id": id, "name": id, "api": "google-gemini-cli", "provider": provider,
        "baseUrl": base_url, "reasoning": true, "input": ["text"],
        "cost": {"input": 0.0, "output": 0.0, "cacheRead": 0.0, "cacheWrite": 0.0},
        "contextWindow": 200000, "maxTokens": 64000
    }))
    .unwrap()
}

fn key() -> Option<String> {
    Some(json!({"token": "ya29.t", "projectId": "ag-proj"}).to_string())
}

#[tokio::test]
async fn antigravity_requests_carry_its_headers_and_markers() {
    let server = MockServer::start();
    server.push(MockReply::sse(reply("hi")));
    let ctx = Arc::new(Context {
        system_prompt: Some("You are pi.".into()),
        messages: vec![Message::User(UserMessage::text("go"))],
        tools: vec![ToolSpec {
            name: "bash".into(),
            description: "Run".into(),
            parameters: json!({"type": "object", "properties": {"command": {"type": "string"}}}),
        }],
    });
    let opts = StreamOptions {
        api_key: key(),
        ..Default::default()
    };
    let m = model(
        "google-antigravity",
        "claude-sonnet-4-5-thinking",
        &server.url(),
    );
    let (_, msg) = collect(&m, ctx, opts).await;
    assert_eq!(msg.stop_reason, StopReason::Stop, "{:?}", msg.error_message);
    assert_eq!(msg.text(), "hi");

    let req = server.last_request().unwrap();
    assert_eq!(req.path, "/v1internal:streamGenerateContent?alt=sse");
    assert_eq!(req.header("authorization"), Some("Bearer ya29.t"));
    assert_eq!(
        req.header("user-agent"),
        Some("antigravity/1.18.4 darwin/arm64")
    );
    assert_eq!(
        req.header("anthropic-beta"),
        Some("interleaved-thinking-2025-05-14")
    );
    assert_eq!(req.header("client-metadata"), None);
    let body = req.json();
    assert_eq!(body["project"], "ag-proj");
    assert_eq!(body["model"], "claude-sonnet-4-5-thinking");
    assert_eq!(body["requestType"], "agent");
    assert_eq!(body["userAgent"], "antigravity");
    assert!(body["requestId"].as_str().unwrap().starts_with("agent-"));
    let system = &body["request"]["systemInstruction"];
    assert_eq!(system["role"], "user");
    let parts = system["parts"].as_array().unwrap();
    assert!(
        parts[0]["text"]
            .as_str()
            .unwrap()
            .starts_with("You are Antigravity")
    );
    assert_eq!(parts.last().unwrap()["text"], "You are pi.");
    let decl = &body["request"]["tools"][0]["functionDeclarations"][0];
    assert_eq!(decl["name"], "bash");
    assert_eq!(
        decl["parameters"]["type"], "object",
        "Claude takes `parameters`"
    );
    assert!(decl.get("parametersJsonSchema").is_none());
}

#[tokio::test]
async fn empty_code_assist_streams_are_asked_for_again() {
    let server = MockServer::start();
    server.push(MockReply::sse(""));
    server.push(MockReply::sse(reply("second time")));
    let opts = StreamOptions {
        api_key: key(),
        ..Default::default()
    };
    let m = model("google-gemini-cli", "gemini-2.5-pro", &server.url());
    let ctx = support::llm::user_context("go");
    let (events, msg) = collect(&m, ctx, opts).await;
    assert_eq!(msg.stop_reason, StopReason::Stop, "{:?}", msg.error_message);
    assert_eq!(msg.text(), "second time");
    assert_eq!(server.requests().len(), 2);
    let starts = kinds(&events).iter().filter(|k| *k == "start").count();
    assert_eq!(starts, 1, "one start for both requests");
}

#[tokio::test]
async fn code_assist_streams_that_stay_empty_end_in_an_error() {
    let server = MockServer::start();
    for _ in 0..3 {
        server.push(MockReply::sse(""));
    }
    server.push(MockReply::sse(reply("too late")));
    let opts = StreamOptions {
        api_key: key(),
        ..Default::default()
    };
    let m = model("google-antigravity", "gemini-3-flash", &server.url());
    let (_, msg) = collect(&m, support::llm::user_context("go"), opts).await;
    assert_eq!(msg.stop_reason, StopReason::Error);
    let error = msg.error_message.unwrap_or_default();
    assert!(error.contains("empty response"), "{error}");
    assert_eq!(
        server.requests().len(),
        3,
        "the first request and two retries"
    );
}

#[test]
fn pi_refreshes_a_stored_antigravity_login_and_sends_the_configured_version() {
    let server = MockServer::start();
    server.set_handler(|req: &CapturedRequest| match req.path.as_str() {
        "/token" => MockReply::json(200, json!({"access_token": "ya29.new", "expires_in": 3599})),
        _ => MockReply::sse(reply("hello from antigravity")),
    });
    let mut sandbox = PiSandbox::new();
    sandbox.write_agent_file(
        "models.json",
        &json!({"providers": {"google-antigravity": {"baseUrl": server.url()}}}).to_string(),
    );
    sandbox.write_agent_file(
        "auth.json",
        &json!({"google-antigravity": {"type": "oauth", "access": "ya29.old", "refresh": "1//keep",
                "expires": now_ms() - 1000, "projectId": "ag-stored"}})
        .to_string(),
    );
    sandbox.env.push(("PI_OAUTH_SERVER".into(), server.url()));
    sandbox
        .env
        .push(("PI_AI_ANTIGRAVITY_VERSION".into(), "2.0.1".into()));
    let args = [
        "--provider",
        "google-antigravity",
        "--model",
        "gemini-3.1-pro-high",
    ];
    let out = sandbox.run(&[&args[..], &["--no-tools", "-p", "hi"]].concat(), None);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "hello from antigravity\n",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let requests = server.requests();
    let paths: Vec<&str> = requests.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(
        paths,
        ["/token", "/v1internal:streamGenerateContent?alt=sse"]
    );
    let refresh = form(&requests[0].body);
    assert_eq!(refresh["grant_type"], "refresh_token");
    assert_eq!(refresh["refresh_token"], "1//keep");
    assert_eq!(refresh["client_id"], google_antigravity::client_id());
    let stream = &requests[1];
    assert_eq!(stream.header("authorization"), Some("Bearer ya29.new"));
    assert_eq!(
        stream.header("user-agent"),
        Some("antigravity/2.0.1 darwin/arm64")
    );
    assert_eq!(stream.json()["project"], "ag-stored");
    assert_eq!(stream.json()["model"], "gemini-3.1-pro-high");
    let stored = read_auth(&sandbox.agent_dir);
    assert_eq!(stored["google-antigravity"]["access"], "ya29.new");
    assert_eq!(stored["google-antigravity"]["projectId"], "ag-stored");
}
