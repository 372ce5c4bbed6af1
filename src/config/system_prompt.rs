//! Assembly of the system prompt sent with every request.

use std::path::PathBuf;

use super::context_files::ContextFile;
use super::paths::DocsPaths;

/// A tool as the prompt lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptTool {
    /// Tool name (`read`, `bash`, ...).
    pub name: String,
    /// One-line summary; tools without one are active but not listed.
    pub snippet: Option<String>,
}

impl PromptTool {
    /// A tool with a snippet.
    pub fn new(name: impl Into<String>, snippet: impl Into<String>) -> Self {
        PromptTool {
            name: name.into(),
            snippet: Some(snippet.into()),
        }
    }
}

/// A skill the model may load with the `read` tool. Callers pass only
/// skills the model is allowed to invoke.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptSkill {
    /// Skill name.
    pub name: String,
    /// What the skill is for.
    pub description: String,
    /// Path of the skill file.
    pub path: PathBuf,
}

/// Everything the system prompt is built from.
#[derive(Debug, Clone, Default)]
pub struct SystemPromptOptions {
    /// Replaces the default prompt (from `--system-prompt` or `SYSTEM.md`).
    pub custom_prompt: Option<String>,
    /// Appended after the prompt body (`--append-system-prompt` / `APPEND_SYSTEM.md`).
    pub append_prompt: Option<String>,
    /// Active tools, in order.
    pub tools: Vec<PromptTool>,
    /// Guidelines contributed by the active tools (trimmed, deduplicated).
    pub guidelines: Vec<String>,
    /// `AGENTS.md` / `CLAUDE.md` files.
    pub context_files: Vec<ContextFile>,
    /// Skills to advertise (only when `read` is active).
    pub skills: Vec<PromptSkill>,
    /// Working directory shown to the model.
    pub cwd: PathBuf,
    /// Date shown to the model, `YYYY-MM-DD`.
    pub date: String,
    /// Bundled documentation; the docs paragraph is left out when `None`.
    pub docs: Option<DocsPaths>,
}

/// Today's local date as `YYYY-MM-DD`.
pub fn local_date() -> String {
    chrono::Local::now().format("%Y-%m-%d").to_string()
}

const IDENTITY: &str = "You are an expert coding assistant operating inside pi, a coding agent harness. You help users by reading files, executing commands, editing code, and writing new files.";

/// Build the system prompt.
pub fn build_system_prompt(options: &SystemPromptOptions) -> String {
    let tool_names: Vec<&str> = options.tools.iter().map(|t| t.name.as_str()).collect();
    let has = |name: &str| tool_names.contains(&name);

    let mut prompt = match &options.custom_prompt {
        Some(custom) => custom.clone(),
        None => default_body(options, &has),
    };

    if let Some(append) = options.append_prompt.as_deref().filter(|a| !a.is_empty()) {
        prompt.push_str("\n\n");
        prompt.push_str(append);
    }

    if !options.context_files.is_empty() {
        prompt.push_str("\n\n# Project Context\n\n");
        prompt.push_str("Project-specific instructions and guidelines:\n\n");
        for file in &options.context_files {
            prompt.push_str(&format!(
                "## {}\n\n{}\n\n",
                file.path.display(),
                file.content
            ));
        }
    }

    if has("read") {
        prompt.push_str(&format_skills(&options.skills));
    }

    let cwd = options.cwd.to_string_lossy().replace('\\', "/");
    prompt.push_str(&format!("\nCurrent date: {}", options.date));
    prompt.push_str(&format!("\nCurrent working directory: {cwd}"));
    prompt
}

