//! End to end: an RPC client drives the real `pi --mode rpc` against a mock
//! LLM server on 127.0.0.1 — prompts with tool calls, steering and aborting
//! while a reply streams, state queries, model changes, user bash, session
//! commands, the extension UI sub-protocol and bad input.

use crate::support;
use crate::support::pi_cli;
use crate::support::rpc_client;

use std::path::Path;
use std::time::{Duration, Instant};

use pi_cli::PiSandbox;
use rpc_client::RpcClient;
use serde_json::{Value, json};
use support::scenario::{FINAL_ANSWER, Scenario, scenario_reply};
use support::sse_builders::AnthropicSse;
use support::{MockReply, MockServer};

const API: &str = "anthropic-messages";

fn start(sandbox: &PiSandbox, extra: &[&str]) -> RpcClient {
    let mut args = vec!["--mode", "rpc", "--model", "mock/mock-model"];
    args.extend_from_slice(extra);
    RpcClient::new(sandbox.spawn(&args))
}

fn texts_of_request(server: &MockServer, index: usize) -> String {
    server.requests()[index]
        .json
        .as_ref()
        .map(|b| b["messages"].to_string())
        .unwrap_or_default()
}

#[test]
fn prompt_with_two_tool_calls_streams_every_event_and_updates_state() {
    let server = MockServer::start();
    server.set_handler(|req| scenario_reply(Scenario::Parallel, req));
    let sandbox = PiSandbox::with_mock(&server, API);
    let mut rpc = start(&sandbox, &[]);

    let response = rpc.call(json!({"type": "prompt", "message": "run the tools"}));
    assert_eq!(response["command"], "prompt");
    assert_eq!(response["success"], true, "{response}");
    let end = rpc.event("agent_end");
    assert_eq!(end["messages"].as_array().unwrap().len(), 5, "{end}");

    let kinds: Vec<String> = rpc
        .seen
        .iter()
        .map(|l| l.value["type"].as_str().unwrap().to_string())
        .collect();
    let first = |k: &str| {
        kinds
            .iter()
            .position(|x| x == k)
            .unwrap_or_else(|| panic!("no {k}: {kinds:?}"))
    };
    assert!(first("agent_start") < first("turn_start"));
    assert!(first("turn_start") < first("message_update"));
    assert!(first("message_update") < first("tool_execution_start"));
    assert!(first("tool_execution_end") < first("turn_end"));
    let tools: Vec<&Value> = rpc
        .seen
        .iter()
        .map(|l| &l.value)
        .filter(|v| v["type"] == "tool_execution_end")
        .collect();
    assert_eq!(tools.len(), 2);
    assert!(
        rpc.seen
            .iter()
            .all(|l| l.value.get("id").is_none() || l.value["type"] == "response")
    );

    let state = rpc.call(json!({"type": "get_state"}));
    let data = &state["data"];
    assert_eq!(data["isStreaming"], false);
    assert_eq!(data["messageCount"], 5);
    assert_eq!(data["model"]["id"], "mock-model");
    assert_eq!(data["steeringMode"], "one-at-a-time");
    let file = data["sessionFile"].as_str().unwrap();
    assert!(Path::new(file).is_file(), "session file written: {file}");

    let messages = rpc.call(json!({"type": "get_messages"}));
    let roles: Vec<&str> = messages["data"]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(
        roles,
        ["user", "assistant", "toolResult", "toolResult", "assistant"]
    );

    let text = rpc.call(json!({"type": "get_last_assistant_text"}));
    assert_eq!(text["data"]["text"], FINAL_ANSWER);
    let stats = rpc.call(json!({"type": "get_session_stats"}));
    assert_eq!(stats["data"]["toolCalls"], 2);
    assert_eq!(stats["data"]["toolResults"], 2);
    assert_eq!(stats["data"]["userMessages"], 1);
    assert_eq!(stats["data"]["contextUsage"]["contextWindow"], 100000);
    assert_eq!(rpc.finish(), 0);
}

