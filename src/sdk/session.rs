//! [`Session`]: a cloneable handle on one running conversation.

use crate::core::session_command::{ModelSource, Outcome, SessionCommand};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use tokio_util::sync::CancellationToken;

use crate::agent::agent_loop::AgentQueues;
use crate::agent::events::AgentEvent;
use crate::ai::types::{AssistantMessage, ContentBlock, Message, StopReason, UserMessage};
use crate::core::AgentSession;
use crate::protocol::ThinkingLevel;
use crate::sync::LockExt;

use super::events::{EventStream, SharedSubscribers, SubscriptionId, deliver};
use super::{SdkError, SessionOptions};

/// A model by provider and id, with its display name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelRef {
    /// Provider name (`anthropic`, or a `models.json` provider).
    pub provider: String,
    /// Model id as the provider knows it.
    pub id: String,
    /// Human-readable name.
    pub name: String,
    /// Whether the model supports thinking levels above `off`.
    pub reasoning: bool,
}

impl ModelRef {
    fn of(model: &crate::ai::model::Model) -> Self {
        ModelRef {
            provider: model.provider.clone(),
            id: model.id.clone(),
            name: model.name.clone(),
            reasoning: model.reasoning,
        }
    }
}

/// A snapshot of a session's state, from [`Session::state`].
#[derive(Debug, Clone, PartialEq)]
pub struct SessionState {
    /// The current model.
    pub model: ModelRef,
    /// The current thinking level.
    pub thinking: ThinkingLevel,
    /// True while a prompt runs.
    pub is_running: bool,
    /// The session id (also in the session file's header).
    pub session_id: String,
    /// The session file, unless the session is in memory.
    pub session_file: Option<PathBuf>,
    /// Messages in the context.
    pub message_count: usize,
    /// Texts of queued steering messages.
    pub steering: Vec<String>,
    /// Texts of queued follow-up messages.
    pub follow_up: Vec<String>,
}

/// What the session looked like when last seen by the handle (read while a run holds
/// the core session).
struct Live {
    messages: crate::agent::conversation::Conversation,
    model: ModelRef,
    thinking: ThinkingLevel,
    running: bool,
    session_id: String,
    session_file: Option<PathBuf>,
}

impl Live {
    fn capture(agent: &AgentSession) -> Self {
        Live {
            messages: agent.state.messages.clone(),
            model: ModelRef::of(&agent.config.model),
            thinking: agent.config.thinking,
            running: false,
            session_id: agent.session.session_id().to_string(),
            session_file: agent.session.session_file().map(PathBuf::from),
        }
    }
}

struct Inner {
    agent: Arc<tokio::sync::Mutex<AgentSession>>,
    queues: AgentQueues,
    abort: Mutex<CancellationToken>,
    subscribers: SharedSubscribers,
    live: Arc<Mutex<Live>>,
}

/// How a run starts: with a new prompt, or from the conversation as it stands.
enum Start {
    Prompt(String, Vec<ContentBlock>),
    Continue,
}

/// One conversation running in this process: prompt it, steer it, watch its events.
///
/// Cloning gives another handle on the same conversation, so one task can await
/// [`prompt`](Self::prompt) while another steers or aborts. Every method needs a tokio
/// runtime.
#[derive(Clone)]
pub struct Session {
    inner: Arc<Inner>,
}

impl Session {
    /// Start a session as `options` describe: settings, models and credentials are read
    /// from the agent directory, the session file is created or opened, and (when
    /// enabled) extensions are loaded and see `session_start`.
    pub async fn create(options: SessionOptions) -> Result<Session, SdkError> {
        let mut agent = super::build::build_agent(&options).await?;
        let subscribers = SharedSubscribers::default();
        let live = Arc::new(Mutex::new(Live::capture(&agent)));
        let (to_deliver, to_update) = (subscribers.clone(), live.clone());
        agent.subscribe(Box::new(move |event| {
            if let AgentEvent::MessageEnd { message } = event {
                to_update.locked().messages.push(message.clone());
            }
            deliver(&to_deliver, event);
        }));
        Ok(Session {
            inner: Arc::new(Inner {
                queues: agent.queues.clone(),
                agent: Arc::new(tokio::sync::Mutex::new(agent)),
                abort: Mutex::new(CancellationToken::new()),
                subscribers,
                live,
            }),
        })
    }

