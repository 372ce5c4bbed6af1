//! Finding resources in the agent and project folders: skills, prompt templates, context
//! files, `SYSTEM.md` and `APPEND_SYSTEM.md`; project resources winning name collisions,
//! settings entries that leave auto-discovered files out, `--no-skills` with explicit
//! skill paths, and `--system-prompt` over `SYSTEM.md`. The loader here is
//! `pi::app::prompt_setup::load_resources` (what start-up and `/reload` use) and the
//! loaders it is made of.
//! orig-file: packages/coding-agent/test/resource-loader.test.ts

use std::path::{Path, PathBuf};

use pi::app::prompt_setup::load_resources;
use pi::cli::args::Args;
use pi::config::context_files::{load_context_files, load_prompt_sources};
use pi::config::settings::Settings;
use pi::packages::ops::PackageResources;
use pi::resources::prompt_templates::PromptTemplate;
use pi::resources::skills::{Skill, SkillSources, load_skills};

struct Folders {
    tmp: tempfile::TempDir,
    agent: PathBuf,
    project: PathBuf,
}

impl Folders {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let (agent, project) = (tmp.path().join("agent"), tmp.path().join("project"));
        std::fs::create_dir_all(&agent).unwrap();
        std::fs::create_dir_all(&project).unwrap();
        Folders {
            tmp,
            agent,
            project,
        }
    }

    /// Skills and templates as start-up finds them with these command-line arguments
    /// (the project trusted).
    fn load(&self, argv: &[&str]) -> (Vec<Skill>, Vec<PromptTemplate>) {
        let mut full = vec!["pi"];
        full.extend_from_slice(argv);
        let argv: Vec<String> = full.iter().map(|s| s.to_string()).collect();
        let args = Args::parse_from_argv(&argv).unwrap();
        let (settings, _) = Settings::load(&self.agent, &self.project);
        load_resources(
            &args,
            &settings,
            &self.agent,
            Some(&self.project),
            &PackageResources::default(),
        )
    }
}

