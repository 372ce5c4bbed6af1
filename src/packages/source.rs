//! Package source grammar: `npm:<name>[@version]`, git sources (`git:host/user/repo[@ref]`,
//! `git:git@host:user/repo[@ref]`, `https://`, `http://`, `ssh://`, `git://`, `file://` URLs)
//! and local paths (starting with `.`, `/` or `~`), with their identity for deduplication.

use std::path::{Path, PathBuf};

use super::error::PackageError;

/// A parsed package source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PackageSource {
    /// An npm package.
    Npm {
        /// Package name (`@scope/name` or `name`).
        name: String,
        /// Pinned version or range, when given.
        version: Option<String>,
    },
    /// A git repository.
    Git(GitSource),
    /// A file or folder on disk, as written (resolved against a base folder later).
    Local(String),
}

/// A git repository source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitSource {
    /// What `git clone` receives.
    pub url: String,
    /// Host name (`file` for `file://` URLs).
    pub host: String,
    /// Repository path below the host, without a trailing `.git`.
    pub path: String,
    /// Pinned tag, branch or commit.
    pub git_ref: Option<String>,
}

const PROTOCOLS: [&str; 5] = ["https://", "http://", "ssh://", "git://", "file://"];

impl PackageSource {
    /// Parse a source string. Anything that is neither `npm:` nor a git source is a local
    /// path. Errors name the problem (an empty name, a URL without a repository path).
    pub fn parse(raw: &str) -> Result<PackageSource, PackageError> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err(PackageError::EmptySource);
        }
        if let Some(spec) = raw.strip_prefix("npm:") {
            return parse_npm(spec).ok_or_else(|| PackageError::InvalidNpmSource {
                source: raw.to_string(),
            });
        }
        if let Some(rest) = raw.strip_prefix("git:") {
            return parse_git(rest, true)
                .map(PackageSource::Git)
                .ok_or_else(|| PackageError::InvalidGitSource {
                    source: raw.to_string(),
                });
        }
        if PROTOCOLS.iter().any(|p| raw.starts_with(p)) {
            return parse_git(raw, false)
                .map(PackageSource::Git)
                .ok_or_else(|| PackageError::InvalidGitUrl {
                    source: raw.to_string(),
                });
        }
        Ok(PackageSource::Local(raw.to_string()))
    }

    /// Whether updates skip this source: npm with a version, git with a ref.
    pub fn is_pinned(&self) -> bool {
        match self {
            PackageSource::Npm { version, .. } => version.is_some(),
            PackageSource::Git(git) => git.git_ref.is_some(),
            PackageSource::Local(_) => false,
        }
    }

    /// Identity for deduplication and matching: `npm:<name>`, `git:<host>/<path>` or
    /// `local:<absolute path>` (relative paths resolved against `base`).
    pub fn identity(&self, base: &Path) -> String {
        match self {
            PackageSource::Npm { name, .. } => format!("npm:{name}"),
            PackageSource::Git(git) => format!("git:{}/{}", git.host, git.path),
            PackageSource::Local(raw) => {
                format!("local:{}", resolve_local(raw, base).display())
            }
        }
    }
}

/// A local source resolved against `base` (`~` expanded, `.`/`..` folded).
pub fn resolve_local(raw: &str, base: &Path) -> PathBuf {
    let path = crate::config::paths::expand_tilde(raw);
    let joined = if path.is_absolute() {
        path
    } else {
        base.join(path)
    };
    normalize(&joined)
}

/// Fold `.` and `..` components without touching the disk.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn parse_npm(spec: &str) -> Option<PackageSource> {
    // A leading `@` starts a scope; the version separator is the next `@` after it.
    let search_from = usize::from(spec.starts_with('@'));
    let (name, version) = match spec[search_from..].find('@') {
        Some(at) => {
            let at = at + search_from;
            (&spec[..at], Some(spec[at + 1..].to_string()))
        }
        None => (spec, None),
    };
    let valid = !name.is_empty() && name != "@" && !name.ends_with('/');
    let version = version.filter(|v| !v.is_empty());
    valid.then(|| PackageSource::Npm {
        name: name.to_string(),
        version,
    })
}

/// Split a trailing `@ref` off the repository part of a source.
fn split_ref(path: &str) -> (&str, Option<String>) {
    match path.rfind('@') {
        Some(at) if at > 0 && !path[at + 1..].is_empty() => {
            (&path[..at], Some(path[at + 1..].to_string()))
        }
        _ => (path, None),
    }
}

fn clean_path(path: &str) -> String {
    let trimmed = path.trim_matches('/');
    trimmed.strip_suffix(".git").unwrap_or(trimmed).to_string()
}

