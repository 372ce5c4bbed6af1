//! The agent loop driven by a scripted model: the events of a run, custom messages and
//! their conversion, the context hook, tool calls (in parallel, results in source
//! order), steering messages, and continuing from an existing context.
//! orig-file: packages/agent/test/agent-loop.test.ts

use std::sync::{Arc, Mutex};
use std::time::Duration;

use pi::agent::agent_loop::{AgentObserver, AgentQueues, continue_agent_loop, run_agent_loop};
use pi::agent::events::AgentEvent;
use pi::agent::tool::ExecutionMode;
use pi::ai::types::{CustomMessage, Message, UserContent, UserMessage};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::agent_script::*;

fn notification(text: &str) -> Message {
    Message::Custom(CustomMessage {
        custom_type: "notification".into(),
        content: UserContent::Text(text.into()),
        display: true,
        details: None,
        timestamp: 0,
    })
}

/// orig: agentLoop with AgentMessage › should emit events with AgentMessage types
#[tokio::test]
async fn emits_the_events_of_a_run() {
    let script = script(vec![Reply::Text("Hi there!".into())]);
    let cfg = config(&script, identity, ExecutionMode::Parallel);
    let mut st = state("You are helpful.", vec![], vec![]);
    let mut events = Events::default();
    let added = run_agent_loop(
        vec![user("Hello")],
        &mut st,
        &cfg,
        &AgentQueues::default(),
        &mut events,
        &CancellationToken::new(),
    )
    .await;
    assert_eq!(roles(&added), ["user", "assistant"]);
    let kinds = events.kinds();
    for kind in [
        "agent_start",
        "turn_start",
        "message_start",
        "message_end",
        "turn_end",
        "agent_end",
    ] {
        assert!(kinds.contains(&kind.to_string()), "{kind} in {kinds:?}");
    }
    assert_eq!(kinds.first().unwrap(), "agent_start");
    assert_eq!(kinds.last().unwrap(), "agent_end");
}

static CONVERTED: Mutex<Vec<Message>> = Mutex::new(Vec::new());

fn drop_notifications(messages: &pi::agent::conversation::Conversation) -> Vec<Message> {
    let kept = llm_only(messages);
    *CONVERTED.lock().unwrap() = kept.clone();
    kept
}

/// orig: agentLoop with AgentMessage › should handle custom message types via convertToLlm
#[tokio::test]
async fn custom_messages_go_through_the_conversion() {
    let script = script(vec![Reply::Text("Response".into())]);
    let cfg = config(&script, drop_notifications, ExecutionMode::Parallel);
    let mut st = state(
        "You are helpful.",
        vec![notification("This is a notification")],
        vec![],
    );
    run_agent_loop(
        vec![user("Hello")],
        &mut st,
        &cfg,
        &AgentQueues::default(),
        &mut Events::default(),
        &CancellationToken::new(),
    )
    .await;
    let converted = CONVERTED.lock().unwrap().clone();
    assert_eq!(roles(&converted), ["user"]);
    // What the model was sent is the conversion's output.
    let sent = &script.requests()[0].messages;
    assert_eq!(roles(sent), ["user"]);
    assert_eq!(user_text(&sent[0]).unwrap(), "Hello");
    // The notification stays in the agent's own context.
    assert_eq!(roles(&st.messages.to_vec())[0], "custom");
}

/// Keeps the last two messages of the context it is shown.
#[derive(Default)]
struct Pruning {
    shown: usize,
}

#[async_trait::async_trait]
impl AgentObserver for Pruning {
    async fn on_event(&mut self, _event: &AgentEvent) {}
    async fn transform_context(&mut self, messages: &mut Vec<Message>) {
        self.shown = messages.len();
        let keep = messages.split_off(messages.len().saturating_sub(2));
        *messages = keep;
    }
}

/// orig: agentLoop with AgentMessage › should apply transformContext before convertToLlm
#[tokio::test]
async fn the_context_hook_prunes_what_the_model_is_sent() {
    // Differs: here the context hook (`transform_context`, the extensions' `context`
    // event) is shown the converted messages; what reaches the model is the same — the
    // pruned context, converted.
    let script = script(vec![Reply::Text("Response".into())]);
    let cfg = config(&script, llm_only, ExecutionMode::Parallel);
    let history = vec![
        user("old message 1"),
        assistant("old response 1"),
        user("old message 2"),
        assistant("old response 2"),
    ];
    let mut st = state("You are helpful.", history, vec![]);
    let mut hook = Pruning::default();
    run_agent_loop(
        vec![user("new message")],
        &mut st,
        &cfg,
        &AgentQueues::default(),
        &mut hook,
        &CancellationToken::new(),
    )
    .await;
    assert_eq!(hook.shown, 5);
    let sent = &script.requests()[0].messages;
    assert_eq!(roles(sent), ["assistant", "user"]);
    assert_eq!(user_text(&sent[1]).unwrap(), "new message");
    assert_eq!(
        st.messages.len(),
        6,
        "the agent's own context is not pruned"
    );
}

