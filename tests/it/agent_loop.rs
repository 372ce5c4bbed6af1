//! Agent-loop behaviour with an in-process scripted provider and test tools.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use pi::agent::agent_loop::*;
use pi::agent::events::AgentEvent;
use pi::agent::tool::{AgentTool, ExecutionMode, ToolContext, ToolError, ToolOutput};
use pi::ai::events::MessageBuilder;
use pi::ai::model::{Model, ThinkingLevel};
use pi::ai::stream::{ApiProvider, ProviderError, ProviderRegistry, StreamRequest};
use pi::ai::types::{Message, StopReason, UserMessage};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

/// One scripted reply: text, or tool calls `(id, name, args)`.
#[derive(Clone)]
enum Reply {
    Text(&'static str),
    Calls(Vec<(&'static str, &'static str, Value)>),
    Hang,
}

struct Scripted {
    replies: Mutex<VecDeque<Reply>>,
    seen: Mutex<Vec<usize>>,
}

#[async_trait]
impl ApiProvider for Scripted {
    fn api(&self) -> &str {
        "scripted"
    }
    async fn stream(
        &self,
        req: &StreamRequest,
        out: &mut MessageBuilder,
    ) -> Result<(), ProviderError> {
        self.seen.lock().unwrap().push(req.context.messages.len());
        let reply = self
            .replies
            .lock()
            .unwrap()
            .pop_front()
            .unwrap_or(Reply::Text("(no script)"));
        out.start();
        match reply {
            Reply::Text(t) => out.text_delta(t),
            Reply::Calls(calls) => {
                for (id, name, args) in calls {
                    let i = out.toolcall_start(id, name);
                    out.toolcall_delta(i, &args.to_string());
                }
            }
            Reply::Hang => {
                out.text_delta("partial");
                tokio::time::sleep(Duration::from_secs(30)).await;
            }
        }
        out.done(StopReason::Stop);
        Ok(())
    }
}

struct SleepTool {
    mode: ExecutionMode,
}

#[async_trait]
impl AgentTool for SleepTool {
    fn name(&self) -> &str {
        "sleep"
    }
    fn description(&self) -> String {
        "sleeps".into()
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","required":["ms"],"properties":{"ms":{"type":"number"}}})
    }
    fn execution_mode(&self) -> ExecutionMode {
        self.mode
    }
    async fn execute(
        &self,
        _id: &str,
        args: Value,
        ctx: ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let ms = args["ms"].as_f64().unwrap() as u64;
        ctx.update(ToolOutput::text("working"));
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_millis(ms)) => Ok(ToolOutput::text(format!("slept {ms}"))),
            _ = ctx.signal.cancelled() => Err(ToolError::new("Operation aborted")),
        }
    }
}

#[derive(Default)]
struct Recorder {
    events: Vec<Value>,
    block: Option<String>,
}

#[async_trait]
impl AgentObserver for Recorder {
    async fn on_event(&mut self, event: &AgentEvent) {
        self.events.push(serde_json::to_value(event).unwrap());
    }
    async fn before_tool_call(
        &mut self,
        _c: &pi::ai::types::ToolCall,
        _a: &mut Value,
    ) -> Option<String> {
        self.block.clone()
    }
}

impl Recorder {
    fn kinds(&self) -> Vec<String> {
        self.events
            .iter()
            .map(|e| e["type"].as_str().unwrap().to_string())
            .collect()
    }
    fn of(&self, kind: &str) -> Vec<&Value> {
        self.events.iter().filter(|e| e["type"] == kind).collect()
    }
}

fn setup(replies: Vec<Reply>, mode: ExecutionMode) -> (AgentLoopConfig, AgentState, Arc<Scripted>) {
    let provider = Arc::new(Scripted {
        replies: Mutex::new(replies.into()),
        seen: Mutex::new(vec![]),
    });
    let mut providers = ProviderRegistry::default();
    providers.register(provider.clone());
    let model: Model = serde_json::from_value(json!({
        "id":"m","name":"m","api":"scripted","provider":"test","baseUrl":"http://127.0.0.1:1"
    }))
    .unwrap();
    let cfg = AgentLoopConfig {
        model,
        thinking: ThinkingLevel::Off,
        providers,
        auth: Arc::new(|_| Ok(RequestAuth::default())),
        tool_execution: ExecutionMode::Parallel,
        session_id: None,
        block_images: false,
        convert_to_llm: |m| m.to_vec(),
        cwd: std::env::temp_dir(),
        limits: Default::default(),
        settled: None,
    };
    let state = AgentState {
        system_prompt: "sys".into(),
        messages: Default::default(),
        tools: vec![Arc::new(SleepTool { mode })],
        run: Default::default(),
    };
    (cfg, state, provider)
}

fn user(t: &str) -> Message {
    Message::User(UserMessage::text(t))
}