fn parse_git(raw: &str, shorthand: bool) -> Option<GitSource> {
    if let Some(proto) = PROTOCOLS.iter().find(|p| raw.starts_with(**p)) {
        let rest = &raw[proto.len()..];
        let (authority, path) = match proto {
            &"file://" => ("", rest),
            _ => rest.split_at(rest.find('/')?),
        };
        let (path, git_ref) = split_ref(path);
        let host = match authority.rsplit_once('@') {
            Some((_, host)) => host,
            None => authority,
        };
        let host = host.split(':').next().unwrap_or(host);
        let host = if proto == &"file://" { "file" } else { host };
        let repo = clean_path(path);
        if repo.is_empty() || host.is_empty() {
            return None;
        }
        return Some(GitSource {
            url: format!("{proto}{authority}{path}"),
            host: host.to_string(),
            path: repo,
            git_ref,
        });
    }
    if !shorthand {
        return None;
    }
    // `git@host:user/repo[@ref]`
    if let Some((user_host, path)) = raw.split_once(':')
        && user_host.contains('@')
        && !path.starts_with('/')
    {
        let host = user_host.rsplit_once('@')?.1;
        let (path, git_ref) = split_ref(path);
        let repo = clean_path(path);
        if repo.is_empty() || host.is_empty() {
            return None;
        }
        return Some(GitSource {
            url: format!("{user_host}:{path}"),
            host: host.to_string(),
            path: repo,
            git_ref,
        });
    }
    // `host/user/repo[@ref]`
    let (host, path) = raw.split_once('/')?;
    let (path, git_ref) = split_ref(path);
    let repo = clean_path(path);
    if repo.is_empty() || host.is_empty() || !host.contains('.') {
        return None;
    }
    Some(GitSource {
        url: format!("https://{host}/{path}"),
        host: host.to_string(),
        path: repo,
        git_ref,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git(raw: &str) -> GitSource {
        match PackageSource::parse(raw).unwrap() {
            PackageSource::Git(g) => g,
            other => panic!("{raw} parsed as {other:?}"),
        }
    }

    #[test]
    fn npm_names_versions_and_scopes() {
        let parse = |s| PackageSource::parse(s).unwrap();
        assert_eq!(
            parse("npm:@foo/bar@1.0.0"),
            PackageSource::Npm {
                name: "@foo/bar".into(),
                version: Some("1.0.0".into())
            }
        );
        assert_eq!(
            parse("npm:pkg"),
            PackageSource::Npm {
                name: "pkg".into(),
                version: None
            }
        );
        assert!(parse("npm:pkg@2").is_pinned());
        assert!(!parse("npm:@s/pkg").is_pinned());
        assert_eq!(parse("npm:@s/pkg@3").identity(Path::new("/")), "npm:@s/pkg");
        assert!(PackageSource::parse("npm:").is_err());
        assert!(PackageSource::parse("npm:@").is_err());
    }

    #[test]
    fn git_shorthands_and_urls_share_identity() {
        let short = git("git:github.com/user/repo@v1");
        assert_eq!(short.url, "https://github.com/user/repo");
        assert_eq!(short.git_ref.as_deref(), Some("v1"));
        let ssh = git("git:git@github.com:user/repo.git");
        assert_eq!(ssh.url, "git@github.com:user/repo.git");
        assert_eq!(ssh.git_ref, None);
        let https = git("https://github.com/user/repo");
        let ssh_url = git("ssh://git@github.com/user/repo@v2");
        assert_eq!(ssh_url.url, "ssh://git@github.com/user/repo");
        assert_eq!(ssh_url.git_ref.as_deref(), Some("v2"));
        let base = Path::new("/");
        let ids: Vec<String> = [short, ssh, https, ssh_url]
            .into_iter()
            .map(|g| PackageSource::Git(g).identity(base))
            .collect();
        assert!(
            ids.iter().all(|id| id == "git:github.com/user/repo"),
            "{ids:?}"
        );
    }

    #[test]
    fn file_urls_are_git_sources() {
        let g = git("file:///tmp/repos/tool.git@main");
        assert_eq!(g.url, "file:///tmp/repos/tool.git");
        assert_eq!(g.host, "file");
        assert_eq!(g.path, "tmp/repos/tool");
        assert_eq!(g.git_ref.as_deref(), Some("main"));
    }

    #[test]
    fn everything_else_is_a_local_path() {
        let src = PackageSource::parse("./pkg").unwrap();
        assert_eq!(src, PackageSource::Local("./pkg".into()));
        assert_eq!(src.identity(Path::new("/a/.pi")), "local:/a/.pi/pkg");
        let up = PackageSource::parse("../x/./y").unwrap();
        assert_eq!(up.identity(Path::new("/a/.pi")), "local:/a/x/y");
        assert!(!src.is_pinned());
        assert!(PackageSource::parse("  ").is_err());
        assert!(PackageSource::parse("git:nohost").is_err());
    }
}
