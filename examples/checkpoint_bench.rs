//! Times file checkpoints on a workspace of 10,000 files (100 folders of 100 files of
//! about 1.5 KB, a `.gitignore`d build folder beside them): the first snapshot of a
//! session (every file read, chunked, compressed and stored), then later snapshots after
//! five files changed (only those read again). Prints one JSON line:
//! `{"files", "first_ms", "later_ms": [...], "later_median_ms", "store_bytes"}`.
//!
//! Run with `cargo run --release --example checkpoint_bench [-- RUNS]` (`scripts/bench.py`
//! runs it as `checkpoints`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::path::Path;
use std::time::Instant;

use pi::checkpoint::{CheckpointKind, CheckpointStore};

const FOLDERS: usize = 100;
const PER_FOLDER: usize = 100;

/// About 1.5 KB of text that differs from file to file.
fn content(i: usize, round: usize) -> String {
    let mut s = String::with_capacity(1600);
    let mut x = (i as u64 + 1) * 0x9e37_79b9 + round as u64;
    while s.len() < 1500 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        s.push_str(&format!("let value_{} = {};\n", x % 1000, x % 100_000));
    }
    s
}

fn make_workspace(root: &Path) {
    fs::write(root.join(".gitignore"), "target/\n").unwrap();
    fs::create_dir_all(root.join("target")).unwrap();
    for i in 0..200 {
        fs::write(root.join("target").join(format!("o{i}.bin")), content(i, 9)).unwrap();
    }
    for d in 0..FOLDERS {
        let dir = root.join(format!("src{d:03}"));
        fs::create_dir_all(&dir).unwrap();
        for f in 0..PER_FOLDER {
            fs::write(
                dir.join(format!("f{f:03}.rs")),
                content(d * PER_FOLDER + f, 0),
            )
            .unwrap();
        }
    }
}

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(9);
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path().join("ws");
    fs::create_dir_all(&ws).unwrap();
    make_workspace(&ws);
    let sessions = tmp.path().join("sessions");
    let mut store = CheckpointStore::open(&sessions, "bench", &ws, Default::default());

    store.begin_run(CheckpointKind::Prompt, Some("u0".into()));
    let t = Instant::now();
    store.before_shell().unwrap();
    let first_ms = t.elapsed().as_secs_f64() * 1000.0;
    fs::write(ws.join("src000/f000.rs"), content(0, 1)).unwrap();
    store.finish_run().unwrap();

    let mut later = Vec::new();
    for run in 0..runs {
        // A handful of files changed since the last snapshot.
        for k in 0..5 {
            let i = (run * 37 + k * 1009) % (FOLDERS * PER_FOLDER);
            let path = ws.join(format!(
                "src{:03}/f{:03}.rs",
                i / PER_FOLDER,
                i % PER_FOLDER
            ));
            fs::write(path, content(i, run + 2)).unwrap();
        }
        store.begin_run(CheckpointKind::Prompt, Some(format!("u{}", run + 1)));
        let t = Instant::now();
        store.before_shell().unwrap();
        later.push(t.elapsed().as_secs_f64() * 1000.0);
        fs::write(ws.join("src001/f001.rs"), content(101, run + 3)).unwrap();
        store.finish_run().unwrap();
    }
    let mut sorted = later.clone();
    sorted.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let median = sorted[sorted.len() / 2];
    let bytes = store.usage().folder_bytes;
    println!(
        "{}",
        serde_json::json!({
            "files": FOLDERS * PER_FOLDER,
            "first_ms": first_ms,
            "later_ms": later,
            "later_median_ms": median,
            "store_bytes": bytes,
        })
    );
}
