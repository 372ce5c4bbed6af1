//! `settings.json`: the global file (`<agent>/settings.json`) merged with the
//! project file (`<cwd>/.pi/settings.json`), project winning.
//!
//! Merge rule (as pi): for each project key, when both values are JSON
//! objects their keys are combined (project keys replace global ones);
//! anything else (scalars, arrays) is replaced by the project value.
//! Typed accessors live in [`super::settings_keys`].

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::error::{JsonProblem, SettingsSaveError, SettingsWarning};
use super::json_file::write_pretty_json;
use super::paths;

/// Which settings file a value comes from or goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingsScope {
    /// `<agent>/settings.json`.
    Global,
    /// `<cwd>/.pi/settings.json`.
    Project,
}

/// Loaded settings: both files plus their merged view.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    global: Map<String, Value>,
    project: Map<String, Value>,
    merged: Value,
    global_path: Option<PathBuf>,
    project_path: Option<PathBuf>,
    global_unreadable: bool,
    project_unreadable: bool,
}

impl Settings {
    /// Load and merge both files. Unreadable or malformed files are treated as
    /// empty; each problem yields a warning naming the file (and for JSON
    /// errors the line and column). A key of the wrong type, or one the schema
    /// does not know, is reported once (file, key, expected type) and ignored;
    /// the rest of the file applies. Never fails.
    pub fn load(agent_dir: &Path, cwd: &Path) -> (Settings, Vec<SettingsWarning>) {
        let global_path = paths::settings_path(agent_dir);
        let project_path = paths::project_settings_path(cwd);
        let mut warnings = Vec::new();
        let (global, global_ok) = load_file(&global_path, SettingsScope::Global, &mut warnings);
        let (project, project_ok) = load_file(&project_path, SettingsScope::Project, &mut warnings);
        let mut settings = Settings::from_maps(global, project);
        settings.global_path = Some(global_path);
        settings.project_path = Some(project_path);
        settings.global_unreadable = !global_ok;
        settings.project_unreadable = !project_ok;
        (settings, warnings)
    }

    /// In-memory settings from two JSON objects (non-objects count as empty).
    /// Nothing is ever written to disk.
    pub fn from_values(global: Value, project: Value) -> Settings {
        let as_map = |v: Value| match v {
            Value::Object(mut m) => {
                migrate(&mut m);
                m
            }
            _ => Map::new(),
        };
        Settings::from_maps(as_map(global), as_map(project))
    }

    fn from_maps(global: Map<String, Value>, project: Map<String, Value>) -> Settings {
        let merged = Value::Object(merge_settings(&global, &project));
        Settings {
            global,
            project,
            merged,
            ..Settings::default()
        }
    }

    /// Forget the project file (an untrusted folder): only the global settings apply.
    pub fn drop_project(&mut self) {
        self.project = Map::new();
        self.merged = Value::Object(merge_settings(&self.global, &self.project));
    }

    /// The merged settings as raw JSON (always an object).
    pub fn raw(&self) -> &Value {
        &self.merged
    }

    /// The global file's settings.
    pub fn global(&self) -> &Map<String, Value> {
        &self.global
    }

    /// The project file's settings.
    pub fn project(&self) -> &Map<String, Value> {
        &self.project
    }

