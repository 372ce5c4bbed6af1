#!/usr/bin/env bash
# Build the release binary, then run the whole test suite. Needs only a Rust
# toolchain (and bash, which the tools under test use).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked
cargo test --locked 2>&1
