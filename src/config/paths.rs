//! Where pi keeps its files: the agent dir, settings, credentials, custom
//! models, keybindings, sessions, and the bundled documentation.

use std::path::{Path, PathBuf};

/// Name of the per-project config directory (`<cwd>/.pi`).
pub const CONFIG_DIR_NAME: &str = ".pi";
/// Environment variable overriding the agent dir.
pub const ENV_AGENT_DIR: &str = "PI_CODING_AGENT_DIR";
/// Environment variable overriding the session dir.
pub const ENV_SESSION_DIR: &str = "PI_CODING_AGENT_SESSION_DIR";
/// Environment variable overriding where bundled docs are looked up.
pub const ENV_PACKAGE_DIR: &str = "PI_PACKAGE_DIR";

/// The user's home directory (`/` if it cannot be determined).
pub fn home_dir() -> PathBuf {
    dirs::home_dir().unwrap_or_else(|| PathBuf::from("/"))
}

/// Expand a leading `~` or `~/` to the home directory; other paths unchanged.
pub fn expand_tilde(path: &str) -> PathBuf {
    if path == "~" {
        home_dir()
    } else if let Some(rest) = path.strip_prefix("~/") {
        home_dir().join(rest)
    } else {
        PathBuf::from(path)
    }
}

/// The agent dir: `$PI_CODING_AGENT_DIR` (with `~` expanded) or `~/.pi/agent`.
pub fn agent_dir() -> PathBuf {
    agent_dir_from(std::env::var(ENV_AGENT_DIR).ok().as_deref())
}

/// The agent dir given the value of `PI_CODING_AGENT_DIR`, if set.
pub fn agent_dir_from(env_value: Option<&str>) -> PathBuf {
    match env_value.filter(|v| !v.is_empty()) {
        Some(dir) => expand_tilde(dir),
        None => home_dir().join(CONFIG_DIR_NAME).join("agent"),
    }
}

/// `<agent>/settings.json`.
pub fn settings_path(agent_dir: &Path) -> PathBuf {
    agent_dir.join("settings.json")
}

/// `<cwd>/.pi/settings.json`.
pub fn project_settings_path(cwd: &Path) -> PathBuf {
    project_config_dir(cwd).join("settings.json")
}

/// `<cwd>/.pi`.
pub fn project_config_dir(cwd: &Path) -> PathBuf {
    cwd.join(CONFIG_DIR_NAME)
}

/// `<agent>/auth.json`.
pub fn auth_path(agent_dir: &Path) -> PathBuf {
    agent_dir.join("auth.json")
}

/// `<agent>/models.json`.
pub fn models_path(agent_dir: &Path) -> PathBuf {
    agent_dir.join("models.json")
}

/// `<agent>/keybindings.json`.
pub fn keybindings_path(agent_dir: &Path) -> PathBuf {
    agent_dir.join("keybindings.json")
}

/// `<agent>/sessions`.
pub fn sessions_root(agent_dir: &Path) -> PathBuf {
    agent_dir.join("sessions")
}

/// The session directory name for a working directory, as pi names it:
/// the leading separator dropped, every `/`, `\` and `:` turned into `-`,
/// wrapped in `--` (`/home/u/app` → `--home-u-app--`).
pub fn encode_cwd(cwd: &Path) -> String {
    let text = cwd.to_string_lossy();
    let trimmed = text
        .strip_prefix('/')
        .or_else(|| text.strip_prefix('\\'))
        .unwrap_or(&text);
    let body: String = trimmed
        .chars()
        .map(|c| {
            if matches!(c, '/' | '\\' | ':') {
                '-'
            } else {
                c
            }
        })
        .collect();
    format!("--{body}--")
}

/// `<agent>/sessions/--<encoded cwd>--`.
pub fn default_session_dir(agent_dir: &Path, cwd: &Path) -> PathBuf {
    sessions_root(agent_dir).join(encode_cwd(cwd))
}

