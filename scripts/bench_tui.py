#!/usr/bin/env python3
"""Benchmarks the interactive terminal UI against pi 0.73.1, in one run.

Usage: scripts/bench_tui.py [--runs N] [--no-reference] [--pi PATH] [--reference-cli PATH]

Each program runs in a pseudo-terminal of 120x40 driven by this script, which
answers the terminal queries a real terminal would (background colour, device
attributes, keyboard protocol, cursor position) and records every byte drawn.
A local server on 127.0.0.1 speaks the OpenAI chat-completions wire format.

Measured, medians over the runs:
  * first complete frame: launch until the footer (the model name) is drawn
  * idle CPU: % of one core used over 5 s after start-up (/proc/<pid>/stat)
  * keystroke latency, idle: a typed character until it is drawn
  * with a 10,000-line transcript (a resumed session): RSS after it is drawn
  * streaming 300 tokens/s into that transcript: % of one core over 5 s
  * keystroke latency while streaming

The reference is installed with npm into target/bench-reference on first use.
"""

import argparse
import fcntl
import http.server
import json
import os
import pty
import re
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from bench import ensure_reference  # noqa: E402

COLS, ROWS = 120, 40
TOKENS_PER_SECOND = 300
STREAM_SECONDS = 12
TRANSCRIPT_ANSWERS, LINES_PER_ANSWER = 50, 200
KEYS = "жщюяфцчшэйбгдлпъыьзхвмнтсиркуое"
CLK_TCK = os.sysconf("SC_CLK_TCK")

# Terminal queries and the answers of a dark-background xterm-like terminal.
QUERIES = [
    (re.compile(rb"\x1b\]11;\?(\x07|\x1b\\)"), b"\x1b]11;rgb:0000/0000/0000\x1b\\"),
    (re.compile(rb"\x1b\[\?u"), b"\x1b[?0u"),
    (re.compile(rb"\x1b\[0?c"), b"\x1b[?62;22c"),
    (re.compile(rb"\x1b\[6n"), b"\x1b[1;1R"),
    (re.compile(rb"\x1b\[14t"), b"\x1b[4;640;960t"),
    (re.compile(rb"\x1b\[16t"), b"\x1b[6;16;8t"),
]


class StreamHandler(http.server.BaseHTTPRequestHandler):
    """OpenAI chat completions: streams `stream_tokens` tokens at 300/s."""

    stream_tokens = 0

    def log_message(self, *args):
        pass

    def do_POST(self):
        length = int(self.headers.get("content-length", 0))
        self.rfile.read(length)
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.end_headers()
        count = StreamHandler.stream_tokens

        def send(delta, finish=None, usage=None):
            chunk = {"id": "bench", "object": "chat.completion.chunk", "created": 0, "model": "mock-model",
                     "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
            if usage:
                chunk["usage"] = usage
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            self.wfile.flush()

        try:
            send({"role": "assistant", "content": ""})
            start = time.perf_counter()
            for i in range(count):
                token = "streamtok " if i % 12 else "\n\nstreamtok "
                send({"content": token})
                delay = start + (i + 1) / TOKENS_PER_SECOND - time.perf_counter()
                if delay > 0:
                    time.sleep(delay)
            if count == 0:
                send({"content": "ok"})
            send({}, "stop", {"prompt_tokens": 10, "completion_tokens": max(count, 1), "total_tokens": 10 + count})
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass


def start_server():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), StreamHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def write_agent_dir(root, port):
    agent = os.path.join(root, "agent")
    os.makedirs(agent, exist_ok=True)
    models = {"providers": {"mock": {
        "baseUrl": f"http://127.0.0.1:{port}/v1", "api": "openai-completions", "apiKey": "bench-key",
        "models": [{"id": "mock-model", "contextWindow": 100000, "maxTokens": 4096}]}}}
    with open(os.path.join(agent, "models.json"), "w") as f:
        json.dump(models, f)
    with open(os.path.join(agent, "settings.json"), "w") as f:
        json.dump({"quietStartup": False, "collapseChangelog": True, "lastChangelogVersion": "0.73.1"}, f)
    return agent


