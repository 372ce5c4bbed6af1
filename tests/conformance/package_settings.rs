//! The resource arrays of the settings files (`extensions`, `skills`, `prompts`): entries
//! resolved against the folder of the settings file that names them (`~/.pi/agent` for
//! the global file, `<project>/.pi` for the project's), a folder with a `pi` manifest,
//! `!` excludes, `+` force-includes and `-` force-excludes over the listed and the
//! auto-discovered files, `.agents/skills` up to the repository root, and `.gitignore`
//! inside skill folders. Extensions are Lua files here; a file a pattern leaves out is not
//! loaded, where pi 0.73.1 lists it as disabled.
//! orig-file: packages/coding-agent/test/package-manager.test.ts

use std::path::{Path, PathBuf};

use pi::app::prompt_setup::load_resources;
use pi::cli::args::Args;
use pi::config::settings::Settings;
use pi::lua::discovery::{DiscoveryInput, discover_extensions};
use pi::packages::ops::PackageResources;
use pi::resources::overrides;
use pi::resources::skills::{SkillSources, load_skills};
use serde_json::{Value, json};

/// A temporary home for one case: the agent folder and the project (working) folder.
struct Dirs {
    tmp: tempfile::TempDir,
    agent: PathBuf,
    cwd: PathBuf,
}

impl Dirs {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let (agent, cwd) = (tmp.path().join("agent"), tmp.path().join("project"));
        std::fs::create_dir_all(&agent).unwrap();
        std::fs::create_dir_all(&cwd).unwrap();
        Dirs { tmp, agent, cwd }
    }

    /// Write the global settings file.
    fn global(&self, settings: Value) {
        write(self.agent.join("settings.json"), &settings.to_string());
    }

    /// Write the project settings file.
    fn project(&self, settings: Value) {
        write(self.cwd.join(".pi/settings.json"), &settings.to_string());
    }

    fn settings(&self) -> Settings {
        let (settings, warnings) = Settings::load(&self.agent, &self.cwd);
        assert!(warnings.is_empty(), "{warnings:?}");
        settings
    }

    /// The extension files start-up loads (the project trusted).
    fn extensions(&self) -> Vec<PathBuf> {
        let settings = self.settings();
        discover_extensions(&DiscoveryInput {
            agent_dir: self.agent.clone(),
            cwd: self.cwd.clone(),
            settings_paths: settings.extension_paths(),
            cli_paths: Vec::new(),
            no_extensions: false,
            include_project: true,
            overrides: overrides::scopes(&settings, "extensions"),
        })
    }

    /// The skill files and prompt template files start-up loads (the project trusted).
    fn resources(&self) -> (Vec<PathBuf>, Vec<PathBuf>) {
        let args = Args::parse_from_argv(&["pi".to_string()]).unwrap();
        let (skills, templates) = load_resources(
            &args,
            &self.settings(),
            &self.agent,
            Some(&self.cwd),
            &PackageResources::default(),
        );
        (
            skills.into_iter().map(|s| s.file_path).collect(),
            templates.into_iter().map(|t| t.file_path).collect(),
        )
    }
}

