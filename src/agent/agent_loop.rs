//! The loop itself: stream a reply, run its tool calls, repeat until the model
//! stops calling tools and no steering or follow-up message is queued.

use std::collections::BTreeMap;
use std::sync::Arc;

use async_trait::async_trait;
use futures::StreamExt;
use futures::stream::FuturesUnordered;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::ai::events::AssistantMessageEvent;
use crate::ai::model::{Model, ThinkingLevel};
use crate::ai::stream::{ProviderRegistry, RequestHooks, StreamOptions};
use crate::ai::types::{
    AssistantMessage, ContentBlock, Context, Message, StopReason, ToolCall, ToolResultMessage,
    now_ms,
};

use super::events::{AgentEvent, ToolResultPayload};
use super::queue::MessageQueue;
use super::tool::{AgentTool, ExecutionMode, ToolContext, ToolOutput};
use super::validate::validate_call_arguments;

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
pub type AuthResolver = Arc<dyn Fn(&Model) -> Result<RequestAuth, String> + Send + Sync>;

/// Converts the agent's messages into what the model sees.
pub type ConvertToLlm = fn(&[Message]) -> Vec<Message>;

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
}

/// What the loop works on: prompt, context and tools.
#[derive(Clone, Default)]
pub struct AgentState {
    /// System prompt.
    pub system_prompt: String,
    /// Conversation so far.
    pub messages: Vec<Message>,
    /// Active tools.
    pub tools: Vec<Arc<dyn AgentTool>>,
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

