"""A tiny MCP server over stdio for the extension's tests: tools add, echo, crash
(exits mid-call) and hang (never answers). Each start is appended to the file named
by the first argument."""

import json
import sys

with open(sys.argv[1], "a") as log:
    log.write("started\n")

TOOLS = [
    {"name": "add", "description": "Add a and b",
     "inputSchema": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
                     "required": ["a", "b"]}},
    {"name": "echo", "description": "Echo text",
     "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}},
    {"name": "crash", "description": "Exit during the call", "inputSchema": {"type": "object"}},
    {"name": "hang", "description": "Never answer", "inputSchema": {"type": "object"}},
]


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def text(s):
    return {"content": [{"type": "text", "text": s}]}


for line in sys.stdin:
    msg = json.loads(line)
    method, mid = msg.get("method"), msg.get("id")
    if mid is None:
        continue
    if method == "initialize":
        result = {"protocolVersion": msg["params"]["protocolVersion"], "capabilities": {"tools": {}},
                  "serverInfo": {"name": "tiny", "version": "1"}}
    elif method == "tools/list":
        result = {"tools": TOOLS}
    elif method == "tools/call":
        name, args = msg["params"]["name"], msg["params"].get("arguments") or {}
        if name == "add":
            result = text(str(args["a"] + args["b"]))
        elif name == "echo":
            result = text(args.get("text", ""))
        elif name == "crash":
            sys.stderr.write("tiny: crashing on purpose\n")
            sys.exit(3)
        elif name == "hang":
            continue
        else:
            result = {"isError": True, **text("no tool " + name)}
    else:
        send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "Method not found"}})
        continue
    send({"jsonrpc": "2.0", "id": mid, "result": result})
