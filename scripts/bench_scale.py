"""The scale measurements of scripts/bench.py: the grep and find tools on a generated
25,000-file tree against ripgrep and fd, and `pi sessions search` over 1 GB of generated
session files against `rg -l`, and the CPU of one `-p` turn with and without the 1 MB
session's history. The tree and the sessions are made once and kept in target/.

  grep-tree    the grep tool (examples/tools_bench.rs) over a generated 25,000-file, ~300 MB
               tree, and ripgrep (`rg --hidden -n`) on the same tree in the same run
  find-tree    the find tool (`*.rs`, 2,500 results, output cut at 50 KB) and `fd -H -g`
  turn-cpu     CPU (user + system) of one `-p` turn: a new session, and continuing the 1 MB
               session (migrated to the current format once, then a fresh copy each run);
               the difference is what history costs a turn
  turn-cpu-anthropic  the same with a model of the Anthropic Messages wire format
  search-1gb   `pi sessions search` over 1 GB of session files in 500 folders (the 1 MB
               fixture with a new header, 1,030 files; three hold the needle): a phrase
               found in three sessions, and one found nowhere (the full scan); `rg -l` alike
  resume-all   `/resume`'s all-folders scope over the same 1 GB (examples/resume_all_bench.rs):
               when the first session, the first ten and all are listed
"""

import json
import os
import shutil
import statistics
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def stats(values):
    if not values:
        return None
    return (statistics.median(values), min(values), max(values))


def plain_wall(cmd, cwd, env):
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = (time.perf_counter() - start) * 1000
    if proc.returncode != 0:
        raise RuntimeError(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr.decode()[-1500:]}")
    return wall


TREE_DIR = os.path.join(ROOT, "target", "bench-tree-25k")
TREE_FILES = 25_000
TREE_NEEDLE = "zqxneedle"
TREE_WORDS = ("fn let match struct impl return self value index buffer error result option "
              "string vector iterator closure trait module crate public private async await").split()


def ensure_tree():
    """25 folders x 20 sub-folders x 50 files of ~13 KB text (every tenth a `.rs`, every
    500th holding the needle word once), made once and kept in target/."""
    done = os.path.join(TREE_DIR, ".complete")
    if os.path.exists(done):
        return TREE_DIR
    import random
    rng = random.Random(43)
    blobs = []
    for _ in range(64):
        lines = [" ".join(rng.choice(TREE_WORDS) for _ in range(rng.randint(4, 14))) for _ in range(200)]
        blobs.append("\n".join(lines) + "\n")
    n = 0
    for a in range(25):
        for b in range(20):
            folder = os.path.join(TREE_DIR, f"pkg{a:02}", f"mod{b:02}")
            os.makedirs(folder, exist_ok=True)
            for c in range(50):
                ext = "rs" if n % 10 == 0 else "txt"
                body = f"file {n}\n" + blobs[n % len(blobs)]
                if n % 500 == 7:
                    body += f"the {TREE_NEEDLE} is here\n"
                with open(os.path.join(folder, f"file{c:02}.{ext}"), "w") as f:
                    f.write(body)
                n += 1
    open(done, "w").close()
    return TREE_DIR


SEARCH_DIR = os.path.join(ROOT, "target", "bench-sessions-1gb")
SEARCH_FOLDERS = 500
SEARCH_NEEDLE = "quokka migration plan"


