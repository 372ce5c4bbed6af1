//! RPC mode replays the scripted conversation recorded from pi 0.73.1
//! (tests/fixtures/reference/rpc-anthropic-parallel.json, written by
//! scripts/reference_fixtures.py) and must answer every command with the same
//! response and the same events, once ids, paths and timestamps are blanked.

use crate::support;
use crate::support::pi_cli;
use crate::support::rpc_client;

use pi_cli::{PiSandbox, reference_fixture};
use rpc_client::RpcClient;
use serde_json::{Value, json};
use support::MockServer;
use support::scenario::{Scenario, scenario_reply};

const VOLATILE: [&str; 4] = ["id", "parentId", "timestamp", "responseId"];
const BLANKED: [&str; 4] = ["sessionFile", "sessionId", "entryId", "baseUrl"];

fn normalise(value: &Value, cwd: &str) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| !VOLATILE.contains(&k.as_str()))
                .map(|(k, v)| {
                    let v = if BLANKED.contains(&k.as_str()) {
                        json!("<volatile>")
                    } else {
                        normalise(v, cwd)
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|v| normalise(v, cwd)).collect()),
        Value::String(s) => Value::String(s.replace(cwd, "<cwd>")),
        other => other.clone(),
    }
}

#[test]
fn responses_and_events_match_pi_for_the_scripted_conversation() {
    let server = MockServer::start();
    server.set_handler(|req| scenario_reply(Scenario::Parallel, req));
    let sandbox = PiSandbox::new();
    sandbox.write_agent_file(
        "models.json",
        &json!({"providers": {"mock": {
            "baseUrl": server.anthropic_base_url(), "api": "anthropic-messages", "apiKey": "test-key",
            "models": [
                {"id": "mock-model", "contextWindow": 100000, "maxTokens": 4096,
                 "cost": {"input": 1, "output": 2, "cacheRead": 0.1, "cacheWrite": 0}},
                {"id": "mock-thinker", "reasoning": true}
            ]
        }}})
        .to_string(),
    );
    let cwd = sandbox.project.display().to_string();
    let mut rpc = RpcClient::new(sandbox.spawn(&["--model", "mock/mock-model", "--mode", "rpc"]));

    let script = reference_fixture("rpc-anthropic-parallel.json");
    for (n, step) in script.as_array().unwrap().iter().enumerate() {
        let command = &step["command"];
        let id = format!("c{n}");
        let mut line = command.clone();
        line["id"] = json!(id);
        rpc.send_raw(&line.to_string());
        let is_prompt = command["type"] == "prompt";
        let (mut response, mut events) = (None, Vec::new());
        loop {
            let value = rpc.wait_for(&format!("step {n}"), |_| true).value;
            let answers = value.get("id").is_none_or(|v| v == id.as_str())
                && value["command"] == command["type"];
            if value["type"] == "response" && answers {
                response = Some(value.clone());
            } else if !is_prompt {
                events.push(value.clone());
            }
            let done = if is_prompt {
                value["type"] == "agent_end"
            } else {
                response.is_some()
            };
            if done && response.is_some() {
                break;
            }
        }
        // Beyond pi 0.73.1: a failed response also carries a stable `code`.
        let mut response = response.unwrap();
        if response["success"] == false {
            let code = response.as_object_mut().unwrap().remove("code");
            assert!(code.is_some_and(|c| c.is_string()), "{response}");
        }
        assert_eq!(
            normalise(&response, &cwd),
            step["response"],
            "response to {command}"
        );
        assert_eq!(
            normalise(&Value::Array(events), &cwd),
            step["events"],
            "events of {command}"
        );
    }
}
