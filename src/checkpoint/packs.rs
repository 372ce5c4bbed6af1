//! Pack files: many compressed chunks in one file, so a snapshot of thousands of small
//! files writes a few files instead of thousands. A pack holds its chunks back to back,
//! then its index (one line per chunk: id, offset, length), then the index's length as
//! 8 little-endian bytes and a magic line. A pack is written under a temporary name and
//! renamed, so it is seen whole or not at all.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::private_fs::{ensure_private_dir, write_new_private};

/// The last bytes of every pack.
const MAGIC: &[u8; 8] = b"PIPACK1\n";

/// Where a packed chunk is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loc {
    /// The pack's file name.
    pub pack: Arc<str>,
    /// Offset of the compressed chunk in the pack.
    pub offset: u64,
    /// Its compressed length.
    pub len: u64,
}

/// The chunks of every pack in a folder.
#[derive(Debug, Default)]
pub struct PackIndex {
    chunks: HashMap<String, Loc>,
    /// Packs read, by file name.
    packs: HashSet<Arc<str>>,
}

/// One chunk of a pack being written: its id and compressed bytes' range in the buffer.
pub type Entry = (String, u64, u64);

/// The folder of packs inside a blob store.
pub fn packs_dir(blobs_root: &Path) -> PathBuf {
    blobs_root.join("packs")
}

/// The file names of the packs in `dir` (temporary files left out).
pub fn list(dir: &Path) -> Vec<String> {
    let Ok(read) = fs::read_dir(dir) else {
        return Vec::new();
    };
    read.flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.') && n.ends_with(".pack"))
        .collect()
}

/// The index of the pack at `path`.
pub fn read_index(path: &Path) -> io::Result<Vec<Entry>> {
    let bad = || io::Error::new(io::ErrorKind::InvalidData, "damaged pack");
    let mut file = fs::File::open(path)?;
    let total = file.metadata()?.len();
    if total < 16 {
        return Err(bad());
    }
    let mut tail = [0u8; 16];
    file.seek(SeekFrom::Start(total - 16))?;
    file.read_exact(&mut tail)?;
    if &tail[8..] != MAGIC {
        return Err(bad());
    }
    let mut len = [0u8; 8];
    len.copy_from_slice(&tail[..8]);
    let len = u64::from_le_bytes(len);
    let start = total.checked_sub(16 + len).ok_or_else(bad)?;
    let mut text = vec![0u8; usize::try_from(len).map_err(|_| bad())?];
    file.seek(SeekFrom::Start(start))?;
    file.read_exact(&mut text)?;
    let text = String::from_utf8(text).map_err(|_| bad())?;
    text.lines()
        .map(|line| {
            let mut parts = line.split(' ');
            let id = parts.next().ok_or_else(bad)?.to_string();
            let offset: u64 = parts.next().ok_or_else(bad)?.parse().map_err(|_| bad())?;
            let len: u64 = parts.next().ok_or_else(bad)?.parse().map_err(|_| bad())?;
            if offset + len > start {
                return Err(bad());
            }
            Ok((id, offset, len))
        })
        .collect()
}

/// Write `data` (chunks back to back, as `entries` say) as a new pack in `dir`; its
/// file name.
pub fn write(dir: &Path, mut data: Vec<u8>, entries: &[Entry]) -> io::Result<String> {
    use std::fmt::Write as _;
    ensure_private_dir(dir)?;
    let mut index = String::with_capacity(entries.len() * 52);
    for (id, offset, len) in entries {
        let _ = writeln!(index, "{id} {offset} {len}");
    }
    data.extend_from_slice(index.as_bytes());
    data.extend_from_slice(&(index.len() as u64).to_le_bytes());
    data.extend_from_slice(MAGIC);
    let name = format!("{}.pack", uuid::Uuid::new_v4().simple());
    write_new_private(dir, &format!(".{name}.tmp"), &dir.join(&name), &data)?;
    Ok(name)
}

/// The compressed bytes of the chunk at `loc` in `dir`.
pub fn read_chunk(dir: &Path, loc: &Loc) -> io::Result<Vec<u8>> {
    let mut file = fs::File::open(dir.join(&*loc.pack))?;
    file.seek(SeekFrom::Start(loc.offset))?;
    let mut out = vec![0u8; usize::try_from(loc.len).map_err(io::Error::other)?];
    file.read_exact(&mut out)?;
    Ok(out)
}

impl PackIndex {
    /// Bring the index in line with the packs in `dir`: new ones read, removed ones
    /// forgotten.
    pub fn refresh(&mut self, dir: &Path) {
        let present: HashSet<String> = list(dir).into_iter().collect();
        let gone: Vec<Arc<str>> = self
            .packs
            .iter()
            .filter(|p| !present.contains(&***p))
            .cloned()
            .collect();
        if !gone.is_empty() {
            for p in &gone {
                self.packs.remove(p);
            }
            self.chunks.retain(|_, loc| self.packs.contains(&loc.pack));
        }
        for name in present {
            if self.packs.contains(name.as_str()) {
                continue;
            }
            if let Ok(entries) = read_index(&dir.join(&name)) {
                self.add(&name, entries);
            }
        }
    }

    /// Note the chunks of pack `name`.
    pub fn add(&mut self, name: &str, entries: Vec<Entry>) {
        let pack: Arc<str> = Arc::from(name);
        self.packs.insert(pack.clone());
        for (id, offset, len) in entries {
            let loc = Loc {
                pack: pack.clone(),
                offset,
                len,
            };
            self.chunks.entry(id).or_insert(loc);
        }
    }

    /// Where chunk `id` is, if packed.
    pub fn get(&self, id: &str) -> Option<&Loc> {
        self.chunks.get(id)
    }
}

/// Keep only the chunks in `keep` of the pack `name` in `dir`: removed when none is
/// kept, rewritten as a new pack when some are. The bytes freed.
pub fn shrink(dir: &Path, name: &str, keep: &HashSet<String>) -> u64 {
    let path = dir.join(name);
    let Ok(entries) = read_index(&path) else {
        return 0;
    };
    let before = fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let kept: Vec<&Entry> = entries
        .iter()
        .filter(|(id, ..)| keep.contains(id))
        .collect();
    if kept.len() == entries.len() {
        return 0;
    }
    if !kept.is_empty() {
        let Ok(mut file) = fs::File::open(&path) else {
            return 0;
        };
        let mut data = Vec::new();
        let mut new_entries = Vec::with_capacity(kept.len());
        for (id, offset, len) in kept {
            let mut piece = vec![0u8; *len as usize];
            if file.seek(SeekFrom::Start(*offset)).is_err() || file.read_exact(&mut piece).is_err()
            {
                return 0;
            }
            new_entries.push((id.clone(), data.len() as u64, *len));
            data.write_all(&piece).ok();
        }
        // The new pack is whole before the old one goes: a chunk is never missing.
        match write(dir, data, &new_entries) {
            Ok(new) => {
                let after = fs::metadata(dir.join(new)).map(|m| m.len()).unwrap_or(0);
                if fs::remove_file(&path).is_ok() {
                    return before.saturating_sub(after);
                }
                return 0;
            }
            Err(_) => return 0,
        }
    }
    if fs::remove_file(&path).is_ok() {
        before
    } else {
        0
    }
}

/// Bytes of every pack in `dir`.
pub fn total_bytes(dir: &Path) -> u64 {
    list(dir)
        .iter()
        .map(|n| fs::metadata(dir.join(n)).map(|m| m.len()).unwrap_or(0))
        .sum()
}
