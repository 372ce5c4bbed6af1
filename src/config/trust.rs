//! Project trust: project-local resources (`.pi/settings.json`, `.pi/extensions`, skills,
//! prompt templates, themes, `SYSTEM.md`) load only for folders the user trusts. Decisions
//! live in `<agent>/trust.json`, one per folder; the nearest decision on the path wins.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::error::{FileError, JsonProblem};
use super::json_file::write_pretty_json;
use super::paths::CONFIG_DIR_NAME;

/// Why a folder is or is not trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrustSource {
    /// The folder has no `.pi` resources: nothing to decide.
    NoProjectResources,
    /// `alwaysTrust: true` in the global settings.
    AlwaysTrust,
    /// `--approve` or `--no-approve`.
    Flag,
    /// A decision recorded in `trust.json` for this folder or a parent.
    Stored,
    /// The user answered the prompt just now (and it was recorded).
    Asked,
    /// Nobody could be asked (print, JSON or RPC mode): not trusted.
    NotAsked,
}

impl TrustSource {
    /// The name used in the `project_trust` event.
    pub fn as_str(self) -> &'static str {
        match self {
            TrustSource::NoProjectResources => "none",
            TrustSource::AlwaysTrust => "alwaysTrust",
            TrustSource::Flag => "flag",
            TrustSource::Stored => "stored",
            TrustSource::Asked => "asked",
            TrustSource::NotAsked => "default",
        }
    }
}

/// The outcome for one folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrustOutcome {
    /// Whether project resources load.
    pub trusted: bool,
    /// What decided it.
    pub source: TrustSource,
}

/// `<agent>/trust.json`.
pub fn trust_path(agent_dir: &Path) -> PathBuf {
    agent_dir.join("trust.json")
}

/// Whether `cwd` has project-local resources (`<cwd>/.pi`).
pub fn has_project_resources(cwd: &Path) -> bool {
    cwd.join(CONFIG_DIR_NAME).is_dir()
}

/// The decisions recorded in `trust.json`: canonical folder -> trusted.
#[derive(Debug, Default)]
pub struct TrustStore {
    path: Option<PathBuf>,
    decisions: BTreeMap<String, Value>,
    /// Why the file could not be read, when it exists but is unreadable or
    /// malformed; such a file is never written over.
    unreadable: Option<FileError>,
}

impl TrustStore {
    /// Read `<agent>/trust.json`. A missing file holds no decisions; a
    /// malformed one holds none either, and is left untouched (see
    /// [`TrustStore::unreadable`]).
    pub fn load(agent_dir: &Path) -> TrustStore {
        let path = trust_path(agent_dir);
        let (decisions, unreadable) = match read_decisions(&path) {
            Ok(decisions) => (decisions, None),
            Err(problem) => (BTreeMap::new(), Some(problem)),
        };
        TrustStore {
            path: Some(path),
            decisions,
            unreadable,
        }
    }

    /// Why `trust.json` could not be read, when it exists but does not parse;
    /// decisions are then kept for this run only.
    pub fn unreadable(&self) -> Option<&FileError> {
        self.unreadable.as_ref()
    }

    /// The decision for `dir` or its nearest parent that has one.
    pub fn lookup(&self, dir: &Path) -> Option<bool> {
        let dir = canonical(dir);
        dir.ancestors().find_map(|d| {
            self.decisions
                .get(d.to_string_lossy().as_ref())
                .and_then(|v| v.get("trusted"))
                .and_then(Value::as_bool)
        })
    }

