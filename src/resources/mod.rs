//! Resources loaded from disk besides extensions: skills and prompt templates (and their
//! frontmatter format).

pub mod frontmatter;
pub mod overrides;
pub mod prompt_templates;
pub mod skills;

use std::path::{Path, PathBuf};

/// The files a settings or command-line entry names: `raw` (with `~` expanded, relative to
/// `base`) itself when it is a file, else what `in_folder` finds in it.
fn entry_files(base: &Path, raw: &str, in_folder: impl Fn(&Path) -> Vec<PathBuf>) -> Vec<PathBuf> {
    let path = entry_path(base, raw);
    if path.is_file() {
        vec![path]
    } else {
        in_folder(&path)
    }
}

/// A settings or command-line entry as a path: `~` expanded, relative to `base`.
fn entry_path(base: &Path, raw: &str) -> PathBuf {
    let path = crate::config::paths::expand_tilde(raw);
    if path.is_absolute() {
        path
    } else {
        base.join(path)
    }
}

/// Where a resource came from, as pi reports it (`sourceInfo` in RPC `get_commands`).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct SourceInfo {
    /// The resource file.
    pub path: PathBuf,
    /// `auto` (discovered), `local` (named in settings), `cli`, or the package source.
    pub source: String,
    /// `user`, `project` or `temporary`.
    pub scope: String,
    /// `top-level` or `package`.
    pub origin: String,
    /// The folder the source is relative to (`~/.pi/agent`, `<project>/.pi`, a package).
    #[serde(rename = "baseDir", skip_serializing_if = "Option::is_none")]
    pub base_dir: Option<PathBuf>,
}

impl SourceInfo {
    /// A resource of `scope` found on its own in `base_dir` (`auto`) or named in the settings
    /// file there (`local`).
    pub fn top_level(path: &Path, source: &str, scope: &str, base_dir: Option<&Path>) -> Self {
        SourceInfo {
            path: path.to_path_buf(),
            source: source.into(),
            scope: scope.into(),
            origin: "top-level".into(),
            base_dir: base_dir.map(Path::to_path_buf),
        }
    }

    /// A resource an extension's `resources_discover` handler returned: `extension:<name>`,
    /// temporary, relative to the extension's folder (as pi 0.73.1 reports it).
    pub fn extension(path: &Path, name: &str, extension_file: &Path) -> Self {
        SourceInfo::top_level(
            path,
            &format!("extension:{name}"),
            "temporary",
            extension_file.parent(),
        )
    }

    /// A resource named on the command line.
    pub fn cli(path: &Path) -> Self {
        SourceInfo::top_level(path, "cli", "temporary", None)
    }

    /// Which of pi's folders `path` was discovered in: `~/.pi/agent` (user) or
    /// `<project>/.pi` (project); else a command-line resource.
    pub fn discovered(path: &Path, agent_dir: &Path, project: Option<&Path>) -> Self {
        if let Some(pi_dir) = project.map(|p| p.join(".pi"))
            && path.starts_with(&pi_dir)
        {
            return SourceInfo::top_level(path, "auto", "project", Some(&pi_dir));
        }
        if path.starts_with(agent_dir) {
            return SourceInfo::top_level(path, "auto", "user", Some(agent_dir));
        }
        SourceInfo::cli(path)
    }

    /// The precedence of a resource with this origin when two share a name: project
    /// settings, project folder, user settings, user folder, packages, command line.
    pub fn rank(&self) -> u8 {
        match (
            self.origin.as_str(),
            self.scope.as_str(),
            self.source.as_str(),
        ) {
            ("package", ..) => 4,
            (_, "temporary", _) => 5,
            (_, scope, source) => {
                (if scope == "project" { 0 } else { 2 }) + u8::from(source != "local")
            }
        }
    }
}

/// Each of `found` with `info` (its path set to the file).
fn tag_files(found: Vec<PathBuf>, info: &SourceInfo) -> Vec<(PathBuf, SourceInfo)> {
    found
        .into_iter()
        .map(|f| {
            let mut info = info.clone();
            info.path = f.clone();
            (f, info)
        })
        .collect()
}

/// A settings entry or a packaged file, with where it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// The path (absolute for settings entries; `!pattern` excludes are skipped here).
    pub entry: String,
    /// The origin given to what it names (its `path` is replaced per file).
    pub info: SourceInfo,
}

/// Listed entries for the settings array `key` (project first), as `local` sources.
pub fn listed_from_settings(
    settings: &crate::config::settings::Settings,
    key: &str,
) -> Vec<Listed> {
    settings
        .listed_entries(key)
        .into_iter()
        .map(|e| Listed {
            info: SourceInfo::top_level(
                Path::new(""),
                "local",
                if e.project { "project" } else { "user" },
                e.base_dir.as_deref(),
            ),
            entry: e.entry,
        })
        .collect()
}

/// The package a resource file belongs to, as pi reports it in `sourceInfo`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageOrigin {
    /// The package source as configured (`npm:name`, `git:...`, `./path`).
    pub source: String,
    /// `user`, `project` or `temporary`.
    pub scope: &'static str,
    /// The package's installed folder.
    pub root: PathBuf,
}

/// Packaged files as listed entries: each reports its package's source and scope (pi's
/// `sourceInfo` for package resources), relative to the package's folder.
pub fn listed_from_packages(
    files: &[PathBuf],
    origins: &std::collections::BTreeMap<PathBuf, PackageOrigin>,
) -> Vec<Listed> {
    files
        .iter()
        .map(|f| {
            let origin = origins.get(f);
            Listed {
                entry: f.to_string_lossy().into_owned(),
                info: SourceInfo {
                    path: PathBuf::new(),
                    source: origin.map_or_else(|| "package".into(), |o| o.source.clone()),
                    scope: origin.map_or("user", |o| o.scope).into(),
                    origin: "package".into(),
                    base_dir: origin
                        .map(|o| o.root.clone())
                        .or_else(|| f.parent().map(Path::to_path_buf)),
                },
            }
        })
        .collect()
}
