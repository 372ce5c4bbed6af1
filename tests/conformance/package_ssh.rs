//! Git package sources over SSH and HTTPS: protocol URLs without a `git:` prefix,
//! `git@host:path` and `host/path` shorthands only with it, refs pinning a source, and one
//! identity for every spelling of the same repository.
//! orig-file: packages/coding-agent/test/package-manager-ssh.test.ts

use std::path::Path;

use pi::packages::source::{GitSource, PackageSource};

fn git(raw: &str) -> GitSource {
    match PackageSource::parse(raw).unwrap() {
        PackageSource::Git(g) => g,
        other => panic!("{raw}: {other:?}"),
    }
}

fn identity(raw: &str) -> String {
    PackageSource::parse(raw)
        .unwrap()
        .identity(Path::new("/base"))
}

/// orig: Package Manager git source parsing › protocol URLs without git: prefix › should parse https:// URL
#[test]
fn an_https_url() {
    let g = git("https://github.com/user/repo");
    assert_eq!(
        (g.host.as_str(), g.path.as_str()),
        ("github.com", "user/repo")
    );
}

/// orig: Package Manager git source parsing › protocol URLs without git: prefix › should parse ssh:// URL
#[test]
fn an_ssh_url() {
    let g = git("ssh://git@github.com/user/repo");
    assert_eq!(
        (g.host.as_str(), g.path.as_str()),
        ("github.com", "user/repo")
    );
    assert_eq!(g.url, "ssh://git@github.com/user/repo");
}

/// orig: Package Manager git source parsing › shorthand URLs with git: prefix › should parse git@host:path format
#[test]
fn the_scp_like_shorthand() {
    let source = PackageSource::parse("git:git@github.com:user/repo").unwrap();
    assert!(!source.is_pinned());
    let g = git("git:git@github.com:user/repo");
    assert_eq!(
        (g.host.as_str(), g.path.as_str()),
        ("github.com", "user/repo")
    );
    assert_eq!(g.url, "git@github.com:user/repo");
}

/// orig: Package Manager git source parsing › shorthand URLs with git: prefix › should parse host/path shorthand
#[test]
fn the_host_path_shorthand() {
    let g = git("git:github.com/user/repo");
    assert_eq!(
        (g.host.as_str(), g.path.as_str()),
        ("github.com", "user/repo")
    );
}

/// orig: Package Manager git source parsing › shorthand URLs with git: prefix › should parse shorthand with ref
#[test]
fn a_shorthand_with_a_ref() {
    let g = git("git:git@github.com:user/repo@v1.0.0");
    assert_eq!(g.git_ref.as_deref(), Some("v1.0.0"));
    assert_eq!(g.path, "user/repo");
    assert!(
        PackageSource::parse("git:git@github.com:user/repo@v1.0.0")
            .unwrap()
            .is_pinned()
    );
}

/// orig: Package Manager git source parsing › unsupported without git: prefix › should treat git@host:path as local without git: prefix
#[test]
fn the_scp_like_form_alone_is_a_path() {
    assert!(matches!(
        PackageSource::parse("git@github.com:user/repo").unwrap(),
        PackageSource::Local(_)
    ));
}

/// orig: Package Manager git source parsing › unsupported without git: prefix › should treat host/path shorthand as local without git: prefix
#[test]
fn the_host_path_form_alone_is_a_path() {
    assert!(matches!(
        PackageSource::parse("github.com/user/repo").unwrap(),
        PackageSource::Local(_)
    ));
}

/// orig: Package Manager git source parsing › identity normalization › should normalize protocol and shorthand-prefixed URLs to same identity
#[test]
fn one_identity_for_every_spelling() {
    let prefixed = identity("git:git@github.com:user/repo");
    assert_eq!(prefixed, "git:github.com/user/repo");
    assert_eq!(identity("https://github.com/user/repo"), prefixed);
    assert_eq!(identity("ssh://git@github.com/user/repo"), prefixed);
    assert_ne!(identity("ssh://git@github.com/user/other"), prefixed);
}
