//! The content-addressed blob store shared by every session of a folder: chunks of file
//! content named by their hash, compressed, written once. A file is a list of chunk
//! hashes ([`FileRef`]), so two checkpoints of a barely changed file share almost all
//! their storage.

use std::collections::HashSet;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::chunk::cut_points;
use super::private_fs::{ensure_private_dir, write_new_private};

/// The stored content of one file: its hash, size, executable bit and chunks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileRef {
    /// Hash of the whole content.
    pub hash: String,
    /// Size in bytes.
    pub size: u64,
    /// Whether the owner may execute it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exec: bool,
    /// Chunk hashes in order; empty when the content is one chunk named by `hash`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chunks: Vec<String>,
}

impl FileRef {
    /// The chunk hashes the content is made of.
    pub fn chunk_ids(&self) -> Vec<&str> {
        if self.chunks.is_empty() && self.size > 0 {
            vec![self.hash.as_str()]
        } else {
            self.chunks.iter().map(String::as_str).collect()
        }
    }

    /// Whether `other` holds the same bytes and mode.
    pub fn same_content(&self, other: &FileRef) -> bool {
        self.hash == other.hash && self.exec == other.exec
    }
}

/// A hash as 32 hex digits (the first 128 bits of SHA-256).
pub fn hash_hex(data: &[u8]) -> String {
    let digest = Sha256::digest(data);
    let mut out = String::with_capacity(32);
    for b in &digest[..16] {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// Chunks stored under one folder.
#[derive(Debug, Clone)]
pub struct BlobStore {
    root: PathBuf,
    /// The two-digit folders known to exist (so each is checked once).
    made: std::sync::Arc<std::sync::Mutex<HashSet<String>>>,
}

/// A name for a temporary file no other writer of this process uses.
fn temp_name(id: &str) -> String {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!(".{id}.{}.{n}.tmp", std::process::id())
}

impl BlobStore {
    /// The store in `root` (created on first write).
    pub fn new(root: PathBuf) -> Self {
        BlobStore {
            root,
            made: Default::default(),
        }
    }

    /// Make the folder of chunks starting with `prefix` (once per store).
    fn ensure_folder(&self, prefix: &str, dir: &Path) -> io::Result<()> {
        let mut made = self.made.lock().unwrap_or_else(|e| e.into_inner());
        if made.contains(prefix) {
            return Ok(());
        }
        ensure_private_dir(&self.root)?;
        ensure_private_dir(dir)?;
        made.insert(prefix.to_string());
        Ok(())
    }

    fn path_of(&self, id: &str) -> PathBuf {
        let (dir, rest) = id.split_at(2.min(id.len()));
        self.root.join(dir).join(rest)
    }

    /// Store `data` and describe it; the second value is how many bytes new chunks took.
    pub fn put(&self, data: &[u8], exec: bool) -> io::Result<(FileRef, u64)> {
        let hash = hash_hex(data);
        let ranges = cut_points(data);
        let mut added = 0;
        let mut chunks = Vec::new();
        if ranges.len() <= 1 {
            if !data.is_empty() {
                added += self.put_chunk(&hash, data)?;
            }
        } else {
            for r in ranges {
                let piece = &data[r];
                let id = hash_hex(piece);
                added += self.put_chunk(&id, piece)?;
                chunks.push(id);
            }
        }
        let size = data.len() as u64;
        Ok((
            FileRef {
                hash,
                size,
                exec,
                chunks,
            },
            added,
        ))
    }

    /// Write one chunk unless it is already there; the bytes it took.
    fn put_chunk(&self, id: &str, data: &[u8]) -> io::Result<u64> {
        let path = self.path_of(id);
        if path.exists() {
            return Ok(0);
        }
        let dir = path.parent().unwrap_or(&self.root);
        self.ensure_folder(&id[..2.min(id.len())], dir)?;
        let mut enc = flate2::write::DeflateEncoder::new(
            Vec::with_capacity(data.len() / 2),
            flate2::Compression::fast(),
        );
        enc.write_all(data)?;
        let packed = enc.finish()?;
        write_new_private(dir, &temp_name(id), &path, &packed)?;
        Ok(packed.len() as u64)
    }

    /// The bytes of a stored file, checked against its hash.
    pub fn read(&self, file: &FileRef) -> io::Result<Vec<u8>> {
        let mut out = Vec::with_capacity(file.size as usize);
        for id in file.chunk_ids() {
            let packed = fs::read(self.path_of(id))?;
            flate2::read::DeflateDecoder::new(&packed[..]).read_to_end(&mut out)?;
        }
        if hash_hex(&out) != file.hash {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("stored content {} is damaged", file.hash),
            ));
        }
        Ok(out)
    }

    /// The size on disk of a chunk (0 when missing).
    pub fn chunk_size(&self, id: &str) -> u64 {
        fs::metadata(self.path_of(id)).map(|m| m.len()).unwrap_or(0)
    }

    /// Remove every chunk not in `keep`; the bytes freed.
    pub fn remove_unreferenced(&self, keep: &HashSet<String>) -> u64 {
        let mut freed = 0;
        for (id, path) in self.all_chunks() {
            if !keep.contains(&id) {
                let len = fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
                if fs::remove_file(&path).is_ok() {
                    freed += len;
                }
            }
        }
        freed
    }

    /// Total bytes of all chunks.
    pub fn total_bytes(&self) -> u64 {
        self.all_chunks()
            .iter()
            .map(|(_, p)| fs::metadata(p).map(|m| m.len()).unwrap_or(0))
            .sum()
    }

    fn all_chunks(&self) -> Vec<(String, PathBuf)> {
        let mut out = Vec::new();
        let Ok(dirs) = fs::read_dir(&self.root) else {
            return out;
        };
        for dir in dirs.flatten() {
            let prefix = dir.file_name().to_string_lossy().into_owned();
            let Ok(files) = fs::read_dir(dir.path()) else {
                continue;
            };
            for f in files.flatten() {
                let name = f.file_name().to_string_lossy().into_owned();
                if name.starts_with('.') {
                    continue;
                }
                out.push((format!("{prefix}{name}"), f.path()));
            }
        }
        out
    }

    /// The folder the chunks live in.
    pub fn root(&self) -> &Path {
        &self.root
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_round_trips_and_is_stored_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = BlobStore::new(dir.path().join("blobs"));
        let big: Vec<u8> = (0..300_000u32).flat_map(|i| i.to_le_bytes()).collect();
        let (file, added) = store.put(&big, false).unwrap();
        assert!(added > 0);
        assert!(file.chunks.len() > 1);
        assert_eq!(store.read(&file).unwrap(), big);
        let (again, added_again) = store.put(&big, false).unwrap();
        assert_eq!(again, file);
        assert_eq!(added_again, 0, "the same content takes no more room");
        let (small, _) = store.put(b"hello", true).unwrap();
        assert_eq!(store.read(&small).unwrap(), b"hello");
        let (empty, _) = store.put(b"", false).unwrap();
        assert_eq!(store.read(&empty).unwrap(), b"");
    }

    #[test]
    fn unreferenced_chunks_are_removed_and_referenced_kept() {
        let dir = tempfile::tempdir().unwrap();
        let store = BlobStore::new(dir.path().join("blobs"));
        let (keep, _) = store.put(b"keep me", false).unwrap();
        let (drop, _) = store.put(b"drop me", false).unwrap();
        let set: HashSet<String> = keep.chunk_ids().iter().map(|s| s.to_string()).collect();
        assert!(store.remove_unreferenced(&set) > 0);
        assert_eq!(store.read(&keep).unwrap(), b"keep me");
        assert!(store.read(&drop).is_err());
    }
}
