//! A scripted model and an echo tool for driving the agent loop in-process: each
//! request takes the next reply of a script and records what it was sent.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use pi::agent::agent_loop::{AgentLoopConfig, AgentObserver, AgentState, RequestAuth};
use pi::agent::conversation::Conversation;
use pi::agent::events::AgentEvent;
use pi::agent::tool::{AgentTool, ExecutionMode, ToolContext, ToolError, ToolOutput};
use pi::ai::events::MessageBuilder;
use pi::ai::model::{Model, ThinkingLevel};
use pi::ai::stream::{ApiProvider, ProviderError, ProviderRegistry, StreamRequest};
use pi::ai::types::{Message, StopReason, UserMessage};
use serde_json::{Value, json};
use tokio::sync::Notify;

/// One scripted reply.
#[derive(Clone)]
pub enum Reply {
    /// A text answer.
    Text(String),
    /// Tool calls `(id, name, args)`.
    Calls(Vec<(&'static str, &'static str, Value)>),
}

/// What one request carried.
#[derive(Clone)]
pub struct Seen {
    pub messages: Vec<Message>,
    pub session_id: Option<String>,
}

/// The scripted model.
#[derive(Default)]
pub struct Script {
    replies: Mutex<VecDeque<Reply>>,
    pub seen: Mutex<Vec<Seen>>,
    /// Notified once each request's reply is complete.
    pub replied: Arc<Notify>,
}

impl Script {
    pub fn requests(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

#[async_trait]
impl ApiProvider for Script {
    fn api(&self) -> &str {
        "scripted"
    }
    async fn stream(
        &self,
        req: &StreamRequest,
        out: &mut MessageBuilder,
    ) -> Result<(), ProviderError> {
        self.seen.lock().unwrap().push(Seen {
            messages: req.context.messages.clone(),
            session_id: req.options.session_id.clone(),
        });
        let n = self.seen.lock().unwrap().len();
        let reply = self
            .replies
            .lock()
            .unwrap()
            .pop_front()
            .unwrap_or_else(|| Reply::Text(format!("reply {n}")));
        out.start();
        let reason = match reply {
            Reply::Text(t) => {
                out.text_delta(&t);
                StopReason::Stop
            }
            Reply::Calls(calls) => {
                for (id, name, args) in calls {
                    let i = out.toolcall_start(id, name);
                    out.toolcall_delta(i, &args.to_string());
                }
                StopReason::ToolUse
            }
        };
        out.done(reason);
        self.replied.notify_waiters();
        Ok(())
    }
}

/// Echoes `value`; a call with `value: "first"` waits for `gate` before answering.
pub struct Echo {
    pub executed: Arc<Mutex<Vec<String>>>,
    pub gate: Option<Arc<Notify>>,
    pub first_done: Arc<Mutex<bool>>,
    pub parallel_seen: Arc<Mutex<bool>>,
}

impl Echo {
    pub fn new() -> Self {
        Echo {
            executed: Default::default(),
            gate: None,
            first_done: Default::default(),
            parallel_seen: Default::default(),
        }
    }
}

#[async_trait]
impl AgentTool for Echo {
    fn name(&self) -> &str {
        "echo"
    }
    fn description(&self) -> String {
        "Echo tool".into()
    }
    fn parameters(&self) -> Value {
        json!({"type":"object","required":["value"],"properties":{"value":{"type":"string"}}})
    }
    async fn execute(
        &self,
        _id: &str,
        args: Value,
        _ctx: ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let value = args["value"].as_str().unwrap_or_default().to_string();
        self.executed.lock().unwrap().push(value.clone());
        if value == "first"
            && let Some(gate) = &self.gate
        {
            gate.notified().await;
            *self.first_done.lock().unwrap() = true;
        }
        if value == "second" && !*self.first_done.lock().unwrap() {
            *self.parallel_seen.lock().unwrap() = true;
        }
        Ok(ToolOutput::text(format!("echoed: {value}")))
    }
}

/// Records every event as JSON.
#[derive(Default)]
pub struct Events(pub Vec<Value>);

#[async_trait]
impl AgentObserver for Events {
    async fn on_event(&mut self, event: &AgentEvent) {
        self.0.push(serde_json::to_value(event).unwrap());
    }
}

impl Events {
    pub fn kinds(&self) -> Vec<String> {
        self.0
            .iter()
            .map(|e| e["type"].as_str().unwrap().to_string())
            .collect()
    }
    pub fn of(&self, kind: &str) -> Vec<&Value> {
        self.0.iter().filter(|e| e["type"] == kind).collect()
    }
}

/// A loop configuration on `script`, converting messages with `convert`.
pub fn config(
    script: &Arc<Script>,
    convert: fn(&Conversation) -> Vec<Message>,
    mode: ExecutionMode,
) -> AgentLoopConfig {
    let mut providers = ProviderRegistry::default();
    providers.register(script.clone());
    let model: Model = serde_json::from_value(json!({
        "id":"mock","name":"mock","api":"scripted","provider":"test","baseUrl":"http://127.0.0.1:1"
    }))
    .unwrap();
    AgentLoopConfig {
        model,
        thinking: ThinkingLevel::Off,
        providers,
        auth: Arc::new(|_| Ok(RequestAuth::default())),
        tool_execution: mode,
        session_id: None,
        block_images: false,
        convert_to_llm: convert,
        cwd: std::env::temp_dir(),
        limits: Default::default(),
        settled: None,
    }
}

/// A script with these replies.
pub fn script(replies: Vec<Reply>) -> Arc<Script> {
    Arc::new(Script {
        replies: Mutex::new(replies.into()),
        ..Default::default()
    })
}

/// A state with `messages` and `tools`.
pub fn state(system: &str, messages: Vec<Message>, tools: Vec<Arc<dyn AgentTool>>) -> AgentState {
    AgentState {
        system_prompt: system.into(),
        messages: messages.into(),
        tools,
        run: Default::default(),
    }
}

/// A plain user message.
pub fn user(t: &str) -> Message {
    Message::User(UserMessage::text(t))
}

/// A finished assistant text message.
pub fn assistant(t: &str) -> Message {
    let mut m = pi::ai::types::AssistantMessage::empty("scripted", "test", "mock");
    m.content = vec![pi::ai::types::ContentBlock::text(t)];
    m.stop_reason = StopReason::Stop;
    Message::Assistant(m)
}

/// The role of each message.
pub fn roles(messages: &[Message]) -> Vec<String> {
    messages
        .iter()
        .map(|m| {
            serde_json::to_value(m).unwrap()["role"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect()
}

/// Keeps user, assistant and tool-result messages only.
pub fn llm_only(messages: &Conversation) -> Vec<Message> {
    messages
        .iter()
        .filter(|m| {
            matches!(
                **m,
                Message::User(_) | Message::Assistant(_) | Message::ToolResult(_)
            )
        })
        .map(std::borrow::Cow::into_owned)
        .collect()
}

/// Leaves messages as they are.
pub fn identity(messages: &Conversation) -> Vec<Message> {
    messages.to_vec()
}

/// The text of a user message, if it is one.
pub fn user_text(m: &Message) -> Option<String> {
    match m {
        Message::User(u) => Some(u.content.text()),
        _ => None,
    }
}
