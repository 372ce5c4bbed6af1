//! `@` file path completion: the project's files (respecting .gitignore),
//! matched fuzzily against what follows the `@`.

use std::path::Path;

use crate::tui::panels::selector::fuzzy_score;

/// At most this many paths are indexed.
pub const INDEX_LIMIT: usize = 20_000;

/// Relative paths under `root` (directories end with `/`), skipping what .gitignore and
/// .ignore exclude and the `.git` folder; other hidden paths (`.github/`, `.pi/`) are
/// included, as pi 0.73.1 offers them.
pub fn index_files(root: &Path, limit: usize) -> Vec<String> {
    let mut out = Vec::new();
    let walk = ignore::WalkBuilder::new(root)
        .hidden(false)
        .filter_entry(|e| e.file_name() != ".git")
        .build();
    for entry in walk.flatten() {
        if out.len() >= limit {
            break;
        }
        let Ok(rel) = entry.path().strip_prefix(root) else {
            continue;
        };
        if rel.as_os_str().is_empty() {
            continue;
        }
        let mut path = rel.to_string_lossy().replace('\\', "/");
        if entry.file_type().is_some_and(|t| t.is_dir()) {
            path.push('/');
        }
        out.push(path);
    }
    out
}

/// The best `max` paths for `query`: fewest gaps first, then shortest.
pub fn suggest(files: &[String], query: &str, max: usize) -> Vec<String> {
    let mut scored: Vec<(usize, usize, &String)> = files
        .iter()
        .filter_map(|f| fuzzy_score(query, f).map(|s| (s, f.len(), f)))
        .collect();
    scored.sort();
    scored
        .into_iter()
        .take(max)
        .map(|(_, _, f)| f.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_respects_gitignore_and_suggest_is_fuzzy() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::create_dir_all(root.join("src/tui")).unwrap();
        std::fs::create_dir_all(root.join("target")).unwrap();
        std::fs::write(root.join(".gitignore"), "target/\n").unwrap();
        std::fs::write(root.join("src/tui/editor.rs"), "").unwrap();
        std::fs::write(root.join("src/main.rs"), "").unwrap();
        std::fs::write(root.join("target/junk.rs"), "").unwrap();
        std::fs::write(root.join(".git/config"), "").unwrap();
        let files = index_files(root, 100);
        assert!(!files.iter().any(|f| f.starts_with(".git/")), "{files:?}");
        assert!(files.contains(&"src/tui/".to_string()), "{files:?}");
        assert!(files.contains(&"src/tui/editor.rs".to_string()));
        assert!(!files.iter().any(|f| f.starts_with("target")), "{files:?}");
        assert_eq!(suggest(&files, "edrs", 5), vec!["src/tui/editor.rs"]);
        assert_eq!(suggest(&files, "main", 5)[0], "src/main.rs");
    }
}
