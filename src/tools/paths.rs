//! Resolving the paths the model passes to tools.
//!
//! A leading `@` is dropped, Unicode space variants become plain spaces,
//! `~` expands to the home directory and relative paths resolve against the
//! session's working directory. Paths outside that directory are allowed.

use std::path::{Component, Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;
use unicode_normalization::UnicodeNormalization;

/// Unicode space characters that are replaced by a plain space.
fn is_unicode_space(c: char) -> bool {
    matches!(
        c,
        '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}'
    )
}

/// Strip a leading `@`, normalise Unicode spaces and expand `~`.
pub fn expand_path(path: &str) -> String {
    let without_at = path.strip_prefix('@').unwrap_or(path);
    let normalized: String = without_at
        .chars()
        .map(|c| if is_unicode_space(c) { ' ' } else { c })
        .collect();
    let home = || dirs::home_dir().map(|h| h.to_string_lossy().into_owned());
    if normalized == "~" {
        if let Some(home) = home() {
            return home;
        }
    } else if let Some(rest) = normalized.strip_prefix("~/")
        && let Some(home) = home()
    {
        return format!("{home}/{rest}");
    }
    normalized
}

/// Resolve `path` against `cwd` (absolute paths are returned as given,
/// relative ones are joined and normalised lexically).
pub fn resolve_to_cwd(path: &str, cwd: &Path) -> PathBuf {
    let expanded = PathBuf::from(expand_path(path));
    if expanded.is_absolute() {
        return expanded;
    }
    let base = if cwd.is_absolute() {
        cwd.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|dir| dir.join(cwd))
            .unwrap_or_else(|_| cwd.to_path_buf())
    };
    normalize_lexically(&base.join(expanded))
}

/// Remove `.` components and apply `..` without touching the file system.
pub fn normalize_lexically(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push(component);
                }
            }
            other => out.push(other),
        }
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

#[expect(
    clippy::expect_used,
    reason = "a constant pattern, compiled by the unit tests"
)]
static AM_PM: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i) (AM|PM)\.").expect("valid AM/PM pattern"));

/// macOS screenshot names put a narrow no-break space before `AM`/`PM`.
fn screenshot_am_pm_variant(path: &str) -> String {
    AM_PM.replace_all(path, "\u{202F}$1.").into_owned()
}

/// macOS screenshot names use a curly apostrophe (U+2019).
fn curly_quote_variant(path: &str) -> String {
    path.replace('\'', "\u{2019}")
}

/// Resolve a path for reading: like [`resolve_to_cwd`], but when the file
/// does not exist, try the spellings macOS uses for screenshot names
/// (narrow no-break space before AM/PM, NFD form, curly apostrophe).
pub fn resolve_read_path(path: &str, cwd: &Path) -> PathBuf {
    let resolved = resolve_to_cwd(path, cwd);
    if resolved.exists() {
        return resolved;
    }
    let Some(text) = resolved.to_str() else {
        return resolved;
    };
    let nfd: String = text.nfd().collect();
    let candidates = [
        screenshot_am_pm_variant(text),
        nfd.clone(),
        curly_quote_variant(text),
        curly_quote_variant(&nfd),
    ];
    candidates
        .into_iter()
        .filter(|candidate| candidate != text)
        .map(PathBuf::from)
        .find(|candidate| candidate.exists())
        .unwrap_or(resolved)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_at_and_normalises_spaces() {
        assert_eq!(expand_path("@src/a\u{00A0}b.rs"), "src/a b.rs");
    }

    #[test]
    fn expands_home() {
        let home = dirs::home_dir().unwrap();
        assert_eq!(PathBuf::from(expand_path("~")), home);
        assert_eq!(PathBuf::from(expand_path("~/x")), home.join("x"));
        assert_eq!(expand_path("~x"), "~x");
    }

    #[test]
    fn resolves_relative_and_keeps_absolute() {
        let cwd = Path::new("/work/project");
        assert_eq!(
            resolve_to_cwd("./src/../lib.rs", cwd),
            PathBuf::from("/work/project/lib.rs")
        );
        assert_eq!(
            resolve_to_cwd("../other/x", cwd),
            PathBuf::from("/work/other/x")
        );
        assert_eq!(
            resolve_to_cwd("/etc/hosts", cwd),
            PathBuf::from("/etc/hosts")
        );
        assert_eq!(resolve_to_cwd(".", cwd), PathBuf::from("/work/project"));
    }

    #[test]
    fn read_path_finds_screenshot_spelling() {
        let dir = tempfile::tempdir().unwrap();
        let real = "Screenshot 2024-01-01 at 10.00.00\u{202F}AM.png";
        std::fs::write(dir.path().join(real), b"x").unwrap();
        let found = resolve_read_path("Screenshot 2024-01-01 at 10.00.00 AM.png", dir.path());
        assert_eq!(found, dir.path().join(real));

        let curly = "Capture d\u{2019}écran.png";
        std::fs::write(dir.path().join(curly), b"x").unwrap();
        let found = resolve_read_path("Capture d'écran.png", dir.path());
        assert_eq!(found, dir.path().join(curly));
    }

    #[test]
    fn read_path_falls_back_to_plain_resolution() {
        let cwd = Path::new("/nonexistent-dir");
        assert_eq!(
            resolve_read_path("missing.txt", cwd),
            PathBuf::from("/nonexistent-dir/missing.txt")
        );
    }
}
