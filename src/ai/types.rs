//! Provider-neutral message model, serialised exactly as pi's session files and JSON mode expect.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Milliseconds since the Unix epoch, the timestamp unit used inside messages.
pub fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// Plain text content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TextContent {
    /// The text itself.
    pub text: String,
    /// Opaque provider signature that must be replayed with the text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text_signature: Option<String>,
}

/// Model reasoning ("thinking") content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ThinkingContent {
    /// The reasoning text.
    pub thinking: String,
    /// Opaque provider signature required to replay the block.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thinking_signature: Option<String>,
    /// True when the provider redacted the reasoning.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redacted: Option<bool>,
}

/// A base64-encoded image.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ImageContent {
    /// Base64 data without a data-URL prefix.
    pub data: String,
    /// MIME type such as `image/png`.
    pub mime_type: String,
}

/// A tool call requested by the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCall {
    /// Provider-assigned call id, echoed in the tool result.
    pub id: String,
    /// Tool name.
    pub name: String,
    /// Parsed JSON arguments (always an object once complete).
    pub arguments: Value,
    /// Opaque signature some providers attach to calls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thought_signature: Option<String>,
    /// The arguments exactly as the model sent them, when they were not a
    /// JSON object (`arguments` is then `{}`): quoted in the error the model
    /// gets back. Never saved or sent.
    #[serde(skip)]
    pub raw_arguments: Option<String>,
}

/// One block of message content.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type")]
pub enum ContentBlock {
    /// Text.
    #[serde(rename = "text")]
    Text(TextContent),
    /// Reasoning.
    #[serde(rename = "thinking")]
    Thinking(ThinkingContent),
    /// Image.
    #[serde(rename = "image")]
    Image(ImageContent),
    /// Tool call.
    #[serde(rename = "toolCall")]
    ToolCall(ToolCall),
}

super::tagged::deserialize_tagged!(ContentBlock, "type", "a content block with a type", {
    "text" => Text(TextContent),
    "thinking" => Thinking(ThinkingContent),
    "image" => Image(ImageContent),
    "toolCall" => ToolCall(ToolCall),
});

impl ContentBlock {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        ContentBlock::Text(TextContent {
            text: text.into(),
            text_signature: None,
        })
    }

    /// An image block.
    pub fn image(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        ContentBlock::Image(ImageContent {
            data: data.into(),
            mime_type: mime_type.into(),
        })
    }

    /// The text of a text block.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            ContentBlock::Text(t) => Some(&t.text),
            _ => None,
        }
    }
}

/// User message content: a plain string or a list of text/image blocks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum UserContent {
    /// Plain text.
    Text(String),
    /// Text and image blocks.
    Blocks(Vec<ContentBlock>),
}

impl UserContent {
    /// All text in the content, blocks joined with newlines.
    pub fn text(&self) -> String {
        match self {
            UserContent::Text(s) => s.clone(),
            UserContent::Blocks(b) => b
                .iter()
                .filter_map(ContentBlock::as_text)
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }

    /// The content as blocks (a string becomes one text block).
    pub fn to_blocks(&self) -> Vec<ContentBlock> {
        match self {
            UserContent::Text(s) => vec![ContentBlock::text(s.clone())],
            UserContent::Blocks(b) => b.clone(),
        }
    }
}

/// Serialise a float as JavaScript would: integral values without a fraction.
pub fn js_number<S: serde::Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    if v.fract() == 0.0 && v.abs() < 9.0e15 {
        s.serialize_i64(*v as i64)
    } else {
        s.serialize_f64(*v)
    }
}

/// Cost in dollars, per usage category.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct UsageCost {
    /// Input cost.
    #[serde(serialize_with = "js_number")]
    pub input: f64,
    /// Output cost.
    #[serde(serialize_with = "js_number")]
    pub output: f64,
    /// Cache-read cost.
    #[serde(serialize_with = "js_number")]
    pub cache_read: f64,
    /// Cache-write cost.
    #[serde(serialize_with = "js_number")]
    pub cache_write: f64,
    /// Sum of the above.
    #[serde(serialize_with = "js_number")]
    pub total: f64,
}

/// Token usage of one assistant message. Reading is lenient, as sessions
/// written by older versions omit fields: a missing count is 0 and a missing
/// `totalTokens` is the sum of the four counts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", from = "StoredUsage")]
pub struct Usage {
    /// Non-cached input tokens.
    pub input: u64,
    /// Output tokens (including reasoning).
    pub output: u64,
    /// Tokens read from the prompt cache.
    pub cache_read: u64,
    /// Tokens written to the prompt cache.
    pub cache_write: u64,
    /// Total tokens.
    pub total_tokens: u64,
    /// Dollar cost.
    pub cost: UsageCost,
}

