//! Start-up's prompt step: load skills and prompt templates, then assemble the system prompt
//! from the tools, context files, `SYSTEM.md`/`APPEND_SYSTEM.md` and skills.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::agent::tool::AgentTool;
use crate::app::startup::warn_all;
use crate::cli::args::Args;
use crate::config::context_files::{load_context_files, load_prompt_sources};
use crate::config::settings::Settings;
use crate::config::system_prompt::{
    PromptSkill, PromptTool, SystemPromptOptions, build_system_prompt, local_date,
};
use crate::packages::ops::PackageResources;
use crate::resources::prompt_templates::{PromptTemplate, TemplateSources, load_templates};
use crate::resources::skills::{Skill, SkillSources, load_skills};
use crate::resources::{listed_from_packages, listed_from_settings, overrides};

/// Skills and prompt templates from pi's locations and packages; `project` is `None` when
/// untrusted.
pub fn load_resources(
    args: &Args,
    settings: &Settings,
    agent_dir: &Path,
    project: Option<&Path>,
    packaged: &PackageResources,
) -> (Vec<Skill>, Vec<PromptTemplate>) {
    let (skills, templates, warnings) =
        find_resources(args, settings, agent_dir, project, packaged);
    warn_all(warnings);
    (skills, templates)
}

/// How `/reload` finds the skills and prompt templates again: from the same places and
/// packages as start-up, reading the files anew.
pub fn resource_loader(
    args: &Args,
    settings: &Settings,
    agent_dir: &Path,
    project: Option<&Path>,
    packaged: &PackageResources,
) -> crate::core::agent_session::ResourceLoader {
    let (args, settings, agent_dir) = (args.clone(), settings.clone(), agent_dir.to_path_buf());
    let (project, packaged) = (project.map(Path::to_path_buf), packaged.clone());
    Arc::new(move || find_resources(&args, &settings, &agent_dir, project.as_deref(), &packaged))
}

/// Skills, prompt templates and the warnings finding them gave.
fn find_resources(
    args: &Args,
    settings: &Settings,
    agent_dir: &Path,
    project: Option<&Path>,
    packaged: &PackageResources,
) -> (Vec<Skill>, Vec<PromptTemplate>, Vec<String>) {
    let listed = |files: &[std::path::PathBuf], key: &str| {
        let mut out = listed_from_settings(settings, key);
        out.extend(listed_from_packages(files, &packaged.origins));
        out
    };
    let (skills, mut warnings) = load_skills(&SkillSources {
        agent_dir: agent_dir.to_path_buf(),
        home: crate::config::paths::home_dir(),
        project: project.map(Path::to_path_buf),
        settings_paths: listed(&packaged.skills, "skills"),
        cli_paths: args.skills.clone(),
        no_skills: args.no_skills,
    });
    let (templates, more) = load_templates(&TemplateSources {
        agent_dir: agent_dir.to_path_buf(),
        project: project.map(Path::to_path_buf),
        settings_paths: listed(&packaged.prompts, "prompts"),
        cli_paths: args.prompt_templates.clone(),
        no_templates: args.no_prompt_templates,
    });
    warnings.extend(more);
    // Override entries in settings switch off what pi found in its own folders.
    let on = |file: &Path, kind: &str| {
        let mut scopes = vec![(agent_dir.to_path_buf(), settings.global())];
        if let Some(project) = project {
            scopes.push((project.join(".pi"), settings.project()));
        }
        scopes.iter().all(|(base, map)| {
            !file.starts_with(base.join(kind))
                || overrides::enabled(file, &overrides::override_entries(map, kind), base)
        })
    };
    let skills = skills
        .into_iter()
        .filter(|s| on(&s.file_path, "skills"))
        .collect();
    let templates = templates
        .into_iter()
        .filter(|t| on(&t.file_path, "prompts"))
        .collect();
    (skills, templates, warnings)
}

/// The system prompt of a run.
pub struct RunPrompt {
    /// The prompt for the tools and skills of start-up.
    pub text: String,
    /// Builds it again for another set of active tools (`pi.setActiveTools`), with the
    /// same context files and skills.
    pub rebuild: crate::core::agent_session::PromptForTools,
    /// The context files it includes, in load order.
    pub context_files: Vec<PathBuf>,
}

/// The system prompt for this run.
pub fn system_prompt(
    args: &Args,
    agent_dir: &Path,
    cwd: &Path,
    project: Option<&Path>,
    tools: &[Arc<dyn AgentTool>],
    skills: &[Skill],
) -> RunPrompt {
    let (rebuild, warnings, context_files) = prompt_builder(args, agent_dir, cwd, project);
    warn_all(warnings);
    RunPrompt {
        text: rebuild(tools, skills),
        rebuild,
        context_files,
    }
}

/// How the prompt is built again when the conversation moves to another folder (`/resume`
/// of a session from another project): that folder's context files and working folder,
/// without its project files (`.pi/SYSTEM.md`), which start-up's trust never covered.
/// Unreadable context files are left out without a warning while the interface runs.
pub fn prompt_for_folder(
    args: &Args,
    agent_dir: &Path,
) -> crate::core::agent_session::PromptForCwd {
    let (args, agent_dir) = (args.clone(), agent_dir.to_path_buf());
    Arc::new(move |cwd: &Path| prompt_builder(&args, &agent_dir, cwd, None).0)
}

/// The prompt builder for `cwd`, the warnings loading its sources gave, and the context
/// files it includes.
fn prompt_builder(
    args: &Args,
    agent_dir: &Path,
    cwd: &Path,
    project: Option<&Path>,
) -> (
    crate::core::agent_session::PromptForTools,
    Vec<String>,
    Vec<PathBuf>,
) {
    let (context_files, mut warnings) = if args.no_context_files {
        (Vec::new(), Vec::new())
    } else {
        load_context_files(agent_dir, cwd)
    };
    let sources = load_prompt_sources(
        args.system_prompt.as_deref(),
        &args.append_system_prompt,
        agent_dir,
        project,
    );
    warnings.extend(sources.warnings);
    let paths = context_files.iter().map(|f| f.path.clone()).collect();
    let base = SystemPromptOptions {
        custom_prompt: sources.custom_prompt,
        append_prompt: sources.append_prompt,
        tools: Vec::new(),
        guidelines: Vec::new(),
        context_files,
        skills: Vec::new(),
        cwd: cwd.to_path_buf(),
        date: local_date(),
        docs: crate::config::paths::find_docs(agent_dir),
    };
    let rebuild = Arc::new(move |tools: &[Arc<dyn AgentTool>], skills: &[Skill]| {
        build_system_prompt(&SystemPromptOptions {
            skills: prompt_skills(skills),
            tools: tools
                .iter()
                .map(|t| PromptTool {
                    name: t.name().to_string(),
                    snippet: t.prompt_snippet(),
                })
                .collect(),
            guidelines: tools.iter().flat_map(|t| t.prompt_guidelines()).collect(),
            ..base.clone()
        })
    });
    (rebuild, warnings, paths)
}

/// The skills the model may invoke, as the system prompt lists them.
fn prompt_skills(skills: &[Skill]) -> Vec<PromptSkill> {
    skills
        .iter()
        .filter(|s| !s.disable_model_invocation)
        .map(|s| PromptSkill {
            name: s.name.clone(),
            description: s.description.clone(),
            path: s.file_path.clone(),
        })
        .collect()
}
