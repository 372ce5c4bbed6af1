//! `pi update` for git packages, against a repository in a local folder standing in for
//! the remote: new commits are pulled, a detached checkout too, rewritten remote history
//! wins, a pinned source stays, a `-e` git source is refreshed each time it is used
//! (unless pinned), and updating a package of the user's settings creates nothing in the
//! project.
//! orig-file: packages/coding-agent/test/git-update.test.ts

use std::path::{Path, PathBuf};
use std::process::Command;

use pi::packages::entries::{Scope, entries_of};
use pi::packages::manager::PackageManager;
use pi::packages::ops::resolve_packages;
use pi::packages::source::PackageSource;
use serde_json::json;

const SOURCE: &str = "git:github.com/test/extension";

fn git(args: &[&str], cwd: &Path) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(cwd)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_SYSTEM", "/dev/null")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn commit(repo: &Path, content: &str, message: &str) -> String {
    std::fs::write(repo.join("init.lua"), content).unwrap();
    git(&["add", "init.lua"], repo);
    git(&["commit", "-q", "-m", message], repo);
    git(&["rev-parse", "HEAD"], repo)
}

fn configure(repo: &Path) {
    git(&["config", "--local", "user.email", "test@test.com"], repo);
    git(&["config", "--local", "user.name", "Test"], repo);
}

/// A "remote" with one commit, cloned where a global package of [`SOURCE`] lives, and the
/// source (or `listed`) in the user's settings.
struct Setup {
    tmp: tempfile::TempDir,
    remote: PathBuf,
    installed: PathBuf,
}

impl Setup {
    fn new(listed: &str) -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let remote = tmp.path().join("remote");
        std::fs::create_dir_all(&remote).unwrap();
        git(&["init", "-q"], &remote);
        configure(&remote);
        commit(&remote, "-- v1", "Initial commit");
        let agent = tmp.path().join("agent");
        let installed = agent.join("git/github.com/test/extension");
        std::fs::create_dir_all(installed.parent().unwrap()).unwrap();
        git(
            &[
                "clone",
                "-q",
                remote.to_str().unwrap(),
                installed.to_str().unwrap(),
            ],
            tmp.path(),
        );
        configure(&installed);
        std::fs::write(
            agent.join("settings.json"),
            json!({ "packages": [listed] }).to_string(),
        )
        .unwrap();
        Setup {
            tmp,
            remote,
            installed,
        }
    }

    /// `pi update [source]` in the temporary folder.
    fn update(&self, source: Option<&str>) {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_pi"));
        cmd.arg("update");
        if let Some(s) = source {
            cmd.arg(s);
        }
        let out = cmd
            .current_dir(self.tmp.path())
            .env("PI_CODING_AGENT_DIR", self.tmp.path().join("agent"))
            .env_remove("PI_OFFLINE")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn head(&self) -> String {
        git(&["rev-parse", "HEAD"], &self.installed)
    }

    fn content(&self) -> String {
        std::fs::read_to_string(self.installed.join("init.lua")).unwrap()
    }
}

/// orig: DefaultPackageManager git update › normal updates (no force-push) › should update to latest commit when remote has new commits
#[test]
fn new_commits_are_pulled() {
    let s = Setup::new(SOURCE);
    assert_eq!(s.content(), "-- v1");
    let new = commit(&s.remote, "-- v2", "Second commit");
    s.update(None);
    assert_eq!(s.head(), new);
    assert_eq!(s.content(), "-- v2");
}

/// orig: DefaultPackageManager git update › normal updates (no force-push) › should handle multiple commits ahead
#[test]
fn several_commits_are_pulled() {
    let s = Setup::new(SOURCE);
    commit(&s.remote, "-- v2", "Second commit");
    commit(&s.remote, "-- v3", "Third commit");
    let latest = commit(&s.remote, "-- v4", "Fourth commit");
    s.update(None);
    assert_eq!(s.head(), latest);
    assert_eq!(s.content(), "-- v4");
}

/// orig: DefaultPackageManager git update › normal updates (no force-push) › should update even when local checkout has no upstream
#[test]
fn a_detached_checkout_is_updated() {
    let s = Setup::new(SOURCE);
    commit(&s.remote, "-- v2", "Second commit");
    let latest = commit(&s.remote, "-- v3", "Third commit");
    let detached = s.head();
    git(&["checkout", "-q", &detached], &s.installed);
    s.update(None);
    assert_eq!(s.head(), latest);
    assert_eq!(s.content(), "-- v3");
}

/// orig: DefaultPackageManager git update › force-push scenarios › should recover when remote history is rewritten
#[test]
fn rewritten_remote_history_wins() {
    let s = Setup::new(SOURCE);
    let initial = git(&["rev-parse", "HEAD"], &s.remote);
    commit(&s.remote, "-- v2", "Commit to keep");
    s.update(None);
    assert_eq!(s.content(), "-- v2");
    git(&["reset", "-q", "--hard", &initial], &s.remote);
    let rewritten = commit(&s.remote, "-- v2-rewritten", "Rewritten commit");
    s.update(None);
    assert_eq!(s.head(), rewritten);
    assert_eq!(s.content(), "-- v2-rewritten");
}

