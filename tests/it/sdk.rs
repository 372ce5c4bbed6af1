//! The Rust SDK (`pi::sdk`) driven in-process against the mock LLM server: events and
//! answers, tool calls, steering and follow-ups, aborting, switching models, prompt
//! options and session files written and reopened.

use std::path::Path;
use std::time::Duration;

use pi::sdk::{
    ContentBlock, Event, Message, SdkError, Session, SessionOptions, SessionStorage, StopReason,
    ThinkingLevel, event_type, text_delta,
};
use serde_json::{Value, json};

use crate::support::pi_cli::PiSandbox;
use crate::support::sse_builders::AnthropicSse;
use crate::support::{MockReply, MockServer};

/// A sandbox whose `mock` provider serves `mock-model` and `mock-model-2` from `server`.
pub(crate) fn sandbox(server: &MockServer) -> PiSandbox {
    let sandbox = PiSandbox::new();
    let model = |id: &str| json!({"id": id, "contextWindow": 100000, "maxTokens": 4096, "input": ["text", "image"]});
    let mut thinking_model = model("mock-thinker");
    thinking_model["reasoning"] = json!(true);
    sandbox.write_agent_file(
        "models.json",
        &json!({"providers": {"mock": {
            "baseUrl": server.anthropic_base_url(), "api": "anthropic-messages",
            "apiKey": "test-key", "models": [model("mock-model"), model("mock-model-2"), thinking_model]
        }}})
        .to_string(),
    );
    sandbox
}

pub(crate) fn options(sandbox: &PiSandbox) -> SessionOptions {
    SessionOptions::new()
        .cwd(&sandbox.project)
        .agent_dir(&sandbox.agent_dir)
        .model("mock", "mock-model")
        .offline(true)
}

pub(crate) async fn start(options: SessionOptions) -> Session {
    Session::create(options).await.expect("session starts")
}

/// Every event waiting on the stream.
pub(crate) fn drain(events: &mut pi::sdk::EventStream) -> Vec<Event> {
    std::iter::from_fn(|| events.try_recv()).collect()
}

pub(crate) fn kinds(events: &[Event]) -> Vec<&'static str> {
    events.iter().map(event_type).collect()
}

/// The `messages` of request `index` as JSON text.
fn request_messages(server: &MockServer, index: usize) -> String {
    server.requests()[index].json()["messages"].to_string()
}

