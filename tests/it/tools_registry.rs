//! Integration tests for the built-in tool registry and tool metadata.

use pi::tools::{BUILTIN_TOOL_NAMES, DEFAULT_TOOLS, ToolOptions, builtin_tool, builtin_tools};
use serde_json::json;

#[test]
fn names_and_defaults_are_in_canonical_order() {
    assert_eq!(
        BUILTIN_TOOL_NAMES,
        ["read", "bash", "edit", "write", "grep", "find", "ls"]
    );
    assert_eq!(DEFAULT_TOOLS, ["read", "bash", "edit", "write"]);
    let tools = builtin_tools(&DEFAULT_TOOLS, &ToolOptions::default());
    let names: Vec<&str> = tools.iter().map(|t| t.name()).collect();
    assert_eq!(names, DEFAULT_TOOLS);
}

#[test]
fn unknown_names_are_not_tools() {
    assert!(builtin_tool("cat", &ToolOptions::default()).is_none());
    assert!(builtin_tools(&["cat", "ls"], &ToolOptions::default()).len() == 1);
}

#[test]
fn specs_carry_schemas_and_prompt_texts() {
    let options = ToolOptions::default();
    let read = builtin_tool("read", &options).unwrap().spec();
    assert_eq!(read.name, "read");
    assert_eq!(read.parameters["required"], json!(["path"]));
    assert!(read.description.starts_with("Read the contents of a file."));

    let edit = builtin_tool("edit", &options).unwrap();
    assert_eq!(edit.parameters()["required"], json!(["path", "edits"]));
    assert_eq!(edit.parameters()["additionalProperties"], false);
    assert_eq!(edit.prompt_guidelines().len(), 4);

    let ls = builtin_tool("ls", &options).unwrap();
    assert!(ls.parameters().get("required").is_none());
    assert_eq!(ls.prompt_snippet().unwrap(), "List directory contents");

    let bash = builtin_tool("bash", &options).unwrap();
    assert_eq!(
        bash.prompt_snippet().unwrap(),
        "Execute bash commands (ls, grep, find, etc.)"
    );
    assert!(bash.prompt_guidelines().is_empty());
}

#[test]
fn edit_prepares_legacy_arguments() {
    let edit = builtin_tool("edit", &ToolOptions::default()).unwrap();
    let prepared = edit.prepare_arguments(json!({"path": "x", "oldText": "a", "newText": "b"}));
    assert_eq!(
        prepared,
        json!({"path": "x", "edits": [{"oldText": "a", "newText": "b"}]})
    );
    // Other tools leave arguments alone.
    let read = builtin_tool("read", &ToolOptions::default()).unwrap();
    assert_eq!(read.prepare_arguments(json!({"p": 1})), json!({"p": 1}));
}
