//! Declared capabilities resolved against the folders they name, and the questions
//! the guards ask: may this path be read or written, this program run, this host
//! reached, this variable read?
//!
//! Path scopes: a relative path is under the workspace (the session's working folder);
//! `$agent/…` is under pi's agent folder, `$extension/…` under the extension's own
//! folder, `$tmp/…` under the system's temporary folder, `~/…` under the home folder;
//! absolute paths are taken as they are. A scope without glob characters covers the
//! file or folder it names and everything below it; a glob (`*`, `**`, `?`, `[…]`,
//! `{…}`) covers what it matches and everything below a match. Paths are compared after
//! links are followed, so a link inside a scope cannot lead outside it.

use std::path::{Component, Path, PathBuf};

use globset::{GlobBuilder, GlobMatcher};

use crate::lua::capabilities::{Capabilities, Fix};

/// The folders path markers stand for.
#[derive(Debug, Clone)]
pub struct Roots {
    /// The workspace: relative scopes and paths start here.
    pub workspace: PathBuf,
    /// pi's agent folder (`$agent`).
    pub agent: PathBuf,
    /// The extension's own folder (`$extension`).
    pub extension: PathBuf,
}

/// Path markers a scope may start with.
pub const MARKERS: [&str; 3] = ["$agent", "$extension", "$tmp"];

const GLOB_CHARS: [char; 5] = ['*', '?', '[', '{', '}'];

/// Whether `pattern` is a path scope pi understands; `Err` says how to fix it.
pub fn check_pattern(pattern: &str) -> Result<(), Fix> {
    if pattern.starts_with('$') {
        let marker = pattern.split('/').next().unwrap_or(pattern);
        if !MARKERS.contains(&marker) {
            return Err(Fix::Marker {
                marker: marker.to_string(),
            });
        }
    }
    if pattern.contains(GLOB_CHARS) {
        GlobBuilder::new(pattern)
            .literal_separator(true)
            .build()
            .map_err(|e| Fix::Glob {
                detail: e.kind().to_string(),
            })?;
    }
    Ok(())
}

/// One resolved path scope.
#[derive(Debug, Clone)]
enum PathRule {
    Under(PathBuf),
    Glob(GlobMatcher),
}

impl PathRule {
    fn covers(&self, path: &Path) -> bool {
        match self {
            PathRule::Under(dir) => path.starts_with(dir),
            PathRule::Glob(m) => path.ancestors().any(|a| m.is_match(a)),
        }
    }
}

/// Capabilities resolved for one extension.
#[derive(Debug, Clone)]
pub struct Resolved {
    /// What was declared, as written.
    pub declared: Capabilities,
    roots: Roots,
    read: Vec<PathRule>,
    write: Vec<PathRule>,
}

impl Resolved {
    /// Resolve `declared` against `roots`.
    pub fn new(declared: Capabilities, roots: Roots) -> Resolved {
        let rules = |list: &[String]| -> Vec<PathRule> {
            list.iter()
                .filter_map(|p| resolve_pattern(p, &roots))
                .collect()
        };
        Resolved {
            read: rules(&declared.read),
            write: rules(&declared.write),
            declared,
            roots,
        }
    }

    /// The absolute path `path` stands for (relative = under the workspace).
    pub fn absolute(&self, path: &str) -> PathBuf {
        absolute(&self.roots.workspace, path)
    }

    /// Whether `path` may be read. What may be written may be read too.
    pub fn may_read(&self, path: &Path) -> bool {
        let real = canonical_lossy(path);
        self.read.iter().chain(&self.write).any(|r| r.covers(&real))
    }

    /// Whether `path` may be written, created or removed.
    pub fn may_write(&self, path: &Path) -> bool {
        let real = canonical_lossy(path);
        self.write.iter().any(|r| r.covers(&real))
    }