/// A reply that streams `text` and then stays open until the client hangs up.
fn endless(text: &str) -> MockReply {
    MockReply::anthropic(AnthropicSse::new().message_start("msg_open", 5).text(text)).hold_open()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_prompt_streams_events_in_order_and_returns_the_answer() {
    let server = MockServer::start();
    server.push(MockReply::anthropic_text("Hello from the mock server."));
    let sandbox = sandbox(&server);
    let session = start(options(&sandbox)).await;
    let mut events = session.events();

    let reply = session.prompt("Say hello").await.expect("a reply");
    assert_eq!(reply.text(), "Hello from the mock server.");
    assert_eq!(reply.stop_reason, StopReason::Stop);

    let events = drain(&mut events);
    let kinds = kinds(&events);
    let first = |k: &str| kinds.iter().position(|x| *x == k).unwrap_or(usize::MAX);
    let last = |k: &str| kinds.iter().rposition(|x| *x == k).unwrap();
    assert_eq!(kinds.first(), Some(&"agent_start"), "{kinds:?}");
    assert_eq!(kinds.last(), Some(&"agent_end"), "{kinds:?}");
    assert!(first("turn_start") < first("message_start"), "{kinds:?}");
    assert!(first("message_update") < last("message_end"), "{kinds:?}");
    assert!(last("message_end") < first("turn_end"), "{kinds:?}");
    // The user message, then the assistant message: two message_start/end pairs.
    assert_eq!(kinds.iter().filter(|k| **k == "message_end").count(), 2);
    // The deltas, in order, are the answer.
    let streamed: String = events.iter().filter_map(text_delta).collect();
    assert_eq!(streamed, "Hello from the mock server.");
    // Each event has the JSON shape JSON mode prints.
    for event in &events {
        let value = serde_json::to_value(event).unwrap();
        assert_eq!(value["type"], event_type(event), "{value}");
    }
    let request = server.last_request().unwrap();
    assert_eq!(request.json()["model"], "mock-model");
    assert!(request_messages(&server, 0).contains("Say hello"));

    let messages = session.messages();
    assert_eq!(messages.len(), 2);
    assert!(matches!(messages[0], Message::User(_)));
    assert_eq!(
        session.last_assistant_text().as_deref(),
        Some("Hello from the mock server.")
    );
    let state = session.state();
    assert!(!state.is_running);
    assert_eq!(
        (state.model.provider.as_str(), state.model.id.as_str()),
        ("mock", "mock-model")
    );
    assert_eq!(state.session_file, None, "in memory by default");
    assert_eq!(state.message_count, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_call_runs_the_chosen_tool_and_its_result_goes_back_to_the_model() {
    let server = MockServer::start();
    server.push(MockReply::anthropic_tool_calls(&[(
        "call_1",
        "ls",
        json!({}),
    )]));
    server.push(MockReply::anthropic_text("There is hello.txt."));
    let sandbox = sandbox(&server);
    let session = start(options(&sandbox).tools(["ls"])).await;
    let mut events = session.events();

    let reply = session.prompt("What is here?").await.unwrap();
    assert_eq!(reply.text(), "There is hello.txt.");
    let events = drain(&mut events);
    let end = events
        .iter()
        .find_map(|e| match e {
            Event::ToolExecutionEnd {
                tool_name,
                result,
                is_error,
                ..
            } => Some((
                tool_name.clone(),
                serde_json::to_string(result).unwrap(),
                *is_error,
            )),
            _ => None,
        })
        .expect("a tool_execution_end event");
    assert_eq!(end.0, "ls");
    assert!(end.1.contains("hello.txt"), "{}", end.1);
    assert!(!end.2);
    // Only the chosen tool is offered, and its output reaches the second request.
    let tools: Vec<String> = server.requests()[0].json()["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(tools, ["ls"]);
    assert!(request_messages(&server, 1).contains("hello.txt"));
    assert_eq!(
        session.messages().len(),
        4,
        "user, tool call, tool result, answer"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn steering_and_follow_ups_sent_from_an_event_callback_reach_the_model() {
    let server = MockServer::start();
    server.push(MockReply::anthropic_tool_calls(&[(
        "call_1",
        "ls",
        json!({}),
    )]));
    server.push(MockReply::anthropic_text("Steered answer."));
    server.push(MockReply::anthropic_text("Follow-up answer."));
    let sandbox = sandbox(&server);
    let session = start(options(&sandbox).tools(["ls"])).await;
    let handle = session.clone();
    let queued = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = queued.clone();
    session.subscribe(move |event| match event {
        Event::ToolExecutionStart { .. } => {
            handle.steer("STEER: use fewer words");
            handle.follow_up("FOLLOW: and now say bye");
        }
        Event::QueueUpdate {
            steering,
            follow_up,
        } => {
            seen.lock()
                .unwrap()
                .push((steering.clone(), follow_up.clone()));
        }
        _ => {}
    });

    let reply = session.prompt("List files").await.unwrap();
    assert_eq!(
        reply.text(),
        "Follow-up answer.",
        "the run ends after the follow-up"
    );
    assert_eq!(server.request_count(), 3);
    let second = request_messages(&server, 1);
    assert!(second.contains("STEER: use fewer words"), "{second}");
    assert!(!second.contains("FOLLOW"), "{second}");
    assert!(request_messages(&server, 2).contains("FOLLOW: and now say bye"));
    // Both queue changes were reported.
    let queued = queued.lock().unwrap().clone();
    assert_eq!(queued[0].0, ["STEER: use fewer words"]);
    assert_eq!(queued[1].1, ["FOLLOW: and now say bye"]);
    let state = session.state();
    assert!(state.steering.is_empty() && state.follow_up.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abort_stops_a_streaming_run_and_keeps_the_partial_answer() {
    let server = MockServer::start();
    server.push(endless("Once upon a time"));
    let sandbox = sandbox(&server);
    let session = start(options(&sandbox)).await;
    let mut events = session.events();
    let running = session.clone();
    let run = tokio::spawn(async move { running.prompt("Tell a story").await });
    let started = tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(event) = events.recv().await {
            if text_delta(&event).is_some() {
                return true;
            }
        }
        false
    })
    .await;
    assert_eq!(started, Ok(true), "the answer started streaming");
    assert!(session.is_running());
    // Busy while the run holds the session.
    assert_eq!(session.prompt("again").await.unwrap_err(), SdkError::Busy);
    assert_eq!(
        session.set_model("mock", "mock-model-2").await.unwrap_err(),
        SdkError::Busy
    );

    session.abort();
    let reply = tokio::time::timeout(Duration::from_secs(20), run)
        .await
        .expect("the run ends after abort")
        .unwrap()
        .unwrap();
    assert_eq!(reply.stop_reason, StopReason::Aborted);
    assert!(reply.text().starts_with("Once"), "{}", reply.text());
    assert!(!session.is_running());

    // The session is usable again.
    server.push(MockReply::anthropic_text("Back again."));
    assert_eq!(session.prompt("Hi").await.unwrap().text(), "Back again.");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn switching_models_changes_the_model_of_the_next_request() {
    let server = MockServer::start();
    server.push(MockReply::anthropic_text("one"));
    server.push(MockReply::anthropic_text("two"));
    let sandbox = sandbox(&server);
    let session = start(options(&sandbox)).await;
    let available: Vec<String> = session
        .available_models()
        .await
        .iter()
        .map(|m| format!("{}/{}", m.provider, m.id))
        .collect();
    assert!(
        available.contains(&"mock/mock-model-2".to_string()),
        "{available:?}"
    );

    session.prompt("first").await.unwrap();
    let switched = session.set_model("mock", "mock-model-2").await.unwrap();
    assert_eq!(switched.id, "mock-model-2");
    assert_eq!(session.state().model.id, "mock-model-2");
    session.prompt("second").await.unwrap();
    let models: Vec<Value> = server
        .requests()
        .iter()
        .map(|r| r.json()["model"].clone())
        .collect();
    assert_eq!(models, [json!("mock-model"), json!("mock-model-2")]);

    let missing = session
        .set_model("mock", "no-such-model")
        .await
        .unwrap_err();
    assert_eq!(
        missing,
        SdkError::ModelNotFound("mock/no-such-model".into())
    );
    assert!(missing.to_string().contains("mock/no-such-model"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn system_prompt_options_replace_and_extend_the_prompt_sent() {
    let server = MockServer::start();
    server.push(MockReply::anthropic_text("ok"));
    let sandbox = sandbox(&server);
    let options = options(&sandbox)
        .system_prompt("You are a terse robot.")
        .append_system_prompt("Always end with BEEP.");
    let session = start(options).await;
    session.prompt("hi").await.unwrap();
    let system = server.last_request().unwrap().json()["system"].to_string();
    assert!(system.contains("You are a terse robot."), "{system}");
    assert!(system.contains("Always end with BEEP."), "{system}");
    assert!(!system.contains("expert coding assistant"), "{system}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_error_is_returned_as_an_error() {
    let server = MockServer::start();
    server.push(MockReply::anthropic_error(
        400,
        "invalid_request_error",
        "bad things",
    ));
    let sandbox = sandbox(&server);
    let session = start(options(&sandbox)).await;
    match session.prompt("hi").await {
        Err(SdkError::Model(message)) => assert!(message.contains("bad things"), "{message}"),
        other => panic!("expected a model error, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_provider_stops_the_session_from_starting() {
    let server = MockServer::start();
    let sandbox = sandbox(&server);
    let options = options(&sandbox).model("nosuch", "some-model");
    match Session::create(options).await {
        Err(SdkError::Setup(message)) => assert!(message.contains("nosuch"), "{message}"),
        Err(other) => panic!("expected a setup error, got {other}"),
        Ok(_) => panic!("expected a setup error"),
    }
}

fn file_lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_persisted_session_is_written_and_can_be_reopened() {
    let server = MockServer::start();
    server.push(MockReply::anthropic_text("The first answer."));
    server.push(MockReply::anthropic_text("The second answer."));
    let sandbox = sandbox(&server);
    let session = start(options(&sandbox).storage(SessionStorage::New)).await;
    session.prompt("Remember the word PINEAPPLE").await.unwrap();
    let path = session.state().session_file.expect("a session file");
    assert!(
        path.starts_with(sandbox.agent_dir.join("sessions")),
        "{path:?}"
    );
    let id = session.state().session_id;
    session.close().await.unwrap();

    let lines = file_lines(&path);
    assert_eq!(lines[0]["type"], "session");
    assert_eq!(lines[0]["id"], id.as_str());
    let text = lines.iter().map(Value::to_string).collect::<String>();
    assert!(text.contains("PINEAPPLE") && text.contains("The first answer."));

    // Reopened without a model, it keeps the one it was saved with.
    let reopened = SessionOptions::new()
        .cwd(&sandbox.project)
        .agent_dir(&sandbox.agent_dir)
        .offline(true)
        .storage(SessionStorage::Open(path.clone()));
    let session = start(reopened).await;
    assert_eq!(session.state().session_id, id);
    assert_eq!(session.state().model.id, "mock-model");
    assert_eq!(session.messages().len(), 2);
    session.prompt("What was the word?").await.unwrap();
    let sent = request_messages(&server, 1);
    assert!(
        sent.contains("PINEAPPLE") && sent.contains("The first answer."),
        "{sent}"
    );
    session.close().await.unwrap();
    let text = file_lines(&path)
        .iter()
        .map(Value::to_string)
        .collect::<String>();
    assert!(text.contains("The second answer."));
    assert_eq!(sandbox.session_files(), [path], "no second file");
}

const SHOUT_EXTENSION: &str = r#"
return function(pi)
  pi.registerTool({
    name = "shout",
    label = "Shout",
    description = "Shout a greeting",
    parameters = { type = "object", properties = {} },
    execute = function(toolCallId, params, signal, onUpdate, ctx)
      return { content = { { type = "text", text = "HEY FROM LUA" } } }
    end,
  })
end
"#;

/// The names of the tools offered in request `index`.
fn offered_tools(server: &MockServer, index: usize) -> Vec<String> {
    server.requests()[index].json()["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .map(|t| t["name"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn extensions_load_only_when_enabled_and_their_tools_run() {
    let server = MockServer::start();
    let sandbox = sandbox(&server);
    std::fs::create_dir_all(sandbox.agent_dir.join("extensions")).unwrap();
    sandbox.write_agent_file("extensions/shout.lua", SHOUT_EXTENSION);

    // Off by default: the agent directory's extension is not loaded.
    server.push(MockReply::anthropic_text("plain"));
    let session = start(options(&sandbox).tools(["ls"])).await;
    session.prompt("hi").await.unwrap();
    assert_eq!(offered_tools(&server, 0), ["ls"]);
    session.close().await.unwrap();

    // On: its tool is offered and runs.
    server.push(MockReply::anthropic_tool_calls(&[(
        "call_1",
        "shout",
        json!({}),
    )]));
    server.push(MockReply::anthropic_text("It shouted."));
    let session = start(options(&sandbox).tools(["ls"]).extensions(true)).await;
    let mut events = session.events();
    let reply = session.prompt("shout please").await.unwrap();
    assert_eq!(reply.text(), "It shouted.");
    assert_eq!(offered_tools(&server, 1), ["ls", "shout"]);
    let ended = drain(&mut events).into_iter().any(|e| {
        matches!(e, Event::ToolExecutionEnd { ref tool_name, is_error: false, .. } if tool_name == "shout")
    });
    assert!(ended, "the extension's tool ran");
    assert!(request_messages(&server, 2).contains("HEY FROM LUA"));
    session.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thinking_levels_are_clamped_to_the_model_and_change_the_request() {
    let server = MockServer::start();
    server.push(MockReply::anthropic_text("thought"));
    server.push(MockReply::anthropic_text("quick"));
    let sandbox = sandbox(&server);
    let session = start(
        options(&sandbox)
            .model("mock", "mock-thinker")
            .thinking(ThinkingLevel::High),
    )
    .await;
    assert_eq!(session.state().thinking, ThinkingLevel::High);
    session.prompt("think hard").await.unwrap();
    assert!(server.requests()[0].json().get("thinking").is_some());
    let level = session
        .set_thinking_level(ThinkingLevel::Off)
        .await
        .unwrap();
    assert_eq!(level, ThinkingLevel::Off);
    session.prompt("quick one").await.unwrap();
    let second = server.requests()[1].json().clone();
    assert!(
        second
            .get("thinking")
            .is_none_or(|t| t["type"] != "enabled"),
        "{second}"
    );

    // A model without reasoning has only `off`.
    session.set_model("mock", "mock-model").await.unwrap();
    let level = session
        .set_thinking_level(ThinkingLevel::High)
        .await
        .unwrap();
    assert_eq!(level, ThinkingLevel::Off);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn images_go_with_the_prompt() {
    let server = MockServer::start();
    server.push(MockReply::anthropic_text("A red dot."));
    let sandbox = sandbox(&server);
    let session = start(options(&sandbox)).await;
    // A 1x1 PNG.
    let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
    let reply = session
        .prompt_with_images("What is this?", vec![ContentBlock::image(png, "image/png")])
        .await
        .unwrap();
    assert_eq!(reply.text(), "A red dot.");
    let sent = request_messages(&server, 0);
    assert!(
        sent.contains("\"image\"") && sent.contains("image/png"),
        "{sent}"
    );
    assert!(sent.contains("What is this?"), "{sent}");
}
