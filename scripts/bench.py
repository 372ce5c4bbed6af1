#!/usr/bin/env python3
"""Benchmarks pi against the reference pi 0.73.1 on the same work, in one run.

Usage: scripts/bench.py [--runs N] [--no-reference]

Measures, for each implementation, the median wall time and median peak RSS of:
  * `pi --version`
  * a three-turn `-p` tool loop (bash, then read, then answer) against a local
    mock LLM server (examples/mock_llm.rs, OpenAI chat-completions wire format)
and, for ours only, the session-open and SSE-parsing micro benchmarks.

The reference is installed with npm into target/bench-reference on first use.
Nothing leaves the machine: the mock server listens on 127.0.0.1.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REFERENCE_DIR = os.path.join(ROOT, "target", "bench-reference")
REFERENCE_PKG = "@mariozechner/pi-coding-agent@0.73.1"


def run_once(cmd, cwd, env, check):
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if proc.returncode != 0 or (check and check not in proc.stdout):
        raise SystemExit(f"benchmark command failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stdout}\n{proc.stderr}")
    return proc


def measure(cmd, runs, cwd=None, env=None, check=None):
    """Median wall time (ms) and median peak RSS (MiB) over `runs` runs.

    Wall time is taken from plain runs; peak RSS from separate runs under
    GNU time (a child forked from Python would report Python's own RSS).
    """
    walls, rss = [], []
    for _ in range(runs):
        start = time.perf_counter()
        run_once(cmd, cwd, env, check)
        walls.append((time.perf_counter() - start) * 1000)
        proc = run_once(["/usr/bin/time", "-f", "%M"] + cmd, cwd, env, check)
        rss.append(int(proc.stderr.strip().splitlines()[-1]) / 1024)
    return statistics.median(walls), statistics.median(rss)


def ensure_reference():
    cli = os.path.join(REFERENCE_DIR, "node_modules", "@mariozechner", "pi-coding-agent", "dist", "cli.js")
    if not os.path.exists(cli):
        os.makedirs(REFERENCE_DIR, exist_ok=True)
        subprocess.run(["npm", "install", "--silent", "--no-audit", "--no-fund", REFERENCE_PKG],
                       cwd=REFERENCE_DIR, check=True)
    return ["node", cli]


def cargo_build():
    subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "pi",
                    "--example", "mock_llm", "--example", "session_bench", "--example", "sse_bench"],
                   cwd=ROOT, check=True)
    return os.path.join(ROOT, "target", "release")


def start_mock(release):
    proc = subprocess.Popen([os.path.join(release, "examples", "mock_llm")], stdout=subprocess.PIPE, text=True)
    port = int(proc.stdout.readline().strip())
    return proc, port


def agent_dir_for(port, root):
    agent = os.path.join(root, "agent")
    os.makedirs(agent, exist_ok=True)
    models = {"providers": {"mock": {
        "baseUrl": f"http://127.0.0.1:{port}/v1", "api": "openai-completions", "apiKey": "bench-key",
        "models": [{"id": "mock-model", "contextWindow": 100000, "maxTokens": 4096}]}}}
    with open(os.path.join(agent, "models.json"), "w") as f:
        json.dump(models, f)
    return agent


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--no-reference", action="store_true")
    args = ap.parse_args()

    release = cargo_build()
    ours = [os.path.join(release, "pi")]
    impls = [("ours", ours)]
    if not args.no_reference:
        impls.append(("pi 0.73.1", ensure_reference()))

    mock, port = start_mock(release)
    results = {}
    try:
        for name, cmd in impls:
            with tempfile.TemporaryDirectory() as tmp:
                agent = agent_dir_for(port, tmp)
                proj = os.path.join(tmp, "proj")
                os.makedirs(proj)
                with open(os.path.join(proj, "hello.txt"), "w") as f:
                    f.write("hello world\n")
                env = dict(os.environ, PI_CODING_AGENT_DIR=agent, PI_OFFLINE="1", PI_SKIP_VERSION_CHECK="1")
                version = measure(cmd + ["--version"], args.runs, env=env)
                loop = measure(cmd + ["--model", "mock/mock-model", "--no-session", "-p", "run the tools"],
                               args.runs, cwd=proj, env=env, check="All done.")
                results[name] = {"version": version, "loop": loop}
    finally:
        mock.terminate()

    print(f"runs per measurement: {args.runs} (medians)")
    print(f"{'':<12}{'--version ms':>14}{'--version MiB':>15}{'3-turn -p ms':>14}{'3-turn -p MiB':>15}")
    for name, r in results.items():
        print(f"{name:<12}{r['version'][0]:>14.1f}{r['version'][1]:>15.1f}{r['loop'][0]:>14.1f}{r['loop'][1]:>15.1f}")
    if len(results) == 2:
        a, b = results["ours"], results["pi 0.73.1"]
        print(f"{'ratio':<12}{b['version'][0]/a['version'][0]:>13.0f}x{b['version'][1]/a['version'][1]:>14.0f}x"
              f"{b['loop'][0]/a['loop'][0]:>13.0f}x{b['loop'][1]/a['loop'][1]:>14.0f}x")

    for example in ("session_bench", "sse_bench"):
        out = subprocess.run([os.path.join(release, "examples", example)], capture_output=True, text=True, check=True)
        print(out.stdout.strip())


if __name__ == "__main__":
    sys.exit(main())
