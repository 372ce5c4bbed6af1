//! `/lang probe`: while on, remember every text `t()` produced and every text that reached
//! the screen without passing through `t()` (an extension that does not localise, say).

use std::collections::BTreeSet;
use std::sync::Mutex;

static RENDERED: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
static UNLOCALISED: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Remember a text `t()` produced (called only while the probe is on).
pub(super) fn record_output(text: &str) {
    if !text.is_empty() {
        lock(&RENDERED).insert(text.to_string());
    }
}

/// A text is about to be shown. While the probe is on, each line that carries a Latin-script
/// word and contains no text `t()` produced is recorded as unlocalised.
pub fn observe(text: &str) {
    if !super::probe_enabled() {
        return;
    }
    let rendered = lock(&RENDERED);
    let mut found = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| has_word(l)) {
        let through_t = rendered.iter().any(|out| {
            out.lines()
                .map(str::trim)
                .any(|part| !part.is_empty() && line.contains(part))
        });
        if !through_t {
            found.push(line.to_string());
        }
    }
    drop(rendered);
    lock(&UNLOCALISED).extend(found);
}

/// A run of three or more ASCII letters: something a reader would call a word.
fn has_word(line: &str) -> bool {
    let mut run = 0;
    for c in line.chars() {
        run = if c.is_ascii_alphabetic() { run + 1 } else { 0 };
        if run >= 3 {
            return true;
        }
    }
    false
}

/// Lines seen on screen that did not come from `t()`.
pub fn unlocalised() -> Vec<String> {
    lock(&UNLOCALISED).iter().cloned().collect()
}

/// Forget what was recorded.
pub fn reset() {
    lock(&RENDERED).clear();
    lock(&UNLOCALISED).clear();
}

/// The probe is process-wide: tests that switch it take turns through this lock.
#[cfg(test)]
pub(crate) static TEST_TURN: Mutex<()> = Mutex::new(());

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_outside_t_is_recorded_only_while_probing() {
        let _turn = TEST_TURN.lock().unwrap_or_else(|p| p.into_inner());
        crate::i18n::set_probe(false);
        reset();
        observe("Deploy finished");
        assert!(unlocalised().is_empty());
        crate::i18n::set_probe(true);
        let title = crate::i18n::t("pi.lang.title", &[]);
        observe(&format!("{title}\nDeploy finished\n12 ✓"));
        crate::i18n::set_probe(false);
        assert_eq!(unlocalised(), ["Deploy finished"]);
        assert!(crate::i18n::probed_keys().contains(&"pi.lang.title".to_string()));
        reset();
        crate::i18n::reset_probe();
    }
}