/// orig: DefaultPackageManager git update › force-push scenarios › should recover when local commit no longer exists in remote
#[test]
fn a_local_commit_gone_from_the_remote() {
    let s = Setup::new(SOURCE);
    commit(&s.remote, "-- v2", "Commit A");
    commit(&s.remote, "-- v3", "Commit B");
    s.update(None);
    assert_eq!(s.content(), "-- v3");
    git(&["reset", "-q", "--hard", "HEAD~2"], &s.remote);
    let new = commit(&s.remote, "-- v2-new", "New commit replacing A and B");
    s.update(None);
    assert_eq!(s.head(), new);
    assert_eq!(s.content(), "-- v2-new");
}

/// orig: DefaultPackageManager git update › force-push scenarios › should handle complete history rewrite
#[test]
fn a_complete_rewrite() {
    let s = Setup::new(SOURCE);
    commit(&s.remote, "-- v2", "v2");
    commit(&s.remote, "-- v3", "v3");
    s.update(None);
    git(&["reset", "-q", "--hard", "HEAD~2"], &s.remote);
    commit(&s.remote, "-- rewrite-a", "Rewrite A");
    let last = commit(&s.remote, "-- rewrite-b", "Rewrite B");
    s.update(None);
    assert_eq!(s.head(), last);
    assert_eq!(s.content(), "-- rewrite-b");
}

/// orig: DefaultPackageManager git update › pinned sources › should not update pinned git sources (with @ref)
#[test]
fn a_pinned_source_stays() {
    let s = Setup::new(&format!("{SOURCE}@main"));
    let initial = s.head();
    git(&["checkout", "-q", &initial], &s.installed);
    commit(&s.remote, "-- v2", "Second commit");
    s.update(None);
    assert_eq!(s.head(), initial);
    assert_eq!(s.content(), "-- v1");
}

/// A `-e` git source cached where pi keeps temporary packages, cloned from a local remote.
fn temporary(source: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let remote = tmp.path().join("remote");
    std::fs::create_dir_all(&remote).unwrap();
    git(&["init", "-q"], &remote);
    configure(&remote);
    commit(&remote, "-- stale", "v1");
    let manager = PackageManager::new(&tmp.path().join("agent"), tmp.path(), None);
    let cached = manager
        .installed_path(&PackageSource::parse(source).unwrap(), Scope::Temporary)
        .unwrap();
    let _ = std::fs::remove_dir_all(&cached);
    std::fs::create_dir_all(cached.parent().unwrap()).unwrap();
    git(
        &[
            "clone",
            "-q",
            remote.to_str().unwrap(),
            cached.to_str().unwrap(),
        ],
        tmp.path(),
    );
    commit(&remote, "-- fresh", "v2");
    (tmp, remote, cached)
}

fn resolve_temporary(tmp: &Path, source: &str) -> Vec<PathBuf> {
    let manager = PackageManager::new(&tmp.join("agent"), tmp, None);
    let settings = json!({ "packages": [source] });
    let (packages, _) = entries_of(settings.as_object().unwrap(), Scope::Temporary, tmp);
    let r = resolve_packages(&manager, &packages, false, &|_| {});
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    r.extensions
}

/// orig: DefaultPackageManager git update › temporary git sources › should refresh cached temporary git sources when resolving
#[test]
fn a_temporary_git_source_is_refreshed_when_used() {
    let source = format!("git:github.com/conformance/refresh-{}", std::process::id());
    let (tmp, _remote, cached) = temporary(&source);
    assert_eq!(
        std::fs::read_to_string(cached.join("init.lua")).unwrap(),
        "-- stale"
    );
    let found = resolve_temporary(tmp.path(), &source);
    let text = std::fs::read_to_string(cached.join("init.lua")).unwrap();
    std::fs::remove_dir_all(&cached).unwrap();
    assert_eq!(found, vec![cached.join("init.lua")]);
    assert_eq!(text, "-- fresh");
}

/// orig: DefaultPackageManager git update › temporary git sources › should not refresh pinned temporary git sources
#[test]
fn a_pinned_temporary_git_source_is_not_refreshed() {
    let source = format!(
        "git:github.com/conformance/pinned-{}@main",
        std::process::id()
    );
    let (tmp, _remote, cached) = temporary(&source);
    resolve_temporary(tmp.path(), &source);
    let text = std::fs::read_to_string(cached.join("init.lua")).unwrap();
    std::fs::remove_dir_all(&cached).unwrap();
    assert_eq!(text, "-- stale");
}

/// orig: DefaultPackageManager git update › scope-aware update › should not install locally when source is only registered globally
#[test]
fn updating_a_users_package_creates_nothing_in_the_project() {
    let s = Setup::new(SOURCE);
    commit(&s.remote, "-- v2", "Second commit");
    let project_copy = s.tmp.path().join(".pi/git/github.com/test/extension");
    assert!(!project_copy.exists());
    s.update(Some(SOURCE));
    assert_eq!(s.content(), "-- v2");
    assert!(!project_copy.exists());
}
