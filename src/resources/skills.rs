//! Skills (the Agent Skills standard): `SKILL.md` files with `name` and `description`
//! frontmatter, discovered in pi's locations, validated leniently (problems are warnings),
//! advertised in the system prompt and expanded by `/skill:name args`.

use std::path::{Path, PathBuf};

use super::frontmatter;
use super::{Listed, SourceInfo};

const MAX_NAME: usize = 64;
const MAX_DESCRIPTION: usize = 1024;

/// One loaded skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skill {
    /// The skill's name (`/skill:<name>`).
    pub name: String,
    /// What it is for.
    pub description: String,
    /// The skill file.
    pub file_path: PathBuf,
    /// The folder its relative references resolve against.
    pub base_dir: PathBuf,
    /// `disable-model-invocation: true`: left out of the system prompt.
    pub disable_model_invocation: bool,
    /// Where it was found.
    pub source_info: SourceInfo,
}

/// Where to look.
#[derive(Debug, Clone, Default)]
pub struct SkillSources {
    /// The agent dir (`~/.pi/agent`).
    pub agent_dir: PathBuf,
    /// The user's home (for `~/.agents/skills`).
    pub home: PathBuf,
    /// The project folder, when it is trusted.
    pub project: Option<PathBuf>,
    /// Settings `skills` entries (files or folders).
    pub settings_paths: Vec<Listed>,
    /// `--skill` paths (loaded even with `--no-skills`).
    pub cli_paths: Vec<String>,
    /// `--no-skills`.
    pub no_skills: bool,
}

/// Load every skill; problems come back as warnings naming the file.
pub fn load_skills(sources: &SkillSources) -> (Vec<Skill>, Vec<String>) {
    let mut missing = Vec::new();
    let mut files: Vec<(PathBuf, SourceInfo)> = Vec::new();
    let tag = super::tag_files;
    if !sources.no_skills {
        if let Some(project) = &sources.project {
            let pi_dir = project.join(".pi");
            let info = SourceInfo::top_level(Path::new(""), "auto", "project", Some(&pi_dir));
            files.extend(tag(skill_files(&pi_dir.join("skills"), true), &info));
            // The home folder's `.agents/skills` stays the user's, even when the
            // project lies below home.
            let home_skills = sources.home.join(".agents/skills");
            for dir in ancestors_to_repo_root(project) {
                let skills_dir = dir.join(".agents/skills");
                if skills_dir != home_skills {
                    files.extend(tag(skill_files(&skills_dir, false), &info));
                }
            }
        }
        let agent = &sources.agent_dir;
        let info = SourceInfo::top_level(Path::new(""), "auto", "user", Some(agent));
        files.extend(tag(skill_files(&agent.join("skills"), true), &info));
        files.extend(tag(
            skill_files(&sources.home.join(".agents/skills"), false),
            &info,
        ));
        let base = sources
            .project
            .clone()
            .unwrap_or_else(|| sources.agent_dir.clone());
        for listed in &sources.settings_paths {
            let found = super::entry_files(&base, &listed.entry, |dir| skill_files(dir, true));
            files.extend(tag(found, &listed.info));
        }
    }
    let cwd = std::env::current_dir().unwrap_or_default();
    for raw in &sources.cli_paths {
        warn_if_missing(&cwd, raw, &mut missing);
        let found = super::entry_files(&cwd, raw, |dir| skill_files(dir, true));
        files.extend(tag(found, &SourceInfo::cli(Path::new(""))));
    }
    files.sort_by_key(|(_, info)| info.rank());
    let mut skills: Vec<Skill> = Vec::new();
    let mut warnings = missing;
    let mut seen_files = std::collections::HashSet::new();
    for (file, source_info) in files {
        let canonical = std::fs::canonicalize(&file).unwrap_or_else(|_| file.clone());
        if !seen_files.insert(canonical) {
            continue;
        }
        let Some(mut skill) = load_skill(&file, &mut warnings) else {
            continue;
        };
        skill.source_info = source_info;
        if let Some(first) = skills.iter().find(|s| s.name == skill.name) {
            warnings.push(format!(
                "Skill \"{}\" in {} is ignored: {} already defines it",
                skill.name,
                file.display(),
                first.file_path.display()
            ));
            continue;
        }
        skills.push(skill);
    }
    (skills, warnings)
}

/// A warning when the skill path `raw` (relative to `base`) names nothing on disk.
fn warn_if_missing(base: &Path, raw: &str, warnings: &mut Vec<String>) {
    let path = super::entry_path(base, raw);
    if !path.exists() {
        warnings.push(format!(
            "Skill path {}: skill path does not exist; check the --skill argument",
            path.display()
        ));
    }
}

