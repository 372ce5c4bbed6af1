//! Core hacks: Lua scripts that re-word text pi does not own — chiefly strings of
//! third-party extensions that never call `t()` — for one or more locales.
//!
//! A hack script returns a plain table; it is evaluated once, in a throw-away Lua state with
//! no I/O libraries, and only its data is kept:
//!
//! ```lua
//! return {
//!   id = "todo-ext",                       -- stable id, shown by /lang hacks and doctor
//!   locales = { "zh-TW" },                 -- applies to these locales (and their variants)
//!   exact = { ["Ready"] = "就緒" },        -- whole-text matches, tried first
//!   patterns = {                           -- anchored regexes, tried last
//!     { match = "^(\\d+) tasks left$", replace = "剩下 $1 個任務" },
//!   },
//! }
//! ```
//!
//! Hacks are applied at display time and never change the original text, so turning one off
//! or switching locale restores the original at once. A hack that fails to load, or whose
//! pattern is not anchored at both ends, is never applied (it fails closed).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use mlua::{HookTriggers, Lua, LuaOptions, StdLib, Table, Value, VmState};
use regex::Regex;

/// A hack script may run this many times 10,000 Lua instructions before it is stopped.
const MAX_STEPS: u32 = 200;

/// Hacks shipped in the binary: (file name, Lua source).
pub const BUILTIN_HACKS: &[(&str, &str)] = &[(
    "zh-TW-common-extension-text.lua",
    include_str!("../../runtime-lua/core-hacks/zh-TW-common-extension-text.lua"),
)];

/// The state `/lang hacks` and doctor report for a hack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HackState {
    /// Loaded, and at least one of its rules matched text on screen.
    Matched,
    /// Loaded, but none of its rules has matched yet.
    NotFound,
    /// The script failed to load or returned the wrong shape; never applied.
    Failed(String),
    /// A pattern is too broad to be safe (not anchored with `^...$`); never applied.
    Unsafe(String),
    /// Turned off by the user.
    Disabled,
}

impl HackState {
    /// The state's name in reports: `matched`, `notFound`, `failed`, `unsafe`, `disabled`.
    pub fn label(&self) -> &'static str {
        match self {
            HackState::Matched => "matched",
            HackState::NotFound => "notFound",
            HackState::Failed(_) => "failed",
            HackState::Unsafe(_) => "unsafe",
            HackState::Disabled => "disabled",
        }
    }

    /// Why a hack is failed or unsafe.
    pub fn reason(&self) -> Option<&str> {
        match self {
            HackState::Failed(reason) | HackState::Unsafe(reason) => Some(reason),
            _ => None,
        }
    }
}

struct PatternRule {
    regex: Regex,
    replace: String,
}

/// One loaded hack.
pub struct Hack {
    /// Stable id.
    pub id: String,
    /// Where it came from.
    pub origin: String,
    locales: Vec<String>,
    exact: HashMap<String, String>,
    patterns: Vec<PatternRule>,
    problem: Option<HackState>,
    enabled: bool,
    hits: AtomicU64,
}

impl Hack {
    /// The hack's state for reports.
    pub fn state(&self) -> HackState {
        if let Some(problem) = &self.problem {
            return problem.clone();
        }
        if !self.enabled {
            return HackState::Disabled;
        }
        if self.hits.load(Ordering::Relaxed) > 0 {
            HackState::Matched
        } else {
            HackState::NotFound
        }
    }

    /// How many texts this hack has re-worded.
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    fn applies_to(&self, locale: &str) -> bool {
        self.problem.is_none()
            && self.enabled
            && self.locales.iter().any(|l| {
                l == locale
                    || locale
                        .strip_prefix(l.as_str())
                        .is_some_and(|rest| rest.starts_with('-'))
            })
    }

    fn rewrite(&self, text: &str) -> Option<String> {
        if let Some(out) = self.exact.get(text) {
            return Some(out.clone());
        }
        self.patterns.iter().find_map(|rule| {
            rule.regex
                .is_match(text)
                .then(|| rule.regex.replace(text, rule.replace.as_str()).into_owned())
        })
    }
}

/// Every loaded hack, in load order.
#[derive(Default)]
pub struct HackSet {
    hacks: Vec<Hack>,
}

impl HackSet {
    /// Load the built-in hacks and every `*.lua` in `dirs` (missing folders are skipped).
    pub fn load(dirs: &[PathBuf]) -> Self {
        let mut set = HackSet::default();
        for (name, source) in BUILTIN_HACKS {
            set.hacks
                .push(load_hack(source, &format!("builtin:{name}")));
        }
        for dir in dirs {
            for file in super::packs::files_with_extension(dir, "lua") {
                set.hacks.push(load_file(&file));
            }
        }
        set
    }

