//! The agent event taxonomy (pi's `AgentEvent` plus the session-level events).
//! Every consumer — JSON mode, RPC, the TUI, extensions — subscribes to these.

use serde::Serialize;
use serde_json::Value;

use crate::ai::events::AssistantMessageEvent;
use crate::ai::types::Message;

use super::tool::ToolOutput;

/// A tool result as shown in tool events: `{content, details?}`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ToolResultPayload {
    /// Blocks sent to the model.
    pub content: Vec<crate::ai::types::ContentBlock>,
    /// Tool metadata, omitted when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<Value>,
}

impl From<ToolOutput> for ToolResultPayload {
    fn from(o: ToolOutput) -> Self {
        ToolResultPayload {
            content: o.content,
            details: o.details,
        }
    }
}

/// One thing that happened while the agent worked.
#[derive(Debug, Clone, Serialize)]
#[serde(
    tag = "type",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum AgentEvent {
    /// A run started.
    AgentStart,
    /// A run ended; `messages` are the messages it added.
    AgentEnd { messages: Vec<Message> },
    /// A turn (one model call plus its tools) started.
    TurnStart,
    /// A turn ended; `tool_results` holds `toolResult` messages.
    TurnEnd {
        message: Message,
        tool_results: Vec<Message>,
    },
    /// A message entered the context.
    MessageStart { message: Message },
    /// The streaming assistant message changed.
    MessageUpdate {
        message: Message,
        assistant_message_event: Box<AssistantMessageEvent>,
    },
    /// A message is complete.
    MessageEnd { message: Message },
    /// A tool call started.
    ToolExecutionStart {
        tool_call_id: String,
        tool_name: String,
        args: Value,
    },
    /// A running tool reported progress.
    ToolExecutionUpdate {
        tool_call_id: String,
        tool_name: String,
        args: Value,
        partial_result: ToolResultPayload,
    },
    /// A tool call finished.
    ToolExecutionEnd {
        tool_call_id: String,
        tool_name: String,
        result: ToolResultPayload,
        is_error: bool,
    },
    /// The steering or follow-up queue changed.
    QueueUpdate {
        steering: Vec<String>,
        follow_up: Vec<String>,
    },
    /// A transient provider error will be retried after `delay_ms`.
    AutoRetryStart {
        attempt: u32,
        max_attempts: u32,
        delay_ms: u64,
        error_message: String,
    },
    /// A compaction started (`reason`: `manual`, `threshold` or `overflow`).
    CompactionStart { reason: String },
    /// A compaction ended: `result` is `{summary, firstKeptEntryId,
    /// tokensBefore, details}`, or null when it was aborted or failed.
    CompactionEnd {
        reason: String,
        result: Option<Value>,
        aborted: bool,
        will_retry: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        error_message: Option<String>,
    },
    /// A limit of the run stopped it (see [`super::run_limits`]); `agent_end` follows.
    /// `code` is `repeated_tool_failure`, `max_turns` or `max_requests`; `details` has
    /// `reason`, `limit`, `turns`, `requests` and, for a repeated call, `toolName`,
    /// `args`, `error` and `times`.
    RunStopped {
        code: String,
        message: String,
        details: Value,
    },
    /// The run that is ending changed files: their state before it was kept as checkpoint
    /// `id` (for `/rewind`); `pruned` older checkpoints went to stay within the storage
    /// limits. `agent_end` follows.
    Checkpoint {
        id: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        entry_id: Option<String>,
        files: Vec<String>,
        pruned: usize,
    },
    /// A retry sequence ended.
    AutoRetryEnd {
        success: bool,
        attempt: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        final_error: Option<String>,
    },
}
