//! Ollama and LM Studio: no API key, models listed from the running local
//! server (mock servers on 127.0.0.1), requests shaped for local servers.

use crate::support;
use crate::support::pi_cli;

use pi_cli::PiSandbox;
use serde_json::json;
use support::{CapturedRequest, MockReply, MockServer};

/// A sandbox that may probe local servers, whose `provider` lives at `base`.
fn sandbox(provider: &str, base: &str) -> PiSandbox {
    let mut sandbox = PiSandbox::new();
    sandbox.env.push(("PI_OFFLINE".into(), "0".into()));
    sandbox.write_agent_file(
        "models.json",
        &json!({"providers": {provider: {"baseUrl": base}}}).to_string(),
    );
    sandbox
}

#[test]
fn ollama_models_come_from_the_running_server_and_need_no_key() {
    let server = MockServer::start();
    server.set_handler(|req: &CapturedRequest| match req.path.as_str() {
        "/api/tags" => MockReply::json(
            200,
            json!({"models": [{"name": "qwen3:8b", "model": "qwen3:8b"},
                              {"name": "nomic-embed-text:latest", "model": "nomic-embed-text:latest"}]}),
        ),
        _ => MockReply::openai_text("hello from ollama"),
    });
    let sb = sandbox("ollama", &format!("{}/v1", server.url()));
    let out = sb.run(&["--list-models", "ollama"], None);
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{listed}");
    assert!(listed.contains("qwen3:8b"), "{listed}");
    assert!(!listed.contains("embed"), "{listed}");

    let out = sb.run(
        &["--provider", "ollama", "--model", "qwen3:8b", "-p", "hi"],
        None,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout, "hello from ollama\n");
    let chat = server.last_request().unwrap();
    assert_eq!(chat.path, "/v1/chat/completions");
    let body = chat.json();
    assert_eq!(body["model"], "qwen3:8b");
    assert_eq!(body["messages"][0]["role"], "system");
    assert!(body.get("max_tokens").is_some(), "{body}");
    assert!(body.get("store").is_none(), "{body}");
}

#[test]
fn lm_studio_models_come_from_v1_models() {
    let server = MockServer::start();
    server.set_handler(|req: &CapturedRequest| match req.path.as_str() {
        "/v1/models" => MockReply::json(
            200,
            json!({"object": "list", "data": [{"id": "google/gemma-3-12b", "object": "model"}]}),
        ),
        _ => MockReply::openai_text("hello from lm studio"),
    });
    let sb = sandbox("lm-studio", &format!("{}/v1", server.url()));
    let out = sb.run(
        &[
            "--provider",
            "lm-studio",
            "--model",
            "google/gemma-3-12b",
            "-p",
            "hi",
        ],
        None,
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "hello from lm studio\n",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let paths: Vec<String> = server.requests().into_iter().map(|r| r.path).collect();
    assert_eq!(paths, ["/v1/models", "/v1/chat/completions"]);
}

#[test]
fn no_server_and_offline_mode_list_no_local_models() {
    let server = MockServer::start();
    server.set_handler(|_: &CapturedRequest| {
        MockReply::json(200, json!({"models": [{"name": "qwen3:8b"}]}))
    });
    // Offline: the running server is never asked.
    let mut sb = sandbox("ollama", &format!("{}/v1", server.url()));
    sb.env.push(("PI_OFFLINE".into(), "1".into()));
    let out = sb.run(&["--list-models", "ollama"], None);
    assert!(!String::from_utf8_lossy(&out.stdout).contains("qwen3"));
    assert_eq!(server.request_count(), 0);

    // Nothing listening: pi goes on at once without local models.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let sb = sandbox("ollama", &format!("http://127.0.0.1:{port}/v1"));
    let started = std::time::Instant::now();
    let out = sb.run(&["--list-models", "ollama"], None);
    assert!(out.status.success());
    assert!(!String::from_utf8_lossy(&out.stdout).contains("ollama "));
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
}

/// A listener standing in for a local model server that must not be asked:
/// nothing accepts its connections, so each one waits in its backlog.
fn tripwire() -> (std::net::TcpListener, String) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let host = listener.local_addr().unwrap().to_string();
    (listener, host)
}

fn was_contacted(listener: &std::net::TcpListener) -> bool {
    match listener.accept() {
        Ok(_) => true,
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => false,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn a_print_turn_with_only_http_providers_connects_to_the_provider_alone() {
    let server = MockServer::start();
    server.push(MockReply::openai_text("hello from the provider"));
    let (ollama, ollama_host) = tripwire();
    let (lm_studio, lm_studio_host) = tripwire();
    let mut sb = PiSandbox::with_mock(&server, "openai-completions");
    sb.env.push(("PI_OFFLINE".into(), "0".into()));
    sb.env.push(("OLLAMA_HOST".into(), ollama_host));
    sb.env.push(("LM_STUDIO_HOST".into(), lm_studio_host));

    let out = sb.run(&["--model", "mock/mock-model", "-p", "hi"], None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "hello from the provider\n"
    );
    assert_eq!(server.request_count(), 1);
    assert!(!was_contacted(&ollama), "the Ollama port was contacted");
    assert!(
        !was_contacted(&lm_studio),
        "the LM Studio port was contacted"
    );

    // The same environment does reach both ports when the model list is wanted.
    let out = sb.run(&["--list-models"], None);
    assert!(out.status.success());
    assert!(was_contacted(&ollama), "listing models did not ask Ollama");
    assert!(
        was_contacted(&lm_studio),
        "listing models did not ask LM Studio"
    );
}

#[test]
fn naming_a_local_model_asks_its_server_before_the_turn() {
    let server = MockServer::start();
    server.set_handler(|req: &CapturedRequest| match req.path.as_str() {
        "/api/tags" => MockReply::json(200, json!({"models": [{"name": "qwen3:8b"}]})),
        _ => MockReply::openai_text("from the local model"),
    });
    // models.json configures Ollama; `--model ollama/...` needs its answer first.
    let sb = sandbox("ollama", &format!("{}/v1", server.url()));
    let out = sb.run(&["--model", "ollama/qwen3:8b", "-p", "hi"], None);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "from the local model\n",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Ollama is asked on both of its addresses at once (`/api/tags`, `/v1/models`).
    let paths: Vec<String> = server
        .requests()
        .into_iter()
        .map(|r| r.path)
        .filter(|p| p != "/v1/models")
        .collect();
    assert_eq!(paths, ["/api/tags", "/v1/chat/completions"]);
}
