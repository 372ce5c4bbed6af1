//! Built-in tools: read, bash, edit, write, grep, find, ls.
//!
//! Every tool resolves paths against [`ToolContext::cwd`](crate::agent::tool::ToolContext),
//! stops with "Operation aborted" when the context's signal fires, and
//! reports failures as [`ToolError`](crate::agent::tool::ToolError)s whose
//! message the model reads.

/// Implements [`AgentTool`] for a built-in tool from its name, texts and
/// argument schema; `execute` calls the tool's own
/// `async fn run(&self, args: Value, ctx: ToolContext)`.
macro_rules! impl_builtin_tool {
    (
        $tool:ty {
            name: $name:literal,
            description: $description:expr,
            snippet: $snippet:expr,
            $(guidelines: [$($guideline:expr),* $(,)?],)?
            $(prepare_arguments: $prepare:path,)?
            parameters: $parameters:expr $(,)?
        }
    ) => {
        #[async_trait::async_trait]
        impl $crate::agent::tool::AgentTool for $tool {
            fn name(&self) -> &str {
                $name
            }

            fn description(&self) -> String {
                $description.to_string()
            }

            fn parameters(&self) -> serde_json::Value {
                $parameters
            }

            fn schema_dialect(&self) -> $crate::agent::validate::SchemaDialect {
                $crate::agent::validate::SchemaDialect::Draft7
            }

            fn prompt_snippet(&self) -> Option<String> {
                Some($snippet.to_string())
            }

            $(fn prompt_guidelines(&self) -> Vec<String> {
                vec![$($guideline.to_string()),*]
            })?

            $(fn prepare_arguments(&self, args: serde_json::Value) -> serde_json::Value {
                $prepare(args)
            })?

            async fn execute(
                &self,
                _tool_call_id: &str,
                args: serde_json::Value,
                ctx: $crate::agent::tool::ToolContext,
            ) -> Result<$crate::agent::tool::ToolOutput, $crate::agent::tool::ToolError> {
                self.run(args, ctx).await
            }
        }
    };
}

pub mod args;
pub mod bash;
pub mod edit;
pub mod find;
pub mod fs_errors;
pub mod grep;
pub mod image_resize;
pub mod listing;
pub mod ls;
pub mod mime;
pub mod mutation_queue;
pub mod operation_error;
pub mod operations;
pub mod paths;
pub mod read;
pub mod truncate;
pub mod walk;
pub mod write;

use std::path::PathBuf;
use std::sync::Arc;

use crate::agent::tool::AgentTool;

pub use bash::BashTool;
pub use edit::EditTool;
pub use find::FindTool;
pub use grep::GrepTool;
pub use ls::LsTool;
pub use read::ReadTool;
pub use write::WriteTool;

/// Names of all built-in tools, in their canonical order.
pub const BUILTIN_TOOL_NAMES: [&str; 7] = ["read", "bash", "edit", "write", "grep", "find", "ls"];

/// Tools active when no tool selection is given.
pub const DEFAULT_TOOLS: [&str; 4] = ["read", "bash", "edit", "write"];

/// The read-only tool preset.
pub const READ_ONLY_TOOLS: [&str; 4] = ["read", "grep", "find", "ls"];

/// Settings that shape the built-in tools.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolOptions {
    /// Shell used by `bash` instead of the default (`settings.shellPath`).
    pub shell_path: Option<PathBuf>,
    /// Text prepended (plus a newline) to every bash command (`settings.shellCommandPrefix`).
    pub shell_command_prefix: Option<String>,
    /// Directory prepended to `PATH` for bash commands (the agent's `bin` directory).
    pub bin_dir: Option<PathBuf>,
    /// `read` sends images as they are instead of scaling them to the provider limits
    /// (`images.autoResize: false`).
    pub keep_image_size: bool,
}

