//! The resources a package root provides: its `package.json` `pi` manifest (`extensions`,
//! `skills`, `prompts`, `themes` arrays of paths and patterns) or, without one, the
//! conventional folders; then narrowed by the settings entry's filters.
//!
//! Pattern rules (as settings resource arrays): plain entries and globs include (none →
//! everything), `!glob` excludes, `+path` force-includes and `-path` force-excludes an exact
//! path relative to the package root.

use std::path::{Path, PathBuf};

use globset::GlobBuilder;
use serde_json::Value;

use super::entries::ResourceKind;
use super::source::normalize;

/// The files of `kind` a package at `root` provides, narrowed by `filter` when given.
pub fn package_resources(
    root: &Path,
    kind: ResourceKind,
    filter: Option<&[String]>,
) -> Vec<PathBuf> {
    let provided = if root.is_file() {
        match kind {
            ResourceKind::Extensions => vec![root.to_path_buf()],
            _ => Vec::new(),
        }
    } else {
        match manifest_entries(root, kind) {
            Some(patterns) => select(root, kind, &patterns, &all_files(root, kind), false),
            None => conventional(root, kind),
        }
    };
    let mut files = match filter {
        Some(patterns) => select(root, kind, patterns, &provided, true),
        None => provided,
    };
    let mut seen = std::collections::HashSet::new();
    files.retain(|f| seen.insert(f.clone()));
    files
}

/// The `pi.<kind>` array of `root/package.json`, when the manifest has a `pi` key.
/// A manifest without this kind's key provides none of it.
fn manifest_entries(root: &Path, kind: ResourceKind) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(root.join("package.json")).ok()?;
    let json: Value = serde_json::from_str(&text).ok()?;
    let pi = json.get("pi")?.as_object()?;
    Some(
        pi.get(kind.key())
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default(),
    )
}

/// Conventional folders; a package with neither `extensions/` nor a manifest but an
/// `init.lua`/`index.lua` at its root is one extension.
fn conventional(root: &Path, kind: ResourceKind) -> Vec<PathBuf> {
    let dir = root.join(kind.key());
    if kind == ResourceKind::Extensions && !dir.is_dir() {
        return crate::lua::discovery::FOLDER_ENTRIES
            .iter()
            .map(|e| root.join(e))
            .filter(|p| p.is_file())
            .take(1)
            .collect();
    }
    in_path(&dir, kind)
}

/// The files of `kind` a path names: the file itself, or what the folder holds.
fn in_path(path: &Path, kind: ResourceKind) -> Vec<PathBuf> {
    if path.is_file() {
        return vec![path.to_path_buf()];
    }
    if !path.is_dir() {
        return Vec::new();
    }
    match kind {
        ResourceKind::Extensions => crate::lua::discovery::entries_for_path(path),
        ResourceKind::Skills => crate::resources::skills::skill_files(path, true),
        ResourceKind::Prompts => crate::resources::prompt_templates::md_files(path),
        ResourceKind::Themes => {
            let mut found: Vec<PathBuf> = std::fs::read_dir(path)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "json"))
                .collect();
            found.sort();
            found
        }
    }
}

/// Every candidate file of `kind` below `root` (for glob entries), skipping dot entries and
/// `node_modules`.
fn all_files(root: &Path, kind: ResourceKind) -> Vec<PathBuf> {
    let wanted = match kind {
        ResourceKind::Extensions => "lua",
        ResourceKind::Skills | ResourceKind::Prompts => "md",
        ResourceKind::Themes => "json",
    };
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.') || name == "node_modules" {
                continue;
            }
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == wanted) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn is_glob(pattern: &str) -> bool {
    pattern.contains(['*', '?', '['])
}

/// The relative forms a pattern may name a file by: its path, and for folder resources
/// (`SKILL.md`, `init.lua`, `index.lua`) the folder's path and name.
fn names_of(root: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(root).unwrap_or(file);
    let mut names = vec![rel.to_string_lossy().into_owned()];
    // As pi 0.73.1, a pattern may also name the file by its base name or its full path.
    names.extend(file.file_name().map(|n| n.to_string_lossy().into_owned()));
    names.push(file.to_string_lossy().into_owned());
    let folder_entry = file
        .file_name()
        .is_some_and(|n| n == "SKILL.md" || n == "init.lua" || n == "index.lua");
    if folder_entry && let Some(parent) = rel.parent() {
        names.push(parent.to_string_lossy().into_owned());
        if let Some(name) = parent.file_name() {
            names.push(name.to_string_lossy().into_owned());
        }
    }
    names
}

fn matches(pattern: &str, root: &Path, file: &Path) -> bool {
    let pattern = pattern
        .strip_prefix("./")
        .unwrap_or(pattern)
        .trim_end_matches('/');
    let names = names_of(root, file);
    if is_glob(pattern) {
        let Ok(glob) = GlobBuilder::new(pattern).literal_separator(true).build() else {
            return false;
        };
        let m = glob.compile_matcher();
        return names.iter().any(|n| m.is_match(n));
    }
    names
        .iter()
        .any(|n| n == pattern || n.starts_with(&format!("{pattern}/")))
}

/// Whether `file` is the entry file of the folder resource `folder` (`SKILL.md`, `init.lua`,
/// `index.lua`).
fn is_entry_of(file: &Path, folder: &Path) -> bool {
    file.parent() == Some(folder)
        && file
            .file_name()
            .is_some_and(|n| n == "SKILL.md" || n == "init.lua" || n == "index.lua")
}

