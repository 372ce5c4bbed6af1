//! Context files, SYSTEM.md / APPEND_SYSTEM.md discovery and system prompt assembly.

use std::path::{Path, PathBuf};

use pi::config::ContextFile;
use pi::config::context_files::{load_context_files, load_prompt_sources};
use pi::config::paths::DocsPaths;
use pi::config::system_prompt::{
    PromptSkill, PromptTool, SystemPromptOptions, build_system_prompt,
};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn context_files_global_first_then_root_to_cwd() {
    let root = tempfile::tempdir().unwrap();
    let agent = root.path().join("agent");
    let project = root.path().join("work/project");
    let cwd = project.join("sub");
    std::fs::create_dir_all(&cwd).unwrap();
    write(&agent.join("CLAUDE.md"), "global");
    write(&root.path().join("work/CLAUDE.md"), "work");
    write(&project.join("CLAUDE.md"), "project claude");
    write(&project.join("AGENTS.md"), "project agents");
    write(&cwd.join("AGENTS.md"), "sub");
    let (files, warnings) = load_context_files(&agent, &cwd);
    assert!(warnings.is_empty(), "{warnings:?}");
    // Only files inside the temp tree (the machine's own ancestors may hold some).
    let got: Vec<(PathBuf, &str)> = files
        .iter()
        .filter(|f| f.path.starts_with(root.path()))
        .map(|f| (f.path.clone(), f.content.as_str()))
        .collect();
    assert_eq!(
        got,
        vec![
            (agent.join("CLAUDE.md"), "global"),
            (root.path().join("work/CLAUDE.md"), "work"),
            (project.join("AGENTS.md"), "project agents"),
            (cwd.join("AGENTS.md"), "sub"),
        ]
    );
    // The agent dir inside the cwd's ancestry is not read twice.
    let (files, _) = load_context_files(&root.path().join("work"), &cwd);
    let work_count = files
        .iter()
        .filter(|f| f.path == root.path().join("work/CLAUDE.md"))
        .count();
    assert_eq!(work_count, 1);
    assert_eq!(files[0].content, "work");
}

#[test]
fn system_prompt_files_project_wins_and_cli_overrides() {
    let root = tempfile::tempdir().unwrap();
    let agent = root.path().join("agent");
    let cwd = root.path().join("project");
    write(&agent.join("SYSTEM.md"), "global system");
    write(&agent.join("APPEND_SYSTEM.md"), "global append");
    let sources = load_prompt_sources(None, &[], &agent, Some(&cwd));
    assert_eq!(sources.custom_prompt.as_deref(), Some("global system"));
    assert_eq!(sources.append_prompt.as_deref(), Some("global append"));

    write(&cwd.join(".pi/SYSTEM.md"), "project system");
    write(&cwd.join(".pi/APPEND_SYSTEM.md"), "project append");
    let sources = load_prompt_sources(None, &[], &agent, Some(&cwd));
    assert_eq!(sources.custom_prompt.as_deref(), Some("project system"));
    assert_eq!(sources.append_prompt.as_deref(), Some("project append"));

    let file = root.path().join("prompt.txt");
    write(&file, "prompt from file");
    let appends = vec!["literal append".to_string(), file.display().to_string()];
    let sources = load_prompt_sources(Some("literal system"), &appends, &agent, Some(&cwd));
    assert_eq!(sources.custom_prompt.as_deref(), Some("literal system"));
    assert_eq!(
        sources.append_prompt.as_deref(),
        Some("literal append\n\nprompt from file")
    );
    let sources = load_prompt_sources(Some(file.to_str().unwrap()), &[], &agent, Some(&cwd));
    assert_eq!(sources.custom_prompt.as_deref(), Some("prompt from file"));
}

fn base_options() -> SystemPromptOptions {
    SystemPromptOptions {
        cwd: PathBuf::from("/work/proj"),
        date: "2026-03-04".into(),
        context_files: vec![
            ContextFile {
                path: "/home/u/.pi/agent/AGENTS.md".into(),
                content: "global rules".into(),
            },
            ContextFile {
                path: "/work/proj/AGENTS.md".into(),
                content: "project rules".into(),
            },
        ],
        skills: vec![PromptSkill {
            name: "pdf".into(),
            description: "Handle <PDF> & more".into(),
            path: "/s/pdf/SKILL.md".into(),
        }],
        ..Default::default()
    }
}