    /// Hooks for the next provider request.
    fn request_hooks(&self) -> Option<Arc<dyn RequestHooks>> {
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
    let mut added = prompts.clone();
    observer.on_event(&AgentEvent::AgentStart).await;
    observer.on_event(&AgentEvent::TurnStart).await;
    for p in prompts {
        emit_whole_message(observer, &p).await;
        state.messages.push(p);
    }
    run_turns(state, cfg, queues, observer, signal, &mut added).await;
    added
}

/// Continue from the current context (after a retry) without a new prompt.
pub async fn continue_agent_loop(
    state: &mut AgentState,
    cfg: &AgentLoopConfig,
    queues: &AgentQueues,
    observer: &mut dyn AgentObserver,
    signal: &CancellationToken,
) -> Vec<Message> {
    let mut added = Vec::new();
    observer.on_event(&AgentEvent::AgentStart).await;
    observer.on_event(&AgentEvent::TurnStart).await;
    run_turns(state, cfg, queues, observer, signal, &mut added).await;
    added
}

async fn run_turns(
    state: &mut AgentState,
    cfg: &AgentLoopConfig,
    queues: &AgentQueues,
    observer: &mut dyn AgentObserver,
    signal: &CancellationToken,
    added: &mut Vec<Message>,
) {
    let mut first_turn = true;
    let mut pending = queues.steering.poll();
    loop {
        let mut more_tools = true;
        while more_tools || !pending.is_empty() {
            if !first_turn {
                observer.on_event(&AgentEvent::TurnStart).await;
            }
            first_turn = false;
            for m in pending.drain(..) {
                emit_whole_message(observer, &m).await;
                state.messages.push(m.clone());
                added.push(m);
            }
            let reply = stream_reply(state, cfg, observer, signal).await;
            added.push(Message::Assistant(reply.clone()));
            if matches!(reply.stop_reason, StopReason::Error | StopReason::Aborted) {
                let ev = AgentEvent::TurnEnd {
                    message: Message::Assistant(reply),
                    tool_results: vec![],
                };
                observer.on_event(&ev).await;
                observer
                    .on_event(&AgentEvent::AgentEnd {
                        messages: added.clone(),
                    })
                    .await;
                return;
            }
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
    observer
        .on_event(&AgentEvent::AgentEnd {
            messages: added.clone(),
        })
        .await;
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
            m.error_message = Some(e);
            return finish_without_stream(state, observer, m).await;
        }
    };
    let mut messages = (cfg.convert_to_llm)(&state.messages);
    observer.transform_context(&mut messages).await;
    if cfg.block_images {
        crate::ai::transform::block_images(&mut messages);
    }
    let context = Arc::new(Context {
        system_prompt: Some(state.system_prompt.clone()).filter(|s| !s.is_empty()),
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
        ..Default::default()
    };
    let mut model = cfg.model.clone();
    if let Some(base_url) = auth.base_url {
        model.base_url = base_url;
    }
    let mut stream = cfg.providers.stream(model, context, options);
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
async fn emit_whole_message(observer: &mut dyn AgentObserver, message: &Message) {
    let start = AgentEvent::MessageStart {
        message: message.clone(),
    };
    observer.on_event(&start).await;
    let end = AgentEvent::MessageEnd {
        message: message.clone(),
    };
    observer.on_event(&end).await;
}

/// A tool call ready to run, or already answered (unknown tool, invalid args, blocked).
enum Prepared {
    Run {
        call: ToolCall,
        tool: Arc<dyn AgentTool>,
        args: Value,
    },
    Immediate {
        call: ToolCall,
        output: ToolOutput,
    },
}

/// The result of a tool call in a reply that hit the output token limit.
pub const CUT_OFF_CALL: &str = "Tool call not executed: the reply was cut off at the output token \
limit (stop reason \"length\"), so its arguments may be incomplete. Ask for a smaller step, or raise \
the model's maxTokens.";

fn error_output(message: impl Into<String>) -> ToolOutput {
    ToolOutput {
        content: vec![ContentBlock::text(message)],
        details: Some(Value::Object(Default::default())),
        terminate: false,
    }
}

async fn prepare(
    call: &ToolCall,
    state: &AgentState,
    observer: &mut dyn AgentObserver,
) -> Prepared {
    let Some(tool) = state.tools.iter().find(|t| t.name() == call.name).cloned() else {
        return Prepared::Immediate {
            call: call.clone(),
            output: error_output(format!("Tool {} not found", call.name)),
        };
    };
    let prepared_args = tool.prepare_arguments(call.arguments.clone());
    let dialect = tool.schema_dialect();
    let mut args = match validate_call_arguments(
        &call.name,
        &tool.parameters(),
        dialect,
        &prepared_args,
        call.raw_arguments.as_deref(),
    ) {
        Ok(a) => a,
        Err(e) => {
            return Prepared::Immediate {
                call: call.clone(),
                output: error_output(e),
            };
        }
    };
    if let Some(reason) = observer.before_tool_call(call, &mut args).await {
        let reason = if reason.is_empty() {
            "Tool execution was blocked".to_string()
        } else {
            reason
        };
        return Prepared::Immediate {
            call: call.clone(),
            output: error_output(reason),
        };
    }
    Prepared::Run {
        call: call.clone(),
        tool,
        args,
    }
}

/// Progress of one running tool, sent from its update callback.
struct Progress {
    index: usize,
    output: ToolOutput,
}

async fn execute_tool_calls(
    calls: &[ToolCall],
    state: &AgentState,
    cfg: &AgentLoopConfig,
    observer: &mut dyn AgentObserver,
    signal: &CancellationToken,
    cut_off: bool,
) -> (Vec<ToolResultMessage>, bool) {
    let sequential = cfg.tool_execution == ExecutionMode::Sequential
        || calls.iter().any(|c| {
            state
                .tools
                .iter()
                .any(|t| t.name() == c.name && t.execution_mode() == ExecutionMode::Sequential)
        });
    let (tx, mut rx) = mpsc::unbounded_channel::<Progress>();
    let mut finished: Vec<Option<(ToolOutput, bool)>> = vec![None; calls.len()];
    let mut running = FuturesUnordered::new();
    for (index, call) in calls.iter().enumerate() {
        let ev = AgentEvent::ToolExecutionStart {
            tool_call_id: call.id.clone(),
            tool_name: call.name.clone(),
            args: call.arguments.clone(),
        };
        observer.on_event(&ev).await;
        let repeated_id = calls[..index]
            .iter()
            .any(|c| !c.id.is_empty() && c.id == call.id);
        let prepared = match (cut_off, repeated_id) {
            (true, _) => Prepared::Immediate {
                call: call.clone(),
                output: error_output(CUT_OFF_CALL),
            },
            (false, true) => Prepared::Immediate {
                call: call.clone(),
                output: error_output(format!(
                    "Tool call not executed: its id \"{}\" is already used by an earlier call in this reply (each call needs its own id)",
                    call.id
                )),
            },
            (false, false) => prepare(call, state, observer).await,
        };
        match prepared {
            Prepared::Immediate { call, output } => {
                emit_end(observer, &call, &output, true).await;
                finished[index] = Some((output, true));
            }
            Prepared::Run { call, tool, args } => {
                running.push(run_tool(
                    index,
                    call,
                    tool,
                    args,
                    cfg.cwd.clone(),
                    signal.clone(),
                    tx.clone(),
                ));
                if sequential {
                    drive(&mut running, &mut rx, calls, observer, &mut finished).await;
                }
            }
        }
    }
    drop(tx);
    drive(&mut running, &mut rx, calls, observer, &mut finished).await;
    let mut results = Vec::with_capacity(calls.len());
    let mut terminate = !calls.is_empty();
    for (call, done) in calls.iter().zip(finished) {
        let (output, is_error) =
            done.unwrap_or_else(|| (error_output("Tool did not finish"), true));
        terminate &= output.terminate;
        let msg = ToolResultMessage {
            tool_call_id: call.id.clone(),
            tool_name: call.name.clone(),
            content: output.content,
            details: output.details,
            is_error,
            timestamp: now_ms(),
        };
        emit_whole_message(observer, &Message::ToolResult(msg.clone())).await;
        results.push(msg);
    }
    (results, terminate)
}

/// Run tools until all finish, forwarding progress and emitting ends in completion order.
async fn drive<F>(
    running: &mut FuturesUnordered<F>,
    rx: &mut mpsc::UnboundedReceiver<Progress>,
    calls: &[ToolCall],
    observer: &mut dyn AgentObserver,
    finished: &mut [Option<(ToolOutput, bool)>],
) where
    F: std::future::Future<Output = (usize, ToolCall, ToolOutput, bool)>,
{
    while !running.is_empty() {
        tokio::select! {
            biased;
            Some(p) = rx.recv() => emit_progress(observer, calls, p).await,
            Some((i, call, mut output, mut is_error)) = running.next() => {
                drain_progress(rx, calls, observer).await;
                observer.after_tool_call(&call, &mut output, &mut is_error).await;
                emit_end(observer, &call, &output, is_error).await;
                finished[i] = Some((output, is_error));
            }
        }
    }
}

async fn run_tool(
    index: usize,
    call: ToolCall,
    tool: Arc<dyn AgentTool>,
    args: Value,
    cwd: std::path::PathBuf,
    signal: CancellationToken,
    tx: mpsc::UnboundedSender<Progress>,
) -> (usize, ToolCall, ToolOutput, bool) {
    let ctx = ToolContext {
        cwd,
        signal: signal.child_token(),
        on_update: Some(Arc::new(move |output| {
            let _ = tx.send(Progress { index, output });
        })),
    };
    match tool.execute(&call.id, args, ctx).await {
        Ok(output) => (index, call, output, false),
        Err(e) => {
            let details = e
                .details
                .or_else(|| Some(Value::Object(Default::default())));
            (
                index,
                call,
                ToolOutput {
                    content: vec![ContentBlock::text(e.message)],
                    details,
                    terminate: false,
                },
                true,
            )
        }
    }
}

async fn drain_progress(
    rx: &mut mpsc::UnboundedReceiver<Progress>,
    calls: &[ToolCall],
    observer: &mut dyn AgentObserver,
) {
    while let Ok(p) = rx.try_recv() {
        emit_progress(observer, calls, p).await;
    }
}

async fn emit_progress(observer: &mut dyn AgentObserver, calls: &[ToolCall], p: Progress) {
    let call = &calls[p.index];
    let ev = AgentEvent::ToolExecutionUpdate {
        tool_call_id: call.id.clone(),
        tool_name: call.name.clone(),
        args: call.arguments.clone(),
        partial_result: p.output.into(),
    };
    observer.on_event(&ev).await;
}

async fn emit_end(
    observer: &mut dyn AgentObserver,
    call: &ToolCall,
    output: &ToolOutput,
    is_error: bool,
) {
    let ev = AgentEvent::ToolExecutionEnd {
        tool_call_id: call.id.clone(),
        tool_name: call.name.clone(),
        result: ToolResultPayload::from(output.clone()),
        is_error,
    };
    observer.on_event(&ev).await;
}
