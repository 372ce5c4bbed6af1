//! The `write` tool: create or overwrite a file, creating parent directories.

use serde_json::Value;

use crate::agent::tool::{ToolContext, ToolError, ToolOutput};

use super::args::{check_aborted, object_schema, required_str};
use super::mutation_queue::lock_file_unless_aborted;
use super::operations::{LocalFs, WriteOperations};
use super::paths::resolve_to_cwd;

/// The built-in `write` tool.
#[derive(Debug, Clone, Default)]
pub struct WriteTool;

impl WriteTool {
    /// A write tool.
    pub fn new() -> Self {
        WriteTool
    }
}

impl_builtin_tool! {
    WriteTool {
        name: "write",
        description:
            "Write content to a file. Creates the file if it doesn't exist, overwrites if it does. \
             Automatically creates parent directories.",
        snippet: "Create or overwrite files",
        guidelines: [
            "Use write only for new files or complete rewrites.",
        ],
        parameters: object_schema(
            &["path", "content"],
            &[
                ("path", "string", "Path to the file to write (relative or absolute)"),
                ("content", "string", "Content to write to the file"),
            ],
        ),
    }
}

impl WriteTool {
    async fn run(&self, args: Value, ctx: ToolContext) -> Result<ToolOutput, ToolError> {
        check_sandbox_write(&args, &ctx)?;
        write_with(&LocalFs, &args, &ctx).await
    }
}

/// Refuse, naming the mode and the writable roots, a write to the `path` argument that
/// the sandbox in force does not allow (checked on the real path, symlinks resolved).
/// The built-in tools check this; tools whose I/O an extension redirects do not.
pub(crate) fn check_sandbox_write(args: &Value, ctx: &ToolContext) -> Result<(), ToolError> {
    let Ok(path) = required_str(args, "path") else {
        return Ok(());
    };
    let absolute = resolve_to_cwd(path, &ctx.cwd);
    crate::sandbox::check_write(&absolute, &ctx.cwd).map_err(|r| ToolError::new(r.message))
}

/// Run the write tool with its I/O going through `ops`.
pub async fn write_with<O: WriteOperations>(
    ops: &O,
    args: &Value,
    ctx: &ToolContext,
) -> Result<ToolOutput, ToolError> {
    let path = required_str(args, "path")?;
    let content = required_str(args, "content")?;
    let absolute = resolve_to_cwd(path, &ctx.cwd);
    let _guard = lock_file_unless_aborted(&absolute, &ctx.signal).await?;
    check_aborted(&ctx.signal)?;
    if let Some(dir) = absolute.parent() {
        ops.mkdir(dir).await?;
    }
    check_aborted(&ctx.signal)?;
    ops.write_file(&absolute, content)
        .await
        .map_err(ToolError::from)?;
    // The count is in UTF-16 code units, as this result text has always reported it.
    let length = content.encode_utf16().count();
    Ok(ToolOutput::text(format!(
        "Successfully wrote {length} bytes to {path}"
    )))
}
