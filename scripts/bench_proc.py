"""Measuring a process for scripts/bench.py: medians, peak memory and CPU from /proc."""

import os
import statistics
import subprocess

CLK_TCK = os.sysconf("SC_CLK_TCK")


def stats(values):
    if not values:
        return None
    return (statistics.median(values), min(values), max(values))


def proc_status(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


def proc_cpu(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def tree_pids(pid):
    """`pid` and its descendants (node may run helpers)."""
    out = [pid]
    try:
        children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    except OSError:
        children = []
    for c in children:
        out.extend(tree_pids(int(c)))
    return out
