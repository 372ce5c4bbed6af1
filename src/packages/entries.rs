//! The `packages` array of a settings file: string entries and object entries with
//! per-kind filters, and the settings scope each belongs to.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::error::PackageError;
use super::source::PackageSource;

/// Which settings file a package entry lives in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// `<agent>/settings.json` (paths relative to the agent folder).
    Global,
    /// `<cwd>/.pi/settings.json` (paths relative to `.pi`).
    Project,
    /// `-e <source>` for one run (installed under the temporary folder).
    Temporary,
}

impl Scope {
    /// The folder relative paths of this scope are resolved against.
    pub fn base_dir(self, agent_dir: &Path, cwd: &Path) -> PathBuf {
        match self {
            Scope::Global => agent_dir.to_path_buf(),
            Scope::Project => cwd.join(".pi"),
            Scope::Temporary => cwd.to_path_buf(),
        }
    }

    /// The settings file of this scope (none for temporary packages).
    pub fn settings_file(self, agent_dir: &Path, cwd: &Path) -> Option<PathBuf> {
        match self {
            Scope::Global => Some(crate::config::paths::settings_path(agent_dir)),
            Scope::Project => Some(crate::config::paths::project_settings_path(cwd)),
            Scope::Temporary => None,
        }
    }
}

/// A resource kind a package provides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResourceKind {
    /// Lua extensions.
    Extensions,
    /// Skills (`SKILL.md` folders and `.md` files).
    Skills,
    /// Prompt templates (`.md`).
    Prompts,
    /// Themes (`.json`).
    Themes,
}

impl ResourceKind {
    /// Every kind, in loading order.
    pub const ALL: [ResourceKind; 4] = [
        ResourceKind::Extensions,
        ResourceKind::Skills,
        ResourceKind::Prompts,
        ResourceKind::Themes,
    ];

    /// The settings/manifest key and conventional folder name.
    pub fn key(self) -> &'static str {
        match self {
            ResourceKind::Extensions => "extensions",
            ResourceKind::Skills => "skills",
            ResourceKind::Prompts => "prompts",
            ResourceKind::Themes => "themes",
        }
    }
}

/// One entry of a `packages` array.
#[derive(Debug, Clone, PartialEq)]
pub struct PackageEntry {
    /// The source as written.
    pub source: String,
    /// Per-kind filter patterns of the object form (`None` = load all of that kind).
    pub filters: [Option<Vec<String>>; 4],
    /// Whether the entry used the object form with at least one filter.
    pub filtered: bool,
}

impl PackageEntry {
    /// The filter of one kind.
    pub fn filter(&self, kind: ResourceKind) -> Option<&[String]> {
        let index = ResourceKind::ALL.iter().position(|k| *k == kind)?;
        self.filters[index].as_deref()
    }

    /// A plain entry without filters.
    pub fn plain(source: &str) -> PackageEntry {
        PackageEntry {
            source: source.to_string(),
            filters: Default::default(),
            filtered: false,
        }
    }

    /// Read an entry: a string, or an object with `source` and optional kind arrays.
    pub fn from_value(value: &Value) -> Result<PackageEntry, PackageError> {
        match value {
            Value::String(s) => Ok(PackageEntry::plain(s)),
            Value::Object(map) => {
                let source = map.get("source").and_then(Value::as_str).ok_or_else(|| {
                    PackageError::EntryWithoutSource {
                        entry: value.to_string(),
                    }
                })?;
                let mut entry = PackageEntry::plain(source);
                for (i, kind) in ResourceKind::ALL.iter().enumerate() {
                    let Some(list) = map.get(kind.key()) else {
                        continue;
                    };
                    let patterns = list
                        .as_array()
                        .map(|a| {
                            a.iter()
                                .filter_map(Value::as_str)
                                .map(str::to_string)
                                .collect()
                        })
                        .ok_or_else(|| PackageError::EntryFilterNotArray {
                            source: source.to_string(),
                            key: kind.key(),
                        })?;
                    entry.filters[i] = Some(patterns);
                    entry.filtered = true;
                }
                Ok(entry)
            }
            other => Err(PackageError::EntryNotASource {
                entry: other.to_string(),
            }),
        }
    }
}

/// A package entry with its scope and parsed source.
#[derive(Debug, Clone)]
pub struct ScopedPackage {
    /// Where it was configured.
    pub scope: Scope,
    /// The entry as configured.
    pub entry: PackageEntry,
    /// The parsed source.
    pub source: PackageSource,
    /// The folder relative local paths are resolved against.
    pub base: PathBuf,
}

impl ScopedPackage {
    /// Identity of this package (see [`PackageSource::identity`]).
    pub fn identity(&self) -> String {
        self.source.identity(&self.base)
    }
}

/// The entries of one settings object's `packages` array; bad entries become warnings.
pub fn entries_of(
    settings: &Map<String, Value>,
    scope: Scope,
    base: &Path,
) -> (Vec<ScopedPackage>, Vec<String>) {
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    let Some(list) = settings.get("packages") else {
        return (out, warnings);
    };
    let Some(items) = list.as_array() else {
        warnings.push(PackageError::PackagesNotAnArray.to_string());
        return (out, warnings);
    };
    for item in items {
        let parsed = PackageEntry::from_value(item)
            .and_then(|entry| PackageSource::parse(&entry.source).map(|source| (entry, source)));
        match parsed {
            Ok((entry, source)) => out.push(ScopedPackage {
                scope,
                entry,
                source,
                base: base.to_path_buf(),
            }),
            Err(e) => warnings.push(e.to_string()),
        }
    }
    (out, warnings)
}

/// Project entries first, then global ones whose identity no project entry has.
pub fn dedupe(project: Vec<ScopedPackage>, global: Vec<ScopedPackage>) -> Vec<ScopedPackage> {
    let mut seen = std::collections::HashSet::new();
    project
        .into_iter()
        .chain(global)
        .filter(|p| seen.insert(p.identity()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn object_entries_carry_filters() {
        let entry = PackageEntry::from_value(&json!({
            "source": "npm:x", "skills": [], "extensions": ["a/*.lua", "!a/b.lua"]
        }))
        .unwrap();
        assert!(entry.filtered);
        assert_eq!(entry.filter(ResourceKind::Skills), Some(&[][..]));
        assert_eq!(entry.filter(ResourceKind::Prompts), None);
        assert_eq!(entry.filter(ResourceKind::Extensions).unwrap().len(), 2);
        assert!(PackageEntry::from_value(&json!({"skills": []})).is_err());
        assert!(PackageEntry::from_value(&json!({"source": "x", "skills": "a"})).is_err());
        assert!(!PackageEntry::from_value(&json!("npm:y")).unwrap().filtered);
    }

    #[test]
    fn project_entries_win_over_global_ones() {
        let settings = |v: Value| v.as_object().unwrap().clone();
        let (global, _) = entries_of(
            &settings(json!({"packages": ["npm:a@1", "npm:b"]})),
            Scope::Global,
            Path::new("/g"),
        );
        let (project, warnings) = entries_of(
            &settings(json!({"packages": ["npm:a@2", 5]})),
            Scope::Project,
            Path::new("/p/.pi"),
        );
        assert_eq!(warnings.len(), 1);
        let all = dedupe(project, global);
        let sources: Vec<&str> = all.iter().map(|p| p.entry.source.as_str()).collect();
        assert_eq!(sources, vec!["npm:a@2", "npm:b"]);
        assert_eq!(all[0].scope, Scope::Project);
    }
}
