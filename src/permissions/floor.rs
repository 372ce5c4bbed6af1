//! The danger floor: commands that are asked about even with `--yolo`, unless a rule of the
//! user names them: `sudo`, a recursive `rm` outside the workspace, `curl … | sh`,
//! `git push --force`, and writes to shell start-up files.

use std::path::{Component, Path, PathBuf};

use super::bash_words::SimpleCommand;

/// A floor rule that a command hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Floor {
    /// `sudo`, `doas`, `su`, `pkexec`.
    Sudo,
    /// `rm -r` of the workspace itself or of anything outside it.
    RemoveOutside,
    /// A download piped into a shell.
    PipeToShell,
    /// `git push --force` (also `-f`, `--force-with-lease`, `+branch`).
    ForcePush,
    /// A write to `~/.bashrc`, `~/.profile`, `~/.zshrc` and the like.
    ShellStartup,
}

impl Floor {
    /// The floor rule's name in messages and docs.
    pub fn id(self) -> &'static str {
        match self {
            Floor::Sudo => "floor:sudo",
            Floor::RemoveOutside => "floor:rm-outside-workspace",
            Floor::PipeToShell => "floor:download-to-shell",
            Floor::ForcePush => "floor:git-push-force",
            Floor::ShellStartup => "floor:shell-startup-file",
        }
    }
}

/// Where commands run: the workspace and the home folder (`~`).
pub struct Place<'a> {
    /// The workspace (pi's working folder).
    pub cwd: &'a Path,
    /// The user's home folder.
    pub home: Option<&'a Path>,
}

/// The floor rule `command` hits, if any; `all` is every command of the same script (for
/// pipelines).
pub fn bash_floor(command: &SimpleCommand, all: &[SimpleCommand], place: &Place) -> Option<Floor> {
    let name = command.name();
    let args = &command.words[command.words.len().min(1)..];
    if matches!(name, "sudo" | "doas" | "su" | "pkexec") {
        return Some(Floor::Sudo);
    }
    if name == "rm" && recursive(args) && operands(args).any(|t| outside(t, place)) {
        return Some(Floor::RemoveOutside);
    }
    if is_interpreter(name)
        && command.stage > 0
        && all.iter().any(|c| {
            c.pipeline == command.pipeline
                && c.stage < command.stage
                && matches!(c.name(), "curl" | "wget" | "fetch")
        })
    {
        return Some(Floor::PipeToShell);
    }
    if name == "git" && force_push(args) {
        return Some(Floor::ForcePush);
    }
    let tee_targets = (name == "tee")
        .then(|| operands(args))
        .into_iter()
        .flatten();
    let copy_target = matches!(name, "cp" | "mv" | "ln" | "install")
        .then(|| operands(args).last())
        .flatten();
    if command
        .writes
        .iter()
        .map(String::as_str)
        .chain(tee_targets)
        .chain(copy_target)
        .any(|t| is_startup_file(t, place))
    {
        return Some(Floor::ShellStartup);
    }
    None
}

/// The floor rule a file tool's write to `path` hits, if any.
pub fn path_floor(tool: &str, path: &str, place: &Place) -> Option<Floor> {
    (matches!(tool, "write" | "edit") && is_startup_file(path, place))
        .then_some(Floor::ShellStartup)
}

fn is_interpreter(name: &str) -> bool {
    matches!(
        name,
        "sh" | "bash"
            | "zsh"
            | "dash"
            | "ksh"
            | "fish"
            | "python"
            | "python3"
            | "perl"
            | "ruby"
            | "node"
    )
}

fn operands(args: &[String]) -> impl Iterator<Item = &str> {
    args.iter()
        .map(String::as_str)
        .filter(|a| !a.starts_with('-') || *a == "-")
}

fn recursive(args: &[String]) -> bool {
    args.iter().any(|a| {
        a == "--recursive"
            || (a.starts_with('-') && !a.starts_with("--") && (a.contains('r') || a.contains('R')))
    })
}

fn force_push(args: &[String]) -> bool {
    let Some(push) = args.iter().position(|a| a == "push") else {
        return false;
    };
    args[push + 1..].iter().any(|a| {
        a == "--force"
            || a.starts_with("--force-with-lease")
            || a == "--force-if-includes"
            || (a.starts_with('-') && !a.starts_with("--") && a.contains('f'))
            || (a.starts_with('+') && a.len() > 1)
    })
}

/// Whether removing `target` reaches outside the workspace (or is the workspace itself).
/// Targets only known when the command runs (`~`, `$HOME`, `$(…)`) count as outside.
fn outside(target: &str, place: &Place) -> bool {
    if target.starts_with('~') || target.contains('$') {
        return true;
    }
    let path = normalize(&place.cwd.join(target));
    let cwd = normalize(place.cwd);
    path == cwd || !path.starts_with(&cwd)
}

fn is_startup_file(target: &str, place: &Place) -> bool {
    const NAMES: [&str; 14] = [
        ".bashrc",
        ".bash_profile",
        ".bash_login",
        ".bash_logout",
        ".profile",
        ".zshrc",
        ".zshenv",
        ".zprofile",
        ".zlogin",
        ".zlogout",
        ".kshrc",
        ".cshrc",
        ".tcshrc",
        "config.fish",
    ];
    let expanded = match (target.strip_prefix("~/"), target.strip_prefix("$HOME/")) {
        (Some(rest), _) | (_, Some(rest)) => match place.home {
            Some(home) => home.join(rest),
            None => PathBuf::from(rest),
        },
        _ => place.cwd.join(target),
    };
    let path = normalize(&expanded);
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    NAMES.contains(&name)
        || path.starts_with("/etc/profile")
        || path.starts_with("/etc/profile.d")
        || path.starts_with("/etc/bash.bashrc")
        || path.starts_with("/etc/zsh")
}

/// `path` with `.` and `..` resolved without touching the disk.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}
