//! The agent as a library user holds it: its state on creation and from options,
//! subscribing, changing model and thinking level, the steering and follow-up queues,
//! aborting, refusing a second prompt while one runs, continuing from an assistant reply
//! with queued messages, and the session id each request carries. The agent here is
//! `pi::sdk::Session` (offline: the scripted `demo` model or a local model never asked)
//! and, for continuing, the agent loop itself.
//! orig-file: packages/agent/test/agent.test.ts

use std::sync::{Arc, Mutex};
use std::time::Duration;

use pi::agent::agent_loop::{AgentQueues, continue_agent_loop, run_agent_loop};
use pi::agent::tool::ExecutionMode;
use pi::sdk::{SdkError, Session, SessionOptions, StopReason, ThinkingLevel};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::agent_script::*;

/// A project and agent folder; the agent folder knows a local reasoning model that is
/// never asked (nothing listens on its port).
struct Dirs {
    _tmp: tempfile::TempDir,
    project: std::path::PathBuf,
    agent: std::path::PathBuf,
}

fn dirs() -> Dirs {
    let tmp = tempfile::tempdir().unwrap();
    let (project, agent) = (tmp.path().join("project"), tmp.path().join("agent"));
    std::fs::create_dir_all(&project).unwrap();
    std::fs::create_dir_all(&agent).unwrap();
    let models = json!({"providers": {"local": {
        "baseUrl": "http://127.0.0.1:9/v1", "api": "openai-completions", "apiKey": "none",
        "models": [
            {"id": "small", "reasoning": true, "contextWindow": 8000, "maxTokens": 1000},
            {"id": "large", "reasoning": true, "contextWindow": 8000, "maxTokens": 1000}
        ]
    }}});
    std::fs::write(agent.join("models.json"), models.to_string()).unwrap();
    Dirs {
        _tmp: tmp,
        project,
        agent,
    }
}

fn options(d: &Dirs) -> SessionOptions {
    SessionOptions::new()
        .cwd(&d.project)
        .agent_dir(&d.agent)
        .offline(true)
        .extensions(false)
}

async fn demo(d: &Dirs) -> Session {
    Session::create(options(d).model("demo", "demo"))
        .await
        .unwrap()
}

/// orig: Agent › should create an agent instance with default state
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_agent_is_idle_and_empty() {
    let d = dirs();
    let session = demo(&d).await;
    let state = session.state();
    assert_eq!(state.model.provider, "demo");
    assert_eq!(state.thinking, ThinkingLevel::Off);
    assert!(!state.is_running);
    assert!(!session.is_running());
    assert_eq!(state.message_count, 0);
    assert!(session.messages().is_empty());
    assert!(state.steering.is_empty() && state.follow_up.is_empty());
    assert_eq!(session.last_assistant_text(), None);
}

/// orig: Agent › should create an agent instance with custom initial state
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_starts_with_the_model_and_level_given() {
    let d = dirs();
    let session = Session::create(
        options(&d)
            .model("local", "large")
            .thinking(ThinkingLevel::Low)
            .system_prompt("You are a helpful assistant."),
    )
    .await
    .unwrap();
    let state = session.state();
    assert_eq!(
        (state.model.provider.as_str(), state.model.id.as_str()),
        ("local", "large")
    );
    assert_eq!(state.thinking, ThinkingLevel::Low);
    // Without options the same folder starts elsewhere: the options decided it.
    let plain = demo(&d).await.state();
    assert_eq!(plain.thinking, ThinkingLevel::Off);
    assert_ne!(plain.model.id, "large");
}

/// orig: Agent › should subscribe to events
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn subscribers_hear_runs_not_setters() {
    let d = dirs();
    let session = Session::create(options(&d).model("local", "small"))
        .await
        .unwrap();
    let count = Arc::new(Mutex::new(0));
    let c = count.clone();
    let id = session.subscribe(move |_| *c.lock().unwrap() += 1);
    assert_eq!(*count.lock().unwrap(), 0, "no event on subscribing");
    session
        .set_thinking_level(ThinkingLevel::High)
        .await
        .unwrap();
    session.set_model("local", "large").await.unwrap();
    assert_eq!(session.state().model.id, "large");
    assert_eq!(
        *count.lock().unwrap(),
        0,
        "changing settings emits no event"
    );
    assert!(session.unsubscribe(id));
    assert!(
        !session.unsubscribe(id),
        "a second unsubscribe finds nothing"
    );
    session.follow_up("queued");
    assert_eq!(*count.lock().unwrap(), 0);
}

