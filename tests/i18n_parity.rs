//! Every shipped locale carries exactly the English key set, with the same placeholders in
//! every form (plural forms included), and renders through the registry.

use std::collections::BTreeSet;

use pi::i18n::{BUILTIN_LOCALES, Message, parse_bundle_text};

fn placeholders(text: &str) -> BTreeSet<String> {
    let re = regex::Regex::new(r"\{([A-Za-z_][A-Za-z0-9_]*)\}").unwrap();
    re.captures_iter(text).map(|c| c[1].to_string()).collect()
}

fn message_placeholders(message: &Message) -> BTreeSet<String> {
    match message {
        Message::Text(text) => placeholders(text),
        Message::Plural(forms) => forms.iter().flat_map(|(_, f)| placeholders(f)).collect(),
    }
}

#[test]
fn every_shipped_locale_matches_english_keys_and_placeholders() {
    let bundles: Vec<_> = BUILTIN_LOCALES
        .iter()
        .map(|(name, text)| parse_bundle_text(text, name).unwrap())
        .collect();
    let en = bundles.iter().find(|b| b.locale == "en").unwrap();
    assert!(bundles.len() >= 4, "en, zh-TW, zh-CN and ja are shipped");
    let mut problems = Vec::new();
    for bundle in bundles.iter().filter(|b| b.locale != "en") {
        assert_eq!(bundle.namespace, "pi");
        for key in en.messages.keys() {
            match bundle.messages.get(key) {
                None => problems.push(format!("{}: missing {key}", bundle.locale)),
                Some(message) => {
                    let want = message_placeholders(&en.messages[key]);
                    let got = message_placeholders(message);
                    if want != got {
                        problems.push(format!(
                            "{}: {key} has {got:?}, English has {want:?}",
                            bundle.locale
                        ));
                    }
                }
            }
        }
        for key in bundle.messages.keys() {
            if !en.messages.contains_key(key) {
                problems.push(format!("{}: stale key {key}", bundle.locale));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn chinese_renders_through_the_registry_and_falls_back_to_english_per_key() {
    let registry = pi::i18n::builtin_registry("zh-TW");
    let text = registry.translate("pi.tool.read.title", &[("path", "a.rs".into())], |_| {});
    assert_eq!(text, "讀取 a.rs");
    let cn = pi::i18n::builtin_registry("zh-CN");
    assert_eq!(cn.translate("pi.settings.title", &[], |_| {}), "设置");
    let ja = pi::i18n::builtin_registry("ja");
    assert_eq!(ja.translate("pi.settings.title", &[], |_| {}), "設定");
    let en = pi::i18n::builtin_registry("en");
    assert_eq!(
        en.translate(
            "pi.tool.write.title",
            &[("path", "b".into()), ("count", 1.into())],
            |_| {}
        ),
        "write b (1 line)"
    );
}
