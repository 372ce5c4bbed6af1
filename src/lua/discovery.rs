//! Where extensions come from: the global and project `extensions` folders,
//! settings `extensions` entries (files, folders, globs, `!` excludes) and
//! `-e/--extension` paths.

use std::path::{Path, PathBuf};

use globset::{Glob, GlobSetBuilder};

/// Inputs of extension discovery.
#[derive(Debug, Clone, Default)]
pub struct DiscoveryInput {
    /// `~/.pi/agent`.
    pub agent_dir: PathBuf,
    /// Project working directory.
    pub cwd: PathBuf,
    /// Settings `extensions` entries.
    pub settings_paths: Vec<String>,
    /// `-e/--extension` paths.
    pub cli_paths: Vec<String>,
    /// `--no-extensions`: skip folders and settings (CLI paths still load).
    pub no_extensions: bool,
    /// Load `<cwd>/.pi/extensions` (false while the project is not trusted).
    pub include_project: bool,
    /// The override entries (`!glob`, `+path`, `-path`) of each settings file's
    /// `extensions` array, with the folder of that file: they switch off (and back on) the
    /// files found below that folder, as pi 0.73.1 applies them.
    pub overrides: Vec<(PathBuf, Vec<String>)>,
}

/// File names that make a folder an extension: its entry file.
pub const FOLDER_ENTRIES: [&str; 2] = ["init.lua", "index.lua"];

/// Whether `path` is the entry file of a folder extension (`<folder>/init.lua` or
/// `<folder>/index.lua`).
pub fn is_folder_entry(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|f| FOLDER_ENTRIES.iter().any(|e| f == *e))
}

/// The entry file of the folder extension `dir`, if it has one.
fn folder_entry(dir: &Path) -> Option<PathBuf> {
    FOLDER_ENTRIES
        .iter()
        .map(|e| dir.join(e))
        .find(|p| p.is_file())
}

/// The entry files of the folder extension `dir`: the existing files its `package.json`
/// names in `pi.extensions` (as pi 0.73.1 reads a folder's manifest first), else its
/// `init.lua`/`index.lua`; empty when it has neither (a folder of helper files).
fn folder_entries(dir: &Path) -> Vec<PathBuf> {
    let manifest = std::fs::read_to_string(dir.join("package.json"))
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok());
    let listed: Vec<PathBuf> = manifest
        .as_ref()
        .and_then(|m| m.pointer("/pi/extensions"))
        .and_then(serde_json::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(serde_json::Value::as_str)
        .map(|rel| dir.join(rel.strip_prefix("./").unwrap_or(rel)))
        .filter(|p| p.is_file())
        .collect();
    if !listed.is_empty() {
        return listed;
    }
    folder_entry(dir).into_iter().collect()
}

/// Where an extension file came from, by its place on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ExtensionSource {
    /// The agent folder (`~/.pi/agent/extensions`) or the user's settings.
    User,
    /// The project's `.pi` folder.
    Project,
    /// An installed package (npm or git).
    Package,
    /// Anywhere else: `-e PATH` or a path in settings.
    Path,
    /// Shipped in the binary and named by `-e NAME` or settings (`mcp`, `background`).
    Bundled,
}

/// The source of the extension at `path`, given the agent folder and the working folder.
pub fn source_of(path: &Path, agent_dir: &Path, cwd: &Path) -> ExtensionSource {
    let packaged = path.components().any(|c| c.as_os_str() == "node_modules")
        || path.starts_with(agent_dir.join("git"))
        || path.starts_with(cwd.join(".pi/git"));
    let bundled = !agent_dir.as_os_str().is_empty()
        && path.starts_with(crate::config::bundled_docs::docs_dir(agent_dir).join("extensions"));
    if packaged {
        ExtensionSource::Package
    } else if bundled {
        ExtensionSource::Bundled
    } else if path.starts_with(cwd.join(".pi")) {
        ExtensionSource::Project
    } else if !agent_dir.as_os_str().is_empty() && path.starts_with(agent_dir) {
        ExtensionSource::User
    } else {
        ExtensionSource::Path
    }
}

/// The extension entry files of a folder: `*.lua`, `*/init.lua` and `*/index.lua`, sorted;
/// `pi test` files (`*_test.lua`) are not extensions.
pub fn extensions_in_dir(dir: &Path) -> Vec<PathBuf> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = read
        .filter_map(Result::ok)
        .map(|e| e.path())
        .flat_map(|p| {
            if p.is_dir() {
                folder_entries(&p)
            } else if p.extension().is_some_and(|e| e == "lua") {
                vec![p]
            } else {
                Vec::new()
            }
        })
        .filter(|p| !p.to_string_lossy().ends_with("_test.lua"))
        .collect();
    found.sort();
    found
}

