//! Git package sources: protocol URLs, `git:` shorthands and refs.
//! orig-file: packages/coding-agent/test/git-ssh-url.test.ts

use pi::packages::source::{GitSource, PackageSource};

fn git(raw: &str) -> GitSource {
    match PackageSource::parse(raw).unwrap() {
        PackageSource::Git(g) => g,
        other => panic!("{raw} parsed as {other:?}"),
    }
}

fn check(raw: &str, host: &str, path: &str, url: &str, git_ref: Option<&str>) {
    let g = git(raw);
    assert_eq!(g.host, host);
    assert_eq!(g.path, path);
    assert_eq!(g.url, url);
    assert_eq!(g.git_ref.as_deref(), git_ref);
}

/// orig: Git URL Parsing › protocol URLs (accepted without git: prefix) › should parse HTTPS URL
#[test]
fn https_url() {
    check(
        "https://github.com/user/repo",
        "github.com",
        "user/repo",
        "https://github.com/user/repo",
        None,
    );
}

/// orig: Git URL Parsing › protocol URLs (accepted without git: prefix) › should parse ssh:// URL
#[test]
fn ssh_url() {
    check(
        "ssh://git@github.com/user/repo",
        "github.com",
        "user/repo",
        "ssh://git@github.com/user/repo",
        None,
    );
}

/// orig: Git URL Parsing › protocol URLs (accepted without git: prefix) › should parse protocol URL with ref
#[test]
fn url_with_ref() {
    check(
        "https://github.com/user/repo@v1.0.0",
        "github.com",
        "user/repo",
        "https://github.com/user/repo",
        Some("v1.0.0"),
    );
}

/// orig: Git URL Parsing › shorthand URLs (accepted only with git: prefix) › should parse git@host:path with git: prefix
#[test]
fn scp_shorthand() {
    check(
        "git:git@github.com:user/repo",
        "github.com",
        "user/repo",
        "git@github.com:user/repo",
        None,
    );
}

/// orig: Git URL Parsing › shorthand URLs (accepted only with git: prefix) › should parse host/path shorthand with git: prefix
#[test]
fn host_path_shorthand() {
    check(
        "git:github.com/user/repo",
        "github.com",
        "user/repo",
        "https://github.com/user/repo",
        None,
    );
}

/// orig: Git URL Parsing › shorthand URLs (accepted only with git: prefix) › should parse shorthand with ref and git: prefix
#[test]
fn scp_shorthand_with_ref() {
    check(
        "git:git@github.com:user/repo@v1.0.0",
        "github.com",
        "user/repo",
        "git@github.com:user/repo",
        Some("v1.0.0"),
    );
}

/// orig: Git URL Parsing › unsupported without git: prefix › should reject git@host:path without git: prefix
#[test]
fn scp_without_prefix_is_not_git() {
    assert!(!matches!(
        PackageSource::parse("git@github.com:user/repo"),
        Ok(PackageSource::Git(_))
    ));
}

/// orig: Git URL Parsing › unsupported without git: prefix › should reject host/path shorthand without git: prefix
#[test]
fn host_path_without_prefix_is_not_git() {
    assert!(!matches!(
        PackageSource::parse("github.com/user/repo"),
        Ok(PackageSource::Git(_))
    ));
}

/// orig: Git URL Parsing › unsupported without git: prefix › should reject user/repo shorthand
#[test]
fn user_repo_is_not_git() {
    assert!(!matches!(
        PackageSource::parse("user/repo"),
        Ok(PackageSource::Git(_))
    ));
}
