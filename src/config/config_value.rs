//! Config values that may name a shell command, an environment variable or a
//! literal (used for API keys and header values in `auth.json` and `models.json`).
//!
//! - `!command` runs `command` through `sh -c` and uses its trimmed stdout
//!   (10 s timeout, stderr ignored; empty output or failure means "no value").
//! - a name of a set, non-empty environment variable uses that variable's value.
//! - anything else is used literally.

use std::collections::HashMap;
use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a `!command` may run before it is killed.
pub const COMMAND_TIMEOUT: Duration = Duration::from_secs(10);

type LookupFn = dyn Fn(&str) -> Option<String> + Send + Sync;

/// Access to environment variables, replaceable in tests.
#[derive(Clone)]
pub struct Env {
    lookup: Arc<LookupFn>,
}

impl Env {
    /// The real process environment.
    pub fn system() -> Self {
        Env::from_fn(|name| std::env::var(name).ok())
    }

    /// An environment answered by a closure.
    pub fn from_fn(f: impl Fn(&str) -> Option<String> + Send + Sync + 'static) -> Self {
        Env {
            lookup: Arc::new(f),
        }
    }

    /// A fixed environment made of `(name, value)` pairs.
    pub fn from_pairs(pairs: &[(&str, &str)]) -> Self {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Env::from_fn(move |name| map.get(name).cloned())
    }

    /// An environment with no variables at all.
    pub fn empty() -> Self {
        Env::from_fn(|_| None)
    }

    /// The value of a variable; empty values count as unset.
    pub fn var(&self, name: &str) -> Option<String> {
        (self.lookup)(name).filter(|v| !v.is_empty())
    }

    /// Whether a variable is set to a non-empty value.
    pub fn is_set(&self, name: &str) -> bool {
        self.var(name).is_some()
    }
}

impl Default for Env {
    fn default() -> Self {
        Env::system()
    }
}

impl std::fmt::Debug for Env {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Env")
    }
}

/// True when a config value is a `!command`.
pub fn is_command(raw: &str) -> bool {
    raw.starts_with('!')
}

/// Resolve a config value without caching command output.
/// `None` when a command fails or prints nothing.
pub fn resolve_config_value(raw: &str, env: &Env) -> Option<String> {
    if let Some(command) = raw.strip_prefix('!') {
        return run_value_command(command);
    }
    Some(env.var(raw).unwrap_or_else(|| raw.to_string()))
}

/// A configured value that gave nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unresolved {
    /// The shell command, when the value is `!command`.
    pub command: Option<String>,
}

/// Resolve a config value, or say which command (if any) gave nothing.
pub fn resolve_config_value_or_err(raw: &str, env: &Env) -> Result<String, Unresolved> {
    resolve_config_value(raw, env).ok_or_else(|| Unresolved {
        command: raw.strip_prefix('!').map(str::to_string),
    })
}

/// Remembers command output for the lifetime of the process (used for
/// `auth.json` keys, which pi resolves once per run).
#[derive(Debug, Default)]
pub struct CommandCache {
    results: Mutex<HashMap<String, Option<String>>>,
}

impl CommandCache {
    /// Resolve a value, running each distinct command at most once.
    pub fn resolve(&self, raw: &str, env: &Env) -> Option<String> {
        if !is_command(raw) {
            return resolve_config_value(raw, env);
        }
        if let Some(hit) = self.lock().get(raw) {
            return hit.clone();
        }
        let value = resolve_config_value(raw, env);
        self.lock().insert(raw.to_string(), value.clone());
        value
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Option<String>>> {
        self.results.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Run `sh -c command` and return its trimmed stdout, or `None` on failure,
/// non-zero exit, timeout or empty output.
pub fn run_value_command(command: &str) -> Option<String> {
    run_with_timeout(command, COMMAND_TIMEOUT)
}

fn run_with_timeout(command: &str, timeout: Duration) -> Option<String> {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(command)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let mut child = cmd.spawn().ok()?;
    let mut stdout = child.stdout.take()?;
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stdout.read_to_end(&mut buf);
        buf
    });
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() >= deadline => {
                kill_tree(&mut child);
                return None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => {
                kill_tree(&mut child);
                return None;
            }
        }
    };
    let output = reader.join().ok()?;
    if !status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&output).trim().to_string();
    (!text.is_empty()).then_some(text)
}

fn kill_tree(child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        if let Ok(pid) = i32::try_from(child.id()) {
            // The child leads its own process group; end the whole group.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_name_literal_and_command() {
        let env = Env::from_pairs(&[("MY_KEY", "from-env"), ("EMPTY", "")]);
        assert_eq!(resolve_config_value("MY_KEY", &env).unwrap(), "from-env");
        assert_eq!(resolve_config_value("EMPTY", &env).unwrap(), "EMPTY");
        assert_eq!(
            resolve_config_value("sk-literal", &env).unwrap(),
            "sk-literal"
        );
        assert_eq!(
            resolve_config_value("!printf '  secret\\n'", &env).unwrap(),
            "secret"
        );
    }

    #[test]
    fn failing_or_silent_commands_give_nothing() {
        let env = Env::empty();
        assert_eq!(resolve_config_value("!exit 3", &env), None);
        assert_eq!(resolve_config_value("!true", &env), None);
        let err = resolve_config_value_or_err("!exit 1", &env).unwrap_err();
        assert_eq!(err.command.as_deref(), Some("exit 1"));
        assert_eq!(resolve_config_value_or_err("x", &env).as_deref(), Ok("x"));
    }

    #[test]
    fn slow_commands_time_out() {
        let start = Instant::now();
        assert_eq!(
            run_with_timeout("sleep 5; echo late", Duration::from_millis(200)),
            None
        );
        assert!(start.elapsed() < Duration::from_secs(3));
    }

    #[test]
    fn cache_runs_a_command_once() {
        let dir = tempfile::tempdir().unwrap();
        let counter = dir.path().join("count");
        let cmd = format!("!echo x >> '{}'; echo value", counter.display());
        let cache = CommandCache::default();
        let env = Env::empty();
        assert_eq!(cache.resolve(&cmd, &env).unwrap(), "value");
        assert_eq!(cache.resolve(&cmd, &env).unwrap(), "value");
        let runs = std::fs::read_to_string(&counter).unwrap();
        assert_eq!(runs.lines().count(), 1);
    }
}
