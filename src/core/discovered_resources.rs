//! Skills and prompt templates that extensions' `resources_discover` handlers return join
//! the ones pi found itself (pi's own win a name clash), and the system prompt follows the
//! skills and tools extensions add.

use crate::core::agent_session::AgentSession;
use crate::resources::SourceInfo;
use crate::resources::prompt_templates::{TemplateSources, load_templates};
use crate::resources::skills::{SkillSources, load_skills};

impl AgentSession {
    /// Replace the skills and templates of the last discovery with what the handlers
    /// returned now, then rebuild the system prompt.
    pub(super) fn apply_discovered_resources(&mut self) {
        let Some(ext) = &self.extensions else {
            return;
        };
        let found = ext.resources.clone();
        let earlier = std::mem::take(&mut self.discovered_files);
        self.skills.retain(|s| !earlier.contains(&s.file_path));
        self.templates.retain(|t| !earlier.contains(&t.file_path));
        let (skills, mut warnings) = load_skills(&SkillSources {
            cli_paths: as_strings(&found.skill_paths),
            no_skills: true,
            ..SkillSources::default()
        });
        let origin = |file: &std::path::Path| {
            found
                .contributed_by
                .iter()
                .find(|(path, _, _)| file.starts_with(path))
                .map(|(_, name, ext)| SourceInfo::extension(file, name, ext))
        };
        for mut skill in skills {
            if let Some(info) = origin(&skill.file_path) {
                skill.source_info = info;
            }
            if !self.skills.iter().any(|s| s.name == skill.name) {
                self.discovered_files.push(skill.file_path.clone());
                self.skills.push(skill);
            }
        }
        let (templates, more) = load_templates(&TemplateSources {
            cli_paths: as_strings(&found.prompt_paths),
            no_templates: true,
            ..TemplateSources::default()
        });
        warnings.extend(more);
        for mut template in templates {
            if let Some(info) = origin(&template.file_path) {
                template.source_info = info;
            }
            if !self.templates.iter().any(|t| t.name == template.name) {
                self.discovered_files.push(template.file_path.clone());
                self.templates.push(template);
            }
        }
        if let Some(ext) = &self.extensions {
            for warning in warnings {
                ext.view.report(format!("Warning: {warning}"));
            }
        }
        self.rebuild_system_prompt();
    }

    /// `/reload`: find the skills and prompt templates again (files added, changed or
    /// removed since start-up count) and rebuild the system prompt; the ones extensions
    /// discover join again when the extensions reload. Returns the warnings.
    pub fn reload_resources(&mut self) -> Vec<String> {
        let Some(load) = self.resource_loader.clone() else {
            return Vec::new();
        };
        let (skills, templates, warnings) = load();
        self.skills = skills;
        self.templates = templates;
        self.discovered_files.clear();
        self.rebuild_system_prompt();
        warnings
    }

    /// Build the system prompt again for the active tools and the skills.
    pub(super) fn rebuild_system_prompt(&mut self) {
        if let Some(rebuild) = &self.prompt_for_tools {
            self.state.system_prompt = rebuild(&self.state.tools, &self.skills);
        }
    }
}

fn as_strings(paths: &[std::path::PathBuf]) -> Vec<String> {
    paths.iter().map(|p| p.display().to_string()).collect()
}