    /// Whether program `cmd` (a name looked up on `PATH`, or a path) may run.
    pub fn may_exec(&self, cmd: &str) -> bool {
        let declared = &self.declared.exec;
        if declared.iter().any(|d| d == "*") {
            return true;
        }
        if !cmd.contains('/') {
            return declared.iter().any(|d| d == cmd);
        }
        let real = canonical_lossy(&self.absolute(cmd));
        declared.iter().any(|d| {
            let target = match d.as_str() {
                "$pi" => std::env::current_exe().ok(),
                d if d.contains('/') => expand(d, &self.roots),
                _ => None,
            };
            target.is_some_and(|t| canonical_lossy(&t) == real)
        })
    }

    /// Whether `host` (with `port` when the URL names one) may be reached.
    pub fn may_reach(&self, host: &str, port: Option<u16>) -> bool {
        let host = host.to_ascii_lowercase();
        let with_port = port.map(|p| format!("{host}:{p}"));
        self.declared.net.iter().any(|rule| {
            let rule = rule.to_ascii_lowercase();
            rule == "*"
                || rule == host
                || with_port.as_deref() == Some(rule.as_str())
                || rule
                    .strip_prefix("*.")
                    .is_some_and(|domain| host.ends_with(&format!(".{domain}")))
        })
    }

    /// Whether environment variable `name` may be read.
    pub fn may_read_env(&self, name: &str) -> bool {
        self.declared
            .env
            .iter()
            .any(|rule| match rule.strip_suffix('*') {
                Some(prefix) => name.starts_with(prefix),
                None => rule == name,
            })
    }
}

/// `path` made absolute against `workspace`.
pub fn absolute(workspace: &Path, path: &str) -> PathBuf {
    let p = PathBuf::from(path);
    if p.is_absolute() {
        p
    } else {
        workspace.join(p)
    }
}

/// The folder a pattern's marker stands for, with the rest of the pattern joined.
fn expand(pattern: &str, roots: &Roots) -> Option<PathBuf> {
    let (head, rest) = match pattern.split_once('/') {
        Some((h, r)) => (h, r),
        None => (pattern, ""),
    };
    let base = match head {
        "$agent" => roots.agent.clone(),
        "$extension" => roots.extension.clone(),
        "$tmp" => std::env::temp_dir(),
        "~" => dirs::home_dir()?,
        h if h.starts_with('$') => return None,
        _ => return Some(absolute(&roots.workspace, pattern)),
    };
    Some(if rest.is_empty() {
        base
    } else {
        base.join(rest)
    })
}

fn resolve_pattern(pattern: &str, roots: &Roots) -> Option<PathRule> {
    let full = expand(pattern, roots)?;
    let text = full.to_string_lossy().into_owned();
    let Some(at) = text.find(GLOB_CHARS) else {
        return Some(PathRule::Under(canonical_lossy(&full)));
    };
    // Follow links in the literal folder before the first glob character.
    let cut = text[..at].rfind('/').map_or(0, |i| i + 1);
    let base = canonical_lossy(Path::new(&text[..cut]));
    let pattern = format!(
        "{}/{}",
        base.to_string_lossy().trim_end_matches('/'),
        &text[cut..]
    );
    let glob = GlobBuilder::new(&pattern)
        .literal_separator(true)
        .build()
        .ok()?;
    Some(PathRule::Glob(glob.compile_matcher()))
}