/// Where sessions for `cwd` are stored. Precedence: `--session-dir`, then
/// `$PI_CODING_AGENT_SESSION_DIR` (`~` expanded), then settings `sessionDir`
/// (as returned by `Settings::session_dir`), then the per-cwd default under
/// the agent dir. Relative results are taken relative to `cwd`.
pub fn resolve_session_dir(
    cli_session_dir: Option<&str>,
    env_session_dir: Option<&str>,
    settings_session_dir: Option<&Path>,
    agent_dir: &Path,
    cwd: &Path,
) -> PathBuf {
    let chosen = cli_session_dir
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| env_session_dir.filter(|v| !v.is_empty()).map(expand_tilde))
        .or_else(|| {
            settings_session_dir
                .filter(|p| !p.as_os_str().is_empty())
                .map(Path::to_path_buf)
        });
    match chosen {
        Some(dir) if dir.is_absolute() => dir,
        Some(dir) => cwd.join(dir),
        None => default_session_dir(agent_dir, cwd),
    }
}

/// Locations of the bundled documentation referenced by the system prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocsPaths {
    /// The main README.
    pub readme: PathBuf,
    /// The docs directory.
    pub docs: PathBuf,
    /// The extension examples (`extensions/examples`).
    pub examples: PathBuf,
}

impl DocsPaths {
    /// Paths inside an install or source directory.
    pub fn in_dir(dir: &Path) -> Self {
        DocsPaths {
            readme: dir.join("README.md"),
            docs: dir.join("docs"),
            examples: dir.join("extensions").join("examples"),
        }
    }
}

/// Where the documentation the system prompt names lives: `$PI_PACKAGE_DIR` when
/// set (a folder holding `README.md`, `docs/` and `extensions/examples/`), else the
/// copy carried in the binary, written to `<agent>/docs/<version>/` when missing or
/// stale. `None` when that copy cannot be written.
pub fn find_docs(agent_dir: &Path) -> Option<DocsPaths> {
    if let Ok(dir) = std::env::var(ENV_PACKAGE_DIR)
        && !dir.is_empty()
    {
        return Some(DocsPaths::in_dir(&expand_tilde(&dir)));
    }
    crate::config::bundled_docs::ensure(agent_dir).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_cwd_like_pi() {
        assert_eq!(encode_cwd(Path::new("/home/u/app")), "--home-u-app--");
        assert_eq!(encode_cwd(Path::new("/")), "----");
        assert_eq!(encode_cwd(Path::new("C:\\work\\x")), "--C--work-x--");
    }

    #[test]
    fn agent_dir_honours_env_and_tilde() {
        assert_eq!(agent_dir_from(Some("/tmp/a")), PathBuf::from("/tmp/a"));
        assert_eq!(agent_dir_from(Some("~/cfg")), home_dir().join("cfg"));
        assert_eq!(agent_dir_from(None), home_dir().join(".pi").join("agent"));
        assert_eq!(
            agent_dir_from(Some("")),
            home_dir().join(".pi").join("agent")
        );
    }

    #[test]
    fn session_dir_precedence() {
        let agent = Path::new("/agent");
        let cwd = Path::new("/w/p");
        let r = |cli, env, set: Option<&str>| {
            resolve_session_dir(cli, env, set.map(Path::new), agent, cwd)
        };
        assert_eq!(
            r(Some("/cli"), Some("/env"), Some("/set")),
            PathBuf::from("/cli")
        );
        assert_eq!(r(None, Some("/env"), Some("/set")), PathBuf::from("/env"));
        assert_eq!(r(None, None, Some("/set")), PathBuf::from("/set"));
        assert_eq!(r(None, None, Some(".pi/s")), PathBuf::from("/w/p/.pi/s"));
        assert_eq!(r(None, Some("~/s"), None), home_dir().join("s"));
        assert_eq!(r(Some("rel"), None, None), PathBuf::from("/w/p/rel"));
        assert_eq!(
            r(None, None, None),
            PathBuf::from("/agent/sessions/--w-p--")
        );
    }
}
