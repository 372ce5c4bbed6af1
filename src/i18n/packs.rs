//! Locale packs on disk: every `*.json` and `*.toml` bundle in a folder (the user's
//! `~/.pi/agent/locales/`, an extension's `locales/`), and start-up initialisation.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::bundle::{Bundle, parse_bundle_file};
use super::locale::{LocaleSource, detect_from_environment};

/// Bundles of every `*.json` and `*.toml` file in `dir` (sorted by name) and the errors of
/// those that were rejected. `origin` prefixes each bundle's origin so it can be dropped later.
/// A missing folder gives nothing.
pub fn load_bundle_dir(dir: &Path, origin: &str) -> (Vec<Bundle>, Vec<String>) {
    let files = locale_files(dir);
    let mut bundles = Vec::new();
    let mut errors = Vec::new();
    for file in files {
        let label = format!("{origin}{}", file.display());
        match std::fs::read_to_string(&file) {
            Ok(text) => match parse_bundle_file(&file, &text, &label) {
                Ok(bundle) => bundles.push(bundle),
                Err(mut reasons) => errors.append(&mut reasons),
            },
            Err(e) => errors.push(format!("{label}: cannot read: {e}")),
        }
    }
    (bundles, errors)
}

/// The locale pack files of `dir` (`*.json` and `*.toml`), sorted.
pub fn locale_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = files_with_extension(dir, "json");
    files.extend(files_with_extension(dir, "toml"));
    files.sort();
    files
}

/// The files of `dir` ending in `.{extension}`, sorted; none when the folder is missing.
pub fn files_with_extension(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect();
    files.sort();
    files
}

/// What start-up decided.
#[derive(Debug, Clone)]
pub struct InitReport {
    /// The locale in use.
    pub locale: String,
    /// Where it came from.
    pub source: LocaleSource,
    /// Locale files that were rejected (the built-in text is used instead).
    pub errors: Vec<String>,
}

/// Pick the locale (settings, environment, OS) and add the user's locale packs from
/// `user_dirs` on top of the built-in ones.
pub fn init(settings_locale: Option<&str>, user_dirs: &[PathBuf]) -> InitReport {
    let (locale, source) = detect_from_environment(settings_locale);
    let mut errors = Vec::new();
    let mut bundles = Vec::new();
    for dir in user_dirs {
        let (mut found, mut rejected) = load_bundle_dir(dir, USER_ORIGIN);
        bundles.append(&mut found);
        errors.append(&mut rejected);
    }
    super::update(|registry| {
        registry.set_locale(&locale);
        for bundle in &bundles {
            registry.insert(merge_over_existing(registry, bundle));
        }
    });
    let report = InitReport {
        locale,
        source,
        errors,
    };
    *lock_last() = Some(report.clone());
    report
}

static LAST_INIT: Mutex<Option<InitReport>> = Mutex::new(None);

fn lock_last() -> std::sync::MutexGuard<'static, Option<InitReport>> {
    LAST_INIT.lock().unwrap_or_else(|p| p.into_inner())
}

/// What start-up decided (with the errors of the latest reload), if [`init`] ran.
pub fn last_init() -> Option<InitReport> {
    lock_last().clone()
}

/// Record that the user switched to `locale` (with `/lang`, which saves it in settings):
/// from now on its source is the settings.
pub fn record_switch(locale: &str) {
    let mut last = lock_last();
    let errors = last.as_ref().map(|r| r.errors.clone()).unwrap_or_default();
    *last = Some(InitReport {
        locale: locale.to_string(),
        source: LocaleSource::Settings,
        errors,
    });
}