const SKILLS_BLOCK: &str = "\n\nThe following skills provide specialized instructions for specific tasks.
Use the read tool to load a skill's file when the task matches its description.
When a skill file references a relative path, resolve it against the skill directory (parent of SKILL.md / dirname of the path) and use that absolute path in tool commands.

<available_skills>
  <skill>
    <name>pdf</name>
    <description>Handle &lt;PDF&gt; &amp; more</description>
    <location>/s/pdf/SKILL.md</location>
  </skill>
</available_skills>";

const PROJECT_CONTEXT: &str = "\n\n# Project Context\n\nProject-specific instructions and guidelines:\n\n## /home/u/.pi/agent/AGENTS.md\n\nglobal rules\n\n## /work/proj/AGENTS.md\n\nproject rules\n\n";

#[test]
fn default_prompt_lists_tools_guidelines_context_and_skills() {
    let options = SystemPromptOptions {
        tools: vec![
            PromptTool::new("read", "Read file contents"),
            PromptTool::new("bash", "Execute bash commands (ls, grep, find, etc.)"),
            PromptTool::new("edit", "Make precise file edits"),
            PromptTool {
                name: "hidden".into(),
                snippet: None,
            },
        ],
        guidelines: vec![
            "Use read to examine files instead of cat or sed.".into(),
            "  Use read to examine files instead of cat or sed.  ".into(),
        ],
        append_prompt: Some("APPENDED".into()),
        ..base_options()
    };
    let expected = format!(
        "You are an expert coding assistant operating inside pi, a coding agent harness. You help users by reading files, executing commands, editing code, and writing new files.

Available tools:
- read: Read file contents
- bash: Execute bash commands (ls, grep, find, etc.)
- edit: Make precise file edits

In addition to the tools above, you may have access to other custom tools depending on the project.

Guidelines:
- Use bash for file operations like ls, rg, find
- Use read to examine files instead of cat or sed.
- Be concise in your responses
- Show file paths clearly when working with files

APPENDED{PROJECT_CONTEXT}{SKILLS_BLOCK}
Current date: 2026-03-04
Current working directory: /work/proj"
    );
    assert_eq!(build_system_prompt(&options), expected);
}

#[test]
fn exploration_tools_change_guidelines_and_docs_block_is_optional() {
    let options = SystemPromptOptions {
        tools: vec![
            PromptTool::new("bash", "Run"),
            PromptTool::new("grep", "Search"),
        ],
        docs: Some(DocsPaths::in_dir(Path::new("/opt/pi"))),
        ..base_options()
    };
    let prompt = build_system_prompt(&options);
    assert!(prompt.contains(
        "- Prefer grep/find/ls tools over bash for file exploration (faster, respects .gitignore)\n"
    ));
    assert!(!prompt.contains("Use bash for file operations"));
    assert!(prompt.contains("- Main documentation: /opt/pi/README.md\n- Additional docs: /opt/pi/docs\n- Examples: /opt/pi/extensions/examples (Lua extensions)\n"));
    assert!(
        !prompt.contains("<available_skills>"),
        "no read tool, no skills"
    );
}

#[test]
fn custom_prompt_replaces_the_body() {
    let options = SystemPromptOptions {
        custom_prompt: Some("You are a custom SYSTEM.md prompt.".into()),
        append_prompt: Some("MORE".into()),
        tools: vec![PromptTool::new("read", "Read file contents")],
        ..base_options()
    };
    let expected = format!(
        "You are a custom SYSTEM.md prompt.\n\nMORE{PROJECT_CONTEXT}{SKILLS_BLOCK}\nCurrent date: 2026-03-04\nCurrent working directory: /work/proj"
    );
    assert_eq!(build_system_prompt(&options), expected);
}