    /// Send `text` as the user and wait until the run ends: the model's reply, its tool
    /// calls, and any steering and follow-up messages queued meanwhile. Returns the last
    /// assistant message (its `stop_reason` is `Aborted` after [`abort`](Self::abort)).
    ///
    /// `/skill:name` and prompt templates expand as in `pi`. Fails with
    /// [`SdkError::Busy`] while another prompt runs (use [`steer`](Self::steer) or
    /// [`follow_up`](Self::follow_up)), with [`SdkError::Model`] when the model's
    /// request failed after retries, and with [`SdkError::NoReply`] when no model reply
    /// came (an extension handled the input), and with [`SdkError::Stopped`] when a limit
    /// ended the run (the same failing tool call again and again, the turn or request
    /// limit of [`SessionOptions`]). Dropping the returned future does not stop
    /// the run; [`abort`](Self::abort) does.
    pub async fn prompt(&self, text: impl Into<String>) -> Result<AssistantMessage, SdkError> {
        self.prompt_with_images(text, Vec::new()).await
    }

    /// [`prompt`](Self::prompt) with images attached to the user message, each a
    /// [`ContentBlock::image`] of base64 data and its MIME type (`image/png`, `image/jpeg`,
    /// `image/gif`, `image/webp`).
    pub async fn prompt_with_images(
        &self,
        text: impl Into<String>,
        images: Vec<ContentBlock>,
    ) -> Result<AssistantMessage, SdkError> {
        self.run(Start::Prompt(text.into(), images)).await
    }

    /// Go on from the conversation as it stands, without a new prompt: after a reply,
    /// the next queued steering message (else the queued follow-ups) is sent; after a
    /// user message, a tool result or a failed request, the model is asked again.
    /// Fails as [`prompt`](Self::prompt) does: with [`SdkError::Busy`] while a prompt
    /// or another continuation runs, and with [`SdkError::NoReply`] when there was
    /// nothing to continue (an empty conversation, or a reply with nothing queued).
    pub async fn continue_run(&self) -> Result<AssistantMessage, SdkError> {
        self.run(Start::Continue).await
    }

    async fn run(&self, start: Start) -> Result<AssistantMessage, SdkError> {
        let mut agent = self
            .inner
            .agent
            .clone()
            .try_lock_owned()
            .map_err(|_| SdkError::Busy)?;
        let signal = CancellationToken::new();
        *self.inner.abort.locked() = signal.clone();
        let before = agent.state.messages.len();
        {
            let mut live = self.inner.live.locked();
            *live = Live::capture(&agent);
            live.running = true;
        }
        let live = self.inner.live.clone();
        let run = tokio::spawn(async move {
            match start {
                Start::Prompt(text, images) => agent.prompt(text, images, &signal).await,
                Start::Continue => agent.continue_run(&signal).await,
            }
            *live.locked() = Live::capture(&agent);
            let stopped = agent.run_stop().map(|stop| SdkError::Stopped {
                code: stop.code.to_string(),
                message: stop.message.clone(),
            });
            let reply = agent
                .state
                .messages
                .iter()
                .skip(before)
                .rev()
                .find_map(|m| m.as_assistant().cloned());
            (stopped, reply)
        });
        let (stopped, reply) = run.await.map_err(|e| SdkError::Failed(e.to_string()))?;
        if let Some(stopped) = stopped {
            return Err(stopped);
        }
        match reply {
            None => Err(SdkError::NoReply),
            Some(message) if message.stop_reason == StopReason::Error => Err(SdkError::Model(
                message
                    .error_message
                    .unwrap_or_else(|| "request failed".into()),
            )),
            Some(message) => Ok(message),
        }
    }

    /// Queue `text` to be delivered while the current run is going: after the tools of
    /// the current turn finish, before the model is asked again. Queued while idle, it
    /// goes with the next prompt's first turn.
    pub fn steer(&self, text: impl Into<String>) {
        self.inner.queues.steering.push(user_message(text.into()));
        self.queue_changed();
    }

    /// Queue `text` for when the agent would otherwise stop: the run goes on with it.
    pub fn follow_up(&self, text: impl Into<String>) {
        self.inner.queues.follow_up.push(user_message(text.into()));
        self.queue_changed();
    }

    /// Stop the current run: the stream and running tools are cancelled, and the partial
    /// answer is kept (and saved) with stop reason `Aborted`. Does nothing when idle, and
    /// does not reach a prompt whose future has not started running yet.
    pub fn abort(&self) {
        self.inner.abort.locked().cancel();
    }

    /// True while a prompt runs.
    pub fn is_running(&self) -> bool {
        self.inner.live.locked().running
    }

    /// Switch to another model for the next requests (recorded in the session file).
    /// The model must be one of [`available_models`](Self::available_models). Fails with
    /// [`SdkError::Busy`] while a prompt runs.
    pub async fn set_model(&self, provider: &str, id: &str) -> Result<ModelRef, SdkError> {
        let mut agent = self.idle_agent()?;
        let model = agent
            .available_models()
            .into_iter()
            .find(|m| m.provider == provider && m.id == id)
            .ok_or_else(|| SdkError::ModelNotFound(format!("{provider}/{id}")))?;
        let command = SessionCommand::SetModel {
            model: Box::new(model),
            source: ModelSource::Set,
        };
        let _ = agent.execute(command).await;
        *self.inner.live.locked() = Live::capture(&agent);
        Ok(ModelRef::of(&agent.config.model))
    }

