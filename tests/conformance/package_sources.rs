//! Package source parsing and identity (deduplication of the same repository written in
//! different forms).
//! orig-file: packages/coding-agent/test/package-manager.test.ts

use std::path::Path;

use pi::packages::source::PackageSource;

fn kind(raw: &str) -> &'static str {
    match PackageSource::parse(raw).unwrap() {
        PackageSource::Npm { .. } => "npm",
        PackageSource::Git(_) => "git",
        PackageSource::Local(_) => "local",
    }
}

fn identity(raw: &str) -> String {
    PackageSource::parse(raw)
        .unwrap()
        .identity(Path::new("/base"))
}

fn git(raw: &str) -> pi::packages::source::GitSource {
    match PackageSource::parse(raw).unwrap() {
        PackageSource::Git(g) => g,
        other => panic!("{other:?}"),
    }
}

/// orig: DefaultPackageManager › source parsing › should parse package source types from docs examples
#[test]
fn docs_examples() {
    for (raw, want) in [
        ("npm:@scope/pkg@1.2.3", "npm"),
        ("npm:pkg", "npm"),
        ("git:github.com/user/repo@v1", "git"),
        ("https://github.com/user/repo@v1", "git"),
        ("git:git@github.com:user/repo@v1", "git"),
        ("ssh://git@github.com/user/repo@v1", "git"),
        ("/absolute/path/to/package", "local"),
        ("./relative/path/to/package", "local"),
        ("../relative/path/to/package", "local"),
    ] {
        assert_eq!(kind(raw), want, "{raw}");
    }
}

/// orig: DefaultPackageManager › source parsing › should never parse dot-relative paths as git
#[test]
fn dot_paths_are_local() {
    assert_eq!(
        PackageSource::parse("./packages/agent-timers").unwrap(),
        PackageSource::Local("./packages/agent-timers".into())
    );
    assert_eq!(
        PackageSource::parse("../packages/agent-timers").unwrap(),
        PackageSource::Local("../packages/agent-timers".into())
    );
}

/// orig: DefaultPackageManager › HTTPS git URL parsing (old behavior) › should parse HTTPS GitHub URLs correctly
#[test]
fn https_github() {
    let g = git("https://github.com/user/repo");
    assert_eq!(
        (g.host.as_str(), g.path.as_str()),
        ("github.com", "user/repo")
    );
    assert!(
        !PackageSource::parse("https://github.com/user/repo")
            .unwrap()
            .is_pinned()
    );
}

/// orig: DefaultPackageManager › HTTPS git URL parsing (old behavior) › should parse HTTPS URLs with git: prefix
#[test]
fn https_with_git_prefix() {
    let g = git("git:https://github.com/user/repo");
    assert_eq!(
        (g.host.as_str(), g.path.as_str()),
        ("github.com", "user/repo")
    );
}

/// orig: DefaultPackageManager › HTTPS git URL parsing (old behavior) › should parse HTTPS URLs with ref
#[test]
fn https_with_ref() {
    let g = git("https://github.com/user/repo@v1.2.3");
    assert_eq!(
        (g.host.as_str(), g.path.as_str()),
        ("github.com", "user/repo")
    );
    assert_eq!(g.git_ref.as_deref(), Some("v1.2.3"));
    assert!(
        PackageSource::parse("https://github.com/user/repo@v1.2.3")
            .unwrap()
            .is_pinned()
    );
}

/// orig: DefaultPackageManager › HTTPS git URL parsing (old behavior) › should parse host/path shorthand only with git: prefix
#[test]
fn shorthand_with_prefix() {
    let g = git("git:github.com/user/repo");
    assert_eq!(
        (g.host.as_str(), g.path.as_str()),
        ("github.com", "user/repo")
    );
}

/// orig: DefaultPackageManager › HTTPS git URL parsing (old behavior) › should treat host/path shorthand as local without git: prefix
#[test]
fn shorthand_without_prefix_is_local() {
    assert_eq!(kind("github.com/user/repo"), "local");
}

