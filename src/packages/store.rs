//! The locked store: recording in `packages.lock` what an install or update put on disk,
//! restoring exactly the locked set, and checking a package against its lock before its
//! resources load.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::commands::git;
use super::entries::{Scope, ScopedPackage};
use super::error::PackageError;
use super::lock::{Lock, LockEntry, Mismatch, StatCache, lock_path, snapshot, verify};
use super::manager::PackageManager;
use super::ops::{add_to_settings, scope_packages};
use super::source::PackageSource;
use crate::i18n::config_words::io_reason;
use crate::t;

/// What `source` is now on disk: kind, npm version or git revision, and every file's hash.
pub fn describe(
    manager: &PackageManager,
    source: &PackageSource,
    scope: Scope,
    cache: &mut StatCache,
) -> Result<LockEntry, PackageError> {
    let path = manager.installed_path(source, scope)?;
    let mut entry = LockEntry::default();
    match source {
        PackageSource::Local(_) => {
            entry.kind = "local".into();
            return Ok(entry);
        }
        PackageSource::Npm { .. } => {
            entry.kind = "npm".into();
            entry.version = std::fs::read_to_string(path.join("package.json"))
                .ok()
                .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
                .and_then(|v| v.get("version")?.as_str().map(str::to_string));
        }
        PackageSource::Git(_) => {
            entry.kind = "git".into();
            entry.revision = Some(git(&["rev-parse", "HEAD"], Some(&path))?);
        }
    }
    entry.files = snapshot(&path, cache).map_err(|e| PackageError::CannotRead {
        reason: io_reason(&e),
        path,
    })?;
    Ok(entry)
}

/// Record the installed state of `stored` (the source as written in settings) in `scope`'s
/// lock. Temporary packages are never locked.
pub fn record(manager: &PackageManager, scope: Scope, stored: &str) -> Result<(), PackageError> {
    let Some(file) = lock_path(scope, &manager.agent_dir, &manager.cwd) else {
        return Ok(());
    };
    let source = PackageSource::parse(stored)?;
    let mut cache = StatCache::open(&manager.agent_dir);
    let entry = describe(manager, &source, scope, &mut cache)?;
    let mut lock = Lock::load(&file)?;
    lock.packages.insert(stored.to_string(), entry);
    lock.save(&file)?;
    cache.save();
    Ok(())
}

/// Drop every entry of `scope`'s lock whose source has `identity`.
pub fn forget(manager: &PackageManager, scope: Scope, identity: &str) -> Result<(), PackageError> {
    let Some(file) = lock_path(scope, &manager.agent_dir, &manager.cwd) else {
        return Ok(());
    };
    let base = scope.base_dir(&manager.agent_dir, &manager.cwd);
    let mut lock = Lock::load(&file)?;
    let before = lock.packages.len();
    lock.packages.retain(|source, _| {
        PackageSource::parse(source).map_or(true, |s| s.identity(&base) != identity)
    });
    if lock.packages.len() != before {
        lock.save(&file)?;
    }
    Ok(())
}

/// `source` pinned to what its lock entry recorded (npm version, git revision).
fn pinned(source: &PackageSource, entry: &LockEntry) -> PackageSource {
    match source {
        PackageSource::Npm { name, version } => PackageSource::Npm {
            name: name.clone(),
            version: entry.version.clone().or_else(|| version.clone()),
        },
        PackageSource::Git(g) => {
            let mut g = g.clone();
            g.git_ref = entry.revision.clone().or(g.git_ref);
            PackageSource::Git(g)
        }
        local => local.clone(),
    }
}

/// `scope`'s lock file as text, for messages.
pub fn lock_file(scope: Scope, agent_dir: &Path, cwd: &Path) -> String {
    lock_path(scope, agent_dir, cwd).map_or_else(String::new, |p| p.display().to_string())
}

/// The command that restores `scope`'s lock.
pub fn restore_command(scope: Scope) -> &'static str {
    match scope {
        Scope::Project => "pi install -l",
        _ => "pi install",
    }
}

/// The message for a package whose files no longer match the lock.
pub fn mismatch_message(source: &str, scope: Scope, lock: &Path, mismatch: &Mismatch) -> String {
    let problem = match mismatch {
        Mismatch::Changed(_) => t!("pi.pkg.lock_changed"),
        Mismatch::Missing(_) => t!("pi.pkg.lock_missing"),
        Mismatch::Added(_) => t!("pi.pkg.lock_added"),
        Mismatch::Unreadable(_) => t!("pi.pkg.lock_unreadable"),
    };
    t!(
        "pi.pkg.lock_mismatch",
        source = source,
        file = mismatch.file(),
        problem = problem,
        lock = lock.display().to_string(),
        restore = restore_command(scope)
    )
}

/// How one locked package was restored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Restored {
    /// Its files already matched the lock.
    UpToDate(String),
    /// It was installed again at the locked version or revision.
    Installed(String),
}