/// The built-in tool called `name`, or `None` for an unknown name.
pub fn builtin_tool(name: &str, options: &ToolOptions) -> Option<Arc<dyn AgentTool>> {
    let tool: Arc<dyn AgentTool> = match name {
        "read" => Arc::new(ReadTool::with_resize(!options.keep_image_size)),
        "bash" => Arc::new(BashTool::new(options)),
        "edit" => Arc::new(EditTool::new()),
        "write" => Arc::new(WriteTool::new()),
        "grep" => Arc::new(GrepTool::new()),
        "find" => Arc::new(FindTool::new()),
        "ls" => Arc::new(LsTool::new()),
        _ => return None,
    };
    Some(tool)
}

/// The built-in tools among `names`, in the given order; unknown names are skipped.
pub fn builtin_tools<S: AsRef<str>>(names: &[S], options: &ToolOptions) -> Vec<Arc<dyn AgentTool>> {
    names
        .iter()
        .filter_map(|name| builtin_tool(name.as_ref(), options))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_name_resolves_to_its_tool() {
        let options = ToolOptions::default();
        for name in BUILTIN_TOOL_NAMES {
            let tool = builtin_tool(name, &options).unwrap();
            assert_eq!(tool.name(), name);
            assert!(tool.prompt_snippet().is_some());
        }
        assert!(builtin_tool("nope", &options).is_none());
    }
}

#[cfg(test)]
mod schema_dialect_tests {
    use super::*;
    use crate::agent::validate::{SchemaDialect, validate_tool_arguments};
    use serde_json::{Value, json};

    /// Keywords that mean the same in draft-07 and 2020-12.
    const SHARED_KEYWORDS: [&str; 13] = [
        "type",
        "properties",
        "required",
        "description",
        "additionalProperties",
        "items",
        "enum",
        "minimum",
        "maximum",
        "minItems",
        "minLength",
        "default",
        "title",
    ];

    fn keywords_outside_shared(schema: &Value, at: &str, found: &mut Vec<String>) {
        let Some(object) = schema.as_object() else {
            return;
        };
        for (key, value) in object {
            if !SHARED_KEYWORDS.contains(&key.as_str()) {
                found.push(format!("{at}/{key}"));
            }
            match key.as_str() {
                "properties" => {
                    for (name, sub) in value.as_object().into_iter().flatten() {
                        keywords_outside_shared(sub, &format!("{at}/properties/{name}"), found);
                    }
                }
                "items" | "additionalProperties" => {
                    keywords_outside_shared(value, &format!("{at}/{key}"), found)
                }
                _ => {}
            }
        }
    }

    #[test]
    fn builtin_schemas_use_only_keywords_shared_by_draft7_and_2020_12() {
        for tool in builtin_tools(&BUILTIN_TOOL_NAMES, &ToolOptions::default()) {
            assert_eq!(tool.schema_dialect(), SchemaDialect::Draft7);
            let mut found = Vec::new();
            keywords_outside_shared(&tool.parameters(), "", &mut found);
            assert!(found.is_empty(), "{}: {found:?}", tool.name());
        }
    }

    #[test]
    fn builtin_schemas_check_arguments_alike_in_both_dialects() {
        let samples = [
            json!({}),
            json!({"path": "a.txt"}),
            json!({"path": 3, "offset": "x"}),
            json!({"command": "ls", "timeout": "5"}),
            json!({"command": ["ls"]}),
            json!({"path": "a", "edits": [{"oldText": "a", "newText": "b"}]}),
            json!({"path": "a", "edits": [{"oldText": "a"}], "extra": true}),
            json!({"path": "a", "content": "x"}),
            json!({"pattern": "x", "limit": 10, "ignoreCase": "true"}),
            json!("not an object"),
        ];
        for tool in builtin_tools(&BUILTIN_TOOL_NAMES, &ToolOptions::default()) {
            let schema = tool.parameters();
            for args in &samples {
                let declared =
                    validate_tool_arguments(tool.name(), &schema, SchemaDialect::Declared, args);
                let draft7 =
                    validate_tool_arguments(tool.name(), &schema, SchemaDialect::Draft7, args);
                assert_eq!(declared, draft7, "{} with {args}", tool.name());
            }
        }
    }
}