#[test]
fn events_stream_before_the_reply_ends_and_abort_stops_it_mid_stream() {
    let server = MockServer::start();
    let partial = AnthropicSse::new()
        .message_start("msg_1", 10)
        .text("Counting: one two")
        .build();
    // The text block is sent, then the connection stays open: no stop event.
    let cut = partial
        .rfind("event: content_block_stop")
        .unwrap_or(partial.len());
    server.push(MockReply::sse(partial[..cut].to_string()).hold_open());
    let sandbox = PiSandbox::with_mock(&server, API);
    let mut rpc = start(&sandbox, &[]);

    let prompt_sent = Instant::now();
    rpc.call(json!({"type": "prompt", "message": "count"}));
    let update = rpc.wait_for("a text delta", |v| {
        v["type"] == "message_update" && v["assistantMessageEvent"]["type"] == "text_delta"
    });
    assert!(update.at >= prompt_sent);

    // The session is busy streaming; commands are still answered.
    let state = rpc.call(json!({"type": "get_state"}));
    assert_eq!(state["data"]["isStreaming"], true, "{state}");
    let refused = rpc.call(json!({"type": "prompt", "message": "again"}));
    assert_eq!(refused["success"], false);
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("streamingBehavior")
    );

    let abort_sent = Instant::now();
    assert!(
        update.at < abort_sent,
        "the delta arrived while the reply was still open"
    );
    let abort = rpc.call(json!({"type": "abort"}));
    assert_eq!(abort["success"], true);
    // The aborted message may end before the abort's own response line is written.
    let end = rpc.seen_or_wait("the aborted message", |v| {
        v["type"] == "message_end" && v["message"]["role"] == "assistant"
    });
    assert_eq!(
        end.value["message"]["stopReason"], "aborted",
        "{}",
        end.value
    );
    // Like the message, the run may end before the abort's response line is written.
    rpc.seen_or_wait("the end of the run", |v| v["type"] == "agent_end");
    assert!(server.wait_for_disconnects(1, Duration::from_secs(5)));
    let state = rpc.call(json!({"type": "get_state"}));
    assert_eq!(state["data"]["isStreaming"], false);
}

#[test]
fn steering_while_streaming_reaches_the_next_model_call() {
    let server = MockServer::start();
    let calls =
        MockReply::anthropic_tool_calls(&[("call_1", "bash", json!({"command": "echo hi"}))]);
    let len = calls.body_bytes().len();
    server.push(
        calls
            .split_at(&[len / 3, 2 * len / 3])
            .delay(Duration::from_millis(300)),
    );
    server.push(MockReply::anthropic_text("Steered."));
    let sandbox = PiSandbox::with_mock(&server, API);
    let mut rpc = start(&sandbox, &[]);

    rpc.call(json!({"type": "prompt", "message": "start"}));
    // The model is answering (its reply arrives in pieces 300 ms apart).
    rpc.event("message_update");
    let steer = rpc.call(
        json!({"type": "prompt", "message": "also say banana", "streamingBehavior": "steer"}),
    );
    assert_eq!(steer["success"], true, "{steer}");
    let queue = rpc
        .seen
        .iter()
        .map(|l| &l.value)
        .find(|v| v["type"] == "queue_update")
        .cloned()
        .expect("queue_update before the response");
    assert_eq!(queue["steering"], json!(["also say banana"]));
    rpc.event("agent_end");

    assert_eq!(server.request_count(), 2);
    let second = texts_of_request(&server, 1);
    let tool_at = second.find("tool_result").expect("tool result sent");
    let steer_at = second
        .find("also say banana")
        .expect("steering message sent");
    assert!(
        tool_at < steer_at,
        "steering comes after the tool result: {second}"
    );
    let text = rpc.call(json!({"type": "get_last_assistant_text"}));
    assert_eq!(text["data"]["text"], "Steered.");
}

