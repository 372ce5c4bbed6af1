//! Internationalisation: every string pi shows goes through [`t()`]; translations are data
//! (`locales/*.json`, BundleV1), looked up along the chain current locale -> base language ->
//! fallback (`en`) -> the key itself. Extensions register their own bundles.

pub mod bundle;
pub mod config_words;
pub mod core_hacks;
pub mod doctor;
pub mod format;
pub mod hacks;
pub mod lang_command;
pub mod languages;
pub mod locale;
pub mod packs;
pub mod plural;
pub mod probe;
pub mod registry;
pub mod schema_words;
#[cfg(test)]
pub(crate) mod scoped;
pub mod score;
pub mod watch;

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, OnceLock};

use arc_swap::ArcSwap;

pub use bundle::{Bundle, Message, parse_bundle_text, parse_bundle_value};
pub use format::{Arg, Args};
pub use registry::Registry;

/// The locale packs built into the binary: (file name, JSON text).
pub const BUILTIN_LOCALES: &[(&str, &str)] = &[
    ("en.json", include_str!("../../locales/en.json")),
    ("zh-TW.json", include_str!("../../locales/zh-TW.json")),
    ("zh-CN.json", include_str!("../../locales/zh-CN.json")),
    ("ja.json", include_str!("../../locales/ja.json")),
];

/// Shipped languages, native names, aliases and RTL tags (`locales/languages.json`).
pub const LANGUAGES_JSON: &str = include_str!("../../locales/languages.json");

// The built-in packs join on the first lookup (see `with_registry`): a run that
// translates nothing parses none.
static CATALOG: LazyLock<ArcSwap<Registry>> =
    LazyLock::new(|| ArcSwap::from_pointee(Registry::new("en", "en")));
static GENERATION: AtomicU64 = AtomicU64::new(0);
static PROBE_ON: AtomicBool = AtomicBool::new(false);
static PROBED_KEYS: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
static UNFILLED: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// A registry holding every built-in locale pack, set to `locale`.
pub fn builtin_registry(locale: &str) -> Registry {
    let mut registry = Registry::new(locale, "en");
    add_builtin_packs(&mut registry, true);
    registry
}

/// A registry holding the built-in packs `locale` looks keys up in (itself, its
/// base language, English); others are added when the locale changes or a
/// listing needs them, so start-up parses one or two packs, not all.
pub fn chain_registry(locale: &str) -> Registry {
    let mut registry = Registry::new(locale, "en");
    add_builtin_packs(&mut registry, false);
    registry
}

use bundle::ShippedPack;
include!(concat!(env!("OUT_DIR"), "/locale_tables.rs"));

/// The built-in pack `index` of [`BUILTIN_LOCALES`], built on first use from the
/// tables `build.rs` made of the same file.
fn builtin_pack(index: usize) -> &'static Arc<Bundle> {
    static BUILT: [OnceLock<Arc<Bundle>>; BUILTIN_LOCALES.len()] =
        [const { OnceLock::new() }; BUILTIN_LOCALES.len()];
    BUILT[index].get_or_init(|| {
        let (name, _) = BUILTIN_LOCALES[index];
        match SHIPPED_PACKS.iter().find(|pack| pack.file == name) {
            Some(pack) => Arc::new(pack.to_bundle()),
            None => panic!("built-in locale {name} has no table"),
        }
    })
}

/// The locale tag of a built-in pack file (`zh-TW.json` -> `zh-TW`).
fn builtin_tag(file: &str) -> String {
    locale::normalize_tag(file.trim_end_matches(".json"))
}

/// Add the built-in packs `registry` lacks: those of its lookup chain, or all.
/// Keys of a user pack already there for the same locale stay over the built-in ones.
fn add_builtin_packs(registry: &mut Registry, all: bool) {
    for (index, (file, _)) in BUILTIN_LOCALES.iter().enumerate() {
        let tag = builtin_tag(file);
        if registry.has_builtin(&tag) || !(all || registry.chain().contains(&tag)) {
            continue;
        }
        let shipped = builtin_pack(index);
        match registry.bundle(&shipped.namespace, &shipped.locale) {
            Some(user) => {
                let mut pack = Bundle::clone(shipped);
                pack.messages.extend(user.messages.clone());
                pack.aliases.extend(user.aliases.clone());
                pack.origin = user.origin.clone();
                registry.insert(pack);
            }
            None => registry.insert_shared(shipped.clone()),
        }
        registry.mark_builtin(&tag);
    }
    registry.mark_chain_complete();
}

/// Whether pi ships a pack for `tag`.
pub fn ships_locale(tag: &str) -> bool {
    let tag = locale::normalize_tag(tag);
    BUILTIN_LOCALES
        .iter()
        .any(|(file, _)| builtin_tag(file) == tag)
}

/// Add every built-in pack to the live catalog (before listing or checking them all).
pub fn load_all_builtin() {
    let complete = with_registry(|r| {
        BUILTIN_LOCALES
            .iter()
            .all(|(file, _)| r.has_builtin(&builtin_tag(file)))
    });
    if !complete {
        update(|registry| add_builtin_packs(registry, true));
    }
}

/// Translate `key` with named arguments, in the current locale.
pub fn t(key: &str, args: &Args<'_>) -> String {
    if PROBE_ON.load(Ordering::Relaxed) {
        lock(&PROBED_KEYS).insert(key.to_string());
    }
    let out = with_registry(|registry| {
        registry.translate(key, args, |name| {
            lock(&UNFILLED).insert(format!("{key}:{name}"));
        })
    });
    if PROBE_ON.load(Ordering::Relaxed) {
        probe::record_output(&out);
    }
    out
}

