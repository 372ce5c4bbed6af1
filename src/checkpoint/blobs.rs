//! The content-addressed blob store shared by every session of a folder: chunks of file
//! content named by their hash, compressed, written once. A file is a list of chunk
//! hashes ([`FileRef`]), so two checkpoints of a barely changed file share almost all
//! their storage.

use std::collections::HashSet;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::chunk::cut_points;
use super::packs::{self, Loc, PackIndex, packs_dir};
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

/// Compress a chunk as stored.
fn compress(data: &[u8]) -> io::Result<Vec<u8>> {
    let mut enc = flate2::write::DeflateEncoder::new(
        Vec::with_capacity(data.len() / 2 + 64),
        flate2::Compression::fast(),
    );
    enc.write_all(data)?;
    enc.finish()
}

/// Cut `data` into chunks, hand each to `store_chunk` (which returns the bytes it took)
/// and describe the whole.
fn describe(
    data: &[u8],
    exec: bool,
    mut store_chunk: impl FnMut(&str, &[u8]) -> io::Result<u64>,
) -> io::Result<(FileRef, u64)> {
    let hash = hash_hex(data);
    let ranges = cut_points(data);
    let mut added = 0;
    let mut chunks = Vec::new();
    if ranges.len() <= 1 {
        if !data.is_empty() {
            added += store_chunk(&hash, data)?;
        }
    } else {
        for r in ranges {
            let piece = &data[r];
            let id = hash_hex(piece);
            added += store_chunk(&id, piece)?;
            chunks.push(id);
        }
    }
    let size = data.len() as u64;
    let file = FileRef {
        hash,
        size,
        exec,
        chunks,
    };
    Ok((file, added))
}

/// Chunks stored under one folder: each in a file of its own, or many in a pack.
#[derive(Debug, Clone)]
pub struct BlobStore {
    root: PathBuf,
    /// The two-digit folders known to exist (so each is checked once).
    made: Arc<Mutex<HashSet<String>>>,
    /// The packs' chunks (`None` until first needed).
    packs: Arc<Mutex<Option<PackIndex>>>,
}

/// Below this many new chunks a batch writes them as files of their own (a pack is for
/// many).
const LOOSE_BELOW: usize = 32;
/// A pack is written when its chunks reach this size.
const PACK_BYTES: usize = 8 << 20;

/// Files stored together (a snapshot): their new chunks are packed. Each thread takes a
/// [`PackWriter`]; a chunk is written by one of them only.
#[derive(Debug)]
pub struct Batch<'a> {
    store: &'a BlobStore,
    /// Chunks a writer of this batch has taken on.
    claimed: Mutex<HashSet<String>>,
}

impl<'a> Batch<'a> {
    /// A writer for one thread; its chunks are readable once it has finished.
    pub fn writer(&self) -> PackWriter<'_, 'a> {
        PackWriter {
            batch: self,
            data: Vec::new(),
            entries: Vec::new(),
        }
    }
}

/// Collects compressed chunks and writes them as packs.
#[derive(Debug)]
pub struct PackWriter<'b, 'a> {
    batch: &'b Batch<'a>,
    data: Vec<u8>,
    entries: Vec<packs::Entry>,
}

impl PackWriter<'_, '_> {
    /// Store `data` (as [`BlobStore::put`]).
    pub fn put(&mut self, data: &[u8], exec: bool) -> io::Result<(FileRef, u64)> {
        describe(data, exec, |id, piece| self.add_chunk(id, piece))
    }

    fn add_chunk(&mut self, id: &str, piece: &[u8]) -> io::Result<u64> {
        let store = self.batch.store;
        if store.has_chunk(id) {
            return Ok(0);
        }
        let mut claimed = self.batch.claimed.lock().unwrap_or_else(|e| e.into_inner());
        if !claimed.insert(id.to_string()) {
            return Ok(0);
        }
        drop(claimed);
        let packed = compress(piece)?;
        let len = packed.len() as u64;
        self.entries
            .push((id.to_string(), self.data.len() as u64, len));
        self.data.extend_from_slice(&packed);
        if self.data.len() >= PACK_BYTES {
            self.flush()?;
        }
        Ok(len)
    }

