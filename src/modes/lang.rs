//! `/lang` without the terminal UI: `pi -p "/lang ..."` and `pi lang ...` share this
//! runner, so both accept every subcommand the TUI's `/lang` does (a language, `doctor`,
//! `debug`, `probe`, `setup`, `hacks`; no word lists the languages).

use crate::config::settings::Settings;
use crate::i18n::lang_command::{self, LangCommand};
use crate::i18n::languages::languages;
use crate::t;

/// Whether `text` is a `/lang` command (`/lang` alone or followed by words).
pub fn is_lang_prompt(text: &str) -> bool {
    let text = text.trim_start();
    text == "/lang" || text.starts_with("/lang ")
}

/// Run `/lang <args>`: the text to show and an exit code (1: the doctor's score is below
/// the bar; 2: the words name no language or subcommand). Switching saves the language in
/// `settings` when given.
pub fn run(args: &str, settings: Option<&mut Settings>) -> (String, i32) {
    match lang_command::parse(args) {
        LangCommand::Picker => (language_list(), 0),
        LangCommand::Set(tag) => (switch(&tag, settings), 0),
        LangCommand::Invalid(text) => (
            format!(
                "{}\n{}",
                t!("pi.lang.invalid", text = text),
                t!("pi.cli.lang_usage")
            ),
            2,
        ),
        LangCommand::Doctor => {
            let (text, score) = crate::lua::i18n_score::doctor();
            (text, if score.passes() { 0 } else { 1 })
        }
        LangCommand::Debug => (lang_command::debug(), 0),
        LangCommand::Probe(action) => (lang_command::probe(action), 0),
        LangCommand::Hacks(None) => (lang_command::hacks_text(), 0),
        LangCommand::Hacks(Some((id, on))) => (lang_command::toggle_hack(&id, on), 0),
        LangCommand::Setup => {
            let (tag, source) = lang_command::setup_choice();
            let detected = t!("pi.lang.setup.detected", source = source);
            (format!("{detected}\n{}", switch(&tag, settings)), 0)
        }
    }
}

/// Switch to `tag` for the rest of the run and save it when `settings` is given.
pub fn switch(tag: &str, settings: Option<&mut Settings>) -> String {
    lang_command::switch_locale(tag);
    let mut text = lang_command::switched_message(tag);
    if let Some(settings) = settings {
        text.push('\n');
        text.push_str(&lang_command::persist(settings, tag));
    }
    text
}

/// Every language pi ships, the current one marked.
fn language_list() -> String {
    let current = crate::i18n::current_locale();
    let mut out = vec![t!("pi.lang.picker.title")];
    for language in languages() {
        let mark = if language.tag.eq_ignore_ascii_case(&current) {
            "●"
        } else {
            " "
        };
        out.push(format!("{mark} {} ({})", language.name, language.tag));
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_slash_lang_is_a_lang_prompt() {
        assert!(is_lang_prompt("/lang"));
        assert!(is_lang_prompt("  /lang ja"));
        assert!(!is_lang_prompt("/language"));
        assert!(!is_lang_prompt("explain /lang"));
    }

    #[test]
    fn bad_words_give_the_usage_and_code_two() {
        let (text, code) = run("no-such-language-at-all", None);
        assert_eq!(code, 2);
        assert!(text.contains("doctor"), "{text}");
        let (list, code) = run("", None);
        assert_eq!(code, 0);
        assert!(list.contains("(zh-TW)"), "{list}");
    }
}
