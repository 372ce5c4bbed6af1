//! The sandbox modes and the settings that choose one: `sandbox.mode`,
//! `sandbox.writableRoots`, `sandbox.network`, with the project file allowed only to
//! tighten what the user set unless the project is trusted.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// How far commands and file tools are confined.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SandboxMode {
    /// Nothing may be written except the private temp folder.
    ReadOnly,
    /// Writes only under the workspace roots and the private temp folder; `.git` and
    /// `.pi` under the roots stay read-only.
    WorkspaceWrite,
    /// No confinement (the default).
    #[default]
    Full,
}

impl SandboxMode {
    /// Every mode, strictest first.
    pub const ALL: [SandboxMode; 3] = [
        SandboxMode::ReadOnly,
        SandboxMode::WorkspaceWrite,
        SandboxMode::Full,
    ];

    /// The mode called `name` (`read-only`, `workspace-write`, `full`).
    pub fn parse(name: &str) -> Option<SandboxMode> {
        SandboxMode::ALL
            .into_iter()
            .find(|mode| mode.as_str() == name.trim())
    }

    /// The name used in settings, flags and commands.
    pub fn as_str(self) -> &'static str {
        match self {
            SandboxMode::ReadOnly => "read-only",
            SandboxMode::WorkspaceWrite => "workspace-write",
            SandboxMode::Full => "full",
        }
    }

    /// Whether commands run confined in this mode.
    pub fn is_confined(self) -> bool {
        self != SandboxMode::Full
    }

    /// The stricter of two modes.
    pub fn tighter(self, other: SandboxMode) -> SandboxMode {
        let rank = |m: SandboxMode| SandboxMode::ALL.iter().position(|x| *x == m);
        if rank(other) < rank(self) {
            other
        } else {
            self
        }
    }
}

/// The sandbox as configured: a mode, extra writable folders and whether the network is
/// allowed inside it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SandboxSettings {
    /// The mode.
    pub mode: SandboxMode,
    /// Folders writable besides the working folder (`sandbox.writableRoots`), absolute.
    pub writable_roots: Vec<PathBuf>,
    /// Whether confined commands may open network sockets (`sandbox.network`).
    pub network: bool,
}

/// One `sandbox` settings object, read leniently (wrong types are left to the schema
/// check, which reports them).
#[derive(Debug, Default)]
struct Section {
    mode: Option<SandboxMode>,
    roots: Option<Vec<PathBuf>>,
    network: Option<bool>,
}

fn section(value: Option<&Value>, cwd: &Path, warnings: &mut Vec<String>) -> Section {
    let Some(object) = value.and_then(Value::as_object) else {
        return Section::default();
    };
    let mode = object.get("mode").and_then(Value::as_str).and_then(|name| {
        let mode = SandboxMode::parse(name);
        if mode.is_none() {
            warnings.push(crate::t!("pi.sandbox.unknown_mode", mode = name));
        }
        mode
    });
    let roots = object
        .get("writableRoots")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(Value::as_str)
                .map(|root| absolute_root(root, cwd))
                .collect()
        });
    Section {
        mode,
        roots,
        network: object.get("network").and_then(Value::as_bool),
    }
}

/// `root` with `~` expanded and made absolute against `cwd`.
fn absolute_root(root: &str, cwd: &Path) -> PathBuf {
    let expanded = match root.strip_prefix("~/") {
        Some(rest) => dirs::home_dir().map_or_else(|| PathBuf::from(root), |h| h.join(rest)),
        None if root == "~" => dirs::home_dir().unwrap_or_else(|| PathBuf::from(root)),
        None => PathBuf::from(root),
    };
    if expanded.is_absolute() {
        expanded
    } else {
        cwd.join(expanded)
    }
}

/// The sandbox settings from the user's (`global`) and the project's `sandbox` objects.
/// A trusted project's keys replace the user's; an untrusted one may only tighten: the
/// stricter mode wins, the network stays off if either turns it off, and its writable
/// roots are ignored. `cli` (`--sandbox`) is the user's own choice and wins over both.
/// Problems (an unknown mode) come back as warnings.
pub fn resolve(
    global: Option<&Value>,
    project: Option<&Value>,
    project_trusted: bool,
    cli: Option<SandboxMode>,
    cwd: &Path,
) -> (SandboxSettings, Vec<String>) {
    let mut warnings = Vec::new();
    let user = section(global, cwd, &mut warnings);
    let local = section(project, cwd, &mut warnings);
    let user_mode = user.mode.unwrap_or_default();
    let (mode, roots, network) = if project_trusted {
        (
            local.mode.unwrap_or(user_mode),
            local.roots.or(user.roots),
            local.network.or(user.network),
        )
    } else {
        let mode = local.mode.map_or(user_mode, |m| user_mode.tighter(m));
        let network = match (user.network, local.network) {
            (Some(false), _) | (_, Some(false)) => Some(false),
            (user, _) => user,
        };
        (mode, user.roots, network)
    };
    let settings = SandboxSettings {
        mode: cli.unwrap_or(mode),
        writable_roots: roots.unwrap_or_default(),
        network: network.unwrap_or(false),
    };
    (settings, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_round_trip_and_unknown_names_are_refused() {
        for mode in SandboxMode::ALL {
            assert_eq!(SandboxMode::parse(mode.as_str()), Some(mode));
        }
        assert_eq!(SandboxMode::parse("readonly"), None);
        assert_eq!(SandboxMode::default(), SandboxMode::Full);
    }

    #[test]
    fn an_untrusted_project_only_tightens() {
        let cwd = Path::new("/w");
        let global = json!({"mode": "workspace-write", "network": true, "writableRoots": ["/a"]});
        let loosen = json!({"mode": "full", "writableRoots": ["/etc"]});
        let (s, _) = resolve(Some(&global), Some(&loosen), false, None, cwd);
        assert_eq!(s.mode, SandboxMode::WorkspaceWrite);
        assert_eq!(s.writable_roots, vec![PathBuf::from("/a")]);
        assert!(s.network);

        let tighten = json!({"mode": "read-only", "network": false});
        let (s, _) = resolve(Some(&global), Some(&tighten), false, None, cwd);
        assert_eq!(s.mode, SandboxMode::ReadOnly);
        assert!(!s.network);
    }

    #[test]
    fn a_trusted_project_replaces_and_the_flag_wins() {
        let cwd = Path::new("/w");
        let global = json!({"mode": "read-only"});
        let project = json!({"mode": "full", "writableRoots": ["out", "~/cache"]});
        let (s, _) = resolve(Some(&global), Some(&project), true, None, cwd);
        assert_eq!(s.mode, SandboxMode::Full);
        assert_eq!(s.writable_roots[0], PathBuf::from("/w/out"));
        assert!(s.writable_roots[1].ends_with("cache"));
        let (s, _) = resolve(
            Some(&global),
            None,
            false,
            Some(SandboxMode::WorkspaceWrite),
            cwd,
        );
        assert_eq!(s.mode, SandboxMode::WorkspaceWrite);
    }

    #[test]
    fn an_unknown_mode_warns_and_keeps_the_default() {
        let (s, warnings) = resolve(
            Some(&json!({"mode": "jail"})),
            None,
            false,
            None,
            Path::new("/"),
        );
        assert_eq!(s.mode, SandboxMode::Full);
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("jail"), "{warnings:?}");
    }
}