fn expand_home(raw: &str) -> PathBuf {
    match raw.strip_prefix("~/") {
        Some(rest) => dirs::home_dir().unwrap_or_default().join(rest),
        None => PathBuf::from(raw),
    }
}

fn resolve(base: &Path, raw: &str) -> PathBuf {
    let p = expand_home(raw);
    if p.is_absolute() { p } else { base.join(p) }
}

/// [`resolve`], where the bare name of an extension shipped with pi (`mcp`,
/// `background`) that names no file or folder here is that extension.
fn resolve_entry(input: &DiscoveryInput, raw: &str) -> PathBuf {
    let path = resolve(&input.cwd, raw);
    if path.exists() {
        return path;
    }
    crate::config::bundled_docs::bundled_extension(&input.agent_dir, raw).unwrap_or(path)
}

/// Entry files for one explicit path: a file, or a folder (its `init.lua`, or
/// every extension inside it).
pub fn entries_for_path(path: &Path) -> Vec<PathBuf> {
    if path.is_dir() {
        let entries = folder_entries(path);
        if !entries.is_empty() {
            return entries;
        }
        return extensions_in_dir(path);
    }
    vec![path.to_path_buf()]
}

fn settings_entries(input: &DiscoveryInput) -> Vec<PathBuf> {
    let mut includes = Vec::new();
    let mut excludes = GlobSetBuilder::new();
    for raw in &input.settings_paths {
        if raw.starts_with(['+', '-']) {
            // Force-includes and force-excludes name files found otherwise.
            continue;
        }
        if let Some(pattern) = raw.strip_prefix('!') {
            let full = resolve(&input.cwd, pattern);
            if let Ok(g) = Glob::new(&full.to_string_lossy()) {
                excludes.add(g);
            }
            continue;
        }
        let looks_like_glob = raw.contains(['*', '?', '[']);
        if !looks_like_glob {
            includes.extend(entries_for_path(&resolve_entry(input, raw)));
            continue;
        }
        let full = resolve(&input.cwd, raw);
        let Ok(glob) = Glob::new(&full.to_string_lossy()) else {
            eprintln!("Warning: invalid extension pattern \"{raw}\"");
            continue;
        };
        let matcher = glob.compile_matcher();
        let root = glob_root(&full);
        for entry in walk_files(&root) {
            if matcher.is_match(&entry) {
                includes.push(entry);
            }
        }
    }
    let excludes = excludes
        .build()
        .unwrap_or_else(|_| globset::GlobSet::empty());
    // Files below a settings file's folder are filtered by its overrides instead, where a
    // `+path` may bring back what a `!glob` left out.
    includes.retain(|p| under_overrides(input, p) || !excludes.is_match(p));
    includes
}

fn under_overrides(input: &DiscoveryInput, path: &Path) -> bool {
    input
        .overrides
        .iter()
        .any(|(base, _)| path.starts_with(base))
}

/// Whether the overrides of every settings file whose folder holds `path` leave it on.
fn enabled_by_overrides(input: &DiscoveryInput, path: &Path) -> bool {
    input.overrides.iter().all(|(base, entries)| {
        !path.starts_with(base) || crate::resources::overrides::enabled(path, entries, base)
    })
}

/// The longest leading part of a glob path without wildcards.
fn glob_root(pattern: &Path) -> PathBuf {
    let mut root = PathBuf::new();
    for part in pattern.components() {
        if part.as_os_str().to_string_lossy().contains(['*', '?', '[']) {
            break;
        }
        root.push(part);
    }
    root
}

