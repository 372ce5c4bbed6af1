//! The `/tree` previews of a kept index (see `index_cache`), kept in a section of
//! their own after the records: opening a session reads the records only, and the
//! previews are read when the tree first asks for them. The kept file stays open, so
//! a newer index written in its place meanwhile does not change what is read.

use std::fs::File;

use super::preview::EntryPreview;
use super::store::StoredEntry;

/// Where the previews of a kept index's entries are, until they are read.
#[derive(Debug)]
pub(super) struct KeptPreviews {
    /// The kept index file, open.
    file: File,
    /// Where the section starts in it.
    start: u64,
    /// The byte length of each run of previews, in order.
    runs: Vec<u64>,
    /// How many entries the previews are of (the first ones of the store).
    count: usize,
}

impl KeptPreviews {
    /// The previews of the first `count` entries, in `runs` from `start` of `file`.
    pub(super) fn new(file: File, start: u64, runs: Vec<u64>, count: usize) -> Self {
        KeptPreviews {
            file,
            start,
            runs,
            count,
        }
    }

    /// Give each of the first entries of `entries` its kept preview. A section that
    /// cannot be read, or holds another count, gives none: the previews are then made
    /// from the bodies when asked for.
    pub(super) fn fill(self, entries: &[StoredEntry]) {
        let Some(previews) = self.read() else {
            return;
        };
        if previews.len() != self.count || self.count > entries.len() {
            return;
        }
        for (entry, preview) in entries.iter().zip(previews) {
            if let Some(preview) = preview {
                entry.keep_preview(preview);
            }
        }
    }

    fn read(&self) -> Option<Vec<Option<EntryPreview>>> {
        let total: u64 = self.runs.iter().sum();
        let bytes = super::index_cache::read_bytes(&self.file, self.start, total)?;
        let mut runs = Vec::with_capacity(self.runs.len());
        let mut rest: &[u8] = &bytes;
        for &len in &self.runs {
            let (run, after) = rest.split_at(usize::try_from(len).ok()?);
            runs.push(run);
            rest = after;
        }
        let mut previews = Vec::with_capacity(self.count);
        for run in crate::sync::map_on_threads(runs, decode_run) {
            previews.extend(run.flatten()?);
        }
        Some(previews)
    }
}

/// A run's previews (one for each entry, `None` for an entry held whole).
fn decode_run(bytes: &[u8]) -> Option<Vec<Option<EntryPreview>>> {
    super::index_cache::decode(bytes)
}

/// The previews of `entries` as the section keeps them (`None` for an entry whose
/// body is held: its preview is made from it).
pub(super) fn of(entries: &[StoredEntry]) -> Vec<Option<&EntryPreview>> {
    entries.iter().map(StoredEntry::kept_preview).collect()
}
