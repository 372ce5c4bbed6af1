//! Prompt templates: `.md` files whose name is a slash command (`review.md` -> `/review`)
//! and whose text, with `$1`, `$@`, `$ARGUMENTS`, `${@:N}` and `${@:N:L}` filled from the
//! command's arguments, is sent as the prompt.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use regex::Regex;

use super::frontmatter;
use super::{Listed, SourceInfo};

/// One loaded template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptTemplate {
    /// The command name (file name without `.md`).
    pub name: String,
    /// Shown in `/` completion: frontmatter `description`, else the first non-empty line.
    pub description: String,
    /// The text after the frontmatter.
    pub content: String,
    /// The file.
    pub file_path: PathBuf,
    /// Where it was found.
    pub source_info: SourceInfo,
}

/// Where to look.
#[derive(Debug, Clone, Default)]
pub struct TemplateSources {
    /// The agent dir (`~/.pi/agent`).
    pub agent_dir: PathBuf,
    /// The project folder, when it is trusted.
    pub project: Option<PathBuf>,
    /// Settings `prompts` entries (files or folders).
    pub settings_paths: Vec<Listed>,
    /// `--prompt-template` paths (loaded even with `--no-prompt-templates`).
    pub cli_paths: Vec<String>,
    /// `--no-prompt-templates`.
    pub no_templates: bool,
}

/// Load every template; the first one found for a name wins (later ones are warned about),
/// searched in pi's order: project settings, the project's `.pi/prompts`, user settings,
/// `~/.pi/agent/prompts`, packages, then the command line. A template whose frontmatter is
/// not valid YAML is skipped.
pub fn load_templates(sources: &TemplateSources) -> (Vec<PromptTemplate>, Vec<String>) {
    let mut files: Vec<(PathBuf, SourceInfo)> = Vec::new();
    let tag = super::tag_files;
    if !sources.no_templates {
        if let Some(project) = &sources.project {
            let pi_dir = project.join(".pi");
            let info = SourceInfo::top_level(Path::new(""), "auto", "project", Some(&pi_dir));
            files.extend(tag(md_files(&pi_dir.join("prompts")), &info));
        }
        let agent = &sources.agent_dir;
        let info = SourceInfo::top_level(Path::new(""), "auto", "user", Some(agent));
        files.extend(tag(md_files(&agent.join("prompts")), &info));
        let base = sources
            .project
            .clone()
            .unwrap_or_else(|| sources.agent_dir.clone());
        for listed in &sources.settings_paths {
            files.extend(tag(
                super::entry_files(&base, &listed.entry, md_files),
                &listed.info,
            ));
        }
    }
    let cwd = std::env::current_dir().unwrap_or_default();
    for raw in &sources.cli_paths {
        files.extend(tag(
            super::entry_files(&cwd, raw, md_files),
            &SourceInfo::cli(Path::new("")),
        ));
    }
    files.sort_by_key(|(_, info)| info.rank());
    let mut templates: Vec<PromptTemplate> = Vec::new();
    let mut warnings = Vec::new();
    for (file, source_info) in files {
        let text = match std::fs::read_to_string(&file) {
            Ok(text) => text,
            Err(e) => {
                warnings.push(format!(
                    "Prompt template {} cannot be read: {e}",
                    file.display()
                ));
                continue;
            }
        };
        let name = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if let Some(first) = templates.iter().find(|t| t.name == name) {
            if first.file_path != file {
                warnings.push(format!(
                    "Prompt template /{name} in {} is ignored: {} already defines it",
                    file.display(),
                    first.file_path.display()
                ));
            }
            continue;
        }
        let Ok(doc) = frontmatter::parse(&text) else {
            continue;
        };
        let description = match doc.fields.get("description").filter(|d| !d.is_empty()) {
            Some(d) => d.clone(),
            None => first_line_summary(&doc.body),
        };
        templates.push(PromptTemplate {
            name,
            description,
            content: doc.body,
            file_path: file,
            source_info,
        });
    }
    (templates, warnings)
}

/// The first non-empty line, cut to 60 characters (with "..." when cut).
fn first_line_summary(body: &str) -> String {
    let Some(line) = body.lines().find(|l| !l.trim().is_empty()) else {
        return String::new();
    };
    let mut summary: String = line.chars().take(60).collect();
    if line.chars().count() > 60 {
        summary.push_str("...");
    }
    summary
}

/// The `.md` files directly in `dir` (not recursive), sorted.
pub fn md_files(dir: &Path) -> Vec<PathBuf> {
    crate::i18n::packs::files_with_extension(dir, "md")
}

/// Split command arguments on spaces and tabs, with `"..."` and `'...'` grouping words.
pub fn parse_args(text: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => current.push(c),
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == ' ' || c == '\t' => {
                if !current.is_empty() {
                    args.push(std::mem::take(&mut current));
                }
            }
            None => current.push(c),
        }
    }
    if !current.is_empty() {
        args.push(current);
    }
    args
}

