//! [`LuaTool`]: an extension-registered tool as an [`AgentTool`].

use std::sync::Arc;

use async_trait::async_trait;
use serde_json::Value;
use tokio::sync::mpsc;

use crate::agent::tool::{AgentTool, ExecutionMode, ToolContext, ToolError, ToolOutput};
use crate::ai::types::ContentBlock;

use crate::lua::error::ToolRunError;
use crate::lua::handle::ExtensionHandle;
use crate::lua::registry::ToolInfo;

/// A tool whose `execute` runs in the extension host.
pub struct LuaTool {
    info: ToolInfo,
    handle: ExtensionHandle,
}

impl LuaTool {
    /// Wrap a registered tool.
    pub fn new(info: ToolInfo, handle: ExtensionHandle) -> Self {
        LuaTool { info, handle }
    }

    /// Every tool the extensions registered, ready for the agent.
    pub async fn all(handle: &ExtensionHandle) -> Vec<Arc<dyn AgentTool>> {
        handle
            .tools()
            .await
            .into_iter()
            .map(|info| Arc::new(LuaTool::new(info, handle.clone())) as Arc<dyn AgentTool>)
            .collect()
    }
}

/// Read `{content, details}` returned by Lua: `content` is a list of blocks
/// or a plain string.
pub fn output_from_json(value: &Value) -> Result<ToolOutput, ToolRunError> {
    let content = match value.get("content") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::String(s)) => vec![ContentBlock::text(s.clone())],
        Some(Value::Array(blocks)) => blocks
            .iter()
            .map(|b| {
                serde_json::from_value::<ContentBlock>(b.clone()).map_err(|e| {
                    ToolRunError::BadBlock {
                        block: b.to_string(),
                        detail: e.to_string(),
                    }
                })
            })
            .collect::<Result<_, _>>()?,
        Some(Value::Object(o)) if o.is_empty() => Vec::new(),
        Some(other) => {
            return Err(ToolRunError::BadContent {
                got: other.to_string(),
            });
        }
    };
    let details = value.get("details").filter(|d| !d.is_null()).cloned();
    let terminate = value
        .get("terminate")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    Ok(ToolOutput {
        content,
        details,
        terminate,
    })
}

#[async_trait]
impl AgentTool for LuaTool {
    fn name(&self) -> &str {
        &self.info.name
    }
    fn label(&self) -> &str {
        &self.info.label
    }
    fn description(&self) -> String {
        self.info.description.clone()
    }
    fn parameters(&self) -> Value {
        self.info.parameters.clone()
    }
    fn prompt_snippet(&self) -> Option<String> {
        self.info.prompt_snippet.clone()
    }
    fn prompt_guidelines(&self) -> Vec<String> {
        self.info.prompt_guidelines.clone()
    }
    fn prepare_arguments(&self, args: Value) -> Value {
        if !self.info.has_prepare {
            return args;
        }
        self.handle
            .prepare_arguments_blocking(&self.info.name, args)
    }
    fn execution_mode(&self) -> ExecutionMode {
        match self.info.execution_mode.as_deref() {
            Some("sequential") => ExecutionMode::Sequential,
            _ => ExecutionMode::Parallel,
        }
    }

    async fn execute(
        &self,
        tool_call_id: &str,
        args: Value,
        ctx: ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let run =
            self.handle
                .execute_tool(&self.info.name, tool_call_id, args, ctx.signal.clone(), tx);
        tokio::pin!(run);
        let result = loop {
            tokio::select! {
                Some(partial) = rx.recv() => {
                    if let Ok(out) = output_from_json(&partial) {
                        ctx.update(out);
                    }
                }
                result = &mut run => break result,
            }
        };
        while let Ok(partial) = rx.try_recv() {
            if let Ok(out) = output_from_json(&partial) {
                ctx.update(out);
            }
        }
        let for_model = |e: ToolRunError| ToolError::new(e.to_string());
        let value = result.map_err(for_model)?;
        output_from_json(&value).map_err(for_model)
    }
}