fn write(path: impl AsRef<Path>, text: &str) {
    let path = path.as_ref();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn skill_md(name: &str, description: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n---\nSkill content here.")
}

fn names_of_skills(skills: &[Skill]) -> Vec<&str> {
    skills.iter().map(|s| s.name.as_str()).collect()
}

fn names_of_templates(templates: &[PromptTemplate]) -> Vec<&str> {
    templates.iter().map(|t| t.name.as_str()).collect()
}

/// orig: DefaultResourceLoader › reload › should initialize with empty results before reload
#[test]
fn empty_folders_give_nothing() {
    // There is no loader object here to hold results before a reload: empty folders
    // must give no skills, templates, context files or prompt files.
    let f = Folders::new();
    let (skills, templates) = f.load(&[]);
    assert!(
        skills
            .iter()
            .all(|s| !s.file_path.starts_with(f.tmp.path()))
    );
    assert!(
        templates
            .iter()
            .all(|t| !t.file_path.starts_with(f.tmp.path()))
    );
    let (context, _) = load_context_files(&f.agent, &f.project);
    assert!(context.iter().all(|c| !c.path.starts_with(f.tmp.path())));
    let sources = load_prompt_sources(None, &[], &f.agent, Some(&f.project));
    assert_eq!((sources.custom_prompt, sources.append_prompt), (None, None));
    // The same folders with one skill are not empty.
    write(f.agent.join("skills/one.md"), &skill_md("one", "One"));
    assert!(names_of_skills(&f.load(&[]).0).contains(&"one"));
}

/// orig: DefaultResourceLoader › reload › should discover skills from agentDir
#[test]
fn skills_in_the_agent_folder() {
    let f = Folders::new();
    write(
        f.agent.join("skills/test-skill.md"),
        &skill_md("test-skill", "A test skill"),
    );
    let (skills, _) = f.load(&[]);
    let skill = skills.iter().find(|s| s.name == "test-skill").unwrap();
    assert_eq!(skill.description, "A test skill");
    assert_eq!(skill.file_path, f.agent.join("skills/test-skill.md"));
}

/// orig: DefaultResourceLoader › reload › should ignore extra markdown files in auto-discovered skill dirs
#[test]
fn other_markdown_beside_skill_md_is_ignored() {
    let f = Folders::new();
    let dir = f.agent.join("skills/pi-skills/browser-tools");
    write(
        dir.join("SKILL.md"),
        &skill_md("browser-tools", "Browser tools"),
    );
    write(dir.join("EFFICIENCY.md"), "No frontmatter here");
    let (skills, warnings) = load_skills(&SkillSources {
        agent_dir: f.agent.clone(),
        home: f.tmp.path().join("home"),
        project: Some(f.project.clone()),
        settings_paths: vec![],
        cli_paths: vec![],
        no_skills: false,
    });
    assert_eq!(names_of_skills(&skills), ["browser-tools"]);
    assert!(
        !warnings.iter().any(|w| w.contains("EFFICIENCY.md")),
        "{warnings:?}"
    );
}

/// orig: DefaultResourceLoader › reload › should discover prompts from agentDir
#[test]
fn templates_in_the_agent_folder() {
    let f = Folders::new();
    write(
        f.agent.join("prompts/test-prompt.md"),
        "---\ndescription: A test prompt\n---\nPrompt content.",
    );
    let (_, templates) = f.load(&[]);
    let t = templates.iter().find(|t| t.name == "test-prompt").unwrap();
    assert_eq!(t.description, "A test prompt");
    assert_eq!(t.content.trim(), "Prompt content.");
}

/// orig: DefaultResourceLoader › reload › should prefer project resources over user on name collisions
#[test]
fn project_resources_win_name_collisions() {
    let f = Folders::new();
    write(f.agent.join("prompts/commit.md"), "User prompt");
    let project_prompt = f.project.join(".pi/prompts/commit.md");
    write(&project_prompt, "Project prompt");
    write(
        f.agent.join("skills/collision-skill/SKILL.md"),
        &skill_md("collision-skill", "user"),
    );
    let project_skill = f.project.join(".pi/skills/collision-skill/SKILL.md");
    write(&project_skill, &skill_md("collision-skill", "project"));
    let (skills, templates) = f.load(&[]);
    let commits: Vec<_> = templates.iter().filter(|t| t.name == "commit").collect();
    assert_eq!(commits.len(), 1);
    assert_eq!(commits[0].file_path, project_prompt);
    assert_eq!(commits[0].content.trim(), "Project prompt");
    let found: Vec<_> = skills
        .iter()
        .filter(|s| s.name == "collision-skill")
        .collect();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].file_path, project_skill);
    assert_eq!(found[0].description, "project");
}

/// orig: DefaultResourceLoader › reload › should honor overrides for auto-discovered resources
#[test]
fn settings_exclusions_leave_discovered_files_out() {
    let f = Folders::new();
    write(
        f.agent.join("settings.json"),
        r#"{"skills": ["-skills/skip-skill"], "prompts": ["-prompts/skip.md"]}"#,
    );
    write(
        f.agent.join("skills/skip-skill/SKILL.md"),
        &skill_md("skip-skill", "Skip me"),
    );
    write(
        f.agent.join("skills/keep-skill/SKILL.md"),
        &skill_md("keep-skill", "Keep me"),
    );
    write(f.agent.join("prompts/skip.md"), "Skip prompt");
    write(f.agent.join("prompts/keep.md"), "Keep prompt");
    let (skills, templates) = f.load(&[]);
    let (skills, templates) = (names_of_skills(&skills), names_of_templates(&templates));
    assert!(!skills.contains(&"skip-skill"), "{skills:?}");
    assert!(skills.contains(&"keep-skill"), "{skills:?}");
    assert!(!templates.contains(&"skip"), "{templates:?}");
    assert!(templates.contains(&"keep"), "{templates:?}");
}

