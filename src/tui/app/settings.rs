//! `/settings`, `/scoped-models` and `/changelog`: opening their panels and
//! applying what the user changes (to the running app and `settings.json`).

use crate::t;

use std::path::PathBuf;

use serde_json::Value;

use crate::agent::queue::QueueMode;
use crate::ai::model::ThinkingLevel;
use crate::config::settings::Settings;
use crate::tui::app::session_task::SessionCommand;
use crate::tui::app::{App, Overlay};
use crate::tui::panels::PanelChange;
use crate::tui::panels::scoped_models::{ScopedModelsPanel, full_id};
use crate::tui::panels::settings::{SettingsPanel, setting_def, stored_value};
use crate::tui::transcript::NoticeKind;
use crate::ui_kit::theme::Theme;

/// The changelog shipped with this build.
pub const CHANGELOG: &str = include_str!("../../../CHANGELOG.md");

/// Settings the UI reads and writes at run time.
#[derive(Debug, Clone, Default)]
pub struct UiSettings {
    /// Both settings files (changes go to the global one).
    pub settings: Settings,
    /// Folders holding user themes (`<agent>/themes`, `.pi/themes`).
    pub theme_dirs: Vec<PathBuf>,
    /// The agent folder (all sessions for `/resume`).
    pub agent_dir: PathBuf,
}

impl UiSettings {
    /// The user theme files, for a reload's report.
    pub fn theme_inventory(&self) -> crate::core::resource_inventory::ResourceInventory {
        use crate::core::resource_inventory::{ResourceInventory, ResourceKind};
        let mut inventory = ResourceInventory::default();
        for dir in &self.theme_dirs {
            for path in crate::i18n::packs::files_with_extension(dir, "json") {
                let name = path.file_stem().map(|s| s.to_string_lossy().into_owned());
                inventory.insert_file(ResourceKind::Themes, name.unwrap_or_default(), &path);
            }
        }
        inventory
    }

    /// The JSON of theme `name` as it is loaded (built-in first, then `<name>.json` in the
    /// theme folders), for the exported page's colours.
    pub fn theme_json(&self, name: &str) -> Option<String> {
        let dirs: Vec<&std::path::Path> = self.theme_dirs.iter().map(PathBuf::as_path).collect();
        crate::ui_kit::theme::theme_json(name, &dirs)
    }

    /// Theme names offered by `/settings`: built-in, then user themes.
    pub fn theme_names(&self) -> Vec<String> {
        let mut names: Vec<String> = crate::ui_kit::theme::builtin_theme_names()
            .map(String::from)
            .collect();
        for dir in &self.theme_dirs {
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            let mut found: Vec<String> = entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
                .filter(|n| !names.contains(n))
                .collect();
            found.sort();
            names.extend(found);
        }
        names
    }
}

impl App {
    /// `/settings`.
    pub(super) fn open_settings(&mut self) {
        let model = self
            .models
            .iter()
            .find(|m| m.id == self.footer.model_id && m.provider == self.footer.provider);
        let levels = ThinkingLevel::ALL
            .iter()
            .filter(|l| model.is_none_or(|m| m.supports_level(**l)))
            .map(|l| l.as_str().to_string())
            .collect();
        let mut panel = SettingsPanel::new(
            &self.ui_settings.settings,
            self.ui_settings.theme_names(),
            levels,
        );
        if !self.footer.thinking.is_empty() {
            panel.set_value("thinking", &self.footer.thinking);
        }
        if self.image_protocol.is_none() {
            // Images are named, not drawn, on this terminal: their display settings do nothing.
            panel.without(&["show-images", "image-width-cells"]);
        }
        self.overlay = Some(Overlay::Panel(Box::new(panel)));
    }

    /// `/scoped-models`.
    pub(super) fn open_scoped_models(&mut self) {
        if self.models.is_empty() {
            self.transcript
                .notice(t!("pi.tui.models.none"), NoticeKind::Warning);
            return;
        }
        let enabled = (!self.cycle_models.is_empty())
            .then(|| self.cycle_models.iter().map(full_id).collect());
        let panel = ScopedModelsPanel::new(&self.models, enabled, &self.keys);
        self.overlay = Some(Overlay::Panel(Box::new(panel)));
    }

    /// `/changelog`: the shipped changelog in the transcript.
    pub(super) fn show_changelog(&mut self) {
        self.transcript.notice(
            format!("{}\n\n{}", t!("pi.cmd.changelog.title"), CHANGELOG.trim()),
            NoticeKind::Info,
        );
    }

