//! RPC semantics a client library relies on, as pi 0.73.1 has them: `abort` is answered
//! after the run has ended, `queue_update` follows every change of the queues, responses
//! without a result carry `data: null` where pi's do, a model change over RPC reaches
//! extensions as `model_select`, and `ctx.shutdown()` ends the process with exit code 0.

use crate::support;
use crate::support::pi_cli;
use crate::support::rpc_client;

use std::path::PathBuf;
use std::time::Duration;

use pi_cli::PiSandbox;
use rpc_client::RpcClient;
use serde_json::{Value, json};
use support::{MockReply, MockServer};

const API: &str = "anthropic-messages";

fn start(sandbox: &PiSandbox, extra: &[&str]) -> RpcClient {
    let mut args = vec!["--mode", "rpc", "--model", "mock/mock-model"];
    args.extend_from_slice(extra);
    RpcClient::new(sandbox.spawn(&args))
}

fn example(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("extensions/examples")
        .join(name)
        .display()
        .to_string()
}

/// A reply that streams in three pieces 300 ms apart.
fn slow(reply: MockReply) -> MockReply {
    let len = reply.body_bytes().len();
    reply
        .split_at(&[len / 3, 2 * len / 3])
        .delay(Duration::from_millis(300))
}

fn position(rpc: &RpcClient, pred: impl Fn(&Value) -> bool) -> Option<usize> {
    rpc.seen.iter().position(|l| pred(&l.value))
}

#[test]
fn abort_is_answered_after_agent_end_so_the_next_prompt_sees_only_its_own_run() {
    let server = MockServer::start();
    server.push(slow(MockReply::anthropic_text(
        "A long first answer that is still streaming when the abort arrives.",
    )));
    server.push(MockReply::anthropic_text("Second answer."));
    let sandbox = PiSandbox::with_mock(&server, API);
    let mut rpc = start(&sandbox, &[]);

    rpc.call(json!({"type": "prompt", "message": "first"}));
    rpc.event("message_update");
    let abort = rpc.send(json!({"type": "abort"}));
    let answer = rpc.response(&abort);
    assert_eq!(answer["success"], true, "{answer}");
    assert!(answer.get("data").is_none(), "{answer}");
    let answered = position(&rpc, |v| v["id"] == abort.as_str()).unwrap();
    let ended = position(&rpc, |v| v["type"] == "agent_end").expect("the run ended");
    assert!(
        ended < answered,
        "agent_end comes before the abort's answer"
    );

    let prompt = rpc.send(json!({"type": "prompt", "message": "second"}));
    rpc.event("agent_end");
    let after: Vec<&Value> = rpc.seen[answered + 1..].iter().map(|l| &l.value).collect();
    assert_eq!(after[0]["id"], prompt.as_str(), "{after:#?}");
    assert_eq!(after[1]["type"], "agent_start", "{after:#?}");
    let text = after.iter().map(|v| v.to_string()).collect::<String>();
    assert!(!text.contains("aborted"), "nothing of the old run: {text}");
    assert!(text.contains("Second answer."));
    // Idle, abort is answered at once.
    assert_eq!(rpc.call(json!({"type": "abort"}))["success"], true);
}

#[test]
fn queue_update_follows_steer_follow_up_queued_prompts_and_the_queue_draining() {
    let server = MockServer::start();
    server.push(slow(MockReply::anthropic_tool_calls(&[(
        "call_1",
        "bash",
        json!({"command": "echo hi"}),
    )])));
    server.set_handler(|_| MockReply::anthropic_text("Noted."));
    let sandbox = PiSandbox::with_mock(&server, API);
    let mut rpc = start(&sandbox, &[]);

    rpc.call(json!({"type": "prompt", "message": "start"}));
    rpc.event("message_update");
    rpc.call(json!({"type": "steer", "message": "s1"}));
    rpc.call(json!({"type": "follow_up", "message": "f1"}));
    rpc.call(json!({"type": "prompt", "message": "f2", "streamingBehavior": "followUp"}));
    // Each queued message was announced before its response.
    let updates = |rpc: &RpcClient| -> Vec<(Value, Value)> {
        rpc.seen
            .iter()
            .filter(|l| l.value["type"] == "queue_update")
            .map(|l| (l.value["steering"].clone(), l.value["followUp"].clone()))
            .collect()
    };
    assert_eq!(
        updates(&rpc),
        vec![
            (json!(["s1"]), json!([])),
            (json!(["s1"]), json!(["f1"])),
            (json!(["s1"]), json!(["f1", "f2"])),
        ]
    );
    // The run takes them one by one; each is announced before its message starts.
    loop {
        rpc.event("agent_end");
        if position(&rpc, |v| {
            v["type"] == "message_start" && v["message"]["content"].to_string().contains("f2")
        })
        .is_some()
        {
            break;
        }
    }
    let all = updates(&rpc);
    assert_eq!(all.last().unwrap(), &(json!([]), json!([])), "{all:?}");
    assert!(all.contains(&(json!([]), json!(["f1", "f2"]))), "{all:?}");
    assert!(all.contains(&(json!([]), json!(["f2"]))), "{all:?}");
    for text in ["s1", "f1", "f2"] {
        let started = position(&rpc, |v| {
            v["type"] == "message_start" && v["message"]["content"].to_string().contains(text)
        })
        .unwrap();
        let announced = position(&rpc, |v| {
            v["type"] == "queue_update"
                && !v["steering"].to_string().contains(text)
                && !v["followUp"].to_string().contains(text)
        })
        .unwrap();
        assert!(
            announced < started,
            "{text} left the queue before it started"
        );
    }
}

