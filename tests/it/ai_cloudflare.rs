//! Cloudflare Workers AI and AI Gateway: their models are in the catalog, the account and
//! gateway ids come from the environment (a missing one is named), and through the
//! gateway the key travels as `cf-aig-authorization` — the real binary against the mock.

use crate::support::pi_cli::PiSandbox;
use crate::support::{MockReply, MockServer};

use serde_json::json;

fn gateway_sandbox(server: &MockServer) -> PiSandbox {
    let sandbox = PiSandbox::new();
    let base = format!(
        "{}/{{CLOUDFLARE_ACCOUNT_ID}}/{{CLOUDFLARE_GATEWAY_ID}}/anthropic",
        server.url().trim_end_matches('/')
    );
    sandbox.write_agent_file(
        "models.json",
        &json!({"providers": {"cloudflare-ai-gateway": {"baseUrl": base}}}).to_string(),
    );
    sandbox
}

#[test]
fn both_providers_have_models_in_the_catalog() {
    let mut sandbox = PiSandbox::new();
    sandbox
        .env
        .push(("CLOUDFLARE_API_KEY".into(), "cf-key".into()));
    let out = sandbox.run(&["--list-models", "cloudflare"], None);
    let text = String::from_utf8_lossy(&out.stdout);
    let count = |provider: &str| text.lines().filter(|l| l.starts_with(provider)).count();
    assert!(count("cloudflare-workers-ai ") >= 5, "{text}");
    assert!(count("cloudflare-ai-gateway ") >= 20, "{text}");
    assert!(text.contains("@cf/moonshotai/kimi-k2.6"), "{text}");
    assert!(text.contains("claude-sonnet-4-5"), "{text}");
}

#[test]
fn the_gateway_fills_in_the_ids_and_sends_the_key_as_cf_aig_authorization() {
    let server = MockServer::start();
    server.push(MockReply::anthropic_text("Through the gateway."));
    let mut sandbox = gateway_sandbox(&server);
    sandbox.env.extend([
        ("CLOUDFLARE_API_KEY".into(), "cf-key".into()),
        ("CLOUDFLARE_ACCOUNT_ID".into(), "acct123".into()),
        ("CLOUDFLARE_GATEWAY_ID".into(), "gw9".into()),
    ]);
    let out = sandbox.run(
        &[
            "--model",
            "cloudflare-ai-gateway/claude-sonnet-4-5",
            "-p",
            "hi",
        ],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Through the gateway."));
    let request = server.last_request().unwrap();
    assert_eq!(request.path, "/acct123/gw9/anthropic/v1/messages");
    let header = |name: &str| {
        request
            .headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    assert_eq!(
        header("cf-aig-authorization").as_deref(),
        Some("Bearer cf-key")
    );
    assert_eq!(header("x-api-key"), None);
    assert_eq!(header("authorization"), None);
}

#[test]
fn a_missing_gateway_id_is_named() {
    let server = MockServer::start();
    let mut sandbox = gateway_sandbox(&server);
    sandbox.env.extend([
        ("CLOUDFLARE_API_KEY".into(), "cf-key".into()),
        ("CLOUDFLARE_ACCOUNT_ID".into(), "acct123".into()),
    ]);
    let out = sandbox.run(
        &[
            "--model",
            "cloudflare-ai-gateway/claude-sonnet-4-5",
            "-p",
            "hi",
        ],
        None,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("CLOUDFLARE_GATEWAY_ID is required for provider cloudflare-ai-gateway"),
        "{stderr}"
    );
    assert!(server.requests().is_empty(), "nothing was sent");
}
