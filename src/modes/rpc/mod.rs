//! RPC mode (`pi --mode rpc`): commands as JSON lines on stdin, responses and
//! streamed events as JSON lines on stdout (pi 0.73's protocol).
//!
//! The session runs in a task while a prompt streams or a `bash` command
//! runs, so the command loop keeps reading: `steer`, `follow_up`, `get_state`,
//! `get_messages` and the queue modes are answered at once, `abort` once the run
//! it stops has ended; commands that change the session wait until the task hands
//! it back and are then processed in the order they arrived. Each line is parsed
//! into a typed command in one place (`parse`).

mod checkpoints;
mod commands;
pub mod error;
mod io;
mod parse;
mod state;
mod ui;

use crate::sync::LockExt;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

pub use io::{Incoming, MAX_LINE_BYTES, parse_record, read_records, salvage_id};
pub use ui::{RpcUi, UiReplies};

use crate::agent::events::AgentEvent;
use crate::ai::model::{Model, ThinkingLevel};
use crate::ai::types::{ContentBlock, Message, UserContent, UserMessage, now_ms};
use crate::core::agent_session::AgentSession;
use io::{emit, failure, success};
use parse::{Query, Queue, Request, RpcCommand};
use state::Live;

/// What RPC mode needs besides the session.
pub struct RpcOptions {
    /// `--models` scope for `cycle_model` (empty: all available).
    pub cycle_models: Vec<Model>,
    /// Thinking level used when switching away from a model without
    /// reasoning (settings `defaultThinkingLevel`, else medium).
    pub default_thinking: ThinkingLevel,
    /// Where stdin delivers `extension_ui_response` records.
    pub ui_replies: UiReplies,
    /// The settings the choices made over RPC are saved to (model, thinking level,
    /// queue modes, automatic compaction and retry), as the terminal UI saves them.
    pub settings: crate::config::settings::Settings,
    /// `~/.pi/agent` (for the `sourceInfo` of discovered resources).
    pub agent_dir: std::path::PathBuf,
    /// The project folder when it is trusted.
    pub project: Option<std::path::PathBuf>,
}

/// What the session task is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Busy {
    Prompt,
    Bash,
}

/// The RPC server: the session (or the task holding it) and shared handles.
struct Server {
    agent: Option<AgentSession>,
    task: Option<(Busy, JoinHandle<AgentSession>)>,
    deferred: VecDeque<Request>,
    /// The ids of `abort`s answered when the run ends.
    pending_aborts: Vec<Option<Value>>,
    live: Arc<Mutex<Live>>,
    /// Writes events in order (streaming deltas merged).
    events: crate::modes::coalesce::UpdateCoalescer,
    abort: CancellationToken,
    bash_abort: CancellationToken,
    options: RpcOptions,
    auto_compaction: bool,
}

/// Serve the protocol until stdin closes. Returns the exit code.
pub async fn run_rpc_mode(mut agent: AgentSession, options: RpcOptions) -> i32 {
    crate::modes::protocol_out::take_over_stdout();
    let live = Arc::new(Mutex::new(Live::default()));
    live.locked().queues = agent.queues.clone();
    agent.default_thinking = Some(options.default_thinking);
    agent.input_source = "rpc";
    let listener_live = live.clone();
    let coalescer = crate::modes::coalesce::UpdateCoalescer::new(Arc::new(
        |event: &crate::agent::events::AgentEvent| emit(event),
    ));
    let events = coalescer.clone();
    agent.subscribe(Box::new(move |event| {
        // A queued message taken by the run: the queue shrank before it starts.
        let update = listener_live.locked().observe(event);
        if let Some(update) = update {
            coalescer.event(&update);
        }
        coalescer.event(event);
    }));
    let queued = agent.extension_actions_queued();
    let mut input = io::spawn_stdin_reader(options.ui_replies.clone());
    let mut stop_signals = crate::modes::stop_signals::StopSignals::new();
    let mut server = Server {
        agent: Some(agent),
        task: None,
        deferred: VecDeque::new(),
        pending_aborts: Vec::new(),
        live,
        events,
        abort: CancellationToken::new(),
        bash_abort: CancellationToken::new(),
        options,
        auto_compaction: true,
    };
    loop {
        if server.shutdown_requested() {
            break;
        }
        tokio::select! {
            incoming = input.recv() => match incoming {
                Some(incoming) => server.receive(incoming).await,
                None => break,
            },
            // Stop as when stdin closes: the run is aborted and what it
            // produced so far is saved.
            _ = stop_signals.recv() => break,
            _ = wait_queued(&queued), if server.task.is_none() && server.agent.is_some() => {
                if server.agent.as_ref().is_some_and(AgentSession::extension_actions_pending)
                    && let Some(agent) = server.agent.take()
                {
                    server.start_run(agent, None);
                }
            }
            agent = wait_task(&mut server.task), if server.task.is_some() => {
                server.task = None;
                match agent {
                    Ok(agent) => server.agent = Some(agent),
                    Err(e) => {
                        let error = crate::t!("pi.error.rpc.task_failed", error = e.to_string());
                        eprintln!("{}", crate::t!("pi.cli.error", error = error));
                        return 1;
                    }
                }
                server.events.flush_now();
                server.answer_aborts();
                if server.shutdown_requested() {
                    break;
                }
                server.run_deferred().await;
            }
        }
    }
    server.abort.cancel();
    server.bash_abort.cancel();
    if let Some((_, task)) = server.task.take() {
        match task.await {
            Ok(agent) => server.agent = Some(agent),
            Err(_) => return 1,
        }
    }
    server.answer_aborts();
    let Some(mut agent) = server.agent.take() else {
        return 1;
    };
    agent.session_event("session_shutdown", "quit").await;
    if let Err(e) = agent.session.sync() {
        eprintln!(
            "{}",
            crate::t!("pi.session.save_failed", error = e.to_string())
        );
    }
    agent.session.keep_index();
    if let Some(error) = io::input_failure() {
        eprintln!("{}", crate::t!("pi.cli.stdin_failed", error = error));
        return 1;
    }
    0
}

