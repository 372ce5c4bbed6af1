//! `pi install` and `pi remove` as a user runs them: a local path typed relative to the
//! working folder is stored relative to the settings file, a path with a trailing slash
//! removes what it installed, `--help` prints the usage, and an unknown option or a missing
//! source is a short error with exit code 1. The wording of help and errors is this
//! implementation's own (pi 0.73.1 says `Unknown option --unknown for "install".`).
//! orig-file: packages/coding-agent/test/package-command-paths.test.ts

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

struct Dirs {
    tmp: tempfile::TempDir,
}

impl Dirs {
    fn new() -> Self {
        let d = Dirs {
            tmp: tempfile::tempdir().unwrap(),
        };
        for sub in ["agent", "project", "local-package"] {
            std::fs::create_dir_all(d.path(sub)).unwrap();
        }
        d
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.tmp.path().join(rel)
    }

    /// `pi <args>` in the project folder with the agent folder here.
    fn pi(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_pi"))
            .args(args)
            .current_dir(self.path("project"))
            .env("PI_CODING_AGENT_DIR", self.path("agent"))
            .env("PI_OFFLINE", "1")
            .output()
            .unwrap()
    }

    fn packages(&self) -> Vec<String> {
        let text = std::fs::read_to_string(self.path("agent/settings.json")).unwrap_or_default();
        let settings: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        settings["packages"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn real(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap()
}

/// orig: package commands › should persist global relative local package paths relative to settings.json
#[test]
fn a_relative_local_path_is_stored_relative_to_the_settings_file() {
    let d = Dirs::new();
    let package = d.path("project/packages/local-package");
    std::fs::create_dir_all(&package).unwrap();
    let out = d.pi(&["install", "./packages/local-package"]);
    assert!(out.status.success(), "{:?}", text(&out));
    let stored = d.packages();
    assert_eq!(stored.len(), 1);
    assert_eq!(real(&d.path("agent").join(&stored[0])), real(&package));
}

/// orig: package commands › should remove local packages using a path with a trailing slash
#[test]
fn a_trailing_slash_removes_the_package() {
    let d = Dirs::new();
    let package = format!("{}/", d.path("local-package").display());
    assert!(d.pi(&["install", &package]).status.success());
    assert_eq!(d.packages().len(), 1);
    // Another path removes nothing.
    let other = format!("{}/", d.path("project").display());
    assert!(!d.pi(&["remove", &other]).status.success());
    assert_eq!(d.packages().len(), 1);
    let out = d.pi(&["remove", &package]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(d.packages().is_empty());
}

/// orig: package commands › shows install subcommand help
#[test]
fn install_help() {
    let d = Dirs::new();
    let out = d.pi(&["install", "--help"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success());
    assert!(
        stdout.contains("Usage:") && stdout.contains("pi install <source> [-l"),
        "{stdout}"
    );
    assert!(stderr.is_empty(), "{stderr}");
}

/// orig: package commands › shows a friendly error for unknown install options
#[test]
fn an_unknown_install_option() {
    let d = Dirs::new();
    let out = d.pi(&["install", "--unknown"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("--unknown") && stderr.contains("pi install"),
        "{stderr}"
    );
    assert!(stderr.contains("--help"), "{stderr}");
    assert!(stdout.is_empty());
    assert!(d.packages().is_empty());
}

// orig-skip: package commands › shows a friendly error for missing install source — `pi install` without a source restores the packages recorded in packages.lock here (`packages_lock::install_without_a_source_restores_the_locked_revision_on_a_fresh_home`); a missing source of `pi remove` is the usage error (`packages::bad_command_lines_are_usage_errors`).
