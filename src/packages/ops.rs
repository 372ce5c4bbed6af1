//! Package operations on settings files (add, remove, read by scope) and the resolution of
//! every configured package into resource files at start-up.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::resources::PackageOrigin;

use super::entries::{PackageEntry, ResourceKind, Scope, ScopedPackage, dedupe, entries_of};
use super::error::PackageError;
use super::manager::PackageManager;
use super::resolve::package_resources;
use super::source::{PackageSource, normalize};
use super::store::LockCheck;
use crate::config::settings::{read_settings_file, update_settings_file};

/// `npmCommand` of a settings object, when it is a non-empty string array.
pub fn npm_command(settings: &Map<String, Value>) -> Option<Vec<String>> {
    let list: Vec<String> = settings
        .get("npmCommand")?
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect();
    (!list.is_empty()).then_some(list)
}

/// The source to store in `scope`'s settings for what the user typed: a local path typed
/// relative to `cwd` is stored relative to the folder of the settings file that names it
/// (`~/.pi/agent` or `<project>/.pi`), as pi does.
pub fn settings_source(
    raw: &str,
    scope: Scope,
    agent_dir: &Path,
    cwd: &Path,
) -> Result<String, PackageError> {
    let PackageSource::Local(path) = PackageSource::parse(raw)? else {
        return Ok(raw.to_string());
    };
    let absolute = super::source::resolve_local(&path, cwd);
    if scope == Scope::Temporary {
        return Ok(absolute.to_string_lossy().into_owned());
    }
    let rel = relative_path(&scope.base_dir(agent_dir, cwd), &absolute);
    Ok(rel.to_string_lossy().into_owned())
}