/// [`Usage`] as stored, every field optional.
#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct StoredUsage {
    #[serde(deserialize_with = "lenient_count")]
    input: u64,
    #[serde(deserialize_with = "lenient_count")]
    output: u64,
    #[serde(deserialize_with = "lenient_count")]
    cache_read: u64,
    #[serde(deserialize_with = "lenient_count")]
    cache_write: u64,
    #[serde(deserialize_with = "lenient_total")]
    total_tokens: Option<u64>,
    cost: UsageCost,
}

impl From<StoredUsage> for Usage {
    fn from(stored: StoredUsage) -> Self {
        let sum = stored.input + stored.output + stored.cache_read + stored.cache_write;
        Usage {
            input: stored.input,
            output: stored.output,
            cache_read: stored.cache_read,
            cache_write: stored.cache_write,
            total_tokens: stored.total_tokens.unwrap_or(sum),
            cost: stored.cost,
        }
    }
}

/// A token count written as any JSON number (or null); negatives and
/// non-numbers read as 0.
fn lenient_count<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    Ok(lenient_total(d)?.unwrap_or(0))
}

/// Like [`lenient_count`], but `None` when the value is not a number.
fn lenient_total<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    let value = Value::deserialize(d)?;
    Ok(value
        .as_u64()
        .or_else(|| value.as_f64().filter(|n| *n >= 0.0).map(|n| n as u64)))
}

/// Unix milliseconds written as any JSON number; anything else reads as 0.
fn lenient_millis<'de, D: serde::Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    let value = Value::deserialize(d)?;
    Ok(value
        .as_i64()
        .or_else(|| value.as_f64().map(|n| n as i64))
        .unwrap_or(0))
}

/// Why an assistant message ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub enum StopReason {
    /// The model finished.
    #[default]
    Stop,
    /// The output token limit was reached.
    Length,
    /// The model requested tool calls.
    ToolUse,
    /// The request failed.
    Error,
    /// The request was aborted.
    Aborted,
}

impl StopReason {
    /// The wire name (`stop`, `toolUse`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            StopReason::Stop => "stop",
            StopReason::Length => "length",
            StopReason::ToolUse => "toolUse",
            StopReason::Error => "error",
            StopReason::Aborted => "aborted",
        }
    }
}

/// A message from the user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UserMessage {
    /// Text or blocks.
    pub content: UserContent,
    /// Unix milliseconds.
    #[serde(default, deserialize_with = "lenient_millis")]
    pub timestamp: i64,
}

impl UserMessage {
    /// A plain-text user message stamped now.
    pub fn text(text: impl Into<String>) -> Self {
        UserMessage {
            content: UserContent::Text(text.into()),
            timestamp: now_ms(),
        }
    }
}

/// A message produced by the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AssistantMessage {
    /// Text, thinking and tool-call blocks in stream order.
    pub content: Vec<ContentBlock>,
    /// Wire API used (`anthropic-messages`, ...).
    #[serde(default)]
    pub api: String,
    /// Provider name.
    #[serde(default)]
    pub provider: String,
    /// Model id requested.
    #[serde(default)]
    pub model: String,
    /// Model id reported by the provider, when different.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_model: Option<String>,
    /// Provider response id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_id: Option<String>,
    /// Token usage and cost.
    #[serde(default)]
    pub usage: Usage,
    /// Why the message ended.
    #[serde(default)]
    pub stop_reason: StopReason,
    /// Error text when `stop_reason` is `error` or `aborted`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_message: Option<String>,
    /// Unix milliseconds.
    #[serde(default, deserialize_with = "lenient_millis")]
    pub timestamp: i64,
    /// Delay the server asked for before a retry (`retry-after`); never serialised.
    #[serde(skip)]
    pub retry_after_ms: Option<u64>,
    /// The kind of failure when the provider reported one in this run; never
    /// serialised (a loaded message is judged by its error text).
    #[serde(skip)]
    pub error_kind: Option<crate::ai::error_kind::ProviderErrorKind>,
}

impl AssistantMessage {
    /// An empty message for the given model, stamped now.
    pub fn empty(api: &str, provider: &str, model: &str) -> Self {
        AssistantMessage {
            content: Vec::new(),
            api: api.to_string(),
            provider: provider.to_string(),
            model: model.to_string(),
            response_model: None,
            response_id: None,
            usage: Usage::default(),
            stop_reason: StopReason::Stop,
            error_message: None,
            timestamp: now_ms(),
            retry_after_ms: None,
            error_kind: None,
        }
    }

    /// Text blocks concatenated.
    pub fn text(&self) -> String {
        self.content
            .iter()
            .filter_map(ContentBlock::as_text)
            .collect::<Vec<_>>()
            .join("")
    }

    /// The tool calls in source order.
    pub fn tool_calls(&self) -> Vec<&ToolCall> {
        self.content
            .iter()
            .filter_map(|b| match b {
                ContentBlock::ToolCall(c) => Some(c),
                _ => None,
            })
            .collect()
    }
}

