//! `pi install`, `pi remove`/`pi uninstall`, `pi update` and `pi list`: package commands,
//! recognised before the normal command line is parsed.

use std::io::IsTerminal;
use std::path::Path;

use super::package_errors::{PackageCommandError, UpdateFailure, UpdateProblem};
use crate::config::error::IoFailure;
use crate::config::paths::agent_dir;
use crate::config::settings::read_settings_file;
use crate::packages::entries::{Scope, ScopedPackage};
use crate::packages::error::PackageError;
use crate::packages::manager::PackageManager;
use crate::packages::ops::{
    add_to_settings, npm_command, remove_from_settings, scope_packages, settings_source,
};
use crate::packages::source::PackageSource;
use crate::packages::store::{self, Restored};
use crate::t;

const COMMANDS: [&str; 5] = ["install", "remove", "uninstall", "update", "list"];

/// Whether the command line starts with a package command.
pub fn is_package_command(argv: &[String]) -> bool {
    argv.first().is_some_and(|w| COMMANDS.contains(&w.as_str()))
}

/// A parsed package command line.
#[derive(Debug, PartialEq, Eq)]
struct Parsed {
    command: String,
    source: Option<String>,
    local: bool,
    help: bool,
    /// `--yes`: agree to the capabilities a package's extensions request.
    yes: bool,
}

/// The usage text of `command`.
pub(super) fn usage(command: &str) -> String {
    match command {
        "install" => format!(
            "{}\n\n{}",
            t!("pi.pkg.usage_install"),
            t!("pi.pkg.usage_install_restore")
        ),
        "remove" | "uninstall" => t!("pi.pkg.usage_remove", command = command),
        "update" => t!("pi.pkg.usage_update"),
        _ => t!("pi.pkg.usage_list"),
    }
}

fn parse(argv: &[String]) -> Result<Parsed, PackageCommandError> {
    let command = argv[0].clone();
    let mut parsed = Parsed {
        command: command.clone(),
        source: None,
        local: false,
        help: false,
        yes: false,
    };
    let takes_local = matches!(command.as_str(), "install" | "remove" | "uninstall");
    let takes_source = command != "list";
    for word in &argv[1..] {
        match word.as_str() {
            "-h" | "--help" => parsed.help = true,
            "-l" | "--local" if takes_local => parsed.local = true,
            "-y" | "--yes" if matches!(command.as_str(), "install" | "update") => parsed.yes = true,
            // pi's own `update` flag for packages only: this build updates only packages.
            "--extensions" if command == "update" => {}
            w if w.starts_with('-') && w.len() > 1 => {
                return Err(PackageCommandError::UnknownOption {
                    option: w.to_string(),
                    command,
                });
            }
            w if takes_source && parsed.source.is_none() => parsed.source = Some(w.to_string()),
            w => {
                return Err(PackageCommandError::ExtraArgument {
                    arg: w.to_string(),
                    command,
                });
            }
        }
    }
    // `pi install` alone restores the lock; remove needs a source.
    if !parsed.help && takes_local && command != "install" && parsed.source.is_none() {
        return Err(PackageCommandError::MissingSource { command });
    }
    Ok(parsed)
}

/// Run a package command (`argv[0]` is the command word); returns the exit code.
pub fn run(argv: &[String]) -> i32 {
    let parsed = match parse(argv) {
        Ok(parsed) => parsed,
        Err(e) => {
            eprintln!("{}", t!("pi.cli.error", error = e.to_string()));
            return 1;
        }
    };
    if parsed.help {
        println!("{}", usage(&parsed.command));
        return 0;
    }
    let cwd = std::env::current_dir().unwrap_or_default();
    let agent = agent_dir();
    let result = match parsed.command.as_str() {
        "install" => install(&agent, &cwd, &parsed),
        "remove" | "uninstall" => remove(&agent, &cwd, &parsed),
        "update" => update(&agent, &cwd, parsed.source.as_deref(), parsed.yes),
        _ => list(&agent, &cwd),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("{}", t!("pi.cli.error", error = e.to_string()));
            1
        }
    }
}

fn scope_of(parsed: &Parsed) -> Scope {
    if parsed.local {
        Scope::Project
    } else {
        Scope::Global
    }
}

/// The manager for `scope`: global operations use the global `npmCommand`, project ones
/// the project's when it sets one.
fn manager(agent: &Path, cwd: &Path, scope: Scope) -> PackageManager {
    let read = |s: Scope| {
        s.settings_file(agent, cwd)
            .and_then(|f| read_settings_file(&f).ok())
            .and_then(|m| npm_command(&m))
    };
    let command = match scope {
        Scope::Project => read(Scope::Project).or_else(|| read(Scope::Global)),
        _ => read(Scope::Global),
    };
    PackageManager::new(agent, cwd, command)
}