    /// Change the thinking level (clamped to what the model supports); returns the level
    /// in effect. Fails with [`SdkError::Busy`] while a prompt runs.
    pub async fn set_thinking_level(
        &self,
        level: ThinkingLevel,
    ) -> Result<ThinkingLevel, SdkError> {
        let mut agent = self.idle_agent()?;
        let _ = agent.execute(SessionCommand::SetThinking(level)).await;
        *self.inner.live.locked() = Live::capture(&agent);
        Ok(agent.config.thinking)
    }

    /// Carry out one of the typed session commands every front end shares (the terminal
    /// UI, RPC mode and extensions send the same [`SessionCommand`]s): name the session,
    /// change the thinking level, fork, clone, compact... Fails with [`SdkError::Busy`]
    /// while a prompt runs, and with [`SdkError::Failed`] saying why a command cannot be
    /// carried out.
    pub async fn execute(&self, command: SessionCommand) -> Result<Outcome, SdkError> {
        let mut agent = self.idle_agent()?;
        let outcome = agent
            .execute(command)
            .await
            .map_err(|e| SdkError::Failed(e.to_string()))?;
        *self.inner.live.locked() = Live::capture(&agent);
        Ok(outcome)
    }

    /// The models with credentials this session can switch to (waits for a running
    /// prompt to end).
    pub async fn available_models(&self) -> Vec<ModelRef> {
        let agent = self.inner.agent.lock().await;
        agent.available_models().iter().map(ModelRef::of).collect()
    }

    /// The messages in the conversation's context. While a prompt runs this includes
    /// every message finished so far.
    pub fn messages(&self) -> Vec<Message> {
        self.inner.live.locked().messages.to_vec()
    }

    /// The text of the last assistant message, if any.
    pub fn last_assistant_text(&self) -> Option<String> {
        let live = self.inner.live.locked();
        live.messages
            .iter()
            .rev()
            .find_map(|m| m.as_assistant().map(AssistantMessage::text))
    }

    /// Model, thinking level, run status, session file and queues.
    pub fn state(&self) -> SessionState {
        let live = self.inner.live.locked();
        SessionState {
            model: live.model.clone(),
            thinking: live.thinking,
            is_running: live.running,
            session_id: live.session_id.clone(),
            session_file: live.session_file.clone(),
            message_count: live.messages.len(),
            steering: self.inner.queues.steering.texts(),
            follow_up: self.inner.queues.follow_up.texts(),
        }
    }

    /// Call `callback` with every event from now on, on the task running the session
    /// (keep it short). It may call [`steer`](Self::steer), [`follow_up`](Self::follow_up)
    /// and [`abort`](Self::abort) on a clone of this handle.
    pub fn subscribe(
        &self,
        callback: impl FnMut(&super::Event) + Send + 'static,
    ) -> SubscriptionId {
        self.inner
            .subscribers
            .locked()
            .add_callback(Box::new(callback))
    }

    /// Stop calling a callback; `false` when it was not subscribed.
    pub fn unsubscribe(&self, id: SubscriptionId) -> bool {
        self.inner.subscribers.locked().remove(id)
    }

    /// A channel receiving every event from now on.
    pub fn events(&self) -> EventStream {
        self.inner.subscribers.locked().add_channel()
    }

    /// End the session: abort any run, wait for it, let extensions see
    /// `session_shutdown`, and flush the session file to disk.
    pub async fn close(self) -> Result<(), SdkError> {
        self.abort();
        let mut agent = self.inner.agent.lock().await;
        agent.session_event("session_shutdown", "quit").await;
        agent
            .session
            .sync()
            .map_err(|e| SdkError::Failed(e.to_string()))
    }

    pub(super) fn idle_agent(&self) -> Result<tokio::sync::MutexGuard<'_, AgentSession>, SdkError> {
        self.inner.agent.try_lock().map_err(|_| SdkError::Busy)
    }

    /// Note what the core session looks like now (after it changed while idle).
    pub(super) fn refresh_live(&self, agent: &AgentSession) {
        *self.inner.live.locked() = Live::capture(agent);
    }

    fn queue_changed(&self) {
        let event = AgentEvent::QueueUpdate {
            steering: self.inner.queues.steering.texts(),
            follow_up: self.inner.queues.follow_up.texts(),
        };
        deliver(&self.inner.subscribers, &event);
    }
}

fn user_message(text: String) -> Message {
    Message::User(UserMessage::text(text))
}