/// orig: Agent › should update state with mutators
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn setters_change_the_state() {
    let d = dirs();
    let session = Session::create(options(&d).model("local", "small"))
        .await
        .unwrap();
    let model = session.set_model("local", "large").await.unwrap();
    assert_eq!(model.id, "large");
    assert_eq!(session.state().model.id, "large");
    let level = session
        .set_thinking_level(ThinkingLevel::High)
        .await
        .unwrap();
    assert_eq!(level, ThinkingLevel::High);
    assert_eq!(session.state().thinking, ThinkingLevel::High);
    // A model that does not exist is refused and the state is kept.
    let err = session.set_model("local", "missing").await.unwrap_err();
    assert!(matches!(err, SdkError::ModelNotFound(_)), "{err:?}");
    assert_eq!(session.state().model.id, "large");
}

/// orig: Agent › should support steering message queue
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn steering_is_queued_not_added() {
    let d = dirs();
    let session = demo(&d).await;
    session.steer("Steering message");
    let state = session.state();
    assert_eq!(state.steering, ["Steering message"]);
    assert!(state.follow_up.is_empty());
    assert_eq!(state.message_count, 0);
}

/// orig: Agent › should support follow-up message queue
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follow_up_is_queued_not_added() {
    let d = dirs();
    let session = demo(&d).await;
    session.follow_up("Follow-up message");
    let state = session.state();
    assert_eq!(state.follow_up, ["Follow-up message"]);
    assert!(state.steering.is_empty());
    assert_eq!(state.message_count, 0);
}

/// orig: Agent › should handle abort controller
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn aborting_while_idle_is_harmless() {
    let d = dirs();
    let session = demo(&d).await;
    session.abort();
    assert!(!session.is_running());
    // The next prompt is not aborted by it.
    let reply = session.prompt("tools").await.unwrap();
    assert_eq!(reply.stop_reason, StopReason::Stop);
}