    fn flush(&mut self) -> io::Result<()> {
        let store = self.batch.store;
        let data = std::mem::take(&mut self.data);
        let entries = std::mem::take(&mut self.entries);
        if entries.len() < LOOSE_BELOW {
            for (id, offset, len) in &entries {
                store.write_loose(id, &data[*offset as usize..(*offset + *len) as usize])?;
            }
            return Ok(());
        }
        let name = packs::write(&packs_dir(&store.root), data, &entries)?;
        let mut index = store.packs.lock().unwrap_or_else(|e| e.into_inner());
        index
            .get_or_insert_with(PackIndex::default)
            .add(&name, entries);
        Ok(())
    }

    /// Write what is left: the chunks are stored once this returns.
    pub fn finish(mut self) -> io::Result<()> {
        self.flush()
    }
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
            packs: Default::default(),
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
        describe(data, exec, |id, piece| self.put_chunk(id, piece))
    }

    /// Whether chunk `id` is stored (loose or packed).
    fn has_chunk(&self, id: &str) -> bool {
        self.path_of(id).exists() || self.packed(id).is_some()
    }

    /// Where chunk `id` is packed (the packs are read on first use).
    fn packed(&self, id: &str) -> Option<Loc> {
        let mut index = self.packs.lock().unwrap_or_else(|e| e.into_inner());
        index
            .get_or_insert_with(|| {
                let mut fresh = PackIndex::default();
                fresh.refresh(&packs_dir(&self.root));
                fresh
            })
            .get(id)
            .cloned()
    }

    /// Read the packs' indexes again (another process may have written or removed some).
    fn refresh_packs(&self) {
        let mut index = self.packs.lock().unwrap_or_else(|e| e.into_inner());
        index
            .get_or_insert_with(PackIndex::default)
            .refresh(&packs_dir(&self.root));
    }

    /// Write one chunk unless it is already there; the bytes it took.
    fn put_chunk(&self, id: &str, data: &[u8]) -> io::Result<u64> {
        if self.has_chunk(id) {
            return Ok(0);
        }
        let packed = compress(data)?;
        self.write_loose(id, &packed)?;
        Ok(packed.len() as u64)
    }

    /// Write a compressed chunk as a file of its own.
    fn write_loose(&self, id: &str, packed: &[u8]) -> io::Result<()> {
        let path = self.path_of(id);
        let dir = path.parent().unwrap_or(&self.root);
        self.ensure_folder(&id[..2.min(id.len())], dir)?;
        write_new_private(dir, &temp_name(id), &path, packed)
    }

    /// The compressed bytes of chunk `id`.
    fn read_chunk(&self, id: &str) -> io::Result<Vec<u8>> {
        match fs::read(self.path_of(id)) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            other => return other,
        }
        let dir = packs_dir(&self.root);
        if let Some(loc) = self.packed(id)
            && let Ok(data) = packs::read_chunk(&dir, &loc)
        {
            return Ok(data);
        }
        // Packs may have been rewritten since they were read.
        self.refresh_packs();
        match self.packed(id) {
            Some(loc) => packs::read_chunk(&dir, &loc),
            None => Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("chunk {id} is missing"),
            )),
        }
    }

    /// Start writing many files at once (a snapshot): their new chunks go into packs.
    pub fn batch(&self) -> Batch<'_> {
        self.refresh_packs();
        Batch {
            store: self,
            claimed: Default::default(),
        }
    }

    /// The bytes of a stored file, checked against its hash.
    pub fn read(&self, file: &FileRef) -> io::Result<Vec<u8>> {
        let mut out = Vec::with_capacity(file.size as usize);
        for id in file.chunk_ids() {
            let packed = self.read_chunk(id)?;
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

    /// Remove every chunk not in `keep` (packs holding some are rewritten without the
    /// others); the bytes freed.
    pub fn remove_unreferenced(&self, keep: &HashSet<String>) -> u64 {
        let dir = packs_dir(&self.root);
        let mut freed: u64 = packs::list(&dir)
            .iter()
            .map(|name| packs::shrink(&dir, name, keep))
            .sum();
        self.refresh_packs();
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

    /// Total bytes of all chunks, loose and packed.
    pub fn total_bytes(&self) -> u64 {
        let loose: u64 = self
            .all_chunks()
            .iter()
            .map(|(_, p)| fs::metadata(p).map(|m| m.len()).unwrap_or(0))
            .sum();
        loose + packs::total_bytes(&packs_dir(&self.root))
    }

    fn all_chunks(&self) -> Vec<(String, PathBuf)> {
        let mut out = Vec::new();
        let Ok(dirs) = fs::read_dir(&self.root) else {
            return out;
        };
        for dir in dirs.flatten() {
            let prefix = dir.file_name().to_string_lossy().into_owned();
            // Loose chunks are in two-digit folders (`packs/` holds the packs).
            if prefix.len() != 2 {
                continue;
            }
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

    /// The pack files and two-digit chunk folders in a store.
    fn layout(store: &BlobStore) -> (usize, usize) {
        let packs = packs::list(&packs_dir(store.root())).len();
        let loose = fs::read_dir(store.root())
            .map(|r| r.flatten().filter(|e| e.file_name().len() == 2).count())
            .unwrap_or(0);
        (packs, loose)
    }

    #[test]
    fn a_batch_packs_many_chunks_and_pruning_rewrites_the_pack() {
        let dir = tempfile::tempdir().unwrap();
        let store = BlobStore::new(dir.path().join("blobs"));
        let texts: Vec<String> = (0..200).map(|i| format!("file number {i}\n")).collect();
        let batch = store.batch();
        let mut writer = batch.writer();
        let files: Vec<FileRef> = texts
            .iter()
            .map(|t| writer.put(t.as_bytes(), false).unwrap().0)
            .collect();
        // The same content again in the batch is stored once.
        assert_eq!(writer.put(texts[0].as_bytes(), false).unwrap().1, 0);
        writer.finish().unwrap();
        assert_eq!(layout(&store), (1, 0), "one pack, no chunk files");
        // Another store of the folder (another process) reads and deduplicates them.
        let other = BlobStore::new(dir.path().join("blobs"));
        for (f, t) in files.iter().zip(&texts) {
            assert_eq!(other.read(f).unwrap(), t.as_bytes());
        }
        assert_eq!(other.put(texts[5].as_bytes(), false).unwrap().1, 0);
        let before = store.total_bytes();
        assert!(before > 0);

        let keep: HashSet<String> = files[..50]
            .iter()
            .flat_map(|f| f.chunk_ids())
            .map(str::to_string)
            .collect();
        assert!(store.remove_unreferenced(&keep) > 0);
        assert!(store.total_bytes() < before);
        assert_eq!(layout(&store), (1, 0), "rewritten as one smaller pack");
        for (f, t) in files[..50].iter().zip(&texts) {
            assert_eq!(store.read(f).unwrap(), t.as_bytes());
            assert_eq!(
                other.read(f).unwrap(),
                t.as_bytes(),
                "found in the new pack"
            );
        }
        assert!(store.read(&files[60]).is_err());
        store.remove_unreferenced(&HashSet::new());
        assert_eq!(layout(&store), (0, 0));
        assert_eq!(store.total_bytes(), 0);
    }

    #[test]
    fn a_batch_of_a_few_new_chunks_writes_them_as_files() {
        let dir = tempfile::tempdir().unwrap();
        let store = BlobStore::new(dir.path().join("blobs"));
        let batch = store.batch();
        let mut writer = batch.writer();
        let (file, added) = writer.put(b"just one", false).unwrap();
        assert!(added > 0);
        writer.finish().unwrap();
        assert_eq!(layout(&store), (0, 1), "no pack for a single chunk");
        assert_eq!(store.read(&file).unwrap(), b"just one");
    }
}
