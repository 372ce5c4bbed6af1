//! `/lang` and `pi lang`: what the words after the command mean, and the localised text
//! of each subcommand (doctor, debug, probe, setup, hacks) shared by the TUI and the CLI.

use crate::t;

use super::core_hacks;
use super::doctor::{BundleReport, Finding, NARROW_SLOT_COLUMNS, check_registry};
use super::languages::{is_rtl, native_name, resolve_language};
use super::locale::{LocaleSource, detect_from_environment};
use super::score::{Category, Score, compute};

/// What `/lang ...` asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LangCommand {
    /// `/lang`: open the picker.
    Picker,
    /// `/lang <tag|alias|name>`: switch to this (resolved) tag.
    Set(String),
    /// `/lang <text>` that is no language.
    Invalid(String),
    /// `/lang doctor`.
    Doctor,
    /// `/lang debug`.
    Debug,
    /// `/lang probe [on|off|reset]` (`None`: report).
    Probe(Option<ProbeAction>),
    /// `/lang setup`.
    Setup,
    /// `/lang hacks [<id> [on|off]]`.
    Hacks(Option<(String, Option<bool>)>),
}

/// What `/lang probe` does besides reporting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProbeAction {
    /// Start recording.
    On,
    /// Stop recording.
    Off,
    /// Forget what was recorded.
    Reset,
}

/// Parse the words after `/lang`.
pub fn parse(args: &str) -> LangCommand {
    let mut words = args.split_whitespace();
    let Some(first) = words.next() else {
        return LangCommand::Picker;
    };
    let second = words.next();
    match first {
        "doctor" => LangCommand::Doctor,
        "debug" => LangCommand::Debug,
        "setup" => LangCommand::Setup,
        "probe" => LangCommand::Probe(match second {
            Some("on") => Some(ProbeAction::On),
            Some("off") => Some(ProbeAction::Off),
            Some("reset") => Some(ProbeAction::Reset),
            _ => None,
        }),
        "hacks" => LangCommand::Hacks(second.map(|id| {
            let state = match words.next() {
                Some("on") => Some(true),
                Some("off") => Some(false),
                _ => None,
            };
            (id.to_string(), state)
        })),
        _ => match resolve_language(args) {
            Ok(tag) => LangCommand::Set(tag),
            Err(unknown) => LangCommand::Invalid(unknown.input),
        },
    }
}

/// "繁體中文 (zh-TW)", or the bare tag for languages pi does not ship.
pub fn display_name(tag: &str) -> String {
    match native_name(tag) {
        Some(name) => format!("{name} ({tag})"),
        None => tag.to_string(),
    }
}

/// The confirmation after switching, with the right-to-left warning where it applies.
pub fn switched_message(tag: &str) -> String {
    let mut text = t!("pi.lang.switched", name = display_name(tag));
    if is_rtl(tag) {
        text.push('\n');
        text.push_str(&t!("pi.lang.rtl_warning", tag = tag));
    }
    if !is_shipped(tag) {
        text.push('\n');
        text.push_str(&t!("pi.lang.partial", tag = tag));
    }
    text
}

/// Switch the interface to `tag` now and remember that the user chose it, so `/lang debug`
/// names the right source at once.
pub fn switch_locale(tag: &str) {
    super::set_locale(tag);
    super::packs::record_switch(tag);
}

/// Whether pi ships a catalog for `tag` or its base language.
pub fn is_shipped(tag: &str) -> bool {
    let base = tag.split('-').next().unwrap_or(tag);
    super::ships_locale(tag)
        || super::ships_locale(base)
        || super::with_registry(|r| r.bundle("pi", tag).is_some() || r.bundle("pi", base).is_some())
}

/// A probe of the extension side of i18n: points earned and a note.
pub type ExtensionProbe = fn() -> (f64, String);

/// The doctor's report and score for the live catalog; the two probes check the Lua API
/// and the event-bus handshake (they live with the extension host).
pub fn doctor(extension_api: ExtensionProbe, handshake: ExtensionProbe) -> (String, Score) {
    super::load_all_builtin();
    let (reports, score) = super::with_registry(|registry| {
        let reports = check_registry(registry);
        let score = compute(registry, extension_api, handshake);
        (reports, score)
    });
    (doctor_text(&reports, &score), score)
}

/// Findings shown per kind before "and N more".
const SHOWN_PER_KIND: usize = 5;