/// `SKILL.md` files below `dir` (recursively; a folder with `SKILL.md` is not searched
/// further), plus the root `.md` files when `root_md` is set. What a `.gitignore`,
/// `.ignore` or `.fdignore` in `dir` or a folder below it names is left out.
pub fn skill_files(dir: &Path, root_md: bool) -> Vec<PathBuf> {
    skill_files_within(dir, root_md, &mut Vec::new())
}

/// The ignore files pi reads in a skills folder.
const IGNORE_FILES: [&str; 3] = [".gitignore", ".ignore", ".fdignore"];

/// [`skill_files`] with the ignore rules of the folders above `dir` (down from the
/// searched root) in `rules`.
fn skill_files_within(
    dir: &Path,
    root_md: bool,
    rules: &mut Vec<ignore::gitignore::Gitignore>,
) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let own = dir.join("SKILL.md");
    if own.is_file() {
        out.push(own);
        return out;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    let before = rules.len();
    for name in IGNORE_FILES {
        let file = dir.join(name);
        if file.is_file() {
            rules.push(ignore::gitignore::Gitignore::new(&file).0);
        }
    }
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        let is_dir = path.is_dir();
        if rules.iter().any(|r| r.matched(&path, is_dir).is_ignore()) {
            continue;
        }
        if is_dir {
            let skill = path.join("SKILL.md");
            if skill.is_file() {
                out.push(skill);
            } else {
                out.extend(skill_files_within(&path, false, rules));
            }
        } else if root_md && path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
    rules.truncate(before);
    out
}

/// `dir` and its parents up to the git repository root (or the filesystem root).
fn ancestors_to_repo_root(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for d in dir.ancestors() {
        out.push(d.to_path_buf());
        if d.join(".git").exists() {
            return out;
        }
    }
    out
}

fn load_skill(file: &Path, warnings: &mut Vec<String>) -> Option<Skill> {
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) => {
            warnings.push(format!("Skill {} cannot be read: {e}", file.display()));
            return None;
        }
    };
    let doc = match frontmatter::parse(&text) {
        Ok(doc) => doc,
        Err(e) => {
            warnings.push(crate::t!(
                "pi.skills.invalid_frontmatter",
                path = file.display().to_string(),
                error = e.to_string()
            ));
            return None;
        }
    };
    let base_dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let is_skill_md = file.file_name().is_some_and(|n| n == "SKILL.md");
    let fallback_name = if is_skill_md {
        base_dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
    } else {
        file.file_stem().map(|n| n.to_string_lossy().into_owned())
    }
    .unwrap_or_default();
    let name = doc
        .fields
        .get("name")
        .cloned()
        .unwrap_or(fallback_name.clone());
    let description = doc.fields.get("description").cloned().unwrap_or_default();
    let at = file.display();
    if description.trim().is_empty() {
        warnings.push(format!(
            "Skill {at}: description is required; the skill is not loaded until its frontmatter has `description:`"
        ));
        return None;
    }
    for problem in name_problems(&name) {
        warnings.push(format!("Skill {at}: {problem} (name \"{name}\")"));
    }
    if is_skill_md && name != fallback_name {
        warnings.push(format!(
            "Skill {at}: name \"{name}\" does not match parent directory \"{fallback_name}\""
        ));
    }
    if description.chars().count() > MAX_DESCRIPTION {
        warnings.push(format!(
            "Skill {at}: description is longer than {MAX_DESCRIPTION} characters"
        ));
    }
    Some(Skill {
        name,
        description,
        file_path: file.to_path_buf(),
        base_dir,
        disable_model_invocation: doc.is_true("disable-model-invocation"),
        source_info: SourceInfo::cli(file),
    })
}

/// What is wrong with a skill name under the standard's rules (empty when nothing).
pub fn name_problems(name: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let length = name.chars().count();
    if name.is_empty() {
        problems.push("name is empty".to_string());
    }
    if length > MAX_NAME {
        problems.push(format!("name exceeds {MAX_NAME} characters ({length})"));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        problems.push(
            "name contains invalid characters (must be lowercase a-z, 0-9, hyphens only)"
                .to_string(),
        );
    }
    if name.starts_with('-') || name.ends_with('-') {
        problems.push("name must not start or end with a hyphen".to_string());
    }
    if name.contains("--") {
        problems.push("name must not contain consecutive hyphens".to_string());
    }
    problems
}

