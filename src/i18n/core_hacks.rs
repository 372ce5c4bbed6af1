//! The core hacks in use: the built-in ones (`runtime-lua/core-hacks/`) and the user's
//! (`~/.pi/agent/core-hacks/`), loaded at start-up and again on `/reload`, applied where
//! text pi does not own reaches the screen (extension notifications, command descriptions,
//! tool labels, status and widget lines).

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{LazyLock, Mutex, RwLock};

use super::hacks::{HackSet, HackState};

static ACTIVE: LazyLock<RwLock<HackSet>> = LazyLock::new(|| RwLock::new(HackSet::default()));

/// The agent folder whose hacks load on first use ([`load_lazily`]).
static PENDING: Mutex<Option<PathBuf>> = Mutex::new(None);
/// Whether [`PENDING`] may hold a folder (a cheap check for the common path).
static HAS_PENDING: AtomicBool = AtomicBool::new(false);

/// Use the built-in hacks and the user's from `agent_dir/core-hacks/`, loaded (each
/// in its own small Lua VM) only when text first needs them or a report lists them,
/// so a run that never shows such text starts no VM.
pub fn load_lazily(agent_dir: &Path) {
    *PENDING.lock().unwrap_or_else(|e| e.into_inner()) = Some(agent_dir.to_path_buf());
    HAS_PENDING.store(true, Ordering::SeqCst);
}

/// Load the hacks [`load_lazily`] deferred, if any.
fn ensure_loaded() {
    if !HAS_PENDING.load(Ordering::Acquire) {
        return;
    }
    let pending = PENDING.lock().unwrap_or_else(|e| e.into_inner()).take();
    HAS_PENDING.store(false, Ordering::Release);
    if let Some(dir) = pending {
        reload(&dir);
    }
}

/// The folder of user core hacks under the agent directory.
pub fn user_dir(agent_dir: &Path) -> PathBuf {
    agent_dir.join("core-hacks")
}

/// Load the built-in hacks and the user's from `agent_dir/core-hacks/`, replacing the
/// ones in use; hacks switched off stay off. Returns how many failed or are unsafe.
pub fn reload(agent_dir: &Path) -> usize {
    replace(HackSet::load(&[user_dir(agent_dir)]))
}

/// Use `set` from now on (keeping the on/off choices of hacks with the same id).
pub fn replace(mut set: HackSet) -> usize {
    PENDING.lock().unwrap_or_else(|e| e.into_inner()).take();
    HAS_PENDING.store(false, Ordering::SeqCst);
    let mut active = ACTIVE.write().unwrap_or_else(|e| e.into_inner());
    let disabled: Vec<String> = active
        .hacks()
        .iter()
        .filter(|h| h.state() == HackState::Disabled)
        .map(|h| h.id.clone())
        .collect();
    for id in &disabled {
        set.set_enabled(id, false);
    }
    let broken = set
        .hacks()
        .iter()
        .filter(|h| matches!(h.state(), HackState::Failed(_) | HackState::Unsafe(_)))
        .count();
    *active = set;
    broken
}

/// `text` as it should be shown in the current locale: re-worded by the first matching
/// hack, or unchanged. The original is never modified, so switching locale or turning a
/// hack off shows the original again.
pub fn display(text: &str) -> Cow<'_, str> {
    if text.is_empty() {
        return Cow::Borrowed(text);
    }
    ensure_loaded();
    let locale = super::current_locale();
    let active = ACTIVE.read().unwrap_or_else(|e| e.into_inner());
    match active.apply(text, &locale) {
        Some(out) => Cow::Owned(out),
        None => Cow::Borrowed(text),
    }
}

/// Turn the hack `id` on or off; false when no hack has that id.
pub fn set_enabled(id: &str, enabled: bool) -> bool {
    ensure_loaded();
    ACTIVE
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .set_enabled(id, enabled)
}

/// One line per hack for reports: id, state (`matched`, `notFound`, `unsafe`, `failed`,
/// `disabled`), hits, origin and the reason of a problem.
pub fn report() -> Vec<HackReport> {
    ensure_loaded();
    let active = ACTIVE.read().unwrap_or_else(|e| e.into_inner());
    active
        .hacks()
        .iter()
        .map(|h| {
            let state = h.state();
            HackReport {
                id: h.id.clone(),
                state: state.label().to_string(),
                reason: state.reason().map(str::to_string),
                hits: h.hits(),
                origin: h.origin.clone(),
            }
        })
        .collect()
}

/// The state of one hack, for `/lang` reports and doctor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HackReport {
    /// Stable id.
    pub id: String,
    /// `matched`, `notFound`, `unsafe`, `failed` or `disabled`.
    pub state: String,
    /// Why a hack is failed or unsafe.
    pub reason: Option<String>,
    /// Texts it re-worded.
    pub hits: u64,
    /// Where it was loaded from.
    pub origin: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The whole lifecycle in one test: the active set is process-wide.
    #[test]
    fn builtin_and_user_hacks_apply_in_their_locale_and_survive_reload_choices() {
        let dir = tempfile::tempdir().unwrap();
        let hacks = user_dir(dir.path());
        std::fs::create_dir_all(&hacks).unwrap();
        std::fs::write(
            hacks.join("mine.lua"),
            "return { id = 'mine', locales = {'zh-TW'}, exact = { ['Deploy finished'] = '部署完成' } }",
        )
        .unwrap();
        std::fs::write(hacks.join("bad.lua"), "return {").unwrap();
        assert_eq!(reload(dir.path()), 1);
        let ids: Vec<String> = report().into_iter().map(|r| r.id).collect();
        assert!(
            ids.contains(&"zh-TW.common-extension-text".to_string()),
            "{ids:?}"
        );
        assert!(ids.contains(&"mine".to_string()), "{ids:?}");

        let en = crate::i18n::builtin_registry("en");
        assert_eq!(en.locale(), "en");
        let active = ACTIVE.read().unwrap();
        assert_eq!(
            active.apply("Deploy finished", "zh-TW").as_deref(),
            Some("部署完成")
        );
        assert_eq!(active.apply("Deploy finished", "en"), None);
        assert_eq!(
            active.apply("3 files changed", "zh-TW").as_deref(),
            Some("已變更 3 個檔案")
        );
        drop(active);
        let mine = report().into_iter().find(|r| r.id == "mine").unwrap();
        assert_eq!(mine.state, "matched");
        let bad = report().into_iter().find(|r| r.state == "failed").unwrap();
        assert!(bad.reason.unwrap().contains("bad.lua"));

        assert!(set_enabled("mine", false));
        reload(dir.path());
        let mine = report().into_iter().find(|r| r.id == "mine").unwrap();
        assert_eq!(mine.state, "disabled");
        assert_eq!(
            ACTIVE.read().unwrap().apply("Deploy finished", "zh-TW"),
            None
        );
        assert_eq!(display(""), "");
    }
}