    /// A merged top-level value.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.merged.get(key)
    }

    /// A merged nested value (`section.key`).
    pub fn get_nested(&self, section: &str, key: &str) -> Option<&Value> {
        self.merged.get(section)?.get(key)
    }

    /// Path of the global settings file, when loaded from disk.
    pub fn global_path(&self) -> Option<&Path> {
        self.global_path.as_deref()
    }

    /// The project settings file (`<cwd>/.pi/settings.json`), when loaded from disk.
    pub fn project_path(&self) -> Option<&Path> {
        self.project_path.as_deref()
    }

    /// Set a top-level key in the global settings and save it to the global
    /// file (re-read first, only this key replaced, 2-space JSON).
    pub fn set_global(&mut self, key: &str, value: Value) -> Result<(), SettingsSaveError> {
        self.global.insert(key.to_string(), value.clone());
        self.remerge();
        self.persist_global(|file| {
            file.insert(key.to_string(), value);
        })
    }

    /// Set `section.key` in the global settings and save it, keeping the
    /// other keys of `section` that are on disk.
    pub fn set_global_nested(
        &mut self,
        section: &str,
        key: &str,
        value: Value,
    ) -> Result<(), SettingsSaveError> {
        let entry = self
            .global
            .entry(section.to_string())
            .or_insert_with(|| Value::Object(Map::new()));
        if !entry.is_object() {
            *entry = Value::Object(Map::new());
        }
        if let Value::Object(m) = entry {
            m.insert(key.to_string(), value.clone());
        }
        self.remerge();
        self.persist_global(|file| {
            let nested = file
                .entry(section.to_string())
                .or_insert_with(|| Value::Object(Map::new()));
            if !nested.is_object() {
                *nested = Value::Object(Map::new());
            }
            if let Value::Object(m) = nested {
                m.insert(key.to_string(), value);
            }
        })
    }

    /// Remove a top-level key from the global settings and save.
    pub fn remove_global(&mut self, key: &str) -> Result<(), SettingsSaveError> {
        self.global.remove(key);
        self.remerge();
        self.persist_global(|file| {
            file.remove(key);
        })
    }

    fn remerge(&mut self) {
        self.merged = Value::Object(merge_settings(&self.global, &self.project));
    }

    fn persist_global(
        &self,
        change: impl FnOnce(&mut Map<String, Value>),
    ) -> Result<(), SettingsSaveError> {
        let Some(path) = &self.global_path else {
            return Ok(());
        };
        if self.global_unreadable {
            return Err(SettingsSaveError::UnusableAtStartup { path: path.clone() });
        }
        update_settings_file(path, change)
    }
}

/// Re-read the settings file at `path`, apply `change` and write it back (2-space JSON).
/// A missing file starts empty; a malformed one is left alone and reported.
pub fn update_settings_file(
    path: &Path,
    change: impl FnOnce(&mut Map<String, Value>),
) -> Result<(), SettingsSaveError> {
    let current = read_settings_file(path)?;
    let before = Value::Object(current);
    let mut after = before.clone();
    if let Value::Object(map) = &mut after {
        change(map);
    }
    refuse_replacing_unusable(path, &before, &after)?;
    write_pretty_json(path, &after).map_err(|e| SettingsSaveError::Unwritable {
        path: path.to_path_buf(),
        reason: super::error::IoFailure::of(&e),
    })
}

/// An error when the change from `before` to `after` touches a key whose value
/// in the file is of the wrong type or form: pi never replaces a setting it
/// cannot use (the user's value would be lost), it says so instead.
fn refuse_replacing_unusable(
    path: &Path,
    before: &Value,
    after: &Value,
) -> Result<(), SettingsSaveError> {
    for (key, problem) in super::schema_check::SETTINGS.invalid_keys(path, before) {
        let pointer: String = key
            .iter()
            .map(|p| format!("/{}", p.replace('~', "~0").replace('/', "~1")))
            .collect();
        if before.pointer(&pointer) != after.pointer(&pointer) {
            return Err(SettingsSaveError::UnusableValue { problem });
        }
    }
    Ok(())
}

/// Read the settings file at `path` as an object (missing → empty, malformed → error).
pub fn read_settings_file(path: &Path) -> Result<Map<String, Value>, SettingsSaveError> {
    match super::json_file::read_config_text(path) {
        Ok(text) => parse_settings_text(&text).map_err(|problem| SettingsSaveError::Malformed {
            path: path.to_path_buf(),
            problem: problem.to_string(),
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Map::new()),
        Err(e) => Err(SettingsSaveError::Unreadable {
            path: path.to_path_buf(),
            reason: super::error::IoFailure::of(&e),
        }),
    }
}

/// Combine global and project settings the way pi does.
pub fn merge_settings(base: &Map<String, Value>, over: &Map<String, Value>) -> Map<String, Value> {
    let mut result = base.clone();
    for (key, value) in over {
        match (result.get_mut(key), value) {
            (Some(Value::Object(existing)), Value::Object(incoming)) => {
                for (k, v) in incoming {
                    existing.insert(k.clone(), v.clone());
                }
            }
            _ => {
                result.insert(key.clone(), value.clone());
            }
        }
    }
    result
}

fn load_file(
    path: &Path,
    scope: SettingsScope,
    warnings: &mut Vec<SettingsWarning>,
) -> (Map<String, Value>, bool) {
    let text = match super::json_file::read_config_text(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (Map::new(), true),
        Err(e) => {
            let error = super::error::SettingsFileError::Unreadable {
                global: scope == SettingsScope::Global,
                path: path.to_path_buf(),
                reason: super::error::IoFailure::of(&e),
            };
            warnings.push(SettingsWarning::File(error));
            return (Map::new(), false);
        }
    };
    match parse_object(&text) {
        Ok(map) => {
            let mut value = Value::Object(map);
            let found = super::schema_check::SETTINGS.check_text(path, &text, &mut value);
            warnings.extend(found.into_iter().map(SettingsWarning::Schema));
            let Value::Object(mut map) = value else {
                return (Map::new(), true);
            };
            migrate(&mut map);
            (map, true)
        }
        Err(problem) => {
            let error = super::error::SettingsFileError::Invalid {
                global: scope == SettingsScope::Global,
                path: path.to_path_buf(),
                problem,
            };
            warnings.push(SettingsWarning::File(error));
            (Map::new(), false)
        }
    }
}

/// Parse settings text: empty text is `{}`; anything but an object is an error.
/// Older spellings are upgraded.
fn parse_settings_text(text: &str) -> Result<Map<String, Value>, JsonProblem> {
    let mut map = parse_object(text)?;
    migrate(&mut map);
    Ok(map)
}

/// Parse settings text as written: empty text is `{}`; anything but an object is an error.
fn parse_object(text: &str) -> Result<Map<String, Value>, JsonProblem> {
    if text.is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(JsonProblem::NotAnObject),
        Err(e) => Err(JsonProblem::from_serde(&e)),
    }
}

