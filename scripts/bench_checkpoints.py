"""The `checkpoints` rows of scripts/bench.py: runs `examples/checkpoint_bench` (built
with the release binary) and reports the first snapshot of a 10,000-file workspace and
the median of later snapshots after five files changed, against their targets."""

import json
import os
import subprocess


def measure(release, runs):
    """The example's JSON line: first_ms, later_ms, later_median_ms, store_bytes."""
    out = subprocess.run([os.path.join(release, "examples", "checkpoint_bench"), str(runs)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def table(release, runs):
    """Markdown rows for BENCHMARKS.md."""
    r = measure(release, runs)
    later = r["later_ms"]
    return "\n".join([
        "| checkpoints (10,000 files) | ours | target |",
        "|---|---:|---|",
        f"| first snapshot of a session | {r['first_ms']:.1f} ms | ≤ 1 s |",
        f"| later snapshot, five files changed (median of {len(later)}) | "
        f"{r['later_median_ms']:.2f} ms ({min(later):.2f}–{max(later):.2f}) | ≤ 50 ms |",
        f"| storage after {len(later) + 1} checkpoints | {r['store_bytes'] / 1048576:.1f} MiB | |",
    ])
