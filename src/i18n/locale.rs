//! Locale tags: normalisation (`zh_TW.UTF-8` -> `zh-TW`), the fallback chain, and where the
//! locale comes from (settings, `PI_LOCALE`, `LC_ALL`, `LC_MESSAGES`, `LANG`, the OS).

use unic_langid::LanguageIdentifier;

/// Normalise a locale tag: drop encoding and modifier (`.UTF-8`, `@euro`), turn `_` into
/// `-`, and canonicalise case (`zh-tw` -> `zh-TW`, `zh-hant` -> `zh-Hant`). `C` and `POSIX`
/// mean English. Text that is not a tag is returned trimmed, as given.
pub fn normalize_tag(raw: &str) -> String {
    let trimmed = raw.trim();
    let without_encoding = trimmed.split(['.', '@']).next().unwrap_or_default();
    let dashed = without_encoding.replace('_', "-");
    if dashed.eq_ignore_ascii_case("c") || dashed.eq_ignore_ascii_case("posix") {
        return "en".to_string();
    }
    match dashed.parse::<LanguageIdentifier>() {
        Ok(id) => id.to_string(),
        Err(_) => trimmed.to_string(),
    }
}

/// The language part of a tag (`fr-CA` -> `fr`), if it differs from the tag.
pub fn base_language(tag: &str) -> Option<&str> {
    let base = tag.split('-').next()?;
    (base != tag && !base.is_empty()).then_some(base)
}

/// The locales to try, in order, for `current`: itself, its base language, the fallback.
pub fn fallback_chain(current: &str, fallback: &str) -> Vec<String> {
    let mut chain = vec![current.to_string()];
    if let Some(base) = base_language(current) {
        chain.push(base.to_string());
    }
    if !chain.iter().any(|l| l == fallback) {
        chain.push(fallback.to_string());
    }
    chain
}

/// Which setting or variable decided the locale.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LocaleSource {
    /// `locale` in settings.json (project overrides global).
    Settings,
    /// An environment variable (`PI_LOCALE`, `LC_ALL`, `LC_MESSAGES`, `LANG`).
    Env(&'static str),
    /// The operating system's preferred locale.
    System,
    /// Nothing said anything: English.
    Default,
}

impl std::fmt::Display for LocaleSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LocaleSource::Settings => f.write_str("settings (locale)"),
            LocaleSource::Env(name) => write!(f, "environment ({name})"),
            LocaleSource::System => f.write_str("operating system"),
            LocaleSource::Default => f.write_str("default"),
        }
    }
}

/// Pick the locale: settings, then `PI_LOCALE`, `LC_ALL`, `LC_MESSAGES`, `LANG`, then the OS.
/// `env` looks a variable up (so tests need not touch the process environment); empty values
/// are skipped.
pub fn detect_locale(
    settings_locale: Option<&str>,
    env: impl Fn(&str) -> Option<String>,
    system: impl FnOnce() -> Option<String>,
) -> (String, LocaleSource) {
    if let Some(tag) = settings_locale.filter(|s| !s.trim().is_empty()) {
        return (normalize_tag(tag), LocaleSource::Settings);
    }
    for name in ["PI_LOCALE", "LC_ALL", "LC_MESSAGES", "LANG"] {
        if let Some(value) = env(name).filter(|v| !v.trim().is_empty()) {
            return (normalize_tag(&value), LocaleSource::Env(name));
        }
    }
    match system() {
        Some(tag) if !tag.trim().is_empty() => (normalize_tag(&tag), LocaleSource::System),
        _ => ("en".to_string(), LocaleSource::Default),
    }
}

/// Detect the locale from the real environment and operating system.
pub fn detect_from_environment(settings_locale: Option<&str>) -> (String, LocaleSource) {
    detect_locale(
        settings_locale,
        |name| std::env::var(name).ok(),
        sys_locale::get_locale,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_normalised() {
        assert_eq!(normalize_tag("zh_TW.UTF-8"), "zh-TW");
        assert_eq!(normalize_tag("zh-tw"), "zh-TW");
        assert_eq!(normalize_tag("ZH-hant-tw"), "zh-Hant-TW");
        assert_eq!(normalize_tag("ja_JP.eucJP"), "ja-JP");
        assert_eq!(normalize_tag("de_DE@euro"), "de-DE");
        assert_eq!(normalize_tag("C"), "en");
        assert_eq!(normalize_tag("POSIX"), "en");
        assert_eq!(normalize_tag("fr-ca"), "fr-CA");
    }

    #[test]
    fn chain_goes_through_base_language_to_fallback() {
        assert_eq!(fallback_chain("fr-CA", "en"), ["fr-CA", "fr", "en"]);
        assert_eq!(fallback_chain("en", "en"), ["en"]);
        assert_eq!(fallback_chain("zh-TW", "en"), ["zh-TW", "zh", "en"]);
    }

    #[test]
    fn detection_order_is_settings_then_env_then_system() {
        let env = |name: &str| match name {
            "LC_ALL" => Some(String::new()),
            "LANG" => Some("ja_JP.UTF-8".to_string()),
            _ => None,
        };
        let (tag, source) = detect_locale(None, env, || Some("de-DE".into()));
        assert_eq!((tag.as_str(), source), ("ja-JP", LocaleSource::Env("LANG")));
        let (tag, source) = detect_locale(Some("zh_TW"), env, || None);
        assert_eq!((tag.as_str(), source), ("zh-TW", LocaleSource::Settings));
        let (tag, source) = detect_locale(None, |_| None, || Some("de-DE".into()));
        assert_eq!((tag.as_str(), source), ("de-DE", LocaleSource::System));
        let (tag, source) = detect_locale(None, |_| None, || None);
        assert_eq!((tag.as_str(), source), ("en", LocaleSource::Default));
        let pi_first = |name: &str| match name {
            "PI_LOCALE" => Some("zh-CN".to_string()),
            _ => Some("en_US.UTF-8".to_string()),
        };
        assert_eq!(detect_locale(None, pi_first, || None).0, "zh-CN");
    }

    #[test]
    fn lang_c_means_english() {
        let env = |name: &str| (name == "LANG").then(|| "C".to_string());
        assert_eq!(detect_locale(None, env, || None).0, "en");
    }
}