def ensure_session_corpus(fixture):
    """An agent folder whose sessions/ holds 1.0 GB: 500 folders of two or three sessions
    (1,030 files)."""
    done = os.path.join(SEARCH_DIR, ".complete")
    if os.path.exists(done):
        return SEARCH_DIR
    lines = fixture.splitlines()
    header = json.loads(lines[0])
    body = "\n".join(lines[1:]) + "\n"
    for f in range(SEARCH_FOLDERS):
        cwd = f"/work/project-{f:03}"
        folder = os.path.join(SEARCH_DIR, "sessions", "--" + cwd.strip("/").replace("/", "-") + "--")
        os.makedirs(folder, exist_ok=True)
        for k in range(3 if f < 30 else 2):
            sid = f"0190aaaa-{f:04}-7000-8000-{k:012}"
            h = dict(header, id=sid, cwd=cwd)
            extra = ""
            if (f * 2 + k) % 333 == 100:
                extra = json.dumps({"type": "message", "id": f"n{f}{k}", "parentId": None,
                                    "timestamp": "2026-01-01T00:00:00.000Z",
                                    "message": {"role": "user", "content": f"the {SEARCH_NEEDLE} again",
                                                "timestamp": 1}}, separators=(",", ":")) + "\n"
            with open(os.path.join(folder, f"2026-01-01T00-00-00-000Z_{sid}.jsonl"), "w") as out:
                out.write(json.dumps(h, separators=(",", ":")) + "\n" + body + extra)
    open(done, "w").close()
    return SEARCH_DIR


def session_search(runs, pi, fixture, cwd, env):
    agent = ensure_session_corpus(fixture)
    env = dict(env, PI_CODING_AGENT_DIR=agent)
    sessions = os.path.join(agent, "sessions")
    out = {}
    for key, text in (("found", SEARCH_NEEDLE), ("nowhere", "zebra unicorn ledger")):
        ours = pi + ["sessions", "search", text]
        rg = ["rg", "-l", "-i", "-F", text, sessions] if shutil.which("rg") else None
        for cmd in (ours, rg):  # warm the page cache
            if cmd:
                subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        a, b = [], []
        for _ in range(runs):
            a.append(plain_wall_any(ours, cwd, env))
            if rg:
                b.append(plain_wall_any(rg, cwd, env))
        out[key] = stats(a)
        out[key + "-rg"] = stats(b)
    out["rss"] = timed_any(pi + ["sessions", "search", "zebra unicorn ledger"], cwd, env)
    return out


def resume_all(runs, pi, fixture):
    """`/resume`'s all-folders scope over the 1 GB corpus (`examples/resume_all_bench.rs`,
    built beside the binary): ms to the first session listed, to the first ten, to all."""
    agent = ensure_session_corpus(fixture)
    bench = os.path.join(os.path.dirname(pi[0]), "examples", "resume_all_bench")
    cmd = [bench, os.path.join(agent, "sessions")]
    subprocess.run(cmd, stdout=subprocess.DEVNULL)  # warm the page cache
    got = [json.loads(subprocess.run(cmd, stdout=subprocess.PIPE, check=True).stdout) for _ in range(runs)]
    return {key: stats([g[key] for g in got]) for key in ("first", "screen", "all")}


def plain_wall_any(cmd, cwd, env):
    """Wall ms of a run whose exit code may be 1 (nothing found)."""
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return (time.perf_counter() - start) * 1000


