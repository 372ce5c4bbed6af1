//! `npmCommand`: the settings argv that stands for `npm` (`["mise", "exec", "node@20",
//! "--", "npm"]`) is the command line of installs and of the global root lookup; a manager
//! made for another `npmCommand` asks that command for its root. The command here is a
//! shell script that records its arguments, where the original replaces the method that
//! runs commands. Installs add `--ignore-scripts` here (lifecycle scripts never run).
//! orig-file: packages/coding-agent/test/package-manager.test.ts

use std::path::{Path, PathBuf};

use pi::packages::entries::Scope;
use pi::packages::manager::PackageManager;
use pi::packages::source::PackageSource;

/// A stand-in for the version manager: it appends its arguments to `log` (one call a
/// line), answers `root -g` with `<root>/<node version>/lib/node_modules`, and for
/// `install -g <name>` creates that package there.
fn version_manager(dir: &Path) -> (PathBuf, PathBuf) {
    let (script, log) = (dir.join("mise.sh"), dir.join("calls.log"));
    let text = format!(
        r#"#!/bin/sh
echo "$*" >> "{log}"
version="$2"; shift 4
root="{root}/$version/lib/node_modules"
if [ "$1" = "root" ]; then echo "$root"; exit 0; fi
if [ "$1" = "install" ] && [ "$2" = "-g" ]; then mkdir -p "$root/$3"; fi
"#,
        log = log.display(),
        root = dir.display()
    );
    std::fs::write(&script, text).unwrap();
    (script, log)
}

fn npm_command(script: &Path, node: &str) -> Option<Vec<String>> {
    let argv = ["sh", &script.to_string_lossy(), "exec", node, "--", "npm"];
    Some(argv.iter().map(|s| s.to_string()).collect())
}

fn calls(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

/// orig: DefaultPackageManager › npmCommand › should use npmCommand argv for npm installs
#[test]
fn installs_run_the_npm_command_argv() {
    let tmp = tempfile::tempdir().unwrap();
    let (script, log) = version_manager(tmp.path());
    let manager = PackageManager::new(tmp.path(), tmp.path(), npm_command(&script, "node@20"));
    let source = PackageSource::parse("npm:@scope/pkg").unwrap();
    let path = manager.install(&source, Scope::Global).unwrap();
    assert_eq!(path, tmp.path().join("node@20/lib/node_modules/@scope/pkg"));
    let calls = calls(&log);
    assert!(
        calls.contains(&"exec node@20 -- npm install -g @scope/pkg --ignore-scripts".to_string()),
        "{calls:?}"
    );
}

/// orig: DefaultPackageManager › npmCommand › should use npmCommand argv for npm root lookup and invalidate cached root when npmCommand changes
#[test]
fn the_global_root_comes_from_the_npm_command() {
    let tmp = tempfile::tempdir().unwrap();
    let (script, log) = version_manager(tmp.path());
    let installed = tmp.path().join("node@20/lib/node_modules/@scope/pkg");
    std::fs::create_dir_all(&installed).unwrap();
    let source = PackageSource::parse("npm:@scope/pkg").unwrap();
    let node20 = PackageManager::new(tmp.path(), tmp.path(), npm_command(&script, "node@20"));
    assert_eq!(
        node20.installed_path(&source, Scope::Global).unwrap(),
        installed
    );
    assert!(node20.is_installed(&source, Scope::Global));
    assert_eq!(calls(&log), ["exec node@20 -- npm root -g"]);
    // The root is asked once per manager.
    node20.is_installed(&source, Scope::Global);
    assert_eq!(calls(&log).len(), 1);
    // Settings with another npmCommand make another manager, which asks its own command.
    let node22 = PackageManager::new(tmp.path(), tmp.path(), npm_command(&script, "node@22"));
    assert!(!node22.is_installed(&source, Scope::Global));
    assert_eq!(calls(&log)[1], "exec node@22 -- npm root -g");
}
