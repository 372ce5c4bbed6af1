//! Installing with eyes open: `pi install` and `pi update` show what a package's
//! extensions request (their declared capabilities) and go on only when the user agrees
//! at the terminal or passed `--yes`; without a terminal and without `--yes` they refuse.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use super::package_errors::ConsentRefusal;
use crate::lua::capabilities::inspect::Request;
use crate::packages::capabilities::{describe, grown, of_package};
use crate::t;

/// Whether the user agreed (or did not need to).
fn consent(question: &str, yes: bool) -> Result<(), ConsentRefusal> {
    if yes {
        return Ok(());
    }
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        return Err(ConsentRefusal::NeedsYes);
    }
    print!("{question} [y/N] ");
    let _ = std::io::stdout().flush();
    let mut answer = String::new();
    let _ = stdin.lock().read_line(&mut answer);
    match answer.trim().to_ascii_lowercase().as_str() {
        "y" | "yes" => Ok(()),
        _ => Err(ConsentRefusal::Declined),
    }
}

/// Show what the package at `root` requests and ask; a package without extensions
/// needs no consent. `Err` carries why it was refused.
pub fn confirm_install(source: &str, root: &Path, yes: bool) -> Result<(), ConsentRefusal> {
    let reqs = of_package(root);
    if reqs.is_empty() {
        return Ok(());
    }
    println!("{}", t!("pi.pkg.caps_header", source = source));
    for line in describe(root, &reqs, "  ") {
        println!("{line}");
    }
    consent(&t!("pi.pkg.caps_install_question"), yes)
}

/// The requests of the package at `root` before an update, to compare afterwards.
pub fn before_update(root: &Path) -> Vec<(PathBuf, Request)> {
    of_package(root)
}

/// After an update: show what changed in the requests and ask again when they grew.
pub fn confirm_update(
    source: &str,
    root: &Path,
    before: &[(PathBuf, Request)],
    yes: bool,
) -> Result<(), ConsentRefusal> {
    let after = of_package(root);
    let grew = grown(root, before, &after, "  ");
    let fewer = before
        .iter()
        .filter(|(e, _)| !after.iter().any(|(a, _)| a == e))
        .count();
    if grew.is_empty() {
        if before != after.as_slice() || fewer > 0 {
            println!("{}", t!("pi.pkg.caps_changed_not_grown", source = source));
        }
        return Ok(());
    }
    println!("{}", t!("pi.pkg.caps_grown", source = source));
    for line in grew {
        println!("{line}");
    }
    consent(&t!("pi.pkg.caps_update_question"), yes)
}

/// The capability lines `pi list` shows under a package at `root`.
pub fn list_lines(root: &Path) -> Vec<String> {
    describe(root, &of_package(root), "    ")
}

/// A copy of the folder `from` at `to` (links copied as links), to put a package back
/// when its update is refused.
pub fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else if kind.is_symlink() {
            #[cfg(unix)]
            std::os::unix::fs::symlink(std::fs::read_link(entry.path())?, &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}
