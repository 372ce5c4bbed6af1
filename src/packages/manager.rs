//! Installing, updating and removing packages on disk: npm packages through the npm command,
//! git packages as clones under `<agent>/git` or `.pi/git`, local paths left where they are.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::commands::{Npm, git, has_dependencies};
use super::entries::Scope;
use super::error::PackageError;
use super::source::{GitSource, PackageSource, resolve_local};

/// Installs packages for one agent folder and project.
#[derive(Debug, Clone)]
pub struct PackageManager {
    /// The agent folder (`~/.pi/agent`).
    pub agent_dir: PathBuf,
    /// The project folder.
    pub cwd: PathBuf,
    npm: Npm,
    /// `npm root -g`, asked once.
    global_root: std::sync::OnceLock<Result<String, PackageError>>,
}

impl PackageManager {
    /// A manager using `npm_command` (settings `npmCommand`) or `npm`.
    pub fn new(agent_dir: &Path, cwd: &Path, npm_command: Option<Vec<String>>) -> Self {
        PackageManager {
            agent_dir: agent_dir.to_path_buf(),
            cwd: cwd.to_path_buf(),
            npm: Npm::new(npm_command),
            global_root: std::sync::OnceLock::new(),
        }
    }

    /// Where a package of `scope` lives (for local sources: the path itself).
    pub fn installed_path(
        &self,
        source: &PackageSource,
        scope: Scope,
    ) -> Result<PathBuf, PackageError> {
        let base = scope.base_dir(&self.agent_dir, &self.cwd);
        match (source, scope) {
            (PackageSource::Local(raw), _) => Ok(resolve_local(raw, &base)),
            (PackageSource::Npm { name, .. }, Scope::Global) => {
                let root = self
                    .global_root
                    .get_or_init(|| self.npm.global_root())
                    .clone()?;
                Ok(PathBuf::from(root).join(name))
            }
            (PackageSource::Npm { name, .. }, Scope::Project) => {
                Ok(self.cwd.join(".pi/npm/node_modules").join(name))
            }
            (PackageSource::Git(g), Scope::Global) => {
                Ok(self.agent_dir.join("git").join(&g.host).join(&g.path))
            }
            (PackageSource::Git(g), Scope::Project) => {
                Ok(self.cwd.join(".pi/git").join(&g.host).join(&g.path))
            }
            (_, Scope::Temporary) => Ok(temporary_dir(source).join(match source {
                PackageSource::Npm { name, .. } => PathBuf::from("node_modules").join(name),
                _ => PathBuf::new(),
            })),
        }
    }

    /// Whether the package is present on disk.
    pub fn is_installed(&self, source: &PackageSource, scope: Scope) -> bool {
        self.installed_path(source, scope).is_ok_and(|p| p.exists())
    }

    /// Install (or for local paths: check) a package; returns where it lives.
    pub fn install(&self, source: &PackageSource, scope: Scope) -> Result<PathBuf, PackageError> {
        let path = self.installed_path(source, scope)?;
        match source {
            PackageSource::Local(raw) => {
                if !path.exists() {
                    return Err(PackageError::MissingPath {
                        raw: raw.clone(),
                        path,
                    });
                }
            }
            PackageSource::Npm { name, version } => {
                let spec = match version {
                    Some(v) => format!("{name}@{v}"),
                    None => name.clone(),
                };
                self.npm_install(&spec, scope)?;
                if !path.exists() {
                    return Err(PackageError::MissingAfterInstall { path });
                }
            }
            PackageSource::Git(g) => self.git_install(g, &path, scope)?,
        }
        Ok(path)
    }

    /// Remove the installed files of a package (local paths are never deleted).
    pub fn uninstall(&self, source: &PackageSource, scope: Scope) -> Result<(), PackageError> {
        match source {
            PackageSource::Local(_) => Ok(()),
            PackageSource::Npm { name, .. } => {
                if !self.is_installed(source, scope) {
                    return Ok(());
                }
                match scope {
                    Scope::Global => self.npm.run(&["uninstall", "-g", name], None),
                    _ => {
                        let prefix = self.npm_prefix(scope);
                        let prefix = prefix.to_string_lossy();
                        self.npm
                            .run(&["uninstall", name, "--prefix", &prefix], None)
                    }
                }
                .map(|_| ())
            }
            PackageSource::Git(_) => {
                let path = self.installed_path(source, scope)?;
                match std::fs::remove_dir_all(&path) {
                    Ok(()) => Ok(()),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
                    Err(e) => Err(PackageError::CannotRemove {
                        reason: crate::i18n::config_words::io_reason(&e),
                        path,
                    }),
                }
            }
        }
    }