/// orig: Agent › should throw when prompt() called while streaming
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_prompt_while_running_is_refused() {
    let d = dirs();
    let session = demo(&d).await;
    let first = tokio::spawn({
        let s = session.clone();
        async move { s.prompt("Show me around").await }
    });
    for _ in 0..200 {
        if session.is_running() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(session.is_running());
    let second = session.prompt("Second message").await;
    assert!(matches!(second, Err(SdkError::Busy)), "{second:?}");
    session.abort();
    let first = first.await.unwrap().unwrap();
    assert_eq!(first.stop_reason, StopReason::Aborted);
    // Once the run is over a prompt goes through.
    assert!(session.prompt("tools").await.is_ok());
}

/// orig: Agent › should throw when continue() called while streaming
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn continuing_while_running_is_refused() {
    let d = dirs();
    let session = demo(&d).await;
    let first = tokio::spawn({
        let s = session.clone();
        async move { s.prompt("Show me around").await }
    });
    for _ in 0..200 {
        if session.is_running() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(session.is_running());
    let second = session.continue_run().await;
    assert!(matches!(second, Err(SdkError::Busy)), "{second:?}");
    session.abort();
    assert_eq!(
        first.await.unwrap().unwrap().stop_reason,
        StopReason::Aborted
    );
    // Idle again, a continuation with a queued follow-up runs.
    session.follow_up("tools");
    let reply = session.continue_run().await.unwrap();
    assert_eq!(reply.stop_reason, StopReason::Stop);
    let messages = session.messages();
    let last_user = messages.iter().rev().find_map(user_text).unwrap();
    assert_eq!(last_user, "tools");
}

/// orig: Agent › continue() should process queued follow-up messages after an assistant turn
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn continuing_after_a_reply_takes_the_queued_follow_up() {
    let script = script(vec![Reply::Text("Processed".into())]);
    let cfg = config(&script, identity, ExecutionMode::Parallel);
    let mut st = state(
        "",
        vec![user("Initial"), assistant("Initial response")],
        vec![],
    );
    let queues = AgentQueues::default();
    queues.follow_up.push(user("Queued follow-up"));
    continue_agent_loop(
        &mut st,
        &cfg,
        &queues,
        &mut Events::default(),
        &CancellationToken::new(),
    )
    .await
    .unwrap();
    assert_eq!(
        roles(&st.messages.to_vec()),
        ["user", "assistant", "user", "assistant"]
    );
    assert_eq!(
        user_text(&st.messages.to_vec()[2]).unwrap(),
        "Queued follow-up"
    );
    assert!(queues.follow_up.is_empty());
    assert_eq!(script.requests().len(), 1);
    // With nothing queued there is nothing to continue from a reply.
    let err = continue_agent_loop(
        &mut st,
        &cfg,
        &queues,
        &mut Events::default(),
        &CancellationToken::new(),
    )
    .await
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Cannot continue from message role: assistant"
    );
    assert_eq!(script.requests().len(), 1, "no request was sent");

    // The same through the library: nothing queued after a reply is nothing to run.
    let d = dirs();
    let session = demo(&d).await;
    session.prompt("tools").await.unwrap();
    let count = session.messages().len();
    let nothing = session.continue_run().await;
    assert!(matches!(nothing, Err(SdkError::NoReply)), "{nothing:?}");
    assert_eq!(session.messages().len(), count);
    session.follow_up("markdown");
    session.continue_run().await.unwrap();
    let messages = session.messages();
    assert_eq!(roles(&messages[count..]), ["user", "assistant"]);
    assert_eq!(user_text(&messages[count]).unwrap(), "markdown");
}

/// orig: Agent › continue() should keep one-at-a-time steering semantics from assistant tail
#[tokio::test]
async fn continuing_delivers_steering_one_per_turn() {
    let script = script(vec![]);
    let cfg = config(&script, identity, ExecutionMode::Parallel);
    let mut st = state(
        "",
        vec![user("Initial"), assistant("Initial response")],
        vec![],
    );
    let queues = AgentQueues::default();
    queues.steering.push(user("Steering 1"));
    queues.steering.push(user("Steering 2"));
    continue_agent_loop(
        &mut st,
        &cfg,
        &queues,
        &mut Events::default(),
        &CancellationToken::new(),
    )
    .await
    .unwrap();
    let all = st.messages.to_vec();
    let recent = &all[all.len() - 4..];
    assert_eq!(roles(recent), ["user", "assistant", "user", "assistant"]);
    assert_eq!(user_text(&recent[0]).unwrap(), "Steering 1");
    assert_eq!(user_text(&recent[2]).unwrap(), "Steering 2");
    assert_eq!(script.requests().len(), 2);
}

/// orig: Agent › forwards sessionId to streamFn options
#[tokio::test]
async fn requests_carry_the_session_id() {
    let script = script(vec![]);
    let mut cfg = config(&script, identity, ExecutionMode::Parallel);
    cfg.session_id = Some("session-abc".into());
    let mut st = state("", vec![], vec![]);
    let queues = AgentQueues::default();
    let signal = CancellationToken::new();
    run_agent_loop(
        vec![user("hello")],
        &mut st,
        &cfg,
        &queues,
        &mut Events::default(),
        &signal,
    )
    .await;
    cfg.session_id = Some("session-def".into());
    run_agent_loop(
        vec![user("hello again")],
        &mut st,
        &cfg,
        &queues,
        &mut Events::default(),
        &signal,
    )
    .await;
    let ids: Vec<_> = script
        .requests()
        .into_iter()
        .map(|s| s.session_id)
        .collect();
    assert_eq!(
        ids,
        [Some("session-abc".into()), Some("session-def".into())]
    );
}