    /// Add one hack from source (for tests and extensions).
    pub fn add_source(&mut self, source: &str, origin: &str) {
        self.hacks.push(load_hack(source, origin));
    }

    /// The loaded hacks.
    pub fn hacks(&self) -> &[Hack] {
        &self.hacks
    }

    /// Turn a hack on or off by id; false when no hack has that id.
    pub fn set_enabled(&mut self, id: &str, enabled: bool) -> bool {
        let mut found = false;
        for hack in self.hacks.iter_mut().filter(|h| h.id == id) {
            hack.enabled = enabled;
            found = true;
        }
        found
    }

    /// `text` as the first applicable hack re-words it for `locale`, or `None`.
    pub fn apply(&self, text: &str, locale: &str) -> Option<String> {
        self.hacks
            .iter()
            .filter(|h| h.applies_to(locale))
            .find_map(|hack| {
                let out = hack.rewrite(text)?;
                hack.hits.fetch_add(1, Ordering::Relaxed);
                Some(out)
            })
    }
}

fn load_file(path: &Path) -> Hack {
    let origin = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(source) => load_hack(&source, &origin),
        Err(e) => failed(&origin, &origin, format!("cannot read: {e}")),
    }
}

fn failed(id: &str, origin: &str, reason: String) -> Hack {
    Hack {
        id: id.to_string(),
        origin: origin.to_string(),
        locales: Vec::new(),
        exact: HashMap::new(),
        patterns: Vec::new(),
        problem: Some(HackState::Failed(reason)),
        enabled: true,
        hits: AtomicU64::new(0),
    }
}

/// Evaluate a hack script in a sandbox (string, table and math libraries only).
fn load_hack(source: &str, origin: &str) -> Hack {
    let lua = match Lua::new_with(
        StdLib::STRING | StdLib::TABLE | StdLib::MATH,
        LuaOptions::default(),
    ) {
        Ok(lua) => lua,
        Err(e) => return failed(origin, origin, e.to_string()),
    };
    let steps = std::cell::Cell::new(0u32);
    lua.set_global_hook(
        HookTriggers::new().every_nth_instruction(10_000),
        move |_, _| {
            steps.set(steps.get() + 1);
            if steps.get() > MAX_STEPS {
                return Err(mlua::Error::RuntimeError(
                    "stopped: the script ran too long (a hack must just return a table)".into(),
                ));
            }
            Ok(VmState::Continue)
        },
    )
    .ok();
    let table: Table = match lua.load(source).set_name(format!("@{origin}")).eval() {
        Ok(Value::Table(t)) => t,
        Ok(other) => {
            let got = other.type_name();
            return failed(origin, origin, format!("must return a table, got {got}"));
        }
        Err(e) => return failed(origin, origin, e.to_string()),
    };
    match hack_from_table(&table, origin) {
        Ok(hack) => hack,
        Err((id, reason)) => failed(&id, origin, reason),
    }
}