/// `to` relative to the folder `from` (both absolute; `.` and `..` parts resolved first).
fn relative_path(from: &Path, to: &Path) -> PathBuf {
    let (from, to) = (normalize(from), normalize(to));
    let common = from
        .components()
        .zip(to.components())
        .take_while(|(a, b)| a == b)
        .count();
    let mut out = PathBuf::new();
    for _ in from.components().skip(common) {
        out.push("..");
    }
    for part in to.components().skip(common) {
        out.push(part);
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

/// The packages configured in one settings file.
pub fn scope_packages(
    agent_dir: &Path,
    cwd: &Path,
    scope: Scope,
) -> Result<Vec<ScopedPackage>, PackageError> {
    let Some(file) = scope.settings_file(agent_dir, cwd) else {
        return Ok(Vec::new());
    };
    let settings = read_settings_file(&file)?;
    Ok(entries_of(&settings, scope, &scope.base_dir(agent_dir, cwd)).0)
}

/// Add `source` to `scope`'s `packages` (an entry with the same identity gets the new
/// source, keeping its filters). Returns whether an entry was already there.
pub fn add_to_settings(
    agent_dir: &Path,
    cwd: &Path,
    scope: Scope,
    source: &str,
) -> Result<bool, PackageError> {
    let file = scope
        .settings_file(agent_dir, cwd)
        .ok_or(PackageError::TemporaryNotSaved)?;
    let base = scope.base_dir(agent_dir, cwd);
    let identity = PackageSource::parse(source)?.identity(&base);
    let mut replaced = false;
    update_settings_file(&file, |settings| {
        let list = settings
            .entry("packages")
            .or_insert_with(|| Value::Array(Vec::new()));
        if !list.is_array() {
            *list = Value::Array(Vec::new());
        }
        let Value::Array(items) = list else { return };
        for item in items.iter_mut() {
            if entry_identity(item, &base).as_deref() == Some(identity.as_str()) {
                replaced = true;
                match item {
                    Value::Object(map) => {
                        map.insert("source".into(), Value::String(source.into()));
                    }
                    other => *other = Value::String(source.into()),
                }
            }
        }
        if !replaced {
            items.push(Value::String(source.into()));
        }
    })?;
    Ok(replaced)
}

/// Remove every entry with `identity` from `scope`'s `packages`; returns the removed
/// packages (empty when nothing matched, and then the file is left untouched).
pub fn remove_from_settings(
    agent_dir: &Path,
    cwd: &Path,
    scope: Scope,
    identity: &str,
) -> Result<Vec<ScopedPackage>, PackageError> {
    let matching: Vec<ScopedPackage> = scope_packages(agent_dir, cwd, scope)?
        .into_iter()
        .filter(|p| p.identity() == identity)
        .collect();
    if matching.is_empty() {
        return Ok(matching);
    }
    let file = scope
        .settings_file(agent_dir, cwd)
        .ok_or(PackageError::TemporaryNotSaved)?;
    let base = scope.base_dir(agent_dir, cwd);
    update_settings_file(&file, |settings| {
        if let Some(Value::Array(items)) = settings.get_mut("packages") {
            items.retain(|item| entry_identity(item, &base).as_deref() != Some(identity));
        }
    })?;
    Ok(matching)
}

fn entry_identity(item: &Value, base: &Path) -> Option<String> {
    let entry = PackageEntry::from_value(item).ok()?;
    Some(PackageSource::parse(&entry.source).ok()?.identity(base))
}

/// Resource files of every kind from packages, in load order.
#[derive(Debug, Clone, Default)]
pub struct PackageResources {
    /// Extension entry files.
    pub extensions: Vec<PathBuf>,
    /// Skill files.
    pub skills: Vec<PathBuf>,
    /// Prompt template files.
    pub prompts: Vec<PathBuf>,
    /// Theme files.
    pub themes: Vec<PathBuf>,
    /// Problems (a package that could not be installed, a bad entry).
    pub warnings: Vec<String>,
    /// For each resource file, the package it came from.
    pub origins: std::collections::BTreeMap<PathBuf, PackageOrigin>,
}

impl PackageResources {
    /// Add the resources of the package installed at `root`, configured in `scope`.
    pub fn add_package(&mut self, root: &Path, entry: &PackageEntry, scope: Scope) {
        let origin = PackageOrigin {
            source: entry.source.clone(),
            scope: match scope {
                Scope::Global => "user",
                Scope::Project => "project",
                Scope::Temporary => "temporary",
            },
            root: normalize(root),
        };
        for kind in ResourceKind::ALL {
            let files = package_resources(root, kind, entry.filter(kind));
            let target = match kind {
                ResourceKind::Extensions => &mut self.extensions,
                ResourceKind::Skills => &mut self.skills,
                ResourceKind::Prompts => &mut self.prompts,
                ResourceKind::Themes => &mut self.themes,
            };
            for file in files {
                let file = normalize(&file);
                if !target.contains(&file) {
                    self.origins.insert(file.clone(), origin.clone());
                    target.push(file);
                }
            }
        }
    }
}

/// The packages of both settings objects, project first, deduplicated by identity.
/// `project` is `None` when the project is not trusted.
pub fn configured_packages(
    global: &Map<String, Value>,
    project: Option<&Map<String, Value>>,
    agent_dir: &Path,
    cwd: &Path,
) -> (Vec<ScopedPackage>, Vec<String>) {
    let (global, mut warnings) = entries_of(
        global,
        Scope::Global,
        &Scope::Global.base_dir(agent_dir, cwd),
    );
    let project = match project {
        Some(map) => {
            let (list, more) = entries_of(
                map,
                Scope::Project,
                &Scope::Project.base_dir(agent_dir, cwd),
            );
            warnings.extend(more);
            list
        }
        None => Vec::new(),
    };
    (dedupe(project, global), warnings)
}

/// Resolve packages into resource files, installing missing ones unless `offline`.
/// `progress` is told about each install before it starts.
pub fn resolve_packages(
    manager: &PackageManager,
    packages: &[ScopedPackage],
    offline: bool,
    progress: &dyn Fn(&str),
) -> PackageResources {
    let mut out = PackageResources::default();
    let mut locks = LockCheck::new(manager);
    for package in packages {
        let path = match manager.installed_path(&package.source, package.scope) {
            Ok(path) => path,
            Err(e) => {
                out.warnings.push(crate::t!(
                    "pi.error.pkg.warning",
                    source = package.entry.source.as_str(),
                    error = e.to_string()
                ));
                continue;
            }
        };
        let local = matches!(package.source, PackageSource::Local(_));
        // A git source given with `-e` is brought up to date each time it is used, as pi
        // 0.73.1 does (a pinned one stays as it is; offline nothing is fetched).
        let refresh = package.scope == Scope::Temporary
            && matches!(package.source, PackageSource::Git(_))
            && !package.source.is_pinned();
        if refresh && !offline && path.join(".git").exists() {
            progress(&package.entry.source);
            if let Err(e) = manager.update(&package.source, package.scope) {
                out.warnings.push(crate::t!(
                    "pi.error.pkg.warning",
                    source = package.entry.source.as_str(),
                    error = e.to_string()
                ));
            }
        }
        if !path.exists() && !local {
            if offline {
                out.warnings.push(crate::t!(
                    "pi.error.pkg.offline_not_installed",
                    source = package.entry.source.as_str()
                ));
                continue;
            }
            progress(&package.entry.source);
            let source = locks.install_source(package);
            if let Err(e) = manager.install(&source, package.scope) {
                out.warnings.push(crate::t!(
                    "pi.error.pkg.install_warning",
                    source = package.entry.source.as_str(),
                    error = e.to_string()
                ));
                continue;
            }
            locks.installed(package);
        }
        if !path.exists() {
            out.warnings.push(crate::t!(
                "pi.error.pkg.configured_path_missing",
                source = package.entry.source.as_str(),
                path = path.display().to_string()
            ));
            continue;
        }
        if let Err(mismatch) = locks.check(package, &path) {
            out.warnings.push(mismatch.to_string());
            continue;
        }
        out.add_package(&path, &package.entry, package.scope);
    }
    locks.finish();
    out
}