/// orig: agentLoop with AgentMessage › should handle tool calls and results
#[tokio::test]
async fn runs_tool_calls_and_sends_their_results() {
    let script = script(vec![
        Reply::Calls(vec![("tool-1", "echo", json!({"value": "hello"}))]),
        Reply::Text("done".into()),
    ]);
    let cfg = config(&script, identity, ExecutionMode::Parallel);
    let echo = Arc::new(Echo::new());
    let mut st = state("", vec![], vec![echo.clone()]);
    let mut events = Events::default();
    let added = run_agent_loop(
        vec![user("echo something")],
        &mut st,
        &cfg,
        &AgentQueues::default(),
        &mut events,
        &CancellationToken::new(),
    )
    .await;
    assert_eq!(*echo.executed.lock().unwrap(), ["hello"]);
    assert_eq!(events.of("tool_execution_start").len(), 1);
    let end = events.of("tool_execution_end");
    assert_eq!(end.len(), 1);
    assert_eq!(end[0]["isError"], false);
    assert_eq!(
        roles(&added),
        ["user", "assistant", "toolResult", "assistant"]
    );
    let second = &script.requests()[1].messages;
    let Message::ToolResult(r) = &second[2] else {
        panic!("the second request carries the tool result")
    };
    assert_eq!(r.content[0].as_text().unwrap(), "echoed: hello");
}

