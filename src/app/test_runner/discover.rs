//! Which files are tests, and which extension each one tests.

use std::path::{Path, PathBuf};

/// Folders never searched for tests.
const SKIPPED: [&str; 4] = ["node_modules", "target", "snapshots", ".git"];

/// Whether `path` is a test file: `*_test.lua`, or a `.lua` file in a `tests` folder.
pub fn is_test_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    if !name.ends_with(".lua") {
        return false;
    }
    name.ends_with("_test.lua")
        || path
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|p| p == "tests")
}

/// The test files under `paths` (files or folders, searched recursively; hidden folders
/// skipped), sorted and without repeats.
pub fn test_files(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for path in paths {
        if path.is_file() {
            found.push(path.clone());
        } else {
            walk(path, &mut found);
        }
    }
    found.sort();
    found.dedup();
    found
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in read.filter_map(Result::ok) {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !name.starts_with('.') && !SKIPPED.contains(&name.as_str()) {
                walk(&path, found);
            }
        } else if is_test_file(&path) {
            found.push(path);
        }
    }
}

/// The extension a test file tests unless it chooses with `pi.test.load`: `foo.lua`
/// (or the folder `foo/`) beside `foo_test.lua`; for `X/tests/*.lua`, the extension `X`
/// (a folder with `init.lua`/`index.lua`) or `X.lua`.
pub fn extension_under_test(test: &Path) -> Option<PathBuf> {
    let name = test.file_name()?.to_string_lossy().into_owned();
    let dir = test.parent()?;
    if let Some(stem) = name.strip_suffix("_test.lua") {
        let file = dir.join(format!("{stem}.lua"));
        if file.is_file() {
            return Some(file);
        }
        let folder = dir.join(stem);
        if crate::lua::discovery::FOLDER_ENTRIES
            .iter()
            .any(|e| folder.join(e).is_file())
        {
            return Some(folder);
        }
    }
    if dir.file_name().is_some_and(|n| n == "tests") {
        let owner = dir.parent()?;
        if crate::lua::discovery::FOLDER_ENTRIES
            .iter()
            .any(|e| owner.join(e).is_file())
        {
            return Some(owner.to_path_buf());
        }
        let file = owner.with_extension("lua");
        if file.is_file() {
            return Some(file);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tests_are_found_beside_extensions_and_in_tests_folders_with_their_extension() {
        let root = std::env::temp_dir().join(format!("pi-discover-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("plan/tests")).unwrap();
        std::fs::create_dir_all(root.join("node_modules/x")).unwrap();
        for file in [
            "hello.lua",
            "hello_test.lua",
            "plan/index.lua",
            "plan/tests/modes.lua",
            "plan/helper.lua",
            "node_modules/x/y_test.lua",
        ] {
            std::fs::write(root.join(file), "").unwrap();
        }
        let found = test_files(std::slice::from_ref(&root));
        assert_eq!(
            found,
            vec![
                root.join("hello_test.lua"),
                root.join("plan/tests/modes.lua")
            ]
        );
        assert_eq!(
            extension_under_test(&found[0]),
            Some(root.join("hello.lua"))
        );
        assert_eq!(extension_under_test(&found[1]), Some(root.join("plan")));
        assert_eq!(extension_under_test(&root.join("plan/helper.lua")), None);
        let _ = std::fs::remove_dir_all(&root);
    }
}
