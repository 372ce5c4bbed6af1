//! `pi lang ...` from the command line: the same subcommands as `/lang` in the terminal
//! UI (a language to switch to and save, `doctor`, `debug`, `probe`, `setup`, `hacks`; no
//! word lists the languages). The doctor exits with 1 below the bar, for CI; words that
//! name nothing print the usage and exit with 2.

use crate::config::settings::Settings;

/// Whether the command line asks for `pi lang ...`.
pub fn is_lang_command(argv: &[String]) -> bool {
    argv.first().is_some_and(|word| word == "lang")
}

/// Run `pi lang <argv>` (the words after `lang`): the text to print and the exit code.
pub fn run(argv: &[String]) -> (String, i32) {
    let agent_dir = crate::config::paths::agent_dir();
    let cwd = std::env::current_dir().unwrap_or_default();
    let (mut settings, _) = Settings::load(&agent_dir, &cwd);
    crate::modes::lang::run(&argv.join(" "), Some(&mut settings))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn only_lang_starts_the_subcommand() {
        assert!(is_lang_command(&words("lang doctor")));
        assert!(!is_lang_command(&words("-p lang")));
        assert!(!is_lang_command(&[]));
    }

    #[test]
    fn unknown_words_print_the_usage() {
        let (text, code) = run(&words("bogus-words here"));
        assert_eq!(code, 2);
        assert!(text.contains("doctor"), "{text}");
    }

    #[test]
    fn debug_names_the_locale_and_its_bundles() {
        let (text, code) = run(&words("debug"));
        assert_eq!(code, 0);
        assert!(text.lines().count() >= 4, "{text}");
    }
}