/// orig: DefaultResourceLoader › reload › should discover AGENTS.md context files
#[test]
fn agents_md_is_a_context_file() {
    let f = Folders::new();
    write(
        f.project.join("AGENTS.md"),
        "# Project Guidelines\n\nBe helpful.",
    );
    let (files, _) = load_context_files(&f.agent, &f.project);
    let found = files
        .iter()
        .find(|c| c.path == f.project.join("AGENTS.md"))
        .expect("AGENTS.md found");
    assert!(found.content.contains("Be helpful."));
}

/// orig: DefaultResourceLoader › reload › should discover SYSTEM.md from cwd/.pi
#[test]
fn system_md_in_the_project_replaces_the_prompt() {
    let f = Folders::new();
    write(
        f.project.join(".pi/SYSTEM.md"),
        "You are a helpful assistant.",
    );
    let sources = load_prompt_sources(None, &[], &f.agent, Some(&f.project));
    assert_eq!(
        sources.custom_prompt.as_deref().map(str::trim),
        Some("You are a helpful assistant.")
    );
    // An untrusted project's file is not read.
    let untrusted = load_prompt_sources(None, &[], &f.agent, None);
    assert_eq!(untrusted.custom_prompt, None);
}

/// orig: DefaultResourceLoader › reload › should discover APPEND_SYSTEM.md
#[test]
fn append_system_md_is_appended() {
    let f = Folders::new();
    write(
        f.project.join(".pi/APPEND_SYSTEM.md"),
        "Additional instructions.",
    );
    let sources = load_prompt_sources(None, &[], &f.agent, Some(&f.project));
    assert!(
        sources
            .append_prompt
            .unwrap()
            .contains("Additional instructions.")
    );
    assert_eq!(sources.custom_prompt, None);
}

/// orig: DefaultResourceLoader › noSkills option › should skip skill discovery when noSkills is true
#[test]
fn no_skills_skips_discovery() {
    let f = Folders::new();
    write(
        f.agent.join("skills/test-skill.md"),
        &skill_md("test-skill", "A test skill"),
    );
    assert!(names_of_skills(&f.load(&[]).0).contains(&"test-skill"));
    let (skills, _) = f.load(&["--no-skills"]);
    assert!(skills.is_empty(), "{:?}", names_of_skills(&skills));
}

/// orig: DefaultResourceLoader › noSkills option › should still load additional skill paths when noSkills is true
#[test]
fn no_skills_keeps_explicit_skill_paths() {
    let f = Folders::new();
    write(
        f.agent.join("skills/test-skill.md"),
        &skill_md("test-skill", "A test skill"),
    );
    let custom = f.tmp.path().join("custom-skills");
    write(
        custom.join("custom.md"),
        &skill_md("custom", "Custom skill"),
    );
    let custom = custom.to_string_lossy().into_owned();
    let (skills, _) = f.load(&["--no-skills", "--skill", &custom]);
    assert_eq!(names_of_skills(&skills), ["custom"]);
}

/// orig: DefaultResourceLoader › override functions › should apply systemPromptOverride
#[test]
fn a_given_system_prompt_wins_over_system_md() {
    // The override here is `--system-prompt` (the SDK's `system_prompt`): it wins over
    // a discovered `SYSTEM.md`.
    let f = Folders::new();
    write(f.project.join(".pi/SYSTEM.md"), "From the file.");
    let sources = load_prompt_sources(
        Some("Custom system prompt"),
        &[],
        &f.agent,
        Some(&f.project),
    );
    assert_eq!(
        sources.custom_prompt.as_deref(),
        Some("Custom system prompt")
    );
}

// orig-skip: DefaultResourceLoader › override functions › should apply skillsOverride — a TypeScript callback of the loader's constructor; a program embedding pi here chooses skills with `SessionOptions::skills` and `--skill` paths (ported above).