fn default_body(options: &SystemPromptOptions, has: &dyn Fn(&str) -> bool) -> String {
    let listed: Vec<String> = options
        .tools
        .iter()
        .filter_map(|t| {
            let snippet = t.snippet.as_deref().filter(|s| !s.is_empty())?;
            Some(format!("- {}: {snippet}", t.name))
        })
        .collect();
    let tools_list = if listed.is_empty() {
        "(none)".to_string()
    } else {
        listed.join("\n")
    };

    let mut guidelines: Vec<String> = Vec::new();
    let mut add = |g: &str| {
        let g = g.trim();
        if !g.is_empty() && !guidelines.iter().any(|x| x == g) {
            guidelines.push(g.to_string());
        }
    };
    let has_explorer = has("grep") || has("find") || has("ls");
    if has("bash") && !has_explorer {
        add("Use bash for file operations like ls, rg, find");
    } else if has("bash") {
        add(
            "Prefer grep/find/ls tools over bash for file exploration (faster, respects .gitignore)",
        );
    }
    for g in &options.guidelines {
        add(g);
    }
    add("Be concise in your responses");
    add("Show file paths clearly when working with files");
    let guidelines_text = guidelines
        .iter()
        .map(|g| format!("- {g}"))
        .collect::<Vec<_>>()
        .join("\n");

    let mut body = format!(
        "{IDENTITY}\n\nAvailable tools:\n{tools_list}\n\nIn addition to the tools above, you may have access to other custom tools depending on the project.\n\nGuidelines:\n{guidelines_text}"
    );
    if let Some(docs) = &options.docs {
        body.push_str("\n\n");
        body.push_str(&docs_block(docs));
    }
    body
}

/// Pages of `docs/` the prompt points to, by topic.
pub const DOC_TOPICS: &[(&str, &str)] = &[
    ("extensions", "extensions.md"),
    ("extension UI", "extension-ui.md"),
    ("themes", "themes.md"),
    ("skills", "skills.md"),
    ("prompt templates", "prompt-templates.md"),
    ("TUI components", "tui.md"),
    ("keybindings", "keybindings.md"),
    ("SDK integrations", "sdk.md"),
    ("custom providers", "custom-provider.md"),
    ("providers and API keys", "providers.md"),
    ("adding models", "models.md"),
    ("pi packages", "packages.md"),
];

fn docs_block(docs: &DocsPaths) -> String {
    let topics: Vec<String> = DOC_TOPICS
        .iter()
        .map(|(topic, page)| format!("{topic} ({})", docs.docs.join(page).display()))
        .collect();
    format!(
        "Pi documentation (read only when the user asks about pi itself, its SDK, extensions, themes, skills, or TUI):\n\
- Main documentation: {}\n\
- Additional docs: {}\n\
- Examples: {} (Lua extensions)\n\
- When asked about: {}\n\
- When working on pi topics, read the docs and examples, and follow .md cross-references before implementing\n\
- Always read pi .md files completely and follow links to related docs (e.g., tui.md for TUI API details)",
        docs.readme.display(),
        docs.docs.display(),
        docs.examples.display(),
        topics.join(", ")
    )
}

/// The `<available_skills>` block (empty when there are no skills).
pub fn format_skills(skills: &[PromptSkill]) -> String {
    if skills.is_empty() {
        return String::new();
    }
    let mut lines = vec![
        "\n\nThe following skills provide specialized instructions for specific tasks.".to_string(),
        "Use the read tool to load a skill's file when the task matches its description.".to_string(),
        "When a skill file references a relative path, resolve it against the skill directory (parent of SKILL.md / dirname of the path) and use that absolute path in tool commands.".to_string(),
        String::new(),
        "<available_skills>".to_string(),
    ];
    for skill in skills {
        lines.push("  <skill>".to_string());
        lines.push(format!("    <name>{}</name>", escape_xml(&skill.name)));
        lines.push(format!(
            "    <description>{}</description>",
            escape_xml(&skill.description)
        ));
        lines.push(format!(
            "    <location>{}</location>",
            escape_xml(&skill.path.to_string_lossy())
        ));
        lines.push("  </skill>".to_string());
    }
    lines.push("</available_skills>".to_string());
    lines.join("\n")
}

fn escape_xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_is_escaped() {
        assert_eq!(escape_xml("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&apos;");
    }

    #[test]
    fn no_tools_lists_none() {
        let p = build_system_prompt(&SystemPromptOptions {
            cwd: PathBuf::from("/w"),
            date: "2026-01-02".into(),
            ..Default::default()
        });
        assert!(p.contains("Available tools:\n(none)\n"));
        assert!(p.ends_with("\nCurrent date: 2026-01-02\nCurrent working directory: /w"));
        assert!(!p.contains("Pi documentation"));
    }
}
