//! The update check: at start-up the terminal UI asks, at most once a day, which pi
//! version is the newest, and says so when it is newer than this one. Only with the
//! `enableUpdateCheck` setting (off by default), and never with `PI_SKIP_VERSION_CHECK=1`,
//! `--offline` or `PI_OFFLINE=1`. The answer is remembered in `<agent dir>/update-check.json`, so later
//! starts of the same day show the notice without asking again. The address answers
//! `{"version": "x.y.z"}`; `PI_VERSION_CHECK_URL` replaces it.

use crate::t;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Where the newest version is asked for unless `PI_VERSION_CHECK_URL` names another.
pub const DEFAULT_URL: &str = "https://pi.dev/api/latest-version";

/// How long a check may take before it is given up.
const TIMEOUT: Duration = Duration::from_secs(10);

/// How long an answer is trusted before pi asks again.
const INTERVAL_MS: i64 = 24 * 60 * 60 * 1000;

/// What the last check found (`update-check.json`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
struct Record {
    /// When the check ran, Unix milliseconds.
    checked_at: i64,
    /// The newest version then, if the answer was readable.
    latest: Option<String>,
}

/// Whether the check may run: the setting allows it and neither `PI_SKIP_VERSION_CHECK`
/// nor offline mode forbids it.
pub fn allowed(setting: bool, offline_flag: bool) -> bool {
    let skip = std::env::var("PI_SKIP_VERSION_CHECK").is_ok_and(|v| !v.trim().is_empty());
    setting && !skip && !offline_flag && !crate::ai::local_models::offline_env() && !cfg!(test)
}

fn record_path(agent_dir: &Path) -> PathBuf {
    agent_dir.join("update-check.json")
}

fn url() -> String {
    std::env::var("PI_VERSION_CHECK_URL")
        .ok()
        .filter(|v| !v.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_URL.to_string())
}

/// Whether `candidate` is a newer version than `current` (both `x.y.z`, a leading `v`
/// allowed); unreadable versions are never newer.
pub fn is_newer(candidate: &str, current: &str) -> bool {
    let parse = |v: &str| semver::Version::parse(v.trim().trim_start_matches('v')).ok();
    match (parse(candidate), parse(current)) {
        (Some(candidate), Some(current)) => candidate > current,
        _ => false,
    }
}

/// The notice to show, or `None` when this version is the newest or the check could not
/// run. Asks the network only when the last check is more than a day old.
pub async fn check(agent_dir: &Path, current: &str) -> Option<String> {
    let path = record_path(agent_dir);
    let now = chrono::Utc::now().timestamp_millis();
    let cached = std::fs::read_to_string(&path)
        .ok()
        .and_then(|text| serde_json::from_str::<Record>(&text).ok())
        .filter(|r| now - r.checked_at < INTERVAL_MS && r.checked_at <= now);
    let latest = match cached {
        Some(record) => record.latest,
        None => {
            let latest = fetch_latest(current).await;
            let record = Record {
                checked_at: now,
                latest: latest.clone(),
            };
            if let Ok(text) = serde_json::to_string(&record) {
                let _ = std::fs::create_dir_all(agent_dir);
                let _ = crate::config::atomic_file::write_atomically(&path, text.as_bytes());
            }
            latest
        }
    }?;
    is_newer(&latest, current)
        .then(|| t!("pi.update.available", version = latest, current = current))
}

async fn fetch_latest(current: &str) -> Option<String> {
    #[derive(Deserialize)]
    struct Answer {
        version: String,
    }
    let request = crate::ai::http::client()
        .get(url())
        .header("user-agent", format!("pi/{current}"))
        .timeout(TIMEOUT)
        .send();
    let response = tokio::time::timeout(TIMEOUT, request).await.ok()?.ok()?;
    if !response.status().is_success() {
        return None;
    }
    let body = response.bytes().await.ok()?;
    let answer: Answer = serde_json::from_slice(&body).ok()?;
    Some(answer.version.trim().to_string()).filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_compare_by_semver() {
        assert!(is_newer("0.2.0", "0.1.9"));
        assert!(is_newer("v1.10.0", "1.9.0"));
        assert!(!is_newer("0.1.0", "0.1.0"));
        assert!(!is_newer("0.1.0-beta.1", "0.1.0"));
        assert!(!is_newer("not a version", "0.1.0"));
    }

    #[test]
    fn a_fresh_record_answers_without_the_network() {
        let dir = tempfile::tempdir().unwrap();
        let now = chrono::Utc::now().timestamp_millis();
        let record = Record {
            checked_at: now - 1000,
            latest: Some("99.0.0".into()),
        };
        std::fs::write(
            record_path(dir.path()),
            serde_json::to_string(&record).unwrap(),
        )
        .unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let notice = runtime.block_on(check(dir.path(), "0.1.0"));
        assert!(notice.unwrap().contains("99.0.0"));
        let up_to_date = runtime.block_on(check(dir.path(), "99.0.0"));
        assert_eq!(up_to_date, None);
    }

    #[test]
    fn tests_never_check() {
        assert!(!allowed(true, false));
    }
}