def write_long_session(path, cwd):
    """A session whose transcript renders to at least 10,000 lines."""
    now = "2026-11-22T10:00:00.000Z"
    entries = [{"type": "session", "version": 3, "id": str(uuid.uuid4()), "timestamp": now, "cwd": cwd}]
    parent = None

    def add(entry):
        nonlocal parent
        entry.update({"id": uuid.uuid4().hex[:8], "parentId": parent, "timestamp": now})
        parent = entry["id"]
        entries.append(entry)

    add({"type": "model_change", "provider": "mock", "modelId": "mock-model"})
    add({"type": "thinking_level_change", "thinkingLevel": "off"})
    zero = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}
    for n in range(TRANSCRIPT_ANSWERS):
        add({"type": "message", "message": {"role": "user", "content": [{"type": "text", "text": f"question {n}"}],
                                            "timestamp": 0}})
        text = "\n".join(f"- line {i} of answer {n}: some words to wrap" for i in range(LINES_PER_ANSWER))
        if n == TRANSCRIPT_ANSWERS - 1:
            text += "\n\nendoftranscript"
        add({"type": "message", "message": {
            "role": "assistant", "content": [{"type": "text", "text": text}], "api": "openai-completions",
            "provider": "mock", "model": "mock-model",
            "usage": {"input": 10, "output": 10, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 20, "cost": zero},
            "stopReason": "stop", "timestamp": 0}})
    with open(path, "w") as f:
        for e in entries:
            f.write(json.dumps(e) + "\n")


def spawn_in_terminal(cmd, cwd, env):
    """Start `cmd` in `cwd` on a new pseudo-terminal of COLS x ROWS, which becomes its
    controlling terminal; returns (pid, master fd).

    posix_spawn, not fork: forking this (threaded, tens of MiB) interpreter costs
    milliseconds that every first-frame figure would carry. The child opens the
    terminal after `setsid`, which makes it the session's controlling terminal.
    """
    master, slave = pty.openpty()
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
    name = os.ttyname(slave)
    os.close(slave)
    actions = [(os.POSIX_SPAWN_OPEN, 0, name, os.O_RDWR, 0),
               (os.POSIX_SPAWN_DUP2, 0, 1), (os.POSIX_SPAWN_DUP2, 0, 2)]
    here = os.getcwd()
    os.chdir(cwd)  # posix_spawn has no working-directory action before Python 3.13
    try:
        pid = os.posix_spawnp(cmd[0], cmd, env, file_actions=actions, setsid=True)
    finally:
        os.chdir(here)
    return pid, master


