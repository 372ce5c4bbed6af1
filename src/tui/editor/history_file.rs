//! Prompt history kept across runs in `<agent>/prompt-history.jsonl`: one
//! JSON string per line, newest last. Large messages (pastes) are not kept.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Entries loaded at start-up.
pub const KEPT: usize = 100;
/// Longest message kept, in bytes.
pub const MAX_ENTRY_BYTES: usize = 4096;
/// The file is rewritten with the last [`KEPT`] entries once it has this many.
const REWRITE_AT: usize = 1000;

/// The history file of an agent folder.
pub fn history_path(agent_dir: &Path) -> PathBuf {
    agent_dir.join("prompt-history.jsonl")
}

/// The last [`KEPT`] entries, oldest first. Unreadable lines are skipped; a
/// file that has grown long is trimmed.
pub fn load(path: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let all: Vec<String> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<String>(l).ok())
        .collect();
    let kept = all[all.len().saturating_sub(KEPT)..].to_vec();
    if all.len() >= REWRITE_AT {
        let body: String = kept
            .iter()
            .map(|e| format!("{}\n", serde_json::Value::String(e.clone())))
            .collect();
        let _ = crate::config::atomic_file::write_atomically(path, body.as_bytes());
    }
    kept
}

/// Append one sent message (skipped when empty or too large).
pub fn append(path: &Path, text: &str) -> std::io::Result<()> {
    if text.trim().is_empty() || text.len() > MAX_ENTRY_BYTES {
        return Ok(());
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    writeln!(file, "{}", serde_json::Value::String(text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_survive_a_restart_and_large_ones_are_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let path = history_path(dir.path());
        append(&path, "first\nwith a newline").unwrap();
        append(&path, &"x".repeat(MAX_ENTRY_BYTES + 1)).unwrap();
        append(&path, "  ").unwrap();
        append(&path, "second").unwrap();
        assert_eq!(load(&path), vec!["first\nwith a newline", "second"]);
    }

    #[test]
    fn a_long_file_is_trimmed_to_the_newest_entries() {
        let dir = tempfile::tempdir().unwrap();
        let path = history_path(dir.path());
        for i in 0..REWRITE_AT {
            append(&path, &format!("m{i}")).unwrap();
        }
        let kept = load(&path);
        assert_eq!(kept.len(), KEPT);
        assert_eq!(kept.last().unwrap(), &format!("m{}", REWRITE_AT - 1));
        let lines = std::fs::read_to_string(&path).unwrap().lines().count();
        assert_eq!(lines, KEPT, "rewritten");
    }
}
