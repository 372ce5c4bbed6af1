//! End to end: the real `pi` binary talking `openai-responses` to a mock
//! server through a models.json custom provider.

use crate::support;
use crate::support::pi_cli;

use pi_cli::PiSandbox;
use serde_json::{Value, json};
use support::{MockReply, MockServer};

fn sse(events: &[Value]) -> String {
    events
        .iter()
        .map(|e| format!("event: {}\ndata: {}\n\n", e["type"].as_str().unwrap(), e))
        .collect()
}

fn completed() -> Value {
    json!({"type": "response.completed", "response": {"status": "completed",
           "usage": {"input_tokens": 10, "output_tokens": 5}}})
}

#[test]
fn print_mode_runs_bash_then_answers_over_openai_responses() {
    let server = MockServer::start();
    let args = "{\"command\":\"echo responses-ok\"}";
    server.push(MockReply::sse(sse(&[
        json!({"type": "response.output_item.added", "output_index": 0,
               "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "bash", "arguments": ""}}),
        json!({"type": "response.function_call_arguments.delta", "output_index": 0, "delta": args}),
        json!({"type": "response.output_item.done", "output_index": 0,
               "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "bash", "arguments": args}}),
        completed(),
    ])));
    server.push(MockReply::sse(sse(&[
        json!({"type": "response.output_item.added", "output_index": 0,
               "item": {"type": "message", "id": "msg_1", "role": "assistant", "content": []}}),
        json!({"type": "response.output_text.delta", "output_index": 0, "delta": "The command printed responses-ok."}),
        json!({"type": "response.output_item.done", "output_index": 0, "item": {"type": "message", "id": "msg_1"}}),
        completed(),
    ])));
    let sandbox = PiSandbox::with_mock(&server, "openai-responses");
    let out = sandbox.run(&["--model", "mock/mock-model", "-p", "run echo"], None);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("The command printed responses-ok."),
        "{stdout}"
    );
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].path, "/responses");
    let input = requests[1].json()["input"].as_array().unwrap().clone();
    let call = input.iter().find(|i| i["type"] == "function_call").unwrap();
    assert_eq!(call["call_id"], "call_1");
    let output = input
        .iter()
        .find(|i| i["type"] == "function_call_output")
        .unwrap();
    assert_eq!(output["call_id"], "call_1");
    assert!(output["output"].as_str().unwrap().contains("responses-ok"));
}