fn doctor_text(reports: &[BundleReport], score: &Score) -> String {
    let mut out = vec![t!("pi.lang.doctor.title")];
    for report in reports {
        let count = |f: fn(&Finding) -> bool| report.findings.iter().filter(|x| f(x)).count();
        out.push(t!(
            "pi.lang.doctor.bundle",
            namespace = &report.namespace,
            locale = &report.locale,
            keys = report.keys,
            missing = count(|f| matches!(f, Finding::Missing { .. })),
            extra = count(|f| matches!(f, Finding::Extra { .. })),
            placeholders = count(|f| matches!(f, Finding::Placeholders { .. })),
            untranslated = count(|f| matches!(f, Finding::Untranslated { .. })),
            wide = count(|f| matches!(f, Finding::TooWide { .. })),
        ));
        let mut shown = std::collections::HashMap::<&str, usize>::new();
        for finding in &report.findings {
            let (kind, line) = finding_line(finding);
            let n = shown.entry(kind).or_default();
            *n += 1;
            if *n <= SHOWN_PER_KIND {
                out.push(format!("    {line}"));
            }
        }
        for (kind, n) in shown {
            if n > SHOWN_PER_KIND {
                out.push(format!(
                    "    {}",
                    t!(
                        "pi.lang.doctor.more",
                        count = n - SHOWN_PER_KIND,
                        kind = kind
                    )
                ));
            }
        }
    }
    let rejected = super::packs::last_init()
        .map(|r| r.errors)
        .unwrap_or_default();
    for error in rejected {
        out.push(t!("pi.lang.debug.rejected", error = error));
    }
    for placeholder in super::unfilled_placeholders() {
        out.push(t!("pi.lang.doctor.unfilled", key = placeholder));
    }
    out.push(String::new());
    out.push(t!("pi.lang.score.title"));
    for item in &score.items {
        out.push(t!(
            "pi.lang.score.item",
            earned = fmt_points(item.earned),
            points = fmt_points(item.points),
            name = super::t(&format!("pi.lang.score.item.{}", item.id), &[]),
            detail = &item.detail,
        ));
        out.push(format!(
            "      {}",
            t!("pi.lang.score.test", test = item.test)
        ));
    }
    for category in Category::ALL {
        let (earned, possible) = score.category(category);
        out.push(t!(
            "pi.lang.score.category",
            name = super::t(category.key(), &[]),
            earned = fmt_points(earned),
            points = fmt_points(possible),
            percent = (earned / possible * 100.0).round() as i64,
        ));
    }
    let verdict = if score.passes() {
        t!("pi.lang.score.pass")
    } else {
        t!("pi.lang.score.fail")
    };
    out.push(t!(
        "pi.lang.score.total",
        score = fmt_points(score.total()),
        verdict = verdict
    ));
    out.join("\n")
}

fn fmt_points(points: f64) -> String {
    if points.fract() == 0.0 {
        format!("{points:.0}")
    } else {
        format!("{points:.1}")
    }
}

fn finding_line(finding: &Finding) -> (&'static str, String) {
    match finding {
        Finding::Missing { key } => ("missing", t!("pi.lang.doctor.missing", key = key)),
        Finding::Extra { key } => ("extra", t!("pi.lang.doctor.extra", key = key)),
        Finding::Placeholders {
            key,
            expected,
            found,
        } => (
            "placeholders",
            t!(
                "pi.lang.doctor.placeholders",
                key = key,
                expected = expected.join(", "),
                found = found.join(", ")
            ),
        ),
        Finding::Untranslated { key } => {
            ("untranslated", t!("pi.lang.doctor.untranslated", key = key))
        }
        Finding::TooWide { key, width } => (
            "wide",
            t!(
                "pi.lang.doctor.too_wide",
                key = key,
                width = *width,
                slot = NARROW_SLOT_COLUMNS
            ),
        ),
    }
}

/// `/lang debug`: locale, fallback, where the locale came from, bundles and hacks.
pub fn debug() -> String {
    let report = super::packs::last_init();
    let source = report
        .as_ref()
        .map(|r| source_text(&r.source))
        .unwrap_or_else(|| t!("pi.lang.source.default"));
    super::load_all_builtin();
    let (locale, fallback, chain, mut bundles) = super::with_registry(|r| {
        let bundles: Vec<(String, String, usize, String)> = r
            .bundles()
            .map(|b| {
                (
                    b.namespace.clone(),
                    b.locale.clone(),
                    b.messages.len(),
                    b.origin.clone(),
                )
            })
            .collect();
        (
            r.locale().to_string(),
            r.fallback().to_string(),
            r.chain().join(" → "),
            bundles,
        )
    });
    bundles.sort();
    let mut out = vec![
        t!("pi.lang.debug.locale", locale = display_name(&locale)),
        t!(
            "pi.lang.debug.fallback",
            fallback = &fallback,
            chain = chain
        ),
        t!("pi.lang.debug.source", source = source),
    ];
    if !is_shipped(&locale) {
        out.push(t!("pi.lang.partial", tag = &locale));
    }
    if is_rtl(&locale) {
        out.push(t!("pi.lang.rtl_warning", tag = &locale));
    }
    out.push(t!("pi.lang.debug.bundles", count = bundles.len()));
    for (namespace, bundle_locale, keys, origin) in bundles {
        out.push(format!(
            "  {}",
            t!(
                "pi.lang.debug.bundle",
                namespace = namespace,
                locale = bundle_locale,
                keys = keys,
                origin = origin
            )
        ));
    }
    for error in report.map(|r| r.errors).unwrap_or_default() {
        out.push(t!("pi.lang.debug.rejected", error = error));
    }
    out.push(hacks_text());
    out.join("\n")
}

