#!/usr/bin/env python3
"""Benchmarks pi against the reference pi 0.73.1 on the same work, in one run.

Usage: scripts/bench.py [--runs N] [--no-reference] [--reference-cli PATH] [--pi PATH]
                        [--only NAME[,NAME...]] [--markdown FILE]

Everything is measured for ours and the reference side by side in one run, against a
hello-world Rust binary built in the same run (the floor for start-up):

  version      `pi --version`: wall time and peak RSS
  turn         one `-p` turn against the local mock LLM (no --offline)
  loop         a three-turn `-p` tool loop (bash, read, answer)
  frame        the terminal UI's first complete frame in a 120x40 pseudo-terminal
  lazy60       the same first frame with 60 extensions installed, each declaring a lazy
               command (ours only), alternating with runs without them: what lazy
               activation costs at start-up, in wall time and in CPU time to the frame
  resume       the first frame resuming the original's 1 MB session (914 messages)
  resume20     the first frame resuming the 20 MB session (the fixture 20 times, one
               chain), and the peak RSS once it is drawn
  resume20-cold the same with the session's kept index removed before each run (ours only):
               the first resume of a session no run has opened before
  tree20       `/tree` in that resumed session: from the Enter to the tree panel drawn,
               and the peak RSS after it
  tui10k       a TUI session typed turn by turn: twelve 6,000-word answers (12,000 lines)
               and four bash outputs of 5,000 lines (`::seq`): peak and final RSS, CPU
  resume20-rpc the 20 MB session (the fixture 20 times, one chain) resumed over RPC: peak
               RSS after `get_state`, then after `get_messages` (ours and a `before` build)
  stream-tui   a 40,000-word answer streamed into the terminal UI
  stream-json  the same answer with `--mode json -p` (peak RSS, CPU, bytes written)
  stream-rpc   the same answer over `--mode rpc`
  rpc-200      200 turns of 200-word answers over RPC: peak RSS
  export1      the 1 MB session exported to HTML and opened in headless Chromium (as export20)
  export20     the 20 MB session exported to HTML and opened in headless Chromium: the page
               painted with the conversation (median of 5), first paint, file size
  grep-tree, find-tree, turn-cpu, turn-cpu-anthropic, search-1gb, resume-all: the scale
               rows, described in scripts/bench_scale.py (a 25,000-file tree against ripgrep
               and fd, a turn's CPU with the 1 MB history in the OpenAI Chat Completions and
               the Anthropic Messages wire formats, `pi sessions search` over 1 GB of sessions)
  sandbox      one `bash` call over RPC (`true`, in a folder with `.git`) with `--sandbox
               full` and `workspace-write`: the cost of confining a command (ours only)
  checkpoints  file checkpoints on a 10,000-file workspace (`examples/checkpoint_bench.rs`):
               the first snapshot of a session and later ones after five files changed
               (ours only; see scripts/bench_checkpoints.py)

Times are medians with min-max over --runs runs; the long-answer and 200-turn rows are
one run each (they take seconds). Peak RSS is the kernel's high-water mark (VmHWM or
GNU time's %M); CPU is user + system time of the process.

The mock LLM is `examples/mock_llm.rs` (OpenAI chat-completions and Anthropic Messages on
127.0.0.1): it plays the standard tool scenario and answers a prompt `::words N` with N
words, one per SSE event, as fast as it can write. The 1 MB session is the original's test fixture
`large-session.jsonl`, read from the pi-mono git mirror (--fixture PATH to give it).
The reference is installed with npm into target/bench-reference on first use unless
--reference-cli names its dist/cli.js. Nothing leaves the machine.

Too slow for the test suite; run it by hand and paste the markdown into BENCHMARKS.md.
"""

import argparse
import json
import os
import select
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import bench_export  # noqa: E402
from bench_frames import (LAZY_EXTENSIONS, LONG_TURNS, first_frame, lazy_vs_none,  # noqa: E402
                          long_session, resume_with_rss, stream_tui, tree_open, write_lazy_extensions)