    /// Apply a change made in a panel.
    pub(super) fn apply_panel_change(&mut self, change: PanelChange) {
        match change {
            PanelChange::Setting { id, value } => self.apply_setting(id, &value),
            PanelChange::PreviewTheme(name) => self.load_theme(&name),
            PanelChange::ScopedModels(enabled) => self.set_cycle_models(enabled.as_deref()),
            PanelChange::SaveScopedModels(enabled) => {
                self.set_cycle_models(enabled.as_deref());
                let settings = &mut self.ui_settings.settings;
                let saved = match enabled {
                    Some(list) => settings.set_global(
                        "enabledModels",
                        Value::Array(list.into_iter().map(Value::String).collect()),
                    ),
                    None => settings.remove_global("enabledModels"),
                };
                match saved {
                    Ok(()) => self
                        .transcript
                        .notice(t!("pi.tui.models.saved"), NoticeKind::Info),
                    Err(e) => self.transcript.notice(e, NoticeKind::Error),
                }
            }
            PanelChange::ResumeSession { path, .. } => self.resume_session(path),
            PanelChange::RenameSession(path, name) => self.rename_session(&path, &name),
            PanelChange::DeleteSession(path) => self.delete_session(&path),
            PanelChange::Locale(tag) => self.switch_locale(&tag),
        }
    }

    fn set_cycle_models(&mut self, enabled: Option<&[String]>) {
        self.cycle_models = match enabled {
            None => Vec::new(),
            Some(ids) => ids
                .iter()
                .filter_map(|id| self.models.iter().find(|m| full_id(m) == *id).cloned())
                .collect(),
        };
    }

    fn apply_setting(&mut self, id: &str, value: &str) {
        let Some(def) = setting_def(id) else {
            return;
        };
        let json = stored_value(def, value);
        let settings = &mut self.ui_settings.settings;
        let saved = match def.key {
            (Some(section), key) => settings.set_global_nested(section, key, json),
            (None, key) => settings.set_global(key, json),
        };
        if let Err(e) = saved {
            self.transcript.notice(e, NoticeKind::Error);
        }
        let on = value == "true";
        match id {
            "quiet-startup" => self.quiet_startup = on,
            "hide-thinking" => self.thinking_expanded = !on,
            "steering-mode" | "follow-up-mode" => {
                if let Some(mode) = QueueMode::parse(value) {
                    let queue = if id == "steering-mode" {
                        &self.queues.steering
                    } else {
                        &self.queues.follow_up
                    };
                    queue.set_mode(mode);
                }
            }
            "theme" => self.load_theme(value),
            "block-images" => {
                let _ = self.commands.send(SessionCommand::SetBlockImages(on));
            }
            "autocompact" => {
                self.footer.auto_compact = on;
                let _ = self.commands.send(SessionCommand::SetAutoCompact(on));
            }
            "skill-commands" => {
                let _ = self.commands.send(SessionCommand::SetSkillCommands(on));
            }
            "tree-filter-mode" => {
                if let Some(filter) = crate::tui::panels::tree_selector::TreeFilter::parse(value) {
                    self.tree.filter = filter;
                }
            }
            "thinking" => {
                if let Some(level) = ThinkingLevel::parse(value)
                    && self.footer.reasoning
                {
                    self.footer.thinking = value.to_string();
                    let _ = self.commands.send(SessionCommand::SetThinking(level));
                }
            }
            _ => {}
        }
    }

    /// Draw with theme `name` from now on (a user theme from the theme folders, else
    /// a built-in one; a theme that fails to load falls back with a warning).
    fn load_theme(&mut self, name: &str) {
        let dirs: Vec<&std::path::Path> = self
            .ui_settings
            .theme_dirs
            .iter()
            .map(PathBuf::as_path)
            .collect();
        let (theme, warning) = Theme::load(name, &dirs);
        self.theme = theme;
        self.cache.clear();
        if let Some(w) = warning {
            self.transcript.notice(w, NoticeKind::Warning);
        }
    }
}

#[cfg(test)]
mod theme_json_tests {
    use super::*;

    #[test]
    fn the_export_gets_the_current_theme() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("mine.json"), "{\"name\": \"mine\"}").unwrap();
        let settings = UiSettings {
            theme_dirs: vec![dir.path().to_path_buf()],
            ..UiSettings::default()
        };
        assert_eq!(
            settings.theme_json("light").as_deref(),
            Some(crate::ui_kit::theme::LIGHT_JSON)
        );
        assert_eq!(
            settings.theme_json("mine").as_deref(),
            Some("{\"name\": \"mine\"}")
        );
        assert_eq!(settings.theme_json("missing"), None);
    }
}
