//! Files that feed the system prompt: `AGENTS.md` / `CLAUDE.md` context
//! files, `SYSTEM.md` / `APPEND_SYSTEM.md`, and `--system-prompt` /
//! `--append-system-prompt` values.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::paths::CONFIG_DIR_NAME;

/// Candidate context file names per directory, in order of preference.
const CONTEXT_FILE_NAMES: [&str; 4] = ["AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"];

/// A loaded context file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextFile {
    /// Where it was found.
    pub path: PathBuf,
    /// Its text.
    pub content: String,
}

/// The first readable context file in `dir`, if any. Unreadable candidates
/// add a warning and the next candidate is tried.
fn context_file_in(dir: &Path, warnings: &mut Vec<String>) -> Option<ContextFile> {
    for name in CONTEXT_FILE_NAMES {
        let path = dir.join(name);
        if !path.exists() {
            continue;
        }
        match super::json_file::read_config_text(&path) {
            Ok(content) => return Some(ContextFile { path, content }),
            Err(e) => warnings.push(format!("Could not read {}: {e}", path.display())),
        }
    }
    None
}

/// Context files: the agent dir's first, then each ancestor of `cwd` from
/// the filesystem root down to `cwd` itself; one per directory, the same
/// path never twice.
pub fn load_context_files(agent_dir: &Path, cwd: &Path) -> (Vec<ContextFile>, Vec<String>) {
    let mut warnings = Vec::new();
    let mut files = Vec::new();
    let mut seen: HashSet<PathBuf> = HashSet::new();
    if let Some(global) = context_file_in(agent_dir, &mut warnings) {
        seen.insert(global.path.clone());
        files.push(global);
    }
    let mut ancestors = Vec::new();
    for dir in cwd.ancestors() {
        if let Some(file) = context_file_in(dir, &mut warnings)
            && seen.insert(file.path.clone())
        {
            ancestors.push(file);
        }
    }
    ancestors.reverse();
    files.extend(ancestors);
    (files, warnings)
}

/// `<project>/.pi/SYSTEM.md`, else `<agent>/SYSTEM.md`, if either exists. `project` is
/// `None` when the project folder is not trusted.
pub fn discover_system_prompt_file(agent_dir: &Path, project: Option<&Path>) -> Option<PathBuf> {
    discover_prompt_file(agent_dir, project, "SYSTEM.md")
}

/// `<project>/.pi/APPEND_SYSTEM.md`, else `<agent>/APPEND_SYSTEM.md`, if either exists.
pub fn discover_append_system_prompt_file(
    agent_dir: &Path,
    project: Option<&Path>,
) -> Option<PathBuf> {
    discover_prompt_file(agent_dir, project, "APPEND_SYSTEM.md")
}

fn discover_prompt_file(agent_dir: &Path, project: Option<&Path>, name: &str) -> Option<PathBuf> {
    project
        .map(|p| p.join(CONFIG_DIR_NAME).join(name))
        .into_iter()
        .chain([agent_dir.join(name)])
        .find(|p| p.exists())
}

/// A prompt value: the file's contents when `value` names an existing file,
/// else the text itself. A file that exists but cannot be read yields the
/// text and a warning (`what` names the value, e.g. "system prompt").
pub fn resolve_prompt_input(value: &str, what: &str) -> (String, Option<String>) {
    let path = Path::new(value);
    if !value.is_empty() && path.exists() {
        return match std::fs::read_to_string(path) {
            Ok(content) => (content, None),
            Err(e) => (
                value.to_string(),
                Some(format!("Could not read {what} file {value}: {e}")),
            ),
        };
    }
    (value.to_string(), None)
}

/// The custom and appended system prompt texts for a run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PromptSources {
    /// Replacement for the default prompt (`--system-prompt` or `SYSTEM.md`).
    pub custom_prompt: Option<String>,
    /// Text appended to the prompt (`--append-system-prompt` values joined by
    /// a blank line, or `APPEND_SYSTEM.md`).
    pub append_prompt: Option<String>,
    /// Problems reading prompt files.
    pub warnings: Vec<String>,
}

/// Resolve the custom/append prompts: CLI values win over discovered files.
pub fn load_prompt_sources(
    cli_system_prompt: Option<&str>,
    cli_append_prompts: &[String],
    agent_dir: &Path,
    project: Option<&Path>,
) -> PromptSources {
    let mut sources = PromptSources::default();
    let system_source = cli_system_prompt.map(str::to_string).or_else(|| {
        discover_system_prompt_file(agent_dir, project).map(|p| p.to_string_lossy().into_owned())
    });
    if let Some(source) = system_source.filter(|s| !s.is_empty()) {
        let (text, warning) = resolve_prompt_input(&source, "system prompt");
        sources.warnings.extend(warning);
        sources.custom_prompt = Some(text);
    }
    let append_sources: Vec<String> = if cli_append_prompts.is_empty() {
        discover_append_system_prompt_file(agent_dir, project)
            .map(|p| vec![p.to_string_lossy().into_owned()])
            .unwrap_or_default()
    } else {
        cli_append_prompts.to_vec()
    };
    let appended: Vec<String> = append_sources
        .iter()
        .map(|source| {
            let (text, warning) = resolve_prompt_input(source, "append system prompt");
            sources.warnings.extend(warning);
            text
        })
        .collect();
    if !appended.is_empty() {
        sources.append_prompt = Some(appended.join("\n\n"));
    }
    sources
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agents_md_wins_over_claude_md() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("CLAUDE.md"), "claude").unwrap();
        std::fs::write(dir.path().join("AGENTS.md"), "agents").unwrap();
        let mut warnings = Vec::new();
        let found = context_file_in(dir.path(), &mut warnings).unwrap();
        assert_eq!(found.content, "agents");
    }

    #[test]
    fn prompt_input_is_file_or_text() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("p.md");
        std::fs::write(&file, "from file").unwrap();
        assert_eq!(
            resolve_prompt_input(file.to_str().unwrap(), "x").0,
            "from file"
        );
        assert_eq!(
            resolve_prompt_input("just text", "x"),
            ("just text".to_string(), None)
        );
    }
}