from bench_proc import proc_cpu, proc_status, stats, tree_pids  # noqa: E402
REFERENCE_DIR = os.path.join(ROOT, "target", "bench-reference")
REFERENCE_PKG = "@mariozechner/pi-coding-agent@0.73.1"
FIXTURE_IN_MIRROR = "packages/coding-agent/test/fixtures/large-session.jsonl"
MIRROR = "/work/.mirror/badlogic+pi-mono/repo"
WORDS = 40_000
RPC_TURNS = 200
HELLO_RS = 'fn main() { println!("0.73.1"); }\n'


def ensure_reference():
    cli = os.path.join(REFERENCE_DIR, "node_modules", "@mariozechner", "pi-coding-agent", "dist", "cli.js")
    if not os.path.exists(cli):
        os.makedirs(REFERENCE_DIR, exist_ok=True)
        subprocess.run(["npm", "install", "--silent", "--no-audit", "--no-fund", REFERENCE_PKG],
                       cwd=REFERENCE_DIR, check=True)
    return ["node", cli]


def target_dir():
    return os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")


def cargo_build():
    subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "pi", "--example", "mock_llm",
                    "--example", "checkpoint_bench", "--example", "tools_bench"],
                   cwd=ROOT, check=True)
    return os.path.join(target_dir(), "release")


def build_hello(tmp):
    src = os.path.join(tmp, "hello.rs")
    with open(src, "w") as f:
        f.write(HELLO_RS)
    out = os.path.join(tmp, "hello")
    subprocess.run(["rustc", "-O", "-C", "strip=symbols", "-o", out, src], check=True)
    return [out]


def start_mock(release):
    proc = subprocess.Popen([os.path.join(release, "examples", "mock_llm")], stdout=subprocess.PIPE, text=True)
    port = int(proc.stdout.readline().strip())
    return proc, port


class Sandbox:
    """An agent folder with models.json for the mock and a project folder."""

    def __init__(self, root, name, port):
        self.root = os.path.join(root, name)
        self.agent = os.path.join(self.root, "agent")
        self.proj = os.path.join(self.root, "proj")
        os.makedirs(self.agent)
        os.makedirs(self.proj)
        mock_model = [{"id": "mock-model", "contextWindow": 1000000, "maxTokens": 4096}]
        models = {"providers": {
            "mock": {"baseUrl": f"http://127.0.0.1:{port}/v1", "api": "openai-completions",
                     "apiKey": "bench-key", "models": mock_model},
            # The same mock in the Anthropic Messages wire format (for turn-cpu-anthropic).
            "mock-anthropic": {"baseUrl": f"http://127.0.0.1:{port}", "api": "anthropic-messages",
                               "apiKey": "bench-key", "models": mock_model}}}
        with open(os.path.join(self.agent, "models.json"), "w") as f:
            json.dump(models, f)
        with open(os.path.join(self.agent, "settings.json"), "w") as f:
            json.dump({"quietStartup": False, "collapseChangelog": True, "lastChangelogVersion": "0.73.1"}, f)
        with open(os.path.join(self.proj, "hello.txt"), "w") as f:
            f.write("hello world\n")
        self.env = dict(os.environ, PI_CODING_AGENT_DIR=self.agent, PI_SKIP_VERSION_CHECK="1",
                        TERM="xterm-256color", COLORTERM="truecolor")
        for var in ("PI_OFFLINE", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "TMUX", "OLLAMA_HOST"):
            self.env.pop(var, None)


def timed(cmd, cwd, env, check=None, timeout=600):
    """(wall ms, peak RSS MiB, CPU s, stdout bytes) of one run under GNU time."""
    start = time.perf_counter()
    # Output goes to a file: a long answer can write gigabytes.
    with tempfile.TemporaryFile() as sink:
        proc = subprocess.run(["/usr/bin/time", "-f", "BENCH %M %U %S"] + cmd, cwd=cwd, env=env,
                              stdout=sink, stderr=subprocess.PIPE, timeout=timeout)
        wall = (time.perf_counter() - start) * 1000
        size = sink.seek(0, os.SEEK_END)
        sink.seek(max(0, size - (4 << 20)))
        out = sink.read()
    if proc.returncode != 0 or (check and check.encode() not in out):
        tail = proc.stderr.decode(errors="replace")[-1500:]
        raise RuntimeError(f"failed ({proc.returncode}): {' '.join(cmd)}\n{tail}")
    line = [l for l in proc.stderr.decode().splitlines() if l.startswith("BENCH ")][-1].split()
    return wall, int(line[1]) / 1024, float(line[2]) + float(line[3]), size


