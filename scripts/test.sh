#!/usr/bin/env bash
# Type-check the shipped Lua and the docs' extension examples, install the MCP test
# servers (npm and PyPI, cached), build the release binary, then run the whole test
# suite. Needs a Rust toolchain, bash (which the tools under test use), Chromium (the
# HTML export is checked in headless Chromium), tmux (the terminal UI is driven in it)
# and curl and python3 (run inside the sandbox), and ripgrep and fd (scripts/bench.py
# compares the grep and find tools with them), installed here with apt-get when
# missing; the Lua checker is installed with cargo when missing; node/npm and python3's
# venv for the MCP servers, and pi 0.73.1's npm package (its RPC client drives ours in a
# test) with npm into target/oracle.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=""
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
    missing="chromium"
fi
# The terminal UI is driven end to end in tmux.
if ! command -v tmux >/dev/null 2>&1; then
    missing="$missing tmux"
fi
# The sandbox tests run curl and python3 inside and outside the sandbox.
for program in curl python3; do
    if ! command -v "$program" >/dev/null 2>&1; then
        missing="$missing $program"
    fi
done
# scripts/bench.py compares the grep and find tools with ripgrep and fd.
if ! command -v rg >/dev/null 2>&1; then
    missing="$missing ripgrep"
fi
if ! command -v fdfind >/dev/null 2>&1 && ! command -v fd >/dev/null 2>&1; then
    missing="$missing fd-find"
fi
if [ -n "$missing" ]; then
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing
fi
./scripts/check-lua.sh
# pi 0.73.1's own RPC client drives our binary in tests/it/rpc_client_compat.rs: install the
# pinned package once into target/oracle (the test says it is skipped when the registry
# cannot be reached).
oracle="target/oracle/node_modules/@mariozechner/pi-coding-agent"
if [ ! -f "$oracle/dist/index.js" ] && command -v npm >/dev/null 2>&1; then
    mkdir -p target/oracle
    npm install --no-audit --no-fund --prefix target/oracle @mariozechner/pi-coding-agent@0.73.1 \
        || echo "warning: could not install @mariozechner/pi-coding-agent@0.73.1 (registry unreachable?)"
fi
# The MCP servers the extension tests drive, from npm and PyPI, into the target folder's
# cache (the tests install them too, and skip with the reason when a registry is out of reach).
./scripts/mcp-test-servers.sh >/dev/null || echo "test.sh: MCP test servers not installed; those tests will skip" >&2
cargo build --release --locked
# The Lua tests of every shipped extension, headless (docs/testing.md).
"${CARGO_TARGET_DIR:-target}/release/pi" test extensions/
cargo test --locked 2>&1
