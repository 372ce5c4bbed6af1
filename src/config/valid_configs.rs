//! The configuration files this pi has already checked against their schema
//! and found valid, remembered by a fingerprint of pi's version, the schema
//! and the file's text (one per line in `<agent>/cache/valid-configs`). An
//! unchanged file is then not checked again at the next start: compiling a
//! schema costs more than the rest of a `pi -p` start-up. Any change to the
//! file, the schema or pi makes a new fingerprint, so the file is checked
//! again. Nothing is remembered until [`remember_in`] names the file.

use std::hash::Hasher;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// How many fingerprints the file keeps (the newest).
const KEEP: usize = 32;

static STORE: OnceLock<PathBuf> = OnceLock::new();

/// Keep fingerprints in `<agent_dir>/cache/valid-configs` (once per process;
/// later calls are ignored).
pub fn remember_in(agent_dir: &Path) {
    let _ = STORE.set(agent_dir.join("cache").join("valid-configs"));
}

/// A fingerprint of `schema` as this version of pi reads it (computed once per schema by
/// callers that check many files).
pub fn schema_fingerprint(schema: &str) -> u64 {
    let mut hash = std::collections::hash_map::DefaultHasher::new();
    hash.write(crate::VERSION.as_bytes());
    hash.write_u8(0);
    hash.write(schema.as_bytes());
    hash.finish()
}

/// The fingerprint of `text` checked against the schema of `schema_fingerprint`.
pub fn fingerprint(schema_fingerprint: u64, text: &str) -> u64 {
    let mut hash = std::collections::hash_map::DefaultHasher::new();
    hash.write_u64(schema_fingerprint);
    hash.write(text.as_bytes());
    hash.finish()
}

fn stored() -> Vec<u64> {
    let Some(path) = STORE.get() else {
        return Vec::new();
    };
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| u64::from_str_radix(line.trim(), 16).ok())
        .collect()
}

/// Whether a file with this fingerprint was found valid before.
pub fn is_known_valid(fingerprint: u64) -> bool {
    stored().contains(&fingerprint)
}

/// Remember that a file with this fingerprint is valid. Failing to write the
/// store only means the file is checked again next time.
pub fn remember_valid(fingerprint: u64) {
    let Some(path) = STORE.get() else {
        return;
    };
    let mut known = stored();
    if known.contains(&fingerprint) {
        return;
    }
    known.push(fingerprint);
    let start = known.len().saturating_sub(KEEP);
    let text: String = known[start..]
        .iter()
        .map(|f| format!("{f:016x}\n"))
        .collect();
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let _ = super::atomic_file::write_atomically(path, text.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_differ_by_schema_and_text() {
        let (empty, object) = (
            schema_fingerprint("{}"),
            schema_fingerprint("{\"type\": \"object\"}"),
        );
        let a = fingerprint(empty, "{\"a\": 1}");
        assert_eq!(a, fingerprint(schema_fingerprint("{}"), "{\"a\": 1}"));
        assert_ne!(a, fingerprint(empty, "{\"a\": 2}"));
        assert_ne!(a, fingerprint(object, "{\"a\": 1}"));
    }
}