fn source_text(source: &LocaleSource) -> String {
    match source {
        LocaleSource::Settings => t!("pi.lang.source.settings"),
        LocaleSource::Env(name) => t!("pi.lang.source.env", name = *name),
        LocaleSource::System => t!("pi.lang.source.system"),
        LocaleSource::Default => t!("pi.lang.source.default"),
    }
}

/// `/lang hacks`: every core hack with its state.
pub fn hacks_text() -> String {
    let hacks = core_hacks::report();
    let mut out = vec![t!("pi.lang.hacks.title", count = hacks.len())];
    for hack in hacks {
        let state = super::t(&format!("pi.lang.hacks.state.{}", hack.state), &[]);
        out.push(format!(
            "  {}",
            t!(
                "pi.lang.hacks.row",
                id = &hack.id,
                state = state,
                hits = hack.hits,
                origin = &hack.origin
            )
        ));
        if let Some(reason) = hack.reason {
            out.push(format!("    {reason}"));
        }
    }
    out.join("\n")
}

/// `/lang hacks <id> [on|off]`: switch a hack (flip it without on/off).
pub fn toggle_hack(id: &str, wanted: Option<bool>) -> String {
    let Some(hack) = core_hacks::report().into_iter().find(|h| h.id == id) else {
        return t!("pi.lang.hacks.unknown", id = id);
    };
    let on = wanted.unwrap_or(hack.state == "disabled");
    core_hacks::set_enabled(id, on);
    super::update(|_| {});
    if on {
        t!("pi.lang.hacks.enabled", id = id)
    } else {
        t!("pi.lang.hacks.disabled", id = id)
    }
}

/// `/lang probe [on|off|reset]`.
pub fn probe(action: Option<ProbeAction>) -> String {
    match action {
        Some(ProbeAction::On) => {
            super::set_probe(true);
            return t!("pi.lang.probe.on");
        }
        Some(ProbeAction::Off) => super::set_probe(false),
        Some(ProbeAction::Reset) => {
            super::reset_probe();
            super::probe::reset();
            return t!("pi.lang.probe.reset");
        }
        None => {}
    }
    let keys = super::probed_keys();
    let unlocalised = super::probe::unlocalised();
    let state = if super::probe_enabled() {
        t!("pi.lang.probe.state_on")
    } else {
        t!("pi.lang.probe.state_off")
    };
    let mut out = vec![t!(
        "pi.lang.probe.summary",
        state = state,
        keys = keys.len(),
        unlocalised = unlocalised.len()
    )];
    for key in keys.iter().take(40) {
        out.push(format!("  {key}"));
    }
    if keys.len() > 40 {
        out.push(format!(
            "  {}",
            t!(
                "pi.lang.doctor.more",
                count = keys.len() - 40,
                kind = "keys"
            )
        ));
    }
    if !unlocalised.is_empty() {
        out.push(t!("pi.lang.probe.unlocalised"));
        out.extend(unlocalised.iter().map(|line| format!("  {line}")));
    }
    out.join("\n")
}

/// `/lang setup`: the locale the environment asks for (ignoring settings) and where that
/// came from, as text.
pub fn setup_choice() -> (String, String) {
    let (tag, source) = detect_from_environment(None);
    let tag = resolve_language(&tag).unwrap_or(tag);
    (tag, source_text(&source))
}

/// Save `locale` in the global settings.
pub fn persist(settings: &mut crate::config::settings::Settings, locale: &str) -> String {
    match settings.set_global("locale", serde_json::Value::String(locale.to_string())) {
        Ok(()) => match settings.global_path() {
            Some(path) => t!("pi.lang.saved", path = path.display().to_string()),
            None => t!("pi.lang.not_saved"),
        },
        Err(e) => t!("pi.lang.save_failed", error = e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_subcommands_tags_and_aliases() {
        assert_eq!(parse(""), LangCommand::Picker);
        assert_eq!(parse("tw"), LangCommand::Set("zh-TW".into()));
        assert_eq!(parse("japanese"), LangCommand::Set("ja".into()));
        assert_eq!(parse("zh-hant"), LangCommand::Set("zh-TW".into()));
        assert_eq!(parse("fr-ca"), LangCommand::Set("fr-CA".into()));
        assert_eq!(parse("doctor"), LangCommand::Doctor);
        assert_eq!(parse("probe on"), LangCommand::Probe(Some(ProbeAction::On)));
        assert_eq!(parse("probe"), LangCommand::Probe(None));
        assert_eq!(
            parse("hacks zh-TW.x off"),
            LangCommand::Hacks(Some(("zh-TW.x".into(), Some(false))))
        );
        assert_eq!(parse("hacks"), LangCommand::Hacks(None));
        assert_eq!(
            parse("not a tag!"),
            LangCommand::Invalid("not a tag!".into())
        );
    }

    #[test]
    fn rtl_and_unshipped_tags_are_accepted_with_warnings() {
        let text = switched_message("ar");
        assert!(text.lines().count() >= 3, "{text}");
        assert!(text.contains("ar"));
        let text = switched_message("ja");
        assert_eq!(text.lines().count(), 1, "{text}");
    }
}
