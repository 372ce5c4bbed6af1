//! Providers registered from Lua behave like built-in ones: `--list-models` lists them,
//! `--model` selects them, their apiKey authenticates requests, and RPC offers and sets
//! them.

use serde_json::json;

use crate::support::pi_cli::PiSandbox;
use crate::support::rpc_client::RpcClient;
use crate::support::{MockReply, MockServer};

/// An extension registering the provider `lua-mock` (one model, `lua-model`) that speaks
/// Chat Completions to `server` with the key `lua-key`.
fn provider_extension(sandbox: &PiSandbox, server: &MockServer) -> String {
    let source = format!(
        "return function(pi)\n  pi.registerProvider(\"lua-mock\", {{\n    \
         baseUrl = \"{}\", api = \"openai-completions\", apiKey = \"lua-key\",\n    \
         models = {{ {{ id = \"lua-model\", name = \"Lua Model\", contextWindow = 64000, \
         maxTokens = 2048 }} }},\n  }})\nend\n",
        server.openai_base_url()
    );
    let path = sandbox.project.join("provider.lua");
    std::fs::write(&path, source).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn list_models_shows_a_provider_registered_from_lua() {
    let server = MockServer::start();
    let sandbox = PiSandbox::new();
    let ext = provider_extension(&sandbox, &server);
    let out = sandbox.run(&["-e", &ext, "--list-models", "lua"], None);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("lua-mock") && stdout.contains("lua-model"),
        "{stdout}"
    );
}

#[test]
fn model_flag_selects_it_and_its_key_authenticates_the_request() {
    let server = MockServer::start();
    server.push(MockReply::openai_text("from the Lua provider"));
    let sandbox = PiSandbox::new();
    let ext = provider_extension(&sandbox, &server);
    let out = sandbox.run(
        &["-e", &ext, "--model", "lua-mock/lua-model", "-p", "hi"],
        None,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("from the Lua provider"), "{stdout}");
    let request = server
        .last_request()
        .expect("a request reached the provider");
    assert_eq!(request.header("authorization"), Some("Bearer lua-key"));
    assert_eq!(request.json()["model"], "lua-model");
}

#[test]
fn rpc_offers_and_sets_it() {
    let server = MockServer::start();
    server.push(MockReply::openai_text("rpc answer"));
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let ext = provider_extension(&sandbox, &server);
    let mut rpc =
        RpcClient::new(sandbox.spawn(&["--mode", "rpc", "--model", "mock/mock-model", "-e", &ext]));
    let models = rpc.call(json!({"type": "get_available_models"}));
    let listed = models["data"]["models"].as_array().unwrap();
    assert!(
        listed
            .iter()
            .any(|m| m["provider"] == "lua-mock" && m["id"] == "lua-model"),
        "{models}"
    );
    let set =
        rpc.call(json!({"type": "set_model", "provider": "lua-mock", "modelId": "lua-model"}));
    assert_eq!(set["success"], true, "{set}");
    assert_eq!(set["data"]["provider"], "lua-mock", "{set}");
    rpc.call(json!({"type": "prompt", "message": "hi"}));
    rpc.wait_for("the answer", |v| v["type"] == "agent_end");
    let request = server.last_request().unwrap();
    assert_eq!(request.json()["model"], "lua-model");
    assert_eq!(request.header("authorization"), Some("Bearer lua-key"));
}

/// An extension with the command `/rl` (reloads) that registers the provider `name`, if any.
fn reloading_extension(name: Option<&str>, server: &MockServer) -> String {
    let provider = name.map_or(String::new(), |name| {
        format!(
            "  pi.registerProvider(\"{name}\", {{ baseUrl = \"{}\", api = \"openai-completions\", \
             apiKey = \"k\", models = {{ {{ id = \"{name}-model\" }} }} }})\n",
            server.openai_base_url()
        )
    });
    format!(
        "return function(pi)\n{provider}  pi.registerCommand(\"rl\", {{ handler = function(_, ctx) \
         ctx.reload() end }})\nend\n"
    )
}

fn listed_providers(rpc: &mut RpcClient) -> Vec<String> {
    let models = rpc.call(json!({"type": "get_available_models"}));
    let mut providers: Vec<String> = models["data"]["models"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["provider"].as_str().unwrap().to_string())
        .collect();
    providers.dedup();
    providers
}

#[test]
fn reload_adds_and_removes_providers_registered_from_lua() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, "openai-completions");
    let path = sandbox.project.join("reloading.lua");
    std::fs::write(&path, reloading_extension(Some("lua-one"), &server)).unwrap();
    let ext = path.to_string_lossy().into_owned();
    let mut rpc =
        RpcClient::new(sandbox.spawn(&["--mode", "rpc", "--model", "mock/mock-model", "-e", &ext]));
    assert!(listed_providers(&mut rpc).contains(&"lua-one".to_string()));

    std::fs::write(&path, reloading_extension(Some("lua-two"), &server)).unwrap();
    rpc.call(json!({"type": "prompt", "message": "/rl"}));
    let providers = listed_providers(&mut rpc);
    assert!(providers.contains(&"lua-two".to_string()), "{providers:?}");
    assert!(!providers.contains(&"lua-one".to_string()), "{providers:?}");
    let set =
        rpc.call(json!({"type": "set_model", "provider": "lua-two", "modelId": "lua-two-model"}));
    assert_eq!(set["success"], true, "{set}");

    std::fs::write(&path, reloading_extension(None, &server)).unwrap();
    rpc.call(json!({"type": "prompt", "message": "/rl"}));
    let providers = listed_providers(&mut rpc);
    assert!(
        !providers.iter().any(|p| p.starts_with("lua-")),
        "{providers:?}"
    );
    let set =
        rpc.call(json!({"type": "set_model", "provider": "lua-one", "modelId": "lua-one-model"}));
    assert_eq!(set["success"], false, "{set}");
}
