#!/usr/bin/env python3
"""Regenerates tests/fixtures/reference/ from the reference pi 0.73.1.

Runs the reference CLI (installed with npm into target/bench-reference, or
the command in PI_REFERENCE_CLI) in print mode against examples/mock_llm for each wire protocol and scenario, and
stores its session file and JSON event stream in normalised form (ids,
timestamps and paths replaced), so tests can compare ours field for field.
It also replays a scripted RPC conversation (RPC_SCRIPT) in --mode rpc and
stores each command's response and the events it caused.

Usage: scripts/reference_fixtures.py [--rpc-only]
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


RPC_VOLATILE = {"sessionFile", "sessionId", "entryId", "baseUrl"}

# The scripted RPC conversation: each command, and whether to wait for the
# end of the agent run it starts.
RPC_SCRIPT = [
    {"type": "get_state"},
    {"type": "prompt", "message": "run the tools"},
    {"type": "get_state"},
    {"type": "get_messages"},
    {"type": "get_session_stats"},
    {"type": "bash", "command": "echo hi"},
    {"type": "set_model", "provider": "mock", "modelId": "nope"},
    {"type": "set_model", "provider": "mock", "modelId": "mock-thinker"},
    {"type": "cycle_thinking_level"},
    {"type": "set_thinking_level", "level": "low"},
    {"type": "cycle_model"},
    {"type": "get_available_models"},
    {"type": "get_fork_messages"},
    {"type": "get_last_assistant_text"},
    {"type": "set_session_name", "name": ""},
    {"type": "set_session_name", "name": "named"},
    {"type": "get_state"},
    {"type": "get_commands"},
    {"type": "frobnicate"},
    {"type": "steer", "message": "later"},
    {"type": "set_follow_up_mode", "mode": "all"},
    {"type": "new_session"},
    {"type": "get_state"},
    {"type": "export_html"},
    {"type": "abort"},
]


def normalise_rpc(value, cwd):
    """Like normalise, and also blank session paths, ids and ports."""
    if isinstance(value, dict):
        return {k: ("<volatile>" if k in RPC_VOLATILE else normalise_rpc(v, cwd))
                for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [normalise_rpc(v, cwd) for v in value]
    if isinstance(value, str):
        return value.replace(cwd, "<cwd>")
    return value


def capture_rpc(cli):
    """Replay RPC_SCRIPT in --mode rpc; returns [{command, response, events}]."""
    import queue
    import threading
    mock = subprocess.Popen([os.path.join(ROOT, "target", "release", "examples", "mock_llm"), "parallel"],
                            stdout=subprocess.PIPE, text=True)
    port = int(mock.stdout.readline())
    try:
        with tempfile.TemporaryDirectory() as tmp:
            agent, proj = os.path.join(tmp, "agent"), os.path.realpath(os.path.join(tmp, "proj"))
            os.makedirs(agent)
            os.makedirs(proj)
            models = models_json("anthropic-messages", port)
            models["providers"]["mock"]["models"].append({"id": "mock-thinker", "reasoning": True})
            with open(os.path.join(agent, "models.json"), "w") as f:
                json.dump(models, f)
            with open(os.path.join(proj, "hello.txt"), "w") as f:
                f.write("hello world\n")
            env = dict(os.environ, PI_CODING_AGENT_DIR=agent, PI_OFFLINE="1")
            proc = subprocess.Popen(cli + ["--model", "mock/mock-model", "--mode", "rpc"], cwd=proj, env=env,
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            lines = queue.Queue()
            threading.Thread(target=lambda: [lines.put(json.loads(l)) for l in proc.stdout], daemon=True).start()
            out = []
            for n, command in enumerate(RPC_SCRIPT):
                proc.stdin.write(json.dumps(dict(command, id=f"c{n}")) + "\n")
                proc.stdin.flush()
                response, events = None, []
                while True:
                    try:
                        line = lines.get(timeout=30)
                    except queue.Empty:
                        sys.exit(f"no answer to {command}; events so far: {events}")
                    # pi 0.73 leaves the id out of its unknown-command error.
                    if line.get("type") == "response" and line.get("id", f"c{n}") == f"c{n}" \
                            and line.get("command") == command["type"]:
                        response = line
                    elif command["type"] != "prompt":
                        events.append(line)
                    done = line.get("type") == "agent_end" if command["type"] == "prompt" else response
                    if done and response:
                        break
                out.append({"command": command, "response": normalise_rpc(response, proj),
                            "events": normalise_rpc(events, proj)})
            proc.stdin.close()
            proc.wait(timeout=30)
            return out
    finally:
        mock.terminate()


def main():
    cli = os.environ.get("PI_REFERENCE_CLI", "").split() or ensure_reference()
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "rpc-anthropic-parallel.json"), "w") as f:
        json.dump(capture_rpc(cli), f, indent=1)
    print("wrote rpc-anthropic-parallel")
    if "--rpc-only" in sys.argv:
        return
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
