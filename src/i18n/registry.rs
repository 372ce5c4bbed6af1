//! The translation registry: bundles keyed by (namespace, locale), the current locale and
//! its fallback chain, and the lookup `t()` performs.

use std::collections::HashMap;
use std::sync::Arc;

use super::bundle::{Bundle, Message};
use super::format::{Args, fill};
use super::locale::{fallback_chain, normalize_tag};
use super::plural::PluralSelector;

/// Bundles of every namespace and locale, and the locale in use. Cloning shares
/// the bundles.
#[derive(Clone)]
pub struct Registry {
    locale: String,
    fallback: String,
    chain: Vec<String>,
    plural: Arc<PluralSelector>,
    /// namespace -> locale -> bundle
    bundles: HashMap<String, HashMap<String, Arc<Bundle>>>,
    /// Locales whose built-in pack is in `bundles`.
    builtin: Vec<String>,
    /// Registered namespaces, longest first, for longest-prefix matching.
    namespaces: Vec<String>,
    /// Whether the built-in packs of the lookup chain were added since the
    /// locale last changed.
    chain_complete: bool,
}

/// What a lookup found: the message and the locale it came from.
pub struct Found<'a> {
    /// The message.
    pub message: &'a Message,
    /// The locale whose bundle had it.
    pub locale: &'a str,
}

impl Registry {
    /// An empty registry for `locale`, falling back to `fallback`.
    pub fn new(locale: &str, fallback: &str) -> Self {
        let locale = normalize_tag(locale);
        let fallback = normalize_tag(fallback);
        Self {
            chain: fallback_chain(&locale, &fallback),
            plural: Arc::new(PluralSelector::new(&locale)),
            locale,
            fallback,
            bundles: HashMap::new(),
            builtin: Vec::new(),
            namespaces: Vec::new(),
            chain_complete: false,
        }
    }

    /// The current locale.
    pub fn locale(&self) -> &str {
        &self.locale
    }

    /// The fallback locale.
    pub fn fallback(&self) -> &str {
        &self.fallback
    }

    /// The locales tried for every key, in order.
    pub fn chain(&self) -> &[String] {
        &self.chain
    }

    /// Switch the current locale (normalised).
    pub fn set_locale(&mut self, locale: &str) {
        self.locale = normalize_tag(locale);
        self.chain = fallback_chain(&self.locale, &self.fallback);
        self.plural = Arc::new(PluralSelector::new(&self.locale));
        self.chain_complete = false;
    }

    /// Whether the built-in packs of the lookup chain are in (see
    /// [`Registry::mark_chain_complete`]).
    pub fn chain_complete(&self) -> bool {
        self.chain_complete
    }

    /// Record that the built-in packs of the lookup chain were added.
    pub fn mark_chain_complete(&mut self) {
        self.chain_complete = true;
    }

    /// Add a bundle, replacing any earlier one for the same namespace and locale.
    pub fn insert(&mut self, bundle: Bundle) {
        self.insert_shared(Arc::new(bundle));
    }

    /// [`Registry::insert`] for a bundle that is shared already.
    pub fn insert_shared(&mut self, bundle: Arc<Bundle>) {
        if !self.namespaces.contains(&bundle.namespace) {
            self.namespaces.push(bundle.namespace.clone());
            self.namespaces
                .sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
        }
        self.bundles
            .entry(bundle.namespace.clone())
            .or_default()
            .insert(bundle.locale.clone(), bundle);
    }

    /// Drop every bundle whose origin starts with `origin_prefix` (an extension's, on reload).
    pub fn remove_origin(&mut self, origin_prefix: &str) {
        for per_locale in self.bundles.values_mut() {
            per_locale.retain(|_, b| !b.origin.starts_with(origin_prefix));
        }
        self.bundles.retain(|_, per_locale| !per_locale.is_empty());
        let bundles = &self.bundles;
        self.namespaces.retain(|ns| bundles.contains_key(ns));
    }

    /// Every bundle, in no particular order.
    pub fn bundles(&self) -> impl Iterator<Item = &Bundle> {
        self.bundles.values().flat_map(|m| m.values().map(|b| &**b))
    }

    /// Whether the built-in pack of `locale` is in the registry.
    pub fn has_builtin(&self, locale: &str) -> bool {
        self.builtin.iter().any(|l| l == locale)
    }

    /// Record that the built-in pack of `locale` was added.
    pub fn mark_builtin(&mut self, locale: &str) {
        if !self.has_builtin(locale) {
            self.builtin.push(locale.to_string());
        }
    }

    /// The bundle of `namespace` in `locale`, if registered.
    pub fn bundle(&self, namespace: &str, locale: &str) -> Option<&Bundle> {
        self.bundles.get(namespace)?.get(locale).map(|b| &**b)
    }

