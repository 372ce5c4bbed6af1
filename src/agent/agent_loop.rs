//! The loop itself: stream a reply, run its tool calls, repeat until the model
//! stops calling tools and no steering or follow-up message is queued.

use std::collections::BTreeMap;
use std::sync::Arc;

use async_trait::async_trait;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::ai::auth_error::RequestAuthError;
use crate::ai::events::AssistantMessageEvent;
use crate::ai::model::{Model, ThinkingLevel};
use crate::ai::stream::{ProviderRegistry, RequestHooks, StreamOptions};
use crate::ai::types::{AssistantMessage, ContentBlock, Context, Message, StopReason, ToolCall};

use super::events::AgentEvent;
use super::queue::MessageQueue;
use super::run_limits::{LimitDecision, LimitReached, RunCounters, RunLimits};
use super::settled_turn::SettledTurn;
use super::tool::{AgentTool, ExecutionMode, ToolOutput};
pub use super::tool_batch::CUT_OFF_CALL;
use super::tool_batch::execute_tool_calls;

/// Credentials for one request, resolved per call (tokens may expire).
#[derive(Debug, Clone, Default)]
pub struct RequestAuth {
    /// API key or bearer token.
    pub api_key: Option<String>,
    /// Extra headers.
    pub headers: BTreeMap<String, String>,
    /// Replaces the model's base URL for this request (e.g. a subscription's API host).
    pub base_url: Option<String>,
}

/// Resolves credentials for a model just before each request.
pub type AuthResolver = Arc<dyn Fn(&Model) -> Result<RequestAuth, RequestAuthError> + Send + Sync>;

/// Converts the agent's messages into what the model sees.
pub type ConvertToLlm = fn(&super::conversation::Conversation) -> Vec<Message>;

/// Fixed configuration of a run.
#[derive(Clone)]
pub struct AgentLoopConfig {
    /// Model to call.
    pub model: Model,
    /// Thinking level (clamped to the model by providers).
    pub thinking: ThinkingLevel,
    /// Wire protocols.
    pub providers: ProviderRegistry,
    /// Credentials per request.
    pub auth: AuthResolver,
    /// Parallel (default) or sequential tool execution.
    pub tool_execution: ExecutionMode,
    /// Session id, for provider prompt caching.
    pub session_id: Option<String>,
    /// Replace every image with a short text before a request (`images.blockImages`).
    pub block_images: bool,
    /// Message conversion before each request.
    pub convert_to_llm: ConvertToLlm,
    /// Working directory for tools.
    pub cwd: std::path::PathBuf,
    /// Limits on one run (none by default).
    pub limits: RunLimits,
    /// Settled parts of requests kept between processes (none: every request is
    /// converted in full).
    pub settled: Option<super::settled_turn::SettledConfig>,
}

/// What the loop works on: prompt, context and tools.
#[derive(Clone, Default)]
pub struct AgentState {
    /// System prompt.
    pub system_prompt: String,
    /// Conversation so far.
    pub messages: super::conversation::Conversation,
    /// Active tools.
    pub tools: Vec<Arc<dyn AgentTool>>,
    /// What the current run has done, against [`AgentLoopConfig::limits`]; the owner
    /// resets it when a new run begins (a retry continues the run).
    pub run: RunCounters,
}

/// The queues polled by the loop.
#[derive(Clone, Default)]
pub struct AgentQueues {
    /// Delivered after the current turn.
    pub steering: MessageQueue,
    /// Delivered when the agent would otherwise stop.
    pub follow_up: MessageQueue,
}

/// Receives events and may gate tool calls. Called inline, in order.
#[async_trait]
pub trait AgentObserver: Send {
    /// An event happened.
    async fn on_event(&mut self, event: &AgentEvent);

    /// Return `Some(reason)` to block a tool call; `args` may be rewritten in place.
    async fn before_tool_call(&mut self, _call: &ToolCall, _args: &mut Value) -> Option<String> {
        None
    }

    /// Replace the messages about to be sent to the model (`context`).
    async fn transform_context(&mut self, _messages: &mut Vec<Message>) {}

    /// Whether [`AgentObserver::transform_context`] may change the messages (then
    /// every request converts them all).
    fn transforms_context(&self) -> bool {
        true
    }

    /// Hooks for the next provider request.
    fn request_hooks(&self) -> Option<Arc<dyn RequestHooks>> {
        None
    }

