#!/usr/bin/env bash
# Type-check the shipped Lua and the docs' extension examples, build the release
# binary, then run the whole test suite. Needs a Rust toolchain, bash (which the
# tools under test use) and Chromium (the HTML export is checked in headless
# Chromium; installed here with apt-get when missing); the Lua checker is
# installed with cargo when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium
fi
./scripts/check-lua.sh
cargo build --release --locked
cargo test --locked 2>&1
