//! Content-defined chunking: a file is cut where a rolling gear hash of its bytes hits a
//! mask, so an edit in the middle of a large file changes only the chunks around it and
//! every other chunk keeps its hash (and is stored once).

/// No cut before this many bytes of a chunk.
pub const MIN_CHUNK: usize = 2 * 1024;
/// Always cut here.
pub const MAX_CHUNK: usize = 64 * 1024;
/// Cut where the hash's low 13 bits are zero: about 8 KiB past the minimum on average.
const MASK: u64 = (1 << 13) - 1;

/// 256 pseudo-random words (splitmix64), fixed forever: chunk boundaries must not change
/// between versions or stored chunks would stop deduplicating.
const GEAR: [u64; 256] = gear_table();

const fn gear_table() -> [u64; 256] {
    let mut table = [0u64; 256];
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut i = 0;
    while i < 256 {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        table[i] = z ^ (z >> 31);
        i += 1;
    }
    table
}

/// The byte ranges `data` is cut into (one range for small data, none for empty data).
pub fn cut_points(data: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut ranges = Vec::new();
    let mut start = 0;
    while start < data.len() {
        let end = next_cut(&data[start..]) + start;
        ranges.push(start..end);
        start = end;
    }
    ranges
}

/// The length of the chunk at the start of `data`.
fn next_cut(data: &[u8]) -> usize {
    if data.len() <= MIN_CHUNK {
        return data.len();
    }
    let limit = data.len().min(MAX_CHUNK);
    let mut hash: u64 = 0;
    for (i, &byte) in data.iter().enumerate().take(limit).skip(MIN_CHUNK) {
        hash = (hash << 1).wrapping_add(GEAR[byte as usize]);
        if hash & MASK == 0 {
            return i + 1;
        }
    }
    limit
}

#[cfg(test)]
mod tests {
    use super::*;

    fn noise(len: usize, seed: u64) -> Vec<u8> {
        let mut x = seed;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x & 0xff) as u8
            })
            .collect()
    }

    #[test]
    fn chunks_cover_the_data_within_bounds() {
        let data = noise(1 << 20, 7);
        let ranges = cut_points(&data);
        assert_eq!(ranges.first().unwrap().start, 0);
        assert_eq!(ranges.last().unwrap().end, data.len());
        for pair in ranges.windows(2) {
            assert_eq!(pair[0].end, pair[1].start);
        }
        for r in &ranges[..ranges.len() - 1] {
            assert!(r.len() >= MIN_CHUNK && r.len() <= MAX_CHUNK, "{r:?}");
        }
        assert!(ranges.len() > 16, "a 1 MiB file is cut into many chunks");
        assert!(cut_points(b"").is_empty());
        assert_eq!(cut_points(b"small"), vec![0..5]);
    }

    #[test]
    fn an_insertion_changes_only_nearby_chunks() {
        let data = noise(1 << 20, 11);
        let mut edited = data.clone();
        edited.splice(500_000..500_000, b"one more line\n".iter().copied());
        let before: std::collections::HashSet<&[u8]> =
            cut_points(&data).into_iter().map(|r| &data[r]).collect();
        let after: Vec<&[u8]> = cut_points(&edited)
            .into_iter()
            .map(|r| &edited[r])
            .collect();
        let new = after.iter().filter(|c| !before.contains(*c)).count();
        assert!(new <= 3, "{new} chunks changed for one inserted line");
    }
}