fn dim(text: &str) -> String {
    if std::io::stdout().is_terminal() {
        format!("\x1b[2m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

fn install(agent: &Path, cwd: &Path, parsed: &Parsed) -> Result<(), PackageCommandError> {
    let scope = scope_of(parsed);
    let Some(raw) = parsed.source.as_deref() else {
        return restore(agent, cwd, scope);
    };
    let stored = settings_source(raw, scope, agent, cwd)?;
    let source = PackageSource::parse(&stored)?;
    if !matches!(source, PackageSource::Local(_)) {
        println!("{}", dim(&t!("pi.pkg.installing", source = raw)));
    }
    let manager = manager(agent, cwd, scope);
    let present = manager.is_installed(&source, scope);
    let root = manager
        .install(&source, scope)
        .map_err(|e| PackageError::InstallFailed {
            source: raw.to_string(),
            cause: Box::new(e),
        })?;
    if let Err(reason) = super::package_consent::confirm_install(raw, &root, parsed.yes) {
        if !present {
            let _ = manager.uninstall(&source, scope);
        }
        return Err(PackageCommandError::InstallRefused {
            source: raw.to_string(),
            reason,
        });
    }
    add_to_settings(agent, cwd, scope, &stored)?;
    store::record(&manager, scope, &stored)?;
    println!("{}", t!("pi.pkg.installed", source = raw));
    Ok(())
}

/// `pi install` without a source: install exactly what the scope's lock lists.
fn restore(agent: &Path, cwd: &Path, scope: Scope) -> Result<(), PackageCommandError> {
    let lock = store::lock_file(scope, agent, cwd);
    let progress = |source: &str| println!("{}", dim(&t!("pi.pkg.restoring", source = source)));
    let restored = store::restore(&manager(agent, cwd, scope), scope, &progress)?;
    if restored.is_empty() {
        println!("{}", t!("pi.pkg.lock_empty", lock = lock));
    }
    for item in restored {
        match item {
            Restored::Installed(source) => println!("{}", t!("pi.pkg.restored", source = source)),
            Restored::UpToDate(source) => {
                println!("{}", dim(&t!("pi.pkg.lock_up_to_date", source = source)))
            }
        }
    }
    Ok(())
}

fn remove(agent: &Path, cwd: &Path, parsed: &Parsed) -> Result<(), PackageCommandError> {
    let raw = parsed.source.as_deref().unwrap_or_default();
    let scope = scope_of(parsed);
    let stored = settings_source(raw, scope, agent, cwd)?;
    let identity = PackageSource::parse(&stored)?.identity(&scope.base_dir(agent, cwd));
    let removed = remove_from_settings(agent, cwd, scope, &identity)?;
    if removed.is_empty() {
        return Err(PackageCommandError::NoMatch {
            source: raw.to_string(),
            scope,
        });
    }
    let manager = manager(agent, cwd, scope);
    for package in &removed {
        manager.uninstall(&package.source, scope).map_err(|cause| {
            PackageCommandError::RemoveFailed {
                source: raw.to_string(),
                cause: Box::new(cause),
            }
        })?;
    }
    store::forget(&manager, scope, &identity)?;
    println!("{}", t!("pi.pkg.removed", source = raw));
    Ok(())
}

fn update(
    agent: &Path,
    cwd: &Path,
    only: Option<&str>,
    yes: bool,
) -> Result<(), PackageCommandError> {
    if crate::ai::local_models::offline_env() {
        println!("{}", t!("pi.pkg.offline"));
        return Ok(());
    }
    let mut matched = false;
    let mut failures = Vec::new();
    for scope in [Scope::Global, Scope::Project] {
        let base = scope.base_dir(agent, cwd);
        let wanted = match only {
            Some(raw) => Some(
                PackageSource::parse(&settings_source(raw, scope, agent, cwd)?)?.identity(&base),
            ),
            None => None,
        };
        let manager = manager(agent, cwd, scope);
        for package in scope_packages(agent, cwd, scope)? {
            if wanted.as_ref().is_some_and(|w| *w != package.identity()) {
                continue;
            }
            matched = true;
            update_one(&manager, &package, yes, &mut failures);
        }
    }
    if let Some(raw) = only
        && !matched
    {
        return Err(PackageCommandError::NoMatchAny {
            source: raw.to_string(),
        });
    }
    match failures.is_empty() {
        true => Ok(()),
        false => Err(PackageCommandError::UpdateFailed(failures)),
    }
}

fn update_one(
    manager: &PackageManager,
    package: &ScopedPackage,
    yes: bool,
    failures: &mut Vec<UpdateFailure>,
) {
    let source = &package.entry.source;
    if package.source.is_pinned() {
        println!("{}", dim(&t!("pi.pkg.pinned", source = source)));
        return;
    }
    if matches!(package.source, PackageSource::Local(_)) {
        return;
    }
    println!("{}", dim(&t!("pi.pkg.updating", source = source)));
    let root = manager.installed_path(&package.source, package.scope).ok();
    let kept = root.as_deref().and_then(keep_for_update);
    update_checked(
        manager,
        package,
        root.as_deref(),
        kept.as_ref(),
        yes,
        failures,
    );
    if let Some((backup, _)) = kept {
        let _ = std::fs::remove_dir_all(backup);
    }
}

fn update_checked(
    manager: &PackageManager,
    package: &ScopedPackage,
    root: Option<&Path>,
    kept: Option<&(
        std::path::PathBuf,
        Vec<(
            std::path::PathBuf,
            crate::lua::capabilities::inspect::Request,
        )>,
    )>,
    yes: bool,
    failures: &mut Vec<UpdateFailure>,
) {
    let source = &package.entry.source;
    match manager.update(&package.source, package.scope) {
        Ok(_) => {
            if let (Some(root), Some((backup, before))) = (root, kept)
                && let Err(refused) =
                    super::package_consent::confirm_update(source, root, before, yes)
            {
                let restored = std::fs::remove_dir_all(root)
                    .and_then(|()| super::package_consent::copy_tree(backup, root));
                let problem = match restored {
                    Ok(()) => UpdateProblem::Refused(refused),
                    Err(e) => UpdateProblem::NotPutBack(IoFailure::of(&e)),
                };
                failures.push(UpdateFailure {
                    source: source.clone(),
                    problem,
                });
                return;
            }
            match store::record(manager, package.scope, source) {
                Ok(()) => println!("{}", t!("pi.pkg.updated", source = source)),
                Err(e) => failures.push(UpdateFailure {
                    source: source.clone(),
                    problem: UpdateProblem::Package(e),
                }),
            }
        }
        Err(e) => failures.push(UpdateFailure {
            source: source.clone(),
            problem: UpdateProblem::Package(e),
        }),
    }
}

/// A copy of the installed package at `root` and what its extensions request, kept
/// while it is updated (to put it back when the grown request is refused).
fn keep_for_update(
    root: &Path,
) -> Option<(
    std::path::PathBuf,
    Vec<(
        std::path::PathBuf,
        crate::lua::capabilities::inspect::Request,
    )>,
)> {
    if !root.is_dir() {
        return None;
    }
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let backup = std::env::temp_dir().join(format!("pi-update-{}-{stamp}", std::process::id()));
    if super::package_consent::copy_tree(root, &backup).is_err() {
        let _ = std::fs::remove_dir_all(&backup);
        return None;
    }
    Some((backup, super::package_consent::before_update(root)))
}

fn list(agent: &Path, cwd: &Path) -> Result<(), PackageCommandError> {
    let sections = [
        (Scope::Global, t!("pi.pkg.user_packages")),
        (Scope::Project, t!("pi.pkg.project_packages")),
    ];
    let mut any = false;
    for (scope, header) in sections {
        let packages = scope_packages(agent, cwd, scope)?;
        if packages.is_empty() {
            continue;
        }
        if any {
            println!();
        }
        any = true;
        println!("{header}");
        let manager = manager(agent, cwd, scope);
        for package in packages {
            let mut line = format!("  {}", package.entry.source);
            if package.entry.filtered {
                line.push(' ');
                line.push_str(&t!("pi.pkg.filtered"));
            }
            println!("{line}");
            let where_ = match manager.installed_path(&package.source, scope) {
                Ok(path) if path.exists() => path.display().to_string(),
                _ => t!("pi.pkg.not_installed"),
            };
            println!("    {}", dim(&where_));
            if let Ok(path) = manager.installed_path(&package.source, scope)
                && path.exists()
            {
                for line in super::package_consent::list_lines(&path) {
                    println!("{line}");
                }
            }
        }
    }
    if !any {
        println!("{}", t!("pi.pkg.none"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn recognises_only_package_words_first() {
        assert!(is_package_command(&words("install npm:x")));
        assert!(is_package_command(&words("uninstall x")));
        assert!(!is_package_command(&words("-p list")));
        assert!(!is_package_command(&[]));
    }

    #[test]
    fn parses_sources_flags_and_rejects_bad_words() {
        let p = parse(&words("install ./pkg -l")).unwrap();
        assert_eq!(p.source.as_deref(), Some("./pkg"));
        assert!(p.local);
        assert!(parse(&words("update -l")).is_err());
        assert!(parse(&words("list -x")).is_err());
        assert!(parse(&words("list extra")).is_err());
        assert!(parse(&words("remove")).is_err());
        assert_eq!(parse(&words("install -l")).unwrap().source, None);
        assert!(parse(&words("remove --help")).unwrap().help);
        assert_eq!(parse(&words("update")).unwrap().source, None);
    }
}