/// `/skill:name args` as the message the model gets: the skill's body in a `<skill>` block,
/// then the arguments. `None` when `text` is not a skill command or names no skill.
pub fn expand_skill_command(text: &str, skills: &[Skill]) -> Option<String> {
    let rest = text.strip_prefix("/skill:")?;
    let (name, args) = match rest.split_once(char::is_whitespace) {
        Some((name, args)) => (name, args.trim()),
        None => (rest, ""),
    };
    let skill = skills.iter().find(|s| s.name == name)?;
    let content = std::fs::read_to_string(&skill.file_path).ok()?;
    let body = frontmatter::body(&content);
    let block = format!(
        "<skill name=\"{}\" location=\"{}\">\nReferences are relative to {}.\n\n{body}\n</skill>",
        skill.name,
        skill.file_path.display(),
        skill.base_dir.display()
    );
    Some(if args.is_empty() {
        block
    } else {
        format!("{block}\n\n{args}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn skill(name: &str, description: &str) -> String {
        format!("---\nname: {name}\ndescription: {description}\n---\n# {name}\nDo the thing.\n")
    }

    #[test]
    fn names_follow_the_standard() {
        assert!(name_problems("pdf-processing").is_empty());
        assert!(!name_problems("PDF-Processing").is_empty());
        assert!(!name_problems("-pdf").is_empty());
        assert!(!name_problems("pdf--processing").is_empty());
        assert!(!name_problems(&"a".repeat(65)).is_empty());
    }

    #[test]
    fn discovery_validation_and_collisions() {
        let dir = tempfile::tempdir().unwrap();
        let agent = dir.path().join("agent");
        let project = dir.path().join("proj");
        std::fs::create_dir_all(project.join(".git")).unwrap();
        write(
            &agent.join("skills/valid/SKILL.md"),
            &skill("valid", "A valid skill"),
        );
        write(
            &agent.join("skills/nodesc/SKILL.md"),
            "---\nname: nodesc\n---\nbody",
        );
        write(
            &agent.join("skills/folder/SKILL.md"),
            &skill("other-name", "Mismatched"),
        );
        write(
            &agent.join("skills/bad/SKILL.md"),
            &skill("Bad_Name", "Invalid characters"),
        );
        write(
            &agent.join("skills/single.md"),
            &skill("single", "A root markdown skill"),
        );
        write(
            &project.join(".pi/skills/valid/SKILL.md"),
            &skill("valid", "A duplicate"),
        );
        write(
            &project.join(".agents/skills/shared/SKILL.md"),
            &skill("shared", "Shared"),
        );
        write(
            &project.join(".agents/skills/ignored.md"),
            &skill("ignored", "Root md here is ignored"),
        );
        let sources = SkillSources {
            agent_dir: agent.clone(),
            home: dir.path().join("home"),
            project: Some(project.clone()),
            ..Default::default()
        };
        let (skills, warnings) = load_skills(&sources);
        let names: Vec<&str> = skills.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            ["valid", "shared", "Bad_Name", "other-name", "single"]
        );
        let all = warnings.join("\n");
        assert!(
            all.contains("nodesc") && all.contains("description is required"),
            "{all}"
        );
        assert!(
            all.contains("does not match parent directory \"folder\""),
            "{all}"
        );
        assert!(
            all.contains(
                "invalid characters (must be lowercase a-z, 0-9, hyphens only) (name \"Bad_Name\")"
            ),
            "{all}"
        );
        assert!(
            all.contains("\"valid\"") && all.contains("already defines it"),
            "{all}"
        );
        let valid = skills.iter().find(|s| s.name == "valid").unwrap();
        assert!(
            valid.file_path.starts_with(&project),
            "the project's skill wins, as in pi"
        );

        let untrusted = load_skills(&SkillSources {
            project: None,
            ..sources.clone()
        })
        .0;
        assert!(!untrusted.iter().any(|s| s.name == "shared"));
        let none = load_skills(&SkillSources {
            no_skills: true,
            cli_paths: vec![agent.join("skills/valid").display().to_string()],
            ..sources
        })
        .0;
        assert_eq!(none.len(), 1, "--skill loads even with --no-skills");
    }

    #[test]
    fn skill_commands_expand_to_a_skill_block_and_arguments() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("pdf/SKILL.md");
        write(&file, &skill("pdf", "PDFs"));
        let (skills, _) = load_skills(&SkillSources {
            cli_paths: vec![file.display().to_string()],
            no_skills: true,
            ..Default::default()
        });
        let out = expand_skill_command("/skill:pdf extract page 2", &skills).unwrap();
        assert!(out.starts_with(&format!(
            "<skill name=\"pdf\" location=\"{}\">",
            file.display()
        )));
        assert!(
            out.contains("Do the thing.\n</skill>\n\nextract page 2"),
            "{out}"
        );
        assert!(expand_skill_command("/skill:nope", &skills).is_none());
        assert!(expand_skill_command("hello", &skills).is_none());
    }
}