class Pty:
    """A program in a pseudo-terminal; output is recorded, queries answered."""

    def __init__(self, cmd, cwd, env):
        self.out = bytearray()
        self.lock = threading.Condition()
        self.scanned = 0
        self.start = time.perf_counter()
        self.pid, self.fd = spawn_in_terminal(cmd, cwd, env)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                data = b""
            with self.lock:
                if not data:
                    self.closed = True
                    self.lock.notify_all()
                    return
                self.out.extend(data)
                self._answer()
                self.lock.notify_all()

    def _answer(self):
        start = max(0, self.scanned - 16)
        window = bytes(self.out[start:])
        found = []
        for pattern, reply in QUERIES:
            for m in pattern.finditer(window):
                if start + m.end() > self.scanned:
                    found.append((m.start(), reply))
        for _, reply in sorted(found):
            os.write(self.fd, reply)
        self.scanned = len(self.out)

    def wait_for(self, needle, since=0, timeout=30.0):
        """Seconds since launch when `needle` (bytes) appeared after offset `since`."""
        deadline = time.perf_counter() + timeout
        with self.lock:
            while needle not in self.out[since:]:
                left = deadline - time.perf_counter()
                if left <= 0 or getattr(self, "closed", False):
                    tail = bytes(self.out[-2000:]).decode("utf-8", "replace")
                    raise SystemExit(f"timed out waiting for {needle!r}; output tail:\n{tail}")
                self.lock.wait(left)
            return time.perf_counter() - self.start

    def mark(self):
        with self.lock:
            return len(self.out)

    def type(self, data):
        os.write(self.fd, data)

    def cpu_ticks(self):
        with open(f"/proc/{self.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])

    def rss_mib(self):
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def close(self):
        try:
            os.kill(self.pid, signal.SIGTERM)
            for _ in range(50):
                done, _ = os.waitpid(self.pid, os.WNOHANG)
                if done:
                    break
                time.sleep(0.02)
            else:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
        except (ChildProcessError, ProcessLookupError):
            pass
        os.close(self.fd)


def cpu_percent(p, seconds):
    before, t0 = p.cpu_ticks(), time.perf_counter()
    time.sleep(seconds)
    return (p.cpu_ticks() - before) / CLK_TCK / (time.perf_counter() - t0) * 100


def key_latencies(p, count, keys):
    out = []
    for ch in keys[:count]:
        mark = p.mark()
        t0 = time.perf_counter()
        p.type(ch.encode())
        p.wait_for(ch.encode(), since=mark, timeout=5)
        out.append((time.perf_counter() - t0) * 1000)
        time.sleep(0.05)
    p.type(b"\x15")  # ctrl+u: clear what was typed
    return out


def footer_marker():
    return b"mock-model"


def bench(name, cmd, runs, root, port):
    agent = write_agent_dir(os.path.join(root, name.replace(" ", "_")), port)
    proj = os.path.join(root, name.replace(" ", "_"), "proj")
    os.makedirs(proj, exist_ok=True)
    env = dict(os.environ, PI_CODING_AGENT_DIR=agent, PI_OFFLINE="1", PI_SKIP_VERSION_CHECK="1",
               TERM="xterm-256color", COLORTERM="truecolor")
    for var in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "TMUX"):
        env.pop(var, None)
    base = cmd + ["--model", "mock/mock-model"]
    r = {"frame": [], "idle_cpu": [], "key_idle": [], "rss": [], "stream_cpu": [], "key_stream": []}
    for run in range(runs):
        p = Pty(base + ["--no-session"], proj, env)
        try:
            r["frame"].append(p.wait_for(footer_marker()) * 1000)
            time.sleep(1.0)
            r["idle_cpu"].append(cpu_percent(p, 5.0))
            r["key_idle"].extend(key_latencies(p, 10, KEYS[(run * 3) % 10:]))
        finally:
            p.close()

        session = os.path.join(root, f"long-{name.replace(' ', '_')}-{run}.jsonl")
        write_long_session(session, proj)
        p = Pty(base + ["--session", session], proj, env)
        try:
            p.wait_for(footer_marker(), timeout=60)
            p.wait_for(b"endoftranscript", timeout=60)
            time.sleep(1.0)
            r["rss"].append(p.rss_mib())
            StreamHandler.stream_tokens = TOKENS_PER_SECOND * STREAM_SECONDS
            mark = p.mark()
            p.type(b"go\r")
            p.wait_for(b"streamtok", since=mark, timeout=30)
            time.sleep(0.5)
            r["stream_cpu"].append(cpu_percent(p, 5.0))
            r["key_stream"].extend(key_latencies(p, 10, KEYS[10 + (run * 3) % 10:]))
            r["rss"][-1] = max(r["rss"][-1], p.rss_mib())
        finally:
            p.close()
        print(f"  {name} run {run + 1}/{runs}: frame {r['frame'][-1]:.1f} ms, idle {r['idle_cpu'][-1]:.1f}%, "
              f"stream {r['stream_cpu'][-1]:.1f}%, rss {r['rss'][-1]:.1f} MiB", flush=True)
    return {k: statistics.median(v) for k, v in r.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-reference", action="store_true")
    ap.add_argument("--pi", help="our binary (default: build target/release/pi)")
    ap.add_argument("--reference-cli", help="dist/cli.js of an installed pi 0.73.1 (default: npm install)")
    args = ap.parse_args()

    ours = os.path.abspath(args.pi) if args.pi else None
    if not ours:
        subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "pi"], cwd=ROOT, check=True)
        ours = os.path.join(ROOT, "target", "release", "pi")
    impls = [("ours", [ours])]
    if not args.no_reference:
        reference = ["node", args.reference_cli] if args.reference_cli else ensure_reference()
        impls.append(("pi 0.73.1", reference))

    server, port = start_server()
    results = {}
    with tempfile.TemporaryDirectory() as root:
        for name, cmd in impls:
            results[name] = bench(name, cmd, args.runs, root, port)
    server.shutdown()

    rows = [("first complete frame (ms)", "frame", "≤ 50"), ("idle CPU (% of a core)", "idle_cpu", "~0"),
            ("keystroke to screen, idle (ms)", "key_idle", "≤ 16"),
            ("RSS, 10,000-line transcript (MiB)", "rss", "≤ 40"),
            ("streaming 300 tok/s into it (% of a core)", "stream_cpu", "≤ 15"),
            ("keystroke to screen while streaming (ms)", "key_stream", "≤ 16")]
    names = list(results)
    print(f"\nruns per program: {args.runs} (medians)")
    print("| measurement | " + " | ".join(names) + " | target |")
    print("|---|" + "---:|" * len(names) + "---|")
    for label, key, target in rows:
        print(f"| {label} | " + " | ".join(f"{results[n][key]:.1f}" for n in names) + f" | {target} |")


if __name__ == "__main__":
    sys.exit(main())
