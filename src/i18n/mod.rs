//! Internationalisation: every string pi shows goes through [`t()`]; translations are data
//! (`locales/*.json`, BundleV1), looked up along the chain current locale -> base language ->
//! fallback (`en`) -> the key itself. Extensions register their own bundles.

pub mod bundle;
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
#[cfg(test)]
pub(crate) mod scoped;
pub mod score;
pub mod watch;

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{LazyLock, Mutex};

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

static CATALOG: LazyLock<ArcSwap<Registry>> =
    LazyLock::new(|| ArcSwap::from_pointee(builtin_registry("en")));
static GENERATION: AtomicU64 = AtomicU64::new(0);
static PROBE_ON: AtomicBool = AtomicBool::new(false);
static PROBED_KEYS: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
static UNFILLED: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// A registry holding the built-in locale packs, set to `locale`.
pub fn builtin_registry(locale: &str) -> Registry {
    let mut registry = Registry::new(locale, "en");
    for (name, text) in BUILTIN_LOCALES {
        match parse_bundle_text(text, &format!("builtin:{name}")) {
            Ok(bundle) => registry.insert(bundle),
            Err(errors) => panic!("built-in locale {name} is invalid: {errors:?}"),
        }
    }
    registry
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
    if scoped::update(&change) {
        GENERATION.fetch_add(1, Ordering::Relaxed);
        return;
    }
    CATALOG.rcu(|current| {
        let mut next = clone_registry(current);
        change(&mut next);
        next
    });
    GENERATION.fetch_add(1, Ordering::Relaxed);
}

/// Read the registry (for doctor, debug, listings).
pub fn with_registry<R>(read: impl FnOnce(&Registry) -> R) -> R {
    #[cfg(test)]
    if let Some(registry) = scoped::current() {
        return read(&registry);
    }
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
    let mut next = Registry::new(current.locale(), current.fallback());
    for bundle in current.bundles() {
        next.insert(bundle.clone());
    }
    next
}
