//! The `google-generative-ai` and `google-vertex` protocols against the mock
//! server: thoughts, text, function calls, usage and cost, failures, abort,
//! HTML instead of SSE, and Vertex credentials (API key, ADC user, service account).

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use pi::ai::events::AssistantMessageEvent;
use pi::ai::model::{Model, ThinkingLevel};
use pi::ai::providers::google::vertex::GoogleVertex;
use pi::ai::stream::{ProviderRegistry, StreamOptions};
use pi::ai::types::{ContentBlock, Context, StopReason, ToolSpec};
use pi::config::config_value::Env;
use serde_json::{Value, json};
use support::llm::{collect, kinds, options, user_context};
use support::{MockReply, MockServer};

fn gemini_model(api: &str, provider: &str, base_url: &str) -> Model {
    serde_json::from_value(json!({
        "id": "gemini-2.5-pro", "name": "Gemini 2.5 Pro", "api": api, "provider": provider,
        "baseUrl": base_url, "reasoning": true, "input": ["text", "image"],
        "cost": {"input": 1.25, "output": 10.0, "cacheRead": 0.31, "cacheWrite": 0.0},
        "contextWindow": 1048576, "maxTokens": 65536
    }))
    .unwrap()
}

/// One `data:` line per chunk, as `alt=sse` streams them.
fn sse(chunks: &[Value]) -> String {
    chunks
        .iter()
        .map(|c| format!("data: {c}\r\n\r\n"))
        .collect()
}

fn full_stream() -> Vec<Value> {
    vec![
        json!({"candidates": [{"content": {"role": "model", "parts": [
            {"text": "Plan: list ", "thought": true}]}}], "responseId": "resp-g1"}),
        json!({"candidates": [{"content": {"role": "model", "parts": [
            {"text": "then read.", "thought": true, "thoughtSignature": "dGhvdWdodA=="}]}}]}),
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Let me "}]}}]}),
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "look."}]}}]}),
        json!({"candidates": [{"content": {"role": "model", "parts": [
            {"functionCall": {"name": "bash", "args": {"command": "ls"}}, "thoughtSignature": "Y2FsbA=="},
            {"functionCall": {"name": "read", "args": {"path": "a.rs"}}}]}}]}),
        json!({"candidates": [{"content": {"role": "model", "parts": []}, "finishReason": "STOP"}],
               "usageMetadata": {"promptTokenCount": 1200, "cachedContentTokenCount": 1000,
                                 "candidatesTokenCount": 30, "thoughtsTokenCount": 20,
                                 "totalTokenCount": 1250}}),
    ]
}

fn tool_context() -> Arc<Context> {
    let mut ctx = (*user_context("go")).clone();
    ctx.tools = vec![ToolSpec {
        name: "bash".into(),
        description: "Run a command".into(),
        parameters: json!({"type": "object", "properties": {"command": {"type": "string"}},
                           "required": ["command"]}),
    }];
    Arc::new(ctx)
}

#[tokio::test]
async fn thoughts_text_two_calls_and_cached_usage() {
    let server = MockServer::start();
    server.push(MockReply::sse(sse(&full_stream())).chunked(&[41]));
    let model = gemini_model(
        "google-generative-ai",
        "google",
        &format!("{}/v1beta", server.url()),
    );
    let opts = StreamOptions {
        reasoning: Some(ThinkingLevel::High),
        ..options()
    };
    let (events, msg) = collect(&model, tool_context(), opts).await;
    assert_eq!(
        msg.stop_reason,
        StopReason::ToolUse,
        "{:?}",
        msg.error_message
    );
    assert_eq!(msg.response_id.as_deref(), Some("resp-g1"));
    let ContentBlock::Thinking(t) = &msg.content[0] else {
        panic!("{:?}", msg.content)
    };
    assert_eq!(t.thinking, "Plan: list then read.");
    assert_eq!(t.thinking_signature.as_deref(), Some("dGhvdWdodA=="));
    assert_eq!(msg.text(), "Let me look.");
    let calls = msg.tool_calls();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].name, "bash");
    assert_eq!(calls[0].arguments, json!({"command": "ls"}));
    assert_eq!(calls[0].thought_signature.as_deref(), Some("Y2FsbA=="));
    assert_eq!(calls[1].arguments, json!({"path": "a.rs"}));
    assert_ne!(calls[0].id, calls[1].id);
    assert!(calls[0].id.starts_with("bash_"), "{}", calls[0].id);
    let u = &msg.usage;
    assert_eq!(
        (u.input, u.output, u.cache_read, u.total_tokens),
        (200, 50, 1000, 1250)
    );
    let expected = (200.0 * 1.25 + 50.0 * 10.0 + 1000.0 * 0.31) / 1e6;
    assert!((u.cost.total - expected).abs() < 1e-12, "{}", u.cost.total);
    let k = kinds(&events);
    assert_eq!(
        k.iter()
            .filter(|t| t.ends_with("_start"))
            .cloned()
            .collect::<Vec<_>>(),
        [
            "thinking_start",
            "text_start",
            "toolcall_start",
            "toolcall_start"
        ]
    );
    assert_eq!(k.last().map(String::as_str), Some("done"));

    let req = server.last_request().unwrap();
    assert_eq!(
        req.path,
        "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"
    );
    assert_eq!(req.header("x-goog-api-key"), Some("test-key"));
    let body = req.json();
    assert_eq!(
        body["systemInstruction"]["parts"][0]["text"],
        "You are a test."
    );
    assert_eq!(
        body["contents"][0],
        json!({"role": "user", "parts": [{"text": "go"}]})
    );
    assert_eq!(body["tools"][0]["functionDeclarations"][0]["name"], "bash");
    assert_eq!(
        body["generationConfig"]["thinkingConfig"],
        json!({"includeThoughts": true, "thinkingBudget": 32768})
    );
}

