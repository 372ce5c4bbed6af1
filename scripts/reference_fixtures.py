#!/usr/bin/env python3
"""Regenerates tests/fixtures/reference/ from the reference pi 0.73.1.

Runs the reference CLI (installed with npm into target/bench-reference) in
print mode against examples/mock_llm for each wire protocol and scenario, and
stores its session file and JSON event stream in normalised form (ids,
timestamps and paths replaced), so tests can compare ours field for field.

Usage: scripts/reference_fixtures.py
"""

import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import ROOT, ensure_reference  # noqa: E402

OUT = os.path.join(ROOT, "tests", "fixtures", "reference")
VOLATILE = {"id", "parentId", "timestamp", "responseId"}


def normalise(value, cwd):
    """Drop volatile fields and replace the working directory."""
    if isinstance(value, dict):
        return {k: normalise(v, cwd) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [normalise(v, cwd) for v in value]
    if isinstance(value, str):
        return value.replace(cwd, "<cwd>")
    return value


def models_json(api, port):
    base = f"http://127.0.0.1:{port}" + ("/v1" if api == "openai-completions" else "")
    return {"providers": {"mock": {
        "baseUrl": base, "api": api, "apiKey": "test-key",
        "models": [{"id": "mock-model", "contextWindow": 100000, "maxTokens": 4096,
                    "cost": {"input": 1, "output": 2, "cacheRead": 0.1, "cacheWrite": 0}}]}}}


def capture(cli, api, scenario):
    subprocess.run(["cargo", "build", "--release", "--quiet", "--example", "mock_llm"], cwd=ROOT, check=True)
    mock = subprocess.Popen([os.path.join(ROOT, "target", "release", "examples", "mock_llm"), scenario],
                            stdout=subprocess.PIPE, text=True)
    port = int(mock.stdout.readline())
    try:
        with tempfile.TemporaryDirectory() as tmp:
            agent, proj = os.path.join(tmp, "agent"), os.path.realpath(os.path.join(tmp, "proj"))
            os.makedirs(agent)
            os.makedirs(proj)
            with open(os.path.join(agent, "models.json"), "w") as f:
                json.dump(models_json(api, port), f)
            with open(os.path.join(proj, "hello.txt"), "w") as f:
                f.write("hello world\n")
            env = dict(os.environ, PI_CODING_AGENT_DIR=agent, PI_OFFLINE="1")
            out = subprocess.run(cli + ["--model", "mock/mock-model", "--mode", "json", "run the tools"],
                                 cwd=proj, env=env, capture_output=True, text=True, check=True).stdout
            events = [normalise(json.loads(line), proj) for line in out.splitlines() if line.strip()]
            sessions = [os.path.join(dp, f) for dp, _, fs in os.walk(os.path.join(agent, "sessions")) for f in fs]
            with open(sessions[0]) as f:
                entries = [normalise(json.loads(line), proj) for line in f if line.strip()]
            return events, entries
    finally:
        mock.terminate()


def main():
    cli = ensure_reference()
    os.makedirs(OUT, exist_ok=True)
    for api in ("anthropic-messages", "openai-completions"):
        for scenario in ("sequential", "parallel"):
            events, entries = capture(cli, api, scenario)
            name = f"{api}-{scenario}"
            with open(os.path.join(OUT, f"{name}.session.json"), "w") as f:
                json.dump(entries, f, indent=1)
            with open(os.path.join(OUT, f"{name}.events.json"), "w") as f:
                json.dump(events, f, indent=1)
            print(f"wrote {name}: {len(entries)} entries, {len(events)} events")


if __name__ == "__main__":
    main()