fn write(path: impl AsRef<Path>, text: &str) {
    let path = path.as_ref();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn ext(path: impl AsRef<Path>) {
    write(path, "return function(pi) end\n");
}

fn skill(folder: impl AsRef<Path>, name: &str) -> PathBuf {
    let file = folder.as_ref().join("SKILL.md");
    write(
        &file,
        &format!("---\nname: {name}\ndescription: The {name} skill\n---\nContent"),
    );
    file
}

fn has(files: &[PathBuf], suffix: &str) -> bool {
    files
        .iter()
        .any(|f| f.to_string_lossy().replace('\\', "/").ends_with(suffix))
}

/// orig: DefaultPackageManager › resolve › should resolve local extension paths from settings
#[test]
fn a_global_extension_entry_is_relative_to_the_agent_folder() {
    let d = Dirs::new();
    let path = d.agent.join("extensions/my-extension.lua");
    ext(&path);
    // A folder pi does not search on its own, so only the entry can name it.
    let other = d.agent.join("lua/other.lua");
    ext(&other);
    // The same relative path under the working folder is not what the entry names.
    ext(d.cwd.join("lua/other.lua"));
    d.global(json!({ "extensions": ["extensions/my-extension.lua", "lua/other.lua"] }));
    let found = d.extensions();
    assert!(found.contains(&path), "{found:?}");
    assert!(found.contains(&other), "{found:?}");
    assert!(!found.contains(&d.cwd.join("lua/other.lua")), "{found:?}");
}

/// orig: DefaultPackageManager › resolve › should resolve skill paths from settings
#[test]
fn a_global_skill_entry_is_relative_to_the_agent_folder() {
    let d = Dirs::new();
    let file = skill(d.agent.join("skills/my-skill"), "test-skill");
    let other = skill(d.agent.join("more-skills/other"), "other-skill");
    d.global(json!({ "skills": ["skills", "more-skills"] }));
    let (skills, _) = d.resources();
    assert!(skills.contains(&file), "{skills:?}");
    assert!(skills.contains(&other), "{skills:?}");
}

/// orig: DefaultPackageManager › resolve › should resolve project paths relative to .pi
#[test]
fn a_project_entry_is_relative_to_the_project_pi_folder() {
    let d = Dirs::new();
    let path = d.cwd.join(".pi/extensions/project-ext.lua");
    ext(&path);
    let other = d.cwd.join(".pi/lua/other.lua");
    ext(&other);
    ext(d.cwd.join("lua/other.lua"));
    d.project(json!({ "extensions": ["extensions/project-ext.lua", "lua/other.lua"] }));
    let found = d.extensions();
    assert!(found.contains(&path), "{found:?}");
    assert!(found.contains(&other), "{found:?}");
    assert!(!found.contains(&d.cwd.join("lua/other.lua")), "{found:?}");
}

/// orig: DefaultPackageManager › resolve › should auto-discover user prompts with overrides
#[test]
fn a_global_exclude_leaves_out_a_discovered_prompt() {
    let d = Dirs::new();
    write(d.agent.join("prompts/auto.md"), "Auto prompt");
    write(d.agent.join("prompts/kept.md"), "Kept prompt");
    d.global(json!({ "prompts": ["!prompts/auto.md"] }));
    let (_, prompts) = d.resources();
    assert!(!has(&prompts, "prompts/auto.md"), "{prompts:?}");
    assert!(has(&prompts, "prompts/kept.md"), "{prompts:?}");
}

/// orig: DefaultPackageManager › resolve › should auto-discover project prompts with overrides
#[test]
fn a_project_exclude_leaves_out_a_discovered_prompt() {
    let d = Dirs::new();
    write(d.cwd.join(".pi/prompts/is.md"), "Is prompt");
    write(d.cwd.join(".pi/prompts/kept.md"), "Kept prompt");
    d.project(json!({ "prompts": ["!prompts/is.md"] }));
    let (_, prompts) = d.resources();
    assert!(!has(&prompts, ".pi/prompts/is.md"), "{prompts:?}");
    assert!(has(&prompts, ".pi/prompts/kept.md"), "{prompts:?}");
}

/// orig: DefaultPackageManager › resolve › should resolve directory with package.json pi.extensions in extensions setting
#[test]
fn an_extensions_entry_naming_a_folder_with_a_manifest() {
    let d = Dirs::new();
    let pkg = d.tmp.path().join("my-extensions-pkg");
    write(
        pkg.join("package.json"),
        &json!({
            "name": "my-extensions-pkg",
            "pi": { "extensions": ["./extensions/clip.lua", "./extensions/cost.lua"] }
        })
        .to_string(),
    );
    ext(pkg.join("extensions/clip.lua"));
    ext(pkg.join("extensions/cost.lua"));
    write(pkg.join("extensions/helper.lua"), "return {}\n");
    d.global(json!({ "extensions": [pkg.to_string_lossy()] }));
    let found = d.extensions();
    assert!(
        found.contains(&pkg.join("extensions/clip.lua")),
        "{found:?}"
    );
    assert!(
        found.contains(&pkg.join("extensions/cost.lua")),
        "{found:?}"
    );
    assert!(!has(&found, "helper.lua"), "{found:?}");
}

/// orig: DefaultPackageManager › .agents/skills auto-discovery › should scan .agents/skills from cwd up to git repo root
#[test]
fn agents_skills_are_found_up_to_the_repository_root() {
    let d = Dirs::new();
    let repo = d.tmp.path().join("repo");
    let nested = repo.join("packages/feature");
    std::fs::create_dir_all(&nested).unwrap();
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    let above = skill(d.tmp.path().join(".agents/skills/above-repo"), "above-repo");
    let root = skill(repo.join(".agents/skills/repo-root"), "repo-root");
    let middle = skill(repo.join("packages/.agents/skills/nested"), "nested");
    let (skills, _) = load_skills(&SkillSources {
        agent_dir: d.agent.clone(),
        home: d.tmp.path().join("home"),
        project: Some(nested),
        settings_paths: Vec::new(),
        cli_paths: Vec::new(),
        no_skills: false,
    });
    let files: Vec<PathBuf> = skills.iter().map(|s| s.file_path.clone()).collect();
    assert!(files.contains(&root), "{files:?}");
    assert!(files.contains(&middle), "{files:?}");
    assert!(!files.contains(&above), "{files:?}");
}

/// orig: DefaultPackageManager › .agents/skills auto-discovery › should scan .agents/skills up to filesystem root when not in a git repo
#[test]
fn agents_skills_are_found_in_every_folder_above_outside_a_repository() {
    let d = Dirs::new();
    let top = d.tmp.path().join("non-repo");
    let nested = top.join("a/b");
    std::fs::create_dir_all(&nested).unwrap();
    let root = skill(top.join(".agents/skills/root"), "root");
    let middle = skill(top.join("a/.agents/skills/middle"), "middle");
    let (skills, _) = load_skills(&SkillSources {
        agent_dir: d.agent.clone(),
        home: d.tmp.path().join("home"),
        project: Some(nested),
        settings_paths: Vec::new(),
        cli_paths: Vec::new(),
        no_skills: false,
    });
    let files: Vec<PathBuf> = skills.iter().map(|s| s.file_path.clone()).collect();
    assert!(files.contains(&root), "{files:?}");
    assert!(files.contains(&middle), "{files:?}");
}

/// orig: DefaultPackageManager › .agents/skills auto-discovery › should keep ~/.agents/skills user-scoped when cwd is under home in a non-git directory
#[test]
fn home_agents_skills_stay_the_users_when_working_under_home() {
    let d = Dirs::new();
    let home = d.tmp.path().to_path_buf();
    let cwd = home.join("scratch/nested");
    std::fs::create_dir_all(&cwd).unwrap();
    let file = skill(home.join(".agents/skills/home-skill"), "home-skill");
    let (skills, warnings) = load_skills(&SkillSources {
        agent_dir: home.join(".pi/agent"),
        home: home.clone(),
        project: Some(cwd),
        settings_paths: Vec::new(),
        cli_paths: Vec::new(),
        no_skills: false,
    });
    let matching: Vec<_> = skills.iter().filter(|s| s.file_path == file).collect();
    assert_eq!(matching.len(), 1, "{skills:?}");
    assert_eq!(matching[0].source_info.scope, "user");
    assert_eq!(matching[0].source_info.source, "auto");
    // Found twice (from home and from the folders above the project) is not a conflict.
    assert!(warnings.is_empty(), "{warnings:?}");
}

/// orig: DefaultPackageManager › ignore files › should respect .gitignore in skill directories
#[test]
fn a_gitignore_in_a_skills_folder_is_respected() {
    let d = Dirs::new();
    write(d.agent.join("skills/.gitignore"), "venv\n__pycache__\n");
    let good = skill(d.agent.join("skills/good-skill"), "good-skill");
    skill(d.agent.join("skills/venv/bad-skill"), "bad-skill");
    d.global(json!({ "skills": ["skills"] }));
    let (skills, _) = d.resources();
    assert!(skills.contains(&good), "{skills:?}");
    assert!(
        !skills.iter().any(|s| s.to_string_lossy().contains("venv")),
        "{skills:?}"
    );
}

/// orig: DefaultPackageManager › ignore files › should not apply parent .gitignore to .pi auto-discovery
#[test]
fn a_parent_gitignore_does_not_hide_the_pi_folder() {
    let d = Dirs::new();
    write(d.cwd.join(".gitignore"), ".pi\n");
    let file = skill(d.cwd.join(".pi/skills/auto-skill"), "auto-skill");
    let (skills, _) = d.resources();
    assert!(skills.contains(&file), "{skills:?}");
}

/// orig: DefaultPackageManager › pattern filtering in top-level arrays › should exclude extensions with ! pattern
#[test]
fn a_bang_entry_excludes_extensions() {
    let d = Dirs::new();
    ext(d.agent.join("extensions/keep.lua"));
    ext(d.agent.join("extensions/remove.lua"));
    d.global(json!({ "extensions": ["extensions", "!**/remove.lua"] }));
    let found = d.extensions();
    assert!(has(&found, "extensions/keep.lua"), "{found:?}");
    assert!(!has(&found, "remove.lua"), "{found:?}");
}

/// orig: DefaultPackageManager › pattern filtering in top-level arrays › should filter prompts with exclusion pattern
#[test]
fn a_bang_entry_by_file_name_excludes_prompts() {
    let d = Dirs::new();
    write(d.agent.join("prompts/review.md"), "Review code");
    write(d.agent.join("prompts/explain.md"), "Explain code");
    d.global(json!({ "prompts": ["prompts", "!explain.md"] }));
    let (_, prompts) = d.resources();
    assert!(has(&prompts, "prompts/review.md"), "{prompts:?}");
    assert!(!has(&prompts, "explain.md"), "{prompts:?}");
}

/// orig: DefaultPackageManager › pattern filtering in top-level arrays › should filter skills with exclusion pattern
#[test]
fn a_bang_entry_by_folder_excludes_skills() {
    let d = Dirs::new();
    let good = skill(d.agent.join("skills/good-skill"), "good-skill");
    skill(d.agent.join("skills/bad-skill"), "bad-skill");
    d.global(json!({ "skills": ["skills", "!**/bad-skill"] }));
    let (skills, _) = d.resources();
    assert!(skills.contains(&good), "{skills:?}");
    assert!(!has(&skills, "bad-skill/SKILL.md"), "{skills:?}");
}

/// orig: DefaultPackageManager › pattern filtering in top-level arrays › should work without patterns (backward compatible)
#[test]
fn plain_entries_without_patterns() {
    let d = Dirs::new();
    let path = d.agent.join("extensions/my-ext.lua");
    ext(&path);
    d.global(json!({ "extensions": ["extensions/my-ext.lua"] }));
    assert_eq!(d.extensions(), [path]);
}

/// orig: DefaultPackageManager › force-include patterns › should force-include extensions with + pattern after exclusion
#[test]
fn a_plus_entry_brings_back_an_excluded_extension() {
    let d = Dirs::new();
    for name in ["keep", "excluded", "force-back"] {
        ext(d.agent.join(format!("extensions/{name}.lua")));
    }
    d.global(json!({
        "extensions": ["extensions", "!extensions/*.lua", "+extensions/force-back.lua"]
    }));
    let found = d.extensions();
    assert_eq!(found, [d.agent.join("extensions/force-back.lua")]);
}

/// orig: DefaultPackageManager › force-include patterns › should force-include after specific exclusion
#[test]
fn a_plus_entry_undoes_an_exclusion_of_the_same_file() {
    let d = Dirs::new();
    ext(d.agent.join("extensions/a.lua"));
    ext(d.agent.join("extensions/b.lua"));
    d.global(json!({ "extensions": ["extensions", "!extensions/b.lua", "+extensions/b.lua"] }));
    let found = d.extensions();
    assert!(has(&found, "extensions/a.lua"), "{found:?}");
    assert!(has(&found, "extensions/b.lua"), "{found:?}");
    // Without the `+` entry, b stays out.
    d.global(json!({ "extensions": ["extensions", "!extensions/b.lua"] }));
    assert!(!has(&d.extensions(), "extensions/b.lua"));
}

/// orig: DefaultPackageManager › force-include patterns › should force-include prompts
#[test]
fn a_plus_entry_brings_back_a_prompt() {
    let d = Dirs::new();
    for name in ["review", "explain", "debug"] {
        write(d.agent.join(format!("prompts/{name}.md")), name);
    }
    d.global(json!({ "prompts": ["prompts", "!prompts/*.md", "+prompts/debug.md"] }));
    let (_, prompts) = d.resources();
    assert_eq!(prompts, [d.agent.join("prompts/debug.md")]);
}

/// orig: DefaultPackageManager › force-exclude patterns › should force-exclude top-level resources
#[test]
fn a_minus_entry_wins_over_a_plus_entry() {
    let d = Dirs::new();
    ext(d.agent.join("extensions/alpha.lua"));
    ext(d.agent.join("extensions/beta.lua"));
    d.global(json!({
        "extensions": ["extensions", "+extensions/alpha.lua", "-extensions/alpha.lua"]
    }));
    let found = d.extensions();
    assert_eq!(found, [d.agent.join("extensions/beta.lua")]);
}