    /// A limit of the run was reached (see [`super::run_limits`]): whether it goes on.
    async fn on_limit(&mut self, _reached: &LimitReached) -> LimitDecision {
        LimitDecision::Stop
    }

    /// The latest first-byte time of the next request (a retry's total bound), if any.
    fn request_deadline(&self) -> Option<std::time::Instant> {
        None
    }

    /// Inspect or replace a finished tool result.
    async fn after_tool_call(
        &mut self,
        _call: &ToolCall,
        _result: &mut ToolOutput,
        _is_error: &mut bool,
    ) {
    }
}

/// Run the loop with new prompt messages. Returns the messages it added.
pub async fn run_agent_loop(
    prompts: Vec<Message>,
    state: &mut AgentState,
    cfg: &AgentLoopConfig,
    queues: &AgentQueues,
    observer: &mut dyn AgentObserver,
    signal: &CancellationToken,
) -> Vec<Message> {
    start_with(prompts, state, cfg, queues, observer, signal, true).await
}

/// [`run_agent_loop`], polling the steering queue before the first request or not.
async fn start_with(
    prompts: Vec<Message>,
    state: &mut AgentState,
    cfg: &AgentLoopConfig,
    queues: &AgentQueues,
    observer: &mut dyn AgentObserver,
    signal: &CancellationToken,
    poll_steering_first: bool,
) -> Vec<Message> {
    let mut added = prompts.clone();
    observer.on_event(&AgentEvent::AgentStart).await;
    observer.on_event(&AgentEvent::TurnStart).await;
    for p in prompts {
        emit_whole_message(observer, &p).await;
        state.messages.push(p);
    }
    run_turns(
        state,
        cfg,
        queues,
        observer,
        signal,
        &mut added,
        true,
        poll_steering_first,
    )
    .await;
    added
}

/// Why the loop cannot continue from the current context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContinueError {
    /// The context holds no message.
    NoMessages,
    /// It ends in a reply and nothing is queued to answer.
    FromAssistant,
}

impl std::fmt::Display for ContinueError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ContinueError::NoMessages => "Cannot continue: no messages in context",
            ContinueError::FromAssistant => "Cannot continue from message role: assistant",
        })
    }
}

impl std::error::Error for ContinueError {}

/// Continue from the current context (after a retry) without a new prompt.
///
/// The context must end in a message the model answers. When it ends in an assistant
/// message, the next queued steering message (else the queued follow-ups) becomes the
/// prompt; with nothing queued there is nothing to continue and the error says why.
pub async fn continue_agent_loop(
    state: &mut AgentState,
    cfg: &AgentLoopConfig,
    queues: &AgentQueues,
    observer: &mut dyn AgentObserver,
    signal: &CancellationToken,
) -> Result<Vec<Message>, ContinueError> {
    match state.messages.last().as_deref() {
        None => return Err(ContinueError::NoMessages),
        Some(Message::Assistant(_)) => {
            // A steering message keeps its one-per-turn delivery: the rest wait for the
            // end of the first turn.
            let steering = queues.steering.poll();
            let (prompts, poll_first) = match steering.is_empty() {
                false => (steering, false),
                true => (queues.follow_up.poll(), true),
            };
            if prompts.is_empty() {
                return Err(ContinueError::FromAssistant);
            }
            let added = start_with(prompts, state, cfg, queues, observer, signal, poll_first);
            return Ok(added.await);
        }
        Some(_) => {}
    }
    let mut added = Vec::new();
    observer.on_event(&AgentEvent::AgentStart).await;
    run_turns(
        state, cfg, queues, observer, signal, &mut added, false, true,
    )
    .await;
    Ok(added)
}

