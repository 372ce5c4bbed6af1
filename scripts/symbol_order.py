#!/usr/bin/env python3
"""Writes scripts/symbol-order.txt: the functions pi runs at start-up, in the order the
release link lays them out first.

Usage: scripts/symbol_order.py [--out FILE]

A start-up touches a few thousand functions spread over 16 MB of machine code; the
kernel maps code in 64 KB windows around each page it faults on, so a scattered start
faults on most of the binary and keeps it mapped. Linking the functions a start-up runs
next to one another (LLD's --symbol-ordering-file, passed by build.rs in release builds)
makes the same work touch a few hundred contiguous pages instead.

The list is taken from the release binary itself (the release profile keeps its symbol
table) running under valgrind's callgrind, which records every function a run executes:
`--version`, `--help`, a `-p` turn, the three-turn tool loop, `--mode json`, one RPC
prompt, and the terminal UI's first frame, fresh and resuming a long session, each
against the mock LLM. Functions are listed in that order of scenarios, each once.

Names carry the compiler's hashes, so the list goes stale as the code and the toolchain
change: names that no longer exist are ignored by the linker, and re-running this script
(needs valgrind; about a minute after the build) brings it up to date.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from bench import Sandbox, cargo_build, start_mock  # noqa: E402
from bench_tui import Pty, write_long_session  # noqa: E402

FUNCTION_NAME = re.compile(r"^c?fn=\(\d+\) (\S.*)$")


def callgrind(out, cmd):
    return ["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}"] + cmd


def run_headless(out, cmd, sb, stdin=None):
    subprocess.run(callgrind(out, cmd), cwd=sb.proj, env=sb.env, input=stdin, text=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300, check=False)


def run_tui(out, cmd, sb):
    """The terminal UI until its footer is up, then Ctrl+C twice (a clean exit writes the profile)."""
    p = Pty(callgrind(out, cmd), sb.proj, sb.env)
    try:
        # The footer's context figure: valgrind's banner also names the model.
        p.wait_for(b"/1.0M", timeout=300)
        time.sleep(1.0)
        for _ in range(2):
            p.type(b"\x03")
            time.sleep(0.5)
        deadline = time.time() + 60
        while time.time() < deadline and not os.path.exists(out):
            time.sleep(0.2)
        time.sleep(2.0)
    finally:
        p.close()


def functions(profile):
    names = []
    if not os.path.exists(profile):
        return names
    with open(profile, errors="replace") as f:
        for line in f:
            m = FUNCTION_NAME.match(line.rstrip("\n"))
            if m and not m.group(1).startswith("0x"):
                names.append(m.group(1))
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "scripts", "symbol-order.txt"))
    args = ap.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("valgrind is needed (apt install valgrind)")
    release = cargo_build()
    pi = os.path.join(release, "pi")
    symbols = subprocess.run(["nm", "--defined-only", pi], capture_output=True, text=True).stdout
    defined = {line.split()[-1] for line in symbols.splitlines() if line.strip()}
    if not defined:
        sys.exit(f"{pi} has no symbol table (the release profile must not strip symbols)")
    mock, port = start_mock(release)
    tmp = tempfile.mkdtemp(prefix="pi-symbol-order-")
    try:
        sb = Sandbox(tmp, "run", port)
        model = ["--model", "mock/mock-model"]
        session = os.path.join(tmp, "long.jsonl")
        write_long_session(session, sb.proj)
        prof = lambda name: os.path.join(tmp, f"{name}.callgrind")  # noqa: E731
        run_headless(prof("version"), [pi, "--version"], sb)
        run_headless(prof("turn"), [pi] + model + ["--no-session", "-p", "::words 5"], sb)
        run_headless(prof("loop"), [pi] + model + ["-p", "run the tools"], sb)
        run_headless(prof("json"), [pi] + model + ["--no-session", "--mode", "json", "-p", "::words 5"], sb)
        rpc_prompt = '{"type":"prompt","message":"::words 5"}\n'
        run_headless(prof("rpc"), [pi] + model + ["--no-session", "--mode", "rpc"], sb, stdin=rpc_prompt)
        run_headless(prof("help"), [pi, "--help"], sb)
        run_tui(prof("tui"), [pi] + model + ["--no-session"], sb)
        run_tui(prof("resume"), [pi] + model + ["--session", session], sb)
        order, seen = [], set()
        for name in ("version", "turn", "loop", "json", "rpc", "help", "tui", "resume"):
            found = functions(prof(name))
            print(f"{name}: {len(found)} functions", file=sys.stderr)
            for fn in found:
                if fn in defined and fn not in seen:
                    seen.add(fn)
                    order.append(fn)
        with open(args.out, "w") as f:
            f.write("\n".join(order) + "\n")
        print(f"{len(order)} functions written to {os.path.relpath(args.out, ROOT)}", file=sys.stderr)
    finally:
        mock.kill()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
