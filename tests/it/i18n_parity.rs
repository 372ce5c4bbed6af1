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

/// Every literal `pi.` key passed to `t!()` in `src/` exists in the English catalog.
#[test]
fn every_key_the_code_renders_exists_in_english() {
    let en = BUILTIN_LOCALES
        .iter()
        .find(|(name, _)| *name == "en.json")
        .map(|(name, text)| parse_bundle_text(text, name).unwrap())
        .unwrap();
    let re = regex::Regex::new(r#"t!\(\s*"pi\.([A-Za-z0-9_.\-]+)""#).unwrap();
    let mut missing = Vec::new();
    let mut seen = 0;
    let mut stack = vec![std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text: String = std::fs::read_to_string(&path)
                    .unwrap()
                    .lines()
                    .filter(|line| !line.trim_start().starts_with("//"))
                    .collect::<Vec<_>>()
                    .join("\n");
                for capture in re.captures_iter(&text) {
                    seen += 1;
                    if !en.messages.contains_key(&capture[1]) {
                        missing.push(format!("{}: pi.{}", path.display(), &capture[1]));
                    }
                }
            }
        }
    }
    assert!(seen > 200, "the scan found only {seen} keys");
    assert!(
        missing.is_empty(),
        "keys missing from en.json:\n{}",
        missing.join("\n")
    );
}

#[test]
fn zh_tw_declares_its_command_aliases_in_data() {
    let zh = BUILTIN_LOCALES
        .iter()
        .find(|(name, _)| *name == "zh-TW.json")
        .map(|(name, text)| parse_bundle_text(text, name).unwrap())
        .unwrap();
    assert!(
        zh.aliases
            .contains(&("模型".to_string(), "model".to_string()))
    );
    assert!(
        zh.aliases
            .contains(&("續".to_string(), "resume".to_string()))
    );
}