/// Read the user's locale packs again (`/reload`). A file that is now broken keeps the
/// catalog it had before (its errors are returned, and shown by `/lang debug`); files that
/// parse replace their earlier version; deleted files are dropped. Extension bundles stay.
pub fn reload(user_dirs: &[PathBuf]) -> Vec<String> {
    let mut fresh = Vec::new();
    let mut errors = Vec::new();
    let mut broken = Vec::new();
    for dir in user_dirs {
        for file in locale_files(dir) {
            let label = format!("{USER_ORIGIN}{}", file.display());
            let parsed = std::fs::read_to_string(&file)
                .map_err(|e| vec![format!("{label}: cannot read: {e}")])
                .and_then(|text| parse_bundle_file(&file, &text, &label));
            match parsed {
                Ok(bundle) => fresh.push(bundle),
                Err(mut reasons) => {
                    errors.append(&mut reasons);
                    broken.push(label);
                }
            }
        }
    }
    super::update(|registry| {
        let mut next = super::chain_registry(registry.locale());
        for bundle in registry.bundles() {
            let user = bundle.origin.starts_with(USER_ORIGIN);
            let builtin = bundle.origin.starts_with("builtin:");
            if (!user && !builtin) || broken.contains(&bundle.origin) {
                next.insert(bundle.clone());
            }
        }
        for bundle in &fresh {
            next.insert(merge_over_existing(&next, bundle));
        }
        *registry = next;
    });
    if let Some(report) = lock_last().as_mut() {
        report.errors = errors.clone();
    }
    errors
}

/// Origin prefix of bundles read from the user's locale folder.
const USER_ORIGIN: &str = "user:";

/// A user bundle for a namespace and locale pi already ships overrides single keys only:
/// keys it lacks keep the shipped text.
fn merge_over_existing(registry: &super::Registry, bundle: &Bundle) -> Bundle {
    match registry.bundle(&bundle.namespace, &bundle.locale) {
        Some(existing) => {
            let mut merged = existing.clone();
            merged.messages.extend(bundle.messages.clone());
            merged.aliases.extend(bundle.aliases.clone());
            merged.origin = bundle.origin.clone();
            merged
        }
        None => bundle.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_valid_bundles_and_reports_broken_ones_with_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("zh-TW.json"),
            r#"{"version":1,"namespace":"ext.todo","locale":"zh-TW","messages":{"a":"甲"}}"#,
        )
        .unwrap();
        std::fs::write(dir.path().join("ja.json"), "{\n\"version\": 1,\n,}").unwrap();
        std::fs::write(
            dir.path().join("fr.json"),
            r#"{"version":1,"namespace":"ext.todo","locale":"fr","messages":{"a":3}}"#,
        )
        .unwrap();
        std::fs::write(dir.path().join("README.md"), "not a bundle").unwrap();
        let (bundles, errors) = load_bundle_dir(dir.path(), "ext:todo:");
        assert_eq!(bundles.len(), 1);
        assert_eq!(bundles[0].locale, "zh-TW");
        assert!(bundles[0].origin.starts_with("ext:todo:"));
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(
            errors
                .iter()
                .any(|e| e.contains("fr.json") && e.contains("/messages/a"))
        );
        assert!(
            errors.iter().any(|e| e.contains("ja.json:3:")),
            "{errors:?}"
        );
    }

    #[test]
    fn toml_packs_load_with_comments_plurals_and_errors_naming_the_line() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("fr.toml"),
            "# French, by hand\nversion = 1\nnamespace = \"pi\"\nlocale = \"fr\"\n\n[messages]\n\"a.b\" = \"bonjour\" # greeting\n\"c\" = { value = { one = \"{count} fichier\", other = \"{count} fichiers\" } }\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("de.toml"), "version = 1\nlocale = \n").unwrap();
        let (bundles, errors) = load_bundle_dir(dir.path(), "t:");
        assert_eq!(bundles.len(), 1, "{errors:?}");
        assert_eq!(bundles[0].locale, "fr");
        assert!(
            errors
                .iter()
                .any(|e| e.contains("de.toml:2:") && e.contains("not valid TOML")),
            "{errors:?}"
        );
    }

    #[test]
    fn missing_folder_is_empty() {
        let (bundles, errors) = load_bundle_dir(Path::new("/nonexistent/locales"), "x:");
        assert!(bundles.is_empty() && errors.is_empty());
    }

    #[test]
    fn user_bundles_override_single_keys_of_shipped_ones() {
        let mut registry = super::super::builtin_registry("en");
        let user = super::super::parse_bundle_value(
            &serde_json::json!({"version":1,"namespace":"pi","locale":"en",
                                "messages":{"lang.title":"Tongue"}}),
            "user:x",
        )
        .unwrap();
        let merged = merge_over_existing(&registry, &user);
        registry.insert(merged);
        assert_eq!(registry.translate("pi.lang.title", &[], |_| {}), "Tongue");
        assert_eq!(
            registry.translate(
                "pi.lang.current",
                &[("name", "English".into()), ("tag", "en".into())],
                |_| {}
            ),
            "Language: English (en)"
        );
    }
}