    /// Bring an unpinned package up to date (pinned ones and local paths are left alone);
    /// returns whether anything was done.
    pub fn update(&self, source: &PackageSource, scope: Scope) -> Result<bool, PackageError> {
        if source.is_pinned() {
            return Ok(false);
        }
        match source {
            PackageSource::Local(_) => Ok(false),
            PackageSource::Npm { name, .. } => {
                self.npm_install(&format!("{name}@latest"), scope)?;
                Ok(true)
            }
            PackageSource::Git(g) => {
                let path = self.installed_path(source, scope)?;
                if !path.join(".git").exists() {
                    self.git_install(g, &path, scope)?;
                    return Ok(true);
                }
                git(&["fetch", "--prune", "origin"], Some(&path))?;
                if git(&["reset", "--hard", "@{upstream}"], Some(&path)).is_err() {
                    git(&["reset", "--hard", "origin/HEAD"], Some(&path))?;
                }
                git(&["clean", "-fdx"], Some(&path))?;
                if has_dependencies(&path) {
                    self.npm.install_dependencies(&path)?;
                }
                Ok(true)
            }
        }
    }

    fn npm_prefix(&self, scope: Scope) -> PathBuf {
        match scope {
            Scope::Temporary => std::env::temp_dir().join("pi-extensions/npm"),
            _ => self.cwd.join(".pi/npm"),
        }
    }

    fn npm_install(&self, spec: &str, scope: Scope) -> Result<(), PackageError> {
        if scope == Scope::Global {
            return self.npm.install(&["-g", spec], None).map(|_| ());
        }
        let prefix = match scope {
            Scope::Temporary => temporary_dir(&PackageSource::parse(&format!("npm:{spec}"))?),
            _ => self.npm_prefix(scope),
        };
        std::fs::create_dir_all(&prefix).map_err(|e| cannot_create(&prefix, &e))?;
        if scope == Scope::Project {
            ignore_everything(&prefix)?;
            let manifest = prefix.join("package.json");
            if !manifest.exists() {
                let text = "{\n  \"name\": \"pi-extensions\",\n  \"private\": true\n}\n";
                std::fs::write(&manifest, text).map_err(|e| cannot_write(&manifest, &e))?;
            }
        }
        let prefix = prefix.to_string_lossy();
        self.npm
            .install(&[spec, "--prefix", &prefix], None)
            .map(|_| ())
    }

    fn git_install(&self, g: &GitSource, path: &Path, scope: Scope) -> Result<(), PackageError> {
        if path.join(".git").exists() {
            if let Some(r) = &g.git_ref {
                git(&["checkout", "--quiet", r], Some(path))?;
            }
            return Ok(());
        }
        let root = match scope {
            Scope::Global => Some(self.agent_dir.join("git")),
            Scope::Project => Some(self.cwd.join(".pi/git")),
            Scope::Temporary => None,
        };
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| cannot_create(parent, &e))?;
        }
        if let Some(root) = root {
            ignore_everything(&root)?;
        }
        let target = path.to_string_lossy();
        git(&["clone", "--quiet", &g.url, &target], None)?;
        if let Some(r) = &g.git_ref
            && let Err(e) = git(&["checkout", "--quiet", r], Some(path))
        {
            let _ = std::fs::remove_dir_all(path);
            return Err(PackageError::RefNotFound {
                git_ref: r.clone(),
                url: g.url.clone(),
                cause: Box::new(e),
            });
        }
        if has_dependencies(path) {
            self.npm.install_dependencies(path)?;
        }
        Ok(())
    }
}

/// A `.gitignore` ignoring everything in an install root, so clones never get committed.
fn ignore_everything(root: &Path) -> Result<(), PackageError> {
    std::fs::create_dir_all(root).map_err(|e| cannot_create(root, &e))?;
    let file = root.join(".gitignore");
    if file.exists() {
        return Ok(());
    }
    std::fs::write(&file, "*\n").map_err(|e| cannot_write(&file, &e))
}

fn cannot_create(path: &Path, e: &std::io::Error) -> PackageError {
    PackageError::CannotCreate {
        path: path.to_path_buf(),
        reason: crate::i18n::config_words::io_reason(e),
    }
}

fn cannot_write(path: &Path, e: &std::io::Error) -> PackageError {
    PackageError::CannotWrite {
        path: path.to_path_buf(),
        reason: crate::i18n::config_words::io_reason(e),
    }
}

/// `$TMPDIR/pi-extensions/<npm|git-host>/<first 8 hex of sha256(source)>` for `-e` sources.
fn temporary_dir(source: &PackageSource) -> PathBuf {
    let (kind, key) = match source {
        PackageSource::Npm { name, version } => (
            "npm".to_string(),
            format!("{name}@{}", version.as_deref().unwrap_or("")),
        ),
        PackageSource::Git(g) => (
            format!("git-{}", g.host),
            format!("{}@{}", g.url, g.git_ref.as_deref().unwrap_or("")),
        ),
        PackageSource::Local(raw) => ("local".to_string(), raw.clone()),
    };
    let digest = Sha256::digest(key.as_bytes());
    let hash: String = digest.iter().take(4).map(|b| format!("{b:02x}")).collect();
    std::env::temp_dir()
        .join("pi-extensions")
        .join(kind)
        .join(hash)
}
