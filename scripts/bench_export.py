"""The `export20` figure of scripts/bench.py: a 20 MB session exported to HTML, and the page
opened in headless Chromium (tests/browser/cdp.py, DevTools protocol): milliseconds from
navigation start to the first frame painted with a message of the conversation in it
(median of the runs), the first contentful paint, and the file's size."""

import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "browser"))

import cdp  # noqa: E402

# A page that has not painted its conversation by then is reported as failed.
PAINT_TIMEOUT_S = 180


def export_paint(cmd, sb, source, runs, stats):
    """Export `source` with `cmd` (a copy: pi 0.73.1 rewrites an old session file in place)
    and measure the page `runs` times; `stats` turns a list of numbers into (median, min, max)."""
    copy = os.path.join(sb.root, "export-source.jsonl")
    shutil.copyfile(source, copy)
    page = os.path.join(sb.root, "export-20mb.html")
    subprocess.run(cmd + ["--export", copy, page], cwd=sb.proj, env=sb.env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
    content, fcp = [], []
    for _ in range(runs):
        paint = cdp.content_paint("file://" + page, timeout=PAINT_TIMEOUT_S)
        content.append(paint["content"])
        fcp.append(paint["fcp"])
    return {"wall": stats(content), "fcp": stats(fcp), "bytes": os.path.getsize(page)}