/// `t!("pi.key")` or `t!("pi.key", name = value, count = n)`.
#[macro_export]
macro_rules! t {
    ($key:expr) => {
        $crate::i18n::t($key, &[])
    };
    ($key:expr, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::i18n::t($key, &[$((stringify!($name), $crate::i18n::Arg::from($value))),+])
    };
}

/// The current locale (normalised tag).
pub fn current_locale() -> String {
    with_registry(|registry| registry.locale().to_string())
}

/// Switch the current locale; everything translated afterwards uses it.
pub fn set_locale(locale: &str) {
    update(|registry| registry.set_locale(locale));
}

/// Change the registry (add bundles, switch locale) and tell renderers to redraw.
pub fn update(change: impl Fn(&mut Registry)) {
    #[cfg(test)]
    {
        let with_packs = |registry: &mut Registry| {
            change(registry);
            add_builtin_packs(registry, false);
        };
        if scoped::update(&with_packs) {
            GENERATION.fetch_add(1, Ordering::Relaxed);
            return;
        }
    }
    CATALOG.rcu(|current| {
        let mut next = clone_registry(current);
        change(&mut next);
        next
    });
    GENERATION.fetch_add(1, Ordering::Relaxed);
}

/// Read the registry (for doctor, debug, listings). The built-in packs of the
/// current locale's chain are added first if a change left them out.
pub fn with_registry<R>(read: impl FnOnce(&Registry) -> R) -> R {
    #[cfg(test)]
    if let Some(registry) = scoped::current() {
        return read(&registry);
    }
    let current = CATALOG.load();
    if current.chain_complete() {
        return read(&current);
    }
    drop(current);
    CATALOG.rcu(|current| {
        let mut next = clone_registry(current);
        if !next.chain_complete() {
            add_builtin_packs(&mut next, false);
        }
        next
    });
    read(&CATALOG.load())
}

/// A counter bumped on every change; renderers compare it to know when to redraw.
pub fn generation() -> u64 {
    GENERATION.load(Ordering::Relaxed)
}

/// Turn recording of rendered keys on or off.
pub fn set_probe(on: bool) {
    PROBE_ON.store(on, Ordering::Relaxed);
}

/// Whether the probe is recording.
pub fn probe_enabled() -> bool {
    PROBE_ON.load(Ordering::Relaxed)
}

/// Keys rendered since the probe was turned on (or reset).
pub fn probed_keys() -> Vec<String> {
    lock(&PROBED_KEYS).iter().cloned().collect()
}

/// Forget what the probe recorded.
pub fn reset_probe() {
    lock(&PROBED_KEYS).clear();
}

/// `key:placeholder` pairs rendered without an argument for the placeholder.
pub fn unfilled_placeholders() -> Vec<String> {
    lock(&UNFILLED).iter().cloned().collect()
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn clone_registry(current: &Registry) -> Registry {
    current.clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_packs_satisfy_the_bundle_schema_and_match_their_tables() {
        assert_eq!(SHIPPED_PACKS.len(), BUILTIN_LOCALES.len());
        for (index, (file, text)) in BUILTIN_LOCALES.iter().enumerate() {
            let checked = parse_bundle_text(text, file).unwrap();
            let shipped = builtin_pack(index);
            assert_eq!(checked.locale, builtin_tag(file));
            assert_eq!(shipped.locale, checked.locale, "{file}");
            assert_eq!(shipped.namespace, checked.namespace, "{file}");
            assert_eq!(shipped.messages, checked.messages, "{file}");
            let mut aliases = shipped.aliases.clone();
            let mut expected = checked.aliases.clone();
            aliases.sort();
            expected.sort();
            assert_eq!(aliases, expected, "{file}");
            assert!(
                checked
                    .messages
                    .values()
                    .any(|m| matches!(m, Message::Plural(_)))
            );
        }
    }

    #[test]
    fn start_up_parses_only_the_packs_of_the_lookup_chain() {
        let mut registry = chain_registry("en");
        assert!(registry.has_builtin("en") && !registry.has_builtin("zh-TW"));
        // A user pack for a locale not loaded yet keeps its keys when the
        // shipped pack comes in under it.
        let user = parse_bundle_value(
            &serde_json::json!({"version":1,"namespace":"pi","locale":"ja",
                                "messages":{"lang.title":"私の言語"}}),
            "user:ja.json",
        )
        .unwrap();
        registry.insert(user);
        registry.set_locale("ja");
        add_builtin_packs(&mut registry, false);
        assert!(registry.has_builtin("ja") && !registry.has_builtin("zh-TW"));
        assert_eq!(registry.translate("pi.lang.title", &[], |_| {}), "私の言語");
        let full = builtin_registry("ja");
        let shipped = full.translate("pi.cmd.lang.description", &[], |_| {});
        assert_eq!(shipped, "表示言語を選ぶ、または翻訳を確認・設定する");
        assert_eq!(
            registry.translate("pi.cmd.lang.description", &[], |_| {}),
            shipped
        );
        add_builtin_packs(&mut registry, true);
        assert!(
            BUILTIN_LOCALES
                .iter()
                .all(|(file, _)| registry.has_builtin(&builtin_tag(file)))
        );
    }
}
