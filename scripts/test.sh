#!/usr/bin/env bash
# Type-check the shipped Lua and the docs' extension examples, build the release
# binary, then run the whole test suite. Needs a Rust toolchain, bash (which the
# tools under test use), Chromium (the HTML export is checked in headless
# Chromium), tmux (the terminal UI is driven in it) and curl and python3 (run inside
# the sandbox), and ripgrep and fd (scripts/bench.py compares the grep and find tools
# with them), installed here with apt-get when missing; the Lua checker is installed
# with cargo when missing.
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
cargo build --release --locked
cargo test --locked 2>&1
