//! `pi new extension NAME`: an extension, its test and the editor configuration, ready
//! for `pi test`.

use std::path::{Path, PathBuf};

use super::error::ScaffoldError;
use crate::t;

/// Whether the command line asks for `pi new ...`.
pub fn is_new_command(argv: &[String]) -> bool {
    argv.first().is_some_and(|word| word == "new")
}

/// Run `pi new extension NAME` (the words after `new`) in the current folder: the text to
/// print and the exit code.
pub fn run(argv: &[String]) -> (String, i32) {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    match argv {
        [kind, name] if kind == "extension" && valid_name(name) => {
            match create(&cwd, name, &crate::config::paths::agent_dir()) {
                Ok(files) => (
                    t!(
                        "pi.test.scaffolded",
                        files = files
                            .iter()
                            .map(|f| f.display().to_string())
                            .collect::<Vec<_>>()
                            .join(", "),
                        name = name.as_str()
                    ),
                    0,
                ),
                Err(error) => (t!("pi.test.scaffold_failed", error = error.to_string()), 1),
            }
        }
        _ => (t!("pi.test.new_usage"), 2),
    }
}

/// A name usable as a file name and a command: letters, digits, `-` and `_`.
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Write `NAME.lua`, `NAME_test.lua` and `.luarc.json` into `dir`; existing files are
/// never overwritten.
pub fn create(dir: &Path, name: &str, agent_dir: &Path) -> Result<Vec<PathBuf>, ScaffoldError> {
    let extension = dir.join(format!("{name}.lua"));
    let test = dir.join(format!("{name}_test.lua"));
    for path in [&extension, &test] {
        if path.exists() {
            return Err(ScaffoldError::Exists { path: path.clone() });
        }
    }
    let write = |path: &Path, text: String| {
        std::fs::write(path, text).map_err(|error| ScaffoldError::Unwritable {
            path: path.to_path_buf(),
            error,
        })
    };
    write(&extension, EXTENSION.replace("NAME", name))?;
    write(&test, TEST.replace("NAME", name))?;
    let luarc = crate::config::luarc::write(agent_dir, dir).map_err(ScaffoldError::Luarc)?;
    Ok(vec![extension, test, luarc])
}

/// The new extension; `NAME` stands for its name.
const EXTENSION: &str = include_str!("templates/extension.lua.in");

/// The new extension's test.
const TEST: &str = include_str!("templates/extension_test.lua.in");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_files_are_written_once_and_bad_names_are_refused() {
        let dir = std::env::temp_dir().join(format!("pi-new-ext-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let files = create(&dir, "greet", &dir.join("agent")).unwrap();
        assert_eq!(files[0], dir.join("greet.lua"));
        assert_eq!(files[1], dir.join("greet_test.lua"));
        assert!(files[2].ends_with(".luarc.json"), "{files:?}");
        let test = std::fs::read_to_string(&files[1]).unwrap();
        assert!(test.contains("t.send(\"/greet Ann\")"));
        assert!(matches!(
            create(&dir, "greet", &dir.join("agent")),
            Err(ScaffoldError::Exists { path }) if path == dir.join("greet.lua")
        ));
        assert!(valid_name("my-ext_2"));
        assert!(!valid_name("../x") && !valid_name(""));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
