//! Directory walking shared by `grep` and `find`: ignore files respected,
//! hidden files included, `.git` directories skipped, stable name order.

use std::path::Path;

use ignore::WalkBuilder;
use ignore::overrides::Override;

/// Which ignore files apply besides the usual `.gitignore`/`.ignore`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WalkOptions<'a> {
    /// Apply `.gitignore` files even outside a git repository.
    pub gitignore_without_repo: bool,
    /// An extra per-directory ignore file name (e.g. `.fdignore`).
    pub custom_ignore_file: Option<&'a str>,
}

/// A walker over `root` configured as described in the module docs.
pub fn build_walker(
    root: &Path,
    options: WalkOptions<'_>,
    overrides: Option<Override>,
) -> WalkBuilder {
    let mut builder = WalkBuilder::new(root);
    builder
        .hidden(false)
        .require_git(!options.gitignore_without_repo)
        .follow_links(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(|entry| {
            let is_git_dir =
                entry.file_name() == ".git" && entry.file_type().is_some_and(|t| t.is_dir());
            !is_git_dir
        });
    if let Some(name) = options.custom_ignore_file {
        builder.add_custom_ignore_filename(name);
    }
    if let Some(overrides) = overrides {
        builder.overrides(overrides);
    }
    builder
}

/// `path` relative to `root`, with `/` separators.
pub fn relative_slash_path(path: &Path, root: &Path) -> String {
    let relative = path.strip_prefix(root).unwrap_or(path);
    relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}