#[tokio::test]
async fn parallel_tools_end_in_completion_order_results_in_source_order() {
    let (cfg, mut state, _) = setup(
        vec![
            Reply::Calls(vec![
                ("a", "sleep", json!({"ms": 300})),
                ("b", "sleep", json!({"ms": 10})),
            ]),
            Reply::Text("done"),
        ],
        ExecutionMode::Parallel,
    );
    let mut rec = Recorder::default();
    let start = std::time::Instant::now();
    let added = run_agent_loop(
        vec![user("go")],
        &mut state,
        &cfg,
        &AgentQueues::default(),
        &mut rec,
        &CancellationToken::new(),
    )
    .await;
    assert!(
        start.elapsed() < Duration::from_millis(600),
        "tools ran concurrently"
    );
    let ends: Vec<_> = rec
        .of("tool_execution_end")
        .iter()
        .map(|e| e["toolCallId"].clone())
        .collect();
    assert_eq!(ends, [json!("b"), json!("a")]);
    let results: Vec<_> = added
        .iter()
        .filter_map(|m| match m {
            Message::ToolResult(r) => Some(r.tool_call_id.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(results, ["a", "b"]);
    assert_eq!(rec.of("tool_execution_update").len(), 2);
    let kinds = rec.kinds();
    assert_eq!(kinds.first().unwrap(), "agent_start");
    assert_eq!(kinds.last().unwrap(), "agent_end");
    assert_eq!(kinds.iter().filter(|k| *k == "turn_start").count(), 2);
    assert_eq!(added.len(), 5, "user, assistant, 2 results, assistant");
}

#[tokio::test]
async fn sequential_tools_run_one_after_another() {
    let (cfg, mut state, _) = setup(
        vec![
            Reply::Calls(vec![
                ("a", "sleep", json!({"ms": 100})),
                ("b", "sleep", json!({"ms": 10})),
            ]),
            Reply::Text("done"),
        ],
        ExecutionMode::Sequential,
    );
    let mut rec = Recorder::default();
    run_agent_loop(
        vec![user("go")],
        &mut state,
        &cfg,
        &AgentQueues::default(),
        &mut rec,
        &CancellationToken::new(),
    )
    .await;
    let ends: Vec<_> = rec
        .of("tool_execution_end")
        .iter()
        .map(|e| e["toolCallId"].clone())
        .collect();
    assert_eq!(ends, [json!("a"), json!("b")]);
}

#[tokio::test]
async fn invalid_unknown_and_blocked_calls_become_error_results() {
    let (cfg, mut state, _) = setup(
        vec![
            Reply::Calls(vec![
                ("a", "sleep", json!({"ms": "soon"})),
                ("b", "nope", json!({})),
            ]),
            Reply::Text("ok"),
        ],
        ExecutionMode::Parallel,
    );
    let mut rec = Recorder::default();
    let added = run_agent_loop(
        vec![user("go")],
        &mut state,
        &cfg,
        &AgentQueues::default(),
        &mut rec,
        &CancellationToken::new(),
    )
    .await;
    let Message::ToolResult(a) = &added[2] else {
        panic!()
    };
    assert!(a.is_error);
    assert!(
        a.content[0]
            .as_text()
            .unwrap()
            .starts_with("Validation failed for tool \"sleep\"")
    );
    let Message::ToolResult(b) = &added[3] else {
        panic!()
    };
    assert_eq!(b.content[0].as_text().unwrap(), "Tool nope not found");

    let (cfg, mut state, _) = setup(
        vec![
            Reply::Calls(vec![("a", "sleep", json!({"ms": 1}))]),
            Reply::Text("ok"),
        ],
        ExecutionMode::Parallel,
    );
    let mut rec = Recorder {
        block: Some("not allowed".into()),
        ..Default::default()
    };
    let added = run_agent_loop(
        vec![user("go")],
        &mut state,
        &cfg,
        &AgentQueues::default(),
        &mut rec,
        &CancellationToken::new(),
    )
    .await;
    let Message::ToolResult(a) = &added[2] else {
        panic!()
    };
    assert_eq!(a.content[0].as_text().unwrap(), "not allowed");
}

#[tokio::test]
async fn steering_and_follow_up_are_delivered() {
    let (cfg, mut state, provider) = setup(
        vec![
            Reply::Calls(vec![("a", "sleep", json!({"ms": 1}))]),
            Reply::Text("one"),
            Reply::Text("two"),
        ],
        ExecutionMode::Parallel,
    );
    let queues = AgentQueues::default();
    queues.steering.push(user("steer"));
    queues.follow_up.push(user("later"));
    let mut rec = Recorder::default();
    let added = run_agent_loop(
        vec![user("go")],
        &mut state,
        &cfg,
        &queues,
        &mut rec,
        &CancellationToken::new(),
    )
    .await;
    let users: Vec<String> = added
        .iter()
        .filter_map(|m| match m {
            Message::User(u) => Some(u.content.text()),
            _ => None,
        })
        .collect();
    assert_eq!(users, ["go", "steer", "later"]);
    assert_eq!(provider.seen.lock().unwrap().len(), 3);
}

#[tokio::test]
async fn abort_ends_stream_and_tools() {
    let (cfg, mut state, _) = setup(vec![Reply::Hang], ExecutionMode::Parallel);
    let signal = CancellationToken::new();
    let s2 = signal.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        s2.cancel();
    });
    let mut rec = Recorder::default();
    let added = run_agent_loop(
        vec![user("go")],
        &mut state,
        &cfg,
        &AgentQueues::default(),
        &mut rec,
        &signal,
    )
    .await;
    let Message::Assistant(a) = added.last().unwrap() else {
        panic!()
    };
    assert_eq!(a.stop_reason, StopReason::Aborted);
    assert_eq!(a.text(), "partial", "partial content is kept");

    let (cfg, mut state, _) = setup(
        vec![Reply::Calls(vec![("a", "sleep", json!({"ms": 20000}))])],
        ExecutionMode::Parallel,
    );
    let signal = CancellationToken::new();
    let s2 = signal.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        s2.cancel();
    });
    let start = std::time::Instant::now();
    let mut rec = Recorder::default();
    let added = run_agent_loop(
        vec![user("go")],
        &mut state,
        &cfg,
        &AgentQueues::default(),
        &mut rec,
        &signal,
    )
    .await;
    assert!(start.elapsed() < Duration::from_secs(5));
    let Message::ToolResult(r) = &added[2] else {
        panic!()
    };
    assert!(r.is_error);
    let Message::Assistant(a) = added.last().unwrap() else {
        panic!()
    };
    assert_eq!(a.stop_reason, StopReason::Aborted);
}