#[test]
fn models_and_thinking_levels_change_on_request() {
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
    let mut rpc = start(&sandbox, &[]);
    let models = rpc.call(json!({"type": "get_available_models"}));
    assert_eq!(models["data"]["models"].as_array().unwrap().len(), 2);

    let set = rpc.call(json!({"type": "set_model", "provider": "mock", "modelId": "mock-thinker"}));
    assert_eq!(set["data"]["id"], "mock-thinker", "{set}");
    let missing = rpc.call(json!({"type": "set_model", "provider": "mock", "modelId": "nope"}));
    assert_eq!(missing["success"], false);
    assert_eq!(missing["error"], "Model not found: mock/nope");
    assert_eq!(missing["code"], "model_not_found");

    let level = rpc.call(json!({"type": "set_thinking_level", "level": "high"}));
    assert_eq!(level["success"], true);
    let state = rpc.call(json!({"type": "get_state"}));
    assert_eq!(state["data"]["model"]["id"], "mock-thinker");
    assert_eq!(state["data"]["thinkingLevel"], "high");
    let cycled = rpc.call(json!({"type": "cycle_thinking_level"}));
    assert_eq!(cycled["data"]["level"], "off");
    let bad = rpc.call(json!({"type": "set_thinking_level", "level": "max"}));
    assert!(
        bad["error"]
            .as_str()
            .unwrap()
            .contains("Invalid thinking level \"max\"")
    );

    let cycled = rpc.call(json!({"type": "cycle_model"}));
    assert_eq!(cycled["data"]["model"]["id"], "mock-model");
    assert_eq!(cycled["data"]["isScoped"], false);

    let mode = rpc.call(json!({"type": "set_steering_mode", "mode": "all"}));
    assert_eq!(mode["success"], true);
    let state = rpc.call(json!({"type": "get_state"}));
    assert_eq!(state["data"]["steeringMode"], "all");
    assert_eq!(state["data"]["model"]["id"], "mock-model");
}

#[test]
fn bash_output_enters_the_next_prompt() {
    let server = MockServer::start();
    server.push(MockReply::anthropic_text("Seen."));
    let sandbox = PiSandbox::with_mock(&server, API);
    let mut rpc = start(&sandbox, &[]);

    let bash = rpc.call(json!({"type": "bash", "command": "echo hello-from-rpc"}));
    assert_eq!(bash["success"], true, "{bash}");
    assert_eq!(
        bash["data"]["output"].as_str().unwrap().trim(),
        "hello-from-rpc"
    );
    assert_eq!(bash["data"]["exitCode"], 0);
    assert_eq!(bash["data"]["cancelled"], false);

    let messages = rpc.call(json!({"type": "get_messages"}));
    assert_eq!(messages["data"]["messages"][0]["role"], "bashExecution");

    rpc.call(json!({"type": "prompt", "message": "what did it print?"}));
    rpc.event("agent_end");
    let sent = texts_of_request(&server, 0);
    assert!(sent.contains("Ran `echo hello-from-rpc`"), "{sent}");
}

