//! `pi luarc [folder]`: write the editor configuration for Lua extensions (see
//! [`crate::config::luarc`]), by default into the project's `.pi/extensions/`.

use std::path::PathBuf;

use crate::t;

/// Whether the command line asks for `pi luarc ...`.
pub fn is_luarc_command(argv: &[String]) -> bool {
    argv.first().is_some_and(|word| word == "luarc")
}

/// Run `pi luarc [folder]` (the words after `luarc`): the text to print and the exit code.
pub fn run(argv: &[String]) -> (String, i32) {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let folder = match argv {
        [] => cwd.join(".pi").join("extensions"),
        [folder] if !folder.starts_with('-') => cwd.join(folder),
        _ => return (t!("pi.cli.luarc_usage"), 2),
    };
    let agent_dir = crate::config::paths::agent_dir();
    match crate::config::luarc::write(&agent_dir, &folder) {
        Ok(path) => (
            t!(
                "pi.cli.luarc_written",
                path = path.display().to_string(),
                types = crate::config::luarc::types_dir(&agent_dir)
                    .display()
                    .to_string()
            ),
            0,
        ),
        Err(error) => (t!("pi.cli.luarc_failed", error = error.to_string()), 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_luarc_starts_the_subcommand_and_extra_words_print_the_usage() {
        assert!(is_luarc_command(&["luarc".to_string()]));
        assert!(!is_luarc_command(&["-p".to_string(), "luarc".to_string()]));
        let (_, code) = run(&["a".to_string(), "b".to_string()]);
        assert_eq!(code, 2);
    }
}