#[allow(clippy::too_many_arguments)]
async fn run_turns(
    state: &mut AgentState,
    cfg: &AgentLoopConfig,
    queues: &AgentQueues,
    observer: &mut dyn AgentObserver,
    signal: &CancellationToken,
    added: &mut Vec<Message>,
    turn_started: bool,
    poll_steering_first: bool,
) {
    let mut first_turn = turn_started;
    let mut pending = match poll_steering_first {
        true => queues.steering.poll(),
        false => Vec::new(),
    };
    loop {
        let mut more_tools = true;
        while more_tools || !pending.is_empty() {
            if !first_turn {
                // Every request after a run's first may be one too many.
                if !within_limits(state, cfg, observer).await {
                    end_run(observer, added).await;
                    return;
                }
                observer.on_event(&AgentEvent::TurnStart).await;
            }
            first_turn = false;
            for m in pending.drain(..) {
                emit_whole_message(observer, &m).await;
                state.messages.push(m.clone());
                added.push(m);
            }
            state.run.requests += 1;
            let reply = stream_reply(state, cfg, observer, signal).await;
            added.push(Message::Assistant(reply.clone()));
            if matches!(reply.stop_reason, StopReason::Error | StopReason::Aborted) {
                let ev = AgentEvent::TurnEnd {
                    message: Message::Assistant(reply),
                    tool_results: vec![],
                };
                observer.on_event(&ev).await;
                end_run(observer, added).await;
                return;
            }
            state.run.turns += 1;
            let calls: Vec<ToolCall> = reply.tool_calls().into_iter().cloned().collect();
            more_tools = !calls.is_empty();
            // A reply cut off at the token limit may hold a half-written call:
            // nothing of it runs, and the run ends with the reason.
            let cut_off = reply.stop_reason == StopReason::Length;
            let mut results = Vec::new();
            if more_tools {
                let terminate;
                (results, terminate) =
                    execute_tool_calls(&calls, state, cfg, observer, signal, cut_off).await;
                // Every result of the batch asked to end the run (`terminate`): no
                // follow-up model call.
                more_tools = !cut_off && !terminate;
                state.run.record_turn(&calls, &results);
                for r in &results {
                    state.messages.push(Message::ToolResult(r.clone()));
                    added.push(Message::ToolResult(r.clone()));
                }
            }
            let ev = AgentEvent::TurnEnd {
                message: Message::Assistant(reply),
                tool_results: results.into_iter().map(Message::ToolResult).collect(),
            };
            observer.on_event(&ev).await;
            pending = queues.steering.poll();
        }
        pending = queues.follow_up.poll();
        if pending.is_empty() {
            break;
        }
    }
    end_run(observer, added).await;
}

async fn end_run(observer: &mut dyn AgentObserver, added: &[Message]) {
    let messages = added.to_vec();
    observer.on_event(&AgentEvent::AgentEnd { messages }).await;
}

/// Whether the run may send another request: every limit it has reached is put to
/// the observer. When one stops it, `run_stopped` is emitted and the stop recorded.
async fn within_limits(
    state: &mut AgentState,
    cfg: &AgentLoopConfig,
    observer: &mut dyn AgentObserver,
) -> bool {
    // At most three decisions (one per kind of limit) per check, so that answers that
    // leave a limit reached cannot keep the loop asking.
    for asked in 0.. {
        let Some(reached) = state.run.reached(&cfg.limits) else {
            return true;
        };
        let decision = match asked {
            0..3 => observer.on_limit(&reached).await,
            _ => LimitDecision::Stop,
        };
        if !state.run.apply(&cfg.limits, &reached, decision) {
            let stop = reached.stop();
            let ev = AgentEvent::RunStopped {
                code: stop.code.to_string(),
                message: stop.message.clone(),
                details: reached.payload(),
            };
            observer.on_event(&ev).await;
            state.run.stopped = Some(stop);
            return false;
        }
    }
    true
}