def plain_wall(cmd, cwd, env, check=None):
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wall = (time.perf_counter() - start) * 1000
    if proc.returncode != 0 or (check and check.encode() not in proc.stdout):
        raise RuntimeError(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr.decode()[-1500:]}")
    return wall


def repeat(runs, cmd, cwd, env, check=None):
    """Wall times from plain runs (no time(1) in between), RSS from runs under time(1)."""
    walls, rss = [], []
    for _ in range(runs):
        walls.append(plain_wall(cmd, cwd, env, check))
        rss.append(timed(cmd, cwd, env, check)[1])
    return {"wall": stats(walls), "rss": stats(rss)}


# ---------------------------------------------------------------- RPC


class Rpc:
    def __init__(self, cmd, sb, session=None):
        where = ["--session", session] if session else ["--no-session"]
        self.proc = subprocess.Popen(cmd + ["--mode", "rpc"] + where, cwd=sb.proj, env=sb.env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.buf = b""
        self.bytes = 0

    def send(self, obj):
        self.proc.stdin.write((json.dumps(obj) + "\n").encode())
        self.proc.stdin.flush()

    def wait_type(self, kind, timeout=900):
        deadline = time.time() + timeout
        fd = self.proc.stdout.fileno()
        while True:
            while b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                if f'"type":"{kind}"'.encode() in line.replace(b'": "', b'":"')[:200]:
                    return
            left = deadline - time.time()
            if left <= 0:
                raise RuntimeError(f"RPC: no {kind} in time")
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    raise RuntimeError("RPC: the process ended")
                self.bytes += len(chunk)
                self.buf += chunk
                # Keep only the unfinished line plus complete lines still to scan.
                if len(self.buf) > (64 << 20):
                    self.buf = self.buf[-(1 << 20):]

    def peak(self):
        return max(proc_status(pid, "VmHWM") for pid in tree_pids(self.proc.pid))

    def cpu(self):
        return sum(proc_cpu(pid) for pid in tree_pids(self.proc.pid))

    def close(self):
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
            self.proc.wait()


def rpc_resume(cmd, sb, path, runs):
    """Peak RSS (MiB) of an RPC process resuming the session `path`: after `get_state`,
    then after `get_messages` (its answer read as it streams)."""
    state, messages = [], []
    for _ in range(runs):
        rpc = Rpc(cmd, sb, session=path)
        try:
            rpc.send({"type": "get_state", "id": "s"})
            rpc.wait_type("response", 120)
            state.append(rpc.peak())
            rpc.send({"type": "get_messages", "id": "m"})
            rpc.wait_type("response", 120)
            messages.append(rpc.peak())
        finally:
            rpc.close()
    return {"state": stats(state), "messages": stats(messages)}


def rpc_prompts(cmd, sb, prompt, turns, timeout=600):
    rpc = Rpc(cmd, sb)
    try:
        time.sleep(0.2)
        cpu0 = rpc.cpu()
        t0 = time.perf_counter()
        for i in range(turns):
            rpc.send({"type": "prompt", "id": f"p{i}", "message": prompt})
            rpc.wait_type("agent_end", timeout)
        wall = time.perf_counter() - t0
        return {"rss": rpc.peak(), "cpu": rpc.cpu() - cpu0, "wall": wall, "bytes": rpc.bytes}
    finally:
        rpc.close()


def sandbox_bash(cmd, sb, runs):
    """Wall time of one RPC `bash` call (`true`) with `--sandbox full` and with
    `--sandbox workspace-write`, in a project with a `.git` folder so the read-only mounts
    are part of it. Both processes run at once and take turns, call by call, so a busy
    machine slows both alike; 20 calls per run each, after 5 warm-up calls. `extra` is the
    difference of the medians."""
    os.makedirs(os.path.join(sb.proj, ".git"), exist_ok=True)
    modes = ("full", "workspace-write")
    rpcs = {mode: Rpc(cmd + ["--sandbox", mode], sb) for mode in modes}
    times = {mode: [] for mode in modes}
    try:
        for i in range(5 + 20 * runs):
            for mode in modes:
                t0 = time.perf_counter()
                rpcs[mode].send({"type": "bash", "id": f"b{i}", "command": "true"})
                rpcs[mode].wait_type("response", 60)
                times[mode].append((time.perf_counter() - t0) * 1000)
    finally:
        for rpc in rpcs.values():
            rpc.close()
    result = {mode: stats(times[mode][5:]) for mode in modes}
    result["extra"] = result["workspace-write"][0] - result["full"][0]
    return result


# ---------------------------------------------------------------- fixture


def fixture_text(path):
    if path:
        with open(path) as f:
            return f.read()
    out = subprocess.run(["git", "-C", MIRROR, "show", f"HEAD:{FIXTURE_IN_MIRROR}"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        return None
    return out.stdout


def write_fixture(text, sb):
    """The fixture with its header's cwd set to the sandbox project."""
    lines = text.splitlines()
    header = json.loads(lines[0])
    header["cwd"] = sb.proj
    path = os.path.join(sb.root, "large-session.jsonl")
    with open(path, "w") as f:
        f.write(json.dumps(header) + "\n" + "\n".join(lines[1:]) + "\n")
    return path


REPEATS_20MB = 20
EXPORT_RUNS = 5
ID_FIELDS = ("id", "parentId", "firstKeptEntryId", "targetId", "fromId")


def write_repeated_fixture(text, sb, repeats):
    """The fixture's entries `repeats` times over, one chain (ids made unique per copy; a
    fixture of the first format has none, and its entries chain in file order): a session
    of about `repeats` MB."""
    lines = text.splitlines()
    header = json.loads(lines[0])
    header["cwd"] = sb.proj
    entries = [json.loads(l) for l in lines[1:] if l.strip()]
    out = [json.dumps(header)]
    last = None
    for k in range(repeats):
        for i, e in enumerate(entries):
            e = dict(e)
            for field in ID_FIELDS:
                if isinstance(e.get(field), str):
                    e[field] = f"{e[field]}-{k}"
            if i == 0 and "id" in e:
                e["parentId"] = last
            out.append(json.dumps(e))
        if "id" in entries[-1]:
            last = f"{entries[-1]['id']}-{k}"
    path = os.path.join(sb.root, "session-20mb.jsonl")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return path


# ---------------------------------------------------------------- scale (scripts/bench_scale.py)

from bench_scale import SCALE_ROWS, resume_all, session_search, tools_vs_others, turn_cpu  # noqa: E402


# ---------------------------------------------------------------- main


def attempt(results, key, fn):
    try:
        results[key] = fn()
    except subprocess.TimeoutExpired as e:  # a failing reference run is reported, not fatal
        results[key] = {"error": f"did not finish in {e.timeout:.0f} s"}
        print(f"    {key}: {results[key]['error']}", flush=True)
    except (Exception, SystemExit) as e:  # SystemExit: a pseudo-terminal wait timed out
        first = (str(e).splitlines() or ["failed"])[0]
        results[key] = {"error": "exited early" if "process ended" in first else first[:120]}
        print(f"    {key}: {results[key]['error']}", flush=True)


def bench(name, cmd, args, root, port, fixture):
    sb = Sandbox(root, name.replace(" ", "_").replace(".", "_"), port)
    r = {}
    only = set(args.only.split(",")) if args.only else None
    if name == "before":
        only = set(args.baseline_only.split(",")) & (only or set(args.baseline_only.split(",")))

    def want(key):
        return only is None or key in only

    print(f"  {name}", flush=True)
    model = ["--model", "mock/mock-model"]
    if want("version"):
        attempt(r, "version", lambda: repeat(args.runs, cmd + ["--version"], sb.proj, sb.env))
    if name == "hello-world":
        # The pseudo-terminal floor: starting a process under the harness and seeing its
        # first line, which every first-frame figure below includes.
        attempt(r, "frame", lambda: {"wall": stats([first_frame(cmd, sb, marker=b"0.73.1")
                                                    for _ in range(args.runs)])})
        return r
    if want("turn"):
        attempt(r, "turn", lambda: repeat(args.runs, cmd + model + ["--no-session", "-p", "::words 5"],
                                          sb.proj, sb.env, check="word4"))
    if want("loop"):
        attempt(r, "loop", lambda: repeat(args.runs, cmd + model + ["--no-session", "-p", "run the tools"],
                                          sb.proj, sb.env, check="All done."))
    if want("frame"):
        attempt(r, "frame", lambda: {"wall": stats([first_frame(cmd + model + ["--no-session"], sb)
                                                    for _ in range(args.runs)])})
    if want("lazy60") and name in ("ours", "before"):
        lazy = Sandbox(root, name.replace(" ", "_") + "_lazy60", port)
        write_lazy_extensions(lazy)
        attempt(r, "lazy60", lambda: lazy_vs_none(cmd + model + ["--no-session"], sb, lazy, args.runs))
    if want("resume") and fixture:
        path = write_fixture(fixture, sb)
        # The fixture's last answer ends with this; the first frame shows it.
        attempt(r, "resume", lambda: {"wall": stats([first_frame(cmd + model + ["--session", path], sb,
                                                                 marker=b"mock-model")
                                                     for _ in range(args.runs)])})
    if want("resume20") and fixture:
        path = write_repeated_fixture(fixture, sb, REPEATS_20MB)
        # The reference takes seconds per megabyte: one run is enough to compare.
        runs = args.runs if name != "pi 0.73.1" else 1
        attempt(r, "resume20", lambda: resume_with_rss(cmd + model + ["--session", path], sb, runs))
    if want("resume20-cold") and fixture and name != "pi 0.73.1":
        path = write_repeated_fixture(fixture, sb, REPEATS_20MB)
        attempt(r, "resume20-cold", lambda: resume_with_rss(cmd + model + ["--session", path], sb,
                                                            args.runs, cold=True))
    if want("tree20") and fixture:
        path = write_repeated_fixture(fixture, sb, REPEATS_20MB)
        runs = args.runs if name != "pi 0.73.1" else 1
        attempt(r, "tree20", lambda: tree_open(cmd + model + ["--session", path], sb, runs))
    if want("tui10k"):
        attempt(r, "tui10k", lambda: long_session(cmd + model, sb, args.long_timeout))
    if want("resume20-rpc") and fixture and name != "pi 0.73.1":
        path = write_repeated_fixture(fixture, sb, REPEATS_20MB)
        attempt(r, "resume20-rpc", lambda: rpc_resume(cmd + model, sb, path, args.runs))
    if want("export1") and fixture and name != "before":
        page, r["export1size"] = bench_export.export_page(cmd, sb, write_fixture(fixture, sb))
        attempt(r, "export1", lambda: bench_export.paint(page, EXPORT_RUNS, stats))
    if want("export20") and fixture and name != "before":
        path = write_repeated_fixture(fixture, sb, REPEATS_20MB)
        page, r["export20size"] = bench_export.export_page(cmd, sb, path)
        attempt(r, "export20", lambda: bench_export.paint(page, EXPORT_RUNS, stats))
    if want("stream-json"):
        def json_run():
            wall, rss, cpu, size = timed(cmd + model + ["--no-session", "--mode", "json", "-p", f"::words {WORDS}"],
                                         sb.proj, sb.env, check=f"word{WORDS - 1}", timeout=args.long_timeout)
            return {"wall": wall / 1000, "rss": rss, "cpu": cpu, "bytes": size}
        attempt(r, "stream-json", json_run)
    if want("stream-rpc"):
        attempt(r, "stream-rpc", lambda: rpc_prompts(cmd + model, sb, f"::words {WORDS}", 1, args.long_timeout))
    if want("stream-tui"):
        attempt(r, "stream-tui", lambda: stream_tui(cmd + model, sb, WORDS, args.long_timeout))
    if name == "ours":
        tools_vs_others(r, cmd, sb, args.runs, want, attempt)
    if want("turn-cpu") and fixture:
        attempt(r, "turn-cpu", lambda: turn_cpu(args.runs, cmd + model, sb, lambda: write_fixture(fixture, sb)))
    if want("turn-cpu-anthropic") and fixture:
        anthropic = ["--model", "mock-anthropic/mock-model"]
        attempt(r, "turn-cpu-anthropic",
                lambda: turn_cpu(args.runs, cmd + anthropic, sb, lambda: write_fixture(fixture, sb)))
    if want("search-1gb") and name == "ours" and fixture:
        attempt(r, "search-1gb", lambda: session_search(args.runs, cmd, fixture, sb.proj, sb.env))
    if want("resume-all") and name == "ours" and fixture:
        attempt(r, "resume-all", lambda: resume_all(args.runs, cmd, fixture))
    if want("sandbox") and name == "ours":
        attempt(r, "sandbox", lambda: sandbox_bash(cmd + model, sb, args.runs))
    if want("rpc-200"):
        attempt(r, "rpc-200", lambda: rpc_prompts(cmd + model, sb, "::words 200", RPC_TURNS))
    return r


def fmt_stat(s, unit, digits=1):
    if s is None:
        return "–"
    med, lo, hi = s
    return f"{med:.{digits}f} {unit} ({lo:.{digits}f}–{hi:.{digits}f})"


def cell(results, impl, key, field, unit, digits=1):
    v = results.get(impl, {}).get(key)
    if v is None:
        return "–"
    if "error" in v:
        return "failed: " + v["error"]
    x = v.get(field)
    if x is None:
        return "–"
    if isinstance(x, tuple):
        return fmt_stat(x, unit, digits)
    if field == "bytes":
        return f"{x / 1e6:.1f} MB"
    return f"{x:.{digits}f} {unit}"


def median_of(results, impl, key, field):
    v = results.get(impl, {}).get(key) or {}
    x = v.get(field)
    if isinstance(x, tuple):
        return x[0]
    return x


def ratio(a, b):
    if a is None or b is None or a == 0:
        return "–"
    return f"{b / a:.1f}x"


def report(results, args):
    ours, ref, floor = "ours", "pi 0.73.1", "hello-world"
    rows = [
        ("`--version` wall", "version", "wall", "ms", "≤ 2× hello-world"),
        ("`--version` peak RSS", "version", "rss", "MiB", "≤ hello-world + 4 MiB"),
        ("one `-p` turn vs local mock, wall", "turn", "wall", "ms", "≤ 6 ms"),
        ("one `-p` turn, peak RSS", "turn", "rss", "MiB", ""),
        ("three-turn `-p` tool loop, wall", "loop", "wall", "ms", "≤ 10 ms"),
        ("three-turn `-p` tool loop, peak RSS", "loop", "rss", "MiB", ""),
        ("TUI first complete frame (pty)", "frame", "wall", "ms", "≤ 8 ms"),
        (f"TUI first frame with {LAZY_EXTENSIONS} lazy extensions (pty)", "lazy60", "wall", "ms",
         "≤ frame + 2 ms"),
        ("first frame resuming the 1 MB session (914 messages)", "resume", "wall", "ms", "≤ 15 ms"),
        ("first frame resuming a 20 MB session (the fixture 20 times)", "resume20", "wall", "ms", "≤ 30 ms"),
        ("20 MB session resumed in the TUI: peak RSS at the first frame", "resume20", "rss", "MiB", "≤ 48 MiB"),
        ("the same, its first resume (no index kept yet)", "resume20-cold", "wall", "ms", ""),
        ("`/tree` in the 20 MB session: Enter to the tree drawn", "tree20", "wall", "ms", "≤ 150 ms"),
        ("`/tree` in the 20 MB session: peak RSS after it", "tree20", "rss", "MiB", "≤ 48 MiB"),
        (f"TUI session of {LONG_TURNS * 1000:,} answer lines + 20,000 tool lines: peak RSS", "tui10k", "hwm",
         "MiB", "≤ 40 MiB"),
        ("the same session: RSS at its end", "tui10k", "rss", "MiB", ""),
        ("the same session: CPU of its turns", "tui10k", "cpu", "s", ""),
        ("20 MB session over RPC: peak RSS after `get_state`", "resume20-rpc", "state", "MiB", "≤ 48 MiB"),
        ("20 MB session over RPC: peak RSS after `get_messages`", "resume20-rpc", "messages", "MiB", "≤ 48 MiB"),
        ("1 MB session exported: page painted with messages (Chromium)", "export1", "wall", "ms", ""),
        ("1 MB session exported: file size", "export1size", "bytes", "", "≤ pi 0.73.1's"),
        ("20 MB session exported: page painted with messages (Chromium)", "export20", "wall", "ms", "≤ 1500 ms"),
        ("20 MB session exported: first contentful paint", "export20", "fcp", "ms", ""),
        ("20 MB session exported: whole session drawn (tree, search)", "export20", "ready", "ms", ""),
        ("20 MB session exported: file size", "export20size", "bytes", "", "≤ pi 0.73.1's"),
        ("20 MB session: `--export` wall time", "export20size", "wall", "ms", ""),
        ("20 MB session: `--export` peak RSS", "export20size", "rss", "MiB", ""),
        (f"{WORDS:,}-word answer, TUI: peak RSS", "stream-tui", "rss", "MiB", "≤ 64 MiB"),
        (f"{WORDS:,}-word answer, TUI: CPU", "stream-tui", "cpu", "s", "≤ 0.5 s"),
        (f"{WORDS:,}-word answer, `--mode json`: peak RSS", "stream-json", "rss", "MiB", "≤ 64 MiB"),
        (f"{WORDS:,}-word answer, `--mode json`: CPU", "stream-json", "cpu", "s", "≤ 0.5 s"),
        (f"{WORDS:,}-word answer, `--mode json`: output", "stream-json", "bytes", "", "≤ 100 MB"),
        (f"{WORDS:,}-word answer, RPC: peak RSS", "stream-rpc", "rss", "MiB", "≤ 64 MiB"),
        (f"{WORDS:,}-word answer, RPC: CPU", "stream-rpc", "cpu", "s", "≤ 0.5 s"),
        (f"{WORDS:,}-word answer, RPC: output", "stream-rpc", "bytes", "", ""),
        (f"{RPC_TURNS} RPC turns of 200 words: peak RSS", "rpc-200", "rss", "MiB", ""),
        (f"{RPC_TURNS} RPC turns of 200 words: wall", "rpc-200", "wall", "s", ""),
        ("bash call over RPC, `--sandbox full`", "sandbox", "full", "ms", ""),
        ("bash call over RPC, `--sandbox workspace-write`", "sandbox", "workspace-write", "ms", ""),
        ("bash call: workspace-write's extra over full (medians)", "sandbox", "extra", "ms", "≤ 2 ms"),
    ] + SCALE_ROWS
    before = "before" in results
    lines = [f"runs per timing: {args.runs}; medians with (min–max)", "",
             "| measurement | hello-world |" + (" before |" if before else "") +
             " ours | pi 0.73.1 | pi 0.73.1 / ours | target |",
             "|---|---:|" + ("---:|" if before else "") + "---:|---:|---:|---|"]
    for label, key, field, unit, target in rows:
        # The floor has a `--version` and a first-frame figure; other rows have none.
        hw = cell(results, floor, key, field, unit, 2 if unit == "ms" else 1) if key in ("version", "frame") else ""
        digits = 2 if unit in ("ms", "s", "×") else 1
        was = f" {cell(results, 'before', key, field, unit, digits)} |" if before else ""
        lines.append(f"| {label} | {hw} |{was} {cell(results, ours, key, field, unit, digits)} | "
                     f"{cell(results, ref, key, field, unit, digits)} | "
                     f"{ratio(median_of(results, ours, key, field), median_of(results, ref, key, field))} | {target} |")
    hw_wall = median_of(results, floor, "version", "wall")
    hw_rss = median_of(results, floor, "version", "rss")
    ow, orss = median_of(results, ours, "version", "wall"), median_of(results, ours, "version", "rss")
    if hw_wall and ow:
        lines.append("")
        lines.append(f"`--version` against the floor: {ow / hw_wall:.2f}× the hello-world wall time, "
                     f"{orss - hw_rss:+.1f} MiB over its peak RSS.")
    hw_frame, of = median_of(results, floor, "frame", "wall"), median_of(results, ours, "frame", "wall")
    if hw_frame and of:
        lines.append(f"First frame against the pseudo-terminal floor (a hello-world's first line through "
                     f"the same harness, {hw_frame:.2f} ms): {of - hw_frame:+.2f} ms.")
    lazy = results.get(ours, {}).get("lazy60") or {}
    if lazy.get("wall") and lazy.get("base"):
        lines.append(f"{LAZY_EXTENSIONS} lazy extensions over none, first frame (alternating runs, medians): "
                     f"wall {lazy['wall'][0] - lazy['base'][0]:+.2f} ms, CPU time to the frame "
                     f"{lazy['cpu'][0] - lazy['cpu_base'][0]:+.2f} ms "
                     f"({lazy['cpu_base'][0]:.2f} → {lazy['cpu'][0]:.2f} ms).")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--no-reference", action="store_true")
    ap.add_argument("--reference-cli", help="dist/cli.js of an installed pi 0.73.1 (default: npm install)")
    ap.add_argument("--pi", help="our binary (default: build it)")
    ap.add_argument("--fixture", help="large-session.jsonl (default: from the pi-mono git mirror)")
    ap.add_argument("--baseline", help="an earlier build of ours, measured as a 'before' column")
    ap.add_argument("--baseline-only", default="version,turn,loop,frame,resume",
                    help="what the baseline runs (long answers can take minutes on old builds)")
    ap.add_argument("--only", help="comma-separated measurement names")
    ap.add_argument("--long-timeout", type=int, default=600)
    ap.add_argument("--markdown", help="also write the table to this file")
    args = ap.parse_args()

    release = cargo_build() if not args.pi else os.path.join(target_dir(), "release")
    beside = os.path.dirname(os.path.abspath(args.pi)) if args.pi else None
    if beside and os.path.exists(os.path.join(beside, "examples", "mock_llm")):
        release = beside  # the mock LLM built beside the given binary (a debug build, say)
    ours = [os.path.abspath(args.pi)] if args.pi else [os.path.join(release, "pi")]
    fixture = fixture_text(args.fixture)
    if fixture is None:
        print("the 1 MB fixture was not found; the resume row is skipped (--fixture PATH)")
    results = {}
    with tempfile.TemporaryDirectory() as root:
        impls = [("hello-world", build_hello(root))]
        if args.baseline:
            impls.append(("before", [os.path.abspath(args.baseline)]))
        impls.append(("ours", ours))
        if not args.no_reference:
            ref = ["node", args.reference_cli] if args.reference_cli else ensure_reference()
            impls.append(("pi 0.73.1", ref))
        no_mock = args.only and not set(args.only.split(",")) - {"export1", "export20", "version"}
        mock, port = (None, 9) if no_mock else start_mock(release)  # those rows run no model
        try:
            for name, cmd in impls:
                results[name] = bench(name, cmd, args, root, port, fixture)
        finally:
            if mock:
                mock.terminate()
    table = report(results, args)
    if not args.only or "checkpoints" in args.only.split(","):
        import bench_checkpoints
        table += "\n\n" + bench_checkpoints.table(release, args.runs)
    print()
    print(table)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table + "\n")


if __name__ == "__main__":
    sys.exit(main())