    /// Record a decision for `dir` and write the file, keeping decisions
    /// other processes wrote since it was loaded. A file that does not parse
    /// is never written over: the decision then holds for this run only and
    /// the error says why.
    pub fn record(&mut self, dir: &Path, trusted: bool) -> Result<(), FileError> {
        let key = canonical(dir).to_string_lossy().into_owned();
        let decided_at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        let decision = json!({"trusted": trusted, "decidedAt": decided_at});
        self.decisions.insert(key.clone(), decision.clone());
        let Some(path) = &self.path else {
            return Ok(());
        };
        let mut on_disk = match read_decisions(path) {
            Ok(on_disk) => on_disk,
            Err(problem) => {
                self.unreadable = Some(problem.clone());
                return Err(problem);
            }
        };
        on_disk.insert(key, decision);
        write_pretty_json(path, &json!(on_disk)).map_err(|e| FileError::unwritable(path, &e))?;
        self.decisions = on_disk;
        Ok(())
    }
}

/// The decisions in `path`; empty when the file does not exist, an error
/// naming the file when it cannot be read or is not a JSON object.
fn read_decisions(path: &Path) -> Result<BTreeMap<String, Value>, FileError> {
    let text = match super::json_file::read_config_text(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(e) => return Err(FileError::unreadable(path, &e)),
    };
    if text.trim().is_empty() {
        return Ok(BTreeMap::new());
    }
    serde_json::from_str(&text).map_err(|e| match e.classify() {
        serde_json::error::Category::Data => FileError::NotAnObject {
            path: path.to_path_buf(),
        },
        _ => FileError::Syntax {
            path: path.to_path_buf(),
            problem: JsonProblem::from_serde(&e),
        },
    })
}

fn canonical(dir: &Path) -> PathBuf {
    std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf())
}