fn walk_files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(read) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in read.filter_map(Result::ok) {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The folders whose `*.lua` files and `*/init.lua` folders are extensions: the global one
/// and, when the project is included, the project's (whether or not they exist yet).
pub fn extension_folders(input: &DiscoveryInput) -> Vec<PathBuf> {
    let mut folders = Vec::new();
    if !input.no_extensions {
        folders.push(input.agent_dir.join("extensions"));
        if input.include_project {
            folders.push(input.cwd.join(".pi").join("extensions"));
        }
    }
    folders
}

/// Every extension entry file to load, in load order, without duplicates:
/// global folder, project folder, settings entries, then CLI paths.
pub fn discover_extensions(input: &DiscoveryInput) -> Vec<PathBuf> {
    let mut all = Vec::new();
    for folder in extension_folders(input) {
        all.extend(extensions_in_dir(&folder));
    }
    if !input.no_extensions {
        all.extend(settings_entries(input));
    }
    all.retain(|p| enabled_by_overrides(input, p));
    for raw in &input.cli_paths {
        all.extend(entries_for_path(&resolve_entry(input, raw)));
    }
    let mut seen = std::collections::HashSet::new();
    let mut dirs = std::collections::HashMap::new();
    all.retain(|p| seen.insert(real_path(p, &mut dirs)));
    all
}

/// The real path of `path`, resolving each folder once: a file that is not a link is its
/// folder's real path plus its name (many entries share a folder).
fn real_path(path: &Path, dirs: &mut std::collections::HashMap<PathBuf, PathBuf>) -> PathBuf {
    let plain = std::fs::symlink_metadata(path).is_ok_and(|m| !m.file_type().is_symlink());
    match (plain, path.parent(), path.file_name()) {
        (true, Some(dir), Some(name)) => dirs
            .entry(dir.to_path_buf())
            .or_insert_with(|| std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf()))
            .join(name),
        _ => std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(p: &Path) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, "return function(pi) end").unwrap();
    }

    #[test]
    fn finds_files_folders_settings_and_cli_paths() {
        let tmp = tempfile::tempdir().unwrap();
        let agent = tmp.path().join("agent");
        let cwd = tmp.path().join("proj");
        touch(&agent.join("extensions/a.lua"));
        touch(&agent.join("extensions/b/init.lua"));
        touch(&agent.join("extensions/c/helper.lua"));
        touch(&cwd.join(".pi/extensions/p.lua"));
        touch(&cwd.join("more/x.lua"));
        touch(&cwd.join("more/y.lua"));
        touch(&cwd.join("cli.lua"));
        let input = DiscoveryInput {
            agent_dir: agent.clone(),
            cwd: cwd.clone(),
            settings_paths: vec!["more/*.lua".into(), "!**/y.lua".into()],
            cli_paths: vec!["cli.lua".into(), "cli.lua".into()],
            no_extensions: false,
            include_project: true,
            overrides: Vec::new(),
        };
        let found = discover_extensions(&input);
        assert_eq!(
            found,
            vec![
                agent.join("extensions/a.lua"),
                agent.join("extensions/b/init.lua"),
                cwd.join(".pi/extensions/p.lua"),
                cwd.join("more/x.lua"),
                cwd.join("cli.lua"),
            ]
        );
        let untrusted = discover_extensions(&DiscoveryInput {
            include_project: false,
            ..input.clone()
        });
        assert!(!untrusted.contains(&cwd.join(".pi/extensions/p.lua")));
        assert_eq!(untrusted.len(), 4);
        let only_cli = discover_extensions(&DiscoveryInput {
            no_extensions: true,
            ..input
        });
        assert_eq!(only_cli, vec![cwd.join("cli.lua")]);
    }

    #[test]
    fn the_source_of_an_extension_follows_its_place_on_disk() {
        let agent = Path::new("/home/u/.pi/agent");
        let cwd = Path::new("/work/proj");
        let of = |p: &str| source_of(Path::new(p), agent, cwd);
        assert_eq!(
            of("/home/u/.pi/agent/extensions/a.lua"),
            ExtensionSource::User
        );
        assert_eq!(
            of("/work/proj/.pi/extensions/b.lua"),
            ExtensionSource::Project
        );
        let shipped = crate::config::bundled_docs::docs_dir(agent).join("extensions/mcp/index.lua");
        assert_eq!(source_of(&shipped, agent, cwd), ExtensionSource::Bundled);
        assert_eq!(
            of("/home/u/.pi/agent/git/github.com/x/y/ext.lua"),
            ExtensionSource::Package
        );
        assert_eq!(
            of("/work/proj/.pi/npm/node_modules/pkg/ext.lua"),
            ExtensionSource::Package
        );
        assert_eq!(of("/tmp/given-with-e.lua"), ExtensionSource::Path);
    }

    #[cfg(unix)]
    #[test]
    fn a_file_reached_twice_through_links_is_loaded_once() {
        let tmp = tempfile::tempdir().unwrap();
        let agent = tmp.path().join("agent");
        let cwd = tmp.path().join("proj");
        touch(&agent.join("extensions/a.lua"));
        touch(&cwd.join("other.lua"));
        std::os::unix::fs::symlink(agent.join("extensions"), tmp.path().join("linked")).unwrap();
        std::os::unix::fs::symlink(agent.join("extensions/a.lua"), cwd.join("a-link.lua")).unwrap();
        let input = DiscoveryInput {
            agent_dir: agent.clone(),
            cwd: cwd.clone(),
            settings_paths: Vec::new(),
            cli_paths: vec![
                tmp.path().join("linked/a.lua").display().to_string(),
                "a-link.lua".into(),
                "other.lua".into(),
            ],
            no_extensions: false,
            include_project: true,
            overrides: Vec::new(),
        };
        assert_eq!(
            discover_extensions(&input),
            vec![agent.join("extensions/a.lua"), cwd.join("other.lua")]
        );
    }
}