def timed_any(cmd, cwd, env):
    proc = subprocess.run(["/usr/bin/time", "-f", "BENCH %M"] + cmd, cwd=cwd, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    line = [l for l in proc.stderr.decode().splitlines() if l.startswith("BENCH ")][-1]
    return int(line.split()[1]) / 1024


def tool_vs(runs, ours, theirs, cwd, env):
    """Wall times of our tool and of ripgrep/fd, run in turns so load hits both alike."""
    for cmd in (ours, theirs):  # warm the page cache
        plain_wall(cmd, cwd, env)
    a, b = [], []
    for _ in range(runs):
        a.append(plain_wall(ours, cwd, env))
        b.append(plain_wall(theirs, cwd, env))
    return {"wall": stats(a), "other": stats(b), "ratio": statistics.median(a) / statistics.median(b)}


def cpu_ms(cmd, cwd, env):
    """User + system CPU of one run in ms, from wait4's rusage (finer than time(1)'s 10 ms)."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"failed ({proc.returncode}): {' '.join(cmd)}")
    return (usage.ru_utime + usage.ru_stime) * 1000


def turn_cpu(runs, cmd, sb, fresh_fixture):
    """CPU ms of a `-p` turn in a new session and continuing the fixture. The fixture is of
    the first session format: one turn first migrates it (rewriting the file, once in a
    session's life); each measured turn continues a fresh copy of the migrated file."""
    migrated = fresh_fixture()
    cpu_ms(cmd + ["--session", migrated, "-p", "::words 5"], sb.proj, sb.env)
    empty, full = [], []
    for i in range(runs):
        empty.append(cpu_ms(cmd + ["-p", "::words 5"], sb.proj, sb.env))
        copy = os.path.join(os.path.dirname(migrated), f"continued-{i}.jsonl")
        shutil.copyfile(migrated, copy)
        full.append(cpu_ms(cmd + ["--session", copy, "-p", "::words 5"], sb.proj, sb.env))
    return {"empty": stats(empty), "full": stats(full),
            "extra": statistics.median(full) - statistics.median(empty)}


SCALE_ROWS = [
        ("grep tool, 25,000-file tree", "grep-tree", "wall", "ms", "≤ 1.2× ripgrep"),
        ("ripgrep, same search", "grep-tree", "other", "ms", ""),
        ("grep tool / ripgrep (medians)", "grep-tree", "ratio", "×", "≤ 1.2"),
        ("find tool, 25,000-file tree", "find-tree", "wall", "ms", "≤ 1.2× fd"),
        ("fd, same search", "find-tree", "other", "ms", ""),
        ("find tool / fd (medians)", "find-tree", "ratio", "×", "≤ 1.2"),
        ("one `-p` turn, new session: CPU", "turn-cpu", "empty", "ms", ""),
        ("one `-p` turn continuing the 1 MB session: CPU", "turn-cpu", "full", "ms", ""),
        ("what the 1 MB history adds to a turn's CPU (medians)", "turn-cpu", "extra", "ms", "≤ 10 ms"),
        ("one `-p` turn, new session, Anthropic Messages: CPU", "turn-cpu-anthropic", "empty", "ms", ""),
        ("one `-p` turn continuing the 1 MB session, Anthropic Messages: CPU", "turn-cpu-anthropic", "full",
         "ms", ""),
        ("what the 1 MB history adds to an Anthropic Messages turn's CPU (medians)", "turn-cpu-anthropic",
         "extra", "ms", "≤ 10 ms"),
        ("`pi sessions search`, 1 GB: phrase in 3 sessions", "search-1gb", "found", "ms", "≤ 1 s"),
        ("`rg -l -i -F`, same phrase", "search-1gb", "found-rg", "ms", ""),
        ("`pi sessions search`, 1 GB: phrase found nowhere", "search-1gb", "nowhere", "ms", "≤ 1 s"),
        ("`rg -l -i -F`, same phrase", "search-1gb", "nowhere-rg", "ms", ""),
        ("`pi sessions search`, 1 GB: peak RSS", "search-1gb", "rss", "MiB", ""),
        ("`/resume` all folders, 1 GB: first session listed", "resume-all", "first", "ms", "≤ 100 ms"),
        ("`/resume` all folders, 1 GB: first ten listed", "resume-all", "screen", "ms", ""),
        ("`/resume` all folders, 1 GB: every session read", "resume-all", "all", "ms", ""),
]


def tools_vs_others(r, cmd, sb, runs, want, attempt):
    """The grep-tree and find-tree rows into `r` (ripgrep or fd missing: skipped, said why)."""
    if not (want("grep-tree") or want("find-tree")):
        return
    tools = os.path.join(os.path.dirname(cmd[0]), "examples", "tools_bench")
    tree = ensure_tree()
    for key, ours_cmd, program, theirs in (
            ("grep-tree", [tools, "grep", TREE_NEEDLE, tree], "rg", ["rg", "--hidden", "-n", TREE_NEEDLE, tree]),
            ("find-tree", [tools, "find", "*.rs", tree], "fdfind", ["fdfind", "-H", "-g", "*.rs", tree])):
        if not want(key):
            continue
        if shutil.which(program) is None and program == "fdfind" and shutil.which("fd"):
            theirs[0] = "fd"
        elif shutil.which(program) is None:
            print(f"    {key}: skipped, {program} is not installed (apt-get install ripgrep fd-find)")
            continue
        attempt(r, key, lambda o=ours_cmd, t=theirs: tool_vs(runs, o, t, sb.proj, sb.env))