/// Decide whether `cwd`'s project resources load. In order: no `.pi` folder (nothing to
/// gate), `alwaysTrust`, `--approve`/`--no-approve`, a recorded decision, then `ask` (the
/// terminal UI asks once and the answer is recorded); without anyone to ask, not trusted.
pub fn decide(
    cwd: &Path,
    store: &mut TrustStore,
    approve_flag: Option<bool>,
    always_trust: bool,
    ask: Option<&mut dyn FnMut() -> Option<bool>>,
) -> TrustOutcome {
    let outcome = |trusted, source| TrustOutcome { trusted, source };
    if !has_project_resources(cwd) {
        return outcome(true, TrustSource::NoProjectResources);
    }
    if always_trust {
        return outcome(true, TrustSource::AlwaysTrust);
    }
    if let Some(trusted) = approve_flag {
        return outcome(trusted, TrustSource::Flag);
    }
    if let Some(trusted) = store.lookup(cwd) {
        return outcome(trusted, TrustSource::Stored);
    }
    if let Some(ask) = ask
        && let Some(trusted) = ask()
    {
        // An unwritable file keeps the answer for this run; the caller
        // reports `store.unreadable()`.
        let _ = store.record(cwd, trusted);
        return outcome(trusted, TrustSource::Asked);
    }
    outcome(false, TrustSource::NotAsked)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project() -> (tempfile::TempDir, PathBuf, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let agent = dir.path().join("agent");
        let cwd = dir.path().join("work/proj");
        std::fs::create_dir_all(cwd.join(".pi")).unwrap();
        (dir, agent, cwd)
    }

    #[test]
    fn a_folder_without_project_resources_needs_no_decision() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = TrustStore::load(dir.path());
        let out = decide(dir.path(), &mut store, None, false, None);
        assert_eq!(
            out,
            TrustOutcome {
                trusted: true,
                source: TrustSource::NoProjectResources
            }
        );
    }

    #[test]
    fn without_anyone_to_ask_a_project_is_not_trusted() {
        let (_d, agent, cwd) = project();
        let mut store = TrustStore::load(&agent);
        let out = decide(&cwd, &mut store, None, false, None);
        assert_eq!(
            out,
            TrustOutcome {
                trusted: false,
                source: TrustSource::NotAsked
            }
        );
        assert!(!trust_path(&agent).exists(), "nothing recorded");
    }

    #[test]
    fn flags_and_always_trust_decide_without_recording() {
        let (_d, agent, cwd) = project();
        let mut store = TrustStore::load(&agent);
        assert!(decide(&cwd, &mut store, Some(true), false, None).trusted);
        assert!(!decide(&cwd, &mut store, Some(false), false, None).trusted);
        let out = decide(&cwd, &mut store, Some(false), true, None);
        assert_eq!(out.source, TrustSource::AlwaysTrust);
        assert!(!trust_path(&agent).exists());
    }

    #[test]
    fn the_answer_is_asked_once_and_recorded() {
        let (_d, agent, cwd) = project();
        let mut store = TrustStore::load(&agent);
        let mut asked = 0;
        let mut ask = || {
            asked += 1;
            Some(true)
        };
        let out = decide(&cwd, &mut store, None, false, Some(&mut ask));
        assert_eq!(
            out,
            TrustOutcome {
                trusted: true,
                source: TrustSource::Asked
            }
        );
        let mut store = TrustStore::load(&agent);
        let mut ask_again = || -> Option<bool> { panic!("asked twice") };
        let out = decide(&cwd, &mut store, None, false, Some(&mut ask_again));
        assert_eq!(
            out,
            TrustOutcome {
                trusted: true,
                source: TrustSource::Stored
            }
        );
        assert_eq!(asked, 1);
        // The flag still overrides a recorded decision.
        assert!(!decide(&cwd, &mut store, Some(false), false, None).trusted);
    }

    #[test]
    fn the_nearest_decision_on_the_path_wins() {
        let (dir, agent, cwd) = project();
        let mut store = TrustStore::load(&agent);
        store.record(&dir.path().join("work"), true).unwrap();
        assert_eq!(store.lookup(&cwd), Some(true));
        store.record(&cwd, false).unwrap();
        assert_eq!(TrustStore::load(&agent).lookup(&cwd), Some(false));
        assert_eq!(
            TrustStore::load(&agent).lookup(&dir.path().join("work/other")),
            Some(true)
        );
    }

    #[test]
    fn a_dismissed_prompt_decides_nothing() {
        let (_d, agent, cwd) = project();
        let mut store = TrustStore::load(&agent);
        let mut ask = || None;
        let out = decide(&cwd, &mut store, None, false, Some(&mut ask));
        assert_eq!(
            out,
            TrustOutcome {
                trusted: false,
                source: TrustSource::NotAsked
            }
        );
        assert!(!trust_path(&agent).exists());
    }

    #[test]
    fn a_malformed_trust_file_is_never_written_over() {
        let (_d, agent, cwd) = project();
        std::fs::create_dir_all(&agent).unwrap();
        let original = "{\n  \"/some/folder\": {\"trusted\": false},\n}\n";
        std::fs::write(trust_path(&agent), original).unwrap();
        let mut store = TrustStore::load(&agent);
        let problem = store.unreadable().expect("the trailing comma is reported");
        let FileError::Syntax { path, problem } = problem else {
            panic!("{problem:?}")
        };
        assert!(path.ends_with("trust.json"));
        assert!(matches!(
            problem,
            JsonProblem::Syntax {
                kind: crate::config::error::JsonSyntax::TrailingComma,
                line: 3,
                ..
            }
        ));
        let mut ask = || Some(true);
        let out = decide(&cwd, &mut store, None, false, Some(&mut ask));
        assert!(out.trusted, "the answer holds for this run");
        assert_eq!(
            std::fs::read_to_string(trust_path(&agent)).unwrap(),
            original,
            "byte for byte unchanged"
        );
    }

    #[test]
    fn recording_keeps_decisions_written_by_another_process() {
        let (dir, agent, cwd) = project();
        let mut store = TrustStore::load(&agent);
        let other = dir.path().join("elsewhere");
        TrustStore::load(&agent).record(&other, false).unwrap();
        store.record(&cwd, true).unwrap();
        let reloaded = TrustStore::load(&agent);
        assert_eq!(reloaded.lookup(&cwd), Some(true));
        assert_eq!(reloaded.lookup(&other), Some(false));
    }
}
