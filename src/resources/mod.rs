//! Resources loaded from disk besides extensions: skills and prompt templates (and their
//! frontmatter format).

pub mod frontmatter;
pub mod prompt_templates;
pub mod skills;

use std::path::{Path, PathBuf};

/// The files a settings or command-line entry names: `raw` (with `~` expanded, relative to
/// `base`) itself when it is a file, else what `in_folder` finds in it.
fn entry_files(base: &Path, raw: &str, in_folder: impl Fn(&Path) -> Vec<PathBuf>) -> Vec<PathBuf> {
    let path = crate::config::paths::expand_tilde(raw);
    let path = if path.is_absolute() {
        path
    } else {
        base.join(path)
    };
    if path.is_file() {
        vec![path]
    } else {
        in_folder(&path)
    }
}
