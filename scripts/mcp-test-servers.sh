#!/usr/bin/env bash
# Install the MCP servers the integration tests drive, from the registries, into a
# cache folder (first argument; default: the cargo target folder's mcp-servers/):
#   npm:  @modelcontextprotocol/server-everything (the reference test server)
#   PyPI: mcp (the official Python SDK), in a virtual environment
# Already installed parts are kept. Exits non-zero when a registry cannot be reached.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
dir="${1:-$target/mcp-servers}"
mkdir -p "$dir"
if [ ! -x "$dir/npm/node_modules/.bin/mcp-server-everything" ]; then
    mkdir -p "$dir/npm"
    npm install --silent --no-audit --no-fund --prefix "$dir/npm" \
        @modelcontextprotocol/server-everything >&2
fi
if [ ! -x "$dir/venv/bin/python" ] || ! "$dir/venv/bin/python" -c 'import mcp' 2>/dev/null; then
    python3 -m venv "$dir/venv"
    "$dir/venv/bin/pip" install --quiet --disable-pip-version-check mcp >&2
fi
echo "$dir"
