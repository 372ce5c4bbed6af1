//! Enabling and disabling single resources of installed packages (`pi config`): every file a
//! package provides, whether its settings entry lets it load, and the change written back as
//! the original does — a `+path` (enable) or `-path` (disable) pattern, relative to the
//! package root, in the entry's array for that kind (a plain string entry becomes the object
//! form, and back again when no filter is left).

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::entries::{ResourceKind, Scope, ScopedPackage};
use super::error::PackageError;
use super::manager::PackageManager;
use super::resolve::package_resources;
use super::source::normalize;
use crate::config::settings::update_settings_file;

/// One resource of one package.
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceRow {
    /// The settings file the package is configured in.
    pub scope: Scope,
    /// The package source as configured.
    pub source: String,
    /// What kind of resource it is.
    pub kind: ResourceKind,
    /// The path relative to the package root (the pattern written to settings).
    pub relative: String,
    /// Whether it loads now.
    pub enabled: bool,
}

/// Every resource of the installed `packages`, in package order, then by kind and path.
pub fn resource_rows(manager: &PackageManager, packages: &[ScopedPackage]) -> Vec<ResourceRow> {
    let mut rows = Vec::new();
    for package in packages {
        let Ok(root) = manager.installed_path(&package.source, package.scope) else {
            continue;
        };
        if !root.exists() {
            continue;
        }
        for kind in ResourceKind::ALL {
            let enabled: Vec<PathBuf> = package_resources(&root, kind, package.entry.filter(kind))
                .iter()
                .map(|p| normalize(p))
                .collect();
            for file in package_resources(&root, kind, None) {
                let file = normalize(&file);
                rows.push(ResourceRow {
                    scope: package.scope,
                    source: package.entry.source.clone(),
                    kind,
                    relative: relative_to(&file, &root),
                    enabled: enabled.contains(&file),
                });
            }
        }
    }
    rows
}

fn relative_to(file: &Path, root: &Path) -> String {
    let root = normalize(root);
    let relative = if root.is_file() {
        file.file_name().map(PathBuf::from).unwrap_or_default()
    } else {
        file.strip_prefix(&root)
            .map(Path::to_path_buf)
            .unwrap_or_else(|_| file.to_path_buf())
    };
    relative.to_string_lossy().replace('\\', "/")
}

/// Write `row` as enabled or disabled into its scope's settings file.
pub fn set_enabled(
    agent_dir: &Path,
    cwd: &Path,
    row: &ResourceRow,
    enabled: bool,
) -> Result<(), PackageError> {
    let file = row
        .scope
        .settings_file(agent_dir, cwd)
        .ok_or(PackageError::TemporaryNotSaved)?;
    update_settings_file(&file, |settings| apply(settings, row, enabled))?;
    Ok(())
}

/// The settings change of [`set_enabled`], on a settings object.
pub fn apply(settings: &mut Map<String, Value>, row: &ResourceRow, enabled: bool) {
    let Some(Value::Array(items)) = settings.get_mut("packages") else {
        return;
    };
    let source_of = |item: &Value| match item {
        Value::String(s) => Some(s.clone()),
        Value::Object(map) => map
            .get("source")
            .and_then(Value::as_str)
            .map(str::to_string),
        _ => None,
    };
    let Some(item) = items
        .iter_mut()
        .find(|item| source_of(item).as_deref() == Some(row.source.as_str()))
    else {
        return;
    };
    if let Value::String(source) = item {
        let mut map = Map::new();
        map.insert("source".into(), Value::String(source.clone()));
        *item = Value::Object(map);
    }
    let Value::Object(map) = item else { return };
    let key = row.kind.key();
    let mut patterns: Vec<Value> = map
        .get(key)
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    patterns.retain(|p| {
        let text = p.as_str().unwrap_or_default();
        text.trim_start_matches(['!', '+', '-']) != row.relative
    });
    let sign = if enabled { '+' } else { '-' };
    patterns.push(Value::String(format!("{sign}{}", row.relative)));
    map.insert(key.into(), Value::Array(patterns));
    let filtered = ResourceKind::ALL.iter().any(|k| map.contains_key(k.key()));
    if !filtered && let Some(source) = map.get("source").cloned() {
        *item = source;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn row(enabled: bool) -> ResourceRow {
        ResourceRow {
            scope: Scope::Global,
            source: "npm:tools".into(),
            kind: ResourceKind::Skills,
            relative: "skills/a/SKILL.md".into(),
            enabled,
        }
    }

    #[test]
    fn toggles_write_one_signed_pattern_per_resource() {
        let mut settings = json!({"packages": ["npm:tools", "npm:other"]})
            .as_object()
            .cloned()
            .unwrap();
        apply(&mut settings, &row(true), false);
        assert_eq!(
            settings["packages"],
            json!([{"source": "npm:tools", "skills": ["-skills/a/SKILL.md"]}, "npm:other"])
        );
        apply(&mut settings, &row(false), true);
        assert_eq!(
            settings["packages"][0],
            json!({"source": "npm:tools", "skills": ["+skills/a/SKILL.md"]})
        );
    }
}
