//! The tool abstraction the agent loop executes.

use std::path::PathBuf;
use std::sync::Arc;

use async_trait::async_trait;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::ai::types::{ContentBlock, ToolSpec};

/// What a tool returns: content for the model and details for UIs and sessions.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolOutput {
    /// Text and image blocks sent to the model.
    pub content: Vec<ContentBlock>,
    /// Tool-specific metadata (`None` is serialised as absent).
    pub details: Option<Value>,
    /// Ask to end the run after this batch of tool calls without another model call
    /// (honoured only when every result of the batch asks for it).
    pub terminate: bool,
}

impl ToolOutput {
    /// A single text block without details.
    pub fn text(text: impl Into<String>) -> Self {
        ToolOutput {
            content: vec![ContentBlock::text(text)],
            details: None,
            terminate: false,
        }
    }

    /// The text of all text blocks, joined.
    pub fn joined_text(&self) -> String {
        self.content
            .iter()
            .filter_map(ContentBlock::as_text)
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// A tool failure. The message becomes an error tool result the model can read.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolError {
    /// Text shown to the model.
    pub message: String,
    /// Optional details kept with the error result.
    pub details: Option<Value>,
}

impl ToolError {
    /// An error with a message and no details.
    pub fn new(message: impl Into<String>) -> Self {
        ToolError {
            message: message.into(),
            details: None,
        }
    }
}

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<std::io::Error> for ToolError {
    fn from(e: std::io::Error) -> Self {
        ToolError::new(e.to_string())
    }
}

/// Callback for streaming partial results (`tool_execution_update`).
pub type UpdateFn = Arc<dyn Fn(ToolOutput) + Send + Sync>;

/// Everything a running tool may use.
#[derive(Clone)]
pub struct ToolContext {
    /// Working directory that relative paths resolve against.
    pub cwd: PathBuf,
    /// Fires when the user aborts; tools stop and kill their children.
    pub signal: CancellationToken,
    /// Receives partial results while the tool runs.
    pub on_update: Option<UpdateFn>,
}

impl ToolContext {
    /// A context for `cwd` with a fresh signal and no update callback.
    pub fn new(cwd: impl Into<PathBuf>) -> Self {
        ToolContext {
            cwd: cwd.into(),
            signal: CancellationToken::new(),
            on_update: None,
        }
    }

    /// Send a partial result, if anyone listens.
    pub fn update(&self, partial: ToolOutput) {
        if let Some(f) = &self.on_update {
            f(partial);
        }
    }
}

/// How a tool may be scheduled relative to others in the same turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ExecutionMode {
    /// May run concurrently with other calls (the default).
    #[default]
    Parallel,
    /// Must run alone, in order.
    Sequential,
}

/// A tool the model can call.
#[async_trait]
pub trait AgentTool: Send + Sync {
    /// Name the model uses.
    fn name(&self) -> &str;
    /// Short human label for UIs.
    fn label(&self) -> &str {
        self.name()
    }
    /// Description for the model.
    fn description(&self) -> String;
    /// JSON Schema of the arguments.
    fn parameters(&self) -> Value;
    /// The dialect [`AgentTool::parameters`] is read in when arguments are checked.
    fn schema_dialect(&self) -> crate::agent::validate::SchemaDialect {
        crate::agent::validate::SchemaDialect::Declared
    }
    /// One-line summary for the system prompt's tool list.
    fn prompt_snippet(&self) -> Option<String> {
        None
    }
    /// Guideline bullets this tool adds to the system prompt (in order).
    fn prompt_guidelines(&self) -> Vec<String> {
        Vec::new()
    }
    /// Rewrite raw model arguments before validation (e.g. legacy argument shapes).
    fn prepare_arguments(&self, args: Value) -> Value {
        args
    }
    /// Scheduling constraint.
    fn execution_mode(&self) -> ExecutionMode {
        ExecutionMode::Parallel
    }
    /// Run the tool. Arguments were already validated against [`AgentTool::parameters`].
    async fn execute(
        &self,
        tool_call_id: &str,
        args: Value,
        ctx: ToolContext,
    ) -> Result<ToolOutput, ToolError>;

    /// The tool as advertised to the model.
    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: self.name().to_string(),
            description: self.description(),
            parameters: self.parameters(),
        }
    }
}