fn hack_from_table(table: &Table, origin: &str) -> Result<Hack, (String, String)> {
    let id: String = table
        .get::<Option<String>>("id")
        .ok()
        .flatten()
        .ok_or_else(|| {
            (
                origin.to_string(),
                "field `id` (a string) is required".into(),
            )
        })?;
    let err = |reason: String| (id.clone(), reason);
    let locales: Vec<String> = table
        .get::<Option<Vec<String>>>("locales")
        .map_err(|e| err(format!("field `locales`: {e}")))?
        .ok_or_else(|| err("field `locales` (a list of locale tags) is required".into()))?
        .iter()
        .map(|l| super::locale::normalize_tag(l))
        .collect();
    let exact: HashMap<String, String> = table
        .get::<Option<HashMap<String, String>>>("exact")
        .map_err(|e| err(format!("field `exact`: {e}")))?
        .unwrap_or_default();
    let mut patterns = Vec::new();
    let mut problem = None;
    let rules: Vec<Table> = table
        .get::<Option<Vec<Table>>>("patterns")
        .map_err(|e| err(format!("field `patterns`: {e}")))?
        .unwrap_or_default();
    for (index, rule) in rules.iter().enumerate() {
        let n = index + 1;
        let matcher: String = rule
            .get("match")
            .map_err(|e| err(format!("patterns[{n}].match: {e}")))?;
        let replace: String = rule
            .get("replace")
            .map_err(|e| err(format!("patterns[{n}].replace: {e}")))?;
        if !matcher.starts_with('^') || !matcher.ends_with('$') {
            problem = Some(HackState::Unsafe(format!(
                "patterns[{n}] `{matcher}` must be anchored with ^ and $"
            )));
            continue;
        }
        let regex =
            Regex::new(&matcher).map_err(|e| err(format!("patterns[{n}] is not a regex: {e}")))?;
        patterns.push(PatternRule { regex, replace });
    }
    Ok(Hack {
        id: id.clone(),
        origin: origin.to_string(),
        locales,
        exact,
        patterns,
        problem,
        enabled: true,
        hits: AtomicU64::new(0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TODO: &str = r#"
        local exact = { ["Ready"] = "就緒" }
        exact["Done"] = "完成"
        return {
          id = "todo-ext",
          locales = { "zh-TW", "ja" },
          exact = exact,
          patterns = { { match = "^(\\d+) tasks left$", replace = "剩下 $1 個任務" } },
        }
    "#;

    fn set(sources: &[&str]) -> HackSet {
        let mut set = HackSet::default();
        for (i, s) in sources.iter().enumerate() {
            set.add_source(s, &format!("test{i}.lua"));
        }
        set
    }

    #[test]
    fn exact_matches_then_anchored_patterns_for_the_right_locales() {
        let hacks = set(&[TODO]);
        assert_eq!(hacks.hacks()[0].state(), HackState::NotFound);
        assert_eq!(hacks.apply("Ready", "zh-TW").as_deref(), Some("就緒"));
        assert_eq!(hacks.apply("Done", "ja-JP").as_deref(), Some("完成"));
        assert_eq!(
            hacks.apply("3 tasks left", "zh-TW").as_deref(),
            Some("剩下 3 個任務")
        );
        assert_eq!(hacks.apply("Ready", "en"), None);
        assert_eq!(hacks.apply("Ready", "zh-CN"), None);
        assert_eq!(hacks.apply("Not Ready", "zh-TW"), None);
        assert_eq!(hacks.hacks()[0].state(), HackState::Matched);
        assert_eq!(hacks.hacks()[0].hits(), 3);
    }

    #[test]
    fn disabling_restores_the_original() {
        let mut hacks = set(&[TODO]);
        assert!(hacks.set_enabled("todo-ext", false));
        assert_eq!(hacks.apply("Ready", "zh-TW"), None);
        assert_eq!(hacks.hacks()[0].state(), HackState::Disabled);
        assert!(!hacks.set_enabled("nope", false));
    }

    #[test]
    fn broken_scripts_fail_closed_with_a_reason() {
        let hacks = set(&[
            "return {",
            "return 42",
            "return { locales = {'zh-TW'} }",
            "os.execute('touch /tmp/x') return {}",
            "while true do end",
            "return { id = 'p', locales = {'zh-TW'}, patterns = {{ match = '^($', replace = '' }} }",
        ]);
        let states: Vec<HackState> = hacks.hacks().iter().map(|h| h.state()).collect();
        for state in &states {
            assert!(matches!(state, HackState::Failed(_)), "{states:?}");
        }
        let HackState::Failed(reason) = &states[1] else {
            unreachable!()
        };
        assert!(reason.contains("must return a table"), "{reason}");
        let HackState::Failed(reason) = &states[2] else {
            unreachable!()
        };
        assert!(reason.contains("`id`"), "{reason}");
        let HackState::Failed(reason) = &states[3] else {
            unreachable!()
        };
        assert!(reason.contains("os"), "{reason}");
        let HackState::Failed(reason) = &states[4] else {
            unreachable!()
        };
        assert!(reason.contains("ran too long"), "{reason}");
        assert_eq!(hacks.apply("anything", "zh-TW"), None);
    }

    #[test]
    fn unanchored_patterns_are_unsafe_and_never_applied() {
        let hacks = set(&[
            "return { id = 'greedy', locales = {'zh-TW'}, exact = { Ready = '就緒' }, \
             patterns = {{ match = 'files', replace = '檔案' }} }",
        ]);
        assert!(matches!(hacks.hacks()[0].state(), HackState::Unsafe(_)));
        assert_eq!(hacks.apply("Ready", "zh-TW"), None);
        assert_eq!(hacks.apply("3 files", "zh-TW"), None);
    }

    #[test]
    fn shipped_hacks_load_cleanly() {
        let hacks = HackSet::load(&[]);
        assert_eq!(hacks.hacks().len(), BUILTIN_HACKS.len());
        for hack in hacks.hacks() {
            assert_eq!(hack.state(), HackState::NotFound, "{}", hack.id);
        }
    }

    #[test]
    fn loads_lua_files_from_folders() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.lua"), TODO).unwrap();
        std::fs::write(dir.path().join("notes.txt"), "ignored").unwrap();
        let hacks = HackSet::load(&[dir.path().to_path_buf(), dir.path().join("missing")]);
        assert_eq!(hacks.hacks().len(), BUILTIN_HACKS.len() + 1);
        let last = hacks.hacks().last().unwrap();
        assert_eq!(last.id, "todo-ext");
        assert!(last.origin.ends_with("a.lua"));
    }
}
