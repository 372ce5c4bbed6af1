//! [`WrappedTool`]: a tool with `pi.wrapTool` wrappers, as an [`AgentTool`] that looks
//! exactly like the tool it wraps and runs its calls through the wrapper chain on the
//! extension host.

use std::sync::Arc;

use async_trait::async_trait;
use serde_json::Value;

use crate::agent::tool::{AgentTool, ExecutionMode, ToolContext, ToolError, ToolOutput};
use crate::lua::handle::ExtensionHandle;

/// A tool (built-in or registered) whose calls go through its wrappers.
pub struct WrappedTool {
    inner: Arc<dyn AgentTool>,
    handle: ExtensionHandle,
}

impl WrappedTool {
    /// Wrap `inner`; its wrappers are looked up by name on every call.
    pub fn new(inner: Arc<dyn AgentTool>, handle: ExtensionHandle) -> Self {
        WrappedTool { inner, handle }
    }
}

#[async_trait]
impl AgentTool for WrappedTool {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn label(&self) -> &str {
        self.inner.label()
    }
    fn description(&self) -> String {
        self.inner.description()
    }
    fn parameters(&self) -> Value {
        self.inner.parameters()
    }
    fn schema_dialect(&self) -> crate::agent::validate::SchemaDialect {
        self.inner.schema_dialect()
    }
    fn prompt_snippet(&self) -> Option<String> {
        self.inner.prompt_snippet()
    }
    fn prompt_guidelines(&self) -> Vec<String> {
        self.inner.prompt_guidelines()
    }
    fn prepare_arguments(&self, args: Value) -> Value {
        self.inner.prepare_arguments(args)
    }
    fn execution_mode(&self) -> ExecutionMode {
        self.inner.execution_mode()
    }

    async fn execute(
        &self,
        tool_call_id: &str,
        args: Value,
        ctx: ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let name = self.inner.name().to_string();
        self.handle
            .execute_wrapped(&name, tool_call_id, args, self.inner.clone(), ctx)
            .await
    }
}