    /// Split a full key into (namespace, message key) by the longest registered namespace.
    pub fn split_key<'k>(&self, key: &'k str) -> Option<(&str, &'k str)> {
        self.namespaces.iter().find_map(|ns| {
            let rest = key.strip_prefix(ns.as_str())?.strip_prefix('.')?;
            Some((ns.as_str(), rest))
        })
    }

    /// Find `key` along the fallback chain: the bundles of the longest registered
    /// namespace that prefixes it, in chain order. A few hash lookups, nothing built
    /// in advance.
    pub fn find(&self, key: &str) -> Option<Found<'_>> {
        let (namespace, rest) = self.split_key(key)?;
        let per_locale = self.bundles.get(namespace)?;
        self.chain.iter().find_map(|locale| {
            let bundle = per_locale.get(locale)?;
            let message = bundle.messages.get(rest)?;
            Some(Found {
                message,
                locale: bundle.locale.as_str(),
            })
        })
    }

    /// Translate `key` with `args`; a key found nowhere renders as itself.
    /// Placeholders without an argument stay as `{name}` and are passed to `on_missing`.
    pub fn translate(&self, key: &str, args: &Args<'_>, on_missing: impl FnMut(&str)) -> String {
        let Some(found) = self.find(key) else {
            return key.to_string();
        };
        // The form is chosen by the rules of the language the text is in: an English
        // fallback under zh-TW says "1 file", never "1 files".
        let category = match found.message {
            Message::Plural(_) => args
                .iter()
                .find(|(name, _)| *name == "count")
                .and_then(|(_, arg)| arg.as_number())
                .map(|n| {
                    if found.locale == self.locale {
                        self.plural.select(n)
                    } else {
                        PluralSelector::new(found.locale).select(n)
                    }
                }),
            Message::Text(_) => None,
        };
        fill(found.message.form(category), args, on_missing)
    }

    /// Aliases declared by the bundles of the current chain (first locale wins).
    pub fn aliases(&self) -> Vec<(String, String)> {
        let mut seen = Vec::<(String, String)>::new();
        for locale in &self.chain {
            for bundle in self.bundles().filter(|b| &b.locale == locale) {
                for (alias, command) in &bundle.aliases {
                    if !seen.iter().any(|(a, _)| a == alias) {
                        seen.push((alias.clone(), command.clone()));
                    }
                }
            }
        }
        seen
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::bundle::parse_bundle_value;
    use crate::i18n::format::Arg;
    use serde_json::json;

    fn bundle(ns: &str, locale: &str, messages: serde_json::Value) -> Bundle {
        parse_bundle_value(
            &json!({"version": 1, "namespace": ns, "locale": locale, "messages": messages}),
            &format!("test:{ns}:{locale}"),
        )
        .unwrap()
    }

    fn registry() -> Registry {
        let mut r = Registry::new("fr-CA", "en");
        r.insert(bundle(
            "pi",
            "en",
            json!({"hello": "Hello {name}", "only.en": "English",
            "files": {"value": {"one": "{count} file", "other": "{count} files"}}}),
        ));
        r.insert(bundle(
            "pi",
            "fr",
            json!({"hello": "Bonjour {name}",
            "files": {"value": {"one": "{count} fichier", "other": "{count} fichiers"}}}),
        ));
        r.insert(bundle("pi", "fr-CA", json!({"hello": "Allô {name}"})));
        r.insert(bundle("pi.tool", "en", json!({"x": "longest prefix"})));
        r
    }

    fn t(r: &Registry, key: &str, args: &Args<'_>) -> String {
        r.translate(key, args, |_| {})
    }

    #[test]
    fn walks_the_fallback_chain() {
        let r = registry();
        assert_eq!(t(&r, "pi.hello", &[("name", "Ana".into())]), "Allô Ana");
        assert_eq!(t(&r, "pi.files", &[("count", Arg::Int(0))]), "0 fichier");
        assert_eq!(t(&r, "pi.files", &[("count", Arg::Int(2))]), "2 fichiers");
        assert_eq!(t(&r, "pi.only.en", &[]), "English");
        assert_eq!(t(&r, "pi.nowhere", &[]), "pi.nowhere");
        assert_eq!(t(&r, "unknown.ns", &[]), "unknown.ns");
    }

    #[test]
    fn longest_namespace_wins() {
        let r = registry();
        assert_eq!(t(&r, "pi.tool.x", &[]), "longest prefix");
        assert_eq!(r.split_key("pi.tool.x"), Some(("pi.tool", "x")));
        assert_eq!(r.split_key("pi.toolbox"), Some(("pi", "toolbox")));
    }

    #[test]
    fn a_plural_fallen_back_to_english_uses_english_rules() {
        let mut r = Registry::new("zh-TW", "en");
        r.insert(bundle(
            "ext.x",
            "en",
            json!({"files": {"value": {"one": "{count} file", "other": "{count} files"}}}),
        ));
        assert_eq!(t(&r, "ext.x.files", &[("count", Arg::Int(1))]), "1 file");
        assert_eq!(t(&r, "ext.x.files", &[("count", Arg::Int(2))]), "2 files");
    }

    #[test]
    fn english_plural_uses_count() {
        let mut r = registry();
        r.set_locale("en");
        assert_eq!(t(&r, "pi.files", &[("count", Arg::Int(1))]), "1 file");
        assert_eq!(t(&r, "pi.files", &[("count", Arg::Int(7))]), "7 files");
        assert_eq!(t(&r, "pi.files", &[]), "{count} files");
    }

    #[test]
    fn removing_an_origin_drops_its_bundles_and_namespace() {
        let mut r = registry();
        r.insert(bundle("ext.todo", "en", json!({"a": "A"})));
        assert_eq!(t(&r, "ext.todo.a", &[]), "A");
        r.remove_origin("test:ext.todo");
        assert_eq!(t(&r, "ext.todo.a", &[]), "ext.todo.a");
        assert_eq!(t(&r, "pi.hello", &[("name", "x".into())]), "Allô x");
    }
}