/// orig: agentLoop with AgentMessage › should execute tool calls in parallel and emit tool results in source order
#[tokio::test]
async fn parallel_calls_keep_source_order_for_results() {
    let script = script(vec![
        Reply::Calls(vec![
            ("tool-1", "echo", json!({"value": "first"})),
            ("tool-2", "echo", json!({"value": "second"})),
        ]),
        Reply::Text("done".into()),
    ]);
    let cfg = config(&script, identity, ExecutionMode::Parallel);
    let gate = Arc::new(tokio::sync::Notify::new());
    let echo = Arc::new(Echo {
        gate: Some(gate.clone()),
        ..Echo::new()
    });
    let release = tokio::spawn(async move {
        // Released only after the second call has had time to finish.
        tokio::time::sleep(Duration::from_millis(100)).await;
        gate.notify_waiters();
    });
    let mut st = state("", vec![], vec![echo.clone()]);
    let mut events = Events::default();
    run_agent_loop(
        vec![user("echo both")],
        &mut st,
        &cfg,
        &AgentQueues::default(),
        &mut events,
        &CancellationToken::new(),
    )
    .await;
    release.await.unwrap();
    assert!(
        *echo.parallel_seen.lock().unwrap(),
        "the second call ran while the first waited"
    );
    let ids: Vec<_> = events
        .of("message_end")
        .iter()
        .filter(|e| e["message"]["role"] == "toolResult")
        .map(|e| e["message"]["toolCallId"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids, ["tool-1", "tool-2"]);
}

/// Queues a steering message once the first tool call has run.
struct SteerAfterFirstTool {
    queues: AgentQueues,
    events: Events,
}

#[async_trait::async_trait]
impl AgentObserver for SteerAfterFirstTool {
    async fn on_event(&mut self, event: &AgentEvent) {
        if let AgentEvent::ToolExecutionEnd { tool_call_id, .. } = event
            && tool_call_id == "tool-1"
        {
            self.queues.steering.push(user("interrupt"));
        }
        self.events.on_event(event).await;
    }
}

/// orig: agentLoop with AgentMessage › should inject queued messages and skip remaining tool calls
#[tokio::test]
async fn a_steering_message_is_delivered_after_the_turn() {
    // 0.73.1: a steering message queued mid-turn no longer skips the turn's remaining
    // tool calls; every call runs and the message goes before the next request.
    let script = script(vec![
        Reply::Calls(vec![
            ("tool-1", "echo", json!({"value": "first"})),
            ("tool-2", "echo", json!({"value": "second"})),
        ]),
        Reply::Text("done".into()),
    ]);
    let cfg = config(&script, identity, ExecutionMode::Sequential);
    let echo = Arc::new(Echo::new());
    let mut st = state("", vec![], vec![echo.clone()]);
    let queues = AgentQueues::default();
    let mut observer = SteerAfterFirstTool {
        queues: queues.clone(),
        events: Events::default(),
    };
    run_agent_loop(
        vec![user("start")],
        &mut st,
        &cfg,
        &queues,
        &mut observer,
        &CancellationToken::new(),
    )
    .await;
    assert_eq!(*echo.executed.lock().unwrap(), ["first", "second"]);
    let ends = observer.events.of("tool_execution_end");
    assert_eq!(ends.len(), 2);
    assert!(ends.iter().all(|e| e["isError"] == false));
    let interrupt_started =
        observer.events.of("message_start").iter().any(|e| {
            e["message"]["role"] == "user" && e["message"]["content"] == json!("interrupt")
        });
    assert!(interrupt_started);
    let requests = script.requests();
    assert_eq!(requests.len(), 2);
    let second = &requests[1].messages;
    assert_eq!(
        roles(second),
        ["user", "assistant", "toolResult", "toolResult", "user"]
    );
    assert_eq!(user_text(second.last().unwrap()).unwrap(), "interrupt");
    assert!(
        !requests[0]
            .messages
            .iter()
            .any(|m| user_text(m).as_deref() == Some("interrupt"))
    );
}

/// orig: agentLoopContinue with AgentMessage › should throw when context has no messages
#[tokio::test]
async fn continuing_an_empty_context_fails() {
    let script = script(vec![]);
    let cfg = config(&script, identity, ExecutionMode::Parallel);
    let mut st = state("You are helpful.", vec![], vec![]);
    let mut events = Events::default();
    let result = continue_agent_loop(
        &mut st,
        &cfg,
        &AgentQueues::default(),
        &mut events,
        &CancellationToken::new(),
    )
    .await;
    assert_eq!(
        result.unwrap_err().to_string(),
        "Cannot continue: no messages in context"
    );
    assert!(events.0.is_empty());
    assert!(script.requests().is_empty());
    // A context ending in a user message continues.
    st.messages.push(user("Hello"));
    let added = continue_agent_loop(
        &mut st,
        &cfg,
        &AgentQueues::default(),
        &mut events,
        &CancellationToken::new(),
    )
    .await
    .unwrap();
    assert_eq!(roles(&added), ["assistant"]);
}

/// orig: agentLoopContinue with AgentMessage › should continue from existing context without emitting user message events
#[tokio::test]
async fn continuing_emits_no_user_message_events() {
    let script = script(vec![Reply::Text("Response".into())]);
    let cfg = config(&script, identity, ExecutionMode::Parallel);
    let mut st = state("You are helpful.", vec![user("Hello")], vec![]);
    let mut events = Events::default();
    let added = continue_agent_loop(
        &mut st,
        &cfg,
        &AgentQueues::default(),
        &mut events,
        &CancellationToken::new(),
    )
    .await
    .unwrap();
    assert_eq!(roles(&added), ["assistant"]);
    let ends = events.of("message_end");
    assert_eq!(ends.len(), 1);
    assert_eq!(ends[0]["message"]["role"], "assistant");
    assert_eq!(roles(&script.requests()[0].messages), ["user"]);
}

fn custom_as_user(messages: &pi::agent::conversation::Conversation) -> Vec<Message> {
    messages
        .iter()
        .map(|m| match &*m {
            Message::Custom(c) => Message::User(UserMessage {
                content: c.content.clone(),
                timestamp: c.timestamp,
            }),
            other => other.clone(),
        })
        .collect()
}

/// orig: agentLoopContinue with AgentMessage › should allow custom message types as last message (caller responsibility)
#[tokio::test]
async fn continuing_from_a_custom_message() {
    let script = script(vec![Reply::Text("Response to custom message".into())]);
    let cfg = config(&script, custom_as_user, ExecutionMode::Parallel);
    let mut st = state(
        "You are helpful.",
        vec![notification("Hook content")],
        vec![],
    );
    let added = continue_agent_loop(
        &mut st,
        &cfg,
        &AgentQueues::default(),
        &mut Events::default(),
        &CancellationToken::new(),
    )
    .await
    .unwrap();
    assert_eq!(roles(&added), ["assistant"]);
    let Message::Assistant(a) = &added[0] else {
        panic!()
    };
    assert_eq!(a.text(), "Response to custom message");
    let sent = &script.requests()[0].messages;
    assert_eq!(user_text(&sent[0]).unwrap(), "Hook content");
}
