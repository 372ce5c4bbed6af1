//! Path expansion and resolution for the file tools.
//! orig-file: packages/coding-agent/test/path-utils.test.ts

use std::path::{Path, PathBuf};

use pi::tools::paths::{expand_path, resolve_read_path, resolve_to_cwd};

/// orig: path-utils › expandPath › should expand ~ to home directory
#[test]
fn tilde_expands() {
    assert!(!expand_path("~").contains('~'));
}

/// orig: path-utils › expandPath › should expand ~/path to home directory
#[test]
fn tilde_slash_expands() {
    let out = expand_path("~/Documents/file.txt");
    assert!(!out.contains("~/"));
    assert!(out.ends_with("/Documents/file.txt"));
}

/// orig: path-utils › expandPath › should normalize Unicode spaces
#[test]
fn unicode_spaces_become_spaces() {
    assert_eq!(expand_path("file\u{00A0}name.txt"), "file name.txt");
}

/// orig: path-utils › resolveToCwd › should resolve absolute paths as-is
#[test]
fn absolute_paths_as_is() {
    assert_eq!(
        resolve_to_cwd("/absolute/path/file.txt", Path::new("/some/cwd")),
        PathBuf::from("/absolute/path/file.txt")
    );
}

/// orig: path-utils › resolveToCwd › should resolve relative paths against cwd
#[test]
fn relative_paths_against_cwd() {
    assert_eq!(
        resolve_to_cwd("relative/file.txt", Path::new("/some/cwd")),
        PathBuf::from("/some/cwd/relative/file.txt")
    );
}

fn dir_with(name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(name), "content").unwrap();
    dir
}

/// orig: path-utils › resolveReadPath › should resolve existing file path
#[test]
fn existing_file() {
    let dir = dir_with("test-file.txt");
    assert_eq!(
        resolve_read_path("test-file.txt", dir.path()),
        dir.path().join("test-file.txt")
    );
}

/// orig: path-utils › resolveReadPath › should handle NFC vs NFD Unicode normalization (macOS filenames with accents)
#[test]
fn nfc_finds_nfd_file() {
    let nfd = "file\u{0065}\u{0301}.txt";
    let dir = dir_with(nfd);
    let found = resolve_read_path("file\u{00e9}.txt", dir.path());
    assert!(found.starts_with(dir.path()));
    assert!(found.exists(), "{found:?}");
}

/// orig: path-utils › resolveReadPath › should handle curly quotes vs straight quotes (macOS filenames)
#[test]
fn straight_quote_finds_curly_quote_file() {
    let curly = "Capture d\u{2019}cran.txt";
    let dir = dir_with(curly);
    assert_eq!(
        resolve_read_path("Capture d'cran.txt", dir.path()),
        dir.path().join(curly)
    );
}

/// orig: path-utils › resolveReadPath › should handle combined NFC + curly quote (French macOS screenshots)
#[test]
fn nfc_with_curly_quote() {
    let name = "Capture d\u{2019}\u{00e9}cran.txt";
    let dir = dir_with(name);
    assert_eq!(
        resolve_read_path("Capture d'\u{00e9}cran.txt", dir.path()),
        dir.path().join(name)
    );
}

/// orig: path-utils › resolveReadPath › should handle macOS screenshot AM/PM variant with narrow no-break space
#[test]
fn screenshot_narrow_no_break_space() {
    let name = "Screenshot 2024-01-01 at 10.00.00\u{202F}AM.png";
    let dir = dir_with(name);
    assert_eq!(
        resolve_read_path("Screenshot 2024-01-01 at 10.00.00 AM.png", dir.path()),
        dir.path().join(name)
    );
}
