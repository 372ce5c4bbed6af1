//! Embedding pi in a Rust program: start a session, prompt it, watch its events.
//!
//! A [`Session`] is the conversation `pi` itself runs (the same models, tools, settings,
//! session files and extensions), driven from code instead of a terminal:
//!
//! ```no_run
//! # async fn run() -> Result<(), pi::sdk::SdkError> {
//! use pi::sdk::{Session, SessionOptions};
//!
//! let session = Session::create(SessionOptions::new().model("anthropic", "claude-sonnet-4-5")).await?;
//! session.subscribe(|event| {
//!     if let Some(delta) = pi::sdk::text_delta(event) {
//!         print!("{delta}");
//!     }
//! });
//! let reply = session.prompt("What files are in this folder?").await?;
//! println!("\n{}", reply.text());
//! # Ok(()) }
//! ```
//!
//! Events are the ones `pi --mode json` prints, one [`Event`] per line there, in the same
//! order and with the same JSON shape (`serde_json::to_value(&event)`); here every text
//! delta arrives as its own `message_update`, where JSON mode may merge close ones.
//! `examples/sdk/` has two complete programs, and `docs/sdk.md` describes the API.

mod build;
pub mod checkpoints;
mod events;
mod options;
mod permission;
mod session;

pub use events::{Event, EventStream, SubscriptionId};
pub use options::{SessionOptions, SessionStorage};
pub use permission::{PermissionAnswer, PermissionCallback, PermissionQuestion};
pub use session::{ModelRef, Session, SessionState};

pub use crate::ai::events::AssistantMessageEvent;
pub use crate::ai::types::{AssistantMessage, ContentBlock, Message, StopReason};
pub use crate::core::session_command::{ModelSource, Outcome, SessionCommand};
pub use crate::protocol::ThinkingLevel;

/// Why a session could not start or a request could not be carried out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SdkError {
    /// The session could not start (no usable model, unreadable session file, missing
    /// working directory...); the message says what and how to fix it.
    Setup(String),
    /// A prompt is running; wait for it, or use `steer`, `follow_up` or `abort`.
    Busy,
    /// No model with credentials has this `provider/id`.
    ModelNotFound(String),
    /// The model's request failed (after automatic retries); the provider's message.
    Model(String),
    /// The prompt produced no model reply (an extension handled the input).
    NoReply,
    /// A limit of the run stopped it: `code` is `repeated_tool_failure` (the model kept
    /// making the same failing tool call), `max_turns` or `max_requests`; the message
    /// says which call or limit. The messages of the run are kept.
    Stopped {
        /// The stable code.
        code: String,
        /// What happened, for people.
        message: String,
    },
    /// Saving the session or running the session's task failed.
    Failed(String),
}

impl std::fmt::Display for SdkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SdkError::Setup(message) => write!(f, "the session could not start: {message}"),
            SdkError::Busy => write!(
                f,
                "a prompt is already running: wait for it, or use steer, follow_up or abort"
            ),
            SdkError::ModelNotFound(name) => write!(
                f,
                "no model \"{name}\" with credentials: check models.json and auth.json, or list them with available_models()"
            ),
            SdkError::Model(message) => write!(f, "the model request failed: {message}"),
            SdkError::NoReply => write!(f, "the prompt produced no model reply"),
            SdkError::Stopped { message, .. } => write!(f, "{message}"),
            SdkError::Failed(message) => write!(f, "{message}"),
        }
    }
}

impl std::error::Error for SdkError {}

/// The text an event adds to the streaming answer: the delta of a `message_update`
/// carrying a `text_delta`, else `None`. Printing every delta in order prints the answer.
pub fn text_delta(event: &Event) -> Option<&str> {
    match event {
        Event::MessageUpdate {
            assistant_message_event,
            ..
        } => match assistant_message_event.as_ref() {
            AssistantMessageEvent::TextDelta { delta, .. } => Some(delta.as_str()),
            _ => None,
        },
        _ => None,
    }
}

/// The event's `type` as JSON mode writes it (`agent_start`, `message_update`,
/// `tool_execution_end`...).
pub fn event_type(event: &Event) -> &'static str {
    match event {
        Event::AgentStart => "agent_start",
        Event::AgentEnd { .. } => "agent_end",
        Event::TurnStart => "turn_start",
        Event::TurnEnd { .. } => "turn_end",
        Event::MessageStart { .. } => "message_start",
        Event::MessageUpdate { .. } => "message_update",
        Event::MessageEnd { .. } => "message_end",
        Event::ToolExecutionStart { .. } => "tool_execution_start",
        Event::ToolExecutionUpdate { .. } => "tool_execution_update",
        Event::ToolExecutionEnd { .. } => "tool_execution_end",
        Event::QueueUpdate { .. } => "queue_update",
        Event::AutoRetryStart { .. } => "auto_retry_start",
        Event::AutoRetryEnd { .. } => "auto_retry_end",
        Event::CompactionStart { .. } => "compaction_start",
        Event::CompactionEnd { .. } => "compaction_end",
        Event::RunStopped { .. } => "run_stopped",
        Event::Checkpoint { .. } => "checkpoint",
    }
}