/// Stream one assistant reply into the context, emitting message events.
async fn stream_reply(
    state: &mut AgentState,
    cfg: &AgentLoopConfig,
    observer: &mut dyn AgentObserver,
    signal: &CancellationToken,
) -> AssistantMessage {
    let auth = match (cfg.auth)(&cfg.model) {
        Ok(a) => a,
        Err(e) => {
            let mut m = AssistantMessage::empty(&cfg.model.api, &cfg.model.provider, &cfg.model.id);
            m.stop_reason = StopReason::Error;
            m.error_message = Some(e.to_string());
            return finish_without_stream(state, observer, m).await;
        }
    };
    let mut model = cfg.model.clone();
    if let Some(base_url) = auth.base_url {
        model.base_url = base_url;
    }
    let system_prompt = Some(state.system_prompt.clone()).filter(|s| !s.is_empty());
    let settled = cfg
        .settled
        .as_ref()
        .filter(|_| !cfg.block_images && !observer.transforms_context())
        .and_then(|config| Some((config, cfg.providers.settled_format(&model.api)?)))
        .map(|(config, format)| {
            let prompt = system_prompt.as_deref();
            SettledTurn::prepare(config, format, &model, prompt, &state.messages)
        });
    let (mut messages, exchange) = match settled {
        Some(mut turn) => (std::mem::take(&mut turn.messages), Some(turn)),
        None => ((cfg.convert_to_llm)(&state.messages), None),
    };
    observer.transform_context(&mut messages).await;
    if cfg.block_images {
        crate::ai::transform::block_images(&mut messages);
    }
    let context = Arc::new(Context {
        system_prompt,
        messages,
        tools: state.tools.iter().map(|t| t.spec()).collect(),
    });
    let options = StreamOptions {
        api_key: auth.api_key,
        headers: auth.headers,
        reasoning: Some(cfg.thinking),
        signal: signal.clone(),
        session_id: cfg.session_id.clone(),
        hooks: observer.request_hooks(),
        deadline: observer.request_deadline(),
        settled: exchange.as_ref().map(|turn| Arc::clone(&turn.exchange)),
        ..Default::default()
    };
    let stream = cfg.providers.stream(model, context, options);
    let reply = receive(stream, state, cfg, observer).await;
    if let (Some(turn), Some(config)) = (exchange, cfg.settled.as_ref()) {
        turn.keep(config, &state.messages);
    }
    reply
}

/// Receive the reply of a request, emitting message events.
async fn receive(
    mut stream: crate::ai::events::AssistantStream,
    state: &mut AgentState,
    cfg: &AgentLoopConfig,
    observer: &mut dyn AgentObserver,
) -> AssistantMessage {
    let mut started = false;
    while let Some(ev) = stream.next().await {
        match ev {
            AssistantMessageEvent::Start { partial } => {
                state.messages.push(Message::Assistant(partial.clone()));
                started = true;
                observer
                    .on_event(&AgentEvent::MessageStart {
                        message: Message::Assistant(partial),
                    })
                    .await;
            }
            AssistantMessageEvent::Done { message, .. }
            | AssistantMessageEvent::Error { error: message, .. } => {
                if !started {
                    return finish_without_stream(state, observer, message).await;
                }
                if let Some(last) = state.messages.last_mut() {
                    *last = Message::Assistant(message.clone());
                }
                let ev = AgentEvent::MessageEnd {
                    message: Message::Assistant(message.clone()),
                };
                observer.on_event(&ev).await;
                return message;
            }
            other => {
                if let AssistantMessageEvent::ToolCallStart {
                    content_index,
                    partial,
                } = &other
                    && let Some(ContentBlock::ToolCall(call)) = partial.content.get(*content_index)
                    && let Some(tool) = state.tools.iter().find(|t| t.name() == call.name)
                {
                    super::validate::prepare_in_background(
                        tool.parameters(),
                        tool.schema_dialect(),
                    );
                }
                let partial = other.message().clone();
                let ev = AgentEvent::MessageUpdate {
                    message: Message::Assistant(partial),
                    assistant_message_event: Box::new(other),
                };
                observer.on_event(&ev).await;
                // The event's copy becomes the context's: no third copy per update.
                if started
                    && let Some(last) = state.messages.last_mut()
                    && let AgentEvent::MessageUpdate { message, .. } = ev
                {
                    *last = message;
                }
            }
        }
    }
    let mut m = AssistantMessage::empty(&cfg.model.api, &cfg.model.provider, &cfg.model.id);
    m.stop_reason = StopReason::Error;
    m.error_message = Some("Provider stream ended unexpectedly".into());
    if started {
        state.messages.pop();
    }
    finish_without_stream(state, observer, m).await
}

async fn finish_without_stream(
    state: &mut AgentState,
    observer: &mut dyn AgentObserver,
    m: AssistantMessage,
) -> AssistantMessage {
    state.messages.push(Message::Assistant(m.clone()));
    emit_whole_message(observer, &Message::Assistant(m.clone())).await;
    m
}

/// Emit `message_start` and `message_end` for a message that is already complete.
pub(super) async fn emit_whole_message(observer: &mut dyn AgentObserver, message: &Message) {
    let start = AgentEvent::MessageStart {
        message: message.clone(),
    };
    observer.on_event(&start).await;
    let end = AgentEvent::MessageEnd {
        message: message.clone(),
    };
    observer.on_event(&end).await;
}