/// Rewrite legacy keys: `queueMode` → `steeringMode`, boolean `websockets` →
/// `transport`, object `skills` → `enableSkillCommands` + `skills` array,
/// `retry.maxDelayMs` → `retry.provider.maxRetryDelayMs`.
fn migrate(settings: &mut Map<String, Value>) {
    if !settings.contains_key("steeringMode")
        && let Some(mode) = settings.remove("queueMode")
    {
        settings.insert("steeringMode".into(), mode);
    }
    if !settings.contains_key("transport")
        && let Some(Value::Bool(ws)) = settings.get("websockets").cloned()
    {
        settings.remove("websockets");
        let transport = if ws { "websocket" } else { "sse" };
        settings.insert("transport".into(), Value::from(transport));
    }
    if let Some(Value::Object(skills)) = settings.get("skills").cloned() {
        if let Some(enable) = skills.get("enableSkillCommands")
            && !settings.contains_key("enableSkillCommands")
        {
            settings.insert("enableSkillCommands".into(), enable.clone());
        }
        match skills.get("customDirectories") {
            Some(Value::Array(dirs)) if !dirs.is_empty() => {
                settings.insert("skills".into(), Value::Array(dirs.clone()));
            }
            _ => {
                settings.remove("skills");
            }
        }
    }
    if let Some(Value::Object(retry)) = settings.get_mut("retry")
        && let Some(max_delay) = retry.remove("maxDelayMs")
        && max_delay.is_number()
    {
        let provider = retry
            .entry("provider")
            .or_insert_with(|| Value::Object(Map::new()));
        if !provider.is_object() {
            *provider = Value::Object(Map::new());
        }
        if let Value::Object(p) = provider
            && p.get("maxRetryDelayMs").is_none_or(Value::is_null)
        {
            p.insert("maxRetryDelayMs".into(), max_delay);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn merge_combines_one_level_of_objects() {
        let merged = merge_settings(
            &map(
                json!({"theme": "dark", "compaction": {"enabled": true, "reserveTokens": 1},
                         "enabledModels": ["a", "b"]}),
            ),
            &map(json!({"compaction": {"reserveTokens": 8192}, "enabledModels": ["c"]})),
        );
        assert_eq!(
            Value::Object(merged),
            json!({"theme": "dark", "compaction": {"enabled": true, "reserveTokens": 8192},
                   "enabledModels": ["c"]})
        );
    }

    #[test]
    fn legacy_keys_are_migrated() {
        let s = Settings::from_values(
            json!({"queueMode": "all", "websockets": true,
                   "skills": {"enableSkillCommands": false, "customDirectories": ["x"]},
                   "retry": {"maxDelayMs": 5}}),
            json!({}),
        );
        assert_eq!(s.get("steeringMode"), Some(&json!("all")));
        assert_eq!(s.get("transport"), Some(&json!("websocket")));
        assert_eq!(s.get("enableSkillCommands"), Some(&json!(false)));
        assert_eq!(s.get("skills"), Some(&json!(["x"])));
        assert_eq!(
            s.get("retry"),
            Some(&json!({"provider": {"maxRetryDelayMs": 5}}))
        );
    }

    #[test]
    fn empty_file_is_an_empty_object() {
        assert!(parse_settings_text("").unwrap().is_empty());
        assert!(parse_settings_text("[]").is_err());
    }
}
