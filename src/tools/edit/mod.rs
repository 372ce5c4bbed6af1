//! The `edit` tool: exact-text replacements in one file, with a fuzzy
//! fallback, preserved line endings and BOM, and a numbered diff.

pub mod apply;
pub mod diff;
pub mod edit_error;

use std::path::Path;

use serde_json::{Map, Value, json};

use crate::agent::tool::{ToolContext, ToolError, ToolOutput};

use super::args::{check_aborted, required_str};
use super::mutation_queue::lock_file_unless_aborted;
use super::operations::{EditOperations, LocalFs};
use super::paths::resolve_to_cwd;
use apply::{
    Replacement, apply_edits, detect_line_ending, normalize_to_lf, restore_line_endings, strip_bom,
};
use diff::{DEFAULT_CONTEXT_LINES, generate_diff};

const INVALID_INPUT: &str =
    "Edit tool input is invalid. edits must contain at least one replacement.";

/// The built-in `edit` tool.
#[derive(Debug, Clone, Default)]
pub struct EditTool;

impl EditTool {
    /// An edit tool.
    pub fn new() -> Self {
        EditTool
    }
}

/// Accept the shapes models send besides the schema: `edits` as a JSON
/// string, and the legacy top-level `oldText`/`newText` pair (appended to
/// `edits`).
pub fn prepare_edit_arguments(args: Value) -> Value {
    let Value::Object(mut map) = args else {
        return args;
    };
    if let Some(Value::String(raw)) = map.get("edits")
        && let Ok(parsed @ Value::Array(_)) = serde_json::from_str::<Value>(raw)
    {
        map.insert("edits".into(), parsed);
    }
    let legacy_pair = match (map.get("oldText"), map.get("newText")) {
        (Some(Value::String(old)), Some(Value::String(new))) => Some((old.clone(), new.clone())),
        _ => None,
    };
    if let Some((old_text, new_text)) = legacy_pair {
        let mut edits = match map.remove("edits") {
            Some(Value::Array(items)) => items,
            _ => Vec::new(),
        };
        edits.push(json!({ "oldText": old_text, "newText": new_text }));
        map.remove("oldText");
        map.remove("newText");
        map.insert("edits".into(), Value::Array(edits));
    }
    Value::Object(map)
}

/// The replacements in prepared arguments.
fn parse_edits(args: &Value) -> Result<Vec<Replacement>, ToolError> {
    let items = match args.get("edits") {
        Some(Value::Array(items)) if !items.is_empty() => items,
        _ => return Err(ToolError::new(INVALID_INPUT)),
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let text = |key: &str| item.get(key).and_then(Value::as_str).map(str::to_string);
            match (text("oldText"), text("newText")) {
                (Some(old_text), Some(new_text)) => Ok(Replacement { old_text, new_text }),
                _ => Err(ToolError::new(format!(
                    "Edit tool input is invalid. edits[{i}] must have string oldText and newText."
                ))),
            }
        })
        .collect()
}

impl_builtin_tool! {
    EditTool {
        name: "edit",
        description:
            "Edit a single file using exact text replacement. Every edits[].oldText must match a \
             unique, non-overlapping region of the original file. If two changes affect the same \
             block or nearby lines, merge them into one edit instead of emitting overlapping edits. \
             Do not include large unchanged regions just to connect distant changes.",
        snippet: "Make precise file edits with exact text replacement, including multiple disjoint edits in one call",
        guidelines: [
            "Use edit for precise changes (edits[].oldText must match exactly)",
            "When changing multiple separate locations in one file, use one edit call with multiple entries in edits[] instead of multiple edit calls",
            "Each edits[].oldText is matched against the original file, not after earlier edits are applied. Do not emit overlapping or nested edits. Merge nearby changes into one edit.",
            "Keep edits[].oldText as small as possible while still being unique in the file. Do not pad with large unchanged regions.",
        ],
        prepare_arguments: prepare_edit_arguments,
        parameters: json!({
                "type": "object",
                "required": ["path", "edits"],
                "properties": {
                    "path": {
                        "type": "string",
                        "description": "Path to the file to edit (relative or absolute)"
                    },
                    "edits": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["oldText", "newText"],
                            "properties": {
                                "oldText": {
                                    "type": "string",
                                    "description": "Exact text for one targeted replacement. It must be unique in the original file and must not overlap with any other edits[].oldText in the same call."
                                },
                                "newText": {
                                    "type": "string",
                                    "description": "Replacement text for this targeted edit."
                                }
                            },
                            "additionalProperties": false
                        },
                        "description": "One or more targeted replacements. Each edit is matched against the original file, not incrementally. Do not include overlapping or nested edits. If two changes touch the same block or nearby lines, merge them into one edit instead."
                    }
                },
                "additionalProperties": false
            }),
    }
}

