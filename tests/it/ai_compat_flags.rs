//! Compatibility flags of OpenAI-compatible servers: detected for a
//! built-in provider, overridden per model in `models.json`; both change
//! the request `pi` sends.

use crate::support;
use crate::support::pi_cli;

use pi_cli::PiSandbox;
use serde_json::{Value, json};
use support::{MockReply, MockServer};

const MODEL: &str = "grok-4.20-0309-reasoning";

/// The body `pi` sends to xAI (served by the mock) with `xai` settings from
/// `models.json`.
fn sent_body(xai: Value) -> Value {
    let server = MockServer::start();
    server.push(MockReply::openai_text("ok"));
    let mut provider = xai;
    provider["baseUrl"] = json!(server.openai_base_url());
    let mut sandbox = PiSandbox::new();
    sandbox.env.push(("XAI_API_KEY".into(), "xai-key".into()));
    sandbox.write_agent_file(
        "models.json",
        &json!({"providers": {"xai": provider}}).to_string(),
    );
    let out = sandbox.run(
        &[
            "--provider",
            "xai",
            "--model",
            MODEL,
            "--thinking",
            "high",
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
    server.last_request().unwrap().json().clone()
}

#[test]
fn detected_flags_shape_the_request() {
    let body = sent_body(json!({}));
    assert_eq!(body["messages"][0]["role"], "system", "no developer role");
    assert!(body.get("reasoning_effort").is_none(), "{body}");
    assert!(body.get("store").is_none(), "{body}");
    assert!(body.get("max_completion_tokens").is_some(), "{body}");
    assert_eq!(body["stream_options"], json!({"include_usage": true}));
    assert!(body["messages"][0]["content"].is_string());
}

#[test]
fn per_model_overrides_in_models_json_change_the_request() {
    let body = sent_body(json!({"modelOverrides": {MODEL: {"compat": {
        "supportsDeveloperRole": true,
        "supportsReasoningEffort": true,
        "maxTokensField": "max_tokens",
        "supportsUsageInStreaming": false,
        "thinkingFormat": "qwen"
    }}}}));
    assert_eq!(body["messages"][0]["role"], "developer");
    assert!(body.get("max_tokens").is_some(), "{body}");
    assert!(body.get("max_completion_tokens").is_none(), "{body}");
    assert!(body.get("stream_options").is_none(), "{body}");
    assert_eq!(body["enable_thinking"], true, "{body}");
}
