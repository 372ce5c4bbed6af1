"""First frames and streaming in the terminal UI for scripts/bench.py, through a pty."""

import os
import shutil
import time

from bench_proc import proc_cpu, proc_status, stats


def pty_class():
    from bench_tui import Pty  # noqa: E402  (shares the terminal emulation)
    return Pty


LAZY_EXTENSIONS = 60


def write_lazy_extensions(sb, count=LAZY_EXTENSIONS):
    """`count` extension files in the agent folder, each declaring one lazy command."""
    folder = os.path.join(sb.agent, "extensions")
    os.makedirs(folder, exist_ok=True)
    for n in range(count):
        with open(os.path.join(folder, f"lazy{n:02}.lua"), "w") as f:
            f.write("return {\n"
                    f"  activate = {{ commands = {{ {{ name = 'lazy{n}', description = 'lazy command {n}' }} }} }},\n"
                    "  setup = function(pi)\n"
                    f"    pi.registerCommand('lazy{n}', {{ handler = function(_, ctx) ctx.ui.notify('lazy {n}') end }})\n"
                    "  end,\n"
                    "}\n")


def cpu_ms(pid):
    """CPU time (ms) of every thread of `pid` so far, from the scheduler's own count."""
    total = 0
    task_dir = f"/proc/{pid}/task"
    for tid in os.listdir(task_dir):
        try:
            with open(f"{task_dir}/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
        except OSError:
            pass
    return total / 1e6


def first_frame_cpu(cmd, sb, marker=b"mock-model"):
    """(wall ms, CPU ms) to the first frame: CPU time hardly moves with the machine's load."""
    Pty = pty_class()
    p = Pty(cmd, sb.proj, sb.env)
    try:
        wall = p.wait_for(marker, timeout=120) * 1000
        return wall, cpu_ms(p.pid)
    finally:
        p.close()


def lazy_vs_none(cmd, none_sb, lazy_sb, runs):
    """First frames with and without the lazy extensions, alternating runs."""
    first_frame_cpu(cmd, lazy_sb)  # the first start fills the spec cache
    none, lazy = [], []
    for _ in range(runs):
        none.append(first_frame_cpu(cmd, none_sb))
        lazy.append(first_frame_cpu(cmd, lazy_sb))
    return {"wall": stats([w for w, _ in lazy]), "base": stats([w for w, _ in none]),
            "cpu": stats([c for _, c in lazy]), "cpu_base": stats([c for _, c in none])}


def first_frame(cmd, sb, marker=b"mock-model", extra=()):
    Pty = pty_class()
    p = Pty(cmd + list(extra), sb.proj, sb.env)
    try:
        return p.wait_for(marker, timeout=120) * 1000
    finally:
        p.close()


def stream_tui(cmd, sb, words, timeout):
    Pty = pty_class()
    p = Pty(cmd + ["--no-session"], sb.proj, sb.env)
    try:
        p.wait_for(b"mock-model", timeout=120)
        time.sleep(0.5)
        cpu0 = proc_cpu(p.pid)
        mark = p.mark()
        t0 = time.perf_counter()
        p.type(f"::words {words}".encode())
        time.sleep(0.2)
        p.type(b"\r")
        p.wait_for(f"word{words - 1}".encode(), since=mark, timeout=timeout)
        wall = time.perf_counter() - t0
        time.sleep(0.3)
        return {"rss": proc_status(p.pid, "VmHWM"), "cpu": proc_cpu(p.pid) - cpu0, "wall": wall}
    finally:
        p.close()


# A TUI session whose transcript grows past 10,000 lines: answers of LONG_WORDS words
# (a paragraph of 12 words and a blank line each: about LONG_WORDS / 6 lines) and, every
# third turn, a bash call printing SEQ_LINES lines (`::seq N` of the mock LLM).
LONG_TURNS = 12
LONG_WORDS = 6_000
SEQ_LINES = 5_000


def long_session(cmd, sb, timeout):
    """Peak and final RSS, CPU and wall of a TUI session of about 12,000 answer lines
    plus four long tool outputs, typed turn by turn into the pseudo-terminal."""
    Pty = pty_class()
    p = Pty(cmd, sb.proj, sb.env)
    try:
        p.wait_for(b"mock-model", timeout=120)
        time.sleep(0.5)
        cpu0, t0 = proc_cpu(p.pid), time.perf_counter()
        prompts = []
        for turn in range(LONG_TURNS):
            prompts.append((f"::words {LONG_WORDS}", f"word{LONG_WORDS - 1}"))
            if turn % 3 == 2:
                prompts.append((f"::seq {SEQ_LINES}", f"seq {SEQ_LINES} done."))
        for prompt, done in prompts:
            mark = p.mark()
            p.type(prompt.encode())
            time.sleep(0.2)
            p.type(b"\r")
            p.wait_for(done.encode(), since=mark, timeout=timeout)
            time.sleep(0.3)
        wall = time.perf_counter() - t0
        return {"hwm": proc_status(p.pid, "VmHWM"), "rss": proc_status(p.pid, "VmRSS"),
                "cpu": proc_cpu(p.pid) - cpu0, "wall": wall,
                "lines": LONG_TURNS * LONG_WORDS // 6}
    finally:
        p.close()


def resume_with_rss(cmd, sb, runs, marker=b"mock-model", cold=False):
    """First frames resuming a session, and the peak RSS once the frame is drawn. A
    first unmeasured start migrates a session of an older format (once in its life).
    With `cold`, the index pi keeps of a long session is removed before each run: the
    first resume of a session no run has opened before."""
    Pty = pty_class()
    first_frame(cmd, sb, marker)
    walls, peaks = [], []
    kept = os.path.join(sb.env.get("PI_CODING_AGENT_DIR", ""), "cache", "index")
    for _ in range(runs):
        if cold:
            shutil.rmtree(kept, ignore_errors=True)
        p = Pty(cmd, sb.proj, sb.env)
        try:
            walls.append(p.wait_for(marker, timeout=120) * 1000)
            time.sleep(0.3)
            peaks.append(proc_status(p.pid, "VmHWM"))
        finally:
            p.close()
    return {"wall": stats(walls), "rss": stats(peaks)}


# The `/tree` panel's mark of the active entry (en locale): in the last rows, drawn once
# the rows are laid out.
TREE_DRAWN = "← active".encode()


def tree_open(cmd, sb, runs):
    """ms from the Enter of `/tree` until the tree panel is drawn, and the peak RSS
    after it; `cmd` resumes the session (migrated by a first, unmeasured start)."""
    Pty = pty_class()
    first_frame(cmd, sb)
    times, peaks = [], []
    for _ in range(runs):
        p = Pty(cmd, sb.proj, sb.env)
        try:
            p.wait_for(b"mock-model", timeout=120)
            time.sleep(0.5)
            p.type(b"/tree")
            time.sleep(0.3)
            mark = p.mark()
            t0 = time.perf_counter()
            p.type(b"\r")
            p.wait_for(TREE_DRAWN, since=mark, timeout=120)
            times.append((time.perf_counter() - t0) * 1000)
            time.sleep(0.3)
            peaks.append(proc_status(p.pid, "VmHWM"))
        finally:
            p.close()
    return {"wall": stats(times), "rss": stats(peaks)}