/// `name: url => host;` rows: HTTPS URLs on different hosts.
macro_rules! hosts {
    ($($(#[$m:meta])* $name:ident: $url:expr => $host:expr;)*) => {$(
        $(#[$m])*
        #[test]
        fn $name() {
            let g = git($url);
            assert_eq!((g.host.as_str(), g.path.as_str()), ($host, "user/repo"));
        }
    )*};
}

hosts! {
    /// orig: DefaultPackageManager › HTTPS git URL parsing (old behavior) › should parse HTTPS URLs with .git suffix
    dot_git_suffix: "https://github.com/user/repo.git" => "github.com";
    /// orig: DefaultPackageManager › HTTPS git URL parsing (old behavior) › should parse GitLab HTTPS URLs
    gitlab: "https://gitlab.com/user/repo" => "gitlab.com";
    /// orig: DefaultPackageManager › HTTPS git URL parsing (old behavior) › should parse Bitbucket HTTPS URLs
    bitbucket: "https://bitbucket.org/user/repo" => "bitbucket.org";
    /// orig: DefaultPackageManager › HTTPS git URL parsing (old behavior) › should parse Codeberg HTTPS URLs
    codeberg: "https://codeberg.org/user/repo" => "codeberg.org";
}

/// orig: DefaultPackageManager › HTTPS git URL parsing (old behavior) › should generate correct package identity for protocol and git:-prefixed URLs
#[test]
fn identity_of_url_forms() {
    for raw in [
        "https://github.com/user/repo",
        "https://github.com/user/repo@v1.0.0",
        "git:github.com/user/repo",
        "https://github.com/user/repo.git",
    ] {
        assert_eq!(identity(raw), "git:github.com/user/repo", "{raw}");
    }
}

/// orig: DefaultPackageManager › HTTPS git URL parsing (old behavior) › should deduplicate git URLs with different supported formats
#[test]
fn same_identity_for_equivalent_urls() {
    let a = identity("https://github.com/user/repo");
    assert_eq!(a, identity("git:github.com/user/repo"));
    assert_eq!(a, identity("https://github.com/user/repo.git"));
}

/// orig: DefaultPackageManager › HTTPS git URL parsing (old behavior) › should handle HTTPS URLs with refs in resolve
#[test]
fn refs_with_slashes() {
    assert_eq!(
        git("https://github.com/user/repo@main").git_ref.as_deref(),
        Some("main")
    );
    assert_eq!(
        git("https://github.com/user/repo@feature/branch")
            .git_ref
            .as_deref(),
        Some("feature/branch")
    );
}

/// orig: DefaultPackageManager › package deduplication › should dedupe SSH and HTTPS URLs for same repo
#[test]
fn ssh_and_https_same_identity() {
    assert_eq!(
        identity("https://github.com/user/repo"),
        "git:github.com/user/repo"
    );
    assert_eq!(
        identity("git:git@github.com:user/repo"),
        "git:github.com/user/repo"
    );
}

/// orig: DefaultPackageManager › package deduplication › should dedupe SSH and HTTPS with refs
#[test]
fn identity_ignores_refs() {
    assert_eq!(
        identity("https://github.com/user/repo@v1.0.0"),
        "git:github.com/user/repo"
    );
    assert_eq!(
        identity("git:git@github.com:user/repo@v1.0.0"),
        "git:github.com/user/repo"
    );
}

/// orig: DefaultPackageManager › package deduplication › should dedupe SSH URL with ssh:// protocol and git@ format
#[test]
fn ssh_forms_same_identity() {
    assert_eq!(
        identity("ssh://git@github.com/user/repo"),
        "git:github.com/user/repo"
    );
    assert_eq!(
        identity("git:git@github.com:user/repo"),
        "git:github.com/user/repo"
    );
}

/// orig: DefaultPackageManager › package deduplication › should dedupe all supported URL formats for same repo
#[test]
fn every_form_same_identity() {
    for raw in [
        "https://github.com/user/repo",
        "https://github.com/user/repo.git",
        "ssh://git@github.com/user/repo",
        "git:https://github.com/user/repo",
        "git:github.com/user/repo",
        "git:git@github.com:user/repo",
        "git:git@github.com:user/repo.git",
    ] {
        assert_eq!(identity(raw), "git:github.com/user/repo", "{raw}");
    }
}

/// orig: DefaultPackageManager › package deduplication › should keep different repos separate (HTTPS vs SSH)
#[test]
fn different_repos_differ() {
    assert_eq!(
        identity("https://github.com/user/repo1"),
        "git:github.com/user/repo1"
    );
    assert_eq!(
        identity("git:git@github.com:user/repo2"),
        "git:github.com/user/repo2"
    );
}
