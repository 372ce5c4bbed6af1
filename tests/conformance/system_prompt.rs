//! The system prompt's tool list and guidelines.
//! orig-file: packages/coding-agent/test/system-prompt.test.ts

use pi::config::system_prompt::{PromptTool, SystemPromptOptions, build_system_prompt};
use pi::tools::{ToolOptions, builtin_tools};

fn prompt(tools: Vec<PromptTool>, guidelines: &[&str]) -> String {
    build_system_prompt(&SystemPromptOptions {
        tools,
        guidelines: guidelines.iter().map(|g| g.to_string()).collect(),
        date: "2026-01-01".into(),
        ..Default::default()
    })
}

fn builtin(names: &[&str]) -> Vec<PromptTool> {
    builtin_tools(names, &ToolOptions::default())
        .iter()
        .map(|t| PromptTool {
            name: t.name().to_string(),
            snippet: t.prompt_snippet(),
        })
        .collect()
}

/// orig: buildSystemPrompt › empty tools › shows (none) for empty tools list
#[test]
fn no_tools_listed_as_none() {
    assert!(prompt(Vec::new(), &[]).contains("Available tools:\n(none)"));
}

/// orig: buildSystemPrompt › empty tools › shows file paths guideline even with no tools
#[test]
fn file_paths_guideline_without_tools() {
    assert!(prompt(Vec::new(), &[]).contains("Show file paths clearly"));
}

/// orig: buildSystemPrompt › default tools › includes all default tools
#[test]
fn default_tools_listed() {
    let p = prompt(builtin(&["read", "bash", "edit", "write"]), &[]);
    for tool in ["- read:", "- bash:", "- edit:", "- write:"] {
        assert!(p.contains(tool), "{tool}");
    }
}

/// orig: buildSystemPrompt › custom tool snippets › includes custom tools in available tools section
#[test]
fn custom_tool_snippet_listed() {
    let mut tools = builtin(&["read"]);
    tools.push(PromptTool::new("dynamic_tool", "Run dynamic test behavior"));
    assert!(prompt(tools, &[]).contains("- dynamic_tool: Run dynamic test behavior"));
}

/// orig: buildSystemPrompt › prompt guidelines › appends promptGuidelines to default guidelines
#[test]
fn tool_guidelines_appended() {
    let mut tools = builtin(&["read"]);
    tools.push(PromptTool::new("dynamic_tool", "x"));
    assert!(
        prompt(tools, &["Use dynamic_tool for project summaries."])
            .contains("- Use dynamic_tool for project summaries.")
    );
}

/// orig: buildSystemPrompt › prompt guidelines › deduplicates and trims promptGuidelines
#[test]
fn guidelines_trimmed_and_deduplicated() {
    let p = prompt(
        builtin(&["read"]),
        &[
            "Use dynamic_tool for summaries.",
            "  Use dynamic_tool for summaries.  ",
            "   ",
        ],
    );
    assert_eq!(p.matches("- Use dynamic_tool for summaries.").count(), 1);
}