/// Install exactly what `scope`'s lock lists: each package whose files do not match is
/// removed and installed again at the locked version or revision, then checked file by
/// file; packages missing from the settings are added back. `progress` hears each install.
pub fn restore(
    manager: &PackageManager,
    scope: Scope,
    progress: &dyn Fn(&str),
) -> Result<Vec<Restored>, PackageError> {
    let (agent, cwd) = (&manager.agent_dir, &manager.cwd);
    let Some(file) = lock_path(scope, agent, cwd) else {
        return Ok(Vec::new());
    };
    let lock = Lock::load(&file)?;
    let base = scope.base_dir(agent, cwd);
    let configured: Vec<String> = scope_packages(agent, cwd, scope)?
        .iter()
        .map(ScopedPackage::identity)
        .collect();
    let mut cache = StatCache::open(agent);
    let mut out = Vec::new();
    for (stored, entry) in &lock.packages {
        let source = PackageSource::parse(stored)?;
        let path = manager.installed_path(&source, scope)?;
        let local = matches!(source, PackageSource::Local(_));
        let intact = local || (path.exists() && verify(&path, &entry.files, &mut cache).is_ok());
        if intact {
            out.push(Restored::UpToDate(stored.clone()));
        } else {
            progress(stored);
            manager.uninstall(&source, scope)?;
            cache.forget_under(&path);
            manager
                .install(&pinned(&source, entry), scope)
                .map_err(|e| PackageError::InstallFailed {
                    source: stored.clone(),
                    cause: Box::new(e),
                })?;
            if let Err(m) = verify(&path, &entry.files, &mut cache) {
                return Err(PackageError::RestoreDiffers {
                    source: stored.clone(),
                    file: m.file().to_string(),
                });
            }
            out.push(Restored::Installed(stored.clone()));
        }
        if !configured.contains(&source.identity(&base)) {
            add_to_settings(agent, cwd, scope, stored)?;
        }
    }
    cache.save();
    Ok(out)
}

/// Start-up's view of the locks: loaded once per scope, with the file cache shared, and
/// saved at the end only when an install at start-up added an entry.
pub struct LockCheck<'a> {
    manager: &'a PackageManager,
    locks: BTreeMap<&'static str, (PathBuf, Lock, bool)>,
    cache: Option<StatCache>,
}

impl<'a> LockCheck<'a> {
    /// Checks for `manager`'s agent folder and project.
    pub fn new(manager: &'a PackageManager) -> LockCheck<'a> {
        LockCheck {
            manager,
            locks: BTreeMap::new(),
            cache: None,
        }
    }

    fn lock(&mut self, scope: Scope) -> Option<&mut (PathBuf, Lock, bool)> {
        let key = match scope {
            Scope::Global => "global",
            Scope::Project => "project",
            Scope::Temporary => return None,
        };
        if !self.locks.contains_key(key) {
            let path = lock_path(scope, &self.manager.agent_dir, &self.manager.cwd)?;
            let lock = Lock::load(&path).unwrap_or_default();
            self.locks.insert(key, (path, lock, false));
        }
        self.locks.get_mut(key)
    }

    fn cache(&mut self) -> &mut StatCache {
        let agent = &self.manager.agent_dir;
        self.cache.get_or_insert_with(|| StatCache::open(agent))
    }

    /// The source to install for a configured package missing from disk: pinned to its
    /// lock entry when there is one.
    pub fn install_source(&mut self, package: &ScopedPackage) -> PackageSource {
        match self
            .lock(package.scope)
            .and_then(|(_, lock, _)| lock.packages.get(&package.entry.source))
        {
            Some(entry) => pinned(&package.source, entry),
            None => package.source.clone(),
        }
    }

    /// After a start-up install: lock what was installed when the lock had no entry yet.
    pub fn installed(&mut self, package: &ScopedPackage) {
        let known = self
            .lock(package.scope)
            .is_some_and(|(_, lock, _)| lock.packages.contains_key(&package.entry.source));
        if known {
            return;
        }
        let manager = self.manager;
        let Ok(entry) = describe(manager, &package.source, package.scope, self.cache()) else {
            return;
        };
        if let Some((_, lock, changed)) = self.lock(package.scope) {
            lock.packages.insert(package.entry.source.clone(), entry);
            *changed = true;
        }
    }

    /// Whether the package installed at `path` matches its lock entry; the error names
    /// the package, the file and the lock. Packages without an entry (and local paths)
    /// pass.
    pub fn check(&mut self, package: &ScopedPackage, path: &Path) -> Result<(), PackageError> {
        let Some((file, lock, _)) = self.lock(package.scope) else {
            return Ok(());
        };
        let Some(entry) = lock.packages.get(&package.entry.source) else {
            return Ok(());
        };
        if entry.kind == "local" {
            return Ok(());
        }
        let (file, files) = (file.clone(), entry.files.clone());
        verify(path, &files, self.cache()).map_err(|mismatch| PackageError::LockMismatch {
            source: package.entry.source.clone(),
            scope: package.scope,
            lock: file,
            mismatch,
        })
    }

    /// Save locks that gained entries and the file cache.
    pub fn finish(mut self) {
        for (path, lock, changed) in self.locks.values() {
            if *changed {
                let _ = lock.save(path);
            }
        }
        if let Some(cache) = self.cache.as_mut() {
            cache.save();
        }
    }
}