/// Until an extension queues an action (never without extensions).
async fn wait_queued(queued: &Option<Arc<tokio::sync::Notify>>) {
    match queued {
        Some(notify) => notify.notified().await,
        None => std::future::pending().await,
    }
}

async fn wait_task(
    task: &mut Option<(Busy, JoinHandle<AgentSession>)>,
) -> Result<AgentSession, tokio::task::JoinError> {
    match task {
        Some((_, handle)) => handle.await,
        None => std::future::pending().await,
    }
}

impl Server {
    fn busy(&self) -> Option<Busy> {
        self.task.as_ref().map(|(busy, _)| *busy)
    }

    /// Whether an extension asked to end pi (`ctx.shutdown()`) and the session is idle.
    fn shutdown_requested(&self) -> bool {
        self.task.is_none()
            && self
                .agent
                .as_ref()
                .is_some_and(AgentSession::shutdown_requested)
    }

    async fn receive(&mut self, incoming: Incoming) {
        match incoming {
            Incoming::Invalid { line, error } => {
                let id = salvage_id(&line);
                emit(&failure(
                    id.as_ref(),
                    "parse",
                    error::RpcError::Parse { detail: error },
                ));
            }
            Incoming::Command(value) => {
                let request = parse::parse(&value);
                if let Err(e) = &request.command {
                    emit(&failure(request.id.as_ref(), &request.kind, e.clone()));
                } else if !self.answer_now(&request) {
                    if self.agent.is_some() {
                        self.handle(request).await;
                    } else {
                        self.deferred.push_back(request);
                    }
                }
            }
        }
    }

    /// Commands answered without the session; `false` when it is needed.
    fn answer_now(&mut self, request: &Request) -> bool {
        let Ok(command) = &request.command else {
            return false;
        };
        let (id, kind) = (request.id.as_ref(), request.kind.as_str());
        let prompting = self.busy() == Some(Busy::Prompt);
        let streaming = prompting && self.live.locked().running;
        let response = match command {
            RpcCommand::Abort if prompting => {
                // Answered once the run has ended, so nothing of it follows the answer.
                self.abort.cancel();
                self.pending_aborts.push(request.id.clone());
                return true;
            }
            RpcCommand::Abort => success(id, kind, None),
            RpcCommand::AbortBash => {
                self.bash_abort.cancel();
                success(id, kind, None)
            }
            RpcCommand::AbortRetry => {
                if self.live.locked().retrying {
                    self.abort.cancel();
                }
                success(id, kind, None)
            }
            RpcCommand::Enqueue(queue, said) => {
                self.enqueue(*queue, said);
                success(id, kind, None)
            }
            RpcCommand::Prompt { said, queue } if streaming => match queue {
                Some(Ok(queue)) => {
                    self.enqueue(*queue, said);
                    success(id, kind, None)
                }
                Some(Err(e)) => failure(id, kind, e.clone()),
                None => failure(id, kind, error::RpcError::Busy),
            },
            RpcCommand::SetQueueMode(queue, mode) => {
                {
                    let queues = &self.live.locked().queues;
                    match queue {
                        Queue::Steer => queues.steering.set_mode(*mode),
                        Queue::FollowUp => queues.follow_up.set_mode(*mode),
                    }
                }
                let key = match queue {
                    Queue::Steer => "steeringMode",
                    Queue::FollowUp => "followUpMode",
                };
                self.save_setting(&[key], json!(mode.as_str()));
                success(id, kind, None)
            }
            RpcCommand::Query(Query::Messages) if prompting => {
                io::emit_messages(id, kind, &self.live.locked().messages);
                return true;
            }
            RpcCommand::Query(query) if prompting => {
                let live = self.live.locked();
                let data = match query {
                    Query::State => live.state(streaming),
                    Query::LastAssistantText => {
                        json!({ "text": state::last_assistant_text(&live.messages) })
                    }
                    _ => return false,
                };
                success(id, kind, Some(data))
            }
            _ => return false,
        };
        emit(&response);
        true
    }