impl EditTool {
    async fn run(&self, args: Value, ctx: ToolContext) -> Result<ToolOutput, ToolError> {
        super::write::check_sandbox_write(&args, &ctx)?;
        edit_with(&LocalFs, args, &ctx).await
    }
}

/// Run the edit tool with its I/O going through `ops`.
pub async fn edit_with<O: EditOperations>(
    ops: &O,
    args: Value,
    ctx: &ToolContext,
) -> Result<ToolOutput, ToolError> {
    let args = prepare_edit_arguments(args);
    let path = required_str(&args, "path")?;
    let edits = parse_edits(&args)?;
    let absolute = resolve_to_cwd(path, &ctx.cwd);
    let _guard = lock_file_unless_aborted(&absolute, &ctx.signal).await?;
    edit_file(ops, path, &absolute, &edits, ctx).await
}

async fn edit_file<O: EditOperations>(
    ops: &O,
    path: &str,
    absolute: &Path,
    edits: &[Replacement],
    ctx: &ToolContext,
) -> Result<ToolOutput, ToolError> {
    check_aborted(&ctx.signal)?;
    if let Err(reason) = ops.access(absolute).await {
        return Err(ToolError::new(format!(
            "Could not edit file: {path}. {reason}."
        )));
    }
    let bytes = ops.read_file(absolute).await?;
    check_aborted(&ctx.signal)?;
    let raw = String::from_utf8(bytes).map_err(|_| {
        ToolError::new(format!(
            "Could not edit file: {path}. The file is not valid UTF-8; use write to replace it or bash to modify it."
        ))
    })?;

    let (bom, content) = strip_bom(&raw);
    let ending = detect_line_ending(content);
    let normalized = normalize_to_lf(content);
    let applied =
        apply_edits(&normalized, edits, path).map_err(|e| ToolError::new(e.to_string()))?;
    check_aborted(&ctx.signal)?;

    let final_content = format!(
        "{bom}{}",
        restore_line_endings(&applied.new_content, ending)
    );
    ops.write_file(absolute, &final_content)
        .await
        .map_err(ToolError::from)?;

    let diff = generate_diff(
        &applied.base_content,
        &applied.new_content,
        DEFAULT_CONTEXT_LINES,
    );
    let mut details = Map::new();
    details.insert("diff".into(), json!(diff.diff));
    if let Some(line) = diff.first_changed_line {
        details.insert("firstChangedLine".into(), json!(line));
    }
    Ok(ToolOutput {
        content: vec![crate::ai::types::ContentBlock::text(format!(
            "Successfully replaced {} block(s) in {path}.",
            edits.len()
        ))],
        details: Some(Value::Object(details)),
        terminate: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legacy_arguments_become_edits() {
        let prepared = prepare_edit_arguments(json!({"path": "a", "oldText": "x", "newText": "y"}));
        assert_eq!(
            prepared,
            json!({"path": "a", "edits": [{"oldText": "x", "newText": "y"}]})
        );
    }

    #[test]
    fn edits_given_as_json_string_are_parsed() {
        let prepared = prepare_edit_arguments(
            json!({"path": "a", "edits": "[{\"oldText\":\"x\",\"newText\":\"y\"}]"}),
        );
        assert_eq!(parse_edits(&prepared).unwrap().len(), 1);
    }

    #[test]
    fn empty_edits_are_rejected() {
        let err = parse_edits(&json!({"path": "a", "edits": []})).unwrap_err();
        assert_eq!(err.message, INVALID_INPUT);
    }
}
