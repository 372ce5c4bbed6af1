//! `pi lang doctor` and `pi lang debug`: the locale doctor (with the i18n_score) and the
//! locale state report, from the command line. The doctor exits with 1 below the bar, for CI.

use clap::{Parser, Subcommand};

use crate::i18n::lang_command;
use crate::t;

#[derive(Debug, Parser)]
#[command(
    name = "pi lang",
    no_binary_name = true,
    disable_help_flag = true,
    disable_version_flag = true
)]
struct LangArgs {
    #[command(subcommand)]
    command: LangCli,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Subcommand)]
enum LangCli {
    /// Check every bundle and compute the i18n_score.
    Doctor,
    /// Locale, fallback, where it came from, bundles and core hacks.
    Debug,
}

/// Whether the command line asks for `pi lang ...`.
pub fn is_lang_command(argv: &[String]) -> bool {
    argv.first().is_some_and(|word| word == "lang")
}

/// Run `pi lang <argv>` (the words after `lang`): the text to print and the exit code.
/// `doctor` exits with 1 when the score is below the bar; bad words print the usage and 2.
pub fn run(argv: &[String]) -> (String, i32) {
    match LangArgs::try_parse_from(argv) {
        Ok(LangArgs {
            command: LangCli::Doctor,
        }) => {
            let (text, score) = crate::lua::i18n_score::doctor();
            (text, if score.passes() { 0 } else { 1 })
        }
        Ok(LangArgs {
            command: LangCli::Debug,
        }) => (lang_command::debug(), 0),
        Err(_) => (t!("pi.cli.lang_usage"), 2),
    }
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
        let (text, code) = run(&words("bogus"));
        assert_eq!(code, 2);
        assert!(text.contains("doctor"), "{text}");
        assert_eq!(run(&[]).1, 2);
    }

    #[test]
    fn debug_names_the_locale_and_its_bundles() {
        let (text, code) = run(&words("debug"));
        assert_eq!(code, 0);
        assert!(text.lines().count() >= 4, "{text}");
    }
}