    /// Queue a message for the running agent and tell the client what is queued.
    fn enqueue(&self, queue: Queue, said: &parse::Said) {
        let message = user_message(said);
        let update = {
            let mut live = self.live.locked();
            match queue {
                Queue::Steer => live.queues.steering.push(message),
                Queue::FollowUp => live.queues.follow_up.push(message),
            }
            live.queue_update_if_changed()
        };
        if let Some(update) = update {
            self.events.event(&update);
        }
    }

    /// Answer the `abort`s that waited for the run to end.
    fn answer_aborts(&mut self) {
        for id in std::mem::take(&mut self.pending_aborts) {
            emit(&success(id.as_ref(), "abort", None));
        }
    }

    /// Process commands that waited for the session, until one starts a task.
    async fn run_deferred(&mut self) {
        while self.agent.is_some() {
            let Some(request) = self.deferred.pop_front() else {
                return;
            };
            if !self.answer_now(&request) {
                self.handle(request).await;
            }
        }
    }

    /// Start a prompt in the session task.
    fn start_prompt(&mut self, agent: AgentSession, said: parse::Said) {
        self.start_run(agent, Some((said.text, said.images)));
    }

    /// Run a prompt, or (`None`) the actions extensions queued while idle.
    fn start_run(&mut self, mut agent: AgentSession, prompt: Option<(String, Vec<ContentBlock>)>) {
        self.abort = CancellationToken::new();
        let signal = self.abort.clone();
        {
            let mut live = self.live.locked();
            live.capture(&agent, self.auto_compaction);
            live.running = true;
        }
        let task = tokio::spawn(async move {
            let Some((text, images)) = prompt else {
                agent.run_extension_actions(&signal).await;
                return agent;
            };
            // `/name args` of an extension command runs the command instead.
            match agent.extension_command_in(&text).await {
                Some((name, args)) => {
                    if let Err(e) = agent.run_extension_command(&name, &args, &signal).await {
                        emit(&json!({"type": "extension_error", "error": e.to_string()}));
                    }
                }
                None => agent.prompt(text, images, &signal).await,
            }
            agent
        });
        self.task = Some((Busy::Prompt, task));
    }

    /// Run a user `bash` command in the session task; its response is sent
    /// when it finishes.
    fn start_bash(&mut self, mut agent: AgentSession, id: Option<Value>, command: String) {
        self.bash_abort = CancellationToken::new();
        let signal = self.bash_abort.clone();
        self.live.locked().capture(&agent, self.auto_compaction);
        let task = tokio::spawn(async move {
            let quiet: Arc<dyn Fn(AgentEvent) + Send + Sync> = Arc::new(|_| {});
            let result =
                crate::core::user_bash::run_user_bash(&mut agent, command, false, signal, quiet)
                    .await;
            emit(&success(
                id.as_ref(),
                "bash",
                Some(state::bash_result(&result)),
            ));
            agent
        });
        self.task = Some((Busy::Bash, task));
    }
}

/// The user message of a `prompt`, `steer` or `follow_up` command.
fn user_message(said: &parse::Said) -> Message {
    let mut blocks = vec![ContentBlock::text(said.text.clone())];
    blocks.extend(said.images.iter().cloned());
    Message::User(UserMessage {
        content: UserContent::Blocks(blocks),
        timestamp: now_ms(),
    })
}