/// `path` with `.` and `..` removed and the links of its longest existing ancestor
/// followed; the part that does not exist yet is appended as it is.
pub fn canonical_lossy(path: &Path) -> PathBuf {
    let mut clean = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                clean.pop();
            }
            Component::CurDir => {}
            other => clean.push(other.as_os_str()),
        }
    }
    let mut existing = clean.as_path();
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = std::fs::canonicalize(existing) {
            let mut out = real;
            out.extend(rest.iter().rev());
            return out;
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => return clean,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn resolved(decl: serde_json::Value, roots: &Roots) -> Resolved {
        Resolved::new(Capabilities::from_json(&decl).unwrap(), roots.clone())
    }

    fn roots(base: &Path) -> Roots {
        for d in ["ws/src", "agent/sessions", "ext/cache"] {
            std::fs::create_dir_all(base.join(d)).unwrap();
        }
        Roots {
            workspace: base.join("ws"),
            agent: base.join("agent"),
            extension: base.join("ext"),
        }
    }

    #[test]
    fn markers_and_relative_scopes_name_their_folders() {
        let dir = tempfile::tempdir().unwrap();
        let r = roots(dir.path());
        let caps = resolved(
            json!({"fs": {"read": [".", "$agent/sessions"], "write": ["$extension/cache"]}}),
            &r,
        );
        assert!(caps.may_read(&r.workspace.join("src/new.rs")));
        assert!(caps.may_read(&r.agent.join("sessions/a.jsonl")));
        assert!(!caps.may_read(&r.agent.join("auth.json")));
        assert!(caps.may_write(&r.extension.join("cache/x")));
        assert!(
            caps.may_read(&r.extension.join("cache/x")),
            "write implies read"
        );
        assert!(!caps.may_write(&r.workspace.join("src/new.rs")));
        assert!(!caps.may_read(&r.workspace.join("../agent/auth.json")));
    }

    #[test]
    fn globs_cover_matches_and_what_is_below_them() {
        let dir = tempfile::tempdir().unwrap();
        let r = roots(dir.path());
        let caps = resolved(json!({"fs": {"write": ["src/*.rs", "**/*.log"]}}), &r);
        assert!(caps.may_write(&r.workspace.join("src/a.rs")));
        assert!(!caps.may_write(&r.workspace.join("src/deep/a.rs")));
        assert!(caps.may_write(&r.workspace.join("src/deep/x.log")));
        assert!(!caps.may_write(&r.workspace.join("src/a.txt")));
    }

    #[cfg(unix)]
    #[test]
    fn a_link_inside_a_scope_does_not_lead_out_of_it() {
        let dir = tempfile::tempdir().unwrap();
        let r = roots(dir.path());
        std::os::unix::fs::symlink(&r.agent, r.workspace.join("escape")).unwrap();
        let caps = resolved(json!({"fs": {"read": ["."]}}), &r);
        assert!(!caps.may_read(&r.workspace.join("escape/sessions/a")));
        assert!(caps.may_read(&r.workspace.join("src")));
    }

    #[test]
    fn programs_hosts_and_variables_match_as_declared() {
        let dir = tempfile::tempdir().unwrap();
        let r = roots(dir.path());
        let caps = resolved(
            json!({"exec": ["git"], "net": ["api.github.com", "*.example.org", "localhost:8080"],
                   "env": ["HOME", "PI_*"]}),
            &r,
        );
        assert!(caps.may_exec("git"));
        assert!(!caps.may_exec("gitk"));
        assert!(
            !caps.may_exec("/tmp/evil/git"),
            "a bare name is not any path"
        );
        assert!(caps.may_reach("API.github.com", None));
        assert!(caps.may_reach("a.b.example.org", Some(443)));
        assert!(!caps.may_reach("example.org", None));
        assert!(!caps.may_reach("github.com", None));
        assert!(caps.may_reach("localhost", Some(8080)));
        assert!(!caps.may_reach("localhost", Some(9090)));
        assert!(caps.may_read_env("HOME"));
        assert!(caps.may_read_env("PI_DEBUG"));
        assert!(!caps.may_read_env("AWS_SECRET_ACCESS_KEY"));
        let all = resolved(json!({"exec": ["*"], "net": ["*"], "env": ["*"]}), &r);
        assert!(all.may_exec("/bin/sh") && all.may_reach("x.y", None) && all.may_read_env("A"));
    }

    #[test]
    fn unknown_markers_and_broken_globs_are_refused() {
        assert!(check_pattern("$agent/x").is_ok());
        assert_eq!(
            check_pattern("$home/x"),
            Err(Fix::Marker {
                marker: "$home".into()
            })
        );
        assert!(matches!(check_pattern("src/["), Err(Fix::Glob { .. })));
    }
}