/// The result of running a tool, sent back to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolResultMessage {
    /// The call this answers.
    pub tool_call_id: String,
    /// Tool name.
    pub tool_name: String,
    /// Text and image blocks.
    pub content: Vec<ContentBlock>,
    /// Tool-specific metadata, not sent to the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<Value>,
    /// True when the tool failed.
    #[serde(default)]
    pub is_error: bool,
    /// Unix milliseconds.
    #[serde(default, deserialize_with = "lenient_millis")]
    pub timestamp: i64,
}

/// Output of a user `!command`, stored in the session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BashExecutionMessage {
    /// The command line.
    pub command: String,
    /// Combined output.
    pub output: String,
    /// Exit code, absent when killed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// True when the user cancelled.
    #[serde(default)]
    pub cancelled: bool,
    /// True when the output was truncated.
    #[serde(default)]
    pub truncated: bool,
    /// Where the full output was saved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_output_path: Option<String>,
    /// True for `!!` commands kept out of the model context.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_from_context: Option<bool>,
    /// Unix milliseconds.
    #[serde(default, deserialize_with = "lenient_millis")]
    pub timestamp: i64,
}

/// A message injected by an extension.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomMessage {
    /// Extension-defined type.
    pub custom_type: String,
    /// Text or blocks.
    pub content: UserContent,
    /// Whether the UI shows it.
    #[serde(default)]
    pub display: bool,
    /// Extension metadata, not sent to the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<Value>,
    /// Unix milliseconds.
    #[serde(default, deserialize_with = "lenient_millis")]
    pub timestamp: i64,
}

/// Summary of an abandoned branch (synthesised from a `branch_summary` entry).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BranchSummaryMessage {
    /// The summary text.
    pub summary: String,
    /// Entry the branch was left from.
    pub from_id: String,
    /// Unix milliseconds.
    #[serde(default, deserialize_with = "lenient_millis")]
    pub timestamp: i64,
}

/// Summary of compacted history (synthesised from a `compaction` entry).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompactionSummaryMessage {
    /// The summary text.
    pub summary: String,
    /// Context size before compaction.
    #[serde(default, deserialize_with = "lenient_count")]
    pub tokens_before: u64,
    /// Unix milliseconds.
    #[serde(default, deserialize_with = "lenient_millis")]
    pub timestamp: i64,
}

/// Any message the agent keeps in its context (pi's `AgentMessage`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "role")]
pub enum Message {
    /// User input.
    #[serde(rename = "user")]
    User(UserMessage),
    /// Model output.
    #[serde(rename = "assistant")]
    Assistant(AssistantMessage),
    /// Tool output.
    #[serde(rename = "toolResult")]
    ToolResult(ToolResultMessage),
    /// User shell command output.
    #[serde(rename = "bashExecution")]
    BashExecution(BashExecutionMessage),
    /// Extension message.
    #[serde(rename = "custom")]
    Custom(CustomMessage),
    /// Branch summary.
    #[serde(rename = "branchSummary")]
    BranchSummary(BranchSummaryMessage),
    /// Compaction summary.
    #[serde(rename = "compactionSummary")]
    CompactionSummary(CompactionSummaryMessage),
}

super::tagged::deserialize_tagged!(Message, "role", "a message with a role", {
    "user" => User(UserMessage),
    "assistant" => Assistant(AssistantMessage),
    "toolResult" => ToolResult(ToolResultMessage),
    "bashExecution" => BashExecution(BashExecutionMessage),
    "custom" | "hookMessage" => Custom(CustomMessage),
    "branchSummary" => BranchSummary(BranchSummaryMessage),
    "compactionSummary" => CompactionSummary(CompactionSummaryMessage),
});

impl Message {
    /// The role name as serialised.
    pub fn role(&self) -> &'static str {
        match self {
            Message::User(_) => "user",
            Message::Assistant(_) => "assistant",
            Message::ToolResult(_) => "toolResult",
            Message::BashExecution(_) => "bashExecution",
            Message::Custom(_) => "custom",
            Message::BranchSummary(_) => "branchSummary",
            Message::CompactionSummary(_) => "compactionSummary",
        }
    }

    /// The assistant message, if this is one.
    pub fn as_assistant(&self) -> Option<&AssistantMessage> {
        match self {
            Message::Assistant(a) => Some(a),
            _ => None,
        }
    }
}

/// A tool as advertised to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    /// Tool name.
    pub name: String,
    /// What the tool does, for the model.
    pub description: String,
    /// JSON Schema of the arguments.
    pub parameters: Value,
}

/// Everything sent to the model for one request. `messages` holds only
/// user, assistant and toolResult messages (see `agent::convert_to_llm`).
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// System prompt.
    pub system_prompt: Option<String>,
    /// Conversation.
    pub messages: Vec<Message>,
    /// Tools the model may call.
    pub tools: Vec<ToolSpec>,
}