#[tokio::test]
async fn error_chunk_mid_stream_keeps_partial_text() {
    let server = MockServer::start();
    let mut chunks = full_stream()[..3].to_vec();
    chunks.push(json!({"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}));
    server.push(MockReply::sse(sse(&chunks)));
    let model = gemini_model("google-generative-ai", "google", &server.url());
    let (events, msg) = collect(&model, user_context("go"), options()).await;
    assert_eq!(msg.stop_reason, StopReason::Error);
    assert_eq!(
        msg.error_message.as_deref(),
        Some("UNAVAILABLE: The model is overloaded.")
    );
    assert_eq!(msg.text(), "Let me ");
    assert!(pi::ai::errors::is_retryable(&msg));
    assert_eq!(kinds(&events).last().map(String::as_str), Some("error"));
}

#[tokio::test]
async fn stream_ending_without_finish_reason_is_an_error_with_partial_content() {
    let server = MockServer::start();
    server.push(MockReply::sse(sse(&full_stream()[..4])));
    let model = gemini_model("google-generative-ai", "google", &server.url());
    let (_, msg) = collect(&model, user_context("go"), options()).await;
    assert_eq!(msg.stop_reason, StopReason::Error);
    assert!(
        msg.error_message
            .as_deref()
            .unwrap()
            .contains("finishReason")
    );
    assert_eq!(msg.text(), "Let me look.");
}

#[tokio::test]
async fn safety_stop_is_an_error_naming_the_reason() {
    let server = MockServer::start();
    server.push(MockReply::sse(sse(&[
        json!({"candidates": [{"content": {"parts": [{"text": "I"}]}, "finishReason": "SAFETY"}]}),
    ])));
    let model = gemini_model("google-generative-ai", "google", &server.url());
    let (_, msg) = collect(&model, user_context("go"), options()).await;
    assert_eq!(msg.stop_reason, StopReason::Error);
    assert!(msg.error_message.unwrap().contains("SAFETY"));
}

#[tokio::test]
async fn abort_mid_stream_reports_aborted() {
    let server = MockServer::start();
    server.push(
        MockReply::sse(sse(&full_stream()[..4]))
            .chunked(&[60])
            .hold_open(),
    );
    let model = gemini_model("google-generative-ai", "google", &server.url());
    let opts = options();
    let signal = opts.signal.clone();
    let mut stream = ProviderRegistry::builtin().stream(model, user_context("x"), opts);
    let mut saw_delta = false;
    while let Some(ev) = stream.next().await {
        if matches!(ev, AssistantMessageEvent::TextDelta { .. }) && !saw_delta {
            saw_delta = true;
            signal.cancel();
        }
    }
    let msg = stream.result().await;
    assert!(saw_delta);
    assert_eq!(msg.stop_reason, StopReason::Aborted);
    assert!(server.wait_for_disconnects(1, Duration::from_secs(5)));
}

#[tokio::test]
async fn html_instead_of_sse_names_status_and_first_bytes() {
    let server = MockServer::start();
    let page = "<!DOCTYPE html><html><head><title>Sign in to the proxy</title></head></html>";
    server.push(
        MockReply::status(200)
            .header("content-type", "text/html")
            .body(page),
    );
    // Without a content type the body itself gives the page away.
    server.push(MockReply::status(200).body(page));
    let model = gemini_model("google-generative-ai", "google", &server.url());
    for _ in 0..2 {
        let (_, msg) = collect(&model, user_context("go"), options()).await;
        assert_eq!(msg.stop_reason, StopReason::Error);
        let err = msg.error_message.unwrap();
        assert!(err.contains("HTML"), "{err}");
        assert!(err.contains("status 200"), "{err}");
        assert!(err.contains("Sign in to the proxy"), "{err}");
    }
}

fn vertex_registry(env: &[(&str, &str)]) -> ProviderRegistry {
    let mut registry = ProviderRegistry::default();
    registry.register(Arc::new(GoogleVertex::with_env(Env::from_pairs(env))));
    registry
}

async fn run_vertex(
    registry: &ProviderRegistry,
    model: Model,
    api_key: Option<&str>,
) -> pi::ai::types::AssistantMessage {
    let opts = StreamOptions {
        api_key: api_key.map(str::to_string),
        ..Default::default()
    };
    registry
        .stream(model, user_context("go"), opts)
        .result()
        .await
}

fn done_stream() -> String {
    sse(&[
        json!({"candidates": [{"content": {"parts": [{"text": "ok"}]}, "finishReason": "STOP"}],
                 "usageMetadata": {"promptTokenCount": 5, "candidatesTokenCount": 1, "totalTokenCount": 6}}),
    ])
}

#[tokio::test]
async fn vertex_with_api_key_uses_the_publisher_path() {
    let server = MockServer::start();
    server.push(MockReply::sse(done_stream()));
    let registry = vertex_registry(&[]);
    let model = gemini_model("google-vertex", "google-vertex", &server.url());
    let msg = run_vertex(&registry, model, Some("vertex-key")).await;
    assert_eq!(msg.text(), "ok", "{:?}", msg.error_message);
    let req = server.last_request().unwrap();
    assert_eq!(
        req.path,
        "/v1/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse"
    );
    assert_eq!(req.header("x-goog-api-key"), Some("vertex-key"));
}

#[tokio::test]
async fn vertex_streams_thoughts_text_two_calls_and_usage() {
    let server = MockServer::start();
    server.push(MockReply::sse(sse(&full_stream())));
    let registry = vertex_registry(&[]);
    let model = gemini_model("google-vertex", "google-vertex", &server.url());
    let msg = run_vertex(&registry, model, Some("vertex-key")).await;
    assert_eq!(
        msg.stop_reason,
        StopReason::ToolUse,
        "{:?}",
        msg.error_message
    );
    assert_eq!(msg.api, "google-vertex");
    assert!(
        matches!(&msg.content[0], ContentBlock::Thinking(t) if t.thinking == "Plan: list then read.")
    );
    assert_eq!(msg.text(), "Let me look.");
    assert_eq!(msg.tool_calls().len(), 2);
    let u = &msg.usage;
    assert_eq!((u.input, u.output, u.cache_read), (200, 50, 1000));
    let expected = (200.0 * 1.25 + 50.0 * 10.0 + 1000.0 * 0.31) / 1e6;
    assert!((u.cost.total - expected).abs() < 1e-12, "{}", u.cost.total);
    let body = server.last_request().unwrap().json().clone();
    assert_eq!(
        body["systemInstruction"]["parts"][0]["text"],
        "You are a test."
    );
    assert_eq!(body["contents"][0]["role"], "user");
}

#[tokio::test]
async fn vertex_adc_user_refreshes_once_and_sends_bearer_token() {
    let server = MockServer::start();
    let dir = tempfile::tempdir().unwrap();
    let adc = dir.path().join("adc.json");
    std::fs::write(
        &adc,
        json!({"type": "authorized_user", "client_id": "cid", "client_secret": "csecret",
               "refresh_token": "rtok", "token_uri": format!("{}/token", server.url())})
        .to_string(),
    )
    .unwrap();
    server.push(MockReply::json(
        200,
        json!({"access_token": "ya29.user", "expires_in": 3599}),
    ));
    server.push(MockReply::sse(done_stream()));
    server.push(MockReply::sse(done_stream()));
    let adc_path = adc.to_str().unwrap();
    let registry = vertex_registry(&[
        ("GOOGLE_APPLICATION_CREDENTIALS", adc_path),
        ("GOOGLE_CLOUD_PROJECT", "my-proj"),
        ("GOOGLE_CLOUD_LOCATION", "europe-west4"),
    ]);
    let model = gemini_model("google-vertex", "google-vertex", &server.url());
    for _ in 0..2 {
        let msg = run_vertex(&registry, model.clone(), Some("<authenticated>")).await;
        assert_eq!(msg.text(), "ok", "{:?}", msg.error_message);
    }
    let reqs = server.requests();
    assert_eq!(reqs.len(), 3, "the token is cached for the second request");
    assert_eq!(reqs[0].path, "/token");
    let form = String::from_utf8_lossy(&reqs[0].body).to_string();
    assert!(form.contains("grant_type=refresh_token"), "{form}");
    assert!(form.contains("refresh_token=rtok"), "{form}");
    assert_eq!(
        reqs[1].path,
        "/v1/projects/my-proj/locations/europe-west4/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse"
    );
    assert_eq!(reqs[1].header("authorization"), Some("Bearer ya29.user"));
}

#[tokio::test]
async fn vertex_service_account_signs_a_verifiable_jwt_grant() {
    let server = MockServer::start();
    let dir = tempfile::tempdir().unwrap();
    let pem = std::fs::read_to_string("tests/fixtures/test-service-account-key.pem").unwrap();
    let token_uri = format!("{}/oauth2/token", server.url());
    let key_file = dir.path().join("sa.json");
    std::fs::write(
        &key_file,
        json!({"type": "service_account", "client_email": "bot@proj.iam.gserviceaccount.com",
               "private_key": pem, "token_uri": token_uri})
        .to_string(),
    )
    .unwrap();
    server.push(MockReply::json(
        200,
        json!({"access_token": "ya29.sa", "expires_in": 3600}),
    ));
    server.push(MockReply::sse(done_stream()));
    let registry = vertex_registry(&[
        ("GOOGLE_APPLICATION_CREDENTIALS", key_file.to_str().unwrap()),
        ("GCLOUD_PROJECT", "p2"),
        ("GOOGLE_CLOUD_LOCATION", "us-central1"),
    ]);
    let model = gemini_model("google-vertex", "google-vertex", &server.url());
    let msg = run_vertex(&registry, model, None).await;
    assert_eq!(msg.text(), "ok", "{:?}", msg.error_message);
    let reqs = server.requests();
    let form: Vec<(String, String)> = url::form_urlencoded::parse(&reqs[0].body)
        .into_owned()
        .collect();
    assert_eq!(form[0].1, "urn:ietf:params:oauth:grant-type:jwt-bearer");
    let jwt = &form[1].1;
    let (signed, signature) = jwt.rsplit_once('.').unwrap();
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let claims: Value =
        serde_json::from_slice(&b64.decode(signed.split('.').nth(1).unwrap()).unwrap()).unwrap();
    assert_eq!(claims["iss"], "bot@proj.iam.gserviceaccount.com");
    assert_eq!(claims["aud"], token_uri);
    // The signature verifies with the key's public half.
    let der: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
    let der = base64::engine::general_purpose::STANDARD
        .decode(der)
        .unwrap();
    let pair = ring::signature::RsaKeyPair::from_pkcs8(&der).unwrap();
    let public = ring::signature::UnparsedPublicKey::new(
        &ring::signature::RSA_PKCS1_2048_8192_SHA256,
        ring::signature::KeyPair::public_key(&pair)
            .as_ref()
            .to_vec(),
    );
    public
        .verify(signed.as_bytes(), &b64.decode(signature).unwrap())
        .unwrap();
    assert_eq!(reqs[1].header("authorization"), Some("Bearer ya29.sa"));
    assert!(
        reqs[1]
            .path
            .starts_with("/v1/projects/p2/locations/us-central1/")
    );
}

#[tokio::test]
async fn vertex_without_project_or_credentials_says_what_to_set() {
    let registry = vertex_registry(&[("GOOGLE_CLOUD_LOCATION", "us-central1")]);
    let model = gemini_model("google-vertex", "google-vertex", "http://127.0.0.1:9");
    let msg = run_vertex(&registry, model.clone(), None).await;
    assert!(msg.error_message.unwrap().contains("GOOGLE_CLOUD_PROJECT"));
    let registry = vertex_registry(&[
        ("GOOGLE_CLOUD_PROJECT", "p"),
        ("GOOGLE_CLOUD_LOCATION", "us-central1"),
        ("GOOGLE_APPLICATION_CREDENTIALS", "/nonexistent/adc.json"),
    ]);
    let err = run_vertex(&registry, model, None)
        .await
        .error_message
        .unwrap();
    assert!(
        err.contains("gcloud auth application-default login"),
        "{err}"
    );
}
