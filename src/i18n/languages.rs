//! The shipped languages (`locales/languages.json`): native names for the `/lang` picker,
//! aliases (`tw`, `zh-hant`, `japanese`), and the right-to-left tags pi warns about.

use std::sync::OnceLock;

use serde::Deserialize;
use unic_langid::LanguageIdentifier;

use super::locale::normalize_tag;

/// One shipped language.
#[derive(Debug, Clone, Deserialize)]
pub struct Language {
    /// Canonical tag (`zh-TW`).
    pub tag: String,
    /// Name in the language itself (`繁體中文`).
    pub name: String,
    /// Other words that select it.
    #[serde(default)]
    pub aliases: Vec<String>,
}

#[derive(Deserialize)]
struct LanguagesFile {
    languages: Vec<Language>,
    rtl: Vec<String>,
}

#[expect(
    clippy::expect_used,
    reason = "the data is embedded at build time and a unit test parses it"
)]
fn file() -> &'static LanguagesFile {
    static FILE: OnceLock<LanguagesFile> = OnceLock::new();
    FILE.get_or_init(|| {
        serde_json::from_str(super::LANGUAGES_JSON).expect("locales/languages.json is valid")
    })
}

/// The shipped languages, in picker order.
pub fn languages() -> &'static [Language] {
    &file().languages
}

/// The native name of `tag` if it is shipped (exact tag, or its base language).
pub fn native_name(tag: &str) -> Option<&'static str> {
    let base = tag.split('-').next().unwrap_or(tag);
    languages()
        .iter()
        .find(|l| l.tag.eq_ignore_ascii_case(tag))
        .or_else(|| {
            languages()
                .iter()
                .find(|l| l.tag.eq_ignore_ascii_case(base))
        })
        .map(|l| l.name.as_str())
}

/// Whether `tag` is written right to left (pi lays out left to right only).
pub fn is_rtl(tag: &str) -> bool {
    let base = tag.split('-').next().unwrap_or(tag).to_ascii_lowercase();
    file().rtl.contains(&base)
}

/// What the user typed after `/lang`, as a locale tag: a shipped tag, a native name or an
/// alias (any case), or any well-formed BCP-47 tag (which falls back per key).
pub fn resolve_language(input: &str) -> Result<String, UnknownLanguage> {
    let wanted = input.trim();
    let lower = wanted.to_lowercase();
    let dashed = lower.replace('_', "-");
    for language in languages() {
        let hit = language.tag.to_lowercase() == dashed
            || language.name.to_lowercase() == lower
            || language.aliases.iter().any(|a| a.to_lowercase() == dashed);
        if hit {
            return Ok(language.tag.clone());
        }
    }
    let tag = normalize_tag(wanted);
    if !wanted.is_empty() && tag.parse::<LanguageIdentifier>().is_ok() && tag != "und" {
        return Ok(tag);
    }
    Err(UnknownLanguage {
        input: wanted.to_string(),
    })
}

/// What the user typed is no language pi knows nor a well-formed tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownLanguage {
    /// The input, trimmed.
    pub input: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_names_and_tags_resolve() {
        assert_eq!(resolve_language("tw").unwrap(), "zh-TW");
        assert_eq!(resolve_language("ZH-Hant").unwrap(), "zh-TW");
        assert_eq!(resolve_language("繁體中文").unwrap(), "zh-TW");
        assert_eq!(resolve_language("zh_tw").unwrap(), "zh-TW");
        assert_eq!(resolve_language("Japanese").unwrap(), "ja");
        assert_eq!(resolve_language("en").unwrap(), "en");
        assert_eq!(resolve_language("简体").unwrap(), "zh-CN");
    }

    #[test]
    fn other_well_formed_tags_are_accepted_as_given() {
        assert_eq!(resolve_language("fr-ca").unwrap(), "fr-CA");
        assert_eq!(resolve_language("ar").unwrap(), "ar");
    }

    #[test]
    fn garbage_is_rejected() {
        assert!(resolve_language("not a language!").is_err());
        assert!(resolve_language("").is_err());
    }

    #[test]
    fn rtl_and_native_names() {
        assert!(is_rtl("ar"));
        assert!(is_rtl("he-IL"));
        assert!(!is_rtl("zh-TW"));
        assert_eq!(native_name("ja-JP"), Some("日本語"));
        assert_eq!(native_name("zh-TW"), Some("繁體中文"));
        assert_eq!(native_name("de"), None);
    }
}