fn exact(root: &Path, raw: &str) -> PathBuf {
    let path = crate::config::paths::expand_tilde(raw);
    normalize(&if path.is_absolute() {
        path
    } else {
        root.join(path)
    })
}

/// Apply `patterns` to `available` (the files allowed so far). Plain entries naming a file or
/// folder are looked up on disk; with `narrow` (settings filters) only files already in
/// `available` are kept, without it (a manifest) they may lie anywhere in the package.
fn select(
    root: &Path,
    kind: ResourceKind,
    patterns: &[String],
    available: &[PathBuf],
    narrow: bool,
) -> Vec<PathBuf> {
    if patterns.is_empty() {
        return Vec::new();
    }
    let includes: Vec<&String> = patterns
        .iter()
        .filter(|p| !p.starts_with(['!', '+', '-']))
        .collect();
    let mut chosen: Vec<PathBuf> = if includes.is_empty() {
        available.to_vec()
    } else {
        let mut out = Vec::new();
        for pattern in includes {
            let from_disk = if is_glob(pattern) {
                Vec::new()
            } else {
                in_path(&exact(root, pattern), kind)
            };
            if from_disk.is_empty() {
                out.extend(
                    available
                        .iter()
                        .filter(|f| matches(pattern, root, f))
                        .cloned(),
                );
            } else {
                out.extend(
                    from_disk
                        .into_iter()
                        .filter(|f| !narrow || available.contains(f)),
                );
            }
        }
        out
    };
    for pattern in patterns.iter().filter_map(|p| p.strip_prefix('!')) {
        chosen.retain(|f| !matches(pattern, root, f));
    }
    for raw in patterns.iter().filter_map(|p| p.strip_prefix('+')) {
        let path = exact(root, raw);
        if path.is_file() && !chosen.contains(&path) {
            chosen.push(path.clone());
        }
        // A folder resource (a skill's folder, a folder extension) is named by its folder.
        for file in available {
            if is_entry_of(file, &path) && !chosen.contains(file) {
                chosen.push(file.clone());
            }
        }
    }
    for raw in patterns.iter().filter_map(|p| p.strip_prefix('-')) {
        let path = exact(root, raw);
        chosen.retain(|f| *f != path && !is_entry_of(f, &path));
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(root: &Path, rel: &str) -> PathBuf {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, "x").unwrap();
        p
    }

    fn rels(root: &Path, files: &[PathBuf]) -> Vec<String> {
        files
            .iter()
            .map(|f| f.strip_prefix(root).unwrap().to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn conventional_folders_without_a_manifest() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        touch(root, "extensions/a.lua");
        touch(root, "extensions/b/init.lua");
        touch(root, "extensions/b/helper.lua");
        touch(root, "skills/review/SKILL.md");
        touch(root, "prompts/fix.md");
        touch(root, "themes/dusk.json");
        let get = |k| rels(root, &package_resources(root, k, None));
        assert_eq!(
            get(ResourceKind::Extensions),
            ["extensions/a.lua", "extensions/b/init.lua"]
        );
        assert_eq!(get(ResourceKind::Skills), ["skills/review/SKILL.md"]);
        assert_eq!(get(ResourceKind::Prompts), ["prompts/fix.md"]);
        assert_eq!(get(ResourceKind::Themes), ["themes/dusk.json"]);
    }

    #[test]
    fn manifest_entries_replace_the_conventions() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        touch(root, "extensions/ignored.lua");
        touch(root, "lua/one.lua");
        touch(root, "lua/two.lua");
        touch(root, "node_modules/dep/extensions/dep.lua");
        std::fs::write(
            root.join("package.json"),
            r#"{"pi": {"extensions": ["lua/*.lua", "!lua/two.lua", "node_modules/dep/extensions"]}}"#,
        )
        .unwrap();
        let found = package_resources(root, ResourceKind::Extensions, None);
        assert_eq!(
            rels(root, &found),
            ["lua/one.lua", "node_modules/dep/extensions/dep.lua"]
        );
        assert!(package_resources(root, ResourceKind::Skills, None).is_empty());
    }

    #[test]
    fn filters_narrow_exclude_and_force() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        touch(root, "extensions/a.lua");
        touch(root, "extensions/b.lua");
        touch(root, "skills/brave/SKILL.md");
        touch(root, "skills/other/SKILL.md");
        touch(root, "themes/legacy.json");
        let f = |k, p: &[&str]| {
            let p: Vec<String> = p.iter().map(|s| s.to_string()).collect();
            rels(root, &package_resources(root, k, Some(&p)))
        };
        assert_eq!(
            f(
                ResourceKind::Extensions,
                &["extensions/*.lua", "!extensions/b.lua"]
            ),
            ["extensions/a.lua"]
        );
        assert_eq!(
            f(ResourceKind::Extensions, &["-extensions/a.lua"]),
            ["extensions/b.lua"]
        );
        assert!(f(ResourceKind::Skills, &[]).is_empty());
        assert_eq!(
            f(ResourceKind::Skills, &["brave"]),
            ["skills/brave/SKILL.md"]
        );
        assert_eq!(
            f(ResourceKind::Themes, &["!**", "+themes/legacy.json"]),
            ["themes/legacy.json"]
        );
    }
}