#[test]
fn abort_bash_cancels_a_running_command() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, API);
    let mut rpc = start(&sandbox, &[]);
    let started = Instant::now();
    let id = rpc.send(json!({"type": "bash", "command": "sleep 30"}));
    std::thread::sleep(Duration::from_millis(300));
    let abort = rpc.call(json!({"type": "abort_bash"}));
    assert_eq!(abort["success"], true);
    let bash = rpc.response(&id);
    assert_eq!(bash["data"]["cancelled"], true, "{bash}");
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn bad_lines_get_error_responses_and_the_server_keeps_serving() {
    let server = MockServer::start();
    let sandbox = PiSandbox::with_mock(&server, API);
    let mut rpc = start(&sandbox, &[]);

    rpc.send_raw("this is not json");
    let parse = rpc.event("response");
    assert_eq!(parse["command"], "parse");
    assert_eq!(parse["success"], false);
    assert_eq!(parse["code"], "parse_error");
    assert!(
        parse["error"]
            .as_str()
            .unwrap()
            .starts_with("Failed to parse command")
    );

    rpc.send_raw(r#"{"id": "broken-1", "type": "get_st"#);
    let broken = rpc.response("broken-1");
    assert_eq!(broken["success"], false);

    let unknown = rpc.call(json!({"type": "frobnicate"}));
    assert_eq!(unknown["success"], false);
    assert_eq!(unknown["code"], "unknown_command");
    assert!(
        unknown["error"]
            .as_str()
            .unwrap()
            .starts_with("Unknown command: frobnicate")
    );

    let missing = rpc.call(json!({"type": "set_model"}));
    assert!(
        missing["error"].as_str().unwrap().contains("\"provider\""),
        "{missing}"
    );

    rpc.send_raw("{\"id\":\"crlf\",\"type\":\"get_state\"}\r");
    let state = rpc.response("crlf");
    assert_eq!(state["success"], true);
    assert_eq!(rpc.finish(), 0);
}

#[test]
fn session_commands_name_fork_clone_and_export() {
    let server = MockServer::start();
    server.push(MockReply::anthropic_text("First answer."));
    server.push(MockReply::anthropic_text("Second answer."));
    let sandbox = PiSandbox::with_mock(&server, API);
    let mut rpc = start(&sandbox, &[]);
    for text in ["first question", "second question"] {
        rpc.call(json!({"type": "prompt", "message": text}));
        rpc.event("agent_end");
    }
    let named = rpc.call(json!({"type": "set_session_name", "name": "rpc work"}));
    assert_eq!(named["success"], true);
    let state = rpc.call(json!({"type": "get_state"}));
    assert_eq!(state["data"]["sessionName"], "rpc work");
    let original = state["data"]["sessionFile"].as_str().unwrap().to_string();

    let html = sandbox.project.join("out.html");
    let export = rpc.call(json!({"type": "export_html", "outputPath": html}));
    assert_eq!(
        export["data"]["path"],
        html.display().to_string(),
        "{export}"
    );
    let page = crate::support::browser::page_data(&std::fs::read_to_string(&html).unwrap());
    assert!(page.contains("second question") && page.contains("Second answer."));

    let forks = rpc.call(json!({"type": "get_fork_messages"}));
    let list = forks["data"]["messages"].as_array().unwrap().clone();
    assert_eq!(list.len(), 2);
    assert_eq!(list[1]["text"], "second question");
    let fork = rpc.call(json!({"type": "fork", "entryId": list[1]["entryId"]}));
    assert_eq!(
        fork["data"],
        json!({"text": "second question", "cancelled": false})
    );
    let state = rpc.call(json!({"type": "get_state"}));
    assert_eq!(
        state["data"]["messageCount"], 2,
        "history up to the forked message"
    );
    assert_ne!(state["data"]["sessionFile"], original.as_str());

    let clone = rpc.call(json!({"type": "clone"}));
    assert_eq!(clone["data"]["cancelled"], false);
    let switched = rpc.call(json!({"type": "switch_session", "sessionPath": original}));
    assert_eq!(switched["data"]["cancelled"], false);
    let state = rpc.call(json!({"type": "get_state"}));
    assert_eq!(state["data"]["messageCount"], 4);

    // A manual compaction: the summary comes from the model, the file only grows.
    server.push(MockReply::anthropic_text(
        "## Goal\nSummary of the questions.",
    ));
    let before = std::fs::read(&original).unwrap();
    let compact = rpc.call(json!({"type": "compact", "customInstructions": "keep it short"}));
    assert_eq!(compact["success"], true, "{compact}");
    assert!(
        compact["data"]["summary"]
            .as_str()
            .unwrap()
            .contains("Summary of the questions."),
        "{compact}"
    );
    assert!(compact["data"]["tokensBefore"].as_u64().unwrap() > 0);
    let summary_request = server.requests().last().unwrap().json().to_string();
    assert!(
        summary_request.contains("keep it short"),
        "{summary_request}"
    );
    let after = std::fs::read(&original).unwrap();
    assert!(after.len() > before.len() && after.starts_with(&before));

    let fresh = rpc.call(json!({"type": "new_session"}));
    assert_eq!(fresh["data"]["cancelled"], false);
    let state = rpc.call(json!({"type": "get_state"}));
    assert_eq!(state["data"]["messageCount"], 0);

    let compact = rpc.call(json!({"type": "compact"}));
    assert_eq!(compact["success"], false);
    let error = compact["error"].as_str().unwrap();
    assert!(error.contains("Nothing to compact"), "{error}");
}

#[test]
fn extension_confirm_is_answered_through_the_ui_protocol() {
    let server = MockServer::start();
    server.push(MockReply::anthropic_tool_calls(&[(
        "call_1",
        "bash",
        json!({"command": "echo approved"}),
    )]));
    server.push(MockReply::anthropic_text("Ran it."));
    server.push(MockReply::anthropic_tool_calls(&[(
        "call_2",
        "bash",
        json!({"command": "echo refused"}),
    )]));
    server.push(MockReply::anthropic_text("Did not run it."));
    let sandbox = PiSandbox::with_mock(&server, API);
    let ext =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/extensions/confirm_bash.lua");
    let mut rpc = start(&sandbox, &["-e", ext.to_str().unwrap()]);

    for (answer, expect_error) in [(true, false), (false, true)] {
        rpc.call(json!({"type": "prompt", "message": "run bash"}));
        let status = rpc.wait_for("setStatus", |v| {
            v["type"] == "extension_ui_request" && v["method"] == "setStatus"
        });
        assert_eq!(status.value["statusText"], "asking");
        let ask = rpc.wait_for("confirm", |v| {
            v["type"] == "extension_ui_request" && v["method"] == "confirm"
        });
        assert_eq!(ask.value["title"], "Run bash?");
        let id = ask.value["id"].as_str().unwrap().to_string();
        rpc.send_raw(
            &json!({"type": "extension_ui_response", "id": id, "confirmed": answer}).to_string(),
        );
        let notify = rpc.wait_for("notify", |v| {
            v["type"] == "extension_ui_request" && v["method"] == "notify"
        });
        let end = rpc.event("tool_execution_end");
        assert_eq!(end["isError"], expect_error, "{end}");
        if answer {
            assert_eq!(notify.value["message"], "bash allowed");
            assert!(end["result"].to_string().contains("approved"));
        } else {
            assert_eq!(notify.value["notifyType"], "warning");
            assert!(end["result"].to_string().contains("the user declined"));
        }
        rpc.event("agent_end");
    }
}

#[test]
fn failed_session_commands_carry_their_own_code_and_a_translated_message() {
    let server = MockServer::start();
    server.push(MockReply::anthropic_text("好"));
    let mut sandbox = PiSandbox::with_mock(&server, API);
    sandbox.env.push(("PI_LOCALE".into(), "zh-TW".into()));
    let mut rpc = start(&sandbox, &[]);
    let fine = sandbox.root.path().join("out.html");

    // Nothing to export yet: its own code and words.
    let empty = rpc.call(json!({"type": "export_html", "outputPath": fine}));
    assert_eq!(empty["success"], false, "{empty}");
    assert_eq!(empty["code"], "export_failed", "{empty}");
    assert!(
        empty["error"].as_str().unwrap().contains("還沒有"),
        "{empty}"
    );

    rpc.call(json!({"type": "prompt", "message": "hi"}));
    rpc.event("agent_end");
    // A file where a folder should be: the HTML cannot be written under it.
    let blocker = sandbox.root.path().join("not-a-folder");
    std::fs::write(&blocker, "x").unwrap();
    let out = blocker.join("out.html");
    let export = rpc.call(json!({"type": "export_html", "outputPath": out}));
    assert_eq!(export["success"], false, "{export}");
    assert_eq!(export["code"], "export_failed", "{export}");
    let message = export["error"].as_str().unwrap();
    assert!(message.contains(&out.display().to_string()), "{message}");
    assert!(message.contains("無法寫入"), "{message}");

    let fork = rpc.call(json!({"type": "fork", "entryId": "nonexistent"}));
    assert_eq!(fork["code"], "entry_not_found", "{fork}");

    // The same export into a folder that exists succeeds.
    let export = rpc.call(json!({"type": "export_html", "outputPath": fine}));
    assert_eq!(export["success"], true, "{export}");
    assert!(fine.exists());
}
