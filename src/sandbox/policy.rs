//! The sandbox resolved for one working folder: which real paths may be written, and the
//! in-process check the file tools make before they write.

use std::path::{Component, Path, PathBuf};

use super::mode::{SandboxMode, SandboxSettings};

/// Folders under a workspace root that stay read-only in workspace-write.
pub const PROTECTED_NAMES: [&str; 2] = [".git", ".pi"];

/// Device files every confined command may write (when they exist).
pub const WRITABLE_DEVICES: [&str; 7] = [
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/tty",
    "/dev/ptmx",
    "/dev/pts",
    "/dev/random",
];

/// The sandbox for one working folder, with every path canonical.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    /// The mode.
    pub mode: SandboxMode,
    /// Writable workspace roots (empty in read-only and full mode).
    pub roots: Vec<PathBuf>,
    /// `.git` and `.pi` folders (or files) that exist under the roots.
    pub protected: Vec<PathBuf>,
    /// The private temp folder, writable in every confined mode.
    pub temp: Option<PathBuf>,
    /// Whether network sockets are allowed.
    pub network: bool,
}

/// Why a write was refused: the path (resolved), and the rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteRefusal {
    /// The message the model reads, naming the mode and the roots.
    pub message: String,
}

impl Policy {
    /// The policy of `settings` for commands run in `cwd`; `temp` is the private temp
    /// folder. Roots that do not exist are left out (nothing can be written there).
    pub fn new(settings: &SandboxSettings, cwd: &Path, temp: Option<PathBuf>) -> Policy {
        let mut roots = Vec::new();
        if settings.mode == SandboxMode::WorkspaceWrite {
            for root in
                std::iter::once(cwd).chain(settings.writable_roots.iter().map(PathBuf::as_path))
            {
                if let Ok(real) = root.canonicalize()
                    && !roots.contains(&real)
                {
                    roots.push(real);
                }
            }
        }
        let protected = roots
            .iter()
            .flat_map(|root| PROTECTED_NAMES.iter().map(move |name| root.join(name)))
            .filter(|path| path.symlink_metadata().is_ok())
            .collect();
        Policy {
            mode: settings.mode,
            roots,
            protected,
            temp: temp.and_then(|t| t.canonicalize().ok()),
            network: settings.network || !settings.mode.is_confined(),
        }
    }

    /// Whether the file tools may write `path` (absolute, as the tool resolved it). The
    /// path is resolved to its real location first (symlinks followed; for a file that
    /// does not exist yet, its nearest existing parent), so a link inside a root cannot
    /// lead outside it.
    pub fn check_write(&self, path: &Path) -> Result<(), WriteRefusal> {
        if !self.mode.is_confined() {
            return Ok(());
        }
        let real = real_path(path);
        if self.temp.as_ref().is_some_and(|t| real.starts_with(t)) {
            return Ok(());
        }
        let shown = if real == path {
            path.display().to_string()
        } else {
            format!("{} (→ {})", path.display(), real.display())
        };
        let Some(root) = self.roots.iter().find(|root| real.starts_with(root)) else {
            return Err(WriteRefusal {
                message: crate::t!(
                    "pi.sandbox.write_refused",
                    path = shown,
                    mode = self.mode.as_str(),
                    roots = self.roots_text()
                ),
            });
        };
        let inside = real
            .strip_prefix(root)
            .ok()
            .and_then(|rest| match rest.components().next() {
                Some(Component::Normal(first)) => PROTECTED_NAMES
                    .iter()
                    .find(|name| first == **name)
                    .map(|name| root.join(name)),
                _ => None,
            });
        match inside {
            Some(protected) => Err(WriteRefusal {
                message: crate::t!(
                    "pi.sandbox.write_protected",
                    path = shown,
                    folder = protected.display().to_string(),
                    mode = self.mode.as_str()
                ),
            }),
            None => Ok(()),
        }
    }

    /// The writable roots for messages ("none" in read-only mode).
    pub fn roots_text(&self) -> String {
        if self.roots.is_empty() {
            crate::t!("pi.sandbox.no_roots")
        } else {
            self.roots
                .iter()
                .map(|r| r.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        }
    }
}

/// `path` with symlinks resolved; a path that does not exist yet is its nearest existing
/// ancestor, resolved, plus the rest (with `..` applied after resolving).
pub fn real_path(path: &Path) -> PathBuf {
    // The parts below the nearest existing ancestor, last first; `None` stands for `..`.
    let mut rest: Vec<Option<std::ffi::OsString>> = Vec::new();
    let mut current = path.to_path_buf();
    loop {
        if let Ok(mut out) = current.canonicalize() {
            for part in rest.iter().rev() {
                match part {
                    None => {
                        out.pop();
                    }
                    Some(name) => out.push(name),
                }
            }
            return out;
        }
        match current.components().next_back() {
            Some(Component::ParentDir) => rest.push(None),
            Some(Component::Normal(name)) => rest.push(Some(name.to_os_string())),
            Some(Component::CurDir) => {}
            _ => return path.to_path_buf(),
        }
        if !current.pop() {
            return path.to_path_buf();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(mode: SandboxMode, cwd: &Path) -> Policy {
        let settings = SandboxSettings {
            mode,
            ..Default::default()
        };
        Policy::new(&settings, cwd, None)
    }

    #[test]
    fn workspace_write_allows_the_root_and_refuses_outside_and_git() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        let p = policy(SandboxMode::WorkspaceWrite, dir.path());
        assert!(p.check_write(&dir.path().join("new/file.txt")).is_ok());
        let outside = p.check_write(Path::new("/etc/x")).unwrap_err();
        assert!(
            outside.message.contains("workspace-write"),
            "{}",
            outside.message
        );
        assert!(outside.message.contains(&p.roots[0].display().to_string()));
        assert!(p.check_write(&dir.path().join(".git/config")).is_err());
        assert!(
            p.check_write(&dir.path().join(".pi/settings.json"))
                .is_err()
        );
    }

    #[test]
    fn a_symlink_inside_the_root_that_leads_outside_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("out")).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join("pw")).unwrap();
        let p = policy(SandboxMode::WorkspaceWrite, dir.path());
        assert!(p.check_write(&dir.path().join("out/new.txt")).is_err());
        assert!(p.check_write(&dir.path().join("pw")).is_err());
        assert!(p.check_write(&dir.path().join("in/../ok.txt")).is_ok());
        // `..` after a link climbs from where the link leads, as the kernel would.
        assert!(p.check_write(&dir.path().join("out/../ok.txt")).is_err());
    }

    #[test]
    fn read_only_refuses_all_but_the_private_temp_and_full_allows_all() {
        let dir = tempfile::tempdir().unwrap();
        let temp = tempfile::tempdir().unwrap();
        let settings = SandboxSettings {
            mode: SandboxMode::ReadOnly,
            ..Default::default()
        };
        let p = Policy::new(&settings, dir.path(), Some(temp.path().to_path_buf()));
        assert!(p.check_write(&dir.path().join("a")).is_err());
        assert!(p.check_write(&temp.path().join("scratch")).is_ok());
        assert!(!p.network);
        let full = policy(SandboxMode::Full, dir.path());
        assert!(full.check_write(Path::new("/etc/x")).is_ok());
        assert!(full.network);
    }
}
