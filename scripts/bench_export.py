"""The `export20` figure of scripts/bench.py: a 20 MB session exported to HTML, and the page
opened in headless Chromium (tests/browser/cdp.py, DevTools protocol): milliseconds from
navigation start to the first frame painted with a message of the conversation in it
(median of the runs), the first contentful paint, the whole session drawn (ours: it is
unpacked after the first screen), and the file's size."""

import os
import shutil
import subprocess
import time
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "browser"))

import cdp  # noqa: E402

# A page that has not painted its conversation by then is reported as failed.
PAINT_TIMEOUT_S = 180


def export_page(cmd, sb, source):
    """Export `source` with `cmd` (a copy: pi 0.73.1 rewrites an old session file in place);
    the page's path and {"bytes": its size, "wall": ms of the export, "rss": its peak MiB},
    the export timed once the copy is migrated."""
    copy = os.path.join(sb.root, "export-source.jsonl")
    shutil.copyfile(source, copy)
    page = os.path.join(sb.root, "export-20mb.html")
    # A first export migrates the copy (once in a session's life); the second is timed.
    subprocess.run(cmd + ["--export", copy, page], cwd=sb.proj, env=sb.env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
    start = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-f", "BENCH %M"] + cmd + ["--export", copy, page],
                          cwd=sb.proj, env=sb.env, check=True, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, timeout=600)
    wall = (time.perf_counter() - start) * 1000
    rss = [l for l in proc.stderr.decode().splitlines() if l.startswith("BENCH ")][-1].split()[1]
    return page, {"bytes": os.path.getsize(page), "wall": wall, "rss": int(rss) / 1024}


def paint(page, runs, stats):
    """Open `page` `runs` times; `stats` turns a list of numbers into (median, min, max).
    A page that logs an error or paints no message raises (the row says why)."""
    content, fcp, ready = [], [], []
    for _ in range(runs):
        p = cdp.content_paint("file://" + page, timeout=PAINT_TIMEOUT_S)
        content.append(p["content"])
        fcp.append(p["fcp"])
        if p["ready"] is not None:
            ready.append(p["ready"])
    return {"wall": stats(content), "fcp": stats(fcp), "ready": stats(ready)}
