//! One checkpoint as stored: which user message it belongs to, the exact pre-images of
//! files the edit and write tools touched, the workspace snapshot taken before the first
//! shell command, and what the run left behind in the files it changed.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::blobs::{BlobStore, FileRef};
use super::private_fs::write_private;
use super::scan::Manifest;

/// What made a checkpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckpointKind {
    /// A run the user's prompt started.
    Prompt,
    /// One of the user's own `!` commands.
    Bash,
    /// A restore (so that it can be undone too).
    Restore,
}

/// A file's state: its content, or `None` when it did not exist.
pub type FileState = Option<FileRef>;

/// One checkpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Checkpoint {
    /// Its id.
    pub id: String,
    /// Order within the session (grows by one).
    pub seq: u64,
    /// What made it.
    pub kind: CheckpointKind,
    /// The user message entry whose run it belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry_id: Option<String>,
    /// When it was made (ms since the epoch).
    pub created_ms: i64,
    /// Files exactly as they were before the run touched them (path relative to the
    /// working folder, or absolute outside it).
    #[serde(default)]
    pub before: BTreeMap<String, FileState>,
    /// The workspace snapshot taken before the run's first shell command (a stored
    /// manifest).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<FileRef>,
    /// What the run left in each file it changed.
    #[serde(default)]
    pub after: BTreeMap<String, FileState>,
    /// Bytes its new chunks took.
    #[serde(default)]
    pub bytes_added: u64,
    /// The run has finished.
    #[serde(default)]
    pub finished: bool,
}

impl Checkpoint {
    /// The files the run changed, sorted.
    pub fn changed_files(&self) -> Vec<String> {
        self.after.keys().cloned().collect()
    }

    /// As extensions, RPC clients and programs see it: `id`, `entryId`, `kind`,
    /// `timestamp`, `files` (what the run changed), `bytes`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "id": self.id,
            "entryId": self.entry_id,
            "kind": self.kind,
            "timestamp": self.created_ms,
            "files": self.changed_files(),
            "bytes": self.bytes_added,
        })
    }

    /// The file name of its record.
    pub fn file_name(&self) -> String {
        format!("{:08}-{}.json", self.seq, self.id)
    }

    /// Every chunk it refers to (its snapshot's files included).
    pub fn chunks(&self, blobs: &BlobStore) -> Vec<String> {
        let mut out = Vec::new();
        let mut add = |f: &FileRef| out.extend(f.chunk_ids().iter().map(|s| s.to_string()));
        for f in self.before.values().chain(self.after.values()).flatten() {
            add(f);
        }
        if let Some(m) = &self.snapshot {
            add(m);
            if let Ok(manifest) = load_manifest(blobs, m) {
                for e in manifest.values() {
                    add(&e.file);
                }
            }
        }
        out
    }
}

/// A path with `\\`, tab and newline escaped (manifest lines are tab-separated).
fn escape(path: &str, out: &mut String) {
    for c in path.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
}

fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// Store a snapshot in the blob store: one line per file (path, modification time,
/// hash, size, executable bit, chunks), so a snapshot of a barely changed workspace
/// shares almost all its chunks with the one before.
pub fn save_manifest(blobs: &BlobStore, manifest: &Manifest) -> io::Result<(FileRef, u64)> {
    use std::fmt::Write as _;
    let mut text = String::with_capacity(manifest.len() * 96);
    for (path, entry) in manifest {
        escape(path, &mut text);
        let f = &entry.file;
        let _ = writeln!(
            text,
            "\t{}\t{}\t{}\t{}\t{}",
            entry.mtime,
            f.hash,
            f.size,
            u8::from(f.exec),
            f.chunks.join(",")
        );
    }
    let batch = blobs.batch();
    let mut writer = batch.writer();
    let stored = writer.put(text.as_bytes(), false)?;
    writer.finish()?;
    Ok(stored)
}

/// Read a stored snapshot.
pub fn load_manifest(blobs: &BlobStore, file: &FileRef) -> io::Result<Manifest> {
    let bytes = blobs.read(file)?;
    let text = String::from_utf8_lossy(&bytes);
    let bad = || io::Error::new(io::ErrorKind::InvalidData, "damaged snapshot");
    let mut manifest = Manifest::new();
    for line in text.lines().filter(|l| !l.is_empty()) {
        let mut parts = line.split('\t');
        let mut next = || parts.next().ok_or_else(bad);
        let path = unescape(next()?);
        let mtime = next()?.parse().map_err(|_| bad())?;
        let hash = next()?.to_string();
        let size = next()?.parse().map_err(|_| bad())?;
        let exec = next()? == "1";
        let chunks = match next()? {
            "" => Vec::new(),
            list => list.split(',').map(str::to_string).collect(),
        };
        let file = FileRef {
            hash,
            size,
            exec,
            chunks,
        };
        manifest.insert(path, super::scan::ScanEntry { file, mtime });
    }
    Ok(manifest)
}

/// Write a checkpoint's record into `dir`.
pub fn save(dir: &Path, cp: &Checkpoint) -> io::Result<()> {
    let json = serde_json::to_vec(cp).map_err(io::Error::other)?;
    write_private(&dir.join(cp.file_name()), &json)
}

/// Every checkpoint recorded in `dir`, oldest first (unreadable records skipped).
pub fn load_all(dir: &Path) -> Vec<Checkpoint> {
    let Ok(read) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<Checkpoint> = read
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".json"))
        .filter_map(|e| fs::read(e.path()).ok())
        .filter_map(|b| serde_json::from_slice(&b).ok())
        .collect();
    out.sort_by_key(|c| c.seq);
    out
}

/// Remove a checkpoint's record from `dir`.
pub fn remove(dir: &Path, cp: &Checkpoint) {
    let _ = fs::remove_file(dir.join(cp.file_name()));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkpoint::scan::ScanEntry;

    #[test]
    fn a_manifest_round_trips_odd_paths_included() {
        let dir = tempfile::tempdir().unwrap();
        let blobs = BlobStore::new(dir.path().join("b"));
        let mut m = Manifest::new();
        let big: Vec<u8> = (0..200_000u32)
            .flat_map(|i| (i * 7).to_le_bytes())
            .collect();
        for (i, name) in ["plain.txt", "tab\there", "new\nline", "back\\slash", "ünï"]
            .iter()
            .enumerate()
        {
            let data = if i == 0 {
                big.clone()
            } else {
                name.as_bytes().to_vec()
            };
            let (file, _) = blobs.put(&data, i == 2).unwrap();
            m.insert(
                name.to_string(),
                ScanEntry {
                    file,
                    mtime: -5 + i as i128,
                },
            );
        }
        let (stored, _) = save_manifest(&blobs, &m).unwrap();
        assert_eq!(load_manifest(&blobs, &stored).unwrap(), m);
    }
}