/// Fill a template's placeholders: positional `$N` first, then `${@:N}` / `${@:N:L}`, then
/// `$ARGUMENTS` and `$@` (all arguments joined by spaces). Missing arguments are empty.
#[expect(
    clippy::expect_used,
    reason = "a constant pattern, compiled by the unit tests"
)]
pub fn substitute_args(content: &str, args: &[String]) -> String {
    static POSITIONAL: OnceLock<Regex> = OnceLock::new();
    static SLICE: OnceLock<Regex> = OnceLock::new();
    let positional = POSITIONAL.get_or_init(|| Regex::new(r"\$(\d+)").expect("valid regex"));
    let slice = SLICE.get_or_init(|| Regex::new(r"\$\{@:(\d+)(?::(\d+))?\}").expect("valid regex"));
    let out = positional.replace_all(content, |c: &regex::Captures| {
        let n: usize = c[1].parse().unwrap_or(0);
        n.checked_sub(1)
            .and_then(|i| args.get(i))
            .cloned()
            .unwrap_or_default()
    });
    let out = slice.replace_all(&out, |c: &regex::Captures| {
        let start = c[1].parse::<usize>().unwrap_or(1).saturating_sub(1);
        let rest = args.get(start..).unwrap_or(&[]);
        match c.get(2).and_then(|l| l.as_str().parse::<usize>().ok()) {
            Some(len) => rest.iter().take(len).cloned().collect::<Vec<_>>().join(" "),
            None => rest.join(" "),
        }
    });
    let all = args.join(" ");
    out.replace("$ARGUMENTS", &all).replace("$@", &all)
}

/// `/name args` as the prompt it stands for; `None` when no template has that name.
pub fn expand_template_command(text: &str, templates: &[PromptTemplate]) -> Option<String> {
    let rest = text.strip_prefix('/')?;
    let (name, args) = match rest.split_once(char::is_whitespace) {
        Some((name, args)) => (name, args),
        None => (rest, ""),
    };
    let template = templates.iter().find(|t| t.name == name)?;
    Some(substitute_args(&template.content, &parse_args(args)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn arguments_are_split_with_quotes() {
        assert_eq!(
            parse_args(r#"Button "onClick handler" 'disabled support'  x"#),
            args(&["Button", "onClick handler", "disabled support", "x"])
        );
        assert!(parse_args("   ").is_empty());
    }

    #[test]
    fn placeholders_are_filled_as_pi_does() {
        let a = args(&["a", "b", "c", "d"]);
        assert_eq!(substitute_args("$1-$2-$9", &a), "a-b-");
        assert_eq!(
            substitute_args("all: $@ / $ARGUMENTS", &a),
            "all: a b c d / a b c d"
        );
        assert_eq!(substitute_args("${@:2}", &a), "b c d");
        assert_eq!(substitute_args("${@:2:2}", &a), "b c");
        assert_eq!(substitute_args("${@:0}", &a), "a b c d");
        assert_eq!(substitute_args("no args: [$1] [$@]", &[]), "no args: [] []");
    }

    #[test]
    fn templates_load_from_folders_and_expand() {
        let dir = tempfile::tempdir().unwrap();
        let agent = dir.path().join("agent");
        let project = dir.path().join("proj");
        std::fs::create_dir_all(agent.join("prompts/nested")).unwrap();
        std::fs::create_dir_all(project.join(".pi/prompts")).unwrap();
        std::fs::write(
            project.join(".pi/prompts/component.md"),
            "---\ndescription: Create a component\n---\nCreate $1 with: $@\n",
        )
        .unwrap();
        std::fs::write(agent.join("prompts/nested/deep.md"), "not discovered").unwrap();
        std::fs::write(project.join(".pi/prompts/review.md"), "\nReview the diff\n").unwrap();
        std::fs::write(agent.join("prompts/component.md"), "dup").unwrap();
        let sources = TemplateSources {
            agent_dir: agent,
            project: Some(project),
            ..Default::default()
        };
        let (templates, warnings) = load_templates(&sources);
        let names: Vec<&str> = templates.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["component", "review"]);
        assert_eq!(templates[0].description, "Create a component");
        assert_eq!(templates[1].description, "Review the diff");
        assert!(warnings[0].contains("/component") && warnings[0].contains("already defines"));
        assert_eq!(
            expand_template_command(r#"/component Button "click handler""#, &templates).unwrap(),
            "Create Button with: Button click handler"
        );
        assert!(expand_template_command("/nope", &templates).is_none());
        let untrusted = load_templates(&TemplateSources {
            project: None,
            ..sources
        })
        .0;
        assert_eq!(untrusted.len(), 1);
    }
}