#[test]
fn responses_without_a_result_carry_data_null_where_pi_does() {
    let server = MockServer::start();
    let sandbox = PiSandbox::new();
    sandbox.write_agent_file(
        "models.json",
        &json!({"providers": {"mock": {
            "baseUrl": server.anthropic_base_url(), "api": API, "apiKey": "k",
            "models": [{"id": "mock-model"}, {"id": "mock-thinker", "reasoning": true}]
        }}})
        .to_string(),
    );
    let mut rpc = start(&sandbox, &["--models", "mock/mock-model"]);
    let cycled = rpc.call(json!({"type": "cycle_thinking_level"}));
    assert_eq!(cycled["success"], true);
    assert_eq!(cycled.get("data"), Some(&Value::Null), "{cycled}");
    let model = rpc.call(json!({"type": "cycle_model"}));
    assert_eq!(model.get("data"), Some(&Value::Null), "{model}");
    // Commands without a result leave `data` out.
    let level = rpc.call(json!({"type": "set_thinking_level", "level": "off"}));
    assert!(level.get("data").is_none(), "{level}");

    // A model that can think cycles to a level.
    rpc.call(json!({"type": "set_model", "provider": "mock", "modelId": "mock-thinker"}));
    let cycled = rpc.call(json!({"type": "cycle_thinking_level"}));
    assert!(cycled["data"]["level"].is_string(), "{cycled}");
}

#[test]
fn model_status_twin_hears_set_model_and_cycle_model_over_rpc() {
    let server = MockServer::start();
    let sandbox = PiSandbox::new();
    sandbox.write_agent_file(
        "models.json",
        &json!({"providers": {"mock": {
            "baseUrl": server.anthropic_base_url(), "api": API, "apiKey": "k",
            "models": [{"id": "mock-model"}, {"id": "mock-thinker", "reasoning": true}]
        }}})
        .to_string(),
    );
    let twin = example("model-status.lua");
    let mut rpc = start(&sandbox, &["-e", &twin]);
    let notes = |rpc: &RpcClient| -> Vec<String> {
        rpc.seen
            .iter()
            .filter(|l| l.value["type"] == "extension_ui_request" && l.value["method"] == "notify")
            .map(|l| l.value["message"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    let set = rpc.call(json!({"type": "set_model", "provider": "mock", "modelId": "mock-thinker"}));
    assert_eq!(set["data"]["id"], "mock-thinker");
    assert_eq!(notes(&rpc), vec!["Model: mock/mock-thinker"]);
    let status = rpc.seen_or_wait("the status", |v| v["method"] == "setStatus");
    assert_eq!(status.value["statusText"], "🤖 mock-thinker");
    rpc.call(json!({"type": "cycle_model"}));
    assert_eq!(
        notes(&rpc),
        vec!["Model: mock/mock-thinker", "Model: mock/mock-model"]
    );
    // A model that is not there changes nothing and tells nobody.
    rpc.call(json!({"type": "set_model", "provider": "mock", "modelId": "nope"}));
    assert_eq!(notes(&rpc).len(), 2);
}

#[test]
fn ctx_shutdown_from_the_quit_twin_ends_rpc_mode_with_exit_code_0() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, API);
    let twin = example("shutdown-command.lua");
    let mut rpc = start(&sandbox, &["-e", &twin]);
    let commands = rpc.call(json!({"type": "get_commands"}));
    let names: Vec<&str> = commands["data"]["commands"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert!(names.contains(&"quit"), "{names:?}");
    // Still serving until the command runs.
    assert_eq!(rpc.exit_within(Duration::from_millis(200)), None);
    let quit = rpc.call(json!({"type": "prompt", "message": "/quit"}));
    assert_eq!(quit["success"], true, "{quit}");
    assert_eq!(rpc.exit_within(Duration::from_secs(10)), Some(0));
    assert_eq!(
        server.request_count(),
        0,
        "the command never reached the model"
    );
}

#[test]
fn a_tool_calling_ctx_shutdown_ends_rpc_mode_after_the_run() {
    let server = MockServer::start();
    server.push(MockReply::anthropic_tool_calls(&[(
        "call_1",
        "finish_and_exit",
        json!({}),
    )]));
    server.push(MockReply::anthropic_text("All done."));
    let sandbox = PiSandbox::with_mock(&server, API);
    let twin = example("shutdown-command.lua");
    let mut rpc = start(&sandbox, &["-e", &twin]);
    rpc.call(json!({"type": "prompt", "message": "finish up"}));
    rpc.event("agent_end");
    assert_eq!(rpc.exit_within(Duration::from_secs(10)), Some(0));
    assert_eq!(server.request_count(), 2, "the model saw the tool's result");
}
