//! Running `git` and the npm command (`npm`, or the `npmCommand` settings argv) for package
//! installs, with errors that name the command and its output.

use std::path::Path;
use std::process::{Command, Stdio};

use super::error::PackageError;

/// Run `argv` (program first) in `cwd`; returns trimmed stdout or an error with stderr.
pub fn run(argv: &[String], cwd: Option<&Path>) -> Result<String, PackageError> {
    let Some((program, args)) = argv.split_first() else {
        return Err(PackageError::CannotRun {
            program: String::new(),
            reason: crate::t!("pi.error.pkg.empty_command"),
        });
    };
    let mut command = Command::new(program);
    command
        .args(args)
        .stdin(Stdio::null())
        .env("GIT_TERMINAL_PROMPT", "0");
    if let Some(dir) = cwd {
        command.current_dir(dir);
    }
    let output = command.output().map_err(|e| PackageError::CannotRun {
        program: program.clone(),
        reason: crate::i18n::config_words::io_reason(&e),
    })?;
    if output.status.success() {
        return Ok(String::from_utf8_lossy(&output.stdout).trim().to_string());
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let detail = if stderr.trim().is_empty() {
        stdout.trim()
    } else {
        stderr.trim()
    };
    Err(PackageError::CommandFailed {
        command: argv.join(" "),
        status: output.status.to_string(),
        output: detail.to_string(),
    })
}

/// `git <args>` in `cwd`, with hooks switched off (`core.hooksPath=/dev/null`): cloning or
/// updating a package never runs code from it or from the user's git configuration.
pub fn git(args: &[&str], cwd: Option<&Path>) -> Result<String, PackageError> {
    let argv: Vec<String> = ["git", "-c", "core.hooksPath=/dev/null"]
        .into_iter()
        .chain(args.iter().copied())
        .map(str::to_string)
        .collect();
    run(&argv, cwd)
}

/// The npm command line: `npmCommand` from settings, else `npm`.
#[derive(Debug, Clone)]
pub struct Npm {
    argv: Vec<String>,
    custom: bool,
}

impl Npm {
    /// `npmCommand` when set and non-empty, else plain `npm`.
    pub fn new(npm_command: Option<Vec<String>>) -> Npm {
        match npm_command.filter(|c| !c.is_empty()) {
            Some(argv) => Npm { argv, custom: true },
            None => Npm {
                argv: vec!["npm".into()],
                custom: false,
            },
        }
    }

    /// Run the npm command with `args` in `cwd`.
    pub fn run(&self, args: &[&str], cwd: Option<&Path>) -> Result<String, PackageError> {
        let argv: Vec<String> = self
            .argv
            .iter()
            .cloned()
            .chain(args.iter().map(|a| a.to_string()))
            .collect();
        run(&argv, cwd)
    }

    /// `install` with `args`: lifecycle scripts (`preinstall`, `postinstall`, …) are off,
    /// for `npm` and for the `npmCommand` argv alike.
    pub fn install(&self, args: &[&str], cwd: Option<&Path>) -> Result<String, PackageError> {
        let mut full = vec!["install"];
        full.extend_from_slice(args);
        full.push("--ignore-scripts");
        self.run(&full, cwd)
    }

    /// The global modules folder (`root -g`; `pm bin -g` when the command is `bun`).
    pub fn global_root(&self) -> Result<String, PackageError> {
        if self.argv[0] == "bun" {
            return self.run(&["pm", "bin", "-g"], None);
        }
        self.run(&["root", "-g"], None)
    }

    /// Install the dependencies of the package in `dir` (plain `install` with `npmCommand`).
    pub fn install_dependencies(&self, dir: &Path) -> Result<(), PackageError> {
        let args: &[&str] = if self.custom {
            &[]
        } else {
            &["--omit=dev", "--no-audit", "--no-fund"]
        };
        self.install(args, Some(dir)).map(|_| ())
    }
}

/// Whether the `package.json` in `dir` declares runtime dependencies worth installing.
pub fn has_dependencies(dir: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(dir.join("package.json")) else {
        return false;
    };
    let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) else {
        return false;
    };
    ["dependencies", "optionalDependencies"].iter().any(|k| {
        json.get(k)
            .and_then(|d| d.as_object())
            .is_some_and(|d| !d.is_empty())
    })
}
