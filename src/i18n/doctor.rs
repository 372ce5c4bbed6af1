//! Catalog checks for `/lang doctor`: for every namespace and locale, keys missing or extra
//! compared to English, placeholder mismatches (plural forms included), values left identical
//! to English, and labels too wide for a 40-column terminal.

use unicode_width::UnicodeWidthStr;

use super::bundle::{Bundle, Message};
use super::format::placeholders;
use super::registry::Registry;

/// Keys under these prefixes label narrow slots and must fit this many columns.
pub const NARROW_SLOT_COLUMNS: usize = 38;
const NARROW_KEY_MARKERS: &[&str] = &[".label", ".hint", ".footer.", ".status."];

/// One problem found in a bundle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// The locale lacks a key English has.
    Missing { key: String },
    /// The locale has a key English does not.
    Extra { key: String },
    /// Placeholders differ from English (`expected` vs `found`).
    Placeholders {
        key: String,
        expected: Vec<String>,
        found: Vec<String>,
    },
    /// The value is the English text, where a translation is expected.
    Untranslated { key: String },
    /// A label wider than its slot at 40 columns.
    TooWide { key: String, width: usize },
}

/// Findings for one (namespace, locale) bundle compared to its English bundle.
#[derive(Debug, Clone)]
pub struct BundleReport {
    /// The namespace checked.
    pub namespace: String,
    /// The locale checked.
    pub locale: String,
    /// Number of keys in the locale's bundle.
    pub keys: usize,
    /// What is wrong.
    pub findings: Vec<Finding>,
}

/// Compare every non-English bundle with the English one of its namespace, and check
/// English itself for widths.
pub fn check_registry(registry: &Registry) -> Vec<BundleReport> {
    let mut bundles: Vec<&Bundle> = registry.bundles().collect();
    bundles.sort_by(|a, b| (&a.namespace, &a.locale).cmp(&(&b.namespace, &b.locale)));
    bundles
        .into_iter()
        .map(|bundle| {
            let english = registry.bundle(&bundle.namespace, registry.fallback());
            BundleReport {
                namespace: bundle.namespace.clone(),
                locale: bundle.locale.clone(),
                keys: bundle.messages.len(),
                findings: check_bundle(bundle, english.filter(|e| e.locale != bundle.locale)),
            }
        })
        .collect()
}

/// Findings for `bundle` against `english` (none when `bundle` is English itself).
pub fn check_bundle(bundle: &Bundle, english: Option<&Bundle>) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut keys: Vec<&String> = bundle.messages.keys().collect();
    keys.sort();
    for key in &keys {
        let message = &bundle.messages[*key];
        for text in message.texts() {
            let width = UnicodeWidthStr::width(text);
            if is_narrow(key) && width > NARROW_SLOT_COLUMNS {
                findings.push(Finding::TooWide {
                    key: (*key).clone(),
                    width,
                });
            }
        }
    }
    let Some(english) = english else {
        return findings;
    };
    let mut english_keys: Vec<&String> = english.messages.keys().collect();
    english_keys.sort();
    for key in english_keys {
        let Some(message) = bundle.messages.get(key) else {
            findings.push(Finding::Missing { key: key.clone() });
            continue;
        };
        let expected = message_placeholders(&english.messages[key]);
        let found = message_placeholders(message);
        if expected != found {
            findings.push(Finding::Placeholders {
                key: key.clone(),
                expected,
                found,
            });
        }
        if message == &english.messages[key] && expects_translation(&english.messages[key]) {
            findings.push(Finding::Untranslated { key: key.clone() });
        }
    }
    for key in keys {
        if !english.messages.contains_key(key) {
            findings.push(Finding::Extra { key: key.clone() });
        }
    }
    findings
}

fn is_narrow(key: &str) -> bool {
    // A marker counts as a whole key segment: `.label` matches `x.label` and `x.label.y`,
    // not `x.labeledOnly`.
    let dotted = format!("{key}.");
    NARROW_KEY_MARKERS.iter().any(|m| {
        let m = m.trim_end_matches('.');
        dotted.contains(&format!("{m}."))
    })
}

/// Placeholders of every form of a message, merged.
fn message_placeholders(message: &Message) -> Vec<String> {
    let mut names: Vec<String> = message.texts().into_iter().flat_map(placeholders).collect();
    names.sort();
    names.dedup();
    names
}

/// Text made only of placeholders, symbols and digits needs no translation.
fn expects_translation(message: &Message) -> bool {
    message.texts().iter().any(|text| {
        let mut stripped = text.to_string();
        for name in placeholders(text) {
            stripped = stripped.replace(&format!("{{{name}}}"), "");
        }
        stripped.chars().filter(|c| c.is_alphabetic()).count() > 1
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::bundle::parse_bundle_value;
    use serde_json::json;

    fn bundle(locale: &str, messages: serde_json::Value) -> Bundle {
        parse_bundle_value(
            &json!({"version": 1, "namespace": "pi", "locale": locale, "messages": messages}),
            "test",
        )
        .unwrap()
    }

    #[test]
    fn finds_missing_extra_placeholder_and_untranslated() {
        let en = bundle(
            "en",
            json!({"a": "Hello {name}", "b": "Bye", "c": "Files", "n": "{count}",
                   "p": {"value": {"one": "{count} file", "other": "{count} files"}}}),
        );
        let zh = bundle(
            "zh-TW",
            json!({"a": "你好 {who}", "c": "Files", "n": "{count}", "z": "多餘",
                   "p": {"value": {"other": "{count} 個檔案"}}}),
        );
        let findings = check_bundle(&zh, Some(&en));
        assert!(findings.contains(&Finding::Missing { key: "b".into() }));
        assert!(findings.contains(&Finding::Extra { key: "z".into() }));
        assert!(findings.contains(&Finding::Untranslated { key: "c".into() }));
        assert!(!findings.contains(&Finding::Untranslated { key: "n".into() }));
        assert!(findings.contains(&Finding::Placeholders {
            key: "a".into(),
            expected: vec!["name".into()],
            found: vec!["who".into()],
        }));
        assert!(
            !findings
                .iter()
                .any(|f| matches!(f, Finding::Placeholders { key, .. } if key == "p"))
        );
    }

    #[test]
    fn labels_wider_than_their_slot_are_reported() {
        let zh = bundle(
            "zh-TW",
            json!({"footer.label.cost": "這是一個非常非常非常非常非常長的標籤文字"}),
        );
        let findings = check_bundle(&zh, None);
        assert!(matches!(&findings[0], Finding::TooWide { width, .. } if *width > 38));
    }

    #[test]
    fn shipped_locales_have_exactly_the_english_keys_and_placeholders() {
        let registry = crate::i18n::builtin_registry("en");
        for report in check_registry(&registry) {
            let structural: Vec<&Finding> = report
                .findings
                .iter()
                .filter(|f| !matches!(f, Finding::Untranslated { .. }))
                .collect();
            assert!(
                structural.is_empty(),
                "{} {}: {structural:?}",
                report.namespace,
                report.locale
            );
        }
    }
}
